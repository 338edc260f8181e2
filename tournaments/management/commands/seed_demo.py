"""``manage.py seed_demo``: a demo club league to click through locally — never for a real deployment.

Deterministic and idempotent: the club and event have fixed slugs and the whole seed is skipped when the
event is already there (``--reset`` removes the demo data and builds it again). Every game comes from a
seeded ``random.Random``, so two fresh databases get the same games. The games are stored through
:func:`scoring.imports.import_records` — the code path of ``import_games`` — which writes rows in bulk and
replays each game once; the services' hand-by-hand path would replay a game once per hand.
"""

from __future__ import annotations

import random
import time
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from league.models import Club, Event, Hanchan, Player, Registration
from scoring import engine, services
from scoring.engine.generator import random_game
from scoring.imports import import_records
from scoring.management.contract import OneLineErrorsCommand
from scoring.models import Penalty, SeatResult
from scoring.services.hanchan import set_played_on
from tournaments import rounds
from tournaments import services as tournament_services

CLUB_SLUG = "tenbou-demo"
EVENT_SLUG = "demo-league"
TOURNAMENT_SLUG = "demo-open"
TOURNAMENT_ROUNDS, TOURNAMENT_PLAYED = 4, 3
USERNAME = "demo"
PASSWORD = "tenbou-demo"  # printed on purpose: a local demo login, never for a real deployment
SEED = 20250110
HAND_GAMES = 80
FINAL_SCORE_GAMES = 4
SEASON_START = date(2025, 1, 10)

# (given name, family name, country, EMA number or None)
PEOPLE: list[tuple[str, str, str, str | None]] = [
    ("Camille", "Laurent", "FR", "04290017"),
    ("Julien", "Moreau", "FR", "04290233"),
    ("Léa", "Fontaine", "FR", None),
    ("Hugo", "Girard", "FR", "04290418"),
    ("Lukas", "Becker", "DE", "05010392"),
    ("Anna", "Schmidt", "DE", "05010877"),
    ("Jonas", "Wagner", "DE", None),
    ("Giulia", "Romano", "IT", "07000154"),
    ("Marco", "Bianchi", "IT", None),
    ("Sanne", "de Vries", "NL", "08010045"),
    ("Daan", "Jansen", "NL", None),
    ("Emily", "Clarke", "GB", "11000263"),
    ("Oliver", "Hughes", "GB", None),
    ("Astrid", "Lindqvist", "SE", "09000081"),
    ("Mateo", "García", "ES", "10000342"),
    ("Lucía", "Fernández", "ES", None),
    ("Aleksandra", "Nowak", "PL", "19000117"),
    ("Mikko", "Virtanen", "FI", "14000058"),
    ("Mette", "Nielsen", "DK", "03000209"),
    ("Yuki", "Tanaka", "JP", None),
    ("Haruto", "Sato", "JP", None),
    ("Min-jun", "Kim", "KR", None),
    ("Wei", "Chen", "TW", None),
    ("Sofia", "Costa", "PT", "12000036"),
]


