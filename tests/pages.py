"""Every page of the site, on demo-like data: the one list that the accessibility tests (axe-core in
Chromium, tests/e2e/test_accessibility.py) and the language tests (tests/test_i18n.py) walk through.

**A new page?** Add it to ``PAGES`` — its URL name, how to find its arguments in :class:`Demo`, and
whether it needs the organiser's login — or, when it is no page to read (a POST action, a download, an
htmx fragment checked within its page), to ``NOT_PAGES`` with the reason. ``test_every_url_is_a_page_or_
excused`` (tests/test_i18n.py) fails until every named URL is in one of the two.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

from league import claim_links
from league.models import Club, Event, Hanchan, Player
from scoring import services
from scoring.engine import Hand, Win

DEMO_USER, DEMO_PASSWORD = "demo", "tenbou-demo"  # seed_demo's local login


@dataclass(frozen=True)
class Demo:
    """What the pages need from the demo data."""

    league: Event
    tournament: Event
    club: Club
    player: Player
    finished_game: Hanchan  # a league game entered hand by hand
    live_game: Hanchan  # a league game in progress with two hands: entry form, scoreboard, hand log
    open_round: int  # the tournament's round being played: its tables wait for their results
    table_token: str  # the entry link of one table of that round
    team: int  # a team of the tournament (its four teams are pasted on top of seed_demo's data)
    league_team: int  # a team of the league, a team league with match day 1 drawn and played
    signup_token: str  # a sign-up's personal link: the tournament's registration is open
    unsubscribe_token: str  # the unsubscribe link of that sign-up's e-mails


@dataclass(frozen=True)
class Page:
    """One page: its URL name, its arguments in the demo data, and whether the organiser must log in."""

    name: str
    args: Callable[[Demo], list[Any]]
    organiser: bool = False


PAGES: list[Page] = [
    Page("home", lambda d: []),
    Page("login", lambda d: []),
    Page("league:events", lambda d: []),
    Page("rankings:ranking", lambda d: []),
    Page("rankings:ladder", lambda d: []),
    Page("rankings:tournaments", lambda d: []),
    Page("rankings:club", lambda d: [d.club.slug]),
    Page("rankings_manage:import", lambda d: [], organiser=True),
    Page("rankings_manage:merges", lambda d: [], organiser=True),
    Page("scoring:event", lambda d: [d.league.slug]),
    Page("scoring:event", lambda d: [d.tournament.slug]),
    Page("scoring:ratings", lambda d: [d.league.slug]),
    Page("scoring:yaku", lambda d: [d.league.slug]),
    Page("scoring:player", lambda d: [d.player.pk]),
    Page("scoring:game", lambda d: [d.finished_game.pk]),
    Page("scoring:game", lambda d: [d.live_game.pk]),
    Page("tournaments:wall", lambda d: [d.tournament.slug]),
    Page("tournaments:table_code", lambda d: []),
    Page("tournaments:table", lambda d: [d.table_token]),
    Page("league_manage:dashboard", lambda d: [], organiser=True),
    Page("league_manage:event_create", lambda d: [d.club.slug], organiser=True),
    Page("league_manage:event", lambda d: [d.league.slug], organiser=True),
    Page("league_manage:event", lambda d: [d.tournament.slug], organiser=True),
    Page("league_manage:event_edit", lambda d: [d.league.slug], organiser=True),
    Page("league_manage:player_edit", lambda d: [d.player.pk], organiser=True),
    Page(
        "league_manage:registration_withdraw",
        lambda d: [d.tournament.slug, d.tournament.registrations.get(player=d.player).pk],
        organiser=True,
    ),
    Page("scoring_manage:games", lambda d: [d.league.slug], organiser=True),
    Page("scoring_manage:game_new", lambda d: [d.league.slug], organiser=True),
    Page("scoring_manage:penalties", lambda d: [d.league.slug], organiser=True),
    Page("scoring_manage:event_rules", lambda d: [d.league.slug], organiser=True),
    Page("scoring_manage:online_import", lambda d: [d.league.slug], organiser=True),
    Page("scoring_manage:game", lambda d: [d.live_game.pk], organiser=True),
    Page("scoring_manage:game", lambda d: [d.finished_game.pk], organiser=True),
    Page("scoring_manage:hand_correct", lambda d: [d.live_game.pk, 1], organiser=True),
    Page("scoring_manage:undo", lambda d: [d.live_game.pk], organiser=True),
    Page("tournaments_manage:tournament", lambda d: [d.tournament.slug], organiser=True),
    Page("tournaments_manage:tournament_reseat", lambda d: [d.tournament.slug], organiser=True),
    Page("tournaments_manage:round", lambda d: [d.tournament.slug, d.open_round], organiser=True),
    Page("tournaments_manage:seating_print", lambda d: [d.tournament.slug, d.open_round], organiser=True),
    Page("tournaments_manage:slips_print", lambda d: [d.tournament.slug, d.open_round], organiser=True),
    Page("tournaments_manage:ema", lambda d: [d.tournament.slug], organiser=True),
    Page("tournaments:team_standings", lambda d: [d.tournament.slug]),
    Page("tournaments:team_standings", lambda d: [d.league.slug]),
    Page("tournaments:team", lambda d: [d.tournament.slug, d.team]),
    Page("tournaments:team", lambda d: [d.league.slug, d.league_team]),
    Page("tournaments_manage:teams", lambda d: [d.tournament.slug], organiser=True),
    Page("tournaments_manage:teams", lambda d: [d.league.slug], organiser=True),
    Page("tournaments_manage:team", lambda d: [d.tournament.slug, d.team], organiser=True),
    Page("tournaments:stage_standings", lambda d: [d.tournament.slug, 1]),
    Page("tournaments:final_ranking", lambda d: [d.tournament.slug]),
    Page("tournaments_manage:stages", lambda d: [d.tournament.slug], organiser=True),
    Page("tournaments_manage:stage_close", lambda d: [d.tournament.slug, 1], organiser=True),
    Page("tournaments_manage:match_days", lambda d: [d.league.slug], organiser=True),
    Page("tournaments_manage:match_day", lambda d: [d.league.slug, 1], organiser=True),
    # The players' side (accounts/): the demo organiser's account has no player profile, so "my page" is
    # the form that claims one.
    Page("account_login", lambda d: []),
    Page("account_signup", lambda d: []),
    Page("accounts:me", lambda d: [], organiser=True),
    Page("accounts:close", lambda d: [], organiser=True),
    Page(
        "accounts:claim_link",
        lambda d: [claim_links.make_token(d.player.pk, "demo@example.org")],
        organiser=True,
    ),
    Page("accounts:player_account", lambda d: [d.player.pk], organiser=True),
    Page("api_manage:keys", lambda d: [d.tournament.slug], organiser=True),
    Page("api_manage:webhooks", lambda d: [d.tournament.slug], organiser=True),
    Page("registration:register", lambda d: [d.tournament.slug]),
    Page("registration:signup", lambda d: [d.signup_token]),
    Page("notifications:unsubscribe", lambda d: [d.unsubscribe_token]),
    Page("registration_manage:registration", lambda d: [d.tournament.slug], organiser=True),
    Page("registration_manage:check_in", lambda d: [d.tournament.slug], organiser=True),
]

POST = "POST action"
FRAGMENT = "htmx fragment, checked within its page"
API = "JSON of the API: machine format, English field names (tests/api/)"
NOT_PAGES: dict[str, str] = {
    "api:clubs": API,
    "api:club": API,
    "api:events": API,
    "api:event": API,
    "api:event_players": API,
    "api:event_games": API,
    "api:standings": API,
    "api:stages": API,
    "api:stage_standings": API,
    "api:final_ranking": API,
    "api:ratings": API,
    "api:rounds": API,
    "api:seating": API,
    "api:round_clock": API,
    "api:clock": API,
    "api:game": API,
    "api:player": API,
    "api_manage:key_revoke": POST,
    "api:hands": "API write (POST with a key): tests/api/test_keys.py, tests/api/test_matrix.py",
    "api:final_scores": "API write (POST with a key): tests/api/test_keys.py, tests/api/test_matrix.py",
    "api:imports": "API write (POST with a key): tests/api/test_keys.py, tests/api/test_matrix.py",
    "api_manage:webhook_revoke": POST,
    "api:schema": "the API's OpenAPI schema (tests/api/test_read.py, tests/api/test_schemathesis.py)",
    "api:docs": "the API's Swagger UI, the package's (tests/api/test_read.py)",
    "api:redoc": "the API's Redoc, the package's (tests/api/test_read.py)",
    "logout": POST,
    "set_language": "POST action (the switcher is on every page)",
    "scoring:standings_csv": "CSV download (tests/test_i18n.py compares it across languages)",
    "rankings_manage:merge_accept": POST,
    "rankings_manage:merge_decline": POST,
    "rankings_manage:merge_cancel": POST,
    "rankings:ranking_csv": "CSV download (tests/rankings/test_rankings.py)",
    "rankings:club_csv": "CSV download (tests/rankings/test_rankings.py)",
    "rankings:season_csv": "CSV download (tests/rankings/test_ladders.py)",
    "rankings:ladder_csv": "CSV download (tests/rankings/test_ladders.py)",
    "rankings:tournaments_csv": "CSV download (tests/rankings/test_rankings.py)",
    "rankings:player_csv": "CSV download (tests/rankings/test_rankings.py)",
    "rankings:player": "a player with ranked results only: the demo's rows are computed by the worker "
    "(tests/rankings/test_rankings.py walks it)",
    "scoring:standings_live": FRAGMENT,
    "scoring:player_chart": "SVG image of the player page (tests/scoring/test_statistics.py fetches each)",
    "scoring:game_chart": "SVG image of the game page (tests/scoring/test_charts.py fetches it)",
    "tournaments_manage:ema_download": "CSV/XLSX download (tests/test_i18n.py compares it across languages)",
    "league_manage:register_player": POST,
    "league_manage:register_players_csv": POST,
    "league_manage:registration_restore": POST,
    "scoring_manage:hand_add": POST,
    "scoring_manage:preview": FRAGMENT,
    "scoring_manage:finish": POST,
    "scoring_manage:void": POST,
    "scoring_manage:reopen": POST,
    "scoring_manage:final_scores": POST,
    "scoring_manage:played_on": POST,
    "scoring_manage:entry_mode": POST,
    "scoring_manage:penalty_cancel": POST,
    "scoring_manage:online_import_batch": "the online import's preview, reached by a POST of its page",
    "scoring_manage:online_import_progress": FRAGMENT,
    "scoring_manage:online_import_confirm": POST,
    "tournaments_manage:tournament_generate": POST,
    "tournaments_manage:tournament_swap": POST,
    "tournaments_manage:tournament_replace": POST,
    "tournaments_manage:tournament_swiss": POST,
    "tournaments_manage:round_tables": FRAGMENT,
    "tournaments_manage:round_open": POST,
    "tournaments_manage:round_close": POST,
    "tournaments_manage:round_links": POST,
    "tournaments_manage:link_reissue": POST,
    "tournaments_manage:link_revoke": POST,
    "tournaments_manage:table_confirm": POST,
    "tournaments_manage:referee_clear": POST,
    "tournaments_manage:table_return": POST,
    "tournaments_manage:clock_start": POST,
    "tournaments_manage:clock_pause": POST,
    "tournaments_manage:clock_adjust": POST,
    "tournaments_manage:clock_length": POST,
    "tournaments_manage:standings_release": POST,
    "tournaments:wall_seating": FRAGMENT,
    "tournaments:wall_standings": FRAGMENT,
    "tournaments:clock": FRAGMENT,
    "tournaments:table_hand": POST,
    "tournaments:table_preview": FRAGMENT,
    "tournaments:table_undo": POST,
    "tournaments:table_finish": POST,
    "tournaments:table_scores": POST,
    "tournaments:table_referee": POST,
    "tournaments:table_confirm": POST,
    "tournaments:team_standings_csv": "CSV download (tests/test_i18n.py compares it across languages)",
    "tournaments:wall_teams": FRAGMENT,
    "tournaments:wall_stage": FRAGMENT,
    "tournaments:stage_standings_csv": "CSV download (tests/test_i18n.py compares it across languages)",
    "tournaments_manage:stage_add": POST,
    "tournaments_manage:stage_seat": POST,
    "tournaments_manage:stage_hide": POST,
    "tournaments_manage:stage_release": POST,
    "tournaments_manage:teams_paste": POST,
    "tournaments_manage:team_create": POST,
    "tournaments_manage:team_settings": POST,
    "tournaments_manage:team_rename": POST,
    "tournaments_manage:team_member_add": POST,
    "tournaments_manage:team_member_remove": POST,
    "tournaments_manage:team_captain": POST,
    "tournaments_manage:team_delete": POST,
    "tournaments_manage:match_game_start": POST,
    "accounts:claim": POST,
    "accounts:me_live": FRAGMENT,
    "accounts:visibility": POST,
    "accounts:privacy": POST,
    "accounts:confirm": POST,
    "accounts:player_account_link": POST,
    "accounts:player_account_unlink": POST,
    "accounts:player_account_code": POST,
    "accounts:data": "JSON download (tests/accounts/test_privacy.py reads it)",
    "accounts:followed": "the home page's fragment, read by static/js/follow.js (tests/accounts/)",
    "accounts:event_calendar": "iCalendar feed (tests/accounts/test_calendar.py parses it)",
    "accounts:my_calendar": "iCalendar feed (tests/accounts/test_calendar.py parses it)",
    **{
        name: "django-allauth's page, in its own words and translations (tests/accounts/test_signup.py)"
        for name in (
            "account_logout",
            "account_inactive",
            "account_email",
            "account_email_verification_sent",
            "account_confirm_email",
            "account_change_password",
            "account_set_password",
            "account_reset_password",
            "account_reset_password_done",
            "account_reset_password_from_key",
            "account_reset_password_from_key_done",
            "account_reauthenticate",
            "account_request_reauthentication_code",
            "account_confirm_reauthentication_code",
            "account_confirm_login_code",
        )
    },
    "registration:withdraw": POST,
    "registration:check_in": POST,
    "registration:preferences": POST,
    "registration:push": "the push button's subscription: a POST from static/notifications/push.js (JSON)",
    "notifications:service_worker": "JavaScript (the Web Push service worker), not a page",
    "registration_manage:csv": "CSV download (machine format: English headers and state keys)",
    "registration_manage:add_players": POST,
    "registration_manage:approve": POST,
    "registration_manage:reject": POST,
    "registration_manage:wait": POST,
    "registration_manage:tap": POST,
    "registration_manage:seat": POST,
}

FOREIGN_NAMESPACES = ("admin",)
"""URL namespaces that are not the project's pages."""


