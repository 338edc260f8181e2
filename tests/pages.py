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
]

POST = "POST action"
FRAGMENT = "htmx fragment, checked within its page"
NOT_PAGES: dict[str, str] = {
    "logout": POST,
    "set_language": "POST action (the switcher is on every page)",
    "scoring:standings_csv": "CSV download (tests/test_i18n.py compares it across languages)",
    "scoring:standings_live": FRAGMENT,
    "scoring:player_chart": "SVG image of the player page (tests/scoring/test_statistics.py fetches each)",
    "scoring:game_chart": "SVG image of the game page (tests/scoring/test_charts.py fetches it)",
    "tournaments_manage:ema_download": "CSV/XLSX download (tests/test_i18n.py compares it across languages)",
    "league_manage:register_player": POST,
    "league_manage:register_players_csv": POST,
    "league_manage:registration_withdraw": POST,
    "league_manage:registration_restore": POST,
    "scoring_manage:hand_add": POST,
    "scoring_manage:preview": FRAGMENT,
    "scoring_manage:finish": POST,
    "scoring_manage:void": POST,
    "scoring_manage:reopen": POST,
    "scoring_manage:final_scores": POST,
    "scoring_manage:played_on": POST,
    "scoring_manage:penalty_cancel": POST,
    "scoring_manage:online_import_batch": "the online import's preview, reached by a POST of its page",
    "scoring_manage:online_import_fetch": POST,
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
    from tournaments import rounds
    from tournaments.models import TableLink

    call_command("seed_demo", stdout=io.StringIO())
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
    return Demo(
        league=league,
        tournament=tournament,
        club=league.club,
        player=players[0],
        finished_game=finished,
        live_game=live,
        open_round=waiting.round_number,
        table_token=link.token,
    )
