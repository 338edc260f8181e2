"""A permission matrix over every scoring and tournament URL: anonymous, player, organiser of another
club, the organiser, staff. Someone else's game or event answers 404 and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Hanchan
from scoring import services, urls_manage, urls_public
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow
from scoring.models import HistoryEntry, Penalty
from tournaments import urls_manage as tournament_urls_manage
from tournaments import urls_public as tournament_urls_public

pytestmark = pytest.mark.django_db

# (URL name, argument kind, method, what the organiser gets for an empty request)
MATRIX = [
    ("scoring:game", "game", "get", 200),
    ("scoring:standings_csv", "event", "get", 200),
    ("scoring:event", "event", "get", 200),
    ("scoring:player", "player", "get", 200),
    ("scoring:player_chart", "player_chart", "get", 200),
    ("scoring:game_chart", "game", "get", 200),
    ("scoring:ratings", "event", "get", 200),
    ("scoring:yaku", "event", "get", 200),
    ("scoring_manage:games", "event", "get", 200),
    ("scoring_manage:game_new", "event", "get", 200),
    ("scoring_manage:game_new", "event", "post", 200),
    ("scoring_manage:penalties", "event", "get", 200),
    ("scoring_manage:penalties", "event", "post", 422),
    ("scoring_manage:penalty_cancel", "penalty", "post", 302),
    ("tournaments_manage:tournament", "tournament", "get", 200),
    ("tournaments_manage:tournament_generate", "tournament", "post", 302),
    ("tournaments_manage:tournament_swap", "tournament", "post", 302),
    ("tournaments_manage:tournament_replace", "tournament", "post", 302),
    ("tournaments_manage:tournament_swiss", "tournament", "post", 302),
    ("tournaments_manage:tournament_reseat", "tournament", "get", 200),
    ("tournaments_manage:seating_print", "round", "get", 200),
    ("tournaments_manage:slips_print", "round", "get", 200),
    ("scoring_manage:game", "game", "get", 200),
    ("scoring_manage:hand_add", "game", "post", 422),
    ("scoring_manage:preview", "game", "post", 200),
    ("scoring_manage:hand_correct", "hand", "get", 200),
    ("scoring_manage:hand_correct", "hand", "post", 422),
    ("scoring_manage:undo", "game", "get", 200),
    ("scoring_manage:undo", "game", "post", 422),  # no reason given: the confirmation page asks again
    ("scoring_manage:finish", "game", "post", 302),
    ("scoring_manage:void", "game", "post", 302),
    ("scoring_manage:reopen", "game", "post", 302),
    ("scoring_manage:final_scores", "game", "post", 422),
    ("scoring_manage:played_on", "game", "post", 302),  # no date given: back to the game, with the error
    ("scoring_manage:event_rules", "event", "get", 200),
    ("scoring_manage:event_rules", "event", "post", 422),
    ("scoring_manage:online_import", "event", "get", 200),
    ("scoring_manage:online_import", "event", "post", 422),  # nothing to import: the form says so
    # An import the session does not hold: back to the form, with a message (nothing to show or write).
    ("scoring_manage:online_import_batch", "online_batch", "get", 302),
    ("scoring_manage:online_import_fetch", "online_batch", "post", 302),
    ("scoring_manage:online_import_confirm", "online_batch", "post", 302),
    ("tournaments_manage:ema", "tournament", "get", 200),
    ("tournaments_manage:ema_download", "ema_csv", "get", 200),
    ("tournaments_manage:ema_download", "ema_xlsx", "get", 200),
    # The round clock, the wall screen and live standings (public), the clock's and the reveal's actions.
    ("scoring:standings_live", "event", "get", 200),
    ("tournaments:wall", "tournament", "get", 200),
    ("tournaments:wall_seating", "tournament", "get", 200),
    ("tournaments:wall_standings", "tournament", "get", 200),
    ("tournaments:clock", "tournament", "get", 200),
    ("tournaments_manage:clock_start", "tournament", "post", 302),
    ("tournaments_manage:clock_pause", "tournament", "post", 302),
    ("tournaments_manage:clock_adjust", "tournament", "post", 302),
    ("tournaments_manage:clock_length", "tournament", "post", 302),
    ("tournaments_manage:standings_release", "tournament", "post", 302),
    # A round on the day (organisers), and a table's entry link (anyone holding its token).
    ("tournaments_manage:round", "round", "get", 200),
    ("tournaments_manage:round_tables", "round", "get", 200),
    ("tournaments_manage:round_open", "round", "post", 302),
    ("tournaments_manage:round_close", "round", "post", 302),
    ("tournaments_manage:round_links", "round", "post", 302),
    ("tournaments_manage:link_reissue", "round_game", "post", 302),
    ("tournaments_manage:link_revoke", "round_game", "post", 302),
    ("tournaments_manage:table_confirm", "round_game", "post", 302),
    ("tournaments_manage:referee_clear", "round_game", "post", 302),
    ("tournaments_manage:table_return", "round_game", "post", 302),
    ("tournaments:table_code", "none", "get", 200),
    ("tournaments:table", "token", "get", 200),
    ("tournaments:table_hand", "token", "post", 422),
    ("tournaments:table_preview", "token", "post", 200),
    ("tournaments:table_undo", "token", "post", 422),
    ("tournaments:table_finish", "token", "post", 422),
    ("tournaments:table_scores", "token", "post", 422),
    ("tournaments:table_referee", "token", "post", 302),
    ("tournaments:table_confirm", "token", "post", 422),
]
# A table's pages answer the same whoever asks: the token in the URL is the key, never the login (the
# token pages' own matrix, tests/tournaments/test_table_pages.py, covers other games, rounds and links).
TOKEN_PAGES = {name for name, arg, *_ in MATRIX if arg in ("token", "none")}
# Public pages of the tournaments app: anyone who may see the event reads them (as scoring's public pages).
PUBLIC_TOURNAMENT_PAGES = {
    "tournaments:wall",
    "tournaments:wall_seating",
    "tournaments:wall_standings",
    "tournaments:clock",
}


@pytest.fixture
def game(event, players, organiser):
    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    return game


@pytest.fixture
def tournament(club, players, organiser):
    from league.models import Event, Registration
    from tests.conftest import make_event
    from tournaments.services import seat_tournament

    event = make_event(club, slug="lyon-open")
    event.kind = Event.Kind.TOURNAMENT
    event.save()
    for player in players[:4]:
        Registration.objects.create(event=event, player=player)
    seat_tournament(event=event, rounds=2, user=organiser)
    return event


def _table_token(event, organiser) -> str:
    """The entry token of round 1's table 1, with the round open (and the rate limits fresh)."""
    from django.core.cache import cache

    from tournaments.models import TableLink
    from tournaments.rounds import open_round

    cache.clear()
    open_round(event=event, number=1, user=organiser)
    return TableLink.objects.get(hanchan__event=event, hanchan__round_number=1, revoked_at__isnull=True).token


