"""Player pages show only what the visitor may see of the events the player plays in (issue 9).

Two events of Riichi Lyon: the public Autumn League and the members-only Members Cup. Mia (EMA number
04390002, France) plays only in the Members Cup; Ann plays in both. The Members Cup game is played first
(Ann 1st, Mia 4th), then the public game (Ann 4th). Visitors: anonymous, a logged-in user who organises
nothing, and the club's organiser. Members-only events are visible to members (a linked account)
(``league.permissions.visible_events``, the rule the event pages use).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from league.models import Event, Player, Registration
from scoring import services
from scoring.models import RatingChange, SeatResult
from scoring.ratings import rating_history, rebuild_all_ratings, replay_ratings
from scoring.statistics import lifetime_ratings
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

TENHOU, OPENSKILL = RatingChange.System.TENHOU, RatingChange.System.OPENSKILL


def final_game(event: Event, table: list[Player], scores: list[int], user):  # type: ignore[no-untyped-def]
    game = services.start_game(event=event, players=table, user=user, entry_mode="final_scores")
    services.record_final_scores(hanchan=game, scores=scores, user=user)
    return game


@pytest.fixture
def world(club, event, players, organiser):  # type: ignore[no-untyped-def]
    ann, bob, cho, dan = players[:4]
    members = make_event(club, slug="members-cup")
    members.visibility = Event.Visibility.MEMBERS
    members.save()
    mia = Player.objects.create(display_name="Mia Member", club=club, ema_number="04390002", country="FR")
    for player in (ann, bob, cho, mia):
        Registration.objects.create(event=members, player=player)
    hidden = final_game(members, [ann, bob, cho, mia], [40000, 32000, 28000, 20000], organiser)
    shown = final_game(event, [ann, bob, cho, dan], [20000, 32000, 28000, 40000], organiser)
    rebuild_all_ratings()
    return {"ann": ann, "mia": mia, "members": members, "hidden": hidden, "shown": shown, "public": event}


@pytest.fixture
def visitor(club):  # type: ignore[no-untyped-def]
    """Logged in, organises nothing: a member, whose account the club linked to their player record."""
    user = get_user_model().objects.create_user("pat", password="player-pass-123")
    Player.objects.create(display_name="Pat", club=club, user=user)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def organiser_client(organiser):  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(organiser)
    return client


def url(player: Player) -> str:
    return reverse("scoring:player", args=[player.pk])


def test_a_player_of_members_only_events_is_a_login_away_for_anonymous_visitors(
    world, visitor, organiser_client
):
    response = Client().get(url(world["mia"]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login") + "?next=")
    body = response.content.decode()
    assert "04390002" not in body and "Mia" not in body
    # Logged in (organising nothing, or the club's organiser): the page, as the event's page.
    for client in (visitor, organiser_client):
        html = client.get(url(world["mia"])).content.decode()
        assert "Mia Member" in html and "04390002" in html and "France" in html
        assert world["members"].name in html
        assert reverse("scoring:game", args=[world["hidden"].pk]) in html


def test_anonymous_visitors_see_only_the_public_part_of_a_player(
    world, visitor, organiser_client, django_assert_max_num_queries
):
    ann = world["ann"]
    with django_assert_max_num_queries(10):  # ratings counted again over the visible games: one query
        html = Client().get(url(ann)).content.decode()
    assert world["public"].name in html and world["members"].name not in html
    assert reverse("scoring:game", args=[world["shown"].pk]) in html
    assert reverse("scoring:game", args=[world["hidden"].pk]) not in html
    assert "Mia" not in html and reverse("scoring:player", args=[world["mia"].pk]) not in html  # head to head
    assert "after 1 game" in html and "after 2 games" not in html  # ratings over the visible game only
    assert "<dt>Average place</dt><dd>4.00</dd>" in html  # her public 4th only, not (1 + 4) / 2
    assert Client().get(url(ann), {"event": world["members"].slug}).status_code == 404
    # Logged in: every event, the stored lifetime ratings.
    for client in (visitor, organiser_client):
        html = client.get(url(ann)).content.decode()
        assert world["public"].name in html and world["members"].name in html
        assert reverse("scoring:game", args=[world["hidden"].pk]) in html
        assert "Mia Member" in html and "after 2 games" in html
        assert "<dt>Average place</dt><dd>2.50</dd>" in html
        assert client.get(url(ann), {"event": world["members"].slug}).status_code == 200


def test_lifetime_ratings_leave_the_hidden_games_out(world):
    """Anonymous: Ann's R as if the Members Cup had not been played (her first game, from 1500), not the
    stored lifetime R, which counts her win there."""
    ann, public = world["ann"], Event.objects.filter(visibility=Event.Visibility.PUBLIC)
    stored = rating_history(ann, event=None, visible_events=public)
    [true_point] = stored[TENHOU]
    assert true_point.before != 1500 and true_point.games == 2  # what the page used to show
    visible = lifetime_ratings(ann, public)
    for system in (TENHOU, OPENSKILL):
        # The public event's own scope counts only its game: the same numbers as lifetime without hidden.
        [point] = visible[system]
        [alone] = rating_history(ann, event=world["public"], visible_events=public)[system]
        assert point == alone and point.games == 1 and point.hanchan_id == world["shown"].pk
    assert visible[TENHOU][0].before == 1500


def test_rating_again_gives_the_stored_numbers_when_nothing_is_hidden(world):
    everything = Event.objects.all()
    stored = rating_history(world["ann"], event=None, visible_events=everything)
    assert lifetime_ratings(world["ann"], everything) == stored
    _, again = replay_ratings(SeatResult.objects.all(), player_id=world["ann"].pk)
    for system in (TENHOU, OPENSKILL):
        assert [(p.hanchan_id, p.games) for p in again[system]] == [
            (p.hanchan_id, p.games) for p in stored[system]
        ]
        for mine, theirs in zip(again[system], stored[system], strict=True):
            assert mine.before == pytest.approx(theirs.before) and mine.after == pytest.approx(theirs.after)


def test_a_player_who_plays_nowhere_visible_is_a_404(world, club, visitor):
    nobody = Player.objects.create(display_name="Nobody", club=club)
    assert Client().get(url(nobody)).status_code == 404
    assert visitor.get(url(nobody)).status_code == 404
