"""Stages, cuts and finals: an event played as qualifying rounds, semifinals and a final.

An event has one or more :class:`~tournaments.models.Stage` rows in order. A stage covers the rounds
from its ``first_round`` to the round before the next stage's first (the last stage, every round from
its first on), so a game's stage is read from its round number and nothing below tournaments changes:
an event that never adds a stage is one stage holding every round, and its stage standings *are* its
standings (``scoring.standings.standings``) — the same function, called the same way.

- **Reads**: :func:`stage_standings` (a stage's players ranked by the points of its games plus what
  they carried over), :func:`final_ranking` (the finalists first by final-stage points, then everyone
  else by the stage they reached), :func:`ema_rows` (what the EMA report lists, in that order).
- **Writes** (services: one transaction, a clear error, a history entry): :func:`add_stage`,
  :func:`close_stage` (the cut, with the organiser's decision on a tie the tie-breaks cannot break and
  the drop-outs replaced by the next in line, reasons kept in the history), :func:`seat_stage` (the
  stage's tables by its seating method, reusing ``tournaments.seating`` and ``tournaments.services``).

The cut and the carry-over arithmetic are pure Python in :mod:`tournaments.cuts`.

A club league can end its season with a **play-off** the same way: its season is stage 1 (its games,
without round numbers, entered one by one; its standings exactly the league's), and the play-off's stages
take the top N of the season's standings, seated at one final table or by rank, in numbered rounds after
the season's. ``Event.playoff_first_round`` (set by :func:`add_stage`) is where the season's standings
stop (``scoring.standings``), so the play-off never changes them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from league import phrases
from league.collation import name_sort_key
from league.models import Event, Hanchan, Player, Registration, Seat
from scoring.services import history
from scoring.services.hanchan import default_played_on
from scoring.standings import StandingRow, hidden_after_round, standings, tie_break_terms
from tournaments import cuts, reveal, seating, services, teams

from .models import Stage, StageEntrant

MAX_STAGES = 20


# -- which stages, which rounds ---------------------------------------------------------------------------


def _last_seated_round(event: Event) -> int:
    found = Hanchan.objects.filter(event=event, round_number__isnull=False).aggregate(
        last=Max("round_number")
    )
    return found["last"] or 0


def stages_of(event: Event) -> list[Stage]:
    """The event's stages in order (one query). An event created since stages exist has no row until
    the organiser first adds a stage: it is one stage holding every round, as the migration made of
    the events before (``tournaments/migrations/0006_every_event_one_stage.py``)."""
    found = list(Stage.objects.filter(event=event).order_by("order"))
    for stage in found:
        stage.event = event
    return found or [Stage(event=event, order=1, first_round=1, rounds=1)]


def ensure_stages(event: Event) -> list[Stage]:
    """The stages, the implicit first one saved if it was not (inside the caller's transaction)."""
    found = stages_of(event)
    if found[0].pk is None:
        found[0].rounds = min(max(_last_seated_round(event), 1), 99)
        found[0].save()
    return found


def round_range(stages: list[Stage], stage: Stage) -> tuple[int | None, int | None]:
    """``(from_round, up_to_round)`` for the standings of ``stage``: None where it is open (the first
    stage takes every game from the start, rounds or not; the last stage every round from its first)."""
    index = next(i for i, s in enumerate(stages) if s.order == stage.order)
    start = None if index == 0 else stage.first_round
    end = stages[index + 1].first_round - 1 if index + 1 < len(stages) else None
    return start, end


def stage_rounds(stages: list[Stage], stage: Stage) -> list[int]:
    """The round numbers the stage plans (its first round up to the next stage's first)."""
    _start, end = round_range(stages, stage)
    return list(range(stage.first_round, (end if end is not None else stage.last_round) + 1))


def stage_of_round(stages: list[Stage], number: int) -> Stage:
    """The stage a round belongs to (the first stage for a number before every stage's first)."""
    found = stages[0]
    for stage in stages:
        if stage.first_round <= number:
            found = stage
    return found


def stage_phrase(stage: Stage) -> phrases.Phrase | str:
    """The stage's name for a history summary: its own name, or "Stage N" in the reader's language (a
    league's "Season", "Play-off", "Play-off, stage N", as :attr:`Stage.label`)."""
    if stage.name:
        return stage.name
    if Stage.event.is_cached(stage) and stage.event.kind == Event.Kind.LEAGUE:
        if stage.order == 1:
            return phrases.say(gettext_noop("Season"))
        if stage.order == 2:
            return phrases.say(gettext_noop("Play-off"))
        return phrases.say(gettext_noop("Play-off, stage %(order)s"), order=stage.order - 1)
    return phrases.say(gettext_noop("Stage %(order)s"), order=stage.order)


# -- stage standings --------------------------------------------------------------------------------------


@dataclass
class StageRow:
    """A player's line in a stage: ``row`` counts the stage's own games; ``carried`` is what they
    brought from the stage before; ``seed`` their place going in (stages after the first)."""

    row: StandingRow
    carried: int = 0
    seed: int | None = None
    note: str = ""
    replaces: str = ""
    rank: int | None = None
    key: tuple[Any, ...] = ()

    @property
    def player_id(self) -> int:
        return self.row.player_id

    @property
    def name(self) -> str:
        return self.row.name

    @property
    def total(self) -> int:
        """The stage's ranking points: its games plus the carry-over."""
        return self.row.points + self.carried

    @property
    def ranked(self) -> bool:
        return self.rank is not None


def tie_key(row: StandingRow, terms: list[str], carried: int = 0) -> tuple[Any, ...]:
    """What the event's tie-breaks compare (smaller is better), with the carry-over in the points: the
    same terms as ``scoring.standings`` ranks by."""
    parts: list[Any] = []
    for term in terms:
        if term == "points":
            parts.append(-(row.points + carried))
        elif term == "placement":
            parts.append(row.placement if row.placement is not None else Fraction(5))
        elif term == "games":
            parts.append(-row.games)
    return tuple(parts)


def _ranked(rows: list[StageRow]) -> list[StageRow]:
    """Sort by key (then seed, then name) and give shared ranks to equal keys; unranked rows (a key
    starting with 1 rather than 0) stay last, without a rank."""
    rows.sort(key=lambda r: (r.key, r.seed or 0, name_sort_key(r.name), r.player_id))
    previous: tuple[Any, ...] | None = None
    for index, row in enumerate(rows, start=1):
        if row.key[0] != 0:
            row.rank = None
            continue
        row.rank = index if row.key != previous else rows[index - 2].rank
        previous = row.key
    return rows


def all_stage_standings(
    event: Event,
    stages: list[Stage] | None = None,
    *,
    up_to_round: int | None = None,
    public: bool = False,
    min_games: int | None = None,
    until: int | None = None,
) -> list[list[StageRow]]:
    """Every stage's standings (up to stage ``until``'s order), each computed from the one before for
    its carry-over: three queries for the first stage, four for each later one.

    ``public`` caps the rounds at the hidden round of a final reveal; ``min_games`` overrides the
    event's minimum for the first stage (later stages rank every player who went through)."""
    stages = stages or stages_of(event)
    cap = up_to_round
    if public:
        hidden = hidden_after_round(event)
        if hidden is not None:
            cap = hidden if cap is None else min(cap, hidden)
    terms = tie_break_terms(event)
    found: list[list[StageRow]] = []
    for index, stage in enumerate(stages):
        if until is not None and stage.order > until:
            break
        start, end = round_range(stages, stage)
        if cap is not None:
            end = cap if end is None else min(end, cap)
        if index == 0:
            if event.kind == Event.Kind.LEAGUE:
                # A league's season: its standings exactly as the league shows them (the event's minimum
                # of games; the play-off's rounds left out by ``scoring.standings``).
                base = standings(event)
            else:
                base = standings(event, up_to_round=end, min_games=min_games)
            rows = [
                StageRow(row=r, rank=r.rank, key=(0 if r.ranked else 1, *tie_key(r, terms))) for r in base
            ]
            found.append(rows)
            continue
        entrants = list(
            StageEntrant.objects.filter(stage=stage).select_related("player", "replaces").order_by("seed")
        )
        if not entrants or (cap is not None and cap < stage.first_round):
            # Not decided yet, or every round of the stage is after the hidden round: who went through
            # would tell the hidden standings.
            found.append([])
            continue
        played = {r.player_id: r for r in standings(event, from_round=start, up_to_round=end, min_games=0)}
        before = {r.player_id: (r, place) for place, r in enumerate(found[index - 1], start=1)}
        bonus = cuts.parse_bonus(stage.bonus) if stage.carry_over == Stage.CarryOver.BONUS else []
        rows = []
        for entrant in entrants:
            row = played.get(entrant.player_id) or StandingRow(entrant.player_id, entrant.player.display_name)
            carried = 0
            previous = before.get(entrant.player_id)
            if previous is not None:
                prev_row, position = previous
                carried = cuts.carried(stage.carry_over, prev_row.total, prev_row.rank or position, bonus)
            rows.append(
                StageRow(
                    row=row,
                    carried=carried,
                    seed=entrant.seed,
                    note=entrant.note,
                    replaces=entrant.replaces.display_name if entrant.replaces else "",
                    key=(0, *tie_key(row, terms, carried)),
                )
            )
        found.append(_ranked(rows))
    return found


def stage_standings(event: Event, stage: Stage, **options: Any) -> list[StageRow]:
    """One stage's standings (see :func:`all_stage_standings` for the options)."""
    stages = options.pop("stages", None) or stages_of(event)
    return all_stage_standings(event, stages, until=stage.order, **options)[-1]


@dataclass
class FinalRow:
    """A player's line in the event's final ranking: the last stage they reached and their line there."""

    stage: Stage
    line: StageRow
    rank: int | None = None


def final_ranking(event: Event, *, public: bool = False, min_games: int | None = None) -> list[FinalRow]:
    """The event's ranking: the players of the last stage first, by its points with the carry-over;
    then the players of the stage before who did not go further, by that stage's points; and so on.
    Players equal on every tie-break within one group share the better rank."""
    stages = stages_of(event)
    per_stage = all_stage_standings(event, stages, public=public, min_games=min_games)
    lines = {(index, r.player_id): r for index, rows in enumerate(per_stage) for r in rows}
    order = cuts.final_order(
        [[cuts.Candidate(r.player_id, r.key, r.rank is not None) for r in rows] for rows in per_stage]
    )
    return [FinalRow(stage=stages[p.stage], line=lines[p.stage, p.player], rank=p.rank) for p in order]


def ema_rows(event: Event) -> list[StandingRow]:
    """The standings rows the EMA report lists, in final-ranking order.

    One stage: the standings without a minimum of games, exactly as before stages. Several: each
    participant once, with every point they scored in the event (the report's score column adds up
    to the games' results, which the reconciliation checks) and the place of the final ranking."""
    if len(stages_of(event)) == 1:
        return standings(event, min_games=0)
    overall = {r.player_id: r for r in standings(event, min_games=0)}
    out: list[StandingRow] = []
    for final in final_ranking(event, min_games=0):
        row = overall.pop(final.line.player_id, None) or final.line.row
        ranked = final.rank is not None and row.games > 0
        out.append(dataclasses.replace(row, rank=final.rank if ranked else None, ranked=ranked))
    # Anyone else with results (a substitute who played for someone): unlisted, but their points count.
    out += [dataclasses.replace(r, rank=None, ranked=False) for r in overall.values()]
    return out


# -- services -------------------------------------------------------------------------------------------


def _lock(event: Event) -> None:
    list(Event.objects.select_for_update(no_key=True).filter(pk=event.pk).values_list("pk", flat=True))


def _clean_settings(
    *, entrants: str, cut_size: int | None, carry_over: str, bonus: str, seating_method: str, players: int
) -> str:
    """Validate a stage's settings; returns the bonus list normalised. ``players``: how many a list
    names (with a list the organiser picks)."""
    if entrants not in Stage.Entrants.values:
        raise ValidationError({"entrants": _("Choose who plays the stage.")})
    if carry_over not in Stage.CarryOver.values:
        raise ValidationError({"carry_over": _("Choose how points carry over.")})
    if seating_method not in Stage.Seating.values:
        raise ValidationError({"seating": _("Choose how the stage is seated.")})
    size = None
    if entrants == Stage.Entrants.TOP:
        if not cut_size or cut_size % 4:
            raise ValidationError(
                {"cut_size": _("Players going through: a multiple of 4 (tables of four), at least 4.")}
            )
        size = cut_size
    elif entrants == Stage.Entrants.LIST:
        if not players or players % 4:
            raise ValidationError(
                {"players": _("Pick the stage's players: a multiple of 4 (tables of four), at least 4.")}
            )
        size = players
    if seating_method == Stage.Seating.FINAL and size is not None and size != 4:
        raise ValidationError({"seating": _("One final table seats exactly four players.")})
    try:
        values = cuts.parse_bonus(bonus)
    except ValueError as exc:
        raise ValidationError({"bonus": _("Bonus by place: %(error)s.") % {"error": exc}}) from None
    if carry_over == Stage.CarryOver.BONUS and not values:
        raise ValidationError(
            {"bonus": _("Bonus by place: give the points of the 1st, 2nd, … separated by commas.")}
        )
    return ", ".join(str(v) for v in values)


def _check_playoff(*, entrants: str, seating_method: str) -> None:
    """A league's play-off: the top players of the season (or of the play-off stage before), seated at
    one final table or by rank; the season's own games are entered one by one, never seated."""
    if entrants != Stage.Entrants.TOP:
        raise ValidationError(
            {"entrants": _("A league's play-off is played by the top players of the season's standings.")}
        )
    if seating_method not in (Stage.Seating.FINAL, Stage.Seating.RANK):
        raise ValidationError({"seating": _("A league's play-off is seated at one final table or by rank.")})


@transaction.atomic
def add_stage(
    *,
    event: Event,
    user: Any,
    name: str = "",
    rounds: int = 1,
    entrants: str = Stage.Entrants.TOP,
    cut_size: int | None = None,
    carry_over: str = Stage.CarryOver.NONE,
    bonus: str = "",
    seating_method: str = Stage.Seating.RANK,
    winds: str = Stage.Winds.DRAWN,
    players: Iterable[Player] = (),
    after: int | None = None,
    hidden_after_round: int | None = None,
) -> Stage:
    """Add a stage after the event's last: it starts after the rounds the last stage plans (or has
    seated, if more). ``players`` is the organiser's list for ``entrants="list"``, in seed order;
    ``hidden_after_round``, the round its public standings stop at until its release
    (:func:`tournaments.reveal.set_stage_hiding`).

    ``after``: how many stages the organiser's form showed; another number means the form was sent
    twice (or someone added a stage meanwhile), refused rather than adding a stage nobody asked for.
    A league's stages are its season and its play-off (the top players, at one table or by rank)."""
    _lock(event)
    existing = ensure_stages(event)
    last = existing[-1]
    if after is not None and after != len(existing):
        raise ValidationError(
            _("The stages changed since the page was shown (a form sent twice?): %(stage)s was added.")
            % {"stage": last.label}
        )
    if event.kind == Event.Kind.LEAGUE:
        _check_playoff(entrants=entrants, seating_method=seating_method)
    if len(existing) >= MAX_STAGES:
        raise ValidationError(_("An event has at most %(most)s stages.") % {"most": MAX_STAGES})
    if last.closed_at is not None:
        raise ValidationError(_("The last stage is closed: the event is over."))
    if not 1 <= rounds <= 99:
        raise ValidationError({"rounds": _("A stage has between 1 and 99 rounds.")})
    picked = list(dict.fromkeys(players))
    if winds not in Stage.Winds.values:
        raise ValidationError({"winds": _("Choose how seat winds are given.")})
    normalised = _clean_settings(
        entrants=entrants,
        cut_size=cut_size,
        carry_over=carry_over,
        bonus=bonus,
        seating_method=seating_method,
        players=len(picked),
    )
    if entrants == Stage.Entrants.LIST:
        registered = set(
            Registration.objects.filter(event=event, player__in=picked).values_list("player_id", flat=True)
        )
        stray = [p for p in picked if p.pk not in registered]
        if stray:
            raise ValidationError(
                {"players": _("%(player)s is not registered in the event.") % {"player": stray[0]}}
            )
    first = max(last.last_round, _last_seated_round(event)) + 1
    if event.kind == Event.Kind.LEAGUE and event.playoff_first_round is None:
        # The season ends here: its standings leave out the play-off's rounds from now on.
        event.playoff_first_round = first
        event.save(update_fields=["playoff_first_round"])
    stage = Stage.objects.create(
        event=event,
        order=last.order + 1,
        name=name.strip(),
        first_round=first,
        rounds=rounds,
        entrants=entrants,
        cut_size=cut_size if entrants == Stage.Entrants.TOP else None,
        carry_over=carry_over,
        bonus=normalised,
        seating=seating_method,
        winds=winds,
    )
    if entrants == Stage.Entrants.LIST:
        StageEntrant.objects.bulk_create(
            [StageEntrant(stage=stage, player=p, seed=i) for i, p in enumerate(picked, start=1)]
        )
    history.log(
        event=event,
        user=user,
        action="stage added",
        summary=phrases.say(
            phrases.ngettext_lazy(
                "%(stage)s added: %(rounds)d round from round %(first)s",
                "%(stage)s added: %(rounds)d rounds from round %(first)s",
                "rounds",
            ),
            stage=stage_phrase(stage),
            rounds=rounds,
            first=first,
        ),
    )
    if hidden_after_round is not None:
        reveal.set_stage_hiding(stage=stage, user=user, hidden_after_round=hidden_after_round)
    return stage


@dataclass
class CutPreview:
    """What closing ``stage`` would do: ``cut`` (who goes through to ``following``), with the lines of
    the stage (``rows``) and the reasons of the drop-outs; ``unfinished`` tables still in play."""

    stage: Stage
    following: Stage | None
    rows: list[StageRow]
    cut: cuts.Cut
    reasons: dict[int, str] = field(default_factory=dict)
    unfinished: int = 0

    @property
    def names(self) -> dict[int, str]:
        return {r.player_id: r.name for r in self.rows}

    def status(self, player_id: int) -> str:
        """through, tied, out or dropped: the row's mark on the preview."""
        if player_id in self.cut.dropped:
            return "dropped"
        if player_id in self.cut.tied:
            return "tied"
        if player_id in self.cut.through:
            return "through"
        return "out"


def cut_preview(
    stage: Stage,
    *,
    dropped: dict[int, str] | None = None,
    decided: list[int] | None = None,
) -> CutPreview:
    """The cut line of ``stage``: its standings, who goes through to the next stage and who is tied at
    the line. Players dropped out of the event (or withdrawn) are drop-outs, with ``dropped`` adding
    those who leave now (player id → reason). ``decided``: the organiser's choice among the tied."""
    event = stage.event
    stages = stages_of(event)
    rows = all_stage_standings(event, stages, until=stage.order, min_games=0)[-1]
    following = next((s for s in stages if s.order == stage.order + 1), None)
    reasons = dict(dropped or {})
    gone = Registration.objects.filter(event=event, player_id__in=[r.player_id for r in rows]).exclude(
        dropped_out=False, withdrawn_at__isnull=True
    )
    for player_id in gone.values_list("player_id", flat=True):
        reasons.setdefault(player_id, _("dropped out of the event"))
    substitutes = set(
        Registration.objects.filter(event=event, is_substitute=True).values_list("player_id", flat=True)
    )
    if stage.order == 1:  # substitutes who sat in for someone do not go through themselves
        rows = [r for r in rows if r.player_id not in substitutes]
    candidates = [cuts.Candidate(player=r.player_id, key=r.key) for r in rows]
    if event.kind == Event.Kind.LEAGUE and stage.order == 1:
        # The top of the season's standings: a player short of the event's minimum of games is not
        # ranked there, so does not go through.
        candidates = [c for c, r in zip(candidates, rows, strict=True) if r.rank is not None]
    if following is None or following.entrants == Stage.Entrants.LIST:
        size = 0
    elif following.entrants == Stage.Entrants.TOP:
        size = following.cut_size or 0
    else:
        size = len(candidates)
    try:
        found = cuts.cut(
            candidates, size, dropped=set(reasons) & {c.player for c in candidates}, decided=decided
        )
    except ValueError:
        raise ValidationError(
            {"decided": _("Choose exactly the number of tied players the places left allow.")}
        ) from None
    start, end = round_range(stages, stage)
    tables = Hanchan.objects.filter(event=event, status=Hanchan.Status.IN_PROGRESS)
    if event.kind == Event.Kind.LEAGUE and stage.order == 1:
        # A league's season: any game of it still in play, numbered or not, would be missing from the cut.
        if event.playoff_first_round is not None:
            tables = tables.exclude(round_number__gte=event.playoff_first_round)
    else:
        tables = tables.filter(round_number__isnull=False, round_number__gte=start or 1)
        if end is not None:
            tables = tables.filter(round_number__lte=end)
    return CutPreview(
        stage=stage, following=following, rows=rows, cut=found, reasons=reasons, unfinished=tables.count()
    )


def _names(ids: Iterable[int], names: dict[int, str]) -> str:
    return ", ".join(names.get(pk, str(pk)) for pk in ids)


@transaction.atomic
def close_stage(
    *,
    stage: Stage,
    user: Any,
    dropped: dict[int, str] | None = None,
    decided: list[int] | None = None,
) -> CutPreview:
    """Close ``stage`` and put the players who go through into the next one (seeded in order).

    Refused while a table of the stage is still in play, and while a tie at the line is not decided
    (the preview names the tied players). The organiser's decision on the tie, each drop-out with its
    reason and who took their place are written to the history."""
    event = stage.event
    _lock(event)
    if stage.pk is None:  # the implicit single stage of an event that never added one
        stage = ensure_stages(event)[0]
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    stage.event = event
    if stage.closed_at is not None:
        raise ValidationError(_("%(stage)s is already closed.") % {"stage": stage.label})
    if event.kind == Event.Kind.LEAGUE and event.playoff_first_round is None:
        raise ValidationError(_("Add the play-off first: closing the season sends its top players to it."))
    for reason in (dropped or {}).values():
        if not reason.strip():
            raise ValidationError({"reason": _("Say why the player drops out before the cut.")})
    preview = cut_preview(stage, dropped=dropped, decided=decided)
    if preview.unfinished:
        raise ValidationError(
            ngettext(
                "%(count)d table of the stage is still in play: finish or void it before the cut.",
                "%(count)d tables of the stage are still in play: finish or void them before the cut.",
                preview.unfinished,
            )
            % {"count": preview.unfinished}
        )
    found, names = preview.cut, preview.names
    if not found.decided:
        raise ValidationError(
            {
                "decided": ngettext(
                    "The tie-breaks cannot separate %(players)s: choose %(places)d of them to go through.",
                    "The tie-breaks cannot separate %(players)s: choose %(places)d of them to go through.",
                    found.places,
                )
                % {"players": _names(found.tied, names), "places": found.places}
            }
        )
    following = preview.following
    if following is not None and following.entrants != Stage.Entrants.LIST:
        if following.seating == Stage.Seating.FINAL and len(found.through) != 4:
            raise ValidationError(_("One final table seats exactly four players."))
        if len(found.through) % 4:
            raise ValidationError(
                _("%(count)d players would go through: tables of four need a multiple of 4.")
                % {"count": len(found.through)}
            )
        StageEntrant.objects.filter(stage=following).delete()
        StageEntrant.objects.bulk_create(
            [
                StageEntrant(
                    stage=following,
                    player_id=pk,
                    seed=seed,
                    replaces_id=found.stepped_in.get(pk),
                    note=preview.reasons.get(found.stepped_in[pk], "") if pk in found.stepped_in else "",
                )
                for seed, pk in enumerate(found.through, start=1)
            ]
        )
    stage.closed_at = timezone.now()
    stage.save(update_fields=["closed_at"])
    summary = phrases.say(
        phrases.ngettext_lazy(
            "%(stage)s closed: %(count)d player goes through",
            "%(stage)s closed: %(count)d players go through",
            "count",
        ),
        stage=stage_phrase(stage),
        count=len(found.through) if following is not None else 0,
    )
    history.log(event=event, user=user, action="stage closed", summary=summary)
    if found.chosen:  # only a real tie at the line is a decision (a stray choice is ignored)
        history.log(
            event=event,
            user=user,
            action="stage tie decided",
            summary=phrases.say(
                gettext_noop("Tie at the cut of %(stage)s: the organiser sent %(chosen)s through"),
                stage=stage_phrase(stage),
                chosen=_names(found.chosen, names),
            ),
        )
    replaced_by = {gone: new for new, gone in found.stepped_in.items()}
    for pk in found.dropped:
        if pk in replaced_by:
            summary = phrases.say(
                gettext_noop(
                    "%(player)s drops out before the cut of %(stage)s: %(next)s goes through instead"
                ),
                player=names.get(pk, str(pk)),
                stage=stage_phrase(stage),
                next=names.get(replaced_by[pk], ""),
            )
        else:
            summary = phrases.say(
                gettext_noop("%(player)s drops out before the cut of %(stage)s"),
                player=names.get(pk, str(pk)),
                stage=stage_phrase(stage),
            )
        history.log(
            event=event,
            user=user,
            action="stage drop-out",
            summary=summary,
            reason=preview.reasons.get(pk, ""),
        )
    return preview


def _stage_players(stage: Stage, stages: list[Stage]) -> list[int]:
    """The players to seat in ``stage``, best first: its entrants by the stage's standings so far."""
    rows = all_stage_standings(stage.event, stages, until=stage.order, min_games=0)[-1]
    return [r.player_id for r in rows]


def _create_tables(event: Event, user: Any, number: int, tables: Iterable[Iterable[int]]) -> list[Hanchan]:
    played_on = default_played_on(event)
    created, seats = [], []
    for table_number, table in enumerate(tables, start=1):
        hanchan = Hanchan.objects.create(
            event=event,
            round_number=number,
            table_number=table_number,
            entry_mode=Hanchan.EntryMode.FINAL_SCORES,
            entered_by=user,
            played_on=played_on,
        )
        created.append(hanchan)
        seats += [Seat(hanchan=hanchan, seat=s, player_id=pk) for s, pk in enumerate(table)]
    Seat.objects.bulk_create(seats)
    return created


@transaction.atomic
def seat_stage(*, stage: Stage, user: Any, seed: int | None = None) -> list[int]:
    """Seat ``stage`` by its method; returns the round numbers seated.

    The first stage is the event's seating as before (``tournaments.services.seat_tournament``). A
    later stage seats only its players, once the stage before is closed: the no-repeat schedule seats
    all its rounds at once; Swiss, by rank and the final table seat its next round without tables, by
    the stage's standings so far (carry-over included), so they are seated round by round."""
    event = stage.event
    stages = ensure_stages(event)
    stage = next(s for s in stages if s.order == stage.order)
    if stage.order == 1 and event.kind == Event.Kind.LEAGUE:
        raise ValidationError(
            _("A season's games are entered one by one: only the play-off's stages are seated.")
        )
    if stage.order == 1:
        services.seat_tournament(event=event, rounds=stage.rounds, user=user, seed=seed)
        return list(range(1, stage.rounds + 1))
    _lock(event)
    previous = next(s for s in stages if s.order == stage.order - 1)
    if previous.closed_at is None and stage.entrants != Stage.Entrants.LIST:
        raise ValidationError(
            _("Close %(stage)s first: its cut says who plays this stage.") % {"stage": previous.label}
        )
    if stage.closed_at is not None:
        raise ValidationError(_("%(stage)s is closed.") % {"stage": stage.label})
    order = _stage_players(stage, stages)
    if not order or len(order) % 4:
        raise ValidationError(
            _("%(stage)s has %(count)d players: tables of four need a multiple of 4.")
            % {"stage": stage.label, "count": len(order)}
        )
    numbers = stage_rounds(stages, stage)
    seated = set(
        Hanchan.objects.filter(event=event, round_number__in=numbers).values_list("round_number", flat=True)
    )
    seed = event.seating_seed if seed is None else seed
    index = {pk: i for i, pk in enumerate(order)}
    groups = teams.indexed_groups(event, index)
    if stage.seating == Stage.Seating.SCHEDULE:
        if seated:
            raise ValidationError(_("%(stage)s is already seated.") % {"stage": stage.label})
        try:
            schedule = seating.generate(len(order), len(numbers), seed=seed, groups=groups)
        except ValueError as exc:
            raise ValidationError(_("The seating cannot be generated: %(error)s.") % {"error": exc}) from None
        for number, tables in zip(numbers, schedule.rounds, strict=True):
            _create_tables(event, user, number, [[order[i] for i in table] for table in tables])
        done = numbers
    else:
        remaining = [n for n in numbers if n not in seated]
        if not remaining:
            raise ValidationError(_("Every round of %(stage)s is seated.") % {"stage": stage.label})
        number = remaining[0]
        unfinished = Hanchan.objects.filter(
            event=event, round_number__in=seated, status=Hanchan.Status.IN_PROGRESS
        ).exists()
        if unfinished:
            raise ValidationError(
                _("Finish the stage's round in play first: the next round is seated by its results.")
            )
        if stage.seating == Stage.Seating.SWISS:
            earlier = Seat.objects.filter(hanchan__event=event, hanchan__round_number__in=seated)
            by_table: dict[tuple[int, int], list[tuple[int, int]]] = {}
            for rnd, tbl, s, pk in earlier.values_list(
                "hanchan__round_number", "hanchan__table_number", "seat", "player_id"
            ):
                if pk in index:
                    by_table.setdefault((rnd, tbl), []).append((s, index[pk]))
            rounds: dict[int, list[tuple[int, ...]]] = {}
            for (rnd, _tbl), members in sorted(by_table.items()):
                if len(members) == 4:
                    rounds.setdefault(rnd, []).append(tuple(i for _s, i in sorted(members)))
            before = (
                seating.Schedule(rounds=tuple(tuple(rounds[n]) for n in sorted(rounds))) if rounds else None
            )
            try:
                tables = seating.swiss_round(list(range(len(order))), before, seed=seed, groups=groups)
            except ValueError as exc:
                raise ValidationError(
                    _("The seating cannot be generated: %(error)s.") % {"error": exc}
                ) from None
            seated_tables = [[order[i] for i in table] for table in tables]
        else:
            seated_tables = [order[i : i + 4] for i in range(0, len(order), 4)]
            if stage.winds == Stage.Winds.DRAWN:
                rng = random.Random(f"{seed}-{number}")
                for table in seated_tables:
                    rng.shuffle(table)
        _create_tables(event, user, number, seated_tables)
        done = [number]
    services._check_round_invariant(event, done)
    history.log(
        event=event,
        user=user,
        action="stage seated",
        summary=phrases.say(
            phrases.ngettext_lazy(
                "%(stage)s seated: round %(rounds)s (%(count)d players)",
                "%(stage)s seated: rounds %(rounds)s (%(count)d players)",
                "rounds_count",
            ),
            stage=stage_phrase(stage),
            rounds=", ".join(str(n) for n in done),
            rounds_count=len(done),
            count=len(order),
        ),
    )
    return done
