"""import_games, export_games and seed_demo through ``call_command``, as scripts run them.

The contract (docs/game-record.md §7): JSON on standard output; on failure nothing on standard
output, one line on standard error, exit status 2.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum

from league.models import Club, Event, Hanchan, Player, Registration
from scoring import services
from scoring.engine import Hand, Win, make_ruleset
from scoring.engine.generator import random_game
from scoring.models import Hand as HandRow
from scoring.models import HandSeat, HistoryEntry, Penalty, SeatResult
from scoring.models import Win as WinRow
from tests.conftest import make_event
from tests.scoring.commands import run

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parent / "fixtures" / "examples"  # the contract's worked examples


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """The default hasher takes ~0.5 s a password, once per user the fixtures create."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def expected(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.expected.json").read_text())


def assert_failed(result: tuple[int, str, str], *fragments: str) -> str:
    code, out, err = result
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    for fragment in fragments:
        assert fragment in err
    return err


def results_by_seat(hanchan_id: int) -> list[int]:
    return [r.result for r in SeatResult.objects.filter(hanchan_id=hanchan_id).order_by("seat")]


def standings(event: Event) -> dict[str, tuple[int, dict[int, int]]]:
    """Per player name: the sum of results and the count of each place — what the standings add up."""
    totals: dict[str, int] = {}
    places: dict[str, Counter[int]] = {}
    for row in SeatResult.objects.filter(event=event).select_related("player"):
        name = row.player.display_name
        totals[name] = totals.get(name, 0) + row.result
        places.setdefault(name, Counter())[row.place] += 1
    return {name: (totals[name], dict(places[name])) for name in totals}


# -- import_games ------------------------------------------------------------------------------------


def test_import_examples_as_finished_games_with_the_replay_results(event, players):
    files = [str(EXAMPLES / "ema-dealer-ron.json"), str(EXAMPLES / "ema-double-ron-honba-sticks.json")]
    code, out, err = run("import_games", "--event", event.slug, *files)
    assert (code, err) == (0, "")
    summary = json.loads(out)
    assert summary["imported"] == 2 and len(summary["hanchans"]) == 2
    for hanchan_id, name in zip(
        summary["hanchans"], ["ema-dealer-ron", "ema-double-ron-honba-sticks"], strict=True
    ):
        game = Hanchan.objects.get(pk=hanchan_id)
        assert game.event == event and game.status == Hanchan.Status.FINISHED
        assert game.entry_mode == Hanchan.EntryMode.HANDS
        assert [s.player.display_name for s in game.seats.order_by("seat")] == ["Ann", "Bob", "Cho", "Dan"]
        assert results_by_seat(hanchan_id) == expected(name)["final"]["results"]
        hands = list(HandRow.objects.filter(hanchan=game).order_by("number"))
        assert [h.scores for h in hands] == [h["scores"] for h in expected(name)["hands"]]
    # The examples stop before the end: imported as finished early, and the history says so.
    entry = HistoryEntry.objects.get(hanchan_id=summary["hanchans"][0], action="game imported")
    assert "finished early" in entry.summary and "ema-dealer-ron.json" in entry.reason


def test_chombo_example_with_players_added_keeps_the_deduction(tmp_path, event, players):
    record = example("ema-chombo-tied-leaders") | {"players": ["Ann", "Bob", "Cho", "Dan"]}
    code, out, _ = run("import_games", "--event", event.slug, write(tmp_path, "chombo.json", record))
    assert code == 0
    (hanchan_id,) = json.loads(out)["hanchans"]
    assert results_by_seat(hanchan_id) == expected("ema-chombo-tied-leaders")["final"]["results"]
    assert SeatResult.objects.get(hanchan_id=hanchan_id, seat=2).chombos == 1


def test_record_without_players_is_refused(event, players):
    err = assert_failed(
        run("import_games", "--event", event.slug, str(EXAMPLES / "ema-chombo-tied-leaders.json")),
        "ema-chombo-tied-leaders.json: players:",
        "names no players",
    )
    assert err.startswith(str(EXAMPLES / "ema-chombo-tied-leaders.json"))
    assert not Hanchan.objects.exists()


