"""What a hand entry writes does not grow with the game, and a game holds at most the engine's hand limit.

Every entry used to rewrite every hand of the game (its cached columns and its four per-seat rows): the
4 000th hand of a game took 12 s. The services now write the new or corrected hand and only the later
hands whose replayed values really changed. Counted here with the rows each write statement touched (a
single ``bulk_update`` of every hand is one statement, so counting statements alone would not see it).
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Hanchan
from scoring import services
from scoring.engine import Hand, Win
from scoring.engine.record import MAX_HANDS
from scoring.models import Hand as HandRow
from scoring.models import HandSeat, SeatResult
from scoring.records import hand_row
from scoring.services import sync
from scoring.services.sync import refresh

# Every seat tenpai at the draw: nobody pays, the dealer stays, the game never ends on its own.
ALL_TENPAI = Hand.draw((0, 1, 2, 3))
TABLES = {"scoring_hand": "hands", "scoring_handseat": "seat rows", "scoring_win": "wins"}


def game_of(event, players, organiser, hands: int) -> Hanchan:
    """A hand-by-hand game already holding ``hands`` all-tenpai draws (written at once, then derived)."""
    game = services.start_game(event=event, players=players[:4], user=organiser)
    HandRow.objects.bulk_create([hand_row(game, n, ALL_TENPAI) for n in range(1, hands + 1)])
    with transaction.atomic():
        refresh(Hanchan.objects.select_related("event").get(pk=game.pk))
    return Hanchan.objects.get(pk=game.pk)


class Writes:
    """Rows touched per (statement kind, table) while the block runs, e.g. ("UPDATE", "hands").

    Updated and deleted rows are the statements' row counts; inserted per-seat rows are those with a
    higher id than any before (an INSERT … RETURNING reports no reliable row count)."""

    def __init__(self) -> None:
        self.rows: Counter[tuple[str, str]] = Counter()
        self.queries = CaptureQueriesContext(connection)
        self.last_seat_row = HandSeat.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

    def __call__(self, execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        kind = sql.lstrip().split(" ", 1)[0].upper()
        if kind in ("UPDATE", "DELETE"):
            for table, name in TABLES.items():
                if f'"{table}"' in sql.split(" WHERE ", 1)[0]:
                    self.rows[(kind, name)] += max(context["cursor"].rowcount, 0)
        return result

    def __enter__(self) -> Writes:
        self.queries.__enter__()
        self._wrapper = connection.execute_wrapper(self)
        self._wrapper.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._wrapper.__exit__(*exc)
        self.queries.__exit__(*exc)
        self.rows[("INSERT", "seat rows")] = HandSeat.objects.filter(pk__gt=self.last_seat_row).count()


def append_one(game: Hanchan, organiser) -> Writes:
    with Writes() as writes:
        services.record_hand(
            hanchan=game, hand=Hand.ron(2, Win(1, 2, 30)), user=organiser, expected_version=game.version
        )
    with transaction.atomic():  # every cached row as a rebuild derives it: nothing left to write
        done = sync.rebuild([Hanchan.objects.select_related("event").get(pk=game.pk)])
    assert (done.hands_written, done.results_written) == (0, 0)
    assert HandSeat.objects.filter(hanchan=game).count() == 4 * HandRow.objects.filter(hanchan=game).count()
    return writes


@pytest.mark.django_db
def test_adding_a_hand_writes_the_same_whatever_the_length_of_the_game(event, players, organiser):
    short = append_one(game_of(event, players, organiser, 10), organiser)
    long = append_one(game_of(event, players, organiser, 200), organiser)
    assert len(long.queries) == len(short.queries)
    assert long.rows == short.rows
    # The new hand, inserted with its derived values, and its four per-seat rows; no hand is updated.
    assert long.rows[("UPDATE", "hands")] == 0
    assert long.rows[("INSERT", "seat rows")] == 4
    assert long.rows[("DELETE", "seat rows")] == 0
    last = HandRow.objects.order_by("-pk").first()
    assert (last.number, last.round_name, last.honba, last.deltas) == (201, "E1", 200, [0, 62000, -62000, 0])


@pytest.mark.django_db
def test_correcting_hand_k_rewrites_only_hands_k_and_later(event, players, organiser):
    game = game_of(event, players, organiser, 200)
    untouched = dict(HandSeat.objects.filter(hand__number__lt=150).values_list("pk", "delta"))
    with Writes() as writes:
        # A riichi stick left on the table: hand 150's deltas change, and every later hand's sticks.
        services.correct_hand(
            hanchan=game,
            number=150,
            hand=Hand.draw((0, 1, 2, 3), riichi=(1,)),
            user=organiser,
            reason="a riichi was declared",
            expected_version=game.version,
        )
    assert writes.rows[("UPDATE", "hands")] == 51  # hands 150 … 200
    assert writes.rows[("INSERT", "seat rows")] == 51 * 4
    assert writes.rows[("DELETE", "seat rows")] == 4 + 50 * 4  # the old hand 150's, then 151 … 200's
    assert dict(HandSeat.objects.filter(hand__number__lt=150).values_list("pk", "delta")) == untouched
    rows = HandRow.objects.filter(hanchan=game).order_by("number")
    assert [row.sticks for row in rows] == [0] * 150 + [1] * 50  # the stick is carried from 151 on
    assert HandSeat.objects.filter(hanchan=game).count() == 200 * 4


@pytest.mark.django_db
def test_a_game_holds_at_most_the_engines_hand_limit(event, players, organiser):
    game = game_of(event, players, organiser, MAX_HANDS)
    with pytest.raises(ValidationError, match=f"at most {MAX_HANDS} hands"):
        services.record_hand(hanchan=game, hand=ALL_TENPAI, user=organiser)
    with pytest.raises(ValidationError, match=f"at most {MAX_HANDS} hands"):
        services.preview(game, ALL_TENPAI)
    assert HandRow.objects.filter(hanchan=game).count() == MAX_HANDS


@pytest.mark.django_db
def test_the_hand_entry_page_refuses_a_hand_over_the_limit_with_a_message(event, players, organiser):
    game = game_of(event, players, organiser, MAX_HANDS)
    client = Client()
    client.force_login(organiser)
    data = {"result": "draw", "tenpai": [0, 1, 2, 3], "version": game.version}
    response = client.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 422  # the form again, with the engine's reason
    page = response.content.decode() + " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert f"at most {MAX_HANDS} hands" in page
    assert HandRow.objects.filter(hanchan=game).count() == MAX_HANDS
    assert Hanchan.objects.get(pk=game.pk).version == game.version


@pytest.mark.django_db
def test_saving_a_hand_costs_a_fixed_number_of_statements(event, players, organiser):
    """The whole POST of a game's 12th hand, as ``bench/standings.py`` times it: the session and the
    user; the game, its seats, hands and wins for the form; then, in the service's transaction, the game
    locked, its facts read once (hands, wins, seats, stored results: no penalties, the game is not
    finished), the hand, its win and its four per-seat rows inserted with their values, the per-seat
    rows' players checked, the results versions moved on by the rebuild, the history entry and its own
    versions, and the game's version."""
    game = game_of(event, players, organiser, 11)
    client = Client()
    client.force_login(organiser)
    data = {"version": game.version, "result": "ron", "winner": 1, "loser": 2, "han": 2, "fu": 30}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)
    assert response.status_code == 302
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    # 26 until 2026-11-26: the penalties were read twice (for the form's final result, never shown on
    # this request; for the results of a game that is not finished), the hands were counted before the
    # new one was written and read after, the hand just inserted was updated with its derived values and
    # the per-seat rows it could not have had yet were deleted.
    assert len(statements) == 21, "\n".join(sql[:100] for sql in statements)
    assert sum(sql.startswith("SELECT") for sql in statements) == 11


