"""The final-scores page of a game kept on paper: it says what its chombo fields do (a deduction after
uma, not an amount to take off the scores) and carries a running total of the four scores, served by a
deferred script of our own (no inline script); the server's check stays the authority."""

from __future__ import annotations

import re
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


def test_hand_entry_page_folds_the_final_scores_form_away_with_its_total_script(
    client, organiser, event, players
):
    """The organiser may type a hand-by-hand game's final scores too (tests/scoring/
    test_entry_mode_switch.py): the form waits, folded, below the hand form, with its running total."""
    client.force_login(organiser)
    game = services.start_game(event=event, players=players[:4], user=organiser)
    page = client.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert "final-scores-total.js" in page
    assert '<details class="card" id="final-scores-instead">' in page  # folded until used


# -- corrections through the page: a reason, and what changed in the game's history ------------------------


def _scores_post(game: Hanchan, scores: list[int], **extra: object) -> dict[str, object]:
    data: dict[str, object] = {f"score_{i}": s for i, s in enumerate(scores)}
    return data | {"sticks": 0, "version": game.version} | extra


@pytest.fixture
def finished(client, organiser, event, players):
    client.force_login(organiser)
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    game.refresh_from_db()
    return game


def test_a_correction_without_a_reason_is_refused_on_the_reason_field(client, finished):
    url = reverse("scoring_manage:final_scores", args=[finished.pk])
    response = client.post(url, _scores_post(finished, [20000, 32000, 28000, 40000]))
    assert response.status_code == 422
    text = response.content.decode()
    assert "this game is finished, so changing its scores" in text
    assert 'id="final-scores-reason-help"' in text
    assert [s.final_score for s in finished.seats.order_by("seat")] == [40000, 32000, 28000, 20000]

    response = client.post(url, _scores_post(finished, [20000, 32000, 28000, 40000], reason="wrong slip"))
    assert response.status_code == 302
    page = client.get(reverse("scoring_manage:game", args=[finished.pk])).content.decode()
    assert "scores: 40000/32000/28000/20000 → 20000/32000/28000/40000" in page
    assert "wrong slip" in page


def test_a_chombo_correction_on_the_page_lists_the_penalties(client, finished):
    url = reverse("scoring_manage:final_scores", args=[finished.pk])
    post = _scores_post(finished, [40000, 32000, 28000, 20000], chombo_3="1", reason="chombo at south 4")
    assert client.post(url, post).status_code == 302
    page = client.get(reverse("scoring_manage:game", args=[finished.pk])).content.decode()
    assert "chombos: 0/0/0/0 → 0/0/0/1" in page
    assert "chombo penalties: 0/0/0/0 → 0/0/0/-20000" in page


def test_chombos_posted_where_they_are_paid_at_the_table_are_an_error_not_a_crash(
    client, organiser, club, players
):
    from league.models import Registration
    from tests.conftest import make_event

    event = make_event(club, "ema2016", slug="paid-at-table", chombo="reverse_mangan")
    for player in players[:4]:
        Registration.objects.create(event=event, player=player)
    client.force_login(organiser)
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    url = reverse("scoring_manage:final_scores", args=[game.pk])
    response = client.post(url, _scores_post(game, [40000, 32000, 28000, 20000], chombo_1="1"))
    assert response.status_code == 422
    assert "a chombo is paid at the table" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS


def _public_game_page(client, event, organiser, players, scores):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=game, scores=scores, user=organiser)
    return client.get(reverse("scoring:game", args=[game.pk])).content.decode()


def test_a_game_counted_in_whole_thousands_shows_what_the_rounding_moved(client, club, organiser, players):
    """Tenhou's points (the ``tenhou`` preset rounds to whole thousands): without a rounding column the
    page's uma, oka and penalties would not add up to the results it shows."""
    from league.models import Registration
    from tests.conftest import make_event

    event = make_event(club, preset="tenhou", slug="online-season")
    for player in players[:4]:
        Registration.objects.create(event=event, player=player)
    page = _public_game_page(client, event, organiser, players, [20100, 35800, 5200, 38900])
    assert "Rounding" in page
    table = page[page.index('class="final-table"') :]
    cells = re.findall(r'<td class="num">([^<]*)</td>', table)
    # Per row: score, place, uma, oka, rounding, penalties (the result is in its own <strong>).
    rounding = [cells[row * 6 + 4] for row in range(4)]
    assert rounding == ["−100", "+200", "−200", "+100"]  # exact: −19 900, +15 800, −44 800, +48 900
    results = re.findall(r'<td class="num result"><strong[^>]*>([^<]*)</strong>', table)
    assert results == ["−20000", "+16000", "−45000", "+49000"]


def test_a_game_with_exact_points_has_no_rounding_column(client, event, organiser, players):
    page = _public_game_page(client, event, organiser, players, [20100, 35800, 25200, 38900])
    assert "Rounding" not in page
