"""Hidden standings (the final reveal) and live standings.

With ``standings_hidden_after_round = N`` and no release, every public reader of the standings — the
event page and its live fragment, the CSV download, the wall screen — shows the standings after round N
with a note, and the latest games stop at round N; the organiser's pages and ``manage.py standings``
show everything; one action releases them. The public standings page polls its fragment while a round
is open, and slowly while rounds are hidden (so an open page learns of the release), and only then.
"""

from __future__ import annotations

import json
import re
from unittest.mock import patch

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from league.models import Event, HistoryEntry
from scoring.standings import hidden_after_round, public_options, standings
from tests.scoring.commands import run
from tests.tournaments.test_tournament import finish_round, make_tournament
from tournaments import reveal
from tournaments import services as tournament
from tournaments.rounds import close_round, open_round

pytestmark = pytest.mark.django_db

NOTE = "Standings after round 1; the rest will be revealed."


@pytest.fixture(autouse=True)
def fresh_cache():
    """Public pages are cached by results version: each test starts from an empty cache."""
    cache.clear()


@pytest.fixture
def played(club, organiser):
    """Two rounds played of three; the public standings stop after round 1."""
    event = make_tournament(club, 8, standings_hidden_after_round=1, table_entry_mode="final")
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    finish_round(event, 1, organiser)
    finish_round(event, 2, organiser, scores=(50000, 30000, 25000, 15000))
    return event


def table_rows(html: str) -> dict[str, tuple[str, str]]:
    """Player name -> (points, games) of the standings tables in ``html``."""
    found = re.findall(
        r'class="cell-name" href="[^"]*">([^<]*)</a></td>\s*<td class="num">([^<]*)</td>\s*'
        r'<td class="num">(\d+)</td>',
        html,
    )
    return {name: (points, games) for name, points, games in found}


def expected(event, **options) -> dict[str, tuple[str, str]]:
    from scoring.templatetags.tenbou import thousands

    return {r.name: (thousands(r.points), str(r.games)) for r in standings(event, **options)}


def get(url: str, client: Client | None = None) -> str:
    response = (client or Client()).get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_public_page_and_its_fragment_stop_at_the_hidden_round(played):
    after_one, everything = expected(played, up_to_round=1), expected(played)
    assert after_one != everything
    for url in (
        reverse("scoring:event", args=[played.slug]),
        reverse("scoring:standings_live", args=[played.slug]),
        reverse("scoring:event", args=[played.slug]) + "?up_to_round=2",  # asking for more: still round 1
        reverse("scoring:standings_live", args=[played.slug]) + "?up_to_round=3&sort=-games",
    ):
        html = get(url)
        assert table_rows(html) == after_one
        assert NOTE in html


def test_the_latest_games_stop_at_the_hidden_round_too(played):
    html = get(reverse("scoring:event", args=[played.slug]))
    shown = {int(pk) for pk in re.findall(r'href="/games/(\d+)/"', html)}
    rounds = set(played.hanchans.filter(pk__in=shown).values_list("round_number", flat=True))
    assert shown and rounds == {1}


def test_the_csv_download_stops_at_the_hidden_round(played):
    response = Client().get(reverse("scoring:standings_csv", args=[played.slug]) + "?up_to_round=2")
    body = response.content.decode("utf-8-sig")
    games = {line.split(",")[1]: line.split(",")[3] for line in body.splitlines()[1:]}
    assert set(games.values()) == {"1"}


def test_the_wall_shows_the_hidden_round_with_the_note(played):
    html = get(reverse("tournaments:wall", args=[played.slug]))
    assert NOTE in html and "Standings after round 1" in html
    top = standings(played, up_to_round=1)[0]
    assert re.search(rf'<span class="wall-name">{re.escape(top.name)}</span>', html)
    from scoring.templatetags.tenbou import thousands

    points = re.findall(r'<span class="wall-points[^"]*">([^<]*)</span>', html)
    assert points[0] == thousands(top.points)
    assert thousands(standings(played)[0].points) not in points


def test_the_organiser_and_the_command_see_everything(played, organiser):
    client = Client()
    client.force_login(organiser)
    html = get(reverse("tournaments_manage:tournament", args=[played.slug]), client)
    assert 'id="standings-release"' in html and "stop after round 1" in html
    hidden = html[html.index('id="hidden-standings"') :]
    from scoring.templatetags.tenbou import thousands

    for row in standings(played):  # the whole standings, rounds 1 and 2
        assert f'<td>{row.name}</td><td class="num {"pos" if row.points > 0 else "neg"}">' in hidden
        assert f'{thousands(row.points)}</td><td class="num">2</td>' in hidden
    code, out, _err = run("standings", "--event", played.slug)
    assert code == 0
    assert {row["Games"] for row in json.loads(out)} == {"2"}