def test_unknown_player_is_an_error_unless_create_players(tmp_path, event, players, club):
    record = example("ema-dealer-ron") | {"players": ["Ann", "Bob", "Zed", "Dan"]}
    path = write(tmp_path, "zed.json", record)
    assert_failed(run("import_games", "--event", event.slug, path), "zed.json: players:", "'Zed'")
    assert not Hanchan.objects.exists() and not Player.objects.filter(display_name="Zed").exists()

    code, out, _ = run("import_games", "--event", event.slug, "--create-players", path)
    assert code == 0
    zed = Player.objects.get(display_name="Zed")
    assert zed.club == club
    assert Registration.objects.filter(event=event, player=zed).exists()
    (hanchan_id,) = json.loads(out)["hanchans"]
    assert SeatResult.objects.get(hanchan_id=hanchan_id, seat=2).player == zed


def test_players_matched_by_ema_number_and_club_players_registered(tmp_path, club, event, players):
    ema = Player.objects.create(display_name="Camille Laurent", club=club, ema_number="04290017")
    unregistered = Player.objects.create(display_name="Gus", club=club)
    record = example("ema-dealer-ron") | {"players": ["04290017", "Gus", "Cho", "Dan"]}
    code, out, _ = run("import_games", "--event", event.slug, write(tmp_path, "ema.json", record))
    assert code == 0
    game = Hanchan.objects.get(pk=json.loads(out)["hanchans"][0])
    assert [s.player for s in game.seats.order_by("seat")][:2] == [ema, unregistered]
    assert Registration.objects.filter(event=event, player__in=[ema, unregistered]).count() == 2


def test_same_player_twice_is_refused(tmp_path, event, players):
    record = example("ema-dealer-ron") | {"players": ["Ann", "Bob", "Ann", "Dan"]}
    assert_failed(
        run("import_games", "--event", event.slug, write(tmp_path, "twice.json", record)), "only one seat"
    )


def test_all_or_nothing_when_the_second_file_is_invalid(tmp_path, event, players):
    good = str(EXAMPLES / "ema-dealer-ron.json")
    bad = example("ema-dealer-ron") | {
        "hands": [{"result": "ron", "loser": 1, "wins": [{"winner": 0, "han": 1, "fu": 25}]}]
    }
    bad_path = write(tmp_path, "bad.json", bad)
    err = assert_failed(run("import_games", "--event", event.slug, "--create-players", good, bad_path))
    assert err == f"{bad_path}: hand 1: fu 25 needs at least 2 han on a ron\n"
    assert not Hanchan.objects.exists()
    assert not HandRow.objects.exists() and not SeatResult.objects.exists()
    assert not HistoryEntry.objects.exists()


def test_invalid_json_and_unknown_event(tmp_path, event, players):
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    assert_failed(run("import_games", "--event", event.slug, str(path)), f"{path}: not valid JSON")
    assert_failed(
        run("import_games", "--event", "nope", str(EXAMPLES / "ema-dealer-ron.json")), "'nope' does not exist"
    )
    assert_failed(run("export_games", "--event", "nope"), "'nope' does not exist")


def test_record_under_rules_the_event_does_not_allow_is_refused(tmp_path, event, players):
    record = {
        "format": 1,
        "rules": "tenhou",
        "players": ["Ann", "Bob", "Cho", "Dan"],
        "hands": [{"result": "abort", "reason": "four_winds"}],
    }
    path = write(tmp_path, "tenhou.json", record)
    err = assert_failed(run("import_games", "--event", event.slug, path))
    assert err == f"{path}: hand 1: abortive draws are not played under this ruleset\n"
    unknown = example("ema-dealer-ron") | {"rules": "mahjong-soul"}
    assert_failed(
        run("import_games", "--event", event.slug, write(tmp_path, "unknown.json", unknown)),
        "unknown.json: rules: unknown preset 'mahjong-soul'",
    )
    assert not Hanchan.objects.exists()


