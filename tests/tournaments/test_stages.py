"""Stages on the database (tournaments/stages.py): an existing event is one stage and shows exactly what
it showed before; a 16-player event cut to semifinals and a final; ties at the cut left to the organiser
and recorded; drop-outs replaced by the next in line with the reason kept; each stage seats only its
players in its own rounds; the final ranking and the EMA report list everyone once, finalists first."""

from __future__ import annotations

import importlib
import itertools

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.models import Event, Hanchan, HistoryEntry, Registration
from scoring import services
from scoring.cache import results_key
from scoring.standings import standings
from tests.tournaments.test_tournament import make_tournament, tables_of
from tournaments import services as tournament
from tournaments import stages
from tournaments.ema.reconciliation import by_stage, reconcile
from tournaments.ema.report import EmaResultsExport
from tournaments.models import Stage, StageEntrant

pytestmark = pytest.mark.django_db

SCORES = [(40000, 32000, 28000, 20000), (45000, 31000, 15000, 29000), (26000, 34000, 36000, 24000)]


def finish(event, number, user, varied=True):
    """Finish every table of round ``number`` (the scores vary by table unless ``varied`` is False)."""
    tables = Hanchan.objects.filter(event=event, round_number=number).order_by("table_number")
    for i, hanchan in enumerate(tables):
        scores = SCORES[(i + number) % len(SCORES)] if varied else SCORES[0]
        services.record_final_scores(hanchan=hanchan, scores=list(scores), user=user)


def snapshot(client, event):
    """What an event shows: its standings, their CSV, the EMA report, the cache key of its pages."""
    event.refresh_from_db()
    csv = client.get(reverse("scoring:standings_csv", args=[event.slug])).content
    ema = client.get(reverse("tournaments_manage:ema_download", args=[event.slug, "csv"])).content
    return [standings(event)], csv, ema, results_key(event), EmaResultsExport(event).to_csv()


def test_the_migration_makes_an_existing_event_one_stage_and_changes_nothing(club, organiser, client):
    event = make_tournament(club, 12)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    for number in (1, 2):
        finish(event, number, organiser)
    client.force_login(organiser)
    assert not Stage.objects.filter(event=event).exists()  # as an event made before stages
    before = snapshot(client, event)
    migration = importlib.import_module("tournaments.migrations.0006_every_event_one_stage")
    migration.one_stage_per_event(apps, None)
    migration.one_stage_per_event(apps, None)  # run twice: still one stage
    (stage,) = Stage.objects.filter(event=event)
    assert (stage.order, stage.first_round, stage.rounds) == (1, 1, 3)
    assert snapshot(client, event) == before
    stage.event = event
    assert [r.row for r in stages.stage_standings(event, stage)] == standings(event)
    assert [f.line.row for f in stages.final_ranking(event)] == standings(event)


def test_an_event_without_rows_is_one_implicit_stage(club, organiser):
    event = make_tournament(club, 8)
    (stage,) = stages.stages_of(event)
    assert stage.pk is None and stages.round_range([stage], stage) == (None, None)
    assert stages.ema_rows(event) == standings(event, min_games=0)


def qualifying(club, organiser, players=16, rounds=2):
    event = make_tournament(club, players)
    tournament.seat_tournament(event=event, rounds=rounds, user=organiser)
    for number in range(1, rounds + 1):
        finish(event, number, organiser)
    return event


def test_add_stage_validates_each_setting_naming_the_field(club, organiser):
    event = make_tournament(club, 8)
    with pytest.raises(ValidationError) as caught:
        stages.add_stage(event=event, user=organiser, entrants="top", cut_size=6)
    assert "cut_size" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        stages.add_stage(event=event, user=organiser, cut_size=4, carry_over="bonus", bonus="10, ten")
    assert "'ten'" in caught.value.message_dict["bonus"][0]
    with pytest.raises(ValidationError) as caught:
        stages.add_stage(event=event, user=organiser, cut_size=8, seating_method="final")
    assert "seating" in caught.value.message_dict
    league = make_tournament(club, 4)
    league.kind = Event.Kind.LEAGUE
    with pytest.raises(ValidationError, match="play-off") as caught:  # see test_league_playoff.py
        stages.add_stage(event=league, user=organiser, entrants="list")
    assert "entrants" in caught.value.message_dict
    assert not Stage.objects.filter(event=event).exists()


