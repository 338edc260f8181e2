"""The organiser's round page: every table live (a polled fragment), the links with their codes and QR
codes, opening and closing the round, confirming a table's game, clearing a referee call — for the
organiser of this very event only. The page's reads cost a fixed number of queries."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, Hanchan
from scoring import services
from tests.tournaments.test_links import ONE_HAND, full_game, link_of, make_tournament, table_of
from tournaments import links, rounds
from tournaments.models import Round, TableLink
from tournaments.selectors import State, round_numbers, round_view

pytestmark = pytest.mark.django_db

IP = "203.0.113.9"


def organiser_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(name: str, event, *extra) -> str:
    return reverse(f"tournaments_manage:{name}", args=[event.slug, 1, *extra])


# -- the selector ------------------------------------------------------------------------------------------


def test_each_table_state_as_the_organiser_sees_it(club, organiser):
    event = make_tournament(club, organiser, players=20, confirmation="organiser")
    rounds.open_round(event=event, number=1, user=organiser)
    games = {t: table_of(event, 1, t) for t in range(1, 6)}
    links.enter_hand(link=link_of(games[2]), hand=ONE_HAND, ip=IP)
    links.enter_hand(link=link_of(games[2]), hand=ONE_HAND, ip=IP)
    for hand in full_game():
        links.enter_hand(link=link_of(games[3]), hand=hand, ip=IP)
    links.enter_hand(link=link_of(games[4]), hand=ONE_HAND, ip=IP)
    links.finish_game(link=link_of(games[4]), reason="time", ip=IP)
    links.confirm_game(hanchan=games[4], user=organiser)
    links.call_referee(link=link_of(games[5]), note="pao?", ip=IP)
    view = round_view(event, 1)
    rows = {row.table: row for row in view.tables}
    assert rows[1].state == State.NOT_STARTED and rows[1].label == "not started"
    assert rows[2].state == State.PLAYING and rows[2].label == "hand 2" and rows[2].hands == 2
    assert rows[3].state == State.WAITING and rows[3].needs_confirmation
    assert rows[3].label == "waiting for confirmation"
    assert rows[4].state == State.FINISHED and not rows[4].needs_confirmation
    assert rows[5].disputed and rows[5].referee_note == "pao?" and "disputed" in rows[5].label
    assert view.tables_in == 1 and view.counts["waiting"] == 1 and view.counts["disputed"] == 1
    assert view.status == Round.Status.OPEN
    assert all(row.link is not None and len(row.seats) == 4 for row in view.tables)


def test_final_scores_and_player_confirmations_in_the_states(club, organiser):
    event = make_tournament(club, organiser, table_entry_mode="final", confirmation="players")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    links.enter_final_scores(link=link, scores=[45000, 35000, 25000, 15000], sticks=0, ip=IP)
    links.confirm_by_player(link=link, code=link.confirmations.get(seat=1).code, ip=IP)
    row = next(r for r in round_view(event, 1).tables if r.table == 1)
    assert row.state == State.WAITING
    assert row.label == "final scores entered · waiting for confirmation · 1 of 4 players confirmed"
    assert [s.confirmed_at is not None for s in row.seats] == [False, True, False, False]
    assert all(len(s.confirmation_code) == 6 for s in row.seats)


def test_a_void_table_comes_last(opened, organiser):
    services.void_game(hanchan=table_of(opened, 1, 1), user=organiser, reason="no show")
    view = round_view(opened, 1)
    assert [(r.table, r.state) for r in view.tables] == [(2, State.NOT_STARTED), (1, State.VOID)]


def test_the_round_view_costs_the_same_few_queries_for_2_or_12_tables(
    club, organiser, django_assert_max_num_queries
):
    small = make_tournament(club, organiser, players=8, slug="small-open")
    large = make_tournament(club, organiser, players=48, slug="large-open")
    for event in (small, large):
        rounds.open_round(event=event, number=1, user=organiser)
        for table in (1, 2):
            game = table_of(event, 1, table)
            links.enter_hand(link=link_of(game), hand=ONE_HAND, ip=IP)
            links.call_referee(link=link_of(game), note="?", ip=IP)
        links.reissue_link(hanchan=table_of(event, 1, 2), user=organiser)
    for event, tables in ((small, 2), (large, 12)):
        with django_assert_max_num_queries(5):
            view = round_view(event, 1)
            labels = [row.label for row in view.tables]
            codes = [seat.confirmation_code for row in view.tables for seat in row.seats]
        assert len(labels) == tables and all(codes)


def test_round_numbers_lists_each_seated_round_with_its_status(opened, organiser):
    assert round_numbers(opened) == [(1, "open"), (2, "pending")]


# -- the pages ---------------------------------------------------------------------------------------------


def test_the_round_page_shows_each_tables_link_code_and_qr_code(opened, organiser):
    response = organiser_client(organiser).get(page("round", opened))
    assert response.status_code == 200
    body = response.content.decode()
    for table in (1, 2):
        link = link_of(table_of(opened, 1, table))
        assert f'id="link-{table}"' in body and link.code in body
        assert f"http://testserver/t/{link.token}/" in body
    assert body.count('<svg viewBox="0 0') >= 2 and 'class="qr"' in body
    assert 'id="round-status" data-status="open"' in body and 'id="round-close"' in body
    assert 'id="round-tables"' in body and 'hx-trigger="every 10s"' in body
    assert "http://testserver/t/" in body  # the code page


def test_the_polled_fragment_is_the_table_list_alone(opened, organiser, django_assert_max_num_queries):
    game = table_of(opened)
    links.call_referee(link=link_of(game), note="wind", ip=IP)
    client = organiser_client(organiser)
    client.get(page("round_tables", opened))  # session and user loaded once
    with django_assert_max_num_queries(12):
        response = client.get(page("round_tables", opened), headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert body.lstrip().startswith('<div id="round-tables"')
    assert f'hx-get="{page("round_tables", opened)}"' in body
    assert 'id="table-1" data-state="not_started" data-disputed="1"' in body
    assert 'id="clear-referee-1"' in body and "svg" not in body  # no QR codes in what is polled


@pytest.mark.parametrize(
    ("name", "method", "extra"),
    [
        ("round", "get", ()),
        ("round_tables", "get", ()),
        ("round_open", "post", ()),
        ("round_close", "post", ()),
        ("round_links", "post", ()),
        ("link_reissue", "post", ("game",)),
        ("link_revoke", "post", ("game",)),
        ("table_confirm", "post", ("game",)),
        ("referee_clear", "post", ("game",)),
        ("table_return", "post", ("game",)),
    ],
)
def test_only_this_events_organisers_reach_the_round_pages(opened, users, name, method, extra):
    game = table_of(opened)
    args = [game.pk if part == "game" else part for part in extra]
    target = page(name, opened, *args)
    links_before = list(TableLink.objects.order_by("pk").values_list("pk", "revoked_at"))
    for role in ("anonymous", "player", "other_organiser"):
        client = Client()
        if users[role] is not None:
            client.force_login(users[role])
        response = getattr(client, method)(target)
        if role == "anonymous":
            assert response.status_code == 302 and response.url.startswith(reverse("login"))
        else:
            assert response.status_code == 404
    assert list(TableLink.objects.order_by("pk").values_list("pk", "revoked_at")) == links_before
    assert Round.objects.get(event=opened, number=1).status == Round.Status.OPEN
    for role in ("organiser", "staff"):
        client = organiser_client(users[role])
        response = getattr(client, method)(target)
        assert response.status_code in (200, 302)


def test_a_game_of_another_round_or_event_is_404_on_the_round_pages(opened, club, organiser):
    other_round = table_of(opened, 2, 1)
    client = organiser_client(organiser)
    assert client.post(page("link_reissue", opened, other_round.pk)).status_code == 404
    assert client.get(reverse("tournaments_manage:round", args=[opened.slug, 9])).status_code == 404
    league = Event.objects.create(club=club, name="L", slug="a-league", ruleset=opened.ruleset)
    assert client.get(reverse("tournaments_manage:round", args=[league.slug, 1])).status_code == 404


def test_open_and_close_from_the_page(tournament, organiser):
    client = organiser_client(organiser)
    assert 'id="round-open"' in client.get(page("round", tournament)).content.decode()
    client.post(page("round_open", tournament))
    assert Round.objects.get(event=tournament, number=1).status == Round.Status.OPEN
    assert TableLink.objects.filter(hanchan__round_number=1).count() == 2
    refused = client.post(page("round_close", tournament), follow=True)
    assert "not in yet" in refused.content.decode()
    assert Round.objects.get(event=tournament, number=1).status == Round.Status.OPEN
    client.post(page("round_close", tournament), {"anyway": "on"})
    assert Round.objects.get(event=tournament, number=1).status == Round.Status.CLOSED
    body = client.get(page("round", tournament)).content.decode()
    assert 'data-status="closed"' in body and "Reopen the round" in body


def test_confirm_clear_reissue_revoke_and_give_back_from_the_page(club, organiser):
    event = make_tournament(club, organiser, confirmation="organiser")
    rounds.open_round(event=event, number=1, user=organiser)
    game = table_of(event)
    link = link_of(game)
    for hand in full_game():
        links.enter_hand(link=link, hand=hand, ip=IP)
    links.call_referee(link=link, note="score", ip=IP)
    client = organiser_client(organiser)
    body = client.get(page("round_tables", event)).content.decode()
    assert 'id="confirm-1"' in body and 'data-state="waiting"' in body
    # give back, hand in again (the table finishes it), confirm
    client.post(page("table_return", event, game.pk), {"reason": "check the last hand"})
    game.refresh_from_db()
    assert game.submitted_at is None
    missing = client.post(page("table_return", event, game.pk), {"reason": ""}, follow=True)
    assert "Say why the game goes back" in missing.content.decode()
    links.finish_game(link=link, reason="", ip=IP)
    client.post(page("table_confirm", event, game.pk))
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    client.post(page("referee_clear", event, game.pk))
    assert link_of(game).referee_called_at is None
    client.post(page("link_reissue", event, game.pk))
    assert link_of(game).pk != link.pk
    client.post(page("link_revoke", event, game.pk))
    assert not TableLink.objects.filter(hanchan=game, revoked_at__isnull=True).exists()
    again = client.post(page("link_revoke", event, game.pk), follow=True)
    assert "no active link to revoke" in again.content.decode()


def test_the_tournament_page_links_each_round_page(opened, organiser):
    body = organiser_client(organiser).get(reverse("tournaments_manage:tournament", args=[opened.slug]))
    text = body.content.decode()
    for number in (1, 2):
        assert reverse("tournaments_manage:round", args=[opened.slug, number]) in text


def test_the_slips_print_each_tables_link_code_and_qr_code(tournament, organiser):
    client = organiser_client(organiser)
    slips = page("slips_print", tournament)
    before = client.get(slips).content.decode()
    assert 'id="slips-issue-links"' in before and "slip-code" not in before
    response = client.post(page("round_links", tournament), {"next": "slips"})
    assert response.status_code == 302 and response.url == slips
    body = client.get(slips).content.decode()
    for table in (1, 2):
        link = link_of(table_of(tournament, 1, table))
        assert f'<strong class="slip-code">{link.code}</strong>' in body
        assert f"http://testserver/t/{link.token}/" in body
    assert body.count("<svg") == 2 and "slip-player-code" not in body
    tournament.confirmation = "players"
    tournament.save()
    body = client.get(slips).content.decode()
    codes = link_of(table_of(tournament)).confirmations.values_list("code", flat=True)
    assert all(f'<code class="slip-player-code">{code}</code>' in body for code in codes)


def test_each_players_code_is_on_a_strip_of_their_own_not_on_the_shared_slip(tournament, organiser):
    """The codes were printed beside the names on the one slip the table shares, so whoever held it
    could confirm for all four. Each code is now on its own strip, under its player's name only."""
    from html.parser import HTMLParser

    tournament.confirmation = "players"
    tournament.save()
    client = organiser_client(organiser)
    client.post(page("round_links", tournament), {"next": "slips"})
    body = client.get(page("slips_print", tournament)).content.decode()
    game = table_of(tournament, 1, 1)
    codes = {c.seat: c.code for c in link_of(game).confirmations.all()}

    class Parts(HTMLParser):
        """The text of the slip's own table, and of each strip, by the id of the box they are in."""

        def __init__(self) -> None:
            super().__init__()
            self.stack: list[str] = []
            self.text: dict[str, str] = {}

        def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
            if tag in ("br", "img", "input", "meta", "link"):  # void: no end tag to pop it
                return
            found = dict(attrs).get("id") or ("table" if tag == "table" else "")
            self.stack.append(found)

        def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
            self.stack.pop()

        def handle_data(self, data):  # type: ignore[no-untyped-def]
            for name in self.stack:
                if name:
                    self.text[name] = self.text.get(name, "") + data

    parts = Parts()
    parts.feed(
        body[body.index('<div class="slip" id="slip-1">') : body.index('<div class="slip" id="slip-2">')]
    )
    assert not any(code in parts.text["table"] for code in codes.values())  # the shared slip: no code
    for seat in game.seats.select_related("player"):
        strip = parts.text[f"code-strip-1-{seat.seat}"]
        assert seat.player.display_name in strip and codes[seat.seat] in strip
        assert all(code not in strip for other, code in codes.items() if other != seat.seat)


def test_no_links_on_the_page_when_tables_do_not_enter(club, organiser):
    event = make_tournament(club, organiser, table_entry=False)
    client = organiser_client(organiser)
    client.post(page("round_open", event))
    body = client.get(page("round", event)).content.decode()
    assert 'id="links"' not in body and "you enter the results" in body
    assert "slips-issue-links" not in client.get(page("slips_print", event)).content.decode()
