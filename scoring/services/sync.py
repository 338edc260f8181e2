"""Re-derive a hanchan's cached rows from its facts by replaying it with the engine.

Called inside every service transaction after the facts change, so the cached columns (hand round,
dealer, honba, sticks, deltas, scores; per-seat hand rows; seat results) can never drift from the hands.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Case, Q, Value, When
from django.utils import timezone

from league.models import Hanchan
from scoring import engine
from scoring.models import Hand, HandSeat, SeatResult, Win
from scoring.ratings import schedule_rebuild
from scoring.records import chombo_penalties_by_seat, engine_hand, penalty_points, stored_hands
from scoring.substitutes import credited_result

from .errors import as_validation_error


def replay_stored(hanchan: Hanchan) -> tuple[engine.Replay, list[tuple[Hand, list[Win]]]]:
    """Replay the stored hands; a ValidationError names the hand and rule if they are not legal."""
    stored = stored_hands(hanchan)
    try:
        played = engine.replay([engine_hand(row, wins) for row, wins in stored], hanchan.event.rules)
    except engine.EngineError as exc:
        raise as_validation_error(exc, hanchan=hanchan) from None
    return played, stored


def refresh(hanchan: Hanchan) -> engine.Replay | None:
    """Rewrite every cached row of the hanchan; returns the replay for hand-by-hand games."""
    rules = hanchan.event.rules
    played: engine.Replay | None = None
    if hanchan.entry_mode == Hanchan.EntryMode.HANDS:
        played, stored = replay_stored(hanchan)
        _write_hands(hanchan, played, stored, rules)
    refresh_results(hanchan, played)
    return played


def refresh_results(hanchan: Hanchan, played: engine.Replay | None) -> None:
    """Rewrite the game's seat results only, from a replay of its current hands (``None`` for a game
    entered as final scores): for a change of status, where the hands' cached rows are already right."""
    _write_results(hanchan, played, hanchan.event.rules)
    # After the commit, once per transaction: ratings from this game on (scoring/ratings.py says why).
    schedule_rebuild(hanchan)


def _players_by_seat(hanchan: Hanchan) -> dict[int, int]:
    return {s.seat: s.on_behalf_of_id or s.player_id for s in hanchan.seats.all()}


# The cached columns of a hand that the replay derives (the facts — result, seats, wins — are entered).
_DERIVED = ("round_name", "dealer", "honba", "sticks", "deltas", "scores")


def _write_hands(
    hanchan: Hanchan, played: engine.Replay, stored: list[tuple[Hand, list[Win]]], rules: engine.Ruleset
) -> None:
    """Bring the hands' cached rows in line with ``played``, writing only the rows that differ.

    A hand's derived values depend only on the hands before it, so a new hand changes only itself and a
    correction of hand k only hands k onward: comparing the replay with what is stored keeps the cost
    of an entry independent of the game's length (rewriting every hand made the 4 000th hand of a game
    take 12 s). A freshly written hand never matches (its round is still empty), so it always gets its
    derived values and its per-seat rows.
    """
    players = _players_by_seat(hanchan)
    changed: list[Hand] = []
    changed_wins: list[Win] = []
    seat_rows: list[HandSeat] = []
    for (row, wins), outcome in zip(stored, played.hands, strict=True):
        derived = (
            outcome.round,
            outcome.dealer,
            outcome.honba,
            outcome.sticks,
            list(outcome.deltas),
            list(outcome.scores),
        )
        tsumo = row.result == Hand.Result.TSUMO
        won: dict[int, int] = {}
        wins_differ = False
        for win in wins:
            points = engine.hand_points(
                engine.HandValue(win.han, win.fu, win.yakuman),
                dealer=win.winner == outcome.dealer,
                tsumo=tsumo,
                rules=rules,
            )
            if win.points != points:
                win.points = points
                changed_wins.append(win)
                wins_differ = True
            won[win.winner] = points
        if not wins_differ and tuple(getattr(row, name) for name in _DERIVED) == derived:
            continue
        for name, value in zip(_DERIVED, derived, strict=True):
            setattr(row, name, value)
        changed.append(row)
        seat_rows.extend(_seat_rows(hanchan, row, players, won, tsumo))
    if changed:
        Hand.objects.bulk_update(changed, list(_DERIVED))
        HandSeat.objects.filter(hand__in=[row.pk for row in changed]).delete()
        HandSeat.objects.bulk_create(seat_rows)
    if changed_wins:
        Win.objects.bulk_update(changed_wins, ["points"])
    # A seat's player may have changed (a swap, a substitute): one statement, usually matching no row.
    if players:
        seated = Q()
        for seat, player_id in players.items():
            seated |= Q(seat=seat, player_id=player_id)
        HandSeat.objects.filter(hanchan=hanchan).exclude(seated).update(
            player_id=Case(*(When(seat=seat, then=Value(p)) for seat, p in players.items()))
        )