@pytest.fixture
def penalty(event, players, organiser):
    return services.add_penalty(event=event, player=players[0], points=-1000, reason="late", user=organiser)


def test_the_matrix_covers_every_scoring_and_tournament_url():
    names = {f"scoring:{p.name}" for p in urls_public.urlpatterns}
    names |= {f"scoring_manage:{p.name}" for p in urls_manage.urlpatterns}
    names |= {f"tournaments:{p.name}" for p in tournament_urls_public.urlpatterns}
    names |= {f"tournaments_manage:{p.name}" for p in tournament_urls_manage.urlpatterns}
    assert names == {name for name, *_ in MATRIX}


@pytest.mark.parametrize("role", ["anonymous", "player", "other_organiser", "organiser", "staff"])
@pytest.mark.parametrize(("name", "arg", "method", "allowed"), MATRIX)
def test_permission_matrix(
    users, event, players, game, penalty, tournament, role, name, arg, method, allowed
):
    args = {
        "tournament": [tournament.slug],
        "round": [tournament.slug, 1],
        "ema_csv": [tournament.slug, "csv"],
        "ema_xlsx": [tournament.slug, "xlsx"],
        "player": [players[0].pk],
        "player_chart": [players[0].pk, "places"],
        "game": [game.pk],
        "event": [event.slug],
        "hand": [game.pk, 1],
        "penalty": [event.slug, penalty.pk],
        "online_batch": [event.slug, "0b5e4c1e-7a8d-4f0e-9c55-2d3b1a6f8e90"],
        "round_game": [tournament.slug, 1, tournament.hanchans.get(round_number=1, table_number=1).pk],
        "token": [_table_token(tournament, users["organiser"])] if arg == "token" else [],
        "none": [],
    }[arg]
    if arg == "player_chart":  # something to draw: the player's places need a finished game
        services.finish_game(hanchan=game, user=users["organiser"], reason="time limit")
    client = Client()
    if users[role] is not None:
        client.force_login(users[role])
    before = (HandRow.objects.count(), Hanchan.objects.get(pk=game.pk).version, Penalty.objects.count())
    response = getattr(client, method)(reverse(name, args=args))
    if name.startswith("scoring:") or name in PUBLIC_TOURNAMENT_PAGES:
        assert response.status_code == 200
    elif name in TOKEN_PAGES:
        assert response.status_code == allowed
    elif role == "anonymous":
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    elif role in ("player", "other_organiser"):
        assert response.status_code == 404
    else:
        assert response.status_code == allowed
    if role != "organiser" and role != "staff":
        after = (HandRow.objects.count(), Hanchan.objects.get(pk=game.pk).version, Penalty.objects.count())
        assert after == before


