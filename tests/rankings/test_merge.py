"""One person, one player: a merge both clubs agree to keeps every game and moves every figure."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Player, Registration, Seat
from rankings import merge
from rankings.models import MergeRequest, Tournament, TournamentResult
from rankings.selectors import ema_ranking
from scoring.models import RatingChange, SeatResult
from scoring.standings import standings
from tests.conftest import make_event

from .conftest import paper_game, worker

pytestmark = pytest.mark.django_db


@pytest.fixture
def twin(other_club, other_organiser, organiser):
    """Ann's second record, made by the other club: one league game there and an imported tournament."""
    anne = Player.objects.create(display_name="Anne M.", club=other_club, given_name="Anne", country="FR")
    others = [Player.objects.create(display_name=n, club=other_club) for n in ("Udo", "Vera", "Wim")]
    league = make_event(other_club, slug="berlin-league")
    for player in [anne, *others]:
        Registration.objects.create(event=league, player=player)
    paper_game(league, [anne, *others], [40000, 30000, 30000, 20000], other_organiser)
    imported = Tournament.objects.create(
        name="Prague Open", end_date=timezone.localdate() - timedelta(days=30), players=4, weight=1.0
    )
    TournamentResult.objects.create(tournament=imported, player=anne, place=1, base_rank=1000)
    return anne


def test_a_merge_both_clubs_agree_to_keeps_every_game_and_recomputes_every_figure(
    two_tournaments, four, twin, organiser, other_organiser
):
    ann = four[0]
    worker()  # ratings and the ranking's rows, before
    seats = Seat.objects.filter(player__in=[ann, twin]).count()
    results = SeatResult.objects.filter(player__in=[ann, twin]).count()
    assert [r.name for r in ema_ranking(timezone.localdate()) if r.name.startswith("An")] == ["Ann"]
    before = next(r for r in ema_ranking(timezone.localdate()) if r.name == "Ann")
    assert before.results == 2

    # The other club asks; Ann's club accepts.
    request = merge.request_merge(kept=ann, merged=twin, user=other_organiser, reason="same person")
    assert request.status == MergeRequest.Status.PENDING
    with pytest.raises(ValidationError):
        merge.accept_merge(request=request, user=other_organiser)  # the asker cannot agree for the other club
    merge.accept_merge(request=request, user=organiser)
    request.refresh_from_db()
    assert request.status == MergeRequest.Status.DONE
    assert request.merged is None and request.merged_snapshot["display_name"] == "Anne M."
    assert request.moved["league.Seat.player"] == 1 and request.moved["rankings.TournamentResult.player"] == 1

    assert not Player.objects.filter(pk=twin.pk).exists()
    assert Seat.objects.filter(player=ann).count() == seats  # every game kept
    assert SeatResult.objects.filter(player=ann).count() == results
    league = twin_league = Registration.objects.get(player=ann, event__slug="berlin-league").event
    assert [row.player_id for row in standings(league)][0] == ann.pk
    assert twin_league.pk == league.pk
    # The history of the merged record's event says so, in the reader's language.
    from django.utils import translation

    from league.models import HistoryEntry

    entry = HistoryEntry.objects.get(event=league, action="players merged")
    assert entry.summary_text == "Anne M. merged into Ann (one person, two records)"
    assert entry.reason == "same person"
    with translation.override("fr"):
        assert entry.summary_text == "Anne M. fusionné avec Ann (une personne, deux fiches)"
        assert entry.action_label == "joueurs fusionnés"

    worker()  # the ratings rebuilt and the ranking's rows recomputed
    lifetime = RatingChange.objects.filter(player=ann, event=None, system="tenhou").order_by("-games").first()
    assert lifetime.games == 3  # two tournaments here and the Berlin game, one history
    after = next(r for r in ema_ranking(timezone.localdate()) if r.name == "Ann")
    assert after.results == 3 and after.ranking > before.ranking  # the Prague win counts for her now


def test_a_kept_record_merged_later_keeps_the_first_merges_record(four, club, organiser):
    Player.objects.filter(pk__in=[p.pk for p in four]).update(ema_number=None)
    ann, bob, cho, _dan = Player.objects.filter(pk__in=[p.pk for p in four]).order_by("pk")
    first = merge.request_merge(kept=bob, merged=cho, user=organiser)
    merge.request_merge(kept=ann, merged=bob, user=organiser)  # Bob (who kept Cho) is Ann too
    first.refresh_from_db()
    assert first.kept_id == ann.pk and first.status == MergeRequest.Status.DONE
    assert MergeRequest.objects.count() == 2


