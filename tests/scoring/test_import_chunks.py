"""import_games writes by chunks (scoring/imports.py, ``WRITE_CHUNK``): the same rows as game by game, a
few statements per chunk whatever the games, all or nothing across chunks, one player created once
across chunks, and ``--progress`` lines after each chunk."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.db.models import Model

from league.models import Hanchan, Player
from scoring import imports
from scoring.engine.generator import random_game
from scoring.models import Hand, HandSeat, HistoryEntry, Penalty, SeatResult, Win
from tests.conftest import make_event
from tests.scoring.commands import run

pytestmark = pytest.mark.django_db


def season(event, names: list[str], games: int, seed: int = 11) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """Random legal games (some stopped early, some with penalties) among ``names``."""
    rng = random.Random(seed)
    records = []
    for _ in range(games):
        table = tuple(rng.sample(names, 4))
        game = random_game(
            event.rules, random.Random(rng.getrandbits(32)), stop_early=0.1, penalty_chance=0.3, players=table
        )
        records.append(game.to_dict())
    return records


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def rows(event) -> list[tuple[Any, ...]]:  # type: ignore[no-untyped-def]
    """Every row an import writes for ``event``, without keys, in game order."""
    games = list(Hanchan.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))
    order = {pk: n for n, pk in enumerate(games)}

    def of(model: type[Model], fields: list[str], game: str = "hanchan_id") -> list[tuple[Any, ...]]:
        found = model.objects.filter(**{f"{game.removesuffix('_id')}__in": games}).values_list(game, *fields)
        return sorted((order[g], *rest) for g, *rest in found)

    return [
        *of(Hanchan, ["status", "entry_mode", "final_sticks", "scores_key"], game="id"),
        *of(SeatResult, ["seat", "player__display_name", "score", "uma", "result", "place", "chombos"]),
        *of(Hand, ["number", "round_name", "dealer", "honba", "scores", "deltas"]),
        *of(Win, ["hand__number", "winner", "han", "fu", "points"], game="hand__hanchan_id"),
        *of(
            HandSeat,
            ["hand__number", "seat", "player__display_name", "delta", "won", "dealt_in", "win_points"],
        ),
        *of(Penalty, ["player__display_name", "points", "kind", "reason"]),
        *of(HistoryEntry, ["action", "summary", "summary_data", "reason"]),
    ]


def test_chunks_write_what_game_by_game_writes(tmp_path, club, event, players, monkeypatch):
    names = [p.display_name for p in players]
    records = season(event, names, 7)
    other = make_event(club, slug="other-league")
    path = write(tmp_path, "season.json", records)
    monkeypatch.setattr(imports, "WRITE_CHUNK", 1)  # game by game
    assert run("import_games", "--event", event.slug, path)[0] == 0
    monkeypatch.setattr(imports, "WRITE_CHUNK", 3)  # 3 + 3 + 1
    code, out, err = run("import_games", "--event", other.slug, "--create-players", "--progress", path)
    assert (code, err) == (0, "stored 3 games\nstored 6 games\nstored 7 games\n")
    assert json.loads(out)["imported"] == 7
    assert rows(other) == rows(event) and len(rows(event)) > 7 * 6


def test_statements_per_chunk_not_per_game(tmp_path, event, players, django_assert_max_num_queries):
    names = [p.display_name for p in players]
    path = write(tmp_path, "season.json", season(event, names, 40))
    # 40 games of about 10 hands: game by game, it took some 25 statements a game and one per hand.
    with django_assert_max_num_queries(40):
        assert run("import_games", "--event", event.slug, path)[0] == 0
    assert Hanchan.objects.filter(event=event).count() == 40


def test_a_bad_record_in_a_later_chunk_rolls_back_every_chunk(tmp_path, event, players, monkeypatch):
    names = [p.display_name for p in players]
    records = season(event, [*names[:3], "Newcomer"], 5)
    records[4]["hands"] = [{"result": "ron", "loser": 1, "wins": [{"winner": 0, "han": 1, "fu": 25}]}]
    monkeypatch.setattr(imports, "WRITE_CHUNK", 2)
    code, out, err = run(
        "import_games", "--event", event.slug, "--create-players", write(tmp_path, "s.json", records)
    )
    assert (code, out) == (2, "") and err.endswith("record 5: hand 1: fu 25 needs at least 2 han on a ron\n")
    assert not Hanchan.objects.exists() and not SeatResult.objects.exists()
    assert not HistoryEntry.objects.exists() and not Player.objects.filter(display_name="Newcomer").exists()


def test_a_new_player_in_several_chunks_is_created_once(tmp_path, event, players, monkeypatch):
    names = [p.display_name for p in players[:3]]
    records = season(event, [*names, "Newcomer"], 6)
    assert sum("Newcomer" in r["players"] for r in records) == 6  # in every game, so in every chunk
    monkeypatch.setattr(imports, "WRITE_CHUNK", 2)
    code, out, _ = run(
        "import_games", "--event", event.slug, "--create-players", write(tmp_path, "s.json", records)
    )
    assert code == 0 and json.loads(out)["imported"] == 6
    newcomer = Player.objects.get(display_name="Newcomer")
    assert SeatResult.objects.filter(player=newcomer).count() == 6


def test_a_log_twice_across_chunks_is_refused(tmp_path, event, players, monkeypatch):
    names = [p.display_name for p in players]
    records = season(event, names, 4)
    records[0]["log"] = {"source": "tenhou", "id": "2024010112gm-0009-0000-aaaaaaaa"}
    records[3]["log"] = {"source": "tenhou", "id": "2024010112gm-0009-0000-aaaaaaaa"}
    monkeypatch.setattr(imports, "WRITE_CHUNK", 2)
    code, _, err = run("import_games", "--event", event.slug, write(tmp_path, "s.json", records))
    assert code == 2 and "is in this import twice" in err and "record 1" in err
    assert not Hanchan.objects.exists()
