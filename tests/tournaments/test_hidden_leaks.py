"""A game of a hidden round changes nothing a public visitor can observe — body or ETag — and the
release changes it (issue 23, "hidden rounds leak").

The probe found three leaks while a tournament kept its later rounds for a final reveal: the event's yaku
page counted the hidden games, a player's lifetime rating counted them ("after 18 games" when 16 were
visible), and the ETags of the event, live standings, player, chart and game pages changed when a hidden
game was played though their content did not — so a poller learnt when hidden results came in.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from background.worker import run_ready
from league.hidden_rounds import PUBLIC_GAME_SQL, hidden_after_round, in_hidden_round
from league.models import Event, Hanchan, Player, Registration
from scoring import services
from scoring.engine import Hand, ScoredYaku, Win
from scoring.models import RatingChange, SeatResult
from tests.conftest import make_event
from tests.tournaments.test_tournament import finish_round, make_tournament
from tournaments import reveal
from tournaments import services as tournament

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@contextmanager
def committed(capture):
    """Run the block as if it committed, then the background worker: the callbacks waiting for the
    commit run at the end and are gone afterwards, as after a real commit (the test's transaction never
    commits), and the worker rebuilds the ratings the block marked (scoring/tasks.py)."""
    with capture(execute=True):
        yield
    connection.run_on_commit.clear()
    run_ready()


@pytest.fixture
def day(club, organiser, django_capture_on_commit_callbacks):
    """Round 1 of three played and public; the public standings stop after round 1."""
    event = make_tournament(club, 8, standings_hidden_after_round=1, table_entry_mode="final")
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    with committed(django_capture_on_commit_callbacks):  # the ratings, rebuilt after each commit
        finish_round(event, 1, organiser)
    return event


def hidden_game(event) -> Hanchan:
    return Hanchan.objects.filter(event=event, round_number=2).order_by("table_number").first()


def play_hidden_game(event, organiser, capture) -> Hanchan:
    """Round 2, table 1, entered hand by hand with yaku: East rons South, mangan, then the game ends."""
    game = hidden_game(event)
    Hanchan.objects.filter(pk=game.pk).update(entry_mode=Hanchan.EntryMode.HANDS)
    game.refresh_from_db()
    yaku = (ScoredYaku("riichi", han=1), ScoredYaku("chinitsu", han=6))
    with committed(capture):
        services.record_hand(
            hanchan=game, hand=Hand.ron(1, Win(0, 7, 30, yaku=yaku, dora=0, aka=0, ura=0)), user=organiser
        )
        services.finish_game(hanchan=game, user=organiser, reason="time limit")
    return game


def public_urls(event, player: Player) -> list[str]:
    visible = Hanchan.objects.get(event=event, round_number=1, seats__player=player)
    player_url = reverse("scoring:player", args=[player.pk])
    return [
        reverse("scoring:event", args=[event.slug]),
        reverse("scoring:standings_live", args=[event.slug]),
        reverse("scoring:standings_csv", args=[event.slug]),
        reverse("scoring:yaku", args=[event.slug]),
        reverse("scoring:ratings", args=[event.slug]),
        reverse("tournaments:wall_standings", args=[event.slug]),
        reverse("scoring:game", args=[visible.pk]),
        reverse("scoring:game_chart", args=[visible.pk]),
        player_url,
        f"{player_url}?event={event.slug}",
        *(reverse("scoring:player_chart", args=[player.pk, chart]) for chart in ("tenhou", "openskill")),
        *(reverse("scoring:player_chart", args=[player.pk, chart]) for chart in ("cumulative", "places")),
    ]


def observe(client: Client, urls: list[str]) -> dict[str, tuple[int, str | None, str]]:
    """What a visitor sees of each page: its status, its ETag and its body (CSRF tokens aside)."""
    seen = {}
    for url in urls:
        response = client.get(url)
        body = CSRF.sub(r"\1csrf", response.content.decode("utf-8-sig"))  # a new mask every time
        seen[url] = (response.status_code, response.get("ETag"), body)
    return seen


def test_a_hidden_game_changes_nothing_a_visitor_sees_and_the_release_shows_it(
    day, organiser, django_capture_on_commit_callbacks
):
    player = hidden_game(day).seats.get(seat=0).player
    urls = public_urls(day, player)
    visitor = Client()
    observe(visitor, urls)  # the first visit sets the CSRF cookie (part of every ETag)
    before = observe(visitor, urls)
    # (a game entered as final scores has no chart: 404, before and after alike)
    assert [url for url, (status, _, _) in before.items() if status != 200] == urls[7:8]
    game = play_hidden_game(day, organiser, django_capture_on_commit_callbacks)
    assert RatingChange.objects.filter(hanchan=game).exists()  # the ratings were rebuilt with it
    after = observe(visitor, urls)
    for url in urls:
        assert after[url] == before[url], f"{url} changed when a hidden game was played"

    reveal.release_standings(event=day, user=organiser)
    released = observe(visitor, urls)
    for url in (urls[0], urls[1], urls[3], urls[4], urls[8], urls[9]):
        etag = before[url][1]  # (the yaku and ratings pages have none)
        assert etag is None or released[url][1] != etag, f"{url}: the release must give a new ETag"
        assert released[url][2] != before[url][2], f"{url}: the release must show the hidden round"
    assert "Chinitsu" in released[urls[3]][2] and "Chinitsu" not in before[urls[3]][2]


def test_a_visible_change_after_a_hidden_game_still_moves_the_pages(
    day, organiser, django_capture_on_commit_callbacks
):
    """Hiding is not freezing: a correction of a public round's game is seen at once."""
    play_hidden_game(day, organiser, django_capture_on_commit_callbacks)
    event_url = reverse("scoring:event", args=[day.slug])
    visitor = Client()
    visitor.get(event_url)
    before = visitor.get(event_url)
    public = Hanchan.objects.filter(event=day, round_number=1).order_by("table_number").first()
    with committed(django_capture_on_commit_callbacks):
        services.record_final_scores(
            hanchan=public, scores=[20000, 32000, 28000, 40000], user=organiser, reason="misread slip"
        )
    after = visitor.get(event_url)
    assert after["ETag"] != before["ETag"] and after.content != before.content


