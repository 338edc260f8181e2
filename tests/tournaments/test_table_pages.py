"""The pages a table opens with its link (/t/<token>/…): its own game only, while its round is open;
clear pages for wrong, revoked and closed links; rate limits; the history says "table N (link)"."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Event, Hanchan, HistoryEntry
from scoring import services
from scoring.models import Hand as HandRow
from tests.tournaments.test_links import full_game, link_of, make_tournament, table_of
from tournaments import links, rounds

pytestmark = pytest.mark.django_db


TABLE_IP = "198.51.100.4"

# Every page of a token: (URL name, method). The matrix below opens each with each kind of token.
TOKEN_PAGES = [
    ("tournaments:table", "get"),
    ("tournaments:table_hand", "post"),
    ("tournaments:table_preview", "post"),
    ("tournaments:table_undo", "post"),
    ("tournaments:table_finish", "post"),
    ("tournaments:table_scores", "post"),
    ("tournaments:table_referee", "post"),
    ("tournaments:table_confirm", "post"),
]

RON = {"result": "ron", "winner": "0", "loser": "2", "han": "3", "fu": "40"}


def table_client(ip: str = TABLE_IP) -> Client:
    return Client(REMOTE_ADDR=ip)


def url(name: str, link) -> str:
    return reverse(name, args=[link.token])


def state(event):
    """Everything a token page could change: hands, versions and link flags of every game."""
    games = Hanchan.objects.filter(event=event).order_by("pk")
    return (
        HandRow.objects.count(),
        [(g.pk, g.version, g.status, g.submitted_at) for g in games],
        HistoryEntry.objects.count(),
    )


# -- the permission matrix of the token pages --------------------------------------------------------


@pytest.mark.parametrize(("name", "method"), TOKEN_PAGES)
@pytest.mark.parametrize(
    ("case", "status"),
    [("unknown", 404), ("not_open", 403), ("revoked", 410), ("closed", 410), ("void", 410)],
)
def test_a_token_that_opens_nothing_gets_a_clear_page_and_changes_nothing(
    tournament, organiser, case, status, name, method
):
    links.issue_links(event=tournament, number=1, user=organiser)
    game = table_of(tournament)
    link = link_of(game)
    token = link.token
    if case != "not_open":
        rounds.open_round(event=tournament, number=1, user=organiser)
    if case == "unknown":
        token = token[:-1] + ("A" if token[-1] != "A" else "B")
    elif case == "revoked":
        links.revoke_link(hanchan=game, user=organiser)
    elif case == "closed":
        rounds.close_round(event=tournament, number=1, user=organiser)
    elif case == "void":
        services.void_game(hanchan=game, user=organiser, reason="no show")
    before = state(tournament)
    response = getattr(table_client(), method)(reverse(name, args=[token]), RON)
    assert response.status_code == status
    body = response.content.decode()
    assert 'id="link-refused"' in body and f'data-reason="{case}"' in body
    assert "/manage/" not in body
    assert state(tournament) == before


def test_the_table_page_shows_its_own_game_and_links_nowhere_else(opened):
    mine, other = table_of(opened, 1, 1), table_of(opened, 1, 2)
    link = link_of(mine)
    response = table_client().get(url("tournaments:table", link))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="hand-form"' in body and 'id="referee-form"' in body and 'id="table-status"' in body
    names = [s.player.display_name for s in mine.seats.select_related("player")]
    assert all(name in body for name in names)
    others = [s.player.display_name for s in other.seats.select_related("player")]
    assert not any(name in body for name in others)
    hrefs = re.findall(r'(?:href|action|hx-post|hx-get)="([^"]+)"', body)
    clock = reverse("tournaments:clock", args=[opened.slug])  # the event's public round clock
    language = reverse("set_language")  # the language switcher
    pages = [h for h in hrefs if not h.startswith(("/static/", clock, language))]
    assert pages and all(h.startswith(f"/t/{link.token}/") for h in pages), pages
    assert response["Cache-Control"].startswith("max-age=0") and "no-store" in response["Cache-Control"]
    assert "noindex" in response["X-Robots-Tag"]


def test_a_token_does_not_log_anyone_in_or_reach_another_url(opened):
    link = link_of(table_of(opened))
    client = table_client()
    assert client.get(url("tournaments:table", link)).status_code == 200
    game = table_of(opened)
    for target in (
        reverse("scoring_manage:game", args=[game.pk]),
        reverse("tournaments_manage:round", args=[opened.slug, 1]),
        reverse("tournaments_manage:tournament", args=[opened.slug]),
        reverse("league_manage:dashboard"),
    ):
        response = client.get(target, {"token": link.token})
        assert response.status_code == 302 and response.url.startswith(reverse("login")), target
    # the token in place of another page's argument is nothing but a wrong address
    assert client.get(f"/manage/events/{opened.slug}/rounds/{link.token}/").status_code == 404
    assert client.get(f"/t/{link.token}/../{table_of(opened, 1, 2).pk}/").status_code in (404, 200)


def test_a_hand_entered_on_the_page_is_saved_to_its_own_game_with_the_tables_ip(opened):
    mine, other = table_of(opened, 1, 1), table_of(opened, 1, 2)
    link = link_of(mine)
    response = table_client().post(url("tournaments:table_hand", link), {**RON, "version": mine.version})
    assert response.status_code == 302 and response.url == url("tournaments:table", link)
    assert mine.hands.count() == 1 and not other.hands.exists()
    entry = HistoryEntry.objects.get(hanchan=mine, action="hand recorded")
    assert (entry.via, entry.ip, entry.user) == ("table 1 (link)", TABLE_IP, None)


def test_the_organisers_game_page_shows_the_link_and_ip_in_the_history(opened, organiser):
    game = table_of(opened)
    link = link_of(game)
    table_client().post(url("tournaments:table_hand", link), {**RON, "version": game.version})
    client = Client()
    client.force_login(organiser)
    body = client.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert f'<span class="history-via">table 1 (link) · {TABLE_IP}</span>' in body


def test_the_client_address_behind_a_trusted_proxy_is_the_forwarded_one(opened, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    game = table_of(opened)
    link = link_of(game)
    client = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.55")
    client.post(url("tournaments:table_hand", link), {**RON, "version": game.version})
    assert HistoryEntry.objects.get(hanchan=game, action="hand recorded").ip == "192.0.2.55"


def test_a_double_tap_saves_one_hand_and_a_stale_page_gets_the_current_game(opened):
    game = table_of(opened)
    link = link_of(game)
    client = table_client()
    page = client.get(url("tournaments:table", link)).content.decode()
    key = re.search(r'name="entry_key" value="([\w-]+)"', page).group(1)  # the form's own key
    data = {**RON, "version": game.version, "entry_key": key}
    first = client.post(url("tournaments:table_hand", link), data)
    second = client.post(url("tournaments:table_hand", link), data, follow=True)
    assert first.status_code == 302 and second.status_code == 200
    assert "already saved (hand 1)" in second.content.decode()
    assert game.hands.count() == 1
    stale = client.post(
        url("tournaments:table_hand", link), {**RON, "winner": "1", "version": data["version"]}
    )
    assert stale.status_code == 409 and game.hands.count() == 1
    assert "The game changed while you were entering this" in stale.content.decode()


def test_a_wrong_hand_names_the_field_and_saves_nothing(opened):
    game = table_of(opened)
    link = link_of(game)
    response = table_client().post(
        url("tournaments:table_hand", link), {**RON, "han": "1", "fu": "25", "version": game.version}
    )
    assert response.status_code == 422 and not game.hands.exists()
    assert 'id="hand-form"' in response.content.decode()
    assert response.context["form"].errors


def test_the_preview_fragment_shows_the_payments(opened):
    link = link_of(table_of(opened))
    response = table_client().post(
        url("tournaments:table_preview", link), RON, headers={"HX-Request": "true"}
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="preview"')
    assert "<html" not in body and "Preview" in body and "-7700" in body.replace("−", "-")


def test_undo_and_finish_from_the_page(opened):
    game = table_of(opened)
    link = link_of(game)
    client = table_client()
    client.post(url("tournaments:table_hand", link), {**RON, "version": game.version})
    game.refresh_from_db()
    no_reason = client.post(url("tournaments:table_undo", link), {"version": game.version, "reason": ""})
    assert no_reason.status_code == 422 and game.hands.count() == 1
    client.post(url("tournaments:table_undo", link), {"version": game.version, "reason": "wrong winner"})
    assert not game.hands.exists()
    game.refresh_from_db()
    nothing = client.post(url("tournaments:table_finish", link), {"version": game.version, "reason": "x"})
    assert nothing.status_code == 422 and "at least one hand" in nothing.content.decode()
    client.post(url("tournaments:table_hand", link), {**RON, "version": game.version})
    game.refresh_from_db()
    refused = client.post(url("tournaments:table_finish", link), {"version": game.version, "reason": ""})
    assert refused.status_code == 422 and "say why it ends now" in refused.content.decode()
    done = client.post(
        url("tournaments:table_finish", link), {"version": game.version, "reason": "time limit"}, follow=True
    )
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED and game.submitted_at is not None
    body = done.content.decode()
    assert 'data-state="finished"' in body and 'id="hand-form"' not in body and 'id="undo-form"' not in body


def test_after_handing_in_the_page_is_read_only_and_refuses_changes(club, organiser):
    event = make_tournament(club, organiser, confirmation="organiser")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    client = table_client()
    for hand in full_game():
        links.enter_hand(link=link, hand=hand, ip=TABLE_IP)
    page = client.get(url("tournaments:table", link)).content.decode()
    assert 'id="handed-in"' in page and 'data-state="handed-in"' in page and 'id="hand-form"' not in page
    assert "Waiting for the organiser" in page
    game.refresh_from_db()
    refused = client.post(url("tournaments:table_hand", link), {**RON, "version": game.version})
    assert refused.status_code == 422 and "handed in" in refused.content.decode()
    assert game.hands.count() == 8


def test_final_scores_page_with_player_confirmation(club, organiser):
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="players")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    client = table_client()
    page = client.get(url("tournaments:table", link)).content.decode()
    assert 'id="final-scores-form"' in page and 'id="hand-form"' not in page
    scores = {"score_0": 45000, "score_1": 35000, "score_2": 25000, "score_3": 15000, "sticks": 0}
    wrong = client.post(
        url("tournaments:table_scores", link), {**scores, "score_3": 1000, "version": game.version}
    )
    assert wrong.status_code == 422 and "must sum to 120000" in wrong.content.decode()
    form = {**scores, "version": game.version, "entry_key": "form-key-0001"}
    saved = client.post(url("tournaments:table_scores", link), form, follow=True)
    body = saved.content.decode()
    assert 'id="confirm-form"' in body and "Final scores saved" in body
    again = client.post(url("tournaments:table_scores", link), form, follow=True)
    assert "already saved" in again.content.decode()
    bad = client.post(url("tournaments:table_confirm", link), {"code": "ZZZZZZ"})
    assert bad.status_code == 422 and "not one of this table&#x27;s four player codes" in bad.content.decode()
    for seat in range(4):
        code = link.confirmations.get(seat=seat).code
        response = client.post(url("tournaments:table_confirm", link), {"code": code})
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    final = client.get(url("tournaments:table", link)).content.decode()
    assert 'data-state="finished"' in final and 'id="confirm-form"' not in final


def test_calling_the_referee_from_the_page(opened):
    game = table_of(opened)
    link = link_of(game)
    response = table_client().post(
        url("tournaments:table_referee", link), {"note": "wrong tenpai"}, follow=True
    )
    assert response.status_code == 200 and 'id="referee-called"' in response.content.decode()
    assert link_of(game).referee_note == "wrong tenpai"
    too_long = table_client().post(url("tournaments:table_referee", link), {"note": "x" * 201})
    assert too_long.status_code == 422


def test_the_table_code_page_leads_to_the_tables_link(opened):
    link = link_of(table_of(opened))
    client = table_client()
    assert client.get(reverse("tournaments:table_code")).status_code == 200
    found = client.post(reverse("tournaments:table_code"), {"code": link.code.lower()})
    assert found.status_code == 302 and found.url == url("tournaments:table", link)
    missing = client.post(reverse("tournaments:table_code"), {"code": "QQQQQQ"})
    assert missing.status_code == 404 and "no table has this code now" in missing.content.decode()
    assert client.post(reverse("tournaments:table_code"), {}).status_code == 422


@pytest.mark.parametrize("path", ["/t/%00/", "/t/%C3%A9t%C3%A9/", "/t/" + "x" * 300 + "/", "/t/%00/hand/"])
def test_odd_addresses_are_unknown_links_never_errors(opened, path):
    client = table_client()
    response = client.post(path, RON) if path.endswith("hand/") else client.get(path)
    assert response.status_code == 404 and 'data-reason="unknown"' in response.content.decode()
    assert client.post(reverse("tournaments:table_code"), {"code": "\x00AB"}).status_code in (404, 422)


def test_a_revoked_link_page_offers_the_code_form(opened, organiser):
    game = table_of(opened)
    link = link_of(game)
    links.reissue_link(hanchan=game, user=organiser)
    body = table_client().get(url("tournaments:table", link)).content.decode()
    assert "revoked by the organiser" in body and 'id="table-code-form"' in body


# -- rate limits -------------------------------------------------------------------------------------------


def test_the_token_pages_are_rate_limited_by_address(opened, settings):
    settings.TABLE_LINK_RATE = "3/m"
    link = link_of(table_of(opened))
    client = table_client()
    for _ in range(3):
        assert client.get(url("tournaments:table", link)).status_code == 200
    limited = client.get(url("tournaments:table", link))
    assert limited.status_code == 429 and limited["Retry-After"] == "60"
    assert 'id="too-many"' in limited.content.decode()
    assert client.post(url("tournaments:table_hand", link), RON).status_code == 429
    assert not HandRow.objects.exists()
    # another address is not limited by this one
    assert table_client("198.51.100.99").get(url("tournaments:table", link)).status_code == 200


def test_wrong_tokens_and_codes_use_up_a_strict_limit_that_then_blocks_every_token_page(opened, settings):
    settings.TABLE_LINK_FAILURE_RATE = "3/m"
    link = link_of(table_of(opened))
    client = table_client()
    assert client.get("/t/not-a-token/").status_code == 404
    assert client.post(reverse("tournaments:table_code"), {"code": "QQQQQQ"}).status_code == 404
    assert client.get(url("tournaments:table", link)).status_code == 200  # right ones do not count
    assert client.get("/t/still-not-a-token/").status_code == 404
    blocked = client.get(url("tournaments:table", link))
    assert blocked.status_code == 429  # a guesser gets nothing more, not even a right guess
    assert client.post(reverse("tournaments:table_code"), {"code": link.code}).status_code == 429
    assert table_client("198.51.100.99").get(url("tournaments:table", link)).status_code == 200


def test_wrong_player_codes_count_as_guesses(club, organiser, settings):
    settings.TABLE_LINK_FAILURE_RATE = "2/m"
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="players")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    links.enter_final_scores(link=link, scores=[45000, 35000, 25000, 15000], sticks=0, ip=TABLE_IP)
    client = table_client()
    assert client.post(url("tournaments:table_confirm", link), {"code": "AAAAAA"}).status_code == 422
    assert client.post(url("tournaments:table_confirm", link), {"code": "CCCCCC"}).status_code == 422
    code = link.confirmations.get(seat=0).code
    assert client.post(url("tournaments:table_confirm", link), {"code": code}).status_code == 429


def _worker_cache(n: int) -> dict:
    """The page cache of gunicorn worker ``n`` under the default ``locmem://``: its own memory."""
    return {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": f"worker-{n}"}
    }