def test_record_penalties_become_penalty_rows(tmp_path, event, players, organiser):
    record = example("ema-dealer-ron") | {"penalties": [{"seat": 1, "points": -5000, "reason": "slow play"}]}
    code, out, _ = run(
        "import_games", "--event", event.slug, "--user", organiser.username, write(tmp_path, "p.json", record)
    )
    assert code == 0
    (hanchan_id,) = json.loads(out)["hanchans"]
    penalty = Penalty.objects.get()
    assert (penalty.hanchan_id, penalty.player.display_name, penalty.points, penalty.kind) == (
        hanchan_id,
        "Bob",
        -5000,
        Penalty.Kind.OTHER,
    )
    assert penalty.reason == "slow play" and penalty.given_by == organiser
    assert results_by_seat(hanchan_id) == [22700, -5000, -22700, 0]
    assert HistoryEntry.objects.get(hanchan_id=hanchan_id).user == organiser


def test_a_file_may_hold_a_list_of_records(tmp_path, event, players):
    records = [example("ema-dealer-ron"), example("ema-double-ron-honba-sticks"), {"format": 1}]
    path = write(tmp_path, "list.json", records)
    assert_failed(run("import_games", "--event", event.slug, path), f"{path}: record 3: players:")
    path = write(tmp_path, "list.json", records[:2])
    code, out, _ = run("import_games", "--event", event.slug, path)
    assert code == 0 and json.loads(out)["imported"] == 2
    # An event without games exports [], which imports as nothing.
    _, empty, _ = run("export_games", "--event", make_event(event.club, slug="empty").slug)
    assert json.loads(empty) == []
    code, out, _ = run("import_games", "--event", event.slug, write(tmp_path, "empty.json", []))
    assert (code, json.loads(out)) == (0, {"imported": 0, "hanchans": []})


def test_final_scores_record_creates_a_final_scores_game(tmp_path, event, players):
    record = {
        "format": 1,
        "rules": "ema2016",
        "players": ["Ann", "Bob", "Cho", "Dan"],
        "hands": [],
        "final_scores": [40000, 30000, 29000, 20000],
        "final_sticks": 1,
    }
    code, out, _ = run("import_games", "--event", event.slug, write(tmp_path, "paper.json", record))
    assert code == 0
    game = Hanchan.objects.get(pk=json.loads(out)["hanchans"][0])
    assert game.entry_mode == Hanchan.EntryMode.FINAL_SCORES and game.final_sticks == 1
    assert [r.score for r in SeatResult.objects.filter(hanchan=game).order_by("seat")] == [
        41000,
        30000,
        29000,
        20000,
    ]
    wrong = record | {"final_scores": [40000, 30000, 30000, 20000]}
    assert_failed(
        run("import_games", "--event", event.slug, write(tmp_path, "wrong.json", wrong)),
        "wrong.json: final_scores: the four scores sum to 120000, but must sum to 119000",
    )


# -- hostile and careless input (issue 9): one line, exit 2, nothing written ---------------------------

