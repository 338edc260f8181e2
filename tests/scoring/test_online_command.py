"""``import_games --format tenhou6|mjlog``: online logs imported by a script, with the contract's
conventions (JSON on standard output; on failure nothing there, one line on standard error, exit 2)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from league.models import Hanchan, Player, Registration
from tests.conftest import make_event
from tests.scoring.commands import run

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent / "logs" / "fixtures"
TOBI = FIXTURES / "tenhou-hanchan-tobi.json"
TOBI_ID = "2023061523gm-0089-0000-1a2b3c4d"
MJLOG_ID = "2023080212gm-00e1-0000-5e6f7a8b"


@pytest.fixture
def league(club):
    return make_event(club, "tenhou", slug="tenhou-league")


@pytest.fixture
def tonpuu(club):
    return make_event(club, "tenhou", slug="tenhou-tonpuu", length="tonpuusen")


def test_tenhou6_logs_are_imported_and_new_players_keep_their_tenhou_name(league, club):
    code, out, err = run(
        "import_games", "--event", league.slug, "--format", "tenhou6", "--create-players", str(TOBI)
    )
    assert (code, err) == (0, "")
    (pk,) = json.loads(out)["hanchans"]
    hanchan = Hanchan.objects.get(pk=pk)
    assert hanchan.source_log_id == TOBI_ID
    assert dict(Player.objects.values_list("display_name", "tenhou_name")) == {
        "Aoi": "Aoi",
        "ばんび": "ばんび",
        "Kenta": "Kenta",
        "雀士X": "雀士X",
    }
    assert Registration.objects.filter(event=league).count() == 4
    # Again: the log is refused by name, and nothing changes.
    code, out, err = run("import_games", "--event", league.slug, "--format", "tenhou6", str(TOBI))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"log {TOBI_ID} is already imported in Tenhou League" in err
    assert Hanchan.objects.count() == 1


def test_players_are_matched_by_online_name(league, club):
    known = Player.objects.create(display_name="Kenta Sato", club=club, tenhou_name="KENTA")
    code, out, _ = run(
        "import_games", "--event", league.slug, "--format", "tenhou6", "--create-players", str(TOBI)
    )
    assert code == 0
    seat = Hanchan.objects.get().seats.get(seat=2)
    assert seat.player == known
    assert not Player.objects.filter(display_name="Kenta").exists()


def test_an_unknown_player_is_named_without_create_players(league):
    code, out, err = run("import_games", "--event", league.slug, "--format", "tenhou6", str(TOBI))
    assert code == 2 and out == ""
    assert "unknown player 'Aoi'" in err and "Tenhou name" in err
    assert not Hanchan.objects.exists() and not Player.objects.exists()


def test_a_gzip_mjlog_named_after_its_log_id(tonpuu, tmp_path):
    path = tmp_path / f"{MJLOG_ID}.mjlog"
    path.write_bytes(gzip.compress((FIXTURES / "tenhou-tonpuu-pao.xml").read_bytes()))
    code, out, err = run(
        "import_games", "--event", tonpuu.slug, "--format", "mjlog", "--create-players", str(path)
    )
    assert (code, err) == (0, "")
    hanchan = Hanchan.objects.get(pk=json.loads(out)["hanchans"][0])
    assert hanchan.source_log_id == MJLOG_ID
    assert [s.player.display_name for s in hanchan.seats.order_by("seat")] == [
        "あおい",
        "Bob",
        "Cho Li",
        "Dan",
    ]


def test_the_format_is_stated_not_guessed(league, tmp_path, capsys):
    code, out, err = run("import_games", "--event", league.slug, "--format", "mjlog", str(TOBI))
    assert code == 2 and out == ""
    assert err == f"{TOBI}: --format mjlog reads Tenhou's mjlog XML, but this file is tenhou.net/6 JSON\n"
    # Without --format a file is a game record: a raw log is not one.
    code, out, err = run("import_games", "--event", league.slug, str(TOBI))
    assert code == 2 and out == "" and err.count("\n") == 1
    code, out, _ = run("import_games", "--event", league.slug, "--format", "xml", str(TOBI))
    assert code == 2 and out == ""  # argparse's one line goes to the process's standard error
    argument_error = capsys.readouterr().err
    assert argument_error.count("\n") == 1 and "--format" in argument_error
    notlog = tmp_path / "notes.txt"
    notlog.write_text("hello")
    code, out, err = run("import_games", "--event", league.slug, "--format", "tenhou6", str(notlog))
    assert code == 2 and "not a game log" in err
    assert not Hanchan.objects.exists()


def test_convert_log_output_imports_as_a_record_once(league, tmp_path):
    code, out, _ = run("convert_log", str(TOBI))
    assert code == 0
    record = tmp_path / "game.json"
    record.write_text(out, encoding="utf-8")
    code, out, err = run("import_games", "--event", league.slug, "--create-players", str(record))
    assert (code, err) == (0, "")
    assert Hanchan.objects.get().source_log_id == TOBI_ID
    code, _, err = run("import_games", "--event", league.slug, "--format", "tenhou6", str(TOBI))
    assert code == 2 and "already imported" in err


def test_all_or_nothing_over_several_files(league, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text(TOBI.read_text(encoding="utf-8").replace('"和了"', '"??"', 1), encoding="utf-8")
    code, out, err = run(
        "import_games",
        "--event",
        league.slug,
        "--format",
        "tenhou6",
        "--create-players",
        str(TOBI),
        str(broken),
    )
    assert code == 2 and out == "" and err.startswith(f"{broken}: ")
    assert not Hanchan.objects.exists() and not Player.objects.exists()
