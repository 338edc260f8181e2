"""Tables enter their own games: the link services (tournaments/links.py), rule by rule.

The fixtures here (a seated tournament, its open round, a full game's hands) are shared with the table
pages' and the round page's tests, which import them.
"""

from __future__ import annotations

import itertools

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Event, Hanchan, HistoryEntry, Player, Registration
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import SeatResult
from tests.conftest import make_event
from tournaments import links, rounds
from tournaments.models import CODE_ALPHABET, Round, SeatConfirmation, TableLink
from tournaments.services import seat_tournament

pytestmark = pytest.mark.django_db

IP = "203.0.113.7"
KEY = "form-key-0001"  # the random key of one rendered entry form (scoring.forms.EntryKeyField)


# -- fixtures shared with test_table_pages.py and test_rounds.py ------------------------------------------


def make_tournament(club, organiser, *, players: int = 8, rounds_: int = 2, slug: str = "lyon-open", **day):
    """A tournament of ``players`` registered players seated for ``rounds_`` rounds (players / 4 tables
    a round), with the tournament-day settings ``day`` (table_entry_mode, confirmation…)."""
    event = make_event(club, slug=slug)
    event.kind = Event.Kind.TOURNAMENT
    for name, value in day.items():
        setattr(event, name, value)
    event.save()
    for i in range(players):
        player = Player.objects.create(display_name=f"{slug} player {i + 1}", club=club)
        Registration.objects.create(event=event, player=player)
    seat_tournament(event=event, rounds=rounds_, user=organiser)
    return event


def table_of(event, number: int = 1, table: int = 1) -> Hanchan:
    return Hanchan.objects.select_related("event").get(event=event, round_number=number, table_number=table)


def link_of(game: Hanchan) -> TableLink:
    return TableLink.objects.select_related("hanchan__event").get(hanchan=game, revoked_at__isnull=True)


def full_game() -> list[Hand]:
    """Eight hands, each won by the player after the dealer: the game ends after South 4."""
    hands = []
    for k in range(8):
        dealer = k % 4
        hands.append(Hand.ron((dealer + 2) % 4, Win((dealer + 1) % 4, 1, 30)))
    return hands


ONE_HAND = Hand.ron(2, Win(0, 3, 40))


def _confirming(event, how: str):
    event.confirmation = how
    event.save(update_fields=["confirmation"])
    return event


# -- issuing links -----------------------------------------------------------------------------------------


def test_opening_a_round_gives_each_table_a_link_with_four_distinct_seat_codes(tournament, organiser):
    assert not TableLink.objects.exists()
    rounds.open_round(event=tournament, number=1, user=organiser)
    made = TableLink.objects.filter(hanchan__event=tournament)
    assert sorted(made.values_list("hanchan__table_number", flat=True)) == [1, 2]
    assert not made.filter(hanchan__round_number=2).exists()  # only the round opened
    for link in made:
        codes = [c.code for c in link.confirmations.all()]
        assert len(codes) == 4 and len(set(codes + [link.code])) == 5
        assert all(ch in CODE_ALPHABET for ch in link.code) and len(link.token) >= 32
        assert link.created_by == organiser
    assert HistoryEntry.objects.filter(event=tournament, action=links.ACTION_ISSUED).count() == 2


def test_issuing_again_keeps_the_links_and_aligns_untouched_games_to_the_event_entry_mode(
    tournament, organiser
):
    game = table_of(tournament)
    assert game.entry_mode == Hanchan.EntryMode.FINAL_SCORES  # as the seating creates it
    first = links.issue_links(event=tournament, number=1, user=organiser)
    game.refresh_from_db()
    assert game.entry_mode == Hanchan.EntryMode.HANDS  # the event's tables enter hand by hand
    assert HistoryEntry.objects.filter(hanchan=game, action=links.ACTION_MODE).count() == 1
    assert links.issue_links(event=tournament, number=1, user=organiser) == []
    assert TableLink.objects.filter(hanchan__event=tournament).count() == len(first) == 2


