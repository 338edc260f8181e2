"""The final-scores page of a game kept on paper: it says what its chombo fields do (a deduction after
uma, not an amount to take off the scores) and carries a running total of the four scores, served by a
deferred script of our own (no inline script); the server's check stays the authority."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from league.models import Hanchan
from scoring import services

pytestmark = pytest.mark.django_db


class Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.total: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script":
            self.scripts.append(values)
        if values.get("id") == "final-scores-total":
            self.total = values


@pytest.fixture
def page(client, organiser, event, players):
    client.force_login(organiser)
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    return client.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()


def test_chombo_text_says_what_the_chombo_fields_do(page, event):
    assert "as penalties" not in page  # the old text contradicted the chombo fields beside it
    amount = event.rules.chombo_points
    assert f"Each chombo counted here is a −{amount} deduction from that player" in page
    assert "after uma" in page
    assert "Chombos of Ann" in page


def test_running_total_element_and_its_deferred_script(page, event):
    parsed = Scripts()
    parsed.feed(page)
    assert parsed.total is not None
    assert parsed.total["data-expected-total"] == str(4 * event.rules.start_points)
    for key in ("data-text-ok", "data-text-off", "data-text-incomplete"):
        assert "{total}" in (parsed.total[key] or "")
    ours = [s for s in parsed.scripts if (s.get("src") or "").endswith("js/final-scores-total.js")]
    assert len(ours) == 1 and "defer" in ours[0]
    script = Path(settings.BASE_DIR) / "static" / "js" / "final-scores-total.js"
    assert "final-scores-total" in script.read_text(encoding="utf-8")


def test_no_chombo_fields_where_a_chombo_is_paid_at_the_table(client, organiser, club, players):
    from league.models import Registration
    from tests.conftest import make_event

    event = make_event(club, "ema2016", slug="reverse-mangan", chombo="reverse_mangan")
    for player in players[:4]:
        Registration.objects.create(event=event, player=player)
    client.force_login(organiser)
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    text = client.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert "Chombos of Ann" not in text
    assert 'id="final-scores-total"' in text


def test_hand_entry_page_does_not_load_the_total_script(client, organiser, event, players):
    client.force_login(organiser)
    game = services.start_game(event=event, players=players[:4], user=organiser)
    assert (
        "final-scores-total.js"
        not in client.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    )
