"""The organiser's game page is valid for assistive tech: ids are unique, and every ``<label for>``
points at its own input (the "Winner 2" label used to select the main winner's third radio)."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from league.models import Hanchan
from scoring import services

pytestmark = pytest.mark.django_db


class IdsAndLabels(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.labels: list[str] = []
        self.tags: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(values["id"])  # type: ignore[arg-type]
            self.tags[values["id"]] = tag  # type: ignore[index]
        if tag == "label" and values.get("for"):
            self.labels.append(values["for"])  # type: ignore[arg-type]


def parse(html: str) -> IdsAndLabels:
    parser = IdsAndLabels()
    parser.feed(html)
    return parser


def assert_ids_and_labels(html: str) -> IdsAndLabels:
    page = parse(html)
    duplicates = [i for i, n in Counter(page.ids).items() if n > 1]
    assert not duplicates, f"duplicate ids: {duplicates}"
    missing = [target for target in page.labels if target not in page.tags]
    assert not missing, f"labels pointing at nothing: {missing}"
    shared = [t for t, n in Counter(page.labels).items() if n > 1]
    assert not shared, f"several labels for one element: {shared}"
    not_inputs = [t for t in page.labels if page.tags[t] not in ("input", "select", "textarea")]
    assert not not_inputs, f"labels pointing at a non-input: {not_inputs}"
    return page


@pytest.fixture
def client_in(client, organiser):
    client.force_login(organiser)
    return client


def test_hand_entry_page_ids_unique_and_labels_target_their_inputs(client_in, event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    html = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    page = assert_ids_and_labels(html)
    assert "more-winners" in html  # the double-ron rows are on the page (EMA: multiple ron)
    winner_2 = [t for t in page.labels if "winner" in t and page.tags[t] == "select"]
    assert winner_2, "the Winner 2 label must point at the Winner 2 select"


def test_final_scores_page_ids_unique_and_labels_target_their_inputs(client_in, event, players, organiser):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    html = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert_ids_and_labels(html)
