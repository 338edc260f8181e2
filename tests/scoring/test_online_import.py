"""Importing online games (scoring.imports: preview_online, import_online_games): players found by online
name, a log imported once, every game or none, and what the preview says before anything is written.

The logs are the hand-written fixtures of tests/scoring/logs/fixtures (their scores were computed by hand);
the numbers below are read from them: the Tenhou hanchan ending by tobi gives Aoi, ばんび, Kenta, 雀士X the
final scores −15 800, 30 600, 37 700, 47 500, i.e. results −66, −9, +18, +57 under Tenhou's uma
(+20/+10/−10/−20, return 30 000) and Tenhou's rounding to thousands, as the log's own ``sc`` says (exact
points would be −65.8, −9.4, +17.7, +57.5).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from league.models import Hanchan, Player, Registration
from scoring.engine import GameRecord, LogInfo
from scoring.engine.logs import read_log
from scoring.imports import NEW_PLAYER, ImportFailed, import_online_games, preview_online
from scoring.models import HistoryEntry, SeatResult, Win
from scoring.standings import standings
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent / "logs" / "fixtures"
TOBI_ID = "2023061523gm-0089-0000-1a2b3c4d"
WEST_ID = "2023091020gm-00a9-0000-c0ffee01"


def log(name: str, *, as_name: str | None = None) -> GameRecord:
    (record,) = read_log((FIXTURES / name).read_bytes(), name=as_name or name)
    return record


TOBI = log("tenhou-hanchan-tobi.json")  # Aoi, ばんび, Kenta, 雀士X
WEST = log("tenhou-hanchan-west.json")  # Hana, Jiro, Kumi, Mori
FRIENDLY = log("mahjongsoul-friendly-east.json")  # Mika, Ren, Sora, Yuki


@pytest.fixture
def online(club):
    """A Tenhou league: the log's own rules, so the results are the log's."""
    event = make_event(club, "tenhou", slug="tenhou-league")
    event.online = "tenhou"
    event.save()
    return event


@pytest.fixture
def tobi_players(club, online):
    """The four players of the tobi log, registered, known by Tenhou name (or display name)."""
    made = [
        Player.objects.create(display_name="Aoi Tanaka", club=club, tenhou_name="aoi"),  # case differs
        Player.objects.create(display_name="Bambi", club=club, tenhou_name="ばんび"),
        Player.objects.create(display_name="Kenta", club=club),  # by display name
        Player.objects.create(display_name="X", club=club, tenhou_name="雀士Ｘ"),  # full-width X
    ]
    for player in made:
        Registration.objects.create(event=online, player=player)
    return made


def test_players_are_found_by_online_name_and_the_game_keeps_its_log(online, tobi_players, organiser):
    (hanchan,) = import_online_games(event=online, records=[("tobi.json", TOBI)], user=organiser)
    seats = sorted(hanchan.seats.all(), key=lambda s: s.seat)
    assert [s.player for s in seats] == tobi_players
    assert hanchan.source_log_id == TOBI_ID
    assert hanchan.status == Hanchan.Status.FINISHED and hanchan.entry_mode == Hanchan.EntryMode.HANDS
    assert hanchan.played_on == date(2023, 6, 15)  # the day the log id says
    assert hanchan.hands.count() == len(TOBI.hands)
    results = dict(SeatResult.objects.filter(hanchan=hanchan).values_list("player__display_name", "result"))
    assert results == {"Aoi Tanaka": -66000, "Bambi": -9000, "Kenta": 18000, "X": 57000}
    entry = HistoryEntry.objects.get(hanchan=hanchan, action="game imported")
    assert TOBI_ID in entry.summary and entry.user == organiser
    # What each hand was made of comes along: the first win's yaku and dora, as the log says them.
    first = Win.objects.filter(hand__hanchan=hanchan).order_by("hand__number", "pk").first()
    logged = next(w for hand in TOBI.hands for w in hand.wins)
    assert first.yaku == [{"name": y.name, "han": y.han} for y in logged.yaku] and first.dora == logged.dora


def test_the_preview_writes_nothing_and_says_who_everyone_is(online, tobi_players):
    before = (Hanchan.objects.count(), Player.objects.count(), HistoryEntry.objects.count())
    preview = preview_online(event=online, records=[("tobi.json", TOBI)])
    assert (Hanchan.objects.count(), Player.objects.count(), HistoryEntry.objects.count()) == before
    assert preview.ready and not preview.errors and not preview.unresolved
    (game,) = preview.games
    assert [seat["player"] for seat in game.seats] == tobi_players
    assert [seat["how"] for seat in game.seats] == [
        "Tenhou name",
        "Tenhou name",
        "display name",
        "Tenhou name",
    ]
    assert list(game.final.scores) == [-15800, 30600, 37700, 47500]
    assert game.warnings == []
    # The standings change: everyone from no game to one, ranked by the imported results.
    change = {row.name: row for row in preview.standings}
    assert change["X"].rank_after == 1 and change["Aoi Tanaka"].rank_after == 4
    assert change["Kenta"].points_after == 18000 and change["Kenta"].games_after == 1
    assert all(row.games_before == 0 and row.rank_before is None for row in preview.standings)


def test_the_standings_change_adds_to_the_games_already_played(online, tobi_players, organiser):
    import_online_games(event=online, records=[("tobi.json", TOBI)], user=organiser)
    # The same four play the west game under other names: picked by the organiser.
    picks = {
        "Hana": tobi_players[0].pk,
        "Jiro": tobi_players[1].pk,
        "Kumi": tobi_players[2].pk,
        "Mori": tobi_players[3].pk,
    }
    preview = preview_online(event=online, records=[("west.json", WEST)], choices=picks)
    assert preview.ready
    change = {row.name: row for row in preview.standings}
    kenta = change["Kenta"]  # sat West in the west game: 33 000, first, +43.0
    assert (kenta.games_before, kenta.games_after) == (1, 2)
    assert (kenta.points_before, kenta.points_after) == (18000, 18000 + 43000)
    assert (kenta.rank_before, kenta.rank_after) == (2, 1)
    # The preview's "after" is what the standings say once imported.
    import_online_games(event=online, records=[("west.json", WEST)], choices=picks)
    rows = {row.name: row for row in standings(online)}
    assert all(
        rows[r.name].points == r.points_after and rows[r.name].rank == r.rank_after for r in preview.standings
    )


def test_a_log_already_imported_is_refused_naming_it(online, tobi_players, organiser):
    (first,) = import_online_games(event=online, records=[("tobi.json", TOBI)], user=organiser)
    preview = preview_online(event=online, records=[("again.json", TOBI)])
    assert not preview.ready
    assert preview.errors == [
        f"again.json: log {TOBI_ID} is already imported in this event (game {first.pk}): a log is imported "
        "once."
    ]
    with pytest.raises(ImportFailed) as info:
        import_online_games(event=online, records=[("again.json", TOBI)], user=organiser)
    assert f"log {TOBI_ID} is already imported" in str(info.value) and str(first.pk) in str(info.value)
    assert Hanchan.objects.count() == 1


def test_the_same_log_twice_in_one_import_is_refused(online, tobi_players):
    preview = preview_online(event=online, records=[("a.json", TOBI), ("b.json", TOBI)])
    assert preview.errors == ["b.json: this log is in the import twice (also a.json)."]
    with pytest.raises(ImportFailed, match="in this import twice"):
        import_online_games(event=online, records=[("a.json", TOBI), ("b.json", TOBI)])
    assert not Hanchan.objects.exists()


def test_another_event_may_import_the_same_log(online, tobi_players, club):
    import_online_games(event=online, records=[("tobi.json", TOBI)])
    other = make_event(club, "tenhou", slug="other-league")
    import_online_games(event=other, records=[("tobi.json", TOBI)], choices={})
    assert Hanchan.objects.filter(source_log_id=TOBI_ID).count() == 2


def test_a_log_without_id_is_known_by_its_fingerprint(online, club):
    """An mjlog file not named after its log id has no id: the same game is still imported once."""
    anonymous = log("tenhou-tonpuu-pao.xml", as_name="game.xml")
    assert anonymous.log.id is None
    event = make_event(club, "tenhou", slug="tonpuu", length="tonpuusen")
    choices = dict.fromkeys(anonymous.players, NEW_PLAYER)
    (hanchan,) = import_online_games(event=event, records=[("game.xml", anonymous)], choices=choices)
    assert hanchan.source_log_id.startswith("sha256:") and len(hanchan.source_log_id) <= 80
    # The players are known now (by their new Tenhou names): the log itself is what is refused.
    assert preview_online(event=event, records=[("copy.xml", anonymous)]).errors == [
        f"copy.xml: log {hanchan.source_log_id} is already imported in this event (game {hanchan.pk}): a log "
        "is imported once."
    ]
    with pytest.raises(ImportFailed, match="already imported"):
        import_online_games(event=event, records=[("copy.xml", anonymous)])


def test_all_or_nothing_when_one_game_fails(online, tobi_players):
    """The second game's players are unknown: nothing is written, not even the first game."""
    counts = (Hanchan.objects.count(), Player.objects.count(), Registration.objects.count())
    with pytest.raises(ImportFailed, match="unknown player 'Hana'"):
        import_online_games(event=online, records=[("tobi.json", TOBI), ("west.json", WEST)])
    assert (Hanchan.objects.count(), Player.objects.count(), Registration.objects.count()) == counts
    # Creating the first of them and leaving the others unknown fails the same way.
    with pytest.raises(ImportFailed):
        import_online_games(
            event=online, records=[("tobi.json", TOBI), ("west.json", WEST)], choices={"Hana": NEW_PLAYER}
        )
    assert (Hanchan.objects.count(), Player.objects.count(), Registration.objects.count()) == counts


