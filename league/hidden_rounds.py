"""The rounds a tournament keeps from the public until its reveal: the one statement of the rule.

A tournament hides rounds two ways, each until its own release:

- event-wide: ``standings_hidden_after_round = N`` and no ``standings_released_at`` yet (the final
  reveal of a one-stage event; it keeps working the same in an event with stages);
- per stage: a stage (``tournaments.models.Stage``) with its own ``standings_hidden_after_round`` not
  yet released. league may not read the stages, so ``tournaments.reveal`` keeps their summary on the
  event, ``Event.stage_hidden_after_round``: the lowest such round of a stage not released, or None.

The public sees the rounds up to the lowest of the two (a hidden round keeps every later one hidden:
a later stage builds on it, through its cut and its carry-over), and nothing after — not in the
standings, the games, the players' pages, the yaku table, the ratings, and not in *when* those pages
change (their ETags and cache keys: ``league.versions``). The organisers' pages show everything.

The rule is written here three ways, for the three kinds of reader, and a test checks that they agree:
:func:`hidden_after_round` for one event in Python, :func:`in_hidden_round` as a filter over games (or
rows reaching a game), and :data:`PUBLIC_GAME_SQL` for the version writer's plain SQL. It lives in league,
the base of the layers, because ``league.versions`` needs it and may import nothing above;
``scoring.standings`` re-exports :func:`hidden_after_round` for the pages. None of them queries the
stages: the event row says it all.
"""

from __future__ import annotations

from django.db.models import F, Q

from .models import Event


def hidden_after_round(event: Event) -> int | None:
    """The round the *public* pages stop at while the organiser keeps the rest for a reveal; None
    when the public may see everything (a league, no hidden round set, or every hide released)."""
    if event.kind != Event.Kind.TOURNAMENT:
        return None
    found = []
    if event.standings_hidden_after_round is not None and event.standings_released_at is None:
        found.append(event.standings_hidden_after_round)
    stage = event.stage_hidden_after_round
    if stage is not None:
        found.append(stage)
    return min(found) if found else None


def in_hidden_round(game: str = "hanchan") -> Q:
    """A filter matching the games (through the path ``game``; ``""`` for hanchans themselves) of rounds
    their event keeps hidden, whatever the event: ``exclude`` it for what the public may see."""
    prefix = f"{game}__" if game else ""
    event_wide = Q(
        **{
            f"{prefix}event__standings_released_at__isnull": True,
            f"{prefix}event__standings_hidden_after_round__isnull": False,
            f"{prefix}round_number__gt": F(f"{prefix}event__standings_hidden_after_round"),
        }
    )
    by_stage = Q(
        **{
            f"{prefix}event__stage_hidden_after_round__isnull": False,
            f"{prefix}round_number__gt": F(f"{prefix}event__stage_hidden_after_round"),
        }
    )
    return Q(
        **{
            f"{prefix}event__kind": Event.Kind.TOURNAMENT,
            f"{prefix}round_number__isnull": False,
        }
    ) & (event_wide | by_stage)


PUBLIC_GAME_SQL = (
    "NOT ({event}.kind = 'tournament' AND {game}.round_number IS NOT NULL AND ("
    "({event}.standings_released_at IS NULL AND {event}.standings_hidden_after_round IS NOT NULL "
    "AND {game}.round_number > {event}.standings_hidden_after_round) OR "
    "({event}.stage_hidden_after_round IS NOT NULL "
    "AND {game}.round_number > {event}.stage_hidden_after_round)))"
)
"""The same rule as a SQL condition over a hanchan row ``{game}`` joined to its event ``{event}``: true
when the game is one the public may see (never NULL: every comparison is guarded)."""