def test_final_scores_events_keep_final_score_games_and_played_games_keep_their_mode(club, organiser):
    event = make_tournament(club, organiser, table_entry_mode="final")
    links.issue_links(event=event, number=1, user=organiser)
    assert set(Hanchan.objects.filter(event=event, round_number=1).values_list("entry_mode", flat=True)) == {
        Hanchan.EntryMode.FINAL_SCORES
    }
    game = table_of(event, 2)
    services.record_final_scores(hanchan=game, scores=[45000, 35000, 25000, 15000], user=organiser)
    event.table_entry_mode = "hands"
    event.save()
    links.issue_links(event=event, number=2, user=organiser)
    game.refresh_from_db()
    assert game.entry_mode == Hanchan.EntryMode.FINAL_SCORES  # it has scores: never switched under them


def test_no_links_when_the_event_does_not_let_tables_enter(club, organiser):
    event = make_tournament(club, organiser, table_entry=False)
    rounds.open_round(event=event, number=1, user=organiser)
    assert not TableLink.objects.exists()
    with pytest.raises(ValidationError) as info:
        links.issue_links(event=event, number=1, user=organiser)
    assert "table_entry" in info.value.message_dict


# -- what a token opens ----------------------------------------------------------------------------------


def test_a_token_opens_its_own_game_only_while_its_round_is_open(tournament, organiser):
    links.issue_links(event=tournament, number=1, user=organiser)
    link = link_of(table_of(tournament))
    with pytest.raises(links.LinkRefused) as info:
        links.resolve(link.token)
    assert (info.value.status, info.value.reason) == (403, "not_open")
    rounds.open_round(event=tournament, number=1, user=organiser)
    access = links.resolve(link.token)
    assert access.game == table_of(tournament) and access.round.number == 1 and access.via == "table 1 (link)"
    rounds.close_round(event=tournament, number=1, user=organiser)
    with pytest.raises(links.LinkRefused) as info:
        links.resolve(link.token)
    assert (info.value.status, info.value.reason) == (410, "closed")
    assert "Round 1 is closed" in info.value.message


@pytest.mark.parametrize("token", ["", "nope", "x" * 65, "../../manage/", "%00", "a\x00b", "ÉTÉ"])
def test_unknown_tokens_are_refused_with_404(opened, token):
    with pytest.raises(links.LinkRefused) as info:
        links.resolve(token)
    assert (info.value.status, info.value.reason) == (404, "unknown")


def test_a_void_game_and_an_event_without_table_entry_are_refused(opened, organiser):
    game = table_of(opened)
    link = link_of(game)
    opened.table_entry = False
    opened.save()
    with pytest.raises(links.LinkRefused) as info:
        links.resolve(link.token)
    assert (info.value.status, info.value.reason) == (410, "no_table_entry")
    opened.table_entry = True
    opened.save()
    services.void_game(hanchan=game, user=organiser, reason="table broke up")
    with pytest.raises(links.LinkRefused) as info:
        links.resolve(link.token)
    assert info.value.reason == "void"


def test_a_revoked_link_is_refused_at_once_even_for_an_entry_already_on_its_way(opened, organiser):
    game = table_of(opened)
    link = link_of(game)
    links.resolve(link.token)  # the page was loaded with it
    links.revoke_link(hanchan=game, user=organiser)
    with pytest.raises(links.LinkRefused) as info:
        links.enter_hand(link=link, hand=ONE_HAND, ip=IP, expected_version=game.version)
    assert (info.value.status, info.value.reason) == (410, "revoked")
    assert not game.hands.exists()
    with pytest.raises(links.LinkRefused):
        links.resolve(link.token)