def test_the_lifetime_rating_leaves_out_the_hidden_games_and_what_they_moved(
    day, club, organiser, django_capture_on_commit_callbacks
):
    """A visible game played after a hidden one: its stored lifetime rating counts the hidden game (one
    game more, and R moved by it). The public page rates the visible games again without it."""
    game = play_hidden_game(day, organiser, django_capture_on_commit_callbacks)
    # Three of the hidden game's players, and one who never played the tournament.
    four = [seat.player for seat in game.seats.order_by("seat")][:3]
    four.append(Player.objects.create(display_name="Outsider", club=club))
    league = make_event(club, slug="winter-league")
    for player in four:
        Registration.objects.create(event=league, player=player)
    with committed(django_capture_on_commit_callbacks):
        later = services.start_game(event=league, players=four, user=organiser, entry_mode="final_scores")
        services.record_final_scores(hanchan=later, scores=[40000, 32000, 28000, 20000], user=organiser)
    ann = four[0]
    stored = RatingChange.objects.get(event=None, player=ann, hanchan=later, system="tenhou")
    assert stored.games == 3  # round 1, the hidden game, the league game

    html = Client().get(reverse("scoring:player", args=[ann.pk])).content.decode()
    assert "after 2 games" in html and "after 3 games" not in html
    from scoring.ratings import replay_ratings

    visible = SeatResult.objects.exclude(in_hidden_round("hanchan"))
    _, expected = replay_ratings(visible, player_id=ann.pk)
    assert [p.hanchan_id for p in expected["tenhou"]][-1] == later.pk
    last = expected["tenhou"][-1]
    assert last.games == 2 and last.after != stored.after  # the hidden game's points are not in it
    assert f"{last.after:.1f}" in html

    outsider = Client()
    outsider_url = reverse("scoring:player", args=[four[3].pk])
    outsider.get(outsider_url)
    before = outsider.get(outsider_url)
    reveal.release_standings(event=day, user=organiser)
    html = Client().get(reverse("scoring:player", args=[ann.pk])).content.decode()
    assert "after 3 games" in html
    # The outsider's rating took the hidden game in through their opponents: the release shows it.
    after = outsider.get(outsider_url)
    assert after["ETag"] != before["ETag"] and after.content != before.content


# -- the rule, said three ways, says one thing ---------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    kind=st.sampled_from(list(Event.Kind.values)),
    hidden_after=st.none() | st.integers(min_value=0, max_value=4),
    released=st.booleans(),
    by_stage=st.none() | st.integers(min_value=0, max_value=4),
    rounds=st.lists(st.none() | st.integers(min_value=1, max_value=5), min_size=1, max_size=6),
)
def test_the_python_the_filter_and_the_sql_agree(club, kind, hidden_after, released, by_stage, rounds):
    """With the event-wide hide and the stages' (their summary on the event), alone or together."""
    from django.utils import timezone

    event = make_event(club, slug="rule")
    Event.objects.filter(pk=event.pk).update(
        kind=kind,
        standings_hidden_after_round=hidden_after,
        standings_released_at=timezone.now() if released else None,
        stage_hidden_after_round=by_stage,
    )
    event.refresh_from_db()
    games = [Hanchan.objects.create(event=event, round_number=number) for number in rounds]
    last = hidden_after_round(event)
    by_python = {
        g.pk for g in games if last is not None and g.round_number is not None and g.round_number > last
    }
    by_filter = set(Hanchan.objects.filter(in_hidden_round("")).values_list("pk", flat=True))
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.id FROM {quote('league_hanchan')} g INNER JOIN {quote('league_event')} e "
            f"ON e.id = g.event_id WHERE NOT {PUBLIC_GAME_SQL.format(game='g', event='e')}"
        )
        by_sql = {row[0] for row in cursor.fetchall()}
    assert by_python == by_filter == by_sql
    Hanchan.objects.filter(event=event).delete()
    event.delete()


def test_a_penalty_of_a_hidden_round_changes_nothing_public_either(day, organiser):
    """A penalty given for a hidden round without a game: left out of the public standings, and of the
    pages' versions too (a penalty of a public round is seen at once)."""
    from scoring.services.penalties import add_penalty, cancel_penalty

    player = Registration.objects.filter(event=day).first().player
    urls = [reverse("scoring:event", args=[day.slug]), reverse("scoring:standings_live", args=[day.slug])]
    visitor = Client()
    observe(visitor, urls)
    before = observe(visitor, urls)
    hidden = add_penalty(
        event=day, player=player, points=-20000, reason="late for round 2", user=organiser, round_number=2
    )
    cancel_penalty(penalty=hidden, user=organiser, reason="the clock was wrong")
    assert observe(visitor, urls) == before
    add_penalty(event=day, player=player, points=-20000, reason="slow play", user=organiser, round_number=1)
    after = observe(visitor, urls)
    assert all(after[url][1] != before[url][1] and after[url][2] != before[url][2] for url in urls)