@pytest.mark.django_db
def test_the_hand_that_ends_a_game_reads_its_facts_once(event, players, organiser):
    """The last hand finishes the game and writes its results from the facts the hand's own rebuild
    left (32 statements until 2026-11-26, the facts read a second time; then 22; 24 since the ratings
    rebuild left the request for a worker: the mark it leaves, one SELECT and one INSERT; 25 since the
    API's webhooks listen for changed results: one SELECT of the event's webhooks, none to announce to
    here; 26 since the rankings listen too: one SELECT says a league's game is not theirs to mark), and
    every cached row is then what a rebuild derives."""
    game = services.start_game(event=event, players=players[:4], user=organiser)
    for n in range(8):  # a non-dealer wins each hand: the deal moves on, South 4 ends the game
        game = Hanchan.objects.select_related("event").get(pk=game.pk)
        with CaptureQueriesContext(connection) as queries:
            services.record_hand(
                hanchan=game, hand=Hand.ron((n + 2) % 4, Win((n + 1) % 4, 2, 30)), user=organiser
            )
    game = Hanchan.objects.select_related("event").get(pk=game.pk)
    assert game.status == Hanchan.Status.FINISHED
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 26, "\n".join(sql[:100] for sql in statements)
    assert sum('FROM "scoring_hand"' in sql for sql in statements) == 1
    assert sum('FROM "api_webhook"' in sql for sql in statements) == 1
    assert sum('"background_pending"' in sql for sql in statements) == 2  # the ratings' mark
    with transaction.atomic():
        done = sync.rebuild([game])
    assert (done.hands_written, done.results_written) == (0, 0)
    assert SeatResult.objects.filter(hanchan=game).count() == 4