def test_reissuing_revokes_the_old_link_and_codes_and_keeps_a_referee_call(opened, organiser):
    game = table_of(opened)
    old = link_of(game)
    old_codes = set(old.confirmations.values_list("code", flat=True))
    links.call_referee(link=old, note="wrong wind", ip=IP)
    new = links.reissue_link(hanchan=game, user=organiser)
    assert new.token != old.token and new.code != old.code
    assert not old_codes & set(new.confirmations.values_list("code", flat=True))
    assert new.referee_called_at is not None and new.referee_note == "wrong wind"
    with pytest.raises(links.LinkRefused):
        links.resolve(old.token)
    assert links.resolve(new.token).game == game
    assert links.find_by_code(old.code) is None and links.find_by_code(new.code) == new


def test_find_by_code_reads_a_typed_code_leniently(opened):
    link = link_of(table_of(opened))
    typed = f" {link.code[:3].lower()}-{link.code[3:]} "
    assert links.find_by_code(typed) == link
    assert links.find_by_code("") is None and links.find_by_code("A" * 40) is None


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(token=st.text(max_size=80))
def test_no_token_but_the_real_one_opens_a_game(opened, token):
    """Whatever a guesser sends, it opens nothing (and never raises anything but the refusal)."""
    real = set(TableLink.objects.values_list("token", flat=True))
    if token in real:
        return
    with pytest.raises(links.LinkRefused):
        links.resolve(token)
    found = links.find_by_code(token)
    assert found is None or found.code == links.normalise_code(token)


# -- entering through a link -------------------------------------------------------------------------------


def test_every_change_through_a_link_is_in_the_history_as_the_table_with_its_ip(opened):
    game = table_of(opened)
    link = link_of(game)
    row = links.enter_hand(link=link, hand=ONE_HAND, ip=IP, expected_version=game.version)
    assert row.number == 1 and not row.already_saved
    entry = HistoryEntry.objects.get(hanchan=game, action="hand recorded")
    assert (entry.via, entry.ip, entry.user) == ("table 1 (link)", IP, None)
    links.undo_hand(link=link, reason="wrong winner", ip=IP)
    undone = HistoryEntry.objects.get(hanchan=game, action="hand undone")
    assert (undone.via, undone.ip, undone.reason) == ("table 1 (link)", IP, "wrong winner")
    # and the organiser's own changes are not marked as the table's
    services.record_hand(hanchan=game, hand=ONE_HAND, user=None)
    last = HistoryEntry.objects.filter(hanchan=game, action="hand recorded").order_by("-pk").first()
    assert last.via == "" and last.ip is None


def test_a_double_submit_saves_one_hand_and_a_stale_page_is_a_conflict(opened):
    game = table_of(opened)
    link = link_of(game)
    version = game.version
    links.enter_hand(link=link, hand=ONE_HAND, ip=IP, expected_version=version, entry_key=KEY)
    again = links.enter_hand(link=link, hand=ONE_HAND, ip=IP, expected_version=version, entry_key=KEY)
    assert again.already_saved and game.hands.count() == 1
    other = Hand.ron(1, Win(3, 2, 30))
    with pytest.raises(services.GameChanged):
        links.enter_hand(link=link, hand=other, ip=IP, expected_version=version)
    assert game.hands.count() == 1


def test_a_link_enters_nothing_into_another_game(opened):
    """The link's game is the only one it writes to: the other table of the round is untouched."""
    mine, other = table_of(opened, 1, 1), table_of(opened, 1, 2)
    before = other.version
    links.enter_hand(link=link_of(mine), hand=ONE_HAND, ip=IP)
    other.refresh_from_db()
    assert other.version == before and not other.hands.exists() and mine.hands.count() == 1


def test_without_confirmation_the_last_hand_finishes_the_game_and_hands_it_in(opened):
    game = table_of(opened)
    link = link_of(game)
    for hand in full_game():
        links.enter_hand(link=link, hand=hand, ip=IP)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED and game.submitted_at is not None
    assert SeatResult.objects.filter(hanchan=game).count() == 4  # it counts
    with pytest.raises(ValidationError) as info:
        links.enter_hand(link=link, hand=ONE_HAND, ip=IP, expected_version=game.version)
    assert "handed in" in info.value.messages[0]


