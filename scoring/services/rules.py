"""Changing an event's rules once games are recorded: replay every game under the new rules first.

An event stores its *effective* ruleset, and every cached row of its games (hand scores, seat results,
standings) was computed under it — and under its substitute settings (what a substitute's seat is
credited with, ``scoring/substitutes.py``), which therefore change here too, with the rules or alone.
Changing either means replaying every game with the engine: a game that the new rules do not allow (a
han/fu pair that no longer exists, a chombo now forbidden, final scores that no longer sum to the start
points) refuses the whole change, naming the game, the hand and the rule — all or nothing, in one
transaction.

``preview_rules_change`` does exactly what ``change_rules`` does inside a savepoint that is always rolled
back, so the standings diff an organiser confirms is computed by the same code that will save it.
League cannot do any of this (it must not import scoring), so its edit page hands a rules or substitute
settings change of an event with games over to the page in ``scoring/views/rules.py``, and the admin
shows those settings read-only once the event has games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from league import phrases
from league.engine_text import engine_message, preset_label, rules_in_words, ruleset_or_error
from league.models import Event, Hanchan
from league.services import RESULTS_SETTINGS
from scoring import engine
from scoring.standings import StandingRow, standings

from . import history
from .errors import seat_names
from .hands import bump
from .sync import refresh

ACTION = "rules changed"
RULES_CHANGED = phrases.ngettext_lazy(
    "Rules changed (%(settings)s); %(games)s game replayed.",
    "Rules changed (%(settings)s); %(games)s games replayed.",
    "games",
)


@dataclass(frozen=True)
class StandingChange:
    """One player's line of the standings that the new rules change (rank ``None``: not ranked)."""

    player_id: int
    name: str
    rank_before: int | None
    rank_after: int | None
    points_before: int
    points_after: int

    @property
    def points_delta(self) -> int:
        return self.points_after - self.points_before


@dataclass(frozen=True)
class RulesPreview:
    """What a rules change does: the settings that differ, the games replayed and the standings lines
    that change (only those; empty when the standings stay as they are)."""

    settings: list[tuple[str, str, str]]
    games: int
    finished: int
    changes: list[StandingChange] = field(default_factory=list)

    @property
    def needs_reason(self) -> bool:
        """Finished games change: the history must say why (results people have seen move)."""
        return self.finished > 0


Substitutes = dict[str, Any]
"""The event's ``RESULTS_SETTINGS``: ``substitute_credit`` and ``substitute_fixed_result``."""


def substitutes_of(event: Event) -> Substitutes:
    return {name: getattr(event, name) for name in RESULTS_SETTINGS}


def _substitute_words(settings: Substitutes) -> dict[str, str]:
    credit = settings["substitute_credit"]
    return {
        "substitute_credit": str(Event.SubstituteCredit(credit).label)
        if credit in Event.SubstituteCredit.values
        else str(credit),
        "substitute_fixed_result": str(settings["substitute_fixed_result"]),
    }


def setting_changes(
    before: engine.Ruleset,
    after: engine.Ruleset,
    substitutes_before: Substitutes | None = None,
    substitutes_after: Substitutes | None = None,
) -> list[tuple[str, str, str]]:
    """(setting, before, after) in words for every setting that differs, the preset first and the
    substitute settings last."""
    out: list[tuple[str, str, str]] = []
    if before.preset != after.preset:
        out.append((gettext("Rules preset"), preset_label(before.preset), preset_label(after.preset)))
    for (meaning, old), (_meaning, new) in zip(rules_in_words(before), rules_in_words(after), strict=True):
        if old != new:
            out.append((meaning, old, new))
    if substitutes_before is not None and substitutes_after is not None:
        old_words, new_words = _substitute_words(substitutes_before), _substitute_words(substitutes_after)
        for name in RESULTS_SETTINGS:
            if substitutes_before[name] != substitutes_after[name]:
                out.append((str(Event._meta.get_field(name).verbose_name), old_words[name], new_words[name]))
    return out


def game_label(hanchan: Hanchan, names: list[str] | None = None) -> str:
    """How a refusal names a game: its number, its table in a tournament, and its players."""
    names = names if names is not None else seat_names(hanchan)
    players = ", ".join(names)
    if hanchan.round_number:
        return gettext("Game #%(id)s (round %(round)s, table %(table)s: %(players)s)") % {
            "id": hanchan.pk,
            "round": hanchan.round_number,
            "table": hanchan.table_number or "—",
            "players": players,
        }
    return gettext("Game #%(id)s (%(players)s)") % {"id": hanchan.pk, "players": players}


def _refused(hanchan: Hanchan, message: str) -> ValidationError:
    return ValidationError(
        gettext("%(game)s cannot be replayed under the new rules: %(error)s")
        % {"game": game_label(hanchan), "error": message}
    )


def _replay_all(event: Event) -> tuple[int, int]:
    """Rewrite every game's cached rows and results under ``event``'s (new, saved) rules.

    Every game counts, void ones too: a void game can be reopened, and its hands must then replay under
    the event's rules. Each game is locked and its version bumped, so an organiser entering a hand at
    that moment is told the game changed instead of saving a hand checked under the old rules. Returns
    (games replayed, finished games).
    """
    rules = event.rules
    games = list(Hanchan.objects.select_for_update(no_key=True).filter(event=event).order_by("pk"))
    finished = 0
    for game in games:
        game.event = event  # the new rules, not a copy of the event loaded before the change
        try:
            if game.entry_mode == Hanchan.EntryMode.FINAL_SCORES:
                scores = [s.final_score for s in sorted(game.seats.all(), key=lambda s: s.seat)]
                if len(scores) == 4 and all(score is not None for score in scores):
                    engine.check_final_scores(scores, game.final_sticks, rules)  # type: ignore[arg-type]
            refresh(game)
        except engine.EngineError as exc:
            raise _refused(game, engine_message(exc, seat_names(game))) from None
        except ValidationError as exc:
            raise _refused(game, " ".join(exc.messages)) from None
        bump(game)
        finished += game.status == Hanchan.Status.FINISHED
    return len(games), finished


