"""Tournament services on the database: seating every round, swaps, drop-outs and their credit, Swiss
reseating, round status and standings after a round, chombos entered with final scores."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from league.models import Event, Hanchan, Player, Registration, Seat
from scoring import services
from scoring.models import Penalty, SeatResult
from scoring.standings import standings
from tests.conftest import make_event
from tournaments import services as tournament

pytestmark = pytest.mark.django_db


def make_tournament(club, n_players: int, n_substitutes: int = 0, **fields) -> Event:
    event = make_event(club, slug=f"open-{n_players}-{n_substitutes}")
    event.kind = Event.Kind.TOURNAMENT
    for name, value in fields.items():
        setattr(event, name, value)
    event.save()
    for i in range(n_players + n_substitutes):
        player = Player.objects.create(display_name=f"{event.slug}-P{i:02d}", club=club)
        Registration.objects.create(event=event, player=player, is_substitute=i >= n_players)
    return event


def tables_of(event, round_number):
    return [
        [s.player_id for s in sorted(h.seats.all(), key=lambda s: s.seat)]
        for h in Hanchan.objects.filter(event=event, round_number=round_number).order_by("table_number")
    ]


def finish_round(event, round_number, user, scores=(40000, 32000, 28000, 20000)):
    for hanchan in Hanchan.objects.filter(event=event, round_number=round_number):
        services.record_final_scores(hanchan=hanchan, scores=list(scores), user=user)


def test_seating_32_players_8_rounds_no_repeats_and_winds_twice(club, organiser):
    event = make_tournament(club, 32)
    tournament.seat_tournament(event=event, rounds=8, user=organiser)
    assert Hanchan.objects.filter(event=event).count() == 64
    met: dict[tuple[int, int], int] = {}
    winds: dict[tuple[int, int], int] = {}
    for round_number in range(1, 9):
        seated = [p for table in tables_of(event, round_number) for p in table]
        assert len(seated) == len(set(seated)) == 32
        for table in tables_of(event, round_number):
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
            for wind, player in enumerate(table):
                winds[(player, wind)] = winds.get((player, wind), 0) + 1
    assert max(met.values()) == 1
    assert set(winds.values()) == {2} and len(winds) == 32 * 4


def test_seating_fills_with_substitutes_or_says_how_many_are_missing(club, organiser):
    short = make_tournament(club, 14)
    with pytest.raises(ValidationError, match="register 2 more substitutes"):
        tournament.seat_tournament(event=short, rounds=4, user=organiser)
    event = make_tournament(club, 14, n_substitutes=2)
    tournament.seat_tournament(event=event, rounds=4, user=organiser)
    assert len(tables_of(event, 1)) == 4


def test_seating_is_deterministic_and_refused_once_results_exist(club, organiser):
    event = make_tournament(club, 16)
    tournament.seat_tournament(event=event, rounds=4, user=organiser, seed=7)
    first = tables_of(event, 2)
    tournament.seat_tournament(event=event, rounds=4, user=organiser, seed=7)
    assert tables_of(event, 2) == first
    finish_round(event, 1, organiser)
    with pytest.raises(ValidationError, match="already have results"):
        tournament.seat_tournament(event=event, rounds=4, user=organiser)


def test_swap_players_in_a_round(club, organiser):
    event = make_tournament(club, 8)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    t1, t2 = tables_of(event, 2)
    a, b = Player.objects.get(pk=t1[0]), Player.objects.get(pk=t2[1])
    tournament.swap_players(event=event, round_number=2, first=a, second=b, user=organiser)
    n1, n2 = tables_of(event, 2)
    assert n1[0] == b.pk and n2[1] == a.pk
    finish_round(event, 1, organiser)
    c, d = (Player.objects.get(pk=pk) for pk in tables_of(event, 1)[0][:2])
    with pytest.raises(ValidationError, match="already has a result"):
        tournament.swap_players(event=event, round_number=1, first=c, second=d, user=organiser)


def test_swiss_reseats_by_standings_after_the_previous_round(club, organiser):
    event = make_tournament(club, 16)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    finish_round(event, 1, organiser)
    tournament.reseat_swiss(event=event, round_number=2, user=organiser)
    # After round 1 the four table winners lead: they now share table 1.
    leaders = {row.player_id for row in standings(event, up_to_round=1)[:4]}
    assert set(tables_of(event, 2)[0]) == leaders
    finish_round(event, 2, organiser)
    with pytest.raises(ValidationError, match="already has results"):
        tournament.reseat_swiss(event=event, round_number=2, user=organiser)


def test_round_status_and_standings_after_a_round(club, organiser):
    event = make_tournament(club, 8)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    assert [r["status"] for r in tournament.round_status(event)] == ["seated", "seated"]
    table = Hanchan.objects.get(event=event, round_number=1, table_number=1)
    services.record_final_scores(hanchan=table, scores=[40000, 32000, 28000, 20000], user=organiser)
    assert [r["status"] for r in tournament.round_status(event)] == ["playing", "seated"]
    finish_round(event, 1, organiser)
    finish_round(event, 2, organiser)
    assert [r["status"] for r in tournament.round_status(event)] == ["all results in"] * 2
    after_one = {r.player_id: r.games for r in standings(event, up_to_round=1)}
    assert set(after_one.values()) == {1}
    assert {r.games for r in standings(event)} == {2}


@pytest.mark.parametrize(("credit", "expected"), [("registered", 40000 - 30000 + 15000), ("fixed", -7000)])
def test_replaced_player_is_credited_per_event_setting(club, organiser, credit, expected):
    event = make_tournament(club, 8, n_substitutes=1, substitute_credit=credit, substitute_fixed_result=-7000)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    finish_round(event, 1, organiser)
    sub = Registration.objects.get(event=event, is_substitute=True).player
    leaver = Player.objects.get(pk=tables_of(event, 2)[0][0])  # East of table 1 in round 2
    count = tournament.replace_player(
        event=event, player=leaver, substitute=sub, from_round=2, user=organiser, reason="went home ill"
    )
    assert count == 1
    seat = Seat.objects.get(hanchan__event=event, hanchan__round_number=2, player=sub)
    assert seat.on_behalf_of == leaver
    finish_round(event, 2, organiser)
    result = SeatResult.objects.get(hanchan=seat.hanchan, seat=seat.seat)
    assert result.player == leaver and result.result == expected
    assert Registration.objects.get(event=event, player=leaver).dropped_out
    assert sub.pk not in {r.player_id for r in standings(event)}


def test_chombos_entered_with_final_scores(club, organiser):
    event = make_tournament(club, 4)
    tournament.seat_tournament(event=event, rounds=1, user=organiser)
    table = Hanchan.objects.get(event=event)
    services.record_final_scores(
        hanchan=table, scores=[40000, 32000, 28000, 20000], chombos=[0, 2, 0, 0], user=organiser
    )
    east_south = sorted(table.seats.all(), key=lambda s: s.seat)[1].player
    assert Penalty.objects.filter(hanchan=table, player=east_south, cancelled=False).count() == 2
    assert SeatResult.objects.get(hanchan=table, seat=1).penalties == -40000
    services.record_final_scores(
        hanchan=table,
        scores=[40000, 32000, 28000, 20000],
        chombos=[0, 1, 0, 0],
        user=organiser,
        reason="one chombo was a mistake",
    )
    assert SeatResult.objects.get(hanchan=table, seat=1).penalties == -20000
    assert Penalty.objects.filter(hanchan=table, cancelled=True).count() == 1


def test_replace_refuses_a_substitute_seated_in_a_later_round_and_names_it(club, organiser):
    event = make_tournament(club, 8, n_substitutes=1)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    sub = Registration.objects.get(event=event, is_substitute=True).player
    first = Player.objects.get(pk=tables_of(event, 3)[0][0])
    tournament.replace_player(
        event=event, player=first, substitute=sub, from_round=3, user=organiser, reason="leaves early"
    )
    second = Player.objects.get(pk=tables_of(event, 2)[1][1])
    table = next(i for i, t in enumerate(tables_of(event, 3), start=1) if sub.pk in t)
    with pytest.raises(ValidationError, match=f"{sub} is already seated at table {table} in round 3"):
        tournament.replace_player(
            event=event, player=second, substitute=sub, from_round=2, user=organiser, reason="ill"
        )
    assert not Registration.objects.get(event=event, player=second).dropped_out
    assert Seat.objects.filter(hanchan__event=event, player=sub).count() == 1


def test_replace_refuses_a_dropped_out_substitute_and_the_player_themselves(club, organiser):
    event = make_tournament(club, 8, n_substitutes=1)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    sub = Registration.objects.get(event=event, is_substitute=True).player
    Registration.objects.filter(event=event, player=sub).update(dropped_out=True)
    leaver = Player.objects.get(pk=tables_of(event, 2)[0][0])
    with pytest.raises(ValidationError, match=f"{sub} has dropped out"):
        tournament.replace_player(
            event=event, player=leaver, substitute=sub, from_round=2, user=organiser, reason="ill"
        )
    with pytest.raises(ValidationError, match="other than the player replaced"):
        tournament.replace_player(
            event=event, player=leaver, substitute=leaver, from_round=2, user=organiser, reason="ill"
        )


def test_replace_at_one_table_keeps_the_player_in_the_tournament(club, organiser):
    event = make_tournament(club, 8, n_substitutes=1)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    sub = Registration.objects.get(event=event, is_substitute=True).player
    late = Player.objects.get(pk=tables_of(event, 1)[1][2])
    count = tournament.replace_player(
        event=event, player=late, substitute=sub, from_round=1, table=2, user=organiser, reason="late"
    )
    assert count == 1
    assert tables_of(event, 1)[1][2] == sub.pk and late.pk in {p for t in tables_of(event, 2) for p in t}
    assert Seat.objects.get(hanchan__event=event, player=sub).on_behalf_of == late
    assert not Registration.objects.get(event=event, player=late).dropped_out
    with pytest.raises(ValidationError, match="has no seat without a result at table 1 of round 2"):
        tournament.replace_player(
            event=event, player=sub, substitute=late, from_round=2, table=1, user=organiser, reason="x"
        )


def test_a_substitute_replaced_in_turn_keeps_playing_for_the_original_player(club, organiser):
    event = make_tournament(club, 8, n_substitutes=2)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    first_sub, second_sub = (
        r.player for r in Registration.objects.filter(event=event, is_substitute=True).order_by("pk")
    )
    leaver = Player.objects.get(pk=tables_of(event, 1)[0][0])
    tournament.replace_player(
        event=event, player=leaver, substitute=first_sub, from_round=1, user=organiser, reason="ill"
    )
    tournament.replace_player(
        event=event, player=first_sub, substitute=second_sub, from_round=2, user=organiser, reason="had to go"
    )
    seat = Seat.objects.get(hanchan__event=event, hanchan__round_number=2, player=second_sub)
    assert seat.on_behalf_of == leaver


def test_regenerating_a_seating_with_a_penalty_on_a_table_is_refused_not_a_crash(club, organiser):
    event = make_tournament(club, 8)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    table = Hanchan.objects.get(event=event, round_number=2, table_number=1)
    Penalty.objects.create(
        event=event, player=table.seats.first().player, hanchan=table, points=-5000, reason="late"
    )
    with pytest.raises(ValidationError, match="penalties attached"):
        tournament.seat_tournament(event=event, rounds=2, user=organiser)
    assert Hanchan.objects.filter(event=event).count() == 4


def test_swap_names_the_player_who_is_not_seated(club, organiser):
    event = make_tournament(club, 8, n_substitutes=1)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    sub = Registration.objects.get(event=event, is_substitute=True).player
    seated = Player.objects.get(pk=tables_of(event, 1)[0][0])
    with pytest.raises(ValidationError, match=f"seated in round 1: {sub} is not"):
        tournament.swap_players(event=event, round_number=1, first=seated, second=sub, user=organiser)