def test_the_same_last_hand_sent_twice_is_answered_as_saved_after_the_hand_in(opened):
    _confirming(opened, Event.Confirmation.ORGANISER)
    game = table_of(opened)
    link = link_of(game)
    *firsts, last = full_game()
    for hand in firsts:
        links.enter_hand(link=link, hand=hand, ip=IP)
    game.refresh_from_db()
    version = game.version
    links.enter_hand(link=link, hand=last, ip=IP, expected_version=version, entry_key=KEY)
    again = links.enter_hand(link=link, hand=last, ip=IP, expected_version=version, entry_key=KEY)
    assert again.already_saved and game.hands.count() == 8


def _result_writes(queries: CaptureQueriesContext) -> list[str]:
    """The statements that wrote (inserted, updated or deleted) cached seat results."""
    table = SeatResult._meta.db_table
    return [
        q["sql"] for q in queries if table in q["sql"] and not q["sql"].lstrip().upper().startswith("SELECT")
    ]


@pytest.mark.parametrize("how", [Event.Confirmation.ORGANISER, Event.Confirmation.PLAYERS])
def test_under_confirmation_the_last_hand_hands_the_game_in_without_finishing_it(
    opened, how, django_capture_on_commit_callbacks
):
    """The game waits in progress: it is never finished and reopened in the same transaction, which wrote
    four results only to delete them, queued a ratings rebuild for nothing and left "game finished" and
    "game reopened" entries nobody made."""
    _confirming(opened, how)
    game = table_of(opened)
    link = link_of(game)
    *firsts, last = full_game()
    for hand in firsts:
        links.enter_hand(link=link, hand=hand, ip=IP)
    seen = HistoryEntry.objects.filter(hanchan=game).count()
    version = Hanchan.objects.get(pk=game.pk).version
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks() as callbacks:
        links.enter_hand(link=link, hand=last, ip=IP, entry_key=KEY)
    added = HistoryEntry.objects.filter(hanchan=game).order_by("pk")[seen:]
    assert [e.action for e in added] == ["hand recorded", links.ACTION_HANDED_IN]
    assert _result_writes(queries) == [] and callbacks == []  # no results, no ratings rebuild
    game.refresh_from_db()
    assert (game.status, game.version) == (Hanchan.Status.IN_PROGRESS, version + 2)  # the hand, the hand-in
    links.confirm_game(hanchan=game, user=None)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED and SeatResult.objects.filter(hanchan=game).count() == 4
    assert HistoryEntry.objects.filter(hanchan=game, action="game reopened").count() == 0


def test_under_confirmation_final_scores_are_held_without_finishing_the_game(
    club, organiser, django_capture_on_commit_callbacks
):
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="organiser")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    seen = HistoryEntry.objects.filter(hanchan=game).count()
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks() as callbacks:
        links.enter_final_scores(link=link_of(game), scores=[45000, 35000, 25000, 15000], sticks=0, ip=IP)
    added = HistoryEntry.objects.filter(hanchan=game).order_by("pk")[seen:]
    assert [e.action for e in added] == ["final scores entered", links.ACTION_HANDED_IN]
    assert _result_writes(queries) == [] and callbacks == []
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS and game.finished_at is None


def test_an_early_end_needs_a_reason_and_hands_the_game_in(opened):
    game = table_of(opened)
    link = link_of(game)
    links.enter_hand(link=link, hand=ONE_HAND, ip=IP)
    with pytest.raises(ValidationError) as info:
        links.finish_game(link=link, reason=" ", ip=IP)
    assert "reason" in info.value.message_dict
    links.finish_game(link=link, reason="time limit", ip=IP)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED and game.submitted_at is not None
    handed = HistoryEntry.objects.get(hanchan=game, action=links.ACTION_HANDED_IN)
    assert (handed.via, handed.reason) == ("table 1 (link)", "time limit")