def test_two_ema_numbers_are_two_people(four, twin, organiser):
    Player.objects.filter(pk=twin.pk).update(ema_number="05000009")
    with pytest.raises(ValidationError, match="different EMA numbers"):
        merge.request_merge(kept=four[0], merged=Player.objects.get(pk=twin.pk), user=organiser)
    assert MergeRequest.objects.count() == 0


def test_the_ema_number_is_the_identity_and_moves_to_the_kept_record(four, twin, organiser):
    Player.objects.filter(pk=four[0].pk).update(ema_number=None)
    Player.objects.filter(pk=twin.pk).update(ema_number="04000099")
    ann = Player.objects.get(pk=four[0].pk)
    request = merge.request_merge(kept=ann, merged=Player.objects.get(pk=twin.pk), user=organiser)
    assert request.status == MergeRequest.Status.PENDING  # the other club has not agreed yet
    assert Player.objects.get(pk=ann.pk).ema_number is None


def test_players_of_the_same_event_are_two_people(two_tournaments, four, organiser):
    Player.objects.filter(pk__in=[four[0].pk, four[1].pk]).update(ema_number=None)
    four = list(Player.objects.filter(pk__in=[four[0].pk, four[1].pk]).order_by("pk"))
    with pytest.raises(ValidationError, match="Both players took part"):
        merge.request_merge(kept=four[0], merged=four[1], user=organiser)


def test_one_clubs_own_records_merge_at_once(four, club, organiser):
    copy = Player.objects.create(display_name="Ann (copy)", club=club, ema_number="04000077")
    Player.objects.filter(pk=four[0].pk).update(ema_number=None)
    ann = Player.objects.get(pk=four[0].pk)
    request = merge.request_merge(kept=ann, merged=copy, user=organiser)
    assert request.status == MergeRequest.Status.DONE
    assert Player.objects.get(pk=ann.pk).ema_number == "04000077"


def test_a_stranger_cannot_ask(four, twin, organiser, django_user_model):
    stranger = django_user_model.objects.create_user("eve", password="x-pass-12345")
    with pytest.raises(ValidationError, match="neither"):
        merge.request_merge(kept=four[0], merged=twin, user=stranger)


def test_the_merge_pages(four, twin, organiser, other_organiser, club):
    client = Client()
    client.force_login(other_organiser)
    url = reverse("rankings_manage:merges")
    assert client.get(url).status_code == 200
    assert client.post(url, {"kept": four[0].pk, "merged": 999999}).status_code == 422
    assert client.post(url, {"kept": four[0].pk, "merged": twin.pk, "reason": "same"}).status_code == 302
    request = MergeRequest.objects.get()
    accept = reverse("rankings_manage:merge_accept", args=[request.pk])
    assert client.get(accept).status_code == 303  # a GET goes back to the page
    client.post(accept)  # the asker: refused with a message
    assert MergeRequest.objects.get().status == MergeRequest.Status.PENDING
    client.force_login(organiser)
    assert client.post(accept).status_code == 302
    assert MergeRequest.objects.get().status == MergeRequest.Status.DONE
    assert client.post(accept).status_code == 302  # a double submit: a message, no 500
    # Someone with no club concerned: 404 on another clubs' request.
    third = Client()
    from django.contrib.auth import get_user_model

    from league.models import Club

    user = get_user_model().objects.create_user("zed", password="x-pass-12345")
    Club.objects.create(name="Third", slug="third").organisers.add(user)
    third.force_login(user)
    assert third.post(reverse("rankings_manage:merge_decline", args=[request.pk])).status_code == 404


def test_every_foreign_key_to_player_in_every_app_is_re_pointed():
    """Found from the fields of every installed model, independently of how the merge finds them."""
    from django.apps import apps

    from rankings.merge import _relations

    expected = {
        (model, field.name)
        for model in apps.get_models(include_auto_created=True)
        for field in model._meta.get_fields()
        if getattr(field, "many_to_one", False) or getattr(field, "one_to_one", False)
        if field.concrete and field.related_model is Player
    } - {(MergeRequest, "merged")}
    assert set(_relations()) == expected
    assert (Seat, "on_behalf_of") in expected and (MergeRequest, "kept") in expected
