"""An event in stages in a phone-sized Chromium: 32 players play 4 qualifying rounds, the organiser adds a
semifinal stage (the top 8, points carried over) and a final table (the top 4, half the points, winds by
rank), closes each stage at its cut line, seats the next, and the wall shows each stage in turn; the
final ranking puts the finalists first and lists all 32 players once."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import Club, Event, Hanchan, Player, Registration
from scoring import services
from tests.conftest import make_event
from tests.e2e.conftest import ARTIFACTS, login
from tournaments import services as tournament
from tournaments import stages
from tournaments.models import Stage, StageEntrant

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "grand-prix"
SCORES = [(40000, 32000, 28000, 20000), (45000, 31000, 15000, 29000), (26000, 34000, 36000, 24000)]


def finish(event: Event, number: int, user) -> None:
    for i, hanchan in enumerate(
        Hanchan.objects.filter(event=event, round_number=number).order_by("table_number")
    ):
        scores = SCORES[(i * 7 + number) % len(SCORES)]
        services.record_final_scores(hanchan=hanchan, scores=list(scores), user=user)


def close(page, event: Event, order: int) -> None:
    """Close stage ``order`` from its preview page, deciding a tie at the line if there is one."""
    page.goto(f"/manage/events/{SLUG}/stages/")
    page.click(f"#close-stage-{order}")
    page.wait_for_selector("#cut-line")
    cut = stages.cut_preview(next(s for s in stages.stages_of(event) if s.order == order)).cut
    for player in cut.tied[: cut.places]:  # equal on every tie-break: the organiser decides
        page.check(f"#cut-decide input[value='{player}']")
    page.click("#cut-accept")
    page.wait_for_url(f"**/manage/events/{SLUG}/stages/")


def test_qualifying_rounds_cut_to_semifinals_and_a_final(page):
    user = get_user_model().objects.create_user("mina", password="organiser-pass-123")
    club = Club.objects.create(name="Mahjong Lyon", slug="mahjong-lyon", country="FR")
    club.organisers.add(user)
    event = make_event(club, slug=SLUG)
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    for i in range(32):
        player = Player.objects.create(display_name=f"Player {i + 1:02d}", club=club)
        Registration.objects.create(event=event, player=player)
    tournament.seat_tournament(event=event, rounds=4, user=user)
    for number in range(1, 5):
        finish(event, number, user)
    login(page, "mina", "organiser-pass-123")

    # Add the semifinals and the final on the stages page.
    page.goto(f"/manage/events/{SLUG}/tournament/")
    page.click("#link-stages")
    page.wait_for_url(f"**/manage/events/{SLUG}/stages/")
    for name, size, carry, seating in (("Semifinals", "8", "all", "rank"), ("Final", "4", "half", "final")):
        page.fill("#id_name", name)
        page.fill("#id_rounds", "1")
        page.select_option("#id_entrants", "top")
        page.fill("#id_cut_size", size)
        page.select_option("#id_carry_over", carry)
        page.select_option("#id_seating", seating)
        page.select_option("#id_winds", "rank")
        page.click("#stage-add-form button[type=submit]")
        page.wait_for_url(f"**/manage/events/{SLUG}/stages/")
    assert page.locator("#stage-list tbody tr").count() == 3

    # The cut after 4 rounds: the preview first, then 8 players go through; two semifinal tables.
    page.click("#close-stage-1")
    page.wait_for_selector("#cut-line")
    assert "8 players go through to Semifinals." in page.inner_text("#cut-summary")
    assert page.locator("#cut-line tbody tr").count() == 32
    page.screenshot(path=str(ARTIFACTS / "stages-cut.png"), full_page=True)
    close(page, event, 1)
    page.click("#seat-stage-2")
    page.wait_for_url(f"**/manage/events/{SLUG}/stages/")
    semis = Hanchan.objects.filter(event=event, round_number=5)
    assert semis.count() == 2
    semifinalists = set(
        StageEntrant.objects.filter(stage__event=event, stage__order=2).values_list("player_id", flat=True)
    )
    assert {s.player_id for h in semis.prefetch_related("seats") for s in h.seats.all()} == semifinalists

    # The wall shows the stage being played: the semifinals' 8 players.
    page.goto(f"/events/{SLUG}/wall/?rotate=5")
    # (clock, seating, standings: five seconds each, so the stage's slide is shown within 15 s)
    page.wait_for_selector("#wall-standings #wall-stage-2.is-current", timeout=30_000)
    assert page.locator("#wall-stage-2 .wall-name").count() == 8
    assert "Semifinals" in page.text_content("#wall-stage-2 h2")
    page.screenshot(path=str(ARTIFACTS / "stages-wall-semifinals.png"), full_page=True)

    finish(event, 5, user)
    close(page, event, 2)
    page.click("#seat-stage-3")
    page.wait_for_url(f"**/manage/events/{SLUG}/stages/")
    (final_table,) = Hanchan.objects.filter(event=event, round_number=6).prefetch_related("seats")
    finalists = [r.player_id for r in stages.stage_standings(event, Stage.objects.get(event=event, order=3))]
    assert [s.player_id for s in sorted(final_table.seats.all(), key=lambda s: s.seat)] == finalists
    finish(event, 6, user)

    # The wall: the final by default, each earlier stage on request.
    page.goto(f"/events/{SLUG}/wall/")
    page.wait_for_selector("#wall-standings #wall-stage-3", state="attached")
    assert page.locator("#wall-stage-3 .wall-name").count() == 4
    page.screenshot(path=str(ARTIFACTS / "stages-wall-final.png"), full_page=True)
    for order, shown in ((1, 16), (2, 8)):
        page.goto(f"/events/{SLUG}/wall/?stage={order}")
        page.wait_for_selector(f"#wall-standings #wall-stage-{order}", state="attached")
        assert page.locator(f"#wall-stage-{order} .wall-name").count() == shown  # the top 16 by default

    # The final ranking: the four finalists first, by the final's points with half the semifinals'.
    page.goto(f"/events/{SLUG}/ranking/")
    rows = page.locator("#final-ranking tbody tr")
    assert rows.count() == 32
    final_names = [r.name for r in stages.stage_standings(event, Stage.objects.get(event=event, order=3))]
    shown = page.locator("#final-ranking tbody tr td:nth-child(2)").all_inner_texts()
    assert shown[:4] == final_names
    assert (
        page.locator("#final-ranking tbody tr td:nth-child(3)").all_inner_texts()[:8]
        == ["Final"] * 4 + ["Semifinals"] * 4
    )
    page.screenshot(path=str(ARTIFACTS / "stages-final-ranking.png"), full_page=True)
