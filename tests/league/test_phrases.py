"""What code writes into the history and the penalties is stored as what happened (league/phrases.py) and
shown in the reader's language; what a person typed stays as typed; old English sentences are converted
by a data migration so that they read in French and Polish too."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from league import phrases
from league.models import Event, Hanchan, HistoryEntry
from scoring import services
from scoring.models import Penalty
from tests.pages import build_demo

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("scoring.migrations.0013_stored_text_as_phrases")


def in_language(language: str, text_of) -> str:  # type: ignore[no-untyped-def]
    with translation.override(language):
        return text_of()


@pytest.fixture
def paper_game(event, players, organiser) -> Hanchan:
    game = services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    services.record_final_scores(
        hanchan=game, scores=[40000, 32000, 28000, 20000], chombos=[0, 1, 0, 0], user=organiser
    )
    return game


def test_a_penalty_code_gives_reads_in_the_readers_language(paper_game, organiser):
    penalty = Penalty.objects.get(hanchan=paper_game)
    assert penalty.reason == "chombo (entered with the final scores)"  # English, for the game records
    assert penalty.reason_data == {"text": "chombo (entered with the final scores)"}
    french = in_language("fr", lambda: penalty.reason_text)
    polish = in_language("pl", lambda: penalty.reason_text)
    assert "chombo" in french.lower() and french != penalty.reason and polish not in (french, penalty.reason)
    services.record_final_scores(
        hanchan=paper_game,
        scores=[40000, 32000, 28000, 20000],
        chombos=[0, 0, 0, 0],
        user=organiser,
        reason="no chombo after all",
    )
    penalty.refresh_from_db()
    assert penalty.cancelled_reason == "final scores corrected"
    assert in_language("pl", lambda: penalty.cancelled_reason_text) != "final scores corrected"
    # and on the penalties page, in French
    client = Client(headers={"accept-language": "fr"})
    client.force_login(organiser)
    page = client.get(reverse("scoring_manage:penalties", args=[paper_game.event.slug])).content.decode()
    assert in_language("fr", lambda: penalty.reason_text) in page
    assert "entered with the final scores" not in page and "final scores corrected" not in page


def test_a_typed_reason_stays_as_typed(game_with_hand, organiser):
    services.undo_last_hand(hanchan=game_with_hand, user=organiser, reason="entered twice")
    entry = HistoryEntry.objects.get(action="hand undone")
    assert (entry.reason, entry.reason_data) == ("entered twice", None)
    assert in_language("fr", lambda: entry.reason_text) == "entered twice"
    assert in_language("fr", lambda: entry.summary_text) != entry.summary  # "Hand 1 removed", in French


@pytest.fixture
def game_with_hand(event, players, organiser) -> Hanchan:
    from scoring.engine import Hand, Win

    game = services.start_game(event=event, players=players[:4], user=organiser)
    services.record_hand(hanchan=game, hand=Hand.ron(2, Win(0, 3, 40)), user=organiser)
    return game


def test_the_game_page_shows_the_history_in_the_readers_language(game_with_hand, organiser):
    services.finish_game(hanchan=game_with_hand, user=organiser, reason="time limit")
    client = Client(headers={"accept-language": "pl"})
    client.force_login(organiser)
    page = client.get(reverse("scoring_manage:game", args=[game_with_hand.pk])).content.decode()
    for entry in HistoryEntry.objects.filter(hanchan=game_with_hand):
        shown = in_language("pl", lambda entry=entry: entry.summary_text)
        assert shown != entry.summary and shown in page, entry.summary
    assert "Finished early after hand 1" not in page and "Hand 1 (E1)" not in page


def test_every_entry_of_the_demo_is_stored_as_data_and_reads_in_french_and_polish():
    """seed_demo runs the league's, the scoring's and the tournament day's services: every summary they
    write is a phrase, and none reads in English on a French or Polish page."""
    build_demo()
    entries = list(HistoryEntry.objects.all())
    assert len({e.action for e in entries}) >= 10
    # "rounds reseated" is written by tournaments/reseating.py, which another change rewrites.
    plain = [e.summary for e in entries if e.summary_data is None and e.action != "rounds reseated"]
    assert plain == []
    for entry in entries:
        if entry.summary_data is None:
            continue
        assert phrases.english(entry.summary_data) == entry.summary
        for language in ("fr", "pl"):
            text = in_language(language, lambda entry=entry: entry.summary_text)
            words = re.search(r"[^\W\d_]{2,}", entry.summary)  # not only scores
            assert text and (text != entry.summary or not words), (language, text)


@given(
    data=st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20)),
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(
                st.sampled_from(
                    ["text", "params", "plural", "count", "context", "join", "changes", "wind", "x"]
                ),
                children,
                max_size=4,
            ),
        ),
        max_leaves=12,
    )
)
def test_rendering_never_fails_whatever_is_stored(data):
    """A stored phrase this code does not understand (an older or damaged one) still renders to text,
    never a server error."""
    for language in ("en", "fr", "pl"):
        with translation.override(language):
            assert isinstance(phrases.render(data), str)


# -- the entries written before: converted by the data migration -----------------------------------------

LEGACY = [
    # (action, summary, reason, before, after) as the code wrote them in English
    ("game started", "East Ann, South Bob, West Cho, North Dan; played on 2025-03-08", "", None, None),
    ("hand recorded", "Hand 3 (E2): Exhaustive draw", "", None, None),
    ("hand undone", "Hand 3 removed", "entered twice", None, None),
    ("game finished", "The game reached its end and was finished automatically.", "", None, None),
    (
        "game finished",
        "Finished early after hand 5",
        "confirmed by the organiser; the table said: time",
        None,
        None,
    ),
    ("game reopened", "Reopened", "handed in by the table: waiting for confirmation", None, None),
    ("game handed in", "Handed in by the table: waiting for the organiser's confirmation.", "", None, None),
    ("result confirmed by a player", "West (Cho) confirmed the result.", "", None, None),
    ("penalty given", "Bob: -20000 (Chombo), round 2", "", None, None),
    ("final scores entered", "40000 / 32000 / 28000 / 20000; chombos: 0/0/0/0 → 0/1/0/0", "", None, None),
    (
        "final scores corrected",
        "scores: 40000/32000/28000/20000 → 32000/40000/28000/20000",
        "typo",
        None,
        None,
    ),
    ("rules changed", "Rules changed (uma [15000] → [0]); 2 games replayed.", "ruling", None, None),
    ("seating generated", "3 rounds, 16 seats, seed 7: 0 repeated pairs, winds balanced", "", None, None),
    (
        "event edited",
        "min games: 0 → 3; city: — → Paris",
        "",
        {"min_games": 0, "city": ""},
        {"min_games": 3, "city": "Paris"},
    ),
    ("player registered", "Ann registered (new player)", "", None, None),
    (
        "player registered",
        "Bob registered; details filled in: given name: — → Robert; EMA number: — → 04390002",
        "",
        {"player_details": {"given_name": "", "ema_number": None}},
        {"player": 2, "player_details": {"given_name": "Robert", "ema_number": "04390002"}},
    ),
    (
        "player edited",
        "Player Ann edited: given name: — → Anne; EMA number: — → 04390002",
        "",
        {"player": 1, "given_name": "", "ema_number": None},
        {"player": 1, "given_name": "Anne", "ema_number": "04390002"},
    ),
    (
        "game imported",
        "East Ann, South Bob, West Cho, North Dan; log 2024-abc; 8 hands",
        "imported from tenhou.json",
        None,
        None,
    ),
]


def test_the_migration_turns_old_english_sentences_into_phrases(event, organiser):
    made = [
        HistoryEntry.objects.create(
            event=event,
            user=organiser,
            action=action,
            summary=summary,
            reason=reason,
            before=before,
            after=after,
        )
        for action, summary, reason, before, after in LEGACY
    ]
    french = HistoryEntry.objects.create(event=event, action="hand undone", summary="Main 3 supprimée")
    MIGRATION.convert(apps, None)
    for entry in made:
        entry.refresh_from_db()
        assert entry.summary_data is not None, entry.summary
        assert phrases.english(entry.summary_data) == entry.summary  # the same words, as data
        if not entry.action.startswith("final scores"):  # "scores", "chombos" read the same in French
            assert in_language("fr", lambda entry=entry: entry.summary_text) != entry.summary, entry.summary
        if entry.reason and entry.reason not in ("entered twice", "typo", "ruling"):
            assert entry.reason_data is not None and phrases.english(entry.reason_data) == entry.reason
            assert in_language("pl", lambda entry=entry: entry.reason_text) != entry.reason
        else:
            assert entry.reason_data is None  # typed by a person: as typed
    french.refresh_from_db()
    assert french.summary_data is None  # not an English sentence of the code: left as it is


def test_the_migration_converts_the_penalties_code_gave(paper_game, organiser):
    penalty = Penalty.objects.get(hanchan=paper_game)
    Penalty.objects.filter(pk=penalty.pk).update(reason_data=None)  # as a row written before
    Penalty.objects.filter(pk=penalty.pk).update(cancelled_reason="final scores corrected", cancelled=True)
    MIGRATION.convert(apps, None)
    penalty.refresh_from_db()
    assert penalty.reason_data == {"text": "chombo (entered with the final scores)"}
    assert penalty.cancelled_reason_data == {"text": "final scores corrected"}


def test_the_event_kind_in_a_summary_reads_in_the_readers_language(club, organiser):
    from league import services as league_services

    event = league_services.create_event(
        club=club,
        name="Winter",
        slug="winter",
        kind=Event.Kind.TOURNAMENT,
        preset="ema2016",
        overrides={},
        visibility=Event.Visibility.PUBLIC,
        min_games=0,
        start_date=None,
        end_date=None,
        city="",
        country="",
        user=organiser,
    )
    entry = HistoryEntry.objects.get(event=event, action="event created")
    assert entry.summary == "Winter created in Riichi Lyon (Tournament, Public)"
    assert "Tournament" not in in_language("fr", lambda: entry.summary_text)