def test_under_organiser_confirmation_a_handed_in_game_waits_out_of_the_standings(opened, organiser):
    _confirming(opened, Event.Confirmation.ORGANISER)
    game = table_of(opened)
    link = link_of(game)
    for hand in full_game():
        links.enter_hand(link=link, hand=hand, ip=IP)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS and game.submitted_at is not None
    assert not SeatResult.objects.filter(hanchan=game).exists()  # not in the standings
    with pytest.raises(ValidationError):
        links.undo_hand(link=link, reason="oops", ip=IP)  # the table can no longer change it
    assert game.hands.count() == 8
    links.confirm_game(hanchan=game, user=organiser, event=opened)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    assert SeatResult.objects.filter(hanchan=game).count() == 4
    confirmed = HistoryEntry.objects.get(hanchan=game, action=links.ACTION_CONFIRMED)
    assert confirmed.user == organiser and confirmed.via == ""
    with pytest.raises(ValidationError):
        links.confirm_game(hanchan=game, user=organiser)  # already counts


def test_an_early_end_under_confirmation_keeps_the_tables_reason_for_the_organiser(opened, organiser):
    _confirming(opened, Event.Confirmation.ORGANISER)
    game = table_of(opened)
    link = link_of(game)
    links.enter_hand(link=link, hand=ONE_HAND, ip=IP)
    links.finish_game(link=link, reason="time limit", ip=IP)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS and game.submitted_at is not None
    links.confirm_game(hanchan=game, user=organiser)
    finished = HistoryEntry.objects.get(hanchan=game, action="game finished")
    assert "time limit" in finished.reason and finished.user == organiser


def test_the_organiser_cannot_confirm_a_game_not_handed_in(opened, organiser):
    game = table_of(opened)
    with pytest.raises(ValidationError) as info:
        links.confirm_game(hanchan=game, user=organiser)
    assert "not handed this game in" in info.value.messages[0]


def test_final_scores_through_a_link_under_organiser_confirmation(club, organiser):
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="organiser")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    with pytest.raises(ValidationError):  # the sum is checked by scoring's service
        links.enter_final_scores(link=link, scores=[45000, 35000, 25000, 14000], sticks=0, ip=IP)
    version = game.version
    assert links.enter_final_scores(
        link=link,
        scores=[45000, 35000, 25000, 15000],
        sticks=0,
        ip=IP,
        expected_version=version,
        entry_key=KEY,
    )
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS and game.submitted_at is not None
    assert list(game.seats.order_by("seat").values_list("final_score", flat=True)) == [
        45000,
        35000,
        25000,
        15000,
    ]
    # the same form sent twice is already saved; other scores are refused
    assert not links.enter_final_scores(
        link=link,
        scores=[45000, 35000, 25000, 15000],
        sticks=0,
        ip=IP,
        expected_version=version,
        entry_key=KEY,
    )
    with pytest.raises(ValidationError):
        links.enter_final_scores(link=link, scores=[15000, 25000, 35000, 45000], sticks=0, ip=IP)
    links.confirm_game(hanchan=game, user=organiser)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    results = SeatResult.objects.filter(hanchan=game).order_by("seat")
    assert [r.score for r in results] == [45000, 35000, 25000, 15000]


def test_players_confirm_with_their_own_codes_and_the_fourth_finishes_the_game(club, organiser):
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="players")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    codes = dict(link.confirmations.values_list("seat", "code"))
    with pytest.raises(ValidationError):  # nothing handed in yet
        links.confirm_by_player(link=link, code=codes[0], ip=IP)
    links.enter_final_scores(link=link, scores=[30000, 30000, 30000, 30000], sticks=0, ip=IP)
    with pytest.raises(ValidationError) as info:
        links.confirm_by_player(link=link, code=link.code, ip=IP)  # the table's code is no player's
    assert "code" in info.value.message_dict
    other = link_of(table_of(event, 1, 2))
    with pytest.raises(ValidationError):  # another table's player code confirms nothing here
        links.confirm_by_player(link=link, code=other.confirmations.get(seat=0).code, ip=IP)
    for seat in (0, 1, 2):
        made = links.confirm_by_player(link=link, code=codes[seat].lower(), ip=IP)
        assert made.seat == seat and not made.already
    assert links.confirm_by_player(link=link, code=codes[1], ip=IP).already
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS
    links.confirm_by_player(link=link, code=codes[3], ip=IP)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    entries = HistoryEntry.objects.filter(hanchan=game, action=links.ACTION_SEAT_CONFIRMED)
    assert entries.count() == 4 and {e.via for e in entries} == {"table 1 (link)"}
    assert SeatConfirmation.objects.filter(link=link, confirmed_at__isnull=False).count() == 4