def test_qualifying_semifinals_and_final(club, organiser):
    event = qualifying(club, organiser)
    semis = stages.add_stage(
        event=event, user=organiser, name="Semifinals", cut_size=8, carry_over="all", seating_method="rank"
    )
    final = stages.add_stage(
        event=event,
        user=organiser,
        name="Final",
        cut_size=4,
        carry_over="half",
        seating_method="final",
        winds="rank",
    )
    assert (semis.first_round, final.first_round) == (3, 4)
    first = stages.stages_of(event)[0]
    assert (first.first_round, first.rounds) == (1, 2)

    preview = stages.cut_preview(first)
    qualified = [r.player_id for r in preview.rows[:8]]
    assert preview.cut.decided and preview.cut.through == qualified
    stages.close_stage(stage=first, user=organiser)
    assert list(StageEntrant.objects.filter(stage=semis).values_list("player_id", flat=True)) == qualified

    assert stages.seat_stage(stage=semis, user=organiser) == [3]
    # By rank: seeds 1–4 at table 1, 5–8 at table 2 (winds drawn within the table).
    assert [sorted(t) for t in tables_of(event, 3)] == [sorted(qualified[:4]), sorted(qualified[4:])]
    semi_rows = stages.stage_standings(event, semis)
    before = {r.player_id: r.total for r in preview.rows}
    assert all(r.carried == before[r.player_id] for r in semi_rows)  # "all" carries everything
    finish(event, 3, organiser)
    semi_rows = stages.stage_standings(event, semis)
    assert [r.total for r in semi_rows] == sorted((r.total for r in semi_rows), reverse=True)

    semis.event = event
    stages.close_stage(stage=semis, user=organiser)
    finalists = [r.player_id for r in semi_rows[:4]]
    stages.seat_stage(stage=final, user=organiser)
    assert tables_of(event, 4) == [finalists]  # winds by rank: the best placed sits East
    finish(event, 4, organiser)

    final_rows = stages.stage_standings(event, final)
    assert all(
        r.carried == int(semi.total / 2)
        for r, semi in zip(sorted(final_rows, key=lambda r: r.seed), semi_rows[:4], strict=True)
    )
    ranking = stages.final_ranking(event)
    assert [f.line.player_id for f in ranking[:4]] == [r.player_id for r in final_rows]
    assert [f.stage.order for f in ranking] == [3] * 4 + [2] * 4 + [1] * 8
    assert sorted(f.line.player_id for f in ranking) == sorted(r.player_id for r in standings(event))
    assert [f.rank for f in ranking][:4] == [1, 2, 3, 4]

    report = EmaResultsExport(event)
    assert [r.player_id for r in report.rows] == [f.line.player_id for f in ranking]
    assert [r.place for r in report.rows][:8] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert sum(r.score for r in report.rows) == sum(r.points for r in standings(event))
    check = reconcile(event, export=report)
    assert check.totals_ok
    assert [(c.label, c.games, c.flagged) for c in by_stage(event, check)] == [
        ("Stage 1", 8, 0),
        ("Semifinals", 2, 0),
        ("Final", 1, 0),
    ]


def test_a_tie_at_the_line_waits_for_the_organiser_and_the_decision_is_in_the_history(club, organiser):
    event = qualifying(club, organiser, players=12, rounds=1)
    Hanchan.objects.filter(event=event).delete()  # the same scores at every table: three tied 2nds
    tournament.seat_tournament(event=event, rounds=1, user=organiser)
    finish(event, 1, organiser, varied=False)
    stages.add_stage(event=event, user=organiser, cut_size=4)
    first = stages.stages_of(event)[0]
    preview = stages.cut_preview(first)
    assert len(preview.cut.through) == 3 and len(preview.cut.tied) == 3 and preview.cut.places == 1
    with pytest.raises(ValidationError) as caught:
        stages.close_stage(stage=first, user=organiser)
    assert "choose 1 of them" in caught.value.message_dict["decided"][0]
    chosen = preview.cut.tied[2]
    with pytest.raises(ValidationError):
        stages.close_stage(stage=first, user=organiser, decided=[chosen, preview.cut.tied[0]])
    stages.close_stage(stage=first, user=organiser, decided=[chosen])
    second = stages.stages_of(event)[1]
    entrants = list(StageEntrant.objects.filter(stage=second).values_list("player_id", flat=True))
    assert entrants == [*preview.cut.through, chosen]
    entry = HistoryEntry.objects.filter(event=event, action="stage tie decided").get()
    name = Registration.objects.get(event=event, player_id=chosen).player.display_name
    assert (
        entry.summary_data
        and entry.summary == f"Tie at the cut of Stage 1: the organiser sent {name} through"
    )


