"""Two phones at one table, or a table and the organiser, writing the same game at the same moment.

The link services lock the game row and pass the version the page showed on to scoring's services, so
the second writer waits for the first, then gets "already saved" (the same entry twice), "the game
changed" (another entry at the same version) or a refusal (handed in, revoked) — never a lost or a
duplicated hand, never a game finished or confirmed twice. Runs on SQLite (writers queue behind its
IMMEDIATE transactions, in the file-based test database) and on PostgreSQL (row locks).
"""

from __future__ import annotations

import pytest

from league.models import Event, Hanchan, HistoryEntry
from scoring import services
from scoring.engine import Hand, Win
from scoring.models import Hand as HandRow
from tests.scoring.test_concurrency import run_concurrently
from tests.tournaments.test_links import full_game, link_of, make_tournament, table_of
from tournaments import links, rounds
from tournaments.models import TableLink

pytestmark = pytest.mark.django_db(transaction=True)

IP = "203.0.113.20"


@pytest.fixture
def opened(club, organiser):
    event = make_tournament(club, organiser)
    rounds.open_round(event=event, number=1, user=organiser)
    return event


def fresh_link(link: TableLink) -> TableLink:
    return TableLink.objects.select_related("hanchan__event").get(pk=link.pk)


def test_the_same_hand_from_two_phones_is_saved_once(opened):
    """One form sent twice at once (a double tap: one key) is saved once and answered "already saved";
    two phones showing the same page (two keys) save one hand, and the other is told the game changed."""
    game = table_of(opened)
    link = link_of(game)
    hand = Hand.ron(2, Win(0, 3, 40))
    version = Hanchan.objects.get(pk=game.pk).version

    def send(key: str):  # type: ignore[no-untyped-def]
        return lambda: links.enter_hand(
            link=fresh_link(link), hand=hand, ip=IP, expected_version=version, entry_key=key
        )

    outcomes = run_concurrently([send("form-key-0001")] * 2)
    assert all(isinstance(o, HandRow) for o in outcomes), outcomes
    assert sorted(o.already_saved for o in outcomes) == [False, True]
    assert HandRow.objects.filter(hanchan=game).count() == 1
    version += 1
    outcomes = run_concurrently([send("phone-one-key"), send("phone-two-key")])
    assert sorted(type(o).__name__ for o in outcomes) == ["GameChanged", "Hand"], outcomes
    assert HandRow.objects.filter(hanchan=game).count() == 2


def test_the_last_hand_from_two_phones_hands_the_game_in_once(opened):
    event = Event.objects.get(pk=opened.pk)
    event.confirmation = "organiser"
    event.save()
    game = table_of(opened)
    link = link_of(game)
    *firsts, last = full_game()
    for hand in firsts:
        links.enter_hand(link=link, hand=hand, ip=IP)
    version = Hanchan.objects.get(pk=game.pk).version
    outcomes = run_concurrently(
        [
            lambda: links.enter_hand(
                link=fresh_link(link), hand=last, ip=IP, expected_version=version, entry_key="form-key-0001"
            )
        ]
        * 2
    )
    assert all(isinstance(o, HandRow) for o in outcomes), outcomes
    assert sorted(o.already_saved for o in outcomes) == [False, True]
    game.refresh_from_db()
    assert game.status == Hanchan.Status.IN_PROGRESS and game.submitted_at is not None
    assert HistoryEntry.objects.filter(hanchan=game, action=links.ACTION_HANDED_IN).count() == 1
    assert HandRow.objects.filter(hanchan=game).count() == 8


def test_a_table_and_the_organiser_at_the_same_version_one_wins_one_is_told(opened, organiser):
    game = table_of(opened)
    link = link_of(game)
    version = Hanchan.objects.get(pk=game.pk).version
    outcomes = run_concurrently(
        [
            lambda: links.enter_hand(
                link=fresh_link(link), hand=Hand.ron(2, Win(0, 3, 40)), ip=IP, expected_version=version
            ),
            lambda: services.record_hand(
                hanchan=Hanchan.objects.get(pk=game.pk),
                hand=Hand.tsumo(Win(1, 2, 30)),
                user=organiser,
                expected_version=version,
            ),
        ]
    )
    saved = [o for o in outcomes if isinstance(o, HandRow)]
    refused = [o for o in outcomes if isinstance(o, services.GameChanged)]
    assert len(saved) == 1 and len(refused) == 1, outcomes
    assert HandRow.objects.filter(hanchan=game).count() == 1


def test_an_entry_racing_a_revocation_is_saved_before_it_or_refused(opened, organiser):
    game = table_of(opened)
    link = link_of(game)
    outcomes = run_concurrently(
        [
            lambda: links.enter_hand(link=fresh_link(link), hand=Hand.ron(2, Win(0, 3, 40)), ip=IP),
            lambda: links.revoke_link(hanchan=Hanchan.objects.get(pk=game.pk), user=organiser),
        ]
    )
    entered, revoked = outcomes
    assert isinstance(revoked, TableLink), outcomes
    hands = HandRow.objects.filter(hanchan=game).count()
    if isinstance(entered, links.LinkRefused):
        assert entered.reason == "revoked" and hands == 0
    else:
        assert isinstance(entered, HandRow) and hands == 1
        recorded = HistoryEntry.objects.get(hanchan=game, action="hand recorded")
        revocation = HistoryEntry.objects.get(hanchan=game, action=links.ACTION_REVOKED)
        assert recorded.pk < revocation.pk  # saved before the revocation, never after it


def test_the_last_two_players_confirming_together_finish_the_game_once(club, organiser):
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="players", slug="pc-open")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    links.enter_final_scores(link=link, scores=[45000, 35000, 25000, 15000], sticks=0, ip=IP)
    codes = dict(link.confirmations.values_list("seat", "code"))
    links.confirm_by_player(link=link, code=codes[0], ip=IP)
    links.confirm_by_player(link=link, code=codes[1], ip=IP)
    outcomes = run_concurrently(
        [lambda c=codes[s]: links.confirm_by_player(link=fresh_link(link), code=c, ip=IP) for s in (2, 3)]
    )
    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    assert HistoryEntry.objects.filter(hanchan=game, action=links.ACTION_CONFIRMED).count() == 1