def test_members_only_game_needs_a_login(event, game, player_user):
    event.visibility = "members"
    event.save()
    url = reverse("scoring:game", args=[game.pk])
    response = Client().get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client = Client()
    client.force_login(player_user)
    assert client.get(url).status_code == 200


FIELDS = [
    "result",
    "winner",
    "loser",
    "han",
    "fu",
    "yakuman",
    "pao",
    "riichi",
    "tenpai",
    "seat",
    "winner_2",
    "han_2",
    "fu_2",
    "tiles",
    "win_tile",
    "melds",
    "dora",
    "version",
]
junk = st.one_of(
    st.text(max_size=12),
    st.integers(-5, 200).map(str),
    st.sampled_from(["", "0", "3", "ron", "tsumo", "draw", "chombo", "abort", "13", "25", "20"]),
)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.dictionaries(st.sampled_from(FIELDS), junk, max_size=10))
def test_hand_entry_never_fails_on_junk(data, game, organiser):
    """Whatever is posted, the entry page answers with a form (or a redirect after a legal hand)."""
    client = Client()
    client.force_login(organiser)
    hands_before = HandRow.objects.count()
    for name in ("scoring_manage:hand_add", "scoring_manage:preview"):
        response = client.post(reverse(name, args=[game.pk]), data)
        assert response.status_code in (200, 302, 409, 422)
    if response.status_code != 302:
        assert HandRow.objects.count() in (hands_before, hands_before + 1)


def test_history_records_who_and_why(game, organiser):
    services.correct_hand(
        hanchan=game, number=1, hand=Hand.ron(2, Win(0, 2, 40)), user=organiser, reason="miscounted dora"
    )
    entry = HistoryEntry.objects.get(action="hand corrected")
    assert (entry.user, entry.reason) == (organiser, "miscounted dora")
    assert entry.before["wins"][0]["han"] == 3 and entry.after["wins"][0]["han"] == 2


def test_login_is_throttled(organiser, settings):
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    for _ in range(3):
        client.post(reverse("login"), {"username": "olga", "password": "wrong"})
    locked = client.post(reverse("login"), {"username": "olga", "password": "organiser-pass-123"})
    assert locked.status_code == 429