PAPER = {
    "format": 1,
    "rules": "ema2016",
    "players": ["Ann", "Bob", "Cho", "Dan"],
    "hands": [],
    "final_scores": [40000, 30000, 30000, 20000],
}


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (
            {"finished_at": "2025-02-30T10:00:00"},
            "finished_at: must be an ISO 8601 date and time that exists",
        ),
        ({"finished_at": "2025-01-01T10:00:00+99:00"}, "finished_at: must be an ISO 8601 date and time"),
        ({"finished_at": "0001-01-01T00:00:00+14:00"}, "finished_at: must be an ISO 8601 date and time"),
        ({"played_on": "2025-02-30"}, "played_on: must be an ISO 8601 date (YYYY-MM-DD) that exists"),
        ({"final_sticks": 32768}, "final_sticks: must be a whole number from 0 to 999, not 32768"),
        (
            {"final_scores": [2**31, -(2**31) + 119_000, 0, 0], "final_sticks": 1},
            "final_scores: each score must be from -1000000000 to 1000000000",
        ),
        ({"round_number": 32768}, "round_number: must be a whole number from 1 to 999, not 32768"),
        ({"table_number": 0}, "table_number: must be a whole number from 1 to 999, not 0"),
        (
            {"on_behalf_of": [None, "E\x00ve", None, None]},
            "on_behalf_of: the name of seat 1 holds the character U+0000",
        ),
        (
            {"on_behalf_of": [None, "\udc80", None, None]},
            "on_behalf_of: the name of seat 1 holds the character U+DC80",
        ),
        (
            {"players": ["Ann", "Bob", "C\x00o", "Dan"]},
            "players: the name of seat 2 holds the character U+0000",
        ),
        (
            {"players": ["Ann", "Bob", "Cho", "\ud83d"]},
            "players: the name of seat 3 holds the character U+D83D",
        ),
        (
            {"penalties": [{"seat": 0, "points": -(2**31), "reason": "x", "kind": "other"}]},
            "penalty 1: points must be negative, from -1000000 to -1",
        ),
    ],
)
def test_values_the_columns_cannot_hold_are_refused(tmp_path, event, players, extra, words):
    """Each of these gave a traceback (or a database error on PostgreSQL) before; nothing is written."""
    path = write(tmp_path, "bad.json", PAPER | extra)
    err = assert_failed(run("import_games", "--event", event.slug, "--create-players", path), words)
    assert err.startswith(f"{path}: ")
    assert not Hanchan.objects.exists() and Player.objects.count() == len(players)
    # Nothing half-saved, and the same record without the bad value imports.
    code, _, err = run("import_games", "--event", event.slug, write(tmp_path, "good.json", PAPER))
    assert (code, err) == (0, "") and Hanchan.objects.count() == 1


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("[" * 100_000 + "]" * 100_000, "not valid JSON: nested too deeply"),
        (
            "[" + json.dumps(PAPER | {"x": json.loads("[" * 40 + "]" * 40)}) + "]",
            "nested more than 32 levels",
        ),
        (
            '[{"format": 1, "hands": [' + "9" * 4301 + "]}]",
            "not valid JSON: a number has more than 4300 digits",
        ),
    ],
)
def test_json_python_cannot_read_is_one_line(tmp_path, event, players, text, line):
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    assert_failed(run("import_games", "--event", event.slug, str(path)), line)


def test_abort_reason_is_bounded_by_its_column(tmp_path, club, players):
    """Hand.abort_reason holds 20 characters: a longer reason is refused, 20 are stored as given."""
    aborts = make_event(club, slug="aborts", abortive_draws=True)
    for player in players:
        Registration.objects.create(event=aborts, player=player)
    record = PAPER | {"hands": [{"result": "abort", "reason": "r" * 21}]}
    del record["final_scores"]
    assert_failed(
        run("import_games", "--event", aborts.slug, write(tmp_path, "long.json", record)),
        "hand 1: 'reason' is 21 characters long; at most 20 are allowed",
    )
    record["hands"][0]["reason"] = "r" * 20
    code, _, err = run("import_games", "--event", aborts.slug, write(tmp_path, "ok.json", record))
    assert (code, err) == (0, "")
    assert HandRow.objects.get().abort_reason == "r" * 20


def test_event_option_with_a_nul_is_one_line(event):
    """A NUL cannot even be sent to PostgreSQL: the option is refused before any query."""
    assert_failed(
        run("import_games", "--event", "autumn\x00league", "f.json"), "--event holds the character U+0000"
    )
    assert_failed(run("export_games", "--event", "\udc80"), "--event holds the character U+DC80")
    assert_failed(run("standings", "--event", "a\x00"), "--event holds the character U+0000")
    assert_failed(run("export_ema", "--event", "a\x00"), "--event holds the character U+0000")


@pytest.mark.parametrize("after_round", ["abc", "1"])
def test_standings_after_round_on_a_league_is_an_error(event, after_round):
    """A league has no rounds: the page ignores ?up_to_round=, but a script asking for it is told."""
    assert event.kind != Event.Kind.TOURNAMENT
    assert_failed(
        run("standings", "--event", event.slug, "--after-round", after_round),
        f"after-round: event '{event.slug}' is a club league, which has no rounds",
    )


# -- export_games ------------------------------------------------------------------------------------


