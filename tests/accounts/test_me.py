"""My page: my next table and wind, my table's live scores, my own confirmation code (and confirming
with it from my phone, for my seat only), my games, statistics and events."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import selectors
from league.models import Hanchan
from tournaments import links, rounds
from tournaments.models import SeatConfirmation, TableLink

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_my_page_shows_my_next_table_and_wind(tournament, seated, ann):
    response = _client(ann).get(reverse("accounts:me"))
    assert response.status_code == 200
    page = response.context["page"]
    first = page.next_tables[0]
    assert (first.round_number, first.table, first.wind) == (1, 1, 0)
    assert not first.playing
    assert "Round 1, table 1" in response.content.decode() and "East" in response.content.decode()


def test_my_page_shows_my_table_live_and_my_own_code_only(tournament, seated, ann, organiser):
    rounds.open_round(event=tournament, number=1, user=organiser)
    game = tournament.hanchans.get(round_number=1, table_number=1)
    link = TableLink.objects.get(hanchan=game, revoked_at__isnull=True)
    codes = dict(link.confirmations.values_list("seat", "code"))
    response = _client(ann).get(reverse("accounts:me"))
    content = response.content.decode()
    assert response.context["page"].live is not None
    assert [row[0] for row in response.context["page"].live.rows] == [p.display_name for p in seated]
    assert codes[0] in content
    assert all(codes[seat] not in content for seat in (1, 2, 3))


def test_i_confirm_my_seat_from_my_page_and_never_anothers(tournament, seated, ann, bob, organiser):
    rounds.open_round(event=tournament, number=1, user=organiser)
    game = tournament.hanchans.get(round_number=1, table_number=1)
    link = TableLink.objects.select_related("hanchan__event").get(hanchan=game, revoked_at__isnull=True)
    links.enter_final_scores(link=link, scores=[45000, 35000, 25000, 15000], sticks=0, ip=None)
    client = _client(ann)
    assert client.post(reverse("accounts:confirm", args=[game.pk])).status_code == 302
    confirmed = set(
        SeatConfirmation.objects.filter(link=link, confirmed_at__isnull=False).values_list("seat", flat=True)
    )
    assert confirmed == {0}
    client.post(reverse("accounts:confirm", args=[game.pk]))  # twice: still my seat only
    assert SeatConfirmation.objects.filter(link=link, confirmed_at__isnull=False).count() == 1
    other_table = tournament.hanchans.get(round_number=1, table_number=2)
    assert client.post(reverse("accounts:confirm", args=[other_table.pk])).status_code == 404
    _client(bob).post(reverse("accounts:confirm", args=[game.pk]))
    confirmed = set(
        SeatConfirmation.objects.filter(link=link, confirmed_at__isnull=False).values_list("seat", flat=True)
    )
    assert confirmed == {0, 1}
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS


def test_a_get_on_an_action_goes_back_to_my_page(ann):
    client = _client(ann)
    for name, args in (("accounts:claim", []), ("accounts:visibility", []), ("accounts:confirm", [1])):
        response = client.get(reverse(name, args=args))
        assert response.status_code == 303 and response["Location"] == reverse("accounts:me")


def test_my_games_and_statistics_count_my_finished_games(tournament, seated, ann, organiser):
    from scoring import services as scoring

    game = tournament.hanchans.get(round_number=1, table_number=1)
    scoring.record_final_scores(hanchan=game, scores=[45000, 35000, 25000, 15000], sticks=0, user=organiser)
    response = _client(ann).get(reverse("accounts:me"))
    page = response.context["page"]
    assert page.placements.games == 1 and page.placements.counts == (1, 0, 0, 0)
    assert [g.hanchan_id for g in page.games] == [game.pk]
    assert [r.event_id for r in page.registrations] == [tournament.pk]


def test_my_page_costs_a_bounded_number_of_queries(
    tournament, seated, ann, organiser, django_assert_max_num_queries
):
    rounds.open_round(event=tournament, number=1, user=organiser)
    with django_assert_max_num_queries(16):
        selectors.my_page(seated[0], ann)


def test_the_slip_prints_no_code_of_a_player_whose_code_is_on_their_phone(tournament, seated, ann, organiser):
    rounds.open_round(event=tournament, number=1, user=organiser)
    game = tournament.hanchans.get(round_number=1, table_number=1)
    codes = dict(
        TableLink.objects.get(hanchan=game, revoked_at__isnull=True).confirmations.values_list("seat", "code")
    )
    client = _client(organiser)
    content = client.get(
        reverse("tournaments_manage:slips_print", args=[tournament.slug, 1])
    ).content.decode()
    assert codes[0] not in content  # ann has an account: her code is on her page only
    assert all(codes[seat] in content for seat in (1, 2, 3))
    assert "on your phone" in content


def test_my_live_table_polls_its_scores(tournament, seated, ann, organiser):
    from scoring import services as scoring
    from scoring.engine import Hand, Win

    client = _client(ann)
    assert client.get(reverse("accounts:me_live")).context["live"] is None  # no round open
    tournament.table_entry_mode = "hands"  # the tables enter hand by hand: the scores move during play
    tournament.save()
    rounds.open_round(event=tournament, number=1, user=organiser)
    game = tournament.hanchans.get(round_number=1, table_number=1)
    assert game.entry_mode == Hanchan.EntryMode.HANDS
    scoring.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    response = client.get(reverse("accounts:me_live"))
    assert response.status_code == 200 and 'hx-trigger="every 20s"' in response.content.decode()
    live = response.context["live"]
    assert [row[0] for row in live.rows] == [p.display_name for p in seated]
    assert live.hands == 1 and live.rows[0][1] > live.rows[2][1]  # East won from West
    assert [row[2] for row in live.rows] == [True, False, False, False]  # my row marked