def url_names(resolver: URLResolver | None = None, namespace: str = "") -> set[str]:
    """Every named URL of the project, namespaced (``scoring:event``)."""
    names: set[str] = set()
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace in FOREIGN_NAMESPACES:
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names |= url_names(pattern, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(f"{namespace}{pattern.name}")
    return names


def build_demo() -> Demo:
    """seed_demo's league and tournament (its last round opened, with its tables' entry links), plus a
    league game in progress with two hands."""
    from background.worker import run_ready
    from tournaments import rounds
    from tournaments.models import TableLink

    call_command("seed_demo", stdout=io.StringIO())
    run_ready()  # the background worker: the demo's ratings, as scripts/run.sh's worker builds them
    league = Event.objects.get(slug="demo-league")
    tournament = Event.objects.get(slug="demo-open")
    user = get_user_model().objects.get(username=DEMO_USER)
    players = list(Player.objects.filter(registrations__event=league).order_by("pk")[:4])
    live = services.start_game(event=league, players=players, user=user)
    services.record_hand(hanchan=live, hand=Hand.ron(0, Win(1, 2, 30)), user=user)  # non-dealer ron
    services.record_hand(hanchan=live, hand=Hand.ron(2, Win(0, 3, 40), riichi=(0,)), user=user)
    finished = (
        Hanchan.objects.filter(event=league, status=Hanchan.Status.FINISHED, entry_mode="hands")
        .order_by("pk")
        .first()
    )
    waiting = (
        Hanchan.objects.filter(event=tournament, status=Hanchan.Status.IN_PROGRESS).order_by("pk").first()
    )
    assert finished is not None and waiting is not None and waiting.round_number is not None
    tournament.table_entry = True  # the tables enter their games through their links (the table page)
    tournament.save(update_fields=["table_entry"])
    rounds.open_round(event=tournament, number=waiting.round_number, user=user)  # issues the links
    link = TableLink.objects.filter(hanchan=waiting, revoked_at__isnull=True).first()
    assert link is not None
    team, league_team = _demo_teams(league, tournament, user)
    signup_token, unsubscribe_token = _demo_registration(tournament, user)
    return Demo(
        league=league,
        tournament=tournament,
        club=league.club,
        player=players[0],
        finished_game=finished,
        live_game=live,
        open_round=waiting.round_number,
        table_token=link.token,
        team=team,
        league_team=league_team,
        signup_token=signup_token,
        unsubscribe_token=unsubscribe_token,
    )


def _demo_registration(tournament: Event, user: Any) -> tuple[str, str]:
    """The tournament's registration open (a week from yesterday), with one confirmed sign-up and one on
    the waiting list: the public form, a personal page, the organiser's list and check-in."""
    from datetime import timedelta

    from django.utils import timezone

    from notifications.outbox import unsubscribe_token
    from registration import services as registration

    now = timezone.now()
    registration.save_opening(
        event=tournament,
        user=user,
        opens_at=now - timedelta(days=1),
        closes_at=now + timedelta(days=7),
        capacity=1,
        waiting_list=True,
        approval=False,
        asks={"ema_number": "optional", "country": "optional", "club": "optional", "email": "required"},
    )
    confirmed = registration.sign_up(
        event=tournament, name="Rin Demo", ema_number="04999999", club="Riichi Lyon", email="rin@example.org"
    )
    registration.sign_up(event=tournament, name="Sora Demo", email="sora@example.org")
    return confirmed.token, unsubscribe_token(confirmed.email)


def _demo_teams(league: Event, tournament: Event, user: Any) -> tuple[int, int]:
    """Teams on top of seed_demo's data: the tournament's 16 players in four teams of four (pasted after
    the seating, so some teammates share tables: the pages show it), the league's first 8 players in
    four teams of two playing a team league, match day 1 drawn and one hanchan played hand by hand."""
    from datetime import date

    from tournaments import team_league, teams

    players = Player.objects.filter(registrations__event=tournament, registrations__is_substitute=False)
    names = [p.display_name for p in players.order_by("pk")]
    colours = ["Aoi", "Beni", "Kuro", "Shiro"]
    text = "\n".join(f"{colours[i % 4]}; {name}" for i, name in enumerate(names))
    teams.register_teams(event=tournament, text=text, user=user)
    teams.update_settings(event=tournament, counting="best", best=3, user=user)
    members = list(Player.objects.filter(registrations__event=league).order_by("pk")[:8])
    text = "\n".join(
        f"Team {i % 4 + 1}; {p.display_name}{'; captain' if i < 4 else ''}" for i, p in enumerate(members)
    )
    teams.register_teams(event=league, text=text, user=user)
    day = team_league.schedule_match_day(
        event=league, number=1, played_on=date(2025, 3, 1), slots=1, user=user
    )
    lineup = [
        Player.objects.filter(registrations__team_member__team=slot.team).order_by("pk").first()
        for slot in day.slots.order_by("seat").select_related("team")
    ]
    game = team_league.start_match_game(match_day=day, table=1, players=lineup, user=user)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40), riichi=(0,)), user=user)
    services.finish_game(hanchan=game, user=user, reason="time limit")
    first = teams.teams_of(tournament)[0].pk
    return first, teams.teams_of(league)[0].pk
