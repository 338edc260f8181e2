"""Late changes in the pure seating module: the ways out (``ways_out``), who sits out (``sit_outs``) and
reseating with byes (``reseat_remaining(sit_out=...)``).

The property test plays whole days: a seated tournament, then any sequence of late changes (several
drop-outs and arrivals at once, from a later round each time), each followed by a way out picked among
those offered. After every change each remaining round seats each player still in at most once, at
tables of four, exactly the players present (those not sitting out) plus substitute seats; the byes go
round the room.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.seating import MAX_BYES, WayOut, generate, reseat_remaining, sit_outs, ways_out

FAST = 200  # search steps per round: enough to exercise the search, quick enough for many examples


def test_the_dead_end_of_issue_23_has_a_way_out():
    """20 players and 2 substitutes at 5 tables: after three drop-outs 17 remain, which 5 tables
    cannot seat (3 empty seats, 2 substitutes) and 4 tables cannot seat either (one too many): one
    table fewer with one player sitting out each round is the way out."""
    assert ways_out(18, 2, 5) == [WayOut(5, 2, 0), WayOut(4, 0, 2)]
    assert ways_out(17, 2, 5) == [WayOut(4, 0, 1)]
    assert ways_out(17, 3, 5) == [WayOut(5, 3, 0), WayOut(4, 0, 1)]
    assert ways_out(21, 0, 5) == [WayOut(5, 0, 1)]  # a late arrival and no substitute: a bye
    assert ways_out(16, 4, 5) == [WayOut(5, 4, 0), WayOut(4, 0, 0)]  # keep 5 tables, or play at 4
    assert WayOut(4, 0, 1).change(5) == "fewer" and WayOut(5, 2, 0).change(5) == "same"
    with pytest.raises(ValueError, match="cannot fill a table"):
        ways_out(3, 9, 1)


@given(st.integers(4, 120), st.integers(0, 12), st.integers(1, 30))
def test_every_way_out_seats_everyone_or_sits_out_fewer_than_a_table(players, substitutes, tables):
    found = ways_out(players, substitutes, tables)
    assert found, "there is always a way out: as many tables as the players fill"
    for way in found:
        assert way.tables >= 1 and not (way.substitutes and way.byes)
        assert way.tables * 4 == players + way.substitutes - way.byes
        assert way.substitutes <= substitutes and way.byes <= MAX_BYES
    assert [w.tables for w in found] == sorted({w.tables for w in found}, reverse=True)


def test_byes_go_round_the_room():
    out = sit_outs(list(range(17)), 1, 17, seed=5)
    assert sorted(p for round_ in out for p in round_) == list(range(17))  # each once in 17 rounds
    late = sit_outs(list(range(8)), 2, 3, missed={0: 2, 1: 2}, seed=1)
    assert all(0 not in r and 1 not in r for r in late)  # a late arrival has missed rounds already
    assert sit_outs([4, 2], 0, 2) == [[], []]
    with pytest.raises(ValueError, match="cannot sit out"):
        sit_outs([1, 2], 3, 1)


@st.composite
def days(draw):
    """A seated tournament and a sequence of late changes, each with the way out picked."""
    tables = draw(st.integers(2, 5))
    n_rounds = draw(st.integers(3, 7))
    substitutes = draw(st.integers(0, 3))
    changes = []
    at = 0
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(at + 1, n_rounds - 1)) if at + 1 <= n_rounds - 1 else None
        if at is None:
            break
        changes.append(
            (
                at,
                draw(st.integers(0, 4)),  # how many drop out
                draw(st.integers(0, 2)),  # how many arrive
                draw(st.integers(0, 10**6)),  # which ones, and which way out
            )
        )
    return tables, n_rounds, substitutes, changes, draw(st.integers(1, 10**6))


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(days())
def test_after_any_late_changes_each_player_sits_once_a_round_four_to_a_table(day):
    tables, n_rounds, substitutes, changes, seed = day
    n_start = 4 * tables
    rounds = [[list(t) for t in r] for r in generate(n_start, n_rounds, seed=seed).rounds]
    registered = n_start  # players are 0 .. registered - 1; arrivals get the next numbers
    still_in = list(range(n_start))
    for at, leaving, arriving, pick in changes:
        rng = random.Random(pick)
        gone = set(rng.sample(still_in, min(leaving, len(still_in) - 4)))
        still_in = [p for p in still_in if p not in gone] + list(range(registered, registered + arriving))
        registered += arriving
        still_in = [p for p in still_in if p < registered]
        offered = ways_out(len(still_in), substitutes, len(rounds[at]))
        way = rng.choice(offered)
        played, left = rounds[:at], n_rounds - at
        kept = copy.deepcopy(played)
        missed = {p: sum(all(p not in t for t in r) for r in played) for p in still_in}
        out = sit_outs(still_in, way.byes, left, missed=missed, seed=pick)
        # Substitute seats are numbered from the registered count up, as the service names them.
        result = reseat_remaining(
            played, still_in, left, n_players=registered, tables=way.tables, seed=pick,
            iterations=FAST, sit_out=out,
        )  # fmt: skip
        assert played == kept  # the played rounds are input only: never changed
        rounds = played + [[list(t) for t in r] for r in result.rounds]
        for number, round_ in enumerate(result.rounds):
            seated = [p for table in round_ for p in table]
            assert len(round_) == way.tables and all(len(table) == 4 for table in round_)
            assert len(seated) == len(set(seated))  # nobody twice in a round
            assert sorted(p for p in seated if p < registered) == sorted(set(still_in) - set(out[number]))
            assert len([p for p in seated if p >= registered]) == way.substitutes
            assert len(out[number]) == way.byes
        totals = [missed[p] + sum(p in o for o in out) for p in still_in]
        spread = max(missed.values()) - min(missed.values())
        assert max(totals) - min(totals) <= max(1, spread)  # the byes go round the room
