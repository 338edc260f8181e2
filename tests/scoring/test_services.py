"""Services on a real database: every write replays the game, validates it and leaves history."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from league.models import Hanchan
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow
from scoring.models import HandSeat, HistoryEntry, Penalty, SeatResult
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

KEY = "form-key-0001"  # the random key of one rendered entry form (scoring.forms.EntryKeyField)


@pytest.fixture
def game(event, players, organiser):
    return services.start_game(event=event, players=players[:4], user=organiser)


def test_start_game_needs_four_different_registered_players(event, players, organiser, club):
    with pytest.raises(ValidationError, match="only one seat"):
        services.start_game(event=event, players=[players[0]] * 4, user=organiser)
    with pytest.raises(ValidationError, match="four players"):
        services.start_game(event=event, players=players[:3], user=organiser)
    other = make_event(club, slug="other")
    with pytest.raises(ValidationError, match="Not registered"):
        services.start_game(event=other, players=players[:4], user=organiser)
    assert Hanchan.objects.count() == 0


def test_record_hand_derives_round_honba_sticks_and_scores(game, organiser):
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40), riichi=(0,)), user=organiser)
    row = HandRow.objects.get(hanchan=game, number=1)
    assert (row.round_name, row.dealer, row.honba, row.sticks) == ("E1", 0, 0, 0)
    assert row.deltas == [7700, 0, -7700, 0]
    assert row.scores == [37700, 30000, 22300, 30000]
    services.record_hand(hanchan=game, hand=Hand.draw((1, 3), riichi=(3,)), user=organiser)
    second = HandRow.objects.get(hanchan=game, number=2)
    assert (second.round_name, second.dealer, second.honba) == ("E1", 0, 1)  # the dealer won: renchan
    seats = HandSeat.objects.filter(hanchan=game)
    assert seats.count() == 8
    assert seats.get(hand=row, seat=0).won and seats.get(hand=row, seat=2).dealt_in
    assert seats.get(hand=row, seat=2).deal_in_points == 7700
    assert game.version == 2
    assert HistoryEntry.objects.filter(hanchan=game, action="hand recorded").count() == 2


def test_illegal_hand_is_rejected_with_the_rule_and_nothing_saved(game, organiser):
    with pytest.raises(ValidationError) as caught:
        services.record_hand(hanchan=game, hand=Hand.ron(1, Win(0, 1, 25)), user=organiser)
    assert "fu 25 needs at least 2 han on a ron" in str(caught.value)
    assert caught.value.message_dict == {"fu": ["hand 1: fu 25 needs at least 2 han on a ron"]}
    assert HandRow.objects.count() == 0
    game.refresh_from_db()
    assert game.version == 0


def test_stale_version_is_refused_and_nothing_saved(game, organiser):
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=0)
    with pytest.raises(services.GameChanged):
        services.record_hand(hanchan=game, hand=Hand.draw((1,)), user=organiser, expected_version=0)
    assert HandRow.objects.filter(hanchan=game).count() == 1


def test_resubmitted_hand_is_already_saved_not_a_conflict(game, organiser):
    """A double tap posts the same hand at the same version twice: the second finds it saved."""
    hand = Hand.ron(2, Win(0, 3, 40), riichi=(2, 0))
    first = services.record_hand(hanchan=game, hand=hand, user=organiser, expected_version=0, entry_key=KEY)
    assert first.already_saved is False
    stale = Hanchan.objects.get(pk=game.pk)
    stale.version = 0  # the second request loaded the game before the first one saved
    again = services.record_hand(
        hanchan=stale,
        hand=Hand.ron(2, Win(0, 3, 40), riichi=(0, 2)),
        user=organiser,
        expected_version=0,
        entry_key=KEY,
    )
    assert again.already_saved is True and again.pk == first.pk
    assert stale.version == 1
    assert HandRow.objects.filter(hanchan=game).count() == 1
    assert HistoryEntry.objects.filter(hanchan=game, action="hand recorded").count() == 1
    assert Hanchan.objects.get(pk=game.pk).version == 1
    # A different hand at that stale version is still a conflict.
    with pytest.raises(services.GameChanged):
        services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=0)
    assert HandRow.objects.filter(hanchan=game).count() == 1


def test_resubmitted_last_hand_of_a_game_is_already_saved(game, organiser):
    """The hand that ended the game finished it too (one version step): resent, it is still saved once."""
    for version in range(8):
        key = f"form-key-{version:04d}"
        services.record_hand(
            hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=version, entry_key=key
        )
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED and game.version == 8
    again = services.record_hand(
        hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=7, entry_key="form-key-0007"
    )
    assert again.already_saved is True and again.number == 8
    assert HandRow.objects.filter(hanchan=game).count() == 8


def test_resubmission_is_recognised_whatever_language_the_first_was_saved_in(game, organiser):
    """The resubmission check reads the form's key, not words: a hand saved from a French page and resent
    from a Polish one is still the same hand."""
    from django.utils import translation

    with translation.override("fr"):
        for version in range(8):  # the 8th exhaustive draw ends the game and finishes it
            key = f"form-key-{version:04d}"
            services.record_hand(
                hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=version, entry_key=key
            )
    with translation.override("pl"):
        again = services.record_hand(
            hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=7, entry_key="form-key-0007"
        )
    assert again.already_saved is True and again.number == 8


def test_the_forms_key_is_what_recognises_a_resent_hand(game, organiser):
    """The same hand at the same version from another form (another key, or none) is a conflict: two
    phones that saw the same page are told the game changed. The same form sent again is "already saved",
    however late it arrives and whatever was entered since."""
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=0, entry_key=KEY)
    for other_form in ("form-key-0002", ""):
        with pytest.raises(services.GameChanged):
            services.record_hand(
                hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=0, entry_key=other_form
            )
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser, expected_version=1)
    late = services.record_hand(
        hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=0, entry_key=KEY
    )
    assert late.already_saved and late.number == 1
    assert HandRow.objects.filter(hanchan=game).count() == 2
    # The key is the form's, not the hand's: a resent form is known by it even if what it holds differs
    # (a browser that restored other boxes), and a hand is never saved twice for one form.
    again = services.record_hand(
        hanchan=game, hand=Hand.tsumo(Win(1, 2, 30)), user=organiser, expected_version=0, entry_key=KEY
    )
    assert again.already_saved and again.pk == late.pk
    with pytest.raises(ValidationError) as info:
        services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, entry_key="x" * 41)
    assert "entry_key" in info.value.message_dict
    assert HandRow.objects.filter(hanchan=game).count() == 2


def test_same_hand_after_a_finish_by_hand_is_a_conflict(game, organiser):
    """One change since the page, but it was the organiser finishing the game, not this hand being saved:
    the hand sent again is not a resubmission, whatever the two finish summaries say."""
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=0)
    services.finish_game(hanchan=game, user=organiser, reason="time", expected_version=1)
    with pytest.raises(services.GameChanged):
        services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=1)


def test_same_hand_after_another_change_is_a_conflict(game, organiser):
    """The version moved on by an undo, not by this hand: the same hand again is not a resubmission."""
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=0)
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=1)
    services.undo_last_hand(hanchan=game, user=organiser, reason="entered twice", expected_version=2)
    with pytest.raises(services.GameChanged):
        services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=2)
    # Two steps behind is a conflict too, even though the last hand is the same.
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=3)
    with pytest.raises(services.GameChanged):
        services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser, expected_version=2)
    assert HandRow.objects.filter(hanchan=game).count() == 2


def test_correct_hand_replays_later_hands(game, organiser):
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)  # dealer stays
    services.record_hand(hanchan=game, hand=Hand.tsumo(Win(1, 1, 30)), user=organiser)
    assert HandRow.objects.get(hanchan=game, number=2).honba == 1
    services.correct_hand(
        hanchan=game, number=1, hand=Hand.ron(0, Win(2, 3, 40)), user=organiser, reason="wrong winner"
    )
    second = HandRow.objects.get(hanchan=game, number=2)
    assert (second.round_name, second.dealer, second.honba) == ("E2", 1, 0)
    # Bob is now the dealer: a 1-30 dealer tsumo is 500 all.
    assert second.deltas == [-500, 1500, -500, -500]
    entry = HistoryEntry.objects.get(hanchan=game, action="hand corrected")
    assert entry.reason == "wrong winner" and entry.before["wins"][0]["winner"] == 0


def test_correction_that_breaks_a_later_hand_is_refused(club, organiser):
    event = make_event(club, "tenhou", slug="tenhou-league")
    from league.models import Player, Registration

    ps = [Player.objects.create(display_name=f"T{i}", club=club) for i in range(4)]
    for p in ps:
        Registration.objects.create(event=event, player=p)
    game = services.start_game(event=event, players=ps, user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(3, Win(0, 3, 30)), user=organiser)
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser)
    with pytest.raises(ValidationError, match="hand 2: the game already ended after hand 1"):
        services.correct_hand(
            hanchan=game,
            number=1,
            hand=Hand.ron(3, Win(0, yakuman=1)),
            user=organiser,
            reason="it was a yakuman",
        )
    assert HandRow.objects.get(hanchan=game, number=1).deltas == [5800, 0, 0, -5800]


def test_game_finishes_automatically_and_results_are_cached(game, organiser):
    # Seven non-dealer draws (no tenpai) rotate the deal to S4; the eighth ends the game.
    for _ in range(8):
        services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    results = list(SeatResult.objects.filter(hanchan=game).order_by("seat"))
    assert [r.place for r in results] == [1, 1, 1, 1]
    assert sum(r.result for r in results) == 0
    with pytest.raises(ValidationError, match="finished"):
        services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser)


def test_undo_removes_the_last_hand_with_a_reason(game, organiser):
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    services.record_hand(hanchan=game, hand=Hand.draw((1,)), user=organiser)
    services.undo_last_hand(hanchan=game, user=organiser, reason="entered the draw twice")
    assert list(HandRow.objects.filter(hanchan=game).values_list("number", flat=True)) == [1]
    entry = HistoryEntry.objects.get(hanchan=game, action="hand undone")
    assert entry.reason == "entered the draw twice" and entry.before == {"result": "draw", "tenpai": [1]}
    assert game.version == 3


def test_undo_needs_a_reason(game, organiser):
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser)
    with pytest.raises(ValidationError) as caught:
        services.undo_last_hand(hanchan=game, user=organiser, reason="  ")
    assert "Say why the last hand is undone" in caught.value.message_dict["reason"][0]
    assert HandRow.objects.filter(hanchan=game).count() == 1
    assert not HistoryEntry.objects.filter(action="hand undone").exists()


def test_undo_is_refused_on_a_finished_game(game, organiser):
    """Undoing would take a finished game out of the standings without anyone deciding so."""
    for _ in range(8):
        services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser)
    game.refresh_from_db()
    version = game.version
    with pytest.raises(ValidationError, match="This game is finished: reopen it first"):
        services.undo_last_hand(hanchan=game, user=organiser, reason="wrong hand")
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED and game.version == version
    assert SeatResult.objects.filter(hanchan=game).count() == 4
    assert HandRow.objects.filter(hanchan=game).count() == 8
    # Reopened (a decision with its own reason), the hand can go.
    services.reopen_game(hanchan=game, user=organiser, reason="last hand was wrong")
    services.undo_last_hand(hanchan=game, user=organiser, reason="wrong hand")
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS
    assert not SeatResult.objects.filter(hanchan=game).exists()
    assert HandRow.objects.filter(hanchan=game).count() == 7


def test_early_finish_needs_a_reason(game, organiser):
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    with pytest.raises(ValidationError, match="has not reached its end"):
        services.finish_game(hanchan=game, user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    assert [r.result for r in SeatResult.objects.filter(hanchan=game).order_by("seat")] == [
        22700,
        0,
        -22700,
        0,
    ]


def test_chombo_deduction_reaches_results(game, organiser):
    services.record_hand(hanchan=game, hand=Hand.chombo(2), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    results = {r.seat: r for r in SeatResult.objects.filter(hanchan=game)}
    assert results[2].penalties == -20000 and results[2].chombos == 1
    assert sum(r.result for r in results.values()) == -20000


def test_final_scores_must_sum_to_the_expected_total(event, players, organiser):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    with pytest.raises(ValidationError, match="must sum to 119000"):
        services.record_final_scores(
            hanchan=game, scores=[40000, 30000, 30000, 20000], sticks=1, user=organiser
        )
    assert not SeatResult.objects.exists()
    services.record_final_scores(hanchan=game, scores=[40000, 30000, 29000, 20000], sticks=1, user=organiser)
    results = {r.seat: r for r in SeatResult.objects.filter(hanchan=game)}
    assert results[0].score == 41000  # the leftover stick goes to first place
    assert results[0].result == 41000 - 30000 + 15000


def test_penalty_in_a_game_and_its_cancellation(game, organiser, players, event):
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time limit")
    penalty = services.add_penalty(
        event=event, player=players[1], points=-5000, reason="slow play", user=organiser, hanchan=game
    )
    assert SeatResult.objects.get(hanchan=game, seat=1).penalties == -5000
    with pytest.raises(ValidationError):
        services.add_penalty(event=event, player=players[1], points=5000, reason="x", user=organiser)
    services.cancel_penalty(penalty=penalty, user=organiser, reason="appeal upheld")
    assert SeatResult.objects.get(hanchan=game, seat=1).penalties == 0
    assert Penalty.objects.filter(pk=penalty.pk, cancelled=True).exists()


def test_void_and_reopen(game, organiser):
    services.record_hand(hanchan=game, hand=Hand.draw(()), user=organiser)
    services.finish_game(hanchan=game, user=organiser, reason="time")
    services.void_game(hanchan=game, user=organiser, reason="wrong players")
    assert not SeatResult.objects.filter(hanchan=game).exists()
    services.reopen_game(hanchan=game, user=organiser, reason="players were right")
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS
    actions = list(HistoryEntry.objects.filter(hanchan=game).values_list("action", flat=True))
    assert {"game voided", "game reopened", "game finished"} <= set(actions)


# -- final scores: a correction of a finished game needs a reason and shows what changed -----------------


@pytest.fixture
def paper_game(event, players, organiser):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    return game


def test_correcting_the_final_scores_of_a_finished_game_needs_a_reason(paper_game, organiser):
    for reason in ("", "   "):
        with pytest.raises(ValidationError) as info:
            services.record_final_scores(
                hanchan=paper_game, scores=[32000, 40000, 28000, 20000], user=organiser, reason=reason
            )
        assert "reason" in info.value.message_dict
    assert [s.final_score for s in paper_game.seats.order_by("seat")] == [40000, 32000, 28000, 20000]
    assert SeatResult.objects.get(hanchan=paper_game, seat=0).score == 40000
    assert not HistoryEntry.objects.filter(action="final scores corrected").exists()

    services.record_final_scores(
        hanchan=paper_game, scores=[32000, 40000, 28000, 20000], user=organiser, reason="slips swapped"
    )
    entry = HistoryEntry.objects.get(action="final scores corrected")
    assert entry.reason == "slips swapped"
    assert entry.before["scores"] == [40000, 32000, 28000, 20000]
    assert entry.after["scores"] == [32000, 40000, 28000, 20000]
    assert "scores: 40000/32000/28000/20000 → 32000/40000/28000/20000" in entry.summary
    # Saving the same values again corrects nothing: no reason is asked for.
    services.record_final_scores(hanchan=paper_game, scores=[32000, 40000, 28000, 20000], user=organiser)


def test_changing_only_the_chombos_of_a_finished_game_needs_a_reason_too(paper_game, organiser):
    with pytest.raises(ValidationError) as info:
        services.record_final_scores(
            hanchan=paper_game, scores=[40000, 32000, 28000, 20000], chombos=[0, 1, 0, 0], user=organiser
        )
    assert "reason" in info.value.message_dict
    assert not Penalty.objects.exists()


def test_a_chombo_correction_shows_the_counts_and_penalties_before_and_after(paper_game, organiser):
    services.record_final_scores(
        hanchan=paper_game,
        scores=[40000, 32000, 28000, 20000],
        chombos=[0, 1, 0, 0],
        user=organiser,
        reason="chombo forgotten",
    )
    entry = HistoryEntry.objects.get(action="final scores corrected")
    assert entry.before["chombos"] == [0, 0, 0, 0] and entry.after["chombos"] == [0, 1, 0, 0]
    assert entry.before["chombo_penalties"] == [0, 0, 0, 0]
    assert entry.after["chombo_penalties"] == [0, -20000, 0, 0]
    assert entry.before != entry.after
    assert "chombos: 0/0/0/0 → 0/1/0/0" in entry.summary
    assert "chombo penalties: 0/0/0/0 → 0/-20000/0/0" in entry.summary
    assert "scores" not in entry.summary  # unchanged


def test_a_first_entry_with_chombos_says_so(event, players, organiser):
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(
        hanchan=game, scores=[40000, 32000, 28000, 20000], chombos=[0, 0, 2, 0], user=organiser
    )
    entry = HistoryEntry.objects.get(action="final scores entered")
    assert entry.after["chombos"] == [0, 0, 2, 0] and entry.after["chombo_penalties"] == [0, 0, -40000, 0]
    assert "chombos: 0/0/0/0 → 0/0/2/0" in entry.summary
