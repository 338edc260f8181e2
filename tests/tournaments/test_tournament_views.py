"""The organiser's tournament page: generate, swap, Swiss reseat and replace through the views."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Hanchan, Registration, Seat
from scoring import services
from tests.tournaments.test_tournament import make_tournament, tables_of
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_in(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def test_generate_swap_swiss_replace(client_in, club, organiser):
    event = make_tournament(club, 8, n_substitutes=1)
    url = reverse("tournaments_manage:tournament_generate", args=[event.slug])
    response = client_in.post(url, {"rounds": 3, "seed": 5}, follow=True)
    assert "Seating generated" in response.content.decode()
    assert Hanchan.objects.filter(event=event).count() == 6
    page = client_in.get(reverse("tournaments_manage:tournament", args=[event.slug])).content.decode()
    assert "repeated opponent pair" in page and "Round 3" in page

    t1, t2 = tables_of(event, 3)
    client_in.post(
        reverse("tournaments_manage:tournament_swap", args=[event.slug]),
        {"round_number": 3, "first": t1[0], "second": t2[0]},
    )
    assert tables_of(event, 3)[0][0] == t2[0]

    for table in Hanchan.objects.filter(event=event, round_number=1):
        services.record_final_scores(hanchan=table, scores=[40000, 32000, 28000, 20000], user=organiser)
    response = client_in.post(
        reverse("tournaments_manage:tournament_swiss", args=[event.slug]), {"round_number": 2}, follow=True
    )
    assert "reseated by the standings" in response.content.decode()

    sub = Registration.objects.get(event=event, is_substitute=True).player
    leaver = tables_of(event, 2)[0][0]
    response = client_in.post(
        reverse("tournaments_manage:tournament_replace", args=[event.slug]),
        {"player": leaver, "substitute": sub.pk, "from_round": 2, "reason": "ill"},
        follow=True,
    )
    assert "takes over 2 tables" in response.content.decode()
    assert Seat.objects.filter(player=sub, on_behalf_of_id=leaver).count() == 2


def test_errors_are_shown_not_raised(client_in, club):
    event = make_tournament(club, 6)
    response = client_in.post(
        reverse("tournaments_manage:tournament_generate", args=[event.slug]), {"rounds": 2}, follow=True
    )
    assert "register 2 more substitutes" in response.content.decode()
    response = client_in.post(
        reverse("tournaments_manage:tournament_swiss", args=[event.slug]), {"round_number": 1}, follow=True
    )
    assert "round 1 has no standings" in response.content.decode()


def test_printable_pages(client_in, club, organiser):
    event = make_tournament(club, 8)
    tournament_services.seat_tournament(event=event, rounds=1, user=organiser)
    seating_page = client_in.get(
        reverse("tournaments_manage:seating_print", args=[event.slug, 1])
    ).content.decode()
    names = [s.player.display_name for s in Seat.objects.filter(hanchan__event=event)]
    assert all(name in seating_page for name in names) and "By player" in seating_page
    slips = client_in.get(reverse("tournaments_manage:slips_print", args=[event.slug, 1])).content.decode()
    assert slips.count('class="slip"') == 2 and "120000" in slips
    assert client_in.get(reverse("tournaments_manage:slips_print", args=[event.slug, 9])).status_code == 404


def test_an_invalid_form_says_which_field_is_wrong(client_in, club, organiser):
    event = make_tournament(club, 8, n_substitutes=1)
    tournament_services.seat_tournament(event=event, rounds=2, user=organiser)
    sub = Registration.objects.get(event=event, is_substitute=True).player
    response = client_in.post(
        reverse("tournaments_manage:tournament_replace", args=[event.slug]),
        {"player": tables_of(event, 2)[0][0], "substitute": sub.pk, "from_round": 2, "reason": ""},
        follow=True,
    )
    assert "Reason: This field is required." in response.content.decode()
    assert not Seat.objects.filter(player=sub).exists()


def test_replace_at_one_table_through_the_page(client_in, club, organiser):
    event = make_tournament(club, 8, n_substitutes=1)
    tournament_services.seat_tournament(event=event, rounds=2, user=organiser)
    sub = Registration.objects.get(event=event, is_substitute=True).player
    page = client_in.get(reverse("tournaments_manage:tournament", args=[event.slug])).content.decode()
    assert 'name="table"' in page and "Only at table" in page
    late = tables_of(event, 1)[1][3]
    response = client_in.post(
        reverse("tournaments_manage:tournament_replace", args=[event.slug]),
        {"player": late, "substitute": sub.pk, "from_round": 1, "table": 2, "reason": "late"},
        follow=True,
    )
    assert "takes over 1 table." in response.content.decode()
    assert tables_of(event, 1)[1][3] == sub.pk and not Registration.objects.get(player_id=late).dropped_out


def test_the_rounds_box_shows_the_rounds_seated(client_in, club, organiser):
    """After generating 4 rounds the box said 8 (the form's default): it says 4, so a regeneration
    keeps the count unless the organiser changes it."""
    event = make_tournament(club, 8)
    page = reverse("tournaments_manage:tournament", args=[event.slug])
    assert 'name="rounds" value="8"' in client_in.get(page).content.decode()  # nothing seated yet
    client_in.post(reverse("tournaments_manage:tournament_generate", args=[event.slug]), {"rounds": 4})
    assert 'name="rounds" value="4"' in client_in.get(page).content.decode()


def test_every_round_count_the_guide_quotes_can_be_asked_for(client_in, club, organiser):
    """The guide quotes 21 rounds without a repeated opponent for 64 players (and up to 33 for 100):
    the form, the service and the Swiss and late-change round fields take them."""
    from tournaments.forms import SeatingForm, SwissForm
    from tournaments.seating import max_rounds_without_repeats

    assert max_rounds_without_repeats(64) == 21
    assert tournament_services.MAX_ROUNDS >= max_rounds_without_repeats(100) == 33
    assert SeatingForm({"rounds": 33}).is_valid() and not SeatingForm({"rounds": 34}).is_valid()
    assert SwissForm({"round_number": 21}).is_valid()
    event = make_tournament(club, 64)
    response = client_in.post(
        reverse("tournaments_manage:tournament_generate", args=[event.slug]), {"rounds": 21}, follow=True
    )
    assert "Seating generated" in response.content.decode()
    assert Hanchan.objects.filter(event=event).count() == 21 * 16
    page = client_in.get(reverse("tournaments_manage:tournament", args=[event.slug])).content.decode()
    assert 'name="rounds" value="21"' in page and 'max="33"' in page
    assert '<strong class="">0</strong> repeated opponent pairs' in page


def test_the_shared_opponents_line_leaves_out_drop_outs_and_substitutes(client_in, club, organiser):
    """After a drop-out the line said "two players who never meet share at least 0 opponents": the
    player who left and the substitute who took their seats never meet and share nobody. The line is
    now over the players there from round 1 and still in, and says how many it leaves out."""
    event = make_tournament(club, 16, n_substitutes=1)
    tournament_services.seat_tournament(event=event, rounds=4, user=organiser, seed=1)
    leaving = Registration.objects.get(event=event, player__display_name=f"{event.slug}-P00").player
    substitute = Registration.objects.get(event=event, is_substitute=True).player
    tournament_services.replace_player(
        event=event, player=leaving, substitute=substitute, from_round=3, user=organiser, reason="ill"
    )
    page = client_in.get(reverse("tournaments_manage:tournament", args=[event.slug])).content.decode()
    shared = re.search(r'<span id="min-shared">.*?<strong>(\d+)</strong>', page, re.S)
    assert shared is not None and shared.group(1) != "0"
    assert "(among the players there from round 1 and still in: 2 drop-outs" in page