def _seat_rows(
    hanchan: Hanchan, row: Hand, players: dict[int, int], won: dict[int, int], tsumo: bool
) -> list[HandSeat]:
    """The four per-seat rows of one hand (what the statistics read), from its facts and replay."""
    ron_loser = row.loser if row.result == Hand.Result.RON else None
    return [
        HandSeat(
            hand=row,
            hanchan=hanchan,
            seat=seat,
            player_id=players[seat],
            delta=row.deltas[seat],
            riichi=seat in row.riichi,
            won=seat in won,
            tsumo=tsumo and seat in won,
            dealt_in=ron_loser == seat,
            at_draw=row.result == Hand.Result.DRAW,
            tenpai=seat in (row.tenpai or ()),
            chombo=row.result == Hand.Result.CHOMBO and row.chombo_seat == seat,
            win_points=won.get(seat, 0),
            deal_in_points=sum(won.values()) if ron_loser == seat else 0,
        )
        for seat in range(4)
    ]


def final_result(hanchan: Hanchan, played: engine.Replay | None) -> engine.FinalResult | None:
    """The game's final result as the engine computes it now (None if it cannot be computed yet)."""
    rules = hanchan.event.rules
    extra = penalty_points(hanchan)
    if hanchan.entry_mode == Hanchan.EntryMode.HANDS:
        if played is None:
            played, _ = replay_stored(hanchan)
        if not played.hands:
            return None
        return played.final(extra)
    scores = [s.final_score for s in sorted(hanchan.seats.all(), key=lambda s: s.seat)]
    if len(scores) != 4 or any(score is None for score in scores):
        return None
    return engine.final_result(scores, hanchan.final_sticks, extra, rules)  # type: ignore[arg-type]


def _write_results(hanchan: Hanchan, played: engine.Replay | None, rules: engine.Ruleset) -> None:
    SeatResult.objects.filter(hanchan=hanchan).delete()
    if hanchan.status != Hanchan.Status.FINISHED:
        return
    final = final_result(hanchan, played)
    if final is None:
        raise ValidationError("A game needs at least one hand (or four final scores) to be finished.")
    players = _players_by_seat(hanchan)
    chombos = [0, 0, 0, 0]
    for seat in hanchan.hands.filter(result=Hand.Result.CHOMBO).values_list("chombo_seat", flat=True):
        chombos[seat] += 1
    for seat, count in enumerate(chombo_penalties_by_seat(hanchan)):
        chombos[seat] += count
    finished_at = hanchan.finished_at or timezone.now()
    event = hanchan.event
    substituted: set[int] = set()
    if event.substitute_credit == event.SubstituteCredit.FIXED:  # the query is needed only then
        substituted = set(hanchan.seats.filter(on_behalf_of__isnull=False).values_list("seat", flat=True))
    results = [
        credited_result(event, played=played, substitute=seat in substituted)
        for seat, played in enumerate(final.results)
    ]
    SeatResult.objects.bulk_create(
        [
            SeatResult(
                hanchan=hanchan,
                event_id=hanchan.event_id,
                seat=seat,
                player_id=players[seat],
                score=final.scores[seat],
                place=final.places[seat],
                uma=final.uma[seat],
                oka=final.oka[seat],
                penalties=final.penalties[seat],
                result=results[seat],
                chombos=chombos[seat],
                finished_at=finished_at,
            )
            for seat in range(4)
        ]
    )