@pytest.mark.parametrize("backend", ["dummy", "locmem, five workers"])
def test_the_guessing_limit_holds_whatever_the_cache(opened, settings, backend):
    """With ``CACHE_URL=dummy://`` nothing was counted, and with the local-memory cache each of five
    workers counted on its own (150 wrong tokens before the first 429 instead of 30): the failures are
    counted in the database, so the limit is the setting's under every cache (issue 23)."""
    settings.TABLE_LINK_FAILURE_RATE = "3/m"
    link = link_of(table_of(opened))
    client = table_client()

    def serve_next_request(n: int) -> None:
        if backend == "dummy":
            settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
        else:
            settings.CACHES = _worker_cache(n % 5)  # each request served by the next worker

    for attempt in range(3):
        serve_next_request(attempt)
        assert client.get(f"/t/wrong-{attempt}/").status_code == 404
    serve_next_request(3)
    assert client.get(url("tournaments:table", link)).status_code == 429
    assert client.post(reverse("tournaments:table_code"), {"code": link.code}).status_code == 429
    assert table_client("198.51.100.99").get(url("tournaments:table", link)).status_code == 200


def test_old_failures_leave_the_window_and_the_table(opened, settings):
    """A failure counts for the rate's window only, and is deleted once a later failure finds it old."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import FailedGuess

    settings.TABLE_LINK_FAILURE_RATE = "2/m"
    link = link_of(table_of(opened))
    client = table_client()
    assert client.get("/t/wrong-1/").status_code == 404
    assert client.get("/t/wrong-2/").status_code == 404
    assert client.get(url("tournaments:table", link)).status_code == 429
    FailedGuess.objects.update(at=timezone.now() - timedelta(seconds=61))
    assert client.get(url("tournaments:table", link)).status_code == 200  # the window has passed
    assert client.get("/t/wrong-3/").status_code == 404
    assert list(FailedGuess.objects.values_list("address", flat=True)) == [TABLE_IP]  # the old ones gone


@pytest.mark.parametrize(
    ("rate", "expected"),
    [("30/m", (30, 60)), ("5/10s", (5, 10)), ("100/h", (100, 3600)), ("2/d", (2, 86400)), ("junk", (30, 60))],
)
def test_the_failure_rate_reads_as_django_ratelimit_writes_it(rate, expected):
    from tournaments.guessing import parse_rate

    limit, window = parse_rate(rate)
    assert (limit, window.total_seconds()) == expected


# -- junk never breaks a page ------------------------------------------------------------------------------

FIELDS = [
    "result",
    "winner",
    "loser",
    "han",
    "fu",
    "yakuman",
    "riichi",
    "tenpai",
    "seat",
    "version",
    "reason",
    "score_0",
    "score_1",
    "score_2",
    "score_3",
    "sticks",
    "code",
    "note",
]
junk = st.one_of(
    st.text(max_size=12),
    st.integers(-5, 200_000).map(str),
    st.sampled_from(["", "0", "3", "ron", "tsumo", "draw", "chombo", "13", "25", "30000"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.dictionaries(st.sampled_from(FIELDS), junk, max_size=10))
def test_token_pages_never_fail_on_junk(opened, data):
    cache.clear()  # the rate limit is not what this test is about
    link = link_of(table_of(opened))
    client = table_client()
    for name, method in TOKEN_PAGES:
        if method == "post":
            response = client.post(url(name, link), data)
            assert response.status_code in (200, 302, 409, 422), (name, response.status_code)


def test_event_settings_for_tables_flow_through_the_event_form(tournament, organiser):
    from tests.league.test_views import event_post

    client = Client()
    client.force_login(organiser)
    edit = reverse("league_manage:event_edit", args=[tournament.slug])
    form = client.get(edit).context["form"]
    assert {"table_entry", "table_entry_mode", "confirmation", "round_minutes"} <= set(form.fields)
    response = client.post(
        edit,
        event_post(
            name=tournament.name,
            table_entry="on",
            table_entry_mode="final",
            confirmation="players",
            round_minutes="75",
        ),
    )
    assert response.status_code == 302
    saved = Event.objects.get(pk=tournament.pk)
    assert (saved.table_entry, saved.table_entry_mode, saved.confirmation, saved.round_minutes) == (
        True,
        "final",
        "players",
        75,
    )
    entry = HistoryEntry.objects.filter(event=saved, action="event edited").latest("pk")
    assert "confirmation: none → players" in entry.summary
    bad = client.post(edit, event_post(name=tournament.name, confirmation="everyone", round_minutes="0"))
    assert bad.status_code == 200
    assert {"confirmation", "round_minutes"} <= set(bad.context["form"].errors)


def test_a_leagues_edit_form_has_no_tournament_day_settings(event, organiser):
    client = Client()
    client.force_login(organiser)
    form = client.get(reverse("league_manage:event_edit", args=[event.slug])).context["form"]
    assert "confirmation" not in form.fields and "table_entry" not in form.fields
    new = client.get(reverse("league_manage:event_create", args=[event.club.slug])).context["form"]
    assert "confirmation" not in new.fields


def test_a_game_waiting_for_confirmation_is_not_headed_as_a_game_in_play(club, organiser):
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="organiser")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    client = table_client()
    scores = {"score_0": 45000, "score_1": 35000, "score_2": 25000, "score_3": 15000, "sticks": 0}
    client.post(url("tournaments:table_scores", link), {**scores, "version": game.version})
    page = client.get(url("tournaments:table", link)).content.decode()
    assert 'id="table-result"' in page and 'data-state="handed-in"' in page
    assert "Result as handed in, waiting for confirmation" in page
    assert "Result if the game ended now" not in page
    organiser_client = Client()
    organiser_client.force_login(organiser)
    game_page = organiser_client.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert "Result as handed in, waiting for confirmation" in game_page
    assert "Result if the game ended now" not in game_page


def test_a_game_given_back_shows_the_table_the_organisers_reason(club, organiser):
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="organiser")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    client = table_client(ip="198.51.100.9")
    scores = {"score_0": 45000, "score_1": 35000, "score_2": 25000, "score_3": 15000, "sticks": 0}
    client.post(url("tournaments:table_scores", link), {**scores, "version": game.version})
    assert 'id="given-back"' not in client.get(url("tournaments:table", link)).content.decode()
    links.return_to_table(hanchan=game, user=organiser, reason="East and West are swapped")
    french = Client(REMOTE_ADDR="198.51.100.9", headers={"accept-language": "fr"})
    page = french.get(url("tournaments:table", link)).content.decode()
    assert 'id="given-back"' in page and "East and West are swapped" in page  # as the organiser typed it
    assert "The organiser gave the game back" not in page  # in the table's language
    game.refresh_from_db()
    client.post(
        url("tournaments:table_scores", link),
        {**scores, "score_0": 35000, "score_1": 45000, "version": game.version},
    )
    page = client.get(url("tournaments:table", link)).content.decode()
    assert 'data-state="handed-in"' in page and 'id="given-back"' not in page  # handed in again
