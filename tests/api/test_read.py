"""The read API shows what the pages show, to whom they show it: members-only events and players,
rounds kept for a final reveal; ETags from the results versions; pages and filters; bounded queries."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Hanchan, Player, Registration
from scoring import services
from scoring.engine import Hand, Win
from scoring.standings import public_standings
from tournaments import reveal

pytestmark = pytest.mark.django_db


def get(client, name, *args, **query):  # type: ignore[no-untyped-def]
    return client.get(reverse(f"api:{name}", args=args), query, HTTP_ACCEPT="application/json")


def test_clubs_and_events_list_what_the_visitor_may_see(world, anonymous, member):
    clubs = get(anonymous, "clubs").json()
    assert [c["slug"] for c in clubs["results"]] == ["riichi-lyon"] and clubs["count"] == 1
    public = {e["slug"] for e in get(anonymous, "events").json()["results"]}
    assert "autumn-league" in public and "members-cup" not in public
    assert "members-cup" in {e["slug"] for e in get(member, "events").json()["results"]}
    assert get(anonymous, "event", "members-cup").status_code == 404
    assert get(member, "event", "members-cup").json()["visibility"] == "members"
    only_tournaments = get(anonymous, "events", kind="tournament").json()["results"]
    assert [e["kind"] for e in only_tournaments] == ["tournament"]
    assert get(anonymous, "events", kind="junk").status_code == 400
    assert [e["slug"] for e in get(anonymous, "events", club="riichi-lyon").json()["results"]]
    assert get(anonymous, "events", club="no-such-club").json()["results"] == []
    for junk in ("", "riichi lyon", "lyon\x00", "ły"):  # the schema's slug pattern: a 400 naming it
        refused = get(anonymous, "events", club=junk)
        assert refused.status_code == 400 and "club" in refused.json(), junk


def test_standings_are_the_public_standings(world, anonymous):
    league = world["league"]
    rows = get(anonymous, "standings", league.slug).json()["results"]
    expected = public_standings(league)
    assert [(r["player_id"], r["points"], r["rank"]) for r in rows] == [
        (e.player_id, e.points, e.rank) for e in expected
    ]
    assert get(anonymous, "standings", league.slug, date_from="2020-02-30").status_code == 400
    assert "min_games" in get(anonymous, "standings", league.slug, min_games="-1").json()


def test_hidden_rounds_stay_hidden(world, anonymous, member, organiser):
    cup = world["tournament"]
    hidden = Hanchan.objects.filter(event=cup, round_number=2).first()
    games = get(anonymous, "event_games", cup.slug).json()["results"]
    assert {g["round_number"] for g in games} == {1}
    assert get(anonymous, "game", hidden.pk).status_code == 404
    assert get(member, "game", hidden.pk).status_code == 404  # hidden from everyone on the public side
    after_two = get(anonymous, "standings", cup.slug, up_to_round=2).json()["results"]
    assert [r["points"] for r in after_two] == [r.points for r in public_standings(cup)]
    assert get(anonymous, "event", cup.slug).json()["hidden_after_round"] == 1
    reveal.release_standings(event=cup, user=organiser)
    assert {g["round_number"] for g in get(anonymous, "event_games", cup.slug).json()["results"]} == {1, 2}
    assert get(anonymous, "game", hidden.pk).status_code == 200


def test_members_only_players_show_their_name_only(world, anonymous, member):
    mia = world["mia"]
    rows = {r["id"]: r for r in get(anonymous, "event_players", "autumn-league").json()["results"]}
    assert rows[mia.pk]["display_name"] == "Mia Member" and rows[mia.pk]["details"] is None
    assert rows[world["ann"].pk]["details"] is not None
    assert get(anonymous, "player", mia.pk).status_code == 404
    seen = {r["id"]: r for r in get(member, "event_players", "autumn-league").json()["results"]}
    assert seen[mia.pk]["details"]["family_name"] == "Secret"
    assert get(member, "player", mia.pk).json()["ema_number"] == "04390002"
    ann = get(anonymous, "player", world["ann"].pk).json()
    assert "members-cup" not in ann["events"] and "autumn-league" in ann["events"]
    assert "members-cup" in get(member, "player", world["ann"].pk).json()["events"]


def test_a_game_comes_with_its_hands(world, anonymous):
    game = get(anonymous, "game", world["hands_game"].pk).json()
    assert [s["player_name"] for s in game["seats"]] == ["Ann", "Bob", "Cho", "Dan"]
    (hand,) = game["hands"]
    assert hand["result"] == "ron" and hand["loser"] == 1 and hand["wins"][0]["han"] == 3
    assert sum(hand["deltas"]) == 0 and hand["deltas"][0] > 0
    paper = get(anonymous, "game", world["paper_game"].pk).json()
    assert [r["place"] for r in paper["results"]] == [1, 2, 3, 4] and paper["hands"] == []
    assert get(anonymous, "game", world["members_game"].pk).status_code == 404


def test_games_filter_by_player_and_status(world, anonymous):
    dan = world["ann"].pk
    games = get(anonymous, "event_games", "autumn-league", player=dan, status="finished").json()["results"]
    assert [g["id"] for g in games] == [world["paper_game"].pk]
    assert get(anonymous, "event_games", "autumn-league", round="x").status_code == 400


def test_pages_and_page_sizes(world, anonymous):
    first = get(anonymous, "event_players", "autumn-league", page_size=2).json()
    assert len(first["results"]) == 2 and first["count"] == 7 and first["next"]
    assert get(anonymous, "event_players", "autumn-league", page=99).status_code == 404
    for junk in ("", "abc", "last", "-1", "1.5", "２"):
        refused = get(anonymous, "event_players", "autumn-league", page=junk)
        assert refused.status_code == 400, junk
        assert "page" in refused.json(), junk


def test_etag_gives_304_until_the_results_change(world, anonymous, organiser):
    league, game = world["league"], world["hands_game"]
    tags = {}
    for name, args in (("standings", [league.slug]), ("event", [league.slug]), ("game", [game.pk])):
        tag = tags[name] = get(anonymous, name, *args)["ETag"]
        again = anonymous.get(
            reverse(f"api:{name}", args=args), HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT="application/json"
        )
        assert again.status_code == 304, name
    services.record_hand(hanchan=game, hand=Hand.tsumo(Win(2, 2, 30)), user=organiser)
    for name, args in (("standings", [league.slug]), ("game", [game.pk])):
        changed = anonymous.get(
            reverse(f"api:{name}", args=args), HTTP_IF_NONE_MATCH=tags[name], HTTP_ACCEPT="application/json"
        )
        assert changed.status_code == 200 and changed["ETag"] != tags[name]


def test_a_hidden_game_moves_no_etag(world, anonymous, organiser):
    cup = world["tournament"]
    tag = get(anonymous, "standings", cup.slug)["ETag"]
    hidden = Hanchan.objects.filter(event=cup, round_number=2).first()
    services.record_final_scores(
        hanchan=hidden, scores=[30000, 30000, 30000, 30000], user=organiser, reason="slip misread"
    )
    assert get(anonymous, "standings", cup.slug)["ETag"] == tag


def test_tournament_day(world, anonymous):
    cup = world["tournament"]
    assert get(anonymous, "rounds", cup.slug).json()["results"] == [
        {"number": 1, "status": "pending"},
        {"number": 2, "status": "pending"},
    ]
    seating = get(anonymous, "seating", cup.slug, 1).json()["results"]
    assert len(seating) == 8 and {line["table"] for line in seating} == {1, 2}
    clock = get(anonymous, "round_clock", cup.slug, 1).json()
    assert clock["round_number"] == 1 and clock["running"] is False
    assert get(anonymous, "round_clock", cup.slug, 9).status_code == 404
    assert get(anonymous, "rounds", "autumn-league").status_code == 404  # a league has no rounds


def test_ratings(world, anonymous):
    answer = get(anonymous, "ratings", "autumn-league").json()
    assert set(answer) == {"updating", "tenhou", "openskill"}


@pytest.mark.parametrize("many", [2, 12])
def test_lists_cost_the_same_queries_whatever_their_length(
    many, club, event, organiser, django_assert_max_num_queries
):
    made = [Player.objects.create(display_name=f"P{i:02d}", club=club) for i in range(many * 4)]
    for player in made:
        Registration.objects.create(event=event, player=player)
    for i in range(many):
        game = services.start_game(
            event=event, players=made[4 * i : 4 * i + 4], user=organiser, entry_mode="final_scores"
        )
        services.record_final_scores(hanchan=game, scores=[40000, 32000, 28000, 20000], user=organiser)
    from rest_framework.test import APIClient

    client = APIClient()
    for name in ("event_games", "event_players", "standings", "ratings", "event"):
        with django_assert_max_num_queries(8):
            assert get(client, name, event.slug).status_code == 200
    with django_assert_max_num_queries(8):
        assert get(client, "game", game.pk).status_code == 200
    with django_assert_max_num_queries(6):
        assert get(client, "player", made[0].pk).status_code == 200


def test_the_schema_and_its_docs_are_served_from_the_site(db, anonymous):
    schema = anonymous.get("/api/v1/schema/?format=json").json()
    assert schema["openapi"].startswith("3.") and "/api/v1/events/{slug}/standings/" in schema["paths"]
    for url in ("/api/v1/docs/", "/api/v1/redoc/"):
        page = anonymous.get(url)
        assert page.status_code == 200
        assert "drf_spectacular_sidecar" in page.content.decode()  # the assets are the package's, no CDN


@pytest.mark.parametrize(
    "query",
    ["kind=", "kind=tournament&kind=nonsense", "kind=nonsense&kind=tournament", "kind=league&kind=league"],
)
def test_a_filter_takes_one_value_never_empty(query, db):
    """As the schema documents each parameter (one value of its enum): an empty or repeated one is a 400
    that names it, not "no filter" or the last value (schemathesis found both)."""
    from rest_framework.test import APIClient

    response = APIClient().get(f"/api/v1/events/?{query}", HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and "kind" in response.json()