def test_unknown_names_are_asked_then_created_with_their_online_name(online, club, organiser):
    preview = preview_online(event=online, records=[("friendly.json", FRIENDLY)])
    assert set(preview.unresolved) == {"Mika", "Ren", "Sora", "Yuki"} and not preview.ready
    assert all(seat["unresolved"] for seat in preview.games[0].seats)
    choices = dict.fromkeys(["Mika", "Ren", "Sora", "Yuki"], NEW_PLAYER)
    mika_before = Player.objects.create(display_name="Michaela", club=club)
    choices["Mika"] = mika_before.pk
    event = online
    event.online = "mahjongsoul"
    event.save()
    import_online_games(event=event, records=[("friendly.json", FRIENDLY)], choices=choices, user=organiser)
    ren = Player.objects.get(display_name="Ren")
    assert (ren.club, ren.mahjongsoul_name, ren.tenhou_name) == (club, "Ren", "")
    # The player picked for "Mika" keeps it as Mahjong Soul nickname: found by it next time.
    mika_before.refresh_from_db()
    assert mika_before.mahjongsoul_name == "Mika"
    entry = HistoryEntry.objects.get(action="player edited")
    assert "Michaela" in entry.summary and entry.after == {
        "player": mika_before.pk,
        "mahjongsoul_name": "Mika",
    }
    assert set(Registration.objects.filter(event=event).values_list("player__display_name", flat=True)) == {
        "Michaela",
        "Ren",
        "Sora",
        "Yuki",
    }
    assert preview_online(event=event, records=[("again", FRIENDLY)]).matches["Mika"].player == mika_before