def test_a_drop_out_before_the_cut_is_replaced_by_the_next_in_line_with_the_reason(club, organiser):
    event = qualifying(club, organiser)
    stages.add_stage(event=event, user=organiser, cut_size=8)
    first = stages.stages_of(event)[0]
    rows = stages.cut_preview(first).rows
    leaving, ninth = rows[2].player_id, rows[8].player_id
    preview = stages.cut_preview(first, dropped={leaving: "train home"})
    assert preview.cut.stepped_in == {ninth: leaving} and preview.status(leaving) == "dropped"
    with pytest.raises(ValidationError, match="why"):
        stages.close_stage(stage=first, user=organiser, dropped={leaving: " "})
    stages.close_stage(stage=first, user=organiser, dropped={leaving: "train home"})
    second = stages.stages_of(event)[1]
    entrant = StageEntrant.objects.get(stage=second, player_id=ninth)
    assert entrant.replaces_id == leaving and entrant.note == "train home" and entrant.seed == 8
    assert not StageEntrant.objects.filter(stage=second, player_id=leaving).exists()
    assert HistoryEntry.objects.filter(event=event, action="stage drop-out", reason="train home").exists()


def test_a_player_who_left_the_event_is_out_of_the_cut_on_their_own(club, organiser):
    event = qualifying(club, organiser)
    stages.add_stage(event=event, user=organiser, cut_size=8)
    first = stages.stages_of(event)[0]
    best = stages.cut_preview(first).rows[0].player_id
    Registration.objects.filter(event=event, player_id=best).update(dropped_out=True)
    preview = stages.cut_preview(first)
    assert preview.status(best) == "dropped" and best not in preview.cut.through


def test_each_stage_seats_only_its_players_in_its_own_rounds(club, organiser):
    event = qualifying(club, organiser, players=16, rounds=1)
    semis = stages.add_stage(event=event, user=organiser, cut_size=8, rounds=2, seating_method="swiss")
    first = stages.stages_of(event)[0]
    with pytest.raises(ValidationError, match="Close"):
        stages.seat_stage(stage=semis, user=organiser)
    stages.close_stage(stage=first, user=organiser)
    semis.refresh_from_db()
    semis.event = event
    entrants = set(StageEntrant.objects.filter(stage=semis).values_list("player_id", flat=True))
    assert stages.seat_stage(stage=semis, user=organiser) == [2]
    with pytest.raises(ValidationError, match="Finish"):
        stages.seat_stage(stage=semis, user=organiser)
    finish(event, 2, organiser)
    assert stages.seat_stage(stage=semis, user=organiser) == [3]
    for number in (2, 3):
        seated = [p for t in tables_of(event, number) for p in t]
        assert sorted(seated) == sorted(entrants)  # each entrant once per round, nobody else
    # Swiss splits the stage's first tables as far as eight players allow: two of each at each table
    # (four repeated pairs, the fewest possible), where seating by rank alone could repeat a whole table.
    met = [frozenset(p) for n in (2, 3) for t in tables_of(event, n) for p in itertools.combinations(t, 2)]
    assert len(met) - len(set(met)) == 4
    with pytest.raises(ValidationError, match="Every round"):
        finish(event, 3, organiser)
        stages.seat_stage(stage=semis, user=organiser)


def test_the_first_stage_cannot_be_seated_over_a_later_stage(club, organiser):
    event = make_tournament(club, 8)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    stages.add_stage(event=event, user=organiser, cut_size=4, seating_method="final")
    with pytest.raises(ValidationError) as caught:
        tournament.seat_tournament(event=event, rounds=4, user=organiser)
    assert "round 4 starts the next stage" in caught.value.message_dict["rounds"][0]
    tournament.seat_tournament(event=event, rounds=2, user=organiser)  # fewer rounds: still the first stage


def test_hidden_rounds_hide_the_stages_after_them_from_the_public(club, organiser):
    event = qualifying(club, organiser, players=16, rounds=2)
    semis = stages.add_stage(event=event, user=organiser, cut_size=8, carry_over="all")
    stages.close_stage(stage=stages.stages_of(event)[0], user=organiser)
    stages.seat_stage(stage=semis, user=organiser)
    finish(event, 3, organiser)
    event.standings_hidden_after_round = 1
    event.save()
    semis.event = event
    assert stages.stage_standings(event, semis, public=True) == []  # who went through would tell
    assert len(stages.stage_standings(event, semis)) == 8  # the organiser sees everything
    first = stages.stage_standings(event, stages.stages_of(event)[0], public=True)
    assert [r.row for r in first] == standings(event, up_to_round=1)
    public = stages.final_ranking(event, public=True)
    assert {f.stage.order for f in public} == {1} and len(public) == 16