def test_the_organiser_may_confirm_for_the_players(club, organiser):
    event = make_tournament(club, organiser, confirmation="players")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    links.enter_hand(link=link, hand=ONE_HAND, ip=IP)
    links.finish_game(link=link, reason="time limit", ip=IP)
    links.confirm_game(hanchan=game, user=organiser)
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED


def test_player_codes_are_refused_when_the_event_does_not_ask_for_them(opened):
    game = table_of(opened)
    link = link_of(game)
    links.enter_hand(link=link, hand=ONE_HAND, ip=IP)
    links.finish_game(link=link, reason="time", ip=IP)
    with pytest.raises(ValidationError):
        links.confirm_by_player(link=link, code=link.confirmations.first().code, ip=IP)


def test_giving_a_game_back_lets_the_table_change_it_and_restarts_confirmations(club, organiser):
    event = make_tournament(club, organiser, confirmation="players")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    links.enter_hand(link=link, hand=ONE_HAND, ip=IP)
    links.finish_game(link=link, reason="time", ip=IP)
    links.confirm_by_player(link=link, code=link.confirmations.get(seat=2).code, ip=IP)
    with pytest.raises(ValidationError):
        links.return_to_table(hanchan=game, user=organiser, reason="")
    links.return_to_table(hanchan=game, user=organiser, reason="one hand was missing")
    game.refresh_from_db()
    assert game.submitted_at is None
    assert not SeatConfirmation.objects.filter(link=link, confirmed_at__isnull=False).exists()
    links.enter_hand(link=link, hand=Hand.ron(0, Win(1, 2, 30)), ip=IP, expected_version=game.version)
    assert game.hands.count() == 2
    with pytest.raises(ValidationError):  # not handed in now
        links.return_to_table(hanchan=game, user=organiser, reason="again")


def test_the_organiser_still_corrects_a_handed_in_game(opened, organiser):
    _confirming(opened, Event.Confirmation.ORGANISER)
    game = table_of(opened)
    link = link_of(game)
    links.enter_hand(link=link, hand=ONE_HAND, ip=IP)
    links.finish_game(link=link, reason="time", ip=IP)
    services.correct_hand(
        hanchan=game, number=1, hand=Hand.ron(2, Win(0, 2, 40)), user=organiser, reason="dora miscounted"
    )
    corrected = HistoryEntry.objects.get(hanchan=game, action="hand corrected")
    assert corrected.user == organiser and corrected.via == ""


def test_calling_and_clearing_the_referee(opened, organiser):
    game = table_of(opened)
    link = link_of(game)
    links.call_referee(link=link, note="  chombo dispute  ", ip=IP)
    link.refresh_from_db()
    assert link.referee_called_at is not None and link.referee_note == "chombo dispute"
    called = HistoryEntry.objects.get(hanchan=game, action=links.ACTION_REFEREE)
    assert (called.via, called.ip, called.reason) == ("table 1 (link)", IP, "chombo dispute")
    links.clear_referee(hanchan=game, user=organiser, event=opened)
    link.refresh_from_db()
    assert link.referee_called_at is None
    with pytest.raises(ValidationError):
        links.clear_referee(hanchan=game, user=organiser)


def test_the_referee_can_be_called_after_the_game_is_handed_in(opened):
    game = table_of(opened)
    link = link_of(game)
    links.enter_hand(link=link, hand=ONE_HAND, ip=IP)
    links.finish_game(link=link, reason="time", ip=IP)
    links.call_referee(link=link, note="the result is wrong", ip=IP)
    assert link_of(game).referee_called_at is not None


