"""Each player at most once per round, four players per table: kept by every seating service.

The bug this guards against: "replace a player who drops out" offered every registered player as the
substitute, so a player already seated in the round could be seated twice; nothing could undo it and
Swiss reseating of that round then crashed. The property test at the end runs random sequences of
swaps, replacements, Swiss reseatings and results, and checks the invariant after every step.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Event, Hanchan, Player, Registration, Seat
from scoring import services
from scoring.models import HistoryEntry
from tests.tournaments.test_tournament import finish_round, make_tournament, tables_of
from tournaments import services as tournament

pytestmark = pytest.mark.django_db


def snapshot(event: Event) -> tuple:
    """Everything a seating action may write: seats, registrations, table versions, the audit trail."""
    return (
        sorted(
            Seat.objects.filter(hanchan__event=event).values_list(
                "hanchan_id", "seat", "player_id", "on_behalf_of_id", "final_score"
            )
        ),
        sorted(Registration.objects.filter(event=event).values_list("player_id", "dropped_out")),
        sorted(Hanchan.objects.filter(event=event).values_list("pk", "version", "status")),
        HistoryEntry.objects.filter(event=event).count(),
    )


def assert_invariant(event: Event) -> None:
    """Each player at most once per round; every table has four distinct players."""
    numbers = set(
        Hanchan.objects.filter(event=event, round_number__isnull=False).values_list("round_number", flat=True)
    )
    for number in numbers:
        tables = tables_of(event, number)
        seated = [p for table in tables for p in table]
        assert len(seated) == len(set(seated)), f"a player is seated twice in round {number}: {tables}"
        assert all(len(table) == len(set(table)) == 4 for table in tables), tables


def seated(event: Event, round_number: int, table: int, seat: int) -> Player:
    return Player.objects.get(pk=tables_of(event, round_number)[table - 1][seat])


def double_a_player(event: Event, round_number: int = 2) -> tuple[Player, Player]:
    """Data broken before the fix: East of table 2 also takes East of table 1's seat in the round.

    Returns (the player now seated twice, the player who lost their seat)."""
    lost = seated(event, round_number, 1, 0)
    twice = seated(event, round_number, 2, 0)
    Seat.objects.filter(
        hanchan__event=event, hanchan__round_number=round_number, hanchan__table_number=1, player=lost
    ).update(player=twice)
    return twice, lost


@pytest.fixture
def client_in(organiser):
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    return client


def test_replacing_with_a_player_seated_in_the_round_is_refused(club, organiser):
    """The reported bug: the substitute is already seated at another table of the round."""
    event = make_tournament(club, 8, n_substitutes=1)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    leaver, bob = seated(event, 2, 1, 0), seated(event, 2, 2, 1)
    before = snapshot(event)
    with pytest.raises(ValidationError) as caught:
        tournament.replace_player(
            event=event, player=leaver, substitute=bob, from_round=2, user=organiser, reason="went home"
        )
    assert caught.value.message_dict["substitute"] == [f"{bob} is already seated at table 2 in round 2."]
    assert snapshot(event) == before
    assert_invariant(event)


def test_replacing_with_a_seated_player_through_the_page_says_why_and_changes_nothing(
    client_in, club, organiser
):
    event = make_tournament(club, 8, n_substitutes=1)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    leaver, bob = seated(event, 2, 1, 0), seated(event, 2, 2, 1)
    before = snapshot(event)
    response = client_in.post(
        reverse("tournaments_manage:tournament_replace", args=[event.slug]),
        {"player": leaver.pk, "substitute": bob.pk, "from_round": 2, "reason": "went home"},
        follow=True,
    )
    assert response.status_code == 200
    assert f"{bob} is already seated at table 2 in round 2." in response.content.decode()
    assert snapshot(event) == before


def test_the_form_offers_only_substitutes_not_seated_in_the_rounds_left(client_in, club, organiser):
    event = make_tournament(club, 8, n_substitutes=2)
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    finish_round(event, 1, organiser)
    spare, gone = (
        r.player for r in Registration.objects.filter(event=event, is_substitute=True).order_by("pk")
    )
    Registration.objects.filter(player=gone).update(dropped_out=True)
    response = client_in.get(reverse("tournaments_manage:tournament", args=[event.slug]))
    form = response.context["replace_form"]
    assert list(form.fields["substitute"].queryset) == [spare]
    assert form.initial["from_round"] == 2
    page = response.content.decode()
    for pk in {p for table in tables_of(event, 2) for p in table}:
        assert f'<option value="{pk}">' not in page.split('name="substitute"')[1].split("</select>")[0]
    # Once the spare substitute is seated (replacing someone from round 2), nobody is left to offer.
    tournament.replace_player(
        event=event,
        player=seated(event, 2, 1, 0),
        substitute=spare,
        from_round=2,
        user=organiser,
        reason="ill",
    )
    response = client_in.get(reverse("tournaments_manage:tournament", args=[event.slug]))
    assert list(response.context["replace_form"].fields["substitute"].queryset) == []


@pytest.mark.parametrize("damage", ["doubled", "short table"])
def test_swiss_reseating_of_broken_data_answers_a_message_not_a_server_error(
    client_in, club, organiser, damage
):
    event = make_tournament(club, 16)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    finish_round(event, 1, organiser)
    if damage == "doubled":
        twice, _lost = double_a_player(event)
        expected = f"{twice} is seated 2 times in round 2 (tables 1, 2)."
    else:
        Seat.objects.filter(
            hanchan__event=event, hanchan__round_number=2, hanchan__table_number=3, seat=3
        ).delete()
        expected = "Table 3 of round 2 has 3 seats instead of four."
    before = snapshot(event)
    response = client_in.post(
        reverse("tournaments_manage:tournament_swiss", args=[event.slug]), {"round_number": 2}, follow=True
    )
    assert response.status_code != 500
    page = response.content.decode()
    assert "Round 2 cannot be reseated until its seating is repaired" in page and expected in page
    assert snapshot(event) == before


def test_broken_data_is_reported_on_every_seating_page(client_in, club, organiser):
    event = make_tournament(club, 8)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    twice, _lost = double_a_player(event)
    page = client_in.get(reverse("tournaments_manage:tournament", args=[event.slug]))
    assert page.status_code == 200
    assert 'id="seating-faults"' in page.content.decode()
    assert f"{twice} is seated 2 times in round 2 (tables 1, 2)." in page.content.decode()
    for name in ("seating_print", "slips_print"):
        assert client_in.get(reverse(f"tournaments_manage:{name}", args=[event.slug, 2])).status_code == 200


def test_a_player_seated_twice_can_be_repaired_but_not_made_worse(client_in, club, organiser):
    event = make_tournament(club, 8, n_substitutes=1)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    twice, lost = double_a_player(event)
    spare = Registration.objects.get(event=event, is_substitute=True).player
    # Replacing the doubled player everywhere would double the substitute instead: refused.
    before = snapshot(event)
    with pytest.raises(ValidationError, match=f"{spare} is seated 2 times in round 2"):
        tournament.replace_player(
            event=event, player=twice, substitute=spare, from_round=2, user=organiser, reason="mistake"
        )
    assert snapshot(event) == before
    # A swap that keeps the damage as it is stays possible (the organiser may be mid-repair).
    other = seated(event, 2, 1, 1)
    tournament.swap_players(event=event, round_number=2, first=twice, second=other, user=organiser)
    assert tables_of(event, 2)[0][:2] == [other.pk, twice.pk]
    # Giving one of the two seats back to the player who lost it repairs the round.
    client_in.post(
        reverse("tournaments_manage:tournament_replace", args=[event.slug]),
        {"player": twice.pk, "substitute": lost.pk, "from_round": 2, "table": 1, "reason": "repair"},
    )
    assert_invariant(event)
    assert tournament.seating_faults(event) == []
    assert not Registration.objects.get(event=event, player=twice).dropped_out
    assert Seat.objects.get(hanchan__event=event, hanchan__round_number=2, player=lost).on_behalf_of is None
    response = client_in.post(
        reverse("tournaments_manage:tournament_swiss", args=[event.slug]), {"round_number": 2}, follow=True
    )
    assert "reseated by the standings" in response.content.decode()


def test_the_invariant_is_checked_in_the_service_and_rolls_back(club, organiser, monkeypatch):
    """Even if a seating computation went wrong, the service refuses to commit a double seat."""
    event = make_tournament(club, 8)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    before = snapshot(event)
    monkeypatch.setattr(
        tournament.seating, "swiss_round", lambda order, previous, seed, groups=None: ((0, 1, 2, 3),) * 2
    )
    with pytest.raises(ValidationError, match="Refused, nothing was changed.*seated 2 times in round 2"):
        tournament.reseat_swiss(event=event, round_number=2, user=organiser)
    assert snapshot(event) == before


# --------------------------------------------------------------------------------------------------------
# Property: random sequences of seating changes never break the invariant; refused ones change nothing.

N_PLAYERS, N_SUBSTITUTES, N_ROUNDS = 12, 2, 3
PEOPLE = N_PLAYERS + N_SUBSTITUTES

person = st.integers(0, PEOPLE - 1)
substitute = st.integers(N_PLAYERS, PEOPLE - 1) | person  # mostly the registered substitutes
round_number = st.integers(1, N_ROUNDS)
actions = st.one_of(
    st.tuples(st.just("swap"), round_number, person, person),
    st.tuples(st.just("replace"), person, substitute, round_number, st.none() | st.integers(1, 4)),
    st.tuples(st.just("swiss"), round_number),
    st.tuples(st.just("finish"), round_number),
)


@pytest.fixture
def seated_tournament(club, organiser):
    event = make_tournament(club, N_PLAYERS, n_substitutes=N_SUBSTITUTES)
    tournament.seat_tournament(event=event, rounds=N_ROUNDS, user=organiser, seed=3)
    people = list(Player.objects.filter(registrations__event=event).order_by("pk"))
    return event, people


def run(event: Event, people: list[Player], action: tuple, user) -> None:
    kind, *args = action
    if kind == "swap":
        number, a, b = args
        tournament.swap_players(
            event=event, round_number=number, first=people[a], second=people[b], user=user
        )
    elif kind == "replace":
        a, b, number, table = args
        tournament.replace_player(
            event=event,
            player=people[a],
            substitute=people[b],
            from_round=number,
            table=table,
            user=user,
            reason="random step",
        )
    elif kind == "swiss":
        tournament.reseat_swiss(event=event, round_number=args[0], user=user)
    else:
        open_tables = Hanchan.objects.filter(
            event=event, round_number=args[0], status=Hanchan.Status.IN_PROGRESS
        )
        for table in open_tables:
            services.record_final_scores(hanchan=table, scores=[40000, 32000, 28000, 20000], user=user)


@settings(
    max_examples=30,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(actions, min_size=1, max_size=8))
def test_random_seating_changes_keep_each_player_once_per_round(seated_tournament, organiser, steps):
    event, people = seated_tournament
    with transaction.atomic():  # every example starts from the same seating: rolled back at the end
        for step in steps:
            before = snapshot(event)
            try:
                run(event, people, step, organiser)
            except ValidationError:
                assert snapshot(event) == before, f"refused {step} changed something"
            assert_invariant(event)
        transaction.set_rollback(True)


def test_a_table_started_by_hand_in_a_round_cannot_seat_a_player_seated_there(club, organiser):
    """start_game with a round number keeps the same invariant as the seating services."""
    event = make_tournament(club, 8, n_substitutes=0)
    tournament.seat_tournament(event=event, rounds=1, user=organiser)
    bob = seated(event, 1, 2, 1)
    extra = [Player.objects.create(display_name=f"Extra {i}", club=club) for i in range(3)]
    for player in extra:
        Registration.objects.create(event=event, player=player)
    before = snapshot(event)
    with pytest.raises(ValidationError) as caught:
        services.start_game(
            event=event, players=[*extra, bob], user=organiser, round_number=1, table_number=3
        )
    assert caught.value.messages == [f"{bob} is already seated at table 2 in round 1."]
    assert snapshot(event) == before


def test_a_withdrawn_player_is_neither_offered_nor_accepted_as_a_substitute(client_in, club, organiser):
    event = make_tournament(club, 8, n_substitutes=2)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    spare, gone = (
        r.player for r in Registration.objects.filter(event=event, is_substitute=True).order_by("pk")
    )
    Registration.objects.filter(event=event, player=gone).update(withdrawn_at="2025-07-11T10:00:00Z")
    assert list(tournament.eligible_substitutes(event)) == [spare]
    before = snapshot(event)
    with pytest.raises(ValidationError) as caught:
        tournament.replace_player(
            event=event,
            player=seated(event, 1, 1, 0),
            substitute=gone,
            from_round=1,
            user=organiser,
            reason="ill",
        )
    assert caught.value.message_dict["substitute"] == [
        f"{gone} has withdrawn from the event: choose someone still playing."
    ]
    assert snapshot(event) == before


def test_a_withdrawn_player_cannot_be_put_in_a_new_game(club, organiser):
    event = make_tournament(club, 8, n_substitutes=0)
    players = [r.player for r in Registration.objects.filter(event=event).order_by("pk")[:4]]
    Registration.objects.filter(event=event, player=players[0]).update(withdrawn_at="2025-07-11T10:00:00Z")
    with pytest.raises(ValidationError, match="Withdrawn from"):
        services.start_game(event=event, players=players, user=organiser)
    assert not Hanchan.objects.filter(event=event).exists()