def _play_a_season(tmp_path: Path, event: Event, players: list[Player], organiser: Any) -> None:
    """Games of every kind: generated hand-by-hand games (some stopped early, some with penalties), one
    entered as final scores with a chombo penalty, one with a substitute, and a voided game."""
    rules = event.rules
    rng = random.Random(7)
    records = []
    for _ in range(12):
        table = rng.sample([p.display_name for p in players], 4)
        game = random_game(
            rules,
            random.Random(rng.getrandbits(32)),
            stop_early=0.05,
            penalty_chance=0.3,
            players=tuple(table),
        )
        records.append(game.to_dict())
    code, _, err = run("import_games", "--event", event.slug, write(tmp_path, "season.json", records))
    assert code == 0, err

    paper = services.start_game(
        event=event, players=players[2:6], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=paper, scores=[45000, 30000, 25000, 20000], user=organiser)
    services.add_penalty(
        event=event,
        player=players[3],
        points=-20000,
        reason="chombo",
        user=organiser,
        kind=Penalty.Kind.CHOMBO,
        hanchan=paper,
    )

    sub = Player.objects.create(display_name="Sub", club=players[0].club)
    Registration.objects.create(event=event, player=sub, is_substitute=True)
    seated = services.start_game(
        event=event, players=[sub, *players[1:4]], user=organiser, on_behalf_of={0: players[0]}
    )
    services.record_hand(hanchan=seated, hand=Hand.ron(1, Win(0, 4, 30)), user=organiser)
    services.finish_game(hanchan=seated, user=organiser, reason="time limit")

    void = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=void, hand=Hand.draw(()), user=organiser)
    services.finish_game(hanchan=void, user=organiser, reason="time limit")
    services.void_game(hanchan=void, user=organiser, reason="wrong table")


def test_export_lists_finished_games_oldest_first_with_the_extra_fields(tmp_path, event, players, organiser):
    _play_a_season(tmp_path, event, players, organiser)
    code, out, err = run("export_games", "--event", event.slug)
    assert (code, err) == (0, "")
    records = json.loads(out)
    finished = Hanchan.objects.filter(event=event, status=Hanchan.Status.FINISHED).order_by(
        "created_at", "pk"
    )
    assert len(records) == finished.count() == 14
    for record, game in zip(records, finished, strict=True):
        assert record["format"] == 1 and record["rules"] == "ema2016"
        assert record["players"] == [s.player.display_name for s in game.seats.order_by("seat")]
    paper = next(r for r in records if "final_scores" in r)
    assert paper["hands"] == [] and paper["final_scores"] == [45000, 30000, 25000, 20000]
    assert paper["final_sticks"] == 0
    assert paper["penalties"] == [{"seat": 1, "points": -20000, "reason": "chombo", "kind": "chombo"}]
    substitute = next(r for r in records if "on_behalf_of" in r)
    assert substitute["players"][0] == "Sub" and substitute["on_behalf_of"] == ["Ann", None, None, None]


def test_export_then_import_into_an_empty_event_reproduces_the_standings(tmp_path, event, players, organiser):
    _play_a_season(tmp_path, event, players, organiser)
    _, out, _ = run("export_games", "--event", event.slug)
    elsewhere = Club.objects.create(name="Elsewhere", slug="elsewhere")
    copy = make_event(elsewhere, slug="copy")
    code, imported, err = run(
        "import_games",
        "--event",
        copy.slug,
        "--create-players",
        write(tmp_path, "export.json", json.loads(out)),
    )
    assert code == 0, err
    assert json.loads(imported)["imported"] == 14
    assert standings(copy) == standings(event)
    assert Player.objects.filter(club=elsewhere).count() == 7  # six players and the substitute
    # Chombo penalties stay chombos; a second export is the same records.
    assert (
        SeatResult.objects.filter(event=copy).aggregate(c=Sum("chombos"))["c"]
        == (SeatResult.objects.filter(event=event).aggregate(c=Sum("chombos"))["c"])
    )
    _, again, _ = run("export_games", "--event", copy.slug)
    assert json.loads(again) == json.loads(out)


# -- seed_demo ---------------------------------------------------------------------------------------


