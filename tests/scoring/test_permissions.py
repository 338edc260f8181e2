"""A permission matrix over every scoring and tournament URL: anonymous, player, organiser of another
club, the organiser, staff. Someone else's game or event answers 404 and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import urls_manage as api_urls_manage
from api.keys import create_key
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
    ("scoring_manage:entry_mode", "game", "post", 302),  # no mode chosen: likewise
    ("scoring_manage:event_rules", "event", "get", 200),
    ("scoring_manage:event_rules", "event", "post", 422),
    ("scoring_manage:online_import", "event", "get", 200),
    ("scoring_manage:online_import", "event", "post", 422),  # nothing to import: the form says so
    # An import the session does not hold: back to the form, with a message (nothing to show or write).
    ("scoring_manage:online_import_batch", "online_batch", "get", 302),
    ("scoring_manage:online_import_progress", "online_batch", "get", 302),
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
    # Teams (public: standings, CSV, a team, the wall's slide; organisers: the teams and one team), and
    # a team league's match days.
    ("tournaments:team_standings", "tournament", "get", 200),
    ("tournaments:team_standings_csv", "tournament", "get", 200),
    ("tournaments:team", "team", "get", 200),
    ("tournaments:wall_teams", "tournament", "get", 200),
    ("tournaments_manage:teams", "tournament", "get", 200),
    ("tournaments_manage:teams_paste", "tournament", "post", 422),
    ("tournaments_manage:team_create", "tournament", "post", 422),
    ("tournaments_manage:team_settings", "tournament", "post", 422),
    ("tournaments_manage:team", "team", "get", 200),
    ("tournaments_manage:team_rename", "team", "post", 422),
    ("tournaments_manage:team_member_add", "team", "post", 422),
    ("tournaments_manage:team_member_remove", "team", "post", 302),
    ("tournaments_manage:team_captain", "team", "post", 302),
    ("tournaments_manage:team_delete", "team", "post", 302),
    ("tournaments_manage:match_days", "team_league", "get", 200),
    ("tournaments_manage:match_days", "team_league", "post", 422),
    ("tournaments_manage:match_day", "match_day", "get", 200),
    ("tournaments_manage:match_game_start", "match_table", "post", 422),
    # Stages, cuts and finals (public: a stage's standings, its CSV, the final ranking, the wall's stage
    # slide; organisers: the stages, adding one, the cut preview and close, seating a stage).
    ("tournaments:stage_standings", "stage", "get", 200),
    ("tournaments:stage_standings_csv", "stage", "get", 200),
    ("tournaments:final_ranking", "tournament", "get", 200),
    ("tournaments:wall_stage", "stage", "get", 200),
    ("tournaments_manage:stages", "tournament", "get", 200),
    ("tournaments_manage:stage_add", "tournament", "post", 422),
    ("tournaments_manage:stage_close", "stage", "get", 200),
    ("tournaments_manage:stage_close", "stage", "post", 200),  # not accepted: the preview again
    ("tournaments_manage:stage_seat", "stage", "post", 302),
    # A league's season play-off: the same pages on a league (its season is stage 1; seating the season
    # is refused with a message, back to the play-off page).
    ("tournaments:stage_standings", "league_stage", "get", 200),
    ("tournaments:stage_standings_csv", "league_stage", "get", 200),
    ("tournaments:final_ranking", "league", "get", 200),
    ("tournaments_manage:stages", "league", "get", 200),
    ("tournaments_manage:stage_add", "league", "post", 422),
    ("tournaments_manage:stage_close", "league_stage", "get", 200),
    ("tournaments_manage:stage_close", "league_stage", "post", 200),
    ("tournaments_manage:stage_seat", "league_stage", "post", 302),
    ("tournaments_manage:stage_hide", "stage", "post", 302),
    ("tournaments_manage:stage_release", "stage", "post", 302),
    # An event's API keys (the api app): the page, a key made without a name or scope, a revocation.
    ("api_manage:keys", "event", "get", 200),
    ("api_manage:keys", "event", "post", 422),
    ("api_manage:key_revoke", "api_key", "post", 302),
    ("api_manage:webhooks", "event", "get", 200),
    ("api_manage:webhooks", "event", "post", 422),
    ("api_manage:webhook_revoke", "webhook", "post", 302),
    # Registration (issue 26): the public form and a sign-up's personal page (its token is the key), the
    # unsubscribe link of the e-mails; the organisers' list, its decisions and export, check-in.
    ("registration:register", "open_event", "get", 200),
    ("registration:register", "open_event", "post", 422),
    ("registration:signup", "signup_token", "get", 200),
    ("registration:withdraw", "signup_token", "post", 302),
    ("registration:check_in", "signup_token", "post", 302),
    ("notifications:unsubscribe", "unsubscribe_token", "get", 200),
    ("notifications:service_worker", "none", "get", 200),
    ("registration:preferences", "signup_token", "post", 302),
    ("registration:push", "signup_token", "post", 422),  # no VAPID keys in the tests: push is off
    ("registration_manage:registration", "reg_event", "get", 200),
    ("registration_manage:registration", "reg_event", "post", 422),
    ("registration_manage:csv", "reg_event", "get", 200),
    ("registration_manage:add_players", "reg_event", "post", 302),
    ("registration_manage:approve", "reg_signup", "post", 302),
    ("registration_manage:reject", "reg_signup", "post", 302),
    ("registration_manage:wait", "reg_signup", "post", 302),
    ("registration_manage:check_in", "checkin_event", "get", 200),
    ("registration_manage:tap", "checkin_signup", "post", 302),
    ("registration_manage:seat", "checkin_event", "post", 302),
]
# The arguments of registration's URLs, made only for them (a sign-up of the tournament, registration open).
REGISTRATION_ARGS = (
    "open_event",
    "signup_token",
    "unsubscribe_token",
    "reg_event",
    "reg_signup",
    "checkin_event",
    "checkin_signup",
)
# A table's pages answer the same whoever asks: the token in the URL is the key, never the login (the
# token pages' own matrix, tests/tournaments/test_table_pages.py, covers other games, rounds and links).
TOKEN_PAGES = {
    name
    for name, arg, *_ in MATRIX
    if arg in ("token", "none", "signup_token", "unsubscribe_token", "open_event")
}
# Public pages of the tournaments app: anyone who may see the event reads them (as scoring's public pages).
PUBLIC_TOURNAMENT_PAGES = {
    "tournaments:team_standings",
    "tournaments:team_standings_csv",
    "tournaments:team",
    "tournaments:wall_teams",
    "tournaments:wall",
    "tournaments:wall_seating",
    "tournaments:wall_standings",
    "tournaments:clock",
    "tournaments:stage_standings",
    "tournaments:stage_standings_csv",
    "tournaments:final_ranking",
    "tournaments:wall_stage",
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


def _team(event, organiser) -> int:
    """A team of the tournament, with one member."""
    from tournaments import teams

    name = event.registrations.first().player.display_name
    teams.register_teams(event=event, text=f"Red; {name}", user=organiser)
    return event.teams.get().pk


def _team_league(event, players, organiser) -> None:
    """The league ``event`` as a team league: four teams, match day 1 drawn."""
    from datetime import date

    from tournaments import team_league, teams

    text = "\n".join(f"T{i}; {p.display_name}" for i, p in enumerate(players[:4]))
    teams.register_teams(event=event, text=text, user=organiser)
    team_league.schedule_match_day(event=event, number=1, played_on=date(2025, 3, 1), slots=1, user=organiser)


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


def _api_key(event, organiser) -> int:
    return create_key(event=event, name="bot", scopes=["read_private"], user=organiser).key.pk


def _webhook(event, organiser) -> int:
    from api.models import Webhook

    return Webhook.objects.create(event=event, url="https://hooks.example.org/", kinds=["round.started"]).pk
def _registration_args(tournament, organiser, arg: str) -> list:
    """A sign-up of ``tournament`` (its registration open, one place taken), and the arguments of ``arg``."""
    from datetime import timedelta

    from django.utils import timezone

    from notifications.outbox import unsubscribe_token
    from registration import services as registration

    now = timezone.now()
    registration.save_opening(
        event=tournament,
        user=organiser,
        opens_at=now - timedelta(days=1),
        closes_at=now + timedelta(days=1),
        capacity=8,
        waiting_list=True,
        approval=False,
        asks={"email": "required"},
    )
    signup = registration.sign_up(event=tournament, name="Rin", email="rin@example.org")
    return {
        "open_event": [tournament.slug],
        "signup_token": [signup.token],
        "unsubscribe_token": [unsubscribe_token(signup.email)],
        "reg_event": [tournament.slug],
        "reg_signup": [tournament.slug, signup.pk],
        "checkin_event": [tournament.slug],
        "checkin_signup": [tournament.slug, signup.pk],
    }[arg]


def test_the_matrix_covers_every_scoring_and_tournament_url():
    from notifications import urls as notification_urls
    from registration import urls_manage as registration_urls_manage
    from registration import urls_public as registration_urls_public

    names = {f"scoring:{p.name}" for p in urls_public.urlpatterns}
    names |= {f"registration:{p.name}" for p in registration_urls_public.urlpatterns}
    names |= {f"registration_manage:{p.name}" for p in registration_urls_manage.urlpatterns}
    names |= {f"notifications:{p.name}" for p in notification_urls.urlpatterns}
    names |= {f"scoring_manage:{p.name}" for p in urls_manage.urlpatterns}
    names |= {f"tournaments:{p.name}" for p in tournament_urls_public.urlpatterns}
    names |= {f"tournaments_manage:{p.name}" for p in tournament_urls_manage.urlpatterns}
    names |= {f"api_manage:{p.name}" for p in api_urls_manage.urlpatterns}
    assert names == {name for name, *_ in MATRIX}


@pytest.mark.parametrize("role", ["anonymous", "player", "other_organiser", "organiser", "staff"])
@pytest.mark.parametrize(("name", "arg", "method", "allowed"), MATRIX)
def test_permission_matrix(
    users, event, players, game, penalty, tournament, role, name, arg, method, allowed
):
    registration_args = (
        _registration_args(tournament, users["organiser"], arg) if arg in REGISTRATION_ARGS else []
    )
    args = {
        **dict.fromkeys(REGISTRATION_ARGS, registration_args),
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
        "team": [tournament.slug, _team(tournament, users["organiser"])] if arg == "team" else [],
        "team_league": [event.slug],
        "match_day": [event.slug, 1],
        "match_table": [event.slug, 1, 1],
        "stage": [tournament.slug, 1],
        "league": [event.slug],
        "league_stage": [event.slug, 1],
        "api_key": [event.slug, _api_key(event, users["organiser"])] if arg == "api_key" else [],
        "webhook": [event.slug, _webhook(event, users["organiser"])] if arg == "webhook" else [],
    }[arg]
    if arg in ("team_league", "match_day", "match_table"):
        _team_league(event, players, users["organiser"])
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


# The actions only a form may trigger: a POST in the matrix, no GET of their own.
POST_ONLY = sorted(
    {(name, arg) for name, arg, method, _ in MATRIX if method == "post"}
    - {(name, arg) for name, arg, method, _ in MATRIX if method == "get"}
)


@pytest.mark.parametrize(("name", "arg"), POST_ONLY)
def test_a_get_on_an_action_goes_to_its_page_never_a_blank_405(
    users, event, players, game, penalty, tournament, name, arg
):
    """A restored tab (or a reload) opens an action's address with a GET: the browser is sent to the
    page the action belongs to (303), which answers 200, and nothing changes; other methods get 405."""
    organiser = users["organiser"]
    registration_args = _registration_args(tournament, organiser, arg) if arg in REGISTRATION_ARGS else []
    args = {
        **dict.fromkeys(REGISTRATION_ARGS, registration_args),
        "tournament": [tournament.slug],
        "round": [tournament.slug, 1],
        "game": [game.pk],
        "penalty": [event.slug, penalty.pk],
        "online_batch": [event.slug, "0b5e4c1e-7a8d-4f0e-9c55-2d3b1a6f8e90"],
        "round_game": [tournament.slug, 1, tournament.hanchans.get(round_number=1, table_number=1).pk],
        "token": [_table_token(tournament, organiser)] if arg == "token" else [],
        "team": [tournament.slug, _team(tournament, organiser)] if arg == "team" else [],
        "match_table": [event.slug, 1, 1],
        "stage": [tournament.slug, 1],
        "league": [event.slug],
        "league_stage": [event.slug, 1],
        "api_key": [event.slug, _api_key(event, organiser)] if arg == "api_key" else [],
        "webhook": [event.slug, _webhook(event, organiser)] if arg == "webhook" else [],
    }[arg]
    if arg == "match_table":
        _team_league(event, players, organiser)
    page = {
        "tournament": ("tournaments_manage:tournament", [tournament.slug]),
        "round": ("tournaments_manage:round", [tournament.slug, 1]),
        "round_game": ("tournaments_manage:round", [tournament.slug, 1]),
        "game": ("scoring_manage:game", [game.pk]),
        "penalty": ("scoring_manage:penalties", [event.slug]),
        "online_batch": ("scoring_manage:online_import_batch", args),
        "token": ("tournaments:table", args),
        "team": ("tournaments_manage:team", args),
        "match_table": ("tournaments_manage:match_day", args[:2]),
        "stage": ("tournaments_manage:stages", [tournament.slug]),
        "league": ("tournaments_manage:stages", [event.slug]),
        "league_stage": ("tournaments_manage:stages", [event.slug]),
        "api_key": ("api_manage:keys", [event.slug]),
        "webhook": ("api_manage:webhooks", [event.slug]),
        "signup_token": ("registration:signup", args),
        "reg_event": ("registration_manage:registration", args),
        "reg_signup": ("registration_manage:registration", args[:1]),
        "checkin_event": ("registration_manage:check_in", args),
        "checkin_signup": ("registration_manage:check_in", args[:1]),
    }[arg]
    if name.startswith("tournaments_manage:team") and arg == "tournament":
        page = ("tournaments_manage:teams", [tournament.slug])
    if name.startswith("tournaments_manage:stage") and arg == "tournament":
        page = ("tournaments_manage:stages", [tournament.slug])
    client = Client()
    if arg != "token":
        client.force_login(organiser)
    before = (HistoryEntry.objects.count(), Hanchan.objects.get(pk=game.pk).version, Penalty.objects.count())
    response = client.get(reverse(name, args=args))
    assert response.status_code == 303
    assert response["Location"] == reverse(page[0], args=page[1])
    assert client.head(reverse(name, args=args)).status_code == 303
    assert client.put(reverse(name, args=args)).status_code == 405
    landed = client.get(response["Location"], follow=True)
    assert landed.status_code == 200
    assert (
        HistoryEntry.objects.count(),
        Hanchan.objects.get(pk=game.pk).version,
        Penalty.objects.count(),
    ) == before


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
