"""Following without an account: a "follow" button on every player page (static/js/follow.js keeps the
list in the browser), and the fragment the home page asks for: each followed player's next table and
latest result, public players and public results only."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from league.models import Event, Player
from scoring import services as scoring

pytestmark = pytest.mark.django_db


def test_every_player_page_has_the_follow_button_and_the_script(players):
    response = Client().get(reverse("scoring:player", args=[players[0].pk]))
    content = response.content.decode()
    assert f'data-follow-player="{players[0].pk}"' in content
    assert "js/follow.js" in content
    assert "<script>" not in content  # no inline script: the CSP forbids it


def test_the_home_page_has_the_followed_section():
    content = Client().get(reverse("home")).content.decode()
    assert f'data-followed-url="{reverse("accounts:followed")}"' in content


def test_the_fragment_shows_next_table_and_latest_result(tournament, seated, organiser):
    game = tournament.hanchans.get(round_number=1, table_number=1)
    scoring.record_final_scores(hanchan=game, scores=[45000, 35000, 25000, 15000], sticks=0, user=organiser)
    ids = ",".join(str(p.pk) for p in seated[:2])
    response = Client().get(reverse("accounts:followed"), {"ids": ids})
    assert response.status_code == 200
    rows = response.context["rows"]
    assert {r["player"].pk for r in rows} == {p.pk for p in seated[:2]}
    first = next(r for r in rows if r["player"].pk == seated[0].pk)
    assert first["latest"].hanchan_id == game.pk and first["latest"].place == 1
    assert first["next"].round_number == 2
    assert f"#{game.pk}" in response.content.decode()


def test_members_only_players_and_events_are_left_out(tournament, seated, organiser):
    hidden = seated[0]
    hidden.visibility = Player.Visibility.MEMBERS
    hidden.save()
    response = Client().get(reverse("accounts:followed"), {"ids": f"{hidden.pk},{seated[1].pk}"})
    assert [r["player"].pk for r in response.context["rows"]] == [seated[1].pk]
    Event.objects.filter(pk=tournament.pk).update(visibility=Event.Visibility.MEMBERS)
    response = Client().get(reverse("accounts:followed"), {"ids": str(seated[1].pk)})
    assert response.context["rows"] == []


@pytest.mark.parametrize("ids", ["", "abc", "1,,2,x", "9" * 40, ",".join(["1"] * 500), "\x00", "-1"])
def test_junk_ids_answer_without_a_server_error(players, ids):
    assert Client().get(reverse("accounts:followed"), {"ids": ids}).status_code == 200


def test_the_fragment_costs_a_bounded_number_of_queries(tournament, seated, django_assert_max_num_queries):
    ids = ",".join(str(p.pk) for p in Player.objects.all())
    with django_assert_max_num_queries(8):
        Client().get(reverse("accounts:followed"), {"ids": ids})


def test_a_next_table_in_a_members_only_event_is_not_shown(tournament, seated, club):
    from tests.conftest import make_event

    public = make_event(club, slug="public-league")
    from league.models import Registration

    Registration.objects.create(event=public, player=seated[1])  # still followable through this event
    Event.objects.filter(pk=tournament.pk).update(visibility=Event.Visibility.MEMBERS)
    response = Client().get(reverse("accounts:followed"), {"ids": str(seated[1].pk)})
    rows = response.context["rows"]
    assert [r["player"].pk for r in rows] == [seated[1].pk] and rows[0]["next"] is None


@given(raw=st.text(max_size=400))
@hypothesis_settings(max_examples=200, deadline=None)
def test_any_id_list_reads_as_at_most_thirty_distinct_ids(raw):
    from accounts.views import MAX_FOLLOWED, _ids

    ids = _ids(raw)
    assert len(ids) <= MAX_FOLLOWED and len(set(ids)) == len(ids)
    assert all(isinstance(i, int) and 0 <= i < 10**11 for i in ids)
    assert all(str(i) in raw for i in ids)