def test_one_action_releases_them(played, organiser):
    client = Client()
    client.force_login(organiser)
    version = Event.objects.get(pk=played.pk).results_version
    get(reverse("scoring:event", args=[played.slug]))  # cached while hidden
    response = client.post(reverse("tournaments_manage:standings_release", args=[played.slug]), follow=True)
    assert "The standings are released" in response.content.decode()
    played.refresh_from_db()
    assert played.standings_released_at is not None and played.results_version > version
    assert HistoryEntry.objects.filter(event=played, action="standings released").count() == 1
    for url in (
        reverse("scoring:event", args=[played.slug]),
        reverse("scoring:standings_live", args=[played.slug]),
    ):
        html = get(url)
        assert table_rows(html) == expected(played) and NOTE not in html
    assert NOTE not in get(reverse("tournaments:wall", args=[played.slug]))
    # Releasing again changes nothing; the tournament page says when it was released.
    reveal.release_standings(event=played, user=organiser)
    assert HistoryEntry.objects.filter(event=played, action="standings released").count() == 1
    assert "Released on" in get(reverse("tournaments_manage:tournament", args=[played.slug]), client)


def test_an_open_page_learns_of_the_release(played, organiser):
    """A phone left on the standings after the last round shows "the rest will be revealed": its page
    keeps asking, slowly, while rounds are hidden (an unchanged answer is a 304), and the first answer
    after the release is the whole standings, without the note and without polling any more."""
    page = reverse("scoring:event", args=[played.slug])
    fragment = reverse("scoring:standings_live", args=[played.slug])
    html = get(page)
    polling = f'hx-get="{re.escape(fragment)}" hx-trigger="every 60s" hx-swap="outerHTML"'
    assert NOTE in html and re.search(rf'<div id="standings-live" {polling}>', html)
    phone = Client()
    etag = phone.get(fragment)["ETag"]
    assert phone.get(fragment, HTTP_IF_NONE_MATCH=etag).status_code == 304

    reveal.release_standings(event=played, user=organiser)
    answer = phone.get(fragment, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert NOTE not in html and table_rows(html) == expected(played)
    assert html.startswith('<div id="standings-live">') and "hx-trigger" not in html


def test_setting_a_new_hidden_round_hides_again(played, organiser):
    from league.services import update_event

    reveal.release_standings(event=played, user=organiser)
    assert hidden_after_round(played) is None
    update_event(event=played, user=organiser, data={"standings_hidden_after_round": 2})
    played.refresh_from_db()
    assert played.standings_released_at is None and hidden_after_round(played) == 2


def test_after_the_release_the_event_form_hides_again_only_when_asked_and_says_so(played, organiser):
    """Saving the same hidden round after the release used to say "saved" and change nothing. The form
    now says the standings are released, "saved" comes with "they stay released", and ticking "Hide the
    standings again" takes the release back (in the history)."""
    from tests.league.test_views import event_post

    reveal.release_standings(event=played, user=organiser)
    client = Client()
    client.force_login(organiser)
    url = reverse("league_manage:event_edit", args=[played.slug])
    page = get(url, client)
    assert "the public sees every round. A new round here hides the rounds after it again" in page
    assert 'name="hide_standings_again"' in page
    post = event_post(name=played.name, standings_hidden_after_round="1", round_minutes="90")
    saved = client.post(url, post, follow=True).content.decode()
    assert "The standings stay released: the public sees every round." in saved
    played.refresh_from_db()
    assert played.standings_released_at is not None and hidden_after_round(played) is None

    saved = client.post(url, {**post, "hide_standings_again": "on"}, follow=True).content.decode()
    assert "stay released" not in saved
    played.refresh_from_db()
    assert played.standings_released_at is None and hidden_after_round(played) == 1
    assert NOTE in get(reverse("scoring:event", args=[played.slug]))
    entry = HistoryEntry.objects.filter(event=played, action="event edited").latest("pk")
    assert "standings released at" in entry.summary and entry.after["standings_released_at"] is None
    assert 'name="hide_standings_again"' not in get(url, client)  # nothing released to take back


def test_hiding_again_needs_a_round(played, organiser):
    from django.core.exceptions import ValidationError

    from league.services import update_event

    reveal.release_standings(event=played, user=organiser)
    with pytest.raises(ValidationError, match="give the round the public standings stop at"):
        update_event(
            event=played,
            user=organiser,
            data={"standings_hidden_after_round": None, "hide_standings_again": True},
        )
    played.refresh_from_db()
    assert played.standings_released_at is not None and played.standings_hidden_after_round == 1


def test_the_event_form_edits_the_setting_and_the_round_length(played, organiser):
    from tests.league.test_views import event_post

    client = Client()
    client.force_login(organiser)
    url = reverse("league_manage:event_edit", args=[played.slug])
    page = get(url, client)
    assert 'name="standings_hidden_after_round"' in page and 'name="round_minutes"' in page
    post = event_post(name=played.name, standings_hidden_after_round="2", round_minutes="75")
    response = client.post(url, post)
    assert response.status_code == 302
    played.refresh_from_db()
    assert played.standings_hidden_after_round == 2 and played.round_minutes == 75
    response = client.post(url, {**post, "standings_hidden_after_round": ""})
    played.refresh_from_db()
    assert response.status_code == 302 and played.standings_hidden_after_round is None
    bad = client.post(url, {**post, "standings_hidden_after_round": "0"})
    assert bad.status_code == 200 and "greater than or equal to 1" in bad.content.decode()
    played.refresh_from_db()
    assert played.standings_hidden_after_round is None


def test_a_league_never_hides(club, organiser):
    from tests.conftest import make_event

    league = make_event(club, slug="club-league")
    league.standings_hidden_after_round = 1
    league.save()
    assert hidden_after_round(league) is None
    assert "Nobody is ranked" in get(reverse("scoring:event", args=[league.slug]))


@given(hidden=st.one_of(st.none(), st.integers(1, 99)), asked=st.one_of(st.none(), st.integers(1, 99)))
def test_the_public_never_gets_past_the_hidden_round(hidden, asked):
    event = Event(kind=Event.Kind.TOURNAMENT, standings_hidden_after_round=hidden)
    got = public_options(event, {"up_to_round": asked, "min_games": 0})["up_to_round"]
    if hidden is None:
        assert got == asked
    else:
        assert got is not None and got <= hidden and got == (asked if asked and asked < hidden else hidden)


# -- live standings ----------------------------------------------------------------------------------


def test_the_standings_poll_only_while_a_round_is_open(club, organiser, django_assert_max_num_queries):
    event = make_tournament(club, 8, table_entry_mode="final")
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    page = reverse("scoring:event", args=[event.slug])
    fragment = reverse("scoring:standings_live", args=[event.slug])
    assert "hx-trigger" not in get(page)
    open_round(event=event, number=1, user=organiser)
    html = get(page + "?min_games=0&sort=-points")
    polled = re.escape(f"{fragment}?min_games=0&amp;sort=-points")
    polling = f'hx-get="{polled}" hx-trigger="every 20s" hx-swap="outerHTML"'
    assert re.search(rf'<div id="standings-live" class="live" {polling}>', html)
    finish_round(event, 1, organiser)
    live = get(fragment)
    assert live.startswith('<div id="standings-live" class="live"') and "<html" not in live
    assert len(table_rows(live)) == 8  # the new results, without reloading the page
    with django_assert_max_num_queries(8):
        get(fragment)
    close_round(event=event, number=1, user=organiser)
    assert "hx-trigger" not in get(fragment)  # swapped in after the round: the polling stops


def test_game_player_and_ratings_pages_keep_the_hidden_rounds_too(club, organiser):
    """The hidden rounds do not leak through the other public pages: a game of a hidden round is a 404,
    a player's page leaves it out of their games, statistics and rating points, and the event's ratings
    are those after the last public round — until the release shows everything."""
    from league.models import Hanchan
    from scoring.ratings import current_ratings, rebuild_all_ratings

    event = make_tournament(club, 8, standings_hidden_after_round=1, table_entry_mode="final")
    tournament.seat_tournament(event=event, rounds=3, user=organiser)
    finish_round(event, 1, organiser)
    finish_round(event, 2, organiser, scores=(50000, 30000, 25000, 15000))
    rebuild_all_ratings()  # (after a commit, in the site: the test's transaction never commits)
    later = Hanchan.objects.filter(event=event, round_number=2).order_by("pk").first()
    player = later.seats.get(seat=0).player
    earlier = Hanchan.objects.get(event=event, round_number=1, seats__player=player)
    visitor = Client()

    assert visitor.get(reverse("scoring:game", args=[earlier.pk])).status_code == 200
    assert visitor.get(reverse("scoring:game", args=[later.pk])).status_code == 404
    page = get(reverse("scoring:player", args=[player.pk]), visitor)
    assert f'href="{reverse("scoring:game", args=[earlier.pk])}"' in page
    assert f'href="{reverse("scoring:game", args=[later.pk])}"' not in page
    shown = current_ratings(event, hidden_after=1)
    assert {row.games for rows in shown.values() for row in rows} == {1}
    everything = current_ratings(event)
    assert {row.games for rows in everything.values() for row in rows} == {2}
    with patch("scoring.views.public.current_ratings", wraps=current_ratings) as read:
        get(reverse("scoring:ratings", args=[event.slug]), visitor)
    assert read.call_args.kwargs == {"hidden_after": 1}

    reveal.release_standings(event=event, user=organiser)
    assert visitor.get(reverse("scoring:game", args=[later.pk])).status_code == 200
    page = get(reverse("scoring:player", args=[player.pk]), visitor)
    assert f'href="{reverse("scoring:game", args=[later.pk])}"' in page