def test_a_pick_outside_the_event_and_its_club_is_refused(online, tobi_players, other_club):
    stranger = Player.objects.create(display_name="Stranger", club=other_club)
    choices = {"Hana": stranger.pk, "Jiro": NEW_PLAYER, "Kumi": NEW_PLAYER, "Mori": NEW_PLAYER}
    with pytest.raises(ImportFailed, match="not registered in"):
        import_online_games(event=online, records=[("west.json", WEST)], choices=choices)
    with pytest.raises(ImportFailed, match="not registered in"):
        import_online_games(
            event=online, records=[("west.json", WEST)], choices={**choices, "Hana": "drop table"}
        )
    assert not Hanchan.objects.exists()
    stranger.refresh_from_db()
    assert stranger.tenhou_name == ""


def test_creating_a_player_the_club_already_has_is_refused(online, club):
    Player.objects.create(display_name="Hana", club=club, tenhou_name="someone-else")
    Player.objects.create(display_name="hana", club=club)  # two players now answer to "Hana"
    preview = preview_online(event=online, records=[("west.json", WEST)])
    assert len(preview.unresolved["Hana"]) == 2  # ambiguous: both offered, neither guessed
    choices = dict.fromkeys(["Hana", "Jiro", "Kumi", "Mori"], NEW_PLAYER)
    with pytest.raises(ImportFailed, match="already has a player called 'Hana'"):
        import_online_games(event=online, records=[("west.json", WEST)], choices=choices)


def test_one_player_cannot_sit_in_two_seats(online, tobi_players):
    picks = {"Hana": tobi_players[0].pk, "Jiro": tobi_players[0].pk, "Kumi": NEW_PLAYER, "Mori": NEW_PLAYER}
    preview = preview_online(event=online, records=[("west.json", WEST)], choices=picks)
    assert preview.errors == ["west.json: players: a player can sit in only one seat of a game"]


