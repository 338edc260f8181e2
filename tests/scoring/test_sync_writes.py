"""A rebuild that rewrites every cached row leaves exactly the rows the services wrote, whichever way
the backend sends them: on PostgreSQL a large update goes through COPY and a temporary table, a small
one through ``UPDATE ... FROM (VALUES ...)`` (``scoring.services.sync._update``), a large insert through
COPY and a small one through ``INSERT ... VALUES`` (``_insert``); both ways are exercised here (CI runs
this file on PostgreSQL too; on SQLite all are ``executemany``)."""

from __future__ import annotations

import pytest
from django.db import transaction

from league.models import Hanchan
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow
from scoring.models import HandSeat, SeatResult
from scoring.models import Win as WinRow
from scoring.services import sync

HANDS = [
    Hand.ron(2, Win(0, 3, 40), riichi=(0, 1)),
    Hand.tsumo(Win(1, 2, 30)),
    Hand.draw((0, 2)),
    Hand.ron(3, Win(2, 4, 30), riichi=(2,)),
    Hand.tsumo(Win(3, yakuman=1)),
]


def cached_rows(event) -> tuple[list, list, list, list]:
    hands = list(
        HandRow.objects.filter(hanchan__event=event)
        .order_by("pk")
        .values_list("pk", "round_name", "dealer", "honba", "sticks", "deltas", "scores")
    )
    wins = list(WinRow.objects.filter(hand__hanchan__event=event).order_by("pk").values_list("pk", "points"))
    seats = sorted(
        HandSeat.objects.filter(hanchan__event=event).values_list("hand_id", "seat", "player_id", "won")
    )
    results = sorted(
        SeatResult.objects.filter(event=event).values_list("hanchan_id", "seat", "score", "result")
    )
    return hands, wins, seats, results


@pytest.mark.parametrize("copy_from", [1, 10**9], ids=["copy", "values"])
def test_rewriting_every_cached_row_gives_back_the_services_rows(
    event, players, organiser, monkeypatch, copy_from
):
    for n in range(3):
        game = services.start_game(
            event=event, players=[players[(n + i) % 6] for i in range(4)], user=organiser
        )
        for hand in HANDS:
            services.record_hand(hanchan=game, hand=hand, user=organiser)
        if n < 2:
            services.finish_game(hanchan=game, user=organiser, reason="time limit")
    written = cached_rows(event)
    assert len(written[0]) == 15 and len(written[2]) == 60 and len(written[3]) == 8
    # Lose every cached row, as a rules change that moves every value would.
    HandSeat.objects.filter(hanchan__event=event).delete()
    SeatResult.objects.filter(event=event).delete()
    HandRow.objects.filter(hanchan__event=event).update(
        round_name="", dealer=0, honba=0, sticks=0, deltas=[], scores=[]
    )
    WinRow.objects.filter(hand__hanchan__event=event).update(points=0)
    monkeypatch.setattr(sync, "COPY_FROM", copy_from)
    with transaction.atomic():
        games = list(Hanchan.objects.filter(event=event).order_by("pk"))
        for game in games:
            game.event = event
        done = sync.rebuild(games)
    assert done.hands_written == 15
    assert cached_rows(event) == written


def test_a_rebuild_gives_the_hand_rows_their_seats_credited_player(event, players, organiser):
    """A seat whose player changed while its hands did not (a swap, a substitute): the rebuild that finds
    every hand right still moves the per-seat rows to the seat's credited player — the substitute's
    absent player when ``on_behalf_of`` is set, the one seated otherwise."""
    from league.models import Seat

    game = services.start_game(event=event, players=players[:4], user=organiser)
    for hand in HANDS:
        services.record_hand(hanchan=game, hand=hand, user=organiser)
    other = services.start_game(event=event, players=players[1:5], user=organiser)
    services.record_hand(hanchan=other, hand=HANDS[0], user=organiser)
    Seat.objects.filter(hanchan=game, seat=1).update(player=players[5])  # Bob's seat now Fay's
    Seat.objects.filter(hanchan=game, seat=2).update(player=players[4], on_behalf_of=players[2])  # for Cho
    with transaction.atomic():
        games = list(Hanchan.objects.filter(event=event).order_by("pk"))
        for row in games:
            row.event = event
        done = sync.rebuild(games)
    assert done.hands_written == 0  # every hand was right: only the players moved

    def by_seat(hanchan):
        return dict(HandSeat.objects.filter(hanchan=hanchan).values_list("seat", "player_id").distinct())

    assert by_seat(game) == {0: players[0].pk, 1: players[5].pk, 2: players[2].pk, 3: players[3].pk}
    assert by_seat(other) == {seat: players[seat + 1].pk for seat in range(4)}  # untouched


