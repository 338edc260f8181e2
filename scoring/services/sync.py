"""Re-derive a hanchan's cached rows from its facts by replaying it with the engine.

Called inside every service transaction after the facts change, so the cached columns (hand round,
dealer, honba, sticks, deltas, scores; per-seat hand rows; seat results) can never drift from the hands.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils import timezone

from league.models import Hanchan
from scoring import engine
from scoring.models import Hand, HandSeat, SeatResult, Win
from scoring.ratings import schedule_rebuild
from scoring.records import chombo_penalties_by_seat, engine_hand, penalty_points, stored_hands

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


def _write_hands(
    hanchan: Hanchan, played: engine.Replay, stored: list[tuple[Hand, list[Win]]], rules: engine.Ruleset
) -> None:
    players = _players_by_seat(hanchan)
    seat_rows: list[HandSeat] = []
    changed_wins: list[Win] = []
    for (row, wins), outcome in zip(stored, played.hands, strict=True):
        row.round_name, row.dealer, row.honba, row.sticks = (
            outcome.round,
            outcome.dealer,
            outcome.honba,
            outcome.sticks,
        )
        row.deltas, row.scores = list(outcome.deltas), list(outcome.scores)
        tsumo = row.result == Hand.Result.TSUMO
        won: dict[int, int] = {}
        for win in wins:
            win.points = engine.hand_points(
                engine.HandValue(win.han, win.fu, win.yakuman),
                dealer=win.winner == outcome.dealer,
                tsumo=tsumo,
                rules=rules,
            )
            won[win.winner] = win.points
            changed_wins.append(win)
        for seat in range(4):
            seat_rows.append(
                HandSeat(
                    hand=row,
                    hanchan=hanchan,
                    seat=seat,
                    player_id=players[seat],
                    delta=outcome.deltas[seat],
                    riichi=seat in row.riichi,
                    won=seat in won,
                    tsumo=tsumo and seat in won,
                    dealt_in=row.result == Hand.Result.RON and row.loser == seat,
                    at_draw=row.result == Hand.Result.DRAW,
                    tenpai=seat in (row.tenpai or ()),
                    chombo=row.result == Hand.Result.CHOMBO and row.chombo_seat == seat,
                    win_points=won.get(seat, 0),
                    deal_in_points=sum(won.values())
                    if row.result == Hand.Result.RON and row.loser == seat
                    else 0,
                )
            )
    rows = [row for row, _ in stored]
    Hand.objects.bulk_update(rows, ["round_name", "dealer", "honba", "sticks", "deltas", "scores"])
    Win.objects.bulk_update(changed_wins, ["points"])
    HandSeat.objects.filter(hanchan=hanchan).delete()
    HandSeat.objects.bulk_create(seat_rows)


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
    results = list(final.results)
    event = hanchan.event
    if event.substitute_credit == event.SubstituteCredit.FIXED:
        # A substitute's game counts for the replaced player as a fixed result, whatever was played.
        for seat in hanchan.seats.filter(on_behalf_of__isnull=False).values_list("seat", flat=True):
            results[seat] = event.substitute_fixed_result
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