def test_other_rules_than_the_logs_are_pointed_out(club, tobi_players):
    """Starting with 30 000 the log's game ends with other scores: the preview says so and shows both; under
    EMA rules (no nagashi mangan) it cannot be replayed at all: an error naming the hand and both rules."""
    richer = make_event(club, "tenhou", slug="richer", start_points=30000)
    (game,) = preview_online(event=richer, records=[("tobi.json", TOBI)], choices={}).games
    assert not game.error
    assert list(game.final.scores) == [-10800, 35600, 42700, 52500]  # the event's: what will count
    assert game.log_scores == (-15800, 30600, 37700, 47500)
    assert [seat["log_score"] for seat in game.seats] == [-15800, 30600, 37700, 47500]
    assert any("under tenhou rules" in w and "score it differently" in w for w in game.warnings)
    ema = make_event(club, "ema2016", slug="ema-league")
    (game,) = preview_online(event=ema, records=[("tobi.json", TOBI)]).games
    assert "hand 4: nagashi mangan" in game.error and "this event's are ema2016" in game.error


def test_a_game_from_another_site_or_lobby_is_pointed_out(online, tobi_players):
    online.online_lobby = "L1234"
    online.save()
    (game,) = preview_online(event=online, records=[("tobi.json", TOBI)]).games
    assert game.warnings == ["This game was played in lobby 0; the event's lobby is L1234."]
    online.online = "mahjongsoul"
    online.online_lobby = ""
    online.save()
    (game,) = preview_online(event=online, records=[("tobi.json", TOBI)]).games
    assert game.warnings == ["This game was played on Tenhou; the event is marked as played on Mahjong Soul."]


def test_a_log_record_keeps_working_through_import_records(online, tobi_players):
    """convert_log's output imported as a record: the same matching and the same refusal of a duplicate."""
    from scoring.imports import import_records

    data = TOBI.to_dict()
    (hanchan,) = import_records(event=online, sources=[("game.json", data)])
    assert hanchan.source_log_id == TOBI_ID
    with pytest.raises(ImportFailed, match="already imported"):
        import_records(event=online, sources=[("game.json", data)])
    # A record with a log id longer than the column is refused by name.
    data["log"] = LogInfo(source="tenhou", id="x" * 90).to_dict()
    with pytest.raises(ImportFailed, match="longer than 80 characters"):
        import_records(event=online, sources=[("long.json", data)])


def test_the_preview_costs_a_bounded_number_of_queries(online, tobi_players, django_assert_max_num_queries):
    records = [("tobi.json", TOBI), ("west.json", WEST)]
    picks = dict.fromkeys(["Hana", "Jiro", "Kumi", "Mori"], NEW_PLAYER)
    with django_assert_max_num_queries(10):
        preview = preview_online(event=online, records=records, choices=picks)
    assert preview.ready and len(preview.standings) == 8


def test_a_concurrent_import_of_the_same_log_is_refused_by_the_database(online, tobi_players, monkeypatch):
    """Two organisers import the same log at once: both pass the check, the unique constraint on
    (event, log id) stops the second, which then saves nothing and says why."""
    import_online_games(event=online, records=[("tobi.json", TOBI)])
    monkeypatch.setattr("scoring.imports._check_log_ids", lambda games, event: None)  # the race's window
    counts = (Hanchan.objects.count(), HistoryEntry.objects.count(), Registration.objects.count())
    with pytest.raises(ImportFailed, match="someone imported one of these logs at the same time"):
        import_online_games(
            event=online,
            records=[("west.json", WEST), ("tobi.json", TOBI)],
            choices=dict.fromkeys(["Hana", "Jiro", "Kumi", "Mori"], NEW_PLAYER),
        )
    assert (Hanchan.objects.count(), HistoryEntry.objects.count(), Registration.objects.count()) == counts
    assert not Player.objects.filter(display_name="Hana").exists()


def test_a_pick_keeps_the_name_only_if_no_one_else_has_it(online, club):
    """Two players already answer to the Tenhou name "Hana" (entered before the rule): the organiser
    picks a third; that pick counts for the game, but the name is not given to a third player."""
    Player.objects.create(display_name="Hana One", club=club, tenhou_name="hana")
    Player.objects.create(display_name="Hana Two", club=club, tenhou_name="HANA")
    hanako = Player.objects.create(display_name="Hanako", club=club)
    choices = {"Hana": hanako.pk, "Jiro": NEW_PLAYER, "Kumi": NEW_PLAYER, "Mori": NEW_PLAYER}
    (hanchan,) = import_online_games(event=online, records=[("west.json", WEST)], choices=choices)
    assert hanchan.seats.get(seat=0).player == hanako
    hanako.refresh_from_db()
    assert hanako.tenhou_name == ""
    assert not HistoryEntry.objects.filter(action="player edited").exists()