def _counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in [
            get_user_model(),
            Club,
            Player,
            Event,
            Registration,
            Hanchan,
            HandRow,
            WinRow,
            HandSeat,
            Penalty,
            SeatResult,
            HistoryEntry,
        ]
    }


def test_seed_demo_is_idempotent_and_builds_a_season(db):
    code, out, _ = run("seed_demo")
    assert code == 0
    assert "demo / tenbou-demo" in out and "local use only" in out
    first = _counts()
    code, again, _ = run("seed_demo")
    assert code == 0 and "nothing to do" in again
    assert _counts() == first

    event = Event.objects.get(slug="demo-league")
    assert event.rules == make_ruleset("ema2016")
    assert event.club.name == "Tenbou Demo Club" and event.club.organisers.filter(username="demo").exists()
    assert event.registrations.count() == 24
    assert Player.objects.filter(club=event.club, ema_number__isnull=False).count() >= 10
    games = Hanchan.objects.filter(event=event)
    assert games.filter(status=Hanchan.Status.FINISHED, entry_mode=Hanchan.EntryMode.HANDS).count() == 80
    assert (
        games.filter(status=Hanchan.Status.FINISHED, entry_mode=Hanchan.EntryMode.FINAL_SCORES).count() == 4
    )
    assert games.exclude(status=Hanchan.Status.FINISHED).count() == 0
    assert Penalty.objects.filter(event=event, hanchan__isnull=True).count() == 1
    for game in games:
        rows = list(SeatResult.objects.filter(hanchan=game))
        assert len(rows) == 4
        assert sum(r.result for r in rows) == sum(r.penalties for r in rows)
    # The same seed gives the same games: a reset rebuilds identical results.
    before = standings(event)
    code, _, _ = run("seed_demo", "--reset")
    assert code == 0
    assert standings(Event.objects.get(slug="demo-league")) == before


def test_seed_demo_dates_its_games_when_they_were_played(db):
    """The demo tournament (11–12 July 2025) lists its games on its own days, rounds 1–2 on the first
    and 3–4 on the second; the league's games spread over the season, one club night a week."""
    code, _, _ = run("seed_demo")
    assert code == 0
    cup = Event.objects.get(slug="demo-open")
    assert (cup.start_date, cup.end_date) == (date(2025, 7, 11), date(2025, 7, 12))
    by_round = {
        number: set(
            Hanchan.objects.filter(event=cup, round_number=number).values_list("played_on", flat=True)
        )
        for number in (1, 2, 3, 4)
    }
    assert by_round == {
        1: {date(2025, 7, 11)},
        2: {date(2025, 7, 11)},
        3: {date(2025, 7, 12)},
        4: {date(2025, 7, 12)},
    }
    # Its slow-play penalty was given in the last round played.
    assert Penalty.objects.get(event=cup, hanchan__isnull=True).round_number == 3

    league = Event.objects.get(slug="demo-league")
    days = sorted(set(Hanchan.objects.filter(event=league).values_list("played_on", flat=True)))
    assert days[0] == date(2025, 1, 10) and len(days) == 21
    assert all(day.weekday() == 4 for day in days)  # Fridays
    assert days[-1] <= league.end_date


def test_seed_demo_plays_its_tournament_rounds_as_on_the_day(db):
    """The demo tournament had results in rounds never opened, so its wall and clock said "Round 1 ·
    not started". Its played rounds are opened and closed, and the room's round is the fourth."""
    from django.test import Client
    from django.urls import reverse

    from tournaments.models import Round
    from tournaments.projector import shown_round

    code, _, _ = run("seed_demo")
    assert code == 0
    cup = Event.objects.get(slug="demo-open")
    played = Round.objects.filter(event=cup).order_by("number")
    assert [(r.number, r.status) for r in played] == [(n, Round.Status.CLOSED) for n in (1, 2, 3)]
    assert all(r.opened_at is not None and r.closed_at is not None for r in played)
    shown = shown_round(cup)
    assert shown is not None and shown.number == 4
    wall = Client().get(reverse("tournaments:wall", args=[cup.slug])).content.decode()
    assert "Round 4" in wall and "Round 1" not in wall