def test_the_hand_rows_unconstrained_copies_still_cascade_and_protect(event, players, organiser):
    """A per-seat hand row's game and player have no database constraint (scoring 0008: each was a check
    per row at commit): Django's deletion still removes the rows with their game and refuses to delete
    a player who has some, and the hand's own key still refuses a row of no hand."""
    from django.db import IntegrityError, connection
    from django.db.models import ProtectedError

    from league.models import Seat

    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=HANDS[0], user=organiser)
    assert HandSeat.objects.filter(hanchan=game).count() == 4
    Seat.objects.filter(hanchan=game).delete()  # the seats' own protection out of the way
    with pytest.raises(ProtectedError) as refused:
        players[0].delete()
    assert {type(row) for row in refused.value.protected_objects} >= {HandSeat}
    game.delete()
    assert not HandSeat.objects.filter(hanchan_id=game.pk).exists()
    missing = HandRow.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    with pytest.raises(IntegrityError), transaction.atomic():
        HandSeat.objects.create(hand_id=missing + 1000, hanchan_id=game.pk, seat=0, player=players[0])
        connection.check_constraints(table_names=[HandSeat._meta.db_table])  # PostgreSQL defers the check


def test_the_seat_results_unconstrained_copies_still_cascade_and_protect(event, players, organiser):
    """A seat result's event and player have no database constraint (scoring 0009): Django's deletion
    still refuses to delete a player who has results and removes them with their game, whose key still
    refuses a result of no game."""
    from django.db import IntegrityError, connection
    from django.db.models import ProtectedError

    from league.models import Seat

    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=HANDS[0], user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    assert SeatResult.objects.filter(event=event).count() == 4
    Seat.objects.filter(hanchan=game).delete()
    HandSeat.objects.filter(hanchan=game).delete()  # the other rows' protection out of the way
    with pytest.raises(ProtectedError) as refused:
        players[0].delete()
    assert SeatResult in {type(row) for row in refused.value.protected_objects}
    missing = Hanchan.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    with pytest.raises(IntegrityError), transaction.atomic():
        SeatResult.objects.create(
            hanchan_id=missing + 1000,
            event=event,
            seat=0,
            player=players[0],
            score=25000,
            place=1,
            uma=0,
            oka=0,
            penalties=0,
            result=0,
            finished_at=game.created_at,
        )
        connection.check_constraints(table_names=[SeatResult._meta.db_table])
    game.delete()
    assert not SeatResult.objects.filter(hanchan_id=game.pk).exists()


def test_a_rebuild_pauses_the_cyclic_collector_and_restarts_it_even_on_error(
    event, players, organiser, monkeypatch
):
    """The rebuild runs without the cyclic garbage collector (it would walk the rows of a batch again
    and again); afterwards the collector is running again, also when the rebuild fails, and a call
    that found it stopped leaves it stopped."""
    import gc

    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=HANDS[0], user=organiser)
    seen = []
    real = sync._derive_results

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(sync, "_derive_results", spy)
    assert gc.isenabled()
    with transaction.atomic():
        sync.rebuild([game])
    assert seen == [False] and gc.isenabled()

    def broken(*args, **kwargs):
        raise RuntimeError("a failing rebuild")

    monkeypatch.setattr(sync, "_derive_results", broken)
    with pytest.raises(RuntimeError, match="a failing rebuild"), transaction.atomic():
        sync.rebuild([game])
    assert gc.isenabled()

    monkeypatch.setattr(sync, "_derive_results", spy)
    gc.disable()
    try:
        with transaction.atomic():
            sync.rebuild([game])
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert seen == [False, False]


@pytest.mark.parametrize("copy_from", [1, 10**9], ids=["copy", "values"])
def test_a_rebuild_of_some_games_reads_and_writes_only_theirs_when_hands_interleave(
    event, players, organiser, monkeypatch, copy_from
):
    """Hands of three games recorded in turn: their ids interleave, so the id ranges a rebuild reads
    the wins by and updates the rows within also hold another game's rows, which must stay as they are."""
    games = [
        services.start_game(event=event, players=[players[(n + i) % 6] for i in range(4)], user=organiser)
        for n in range(3)
    ]
    for hand in HANDS:
        for game in games:
            services.record_hand(hanchan=game, hand=hand, user=organiser)
    written = cached_rows(event)
    outer, middle = [games[0].pk, games[2].pk], games[1].pk
    HandRow.objects.filter(hanchan__in=outer).update(round_name="", dealer=0, honba=0, sticks=0)
    WinRow.objects.filter(hand__hanchan__in=outer).update(points=0)
    # The middle game's rows hold a wrong value the rebuild of the others must not touch.
    WinRow.objects.filter(hand__hanchan=middle).update(points=1)
    monkeypatch.setattr(sync, "COPY_FROM", copy_from)
    with transaction.atomic():
        chosen = list(Hanchan.objects.filter(pk__in=outer).select_related("event").order_by("pk"))
        done = sync.rebuild(chosen)
    assert done.hands_written == 10
    hands, wins, seats, results = cached_rows(event)
    assert hands == written[0] and seats == written[2] and results == written[3]
    middle_wins = set(WinRow.objects.filter(hand__hanchan=middle).values_list("pk", flat=True))
    assert [w for w in wins if w[0] not in middle_wins] == [w for w in written[1] if w[0] not in middle_wins]
    assert {points for pk, points in wins if pk in middle_wins} == {1}