def _apply(event: Event, rules: engine.Ruleset, substitutes: Substitutes) -> tuple[int, int]:
    """Store ``rules`` and ``substitutes`` on a locked ``event`` and replay its games (the caller holds
    the transaction)."""
    event.ruleset = rules.to_dict()
    event._rules = None
    for name, value in substitutes.items():
        setattr(event, name, value)
    event.full_clean()
    event.save(update_fields=["ruleset", *RESULTS_SETTINGS])
    return _replay_all(event)


def _proposed(event: Event, substitutes: Substitutes | None) -> Substitutes:
    """The substitute settings a change proposes: the event's own for any not given."""
    return {**substitutes_of(event), **{k: v for k, v in (substitutes or {}).items() if v is not None}}


def standings_diff(before: list[StandingRow], after: list[StandingRow]) -> list[StandingChange]:
    """The lines whose rank or points differ, in the new standings' order."""
    old = {row.player_id: row for row in before}
    changes: list[StandingChange] = []
    for row in after:
        previous = old.get(row.player_id)
        rank_before = previous.rank if previous else None
        points_before = previous.points if previous else 0
        if previous is not None and (rank_before, points_before) == (row.rank, row.points):
            continue
        changes.append(
            StandingChange(row.player_id, row.name, rank_before, row.rank, points_before, row.points)
        )
    return changes


def preview_rules_change(event: Event, ruleset: Any, substitutes: Substitutes | None = None) -> RulesPreview:
    """What changing ``event``'s rules to ``ruleset`` (and its substitute settings to ``substitutes``)
    would do, without saving anything.

    The change is carried out for real inside a savepoint — every game replayed, every cached row
    rewritten — the standings read, and the savepoint rolled back: the diff is what ``change_rules``
    will save, by construction. A ValidationError names the game, hand and rule that refuse it.
    """
    rules = ruleset_or_error(ruleset)
    before = standings(event)
    with transaction.atomic():
        work = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
        current, current_substitutes = work.rules, substitutes_of(work)
        proposed = _proposed(work, substitutes)
        games, finished = _apply(work, rules, proposed)
        after = standings(work)
        transaction.set_rollback(True)  # a preview: nothing it wrote may stay
    return RulesPreview(
        settings=setting_changes(current, rules, current_substitutes, proposed),
        games=games,
        finished=finished,
        changes=standings_diff(before, after),
    )


@transaction.atomic
def change_rules(
    *,
    event: Event,
    ruleset: Any,
    user: Any,
    reason: str = "",
    substitutes: Substitutes | None = None,
) -> RulesPreview:
    """Give ``event`` new effective rules (and ``substitutes``: new substitute settings, see
    ``RESULTS_SETTINGS``), replaying every game under them; all or nothing.

    While no game is finished the change is free (the games in progress must still replay); once one
    is, results people have seen move, so a ``reason`` is required. The history keeps both rulesets
    (with the substitute settings when they change). Every game's results are rewritten and the
    results versions of the event and its players move on in the same transaction (``sync.rebuild``).
    """
    rules = ruleset_or_error(ruleset)
    locked = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
    current, current_substitutes = locked.rules, substitutes_of(locked)
    proposed = _proposed(locked, substitutes)
    if proposed["substitute_credit"] not in Event.SubstituteCredit.values:
        raise ValidationError({"substitute_credit": gettext("Choose how a substitute's games count.")})
    if rules.to_dict() == current.to_dict() and proposed == current_substitutes:
        raise ValidationError(gettext("These are already the event's rules: change a setting first."))
    has_finished = Hanchan.objects.filter(event=locked, status=Hanchan.Status.FINISHED).exists()
    if has_finished and not (reason or "").strip():
        raise ValidationError(
            {
                "reason": gettext(
                    "Reason: say why the rules change — finished games are recomputed and the history "
                    "keeps it."
                )
            }
        )
    before_standings = standings(locked)
    before = dict(locked.ruleset)
    games, finished = _apply(locked, rules, proposed)
    changes = standings_diff(before_standings, standings(locked))
    settings = setting_changes(current, rules, current_substitutes, proposed)
    keys = [key for key, value in locked.ruleset.items() if before.get(key) != value]
    moved = [name for name in RESULTS_SETTINGS if proposed[name] != current_substitutes[name]]
    after = dict(locked.ruleset)
    if moved:  # the substitute settings beside the rules, in the history's before and after
        before.update(current_substitutes)
        after.update(proposed)
    words = [f"{key} {before.get(key)} → {after[key]}" for key in [*keys, *moved]]
    summary = phrases.say(RULES_CHANGED, settings=", ".join(words), games=games)
    history.log(
        event=locked,
        user=user,
        action=ACTION,
        summary=summary,
        reason=reason,
        before=before,
        after=after,
    )
    event.ruleset = locked.ruleset
    event._rules = None
    for name in RESULTS_SETTINGS:
        setattr(event, name, getattr(locked, name))
    return RulesPreview(settings=settings, games=games, finished=finished, changes=changes)