class Command(OneLineErrorsCommand):
    help = (
        "Create a demo club league (24 players, ~80 games hand by hand, a few final-score games, a "
        "penalty) and a demo organiser login, for local use only. Running it again changes nothing."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--reset", action="store_true", help="remove the demo data and build it again")

    def handle(self, *args: Any, reset: bool = False, **options: Any) -> None:
        started = time.perf_counter()
        if reset:
            self._remove()
        event = Event.objects.filter(slug=EVENT_SLUG).first()
        if event is not None:
            self.stdout.write(
                gettext("The demo league is already there (%(slug)s): nothing to do.") % {"slug": EVENT_SLUG}
            )
        else:
            event = self._build()
            self.stdout.write(
                gettext("Built the demo league in %(seconds)s s.")
                % {"seconds": f"{time.perf_counter() - started:.1f}"}
            )
        if not Event.objects.filter(slug=TOURNAMENT_SLUG).exists():
            self._build_tournament(event)
            self.stdout.write(
                gettext("Built the demo tournament (%(slug)s): %(rounds)d rounds seated, %(played)d played.")
                % {"slug": TOURNAMENT_SLUG, "rounds": TOURNAMENT_ROUNDS, "played": TOURNAMENT_PLAYED}
            )
        self._summary(event)

    # -- building -------------------------------------------------------------------------------------

    @transaction.atomic
    def _build(self) -> Event:
        user_model = get_user_model()
        user = user_model.objects.filter(username=USERNAME).first()
        if user is None:
            user = user_model.objects.create_user(USERNAME, password=PASSWORD)
        club, _ = Club.objects.get_or_create(
            slug=CLUB_SLUG, defaults={"name": "Tenbou Demo Club", "city": "Lyon", "country": "FR"}
        )
        club.organisers.add(user)
        rules = engine.make_ruleset("ema2016")
        event = Event.objects.create(
            club=club,
            slug=EVENT_SLUG,
            name="Demo League 2025",
            kind=Event.Kind.LEAGUE,
            start_date=SEASON_START,
            end_date=SEASON_START + timedelta(weeks=24),
            city="Lyon",
            country="FR",
            ruleset=rules.to_dict(),
            min_games=8,
        )
        players = self._players(club, event)
        names = [p.display_name for p in players]
        rng = random.Random(SEED)
        records = []
        total = HAND_GAMES + FINAL_SCORE_GAMES
        paper = set(rng.sample(range(total), FINAL_SCORE_GAMES))
        for index in range(total):
            table = tuple(rng.sample(names, 4))
            game = random_game(
                rules, random.Random(rng.getrandbits(32)), stop_early=0.02, penalty_chance=0.04, players=table
            )
            record = game.to_dict()
            # Club nights: three or four tables every Friday evening of the season.
            played = datetime.combine(SEASON_START + timedelta(weeks=index // 4), datetime.min.time())
            record["finished_at"] = timezone.make_aware(
                played + timedelta(hours=20 + index % 4 // 2, minutes=30 * (index % 2))
            ).isoformat()
            if index in paper:
                state = game.replay().state
                assert state is not None
                record["hands"] = []
                record["final_scores"] = list(state.scores)
                record["final_sticks"] = state.sticks
                record.pop("penalties", None)
            records.append(record)
        import_records(event=event, sources=[("seed_demo", records)], user=user)
        late = next(p for p in players if p.display_name == "Oliver Hughes")
        services.add_penalty(
            event=event, player=late, points=-5000, reason="Late for three club nights", user=user
        )
        return event

    @staticmethod
    def round_date(event: Event, round_number: int) -> date:
        """The day a round of the demo tournament is played: the rounds spread evenly over the event's
        days (4 rounds over 2 days: rounds 1–2 on the first, 3–4 on the second)."""
        assert event.start_date is not None and event.end_date is not None
        days = (event.end_date - event.start_date).days + 1
        return event.start_date + timedelta(days=(round_number - 1) * days // TOURNAMENT_ROUNDS)

    @transaction.atomic
    def _build_tournament(self, league: Event) -> Event:
        """A 16-player EMA tournament with a substitute: every round seated, the first three played on
        paper (final scores of random legal games), the last one waiting for its results. Each round's
        tables are dated on the round's day of the event (July 2025), as the organiser would date them.

        Each played round is opened, played and closed as on the day (its tables enter final scores
        through their links), so the wall screen and the clock show round 4 as the next to start —
        rather than round 1 "not started", with results in rounds that were never opened."""
        user = get_user_model().objects.get(username=USERNAME)
        rules = engine.make_ruleset("ema2016")
        event = Event.objects.create(
            club=league.club,
            slug=TOURNAMENT_SLUG,
            name="Demo Open 2025",
            kind=Event.Kind.TOURNAMENT,
            start_date=SEASON_START + timedelta(weeks=26),
            end_date=SEASON_START + timedelta(weeks=26, days=1),
            city="Lyon",
            country="FR",
            ruleset=rules.to_dict(),
            ema_days=2,
            table_entry_mode="final",
        )
        players = list(Player.objects.filter(registrations__event=league).order_by("pk")[:17])
        Registration.objects.bulk_create(
            [Registration(event=event, player=p, is_substitute=i == 16) for i, p in enumerate(players)]
        )
        tournament_services.seat_tournament(event=event, rounds=TOURNAMENT_ROUNDS, user=user, seed=SEED)
        for table in Hanchan.objects.filter(event=event).order_by("round_number", "table_number"):
            assert table.round_number is not None
            set_played_on(
                hanchan=table, played_on=self.round_date(event, table.round_number), user=user, reason="demo"
            )
        rng = random.Random(SEED + 1)
        for number in range(1, TOURNAMENT_PLAYED + 1):
            rounds.open_round(event=event, number=number, user=user)
            for table in Hanchan.objects.filter(event=event, round_number=number).order_by("pk"):
                state = random_game(rules, random.Random(rng.getrandbits(32))).replay().state
                assert state is not None
                services.record_final_scores(
                    hanchan=table, scores=list(state.scores), sticks=state.sticks, user=user
                )
            rounds.close_round(event=event, number=number, user=user, allow_unfinished=False)
        services.add_penalty(
            event=event,
            player=players[3],
            points=-2000,
            reason="Slow play (referee)",
            user=user,
            round_number=TOURNAMENT_PLAYED,
        )
        return event

    def _players(self, club: Club, event: Event) -> list[Player]:
        """The 24 demo players, registered; an EMA number another player already holds is left out."""
        taken = set(
            Player.objects.filter(ema_number__in=[p[3] for p in PEOPLE if p[3]]).values_list(
                "ema_number", flat=True
            )
        )
        made = []
        for given, family, country, ema in PEOPLE:
            player, _ = Player.objects.get_or_create(
                club=club,
                display_name=f"{given} {family}",
                defaults={
                    "given_name": given,
                    "family_name": family,
                    "country": country,
                    "ema_number": ema if ema not in taken else None,
                },
            )
            made.append(player)
        Registration.objects.bulk_create([Registration(event=event, player=p) for p in made])
        return made

    # -- removing -------------------------------------------------------------------------------------

    @transaction.atomic
    def _remove(self) -> None:
        """Delete the demo event, its games and the demo club's players (penalties first: they protect
        games and players, and are otherwise never deleted)."""
        for event in Event.objects.filter(slug__in=[TOURNAMENT_SLUG, EVENT_SLUG]):
            Penalty.objects.filter(event=event).delete()
            Hanchan.objects.filter(event=event).delete()
            event.delete()
        club = Club.objects.filter(slug=CLUB_SLUG).first()
        if club is not None and not club.events.exists():
            Player.objects.filter(club=club).filter(~Q(registrations__isnull=False)).delete()
            if not club.players.exists():
                club.delete()

    # -- reporting ------------------------------------------------------------------------------------

    def _summary(self, event: Event) -> None:
        games = Hanchan.objects.filter(event=event, status=Hanchan.Status.FINISHED)
        by_mode = {mode: games.filter(entry_mode=mode).count() for mode in Hanchan.EntryMode.values}
        self.stdout.write(
            gettext(
                "%(club)s / %(event)s (%(slug)s, %(rules)s): %(players)d players, %(hands)d games hand by "
                "hand, %(final)d entered as final scores, %(results)d seat results, %(penalties)d penalties."
            )
            % {
                "club": event.club.name,
                "event": event.name,
                "slug": event.slug,
                "rules": event.rules.preset,
                "players": event.registrations.count(),
                "hands": by_mode["hands"],
                "final": by_mode["final_scores"],
                "results": SeatResult.objects.filter(event=event).count(),
                "penalties": Penalty.objects.filter(event=event).count(),
            }
        )
        self.stdout.write(
            gettext("Login (local use only): %(username)s / %(password)s — organiser of %(club)s.")
            % {"username": USERNAME, "password": PASSWORD, "club": event.club.name}
        )