def test_services_refuse_another_events_game(opened, club, organiser):
    other = make_tournament(club, organiser, slug="paris-open")
    with pytest.raises(ValidationError):
        links.confirm_game(hanchan=table_of(other), user=organiser, event=opened)


# -- rounds ------------------------------------------------------------------------------------------------


def test_closing_a_round_with_tables_still_playing_needs_the_organisers_say_so(opened, organiser):
    with pytest.raises(ValidationError) as info:
        rounds.close_round(event=opened, number=1, user=organiser, allow_unfinished=False)
    assert "Tables 1, 2 are not in yet" in info.value.message_dict["anyway"][0]
    assert Round.objects.get(event=opened, number=1).status == Round.Status.OPEN
    for table in (1, 2):
        game = table_of(opened, 1, table)
        links.enter_hand(link=link_of(game), hand=ONE_HAND, ip=IP)
        links.finish_game(link=link_of(game), reason="time", ip=IP)
    closed = rounds.close_round(event=opened, number=1, user=organiser, allow_unfinished=False)
    assert closed.status == Round.Status.CLOSED and closed.closed_at is not None
    assert HistoryEntry.objects.filter(event=opened, action="round_close").count() == 1


def test_a_round_can_be_reopened_and_its_links_work_again(opened, organiser):
    link = link_of(table_of(opened))
    rounds.close_round(event=opened, number=1, user=organiser)
    rounds.open_round(event=opened, number=1, user=organiser)
    assert links.resolve(link.token).round.status == Round.Status.OPEN
    assert rounds.current_round(opened).number == 1


def test_a_round_without_tables_cannot_be_opened(tournament, organiser):
    with pytest.raises(ValidationError):
        rounds.open_round(event=tournament, number=7, user=organiser)


# -- an invariant over any sequence of a table's actions -------------------------------------------------

EXAMPLES = itertools.count()
ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("hand"), st.integers(0, 3), st.integers(1, 3)),  # winner, loser offset
        st.tuples(st.just("undo"), st.just(0), st.just(0)),
        st.tuples(st.just("finish"), st.just(0), st.just(0)),
        st.tuples(st.just("referee"), st.just(0), st.just(0)),
    ),
    max_size=14,
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(actions=ACTIONS)
def test_under_organiser_confirmation_nothing_a_table_does_makes_its_game_count(club, organiser, actions):
    """Whatever a table does through its link, its game counts only once the organiser confirms it;
    once handed in, the table changes nothing more."""
    slug = f"prop-open-{next(EXAMPLES)}"  # the database is not rolled back between examples
    event = make_tournament(club, organiser, slug=slug, confirmation="organiser", players=4, rounds_=1)
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    for kind, winner, offset in actions:
        handed_in = Hanchan.objects.get(pk=game.pk).submitted_at is not None
        hands_before = game.hands.count()
        try:
            if kind == "hand":
                links.enter_hand(link=link, hand=Hand.ron((winner + offset) % 4, Win(winner, 1, 30)), ip=IP)
            elif kind == "undo":
                links.undo_hand(link=link, reason="slip", ip=IP)
            elif kind == "finish":
                links.finish_game(link=link, reason="time", ip=IP)
            else:
                links.call_referee(link=link, note="", ip=IP)
        except ValidationError:
            pass
        if handed_in:
            assert game.hands.count() == hands_before  # a handed-in game does not change
        fresh = Hanchan.objects.get(pk=game.pk)
        assert fresh.status == Hanchan.Status.IN_PROGRESS
        assert not SeatResult.objects.filter(hanchan=game).exists()
    fresh = Hanchan.objects.get(pk=game.pk)
    if fresh.submitted_at is not None:
        links.confirm_game(hanchan=fresh, user=organiser)
        assert SeatResult.objects.filter(hanchan=game).count() == 4
