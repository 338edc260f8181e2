"""Organisers edit an event and a player, withdraw (and restore) a registration, and paste names alone."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Club, Event, Hanchan, HistoryEntry, Player, Registration, Seat
from scoring.engine import make_ruleset
from tests.league.test_views import event_post

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def fresh(event: Event) -> Event:
    """The event as stored (``rules`` is cached on an instance)."""
    return Event.objects.get(pk=event.pk)


def seat(event: Event, players: list[Player]) -> Hanchan:
    game = Hanchan.objects.create(event=event)
    Seat.objects.bulk_create(Seat(hanchan=game, seat=i, player=p) for i, p in enumerate(players))
    return game


# -- update_event ------------------------------------------------------------------------------------------


def test_update_event_changes_the_details_and_the_rules_of_an_event_without_games(event, organiser):
    services.update_event(
        event=event,
        user=organiser,
        data={
            "name": " Spring League ",
            "city": "Lyon",
            "country": "FRA",
            "min_games": 3,
            "ema_days": 2,
            "ema_qualification": True,
            "tie_break": Event.TieBreak.POINTS_GAMES_PLACEMENT,
            "ruleset": make_ruleset("ema2016", {"kiriage": True}),
        },
    )
    stored = fresh(event)
    assert (stored.name, stored.city, stored.country.code, stored.min_games) == (
        "Spring League",
        "Lyon",
        "FR",
        3,
    )
    assert (stored.ema_days, stored.ema_qualification, stored.tie_break) == (
        2,
        True,
        "points,games,placement",
    )
    assert stored.rules.kiriage is True and event.rules.kiriage is True  # the caller's instance follows
    assert stored.slug == "autumn-league"


def test_update_event_refuses_wrong_fields_and_saves_nothing(event, organiser):
    with pytest.raises(ValidationError) as info:
        services.update_event(
            event=event,
            user=organiser,
            data={"name": "Renamed", "start_date": "2025-05-02", "end_date": "2025-05-01"},
        )
    assert info.value.message_dict == {"end_date": ["The event cannot end before it starts."]}
    with pytest.raises(ValidationError) as info:
        services.update_event(event=event, user=organiser, data={"name": "Renamed", "country": "Atlantis"})
    assert "Country 'Atlantis' is not known" in info.value.message_dict["country"][0]
    with pytest.raises(ValidationError) as info:
        services.update_event(
            event=event, user=organiser, data={"ruleset": {"preset": "ema2016", "uma": [1]}}
        )
    assert "uma" in info.value.message_dict
    assert fresh(event).name == "Autumn League"


def test_update_event_leaves_a_rules_change_of_an_event_with_games_to_scoring(event, players, organiser):
    seat(event, players[:4])
    with pytest.raises(ValidationError) as info:
        services.update_event(
            event=event,
            user=organiser,
            data={"name": "X", "ruleset": make_ruleset("ema2016", {"kiriage": True})},
        )
    assert "already has games: change its rules on the rules page" in info.value.message_dict["ruleset"][0]
    assert fresh(event).name == "Autumn League" and fresh(event).rules.kiriage is False
    services.update_event(
        event=event, user=organiser, data={"name": "X", "ruleset": event.rules}
    )  # unchanged
    assert fresh(event).name == "X"


def test_update_event_refuses_fields_it_does_not_edit(event, organiser):
    with pytest.raises(TypeError):
        services.update_event(event=event, user=organiser, data={"slug": "elsewhere"})


# -- the edit page -----------------------------------------------------------------------------------------


def test_edit_page_starts_from_the_event_and_saves_details_and_rules(event, organiser):
    event.ruleset = make_ruleset("ema2016", {"red_fives": 3}).to_dict()
    event.city = "Lyon"
    event.save()
    client = client_for(organiser)
    url = reverse("league_manage:event_edit", args=[event.slug])
    form = client.get(url).context["form"]
    assert form["name"].value() == "Autumn League" and form["city"].value() == "Lyon"
    assert form["red_fives"].value() == 3 and form["preset"].value() == "ema2016"
    response = client.post(
        url, event_post(name="Autumn League 2025", kiriage="on", min_games="2"), follow=True
    )
    assert response.redirect_chain == [(reverse("league_manage:event", args=[event.slug]), 302)]
    assert "Autumn League 2025 is saved." in response.content.decode()
    stored = fresh(event)
    assert stored.name == "Autumn League 2025" and stored.min_games == 2
    assert stored.rules.kiriage is True and stored.rules.red_fives == 0  # the form's values, all of them


def test_edit_page_shows_errors_on_their_fields_and_saves_nothing(event, organiser):
    client = client_for(organiser)
    url = reverse("league_manage:event_edit", args=[event.slug])
    response = client.post(url, event_post(name="New name", uma_3="-10000"))
    assert response.status_code == 200
    assert "must sum to 0" in " ".join(response.context["form"].errors["uma"])
    response = client.post(url, event_post(name="New name", start_date="2025-07-01"))
    assert response.context["form"].errors["end_date"] == ["The event cannot end before it starts."]
    assert fresh(event).name == "Autumn League"


def test_edit_page_htmx_swaps_the_settings_of_another_preset(event, organiser):
    url = reverse("league_manage:event_edit", args=[event.slug])
    response = client_for(organiser).get(url, {"preset": "mleague"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert 'id="rules-settings"' in body and "<html" not in body and 'value="25000"' in body


def test_another_clubs_organiser_cannot_edit_the_event(event, other_organiser):
    url = reverse("league_manage:event_edit", args=[event.slug])
    assert client_for(other_organiser).post(url, event_post(name="Mine")).status_code == 404
    assert fresh(event).name == "Autumn League"


def test_event_page_links_to_edit_and_rules(event, organiser):
    page = client_for(organiser).get(reverse("league_manage:event", args=[event.slug])).content.decode()
    assert reverse("league_manage:event_edit", args=[event.slug]) in page
    assert reverse("scoring_manage:event_rules", args=[event.slug]) in page


# -- players -----------------------------------------------------------------------------------------------


def test_update_player_saves_names_ema_number_and_country(club, organiser):
    ann = Player.objects.create(display_name="Ann", club=club)
    services.update_player(
        player=ann,
        user=organiser,
        display_name="Annie",
        given_name="Ann",
        family_name="Martin",
        ema_number="04390002",
        country="fra",
    )
    ann.refresh_from_db()
    assert (ann.display_name, ann.family_name, ann.ema_number, ann.country.code) == (
        "Annie",
        "Martin",
        "04390002",
        "FR",
    )
    services.update_player(
        player=ann,
        user=organiser,
        display_name="Annie",
        given_name="",
        family_name="",
        ema_number="",
        country="",
    )
    ann.refresh_from_db()
    assert ann.ema_number is None and ann.given_name == ""


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"ema_number": "1234"}, "ema_number", "EMA number 1234 must be 8 digits"),
        ({"ema_number": "11000007"}, "ema_number", "EMA number 11000007 already belongs to Bob"),
        ({"display_name": "Bob"}, "display_name", "another player of Riichi Lyon already has it"),
        ({"display_name": "  "}, "display_name", "A display name is needed"),
        ({"country": "Atlantis"}, "country", "Country 'Atlantis' is not known"),
    ],
)
def test_update_player_errors_name_the_field_and_the_rule(club, organiser, changes, field, message):
    ann = Player.objects.create(display_name="Ann", club=club, ema_number="04390002")
    Player.objects.create(display_name="Bob", club=club, ema_number="11000007")
    data = {
        "display_name": "Ann",
        "given_name": "Ann",
        "family_name": "",
        "ema_number": "04390002",
        "country": "",
    }
    with pytest.raises(ValidationError) as info:
        services.update_player(player=ann, user=organiser, **{**data, **changes})
    assert message in info.value.message_dict[field][0]
    ann.refresh_from_db()
    assert (ann.display_name, ann.ema_number, ann.given_name) == ("Ann", "04390002", "")


def test_same_display_name_in_another_club_is_fine(club, organiser, other_club):
    Player.objects.create(display_name="Bob", club=other_club)
    ann = Player.objects.create(display_name="Ann", club=club)
    services.update_player(
        player=ann,
        user=organiser,
        display_name="Bob",
        given_name="",
        family_name="",
        ema_number="",
        country="",
    )
    assert Player.objects.filter(display_name="Bob").count() == 2


def test_player_edit_page_saves_and_goes_back(event, players, organiser):
    ann = players[0]
    client = client_for(organiser)
    back = reverse("league_manage:event", args=[event.slug])
    url = reverse("league_manage:player_edit", args=[ann.pk]) + f"?next={back}"
    form = client.get(url).context["form"]
    assert form["display_name"].value() == "Ann"
    data = {"display_name": "Annie", "given_name": "Ann", "family_name": "Martin", "ema_number": "04390002"}
    response = client.post(url, {**data, "next": back}, follow=True)
    assert response.redirect_chain == [(back, 302)]
    assert "Annie is saved." in response.content.decode()
    ann.refresh_from_db()
    assert ann.display_name == "Annie" and ann.ema_number == "04390002"


def test_player_edit_page_shows_errors_and_never_follows_a_foreign_next(event, players, organiser):
    client = client_for(organiser)
    url = reverse("league_manage:player_edit", args=[players[0].pk])
    response = client.post(url, {"display_name": "Bob", "ema_number": "12", "next": "https://evil.example/"})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors["ema_number"] == ["EMA number 12 must be 8 digits, leading zeros included (e.g. 04390002)."]
    response = client.post(url, {"display_name": "Ann", "next": "https://evil.example/"})
    assert response.status_code == 302 and response.url == reverse("league_manage:dashboard")


@pytest.mark.parametrize(
    "junk",
    ["abc", "javascript:alert(1)", "//evil.example/", "/no/such/page/", "/manage/\x00", " /manage/", "?x=1"],
)
def test_player_edit_page_never_fails_on_a_junk_next(event, players, organiser, junk):
    """``next=abc`` used to answer a server error after the change was saved (issue 23): any ``next``
    that is not a path of a page of this site falls back to the dashboard, and the change is saved."""
    client = client_for(organiser)
    url = reverse("league_manage:player_edit", args=[players[0].pk])
    page = client.get(url, {"next": junk})
    assert page.status_code == 200 and page.context["next"] == reverse("league_manage:dashboard")
    response = client.post(url, {"display_name": "Annie", "next": junk})
    assert response.status_code == 302 and response.url == reverse("league_manage:dashboard")
    players[0].refresh_from_db()
    assert players[0].display_name == "Annie"


def test_player_edit_rights(club, event, other_club, other_event, organiser, other_organiser):
    own = Player.objects.create(display_name="Own", club=club)
    guest = Player.objects.create(display_name="Guest", club=other_club)
    stranger = Player.objects.create(display_name="Stranger", club=other_club)
    Registration.objects.create(event=event, player=guest)  # plays in the organiser's event
    client = client_for(organiser)
    # Registering another club's player in one's event gives no right over them (issue 23).
    for player, status in ((own, 200), (guest, 404), (stranger, 404)):
        assert client.get(reverse("league_manage:player_edit", args=[player.pk])).status_code == status
    response = client_for(other_organiser).post(
        reverse("league_manage:player_edit", args=[own.pk]), {"display_name": "Hacked"}
    )
    assert response.status_code == 404
    own.refresh_from_db()
    assert own.display_name == "Own"


# -- withdrawing -------------------------------------------------------------------------------------------


def test_withdrawing_a_player_without_games_removes_the_registration(event, players, organiser):
    registration = Registration.objects.get(event=event, player=players[5])
    assert services.withdraw_registration(registration=registration, user=organiser) is None
    assert not Registration.objects.filter(pk=registration.pk).exists()
    assert Player.objects.filter(pk=players[5].pk).exists()


def test_withdrawing_a_player_who_played_keeps_the_games_and_can_be_undone(event, players, organiser):
    game = seat(event, players[:4])
    registration = Registration.objects.get(event=event, player=players[0])
    kept = services.withdraw_registration(registration=registration, user=organiser, reason="ill")
    assert kept is not None
    registration.refresh_from_db()
    assert registration.withdrawn_at is not None and game.seats.count() == 4
    with pytest.raises(ValidationError, match="Ann is already withdrawn from Autumn League"):
        services.withdraw_registration(registration=registration, user=organiser, reason="ill")
    services.restore_registration(registration=registration, user=organiser)
    registration.refresh_from_db()
    assert registration.withdrawn_at is None
    with pytest.raises(ValidationError, match="Ann is not withdrawn from Autumn League"):
        services.restore_registration(registration=registration, user=organiser)


def test_a_substitutes_seat_counts_as_a_game_of_the_replaced_player(event, players, organiser):
    game = seat(event, [players[1], players[2], players[3], players[4]])
    Seat.objects.filter(hanchan=game, seat=3).update(on_behalf_of=players[0])
    registration = Registration.objects.get(event=event, player=players[0])
    assert services.withdraw_registration(registration=registration, user=organiser, reason="ill") is not None


def test_withdrawing_a_player_who_played_needs_a_reason_which_the_history_keeps(event, players, organiser):
    seat(event, players[:4])
    registration = Registration.objects.get(event=event, player=players[0])
    for reason in ("", "   "):
        with pytest.raises(ValidationError) as refused:
            services.withdraw_registration(registration=registration, user=organiser, reason=reason)
        assert "Reason: Ann has played in Autumn League" in refused.value.message_dict["reason"][0]
        registration.refresh_from_db()
        assert registration.withdrawn_at is None
    services.withdraw_registration(registration=registration, user=organiser, reason=" Left for a train ")
    entry = HistoryEntry.objects.get(event=event, action="player withdrawn")
    assert entry.reason == "Left for a train"


def test_one_click_on_withdraw_only_asks_for_a_confirmation(event, players, organiser):
    """The event page's "Withdraw…" is a link: its page says what happens to this player (games kept,
    tables still to play) and withdraws nobody until its form is sent with a reason."""
    seat(event, players[:4])
    client = client_for(organiser)
    registration = Registration.objects.get(event=event, player=players[0])
    url = reverse("league_manage:registration_withdraw", args=[event.slug, registration.pk])
    event_page = client.get(reverse("league_manage:event", args=[event.slug])).content.decode()
    assert f'href="{url}"' in event_page and f'action="{url}"' not in event_page
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Withdraw Ann from Autumn League?" in body and 'id="withdraw-form"' in body
    assert "Why is the player withdrawn? (required)" in body
    refused = client.post(url, {"reason": ""})
    assert refused.status_code == 422 and "say why" in refused.content.decode()
    registration.refresh_from_db()
    assert registration.withdrawn_at is None


def test_the_confirmation_names_the_tables_still_to_play(event, players, organiser):
    """Withdrawing does not take a player off tables already seated: the confirmation says which."""
    game = seat(event, players[:4])
    Hanchan.objects.filter(pk=game.pk).update(round_number=3, table_number=2)
    registration = Registration.objects.get(event=event, player=players[0])
    body = (
        client_for(organiser)
        .get(reverse("league_manage:registration_withdraw", args=[event.slug, registration.pk]))
        .content.decode()
    )
    assert 'id="withdraw-seated-ahead"' in body and "round 3 table 2" in body
    assert services.seated_without_result(registration) == [(3, 2)]
    assert services.games_played(registration) == 0


def test_event_page_greys_withdrawn_players_and_offers_restore(event, players, organiser):
    seat(event, players[:4])
    client = client_for(organiser)
    registration = Registration.objects.get(event=event, player=players[0])
    url = reverse("league_manage:registration_withdraw", args=[event.slug, registration.pk])
    response = client.post(url, {"reason": "ill"}, follow=True)
    body = response.content.decode()
    assert "Ann is withdrawn: their games still count" in body
    assert 'class="muted withdrawn"' in body and ">withdrawn</span>" in body
    restore = reverse("league_manage:registration_restore", args=[event.slug, registration.pk])
    assert restore in body
    response = client.post(restore, follow=True)
    assert "Ann is back in Autumn League." in response.content.decode()
    registration.refresh_from_db()
    assert registration.withdrawn_at is None
    fay = Registration.objects.get(event=event, player=players[5])
    response = client.post(
        reverse("league_manage:registration_withdraw", args=[event.slug, fay.pk]), follow=True
    )
    assert "Fay had not played: the registration is removed." in response.content.decode()


def test_a_registration_of_another_event_is_404(event, other_event, players, organiser, other_organiser):
    registration = Registration.objects.get(event=event, player=players[0])
    url = reverse("league_manage:registration_withdraw", args=[other_event.slug, registration.pk])
    assert client_for(other_organiser).post(url).status_code == 404
    url = reverse("league_manage:registration_withdraw", args=[event.slug, registration.pk])
    assert client_for(other_organiser).post(url).status_code == 404
    assert Registration.objects.filter(pk=registration.pk, withdrawn_at__isnull=True).exists()


def test_withdrawn_players_are_not_offered_for_a_new_game_but_still_count(event, players, organiser):
    from scoring import services as scoring_services
    from scoring.standings import standings

    game = scoring_services.start_game(
        event=event, players=players[:4], user=organiser, entry_mode=Hanchan.EntryMode.FINAL_SCORES
    )
    scoring_services.record_final_scores(hanchan=game, scores=[40000, 30000, 30000, 20000], user=organiser)
    services.withdraw_registration(
        registration=Registration.objects.get(event=event, player=players[0]), user=organiser, reason="ill"
    )
    client = client_for(organiser)
    form = client.get(reverse("scoring_manage:game_new", args=[event.slug])).context["form"]
    assert players[0] not in form.fields["east"].queryset and players[1] in form.fields["east"].queryset
    data = {"east": players[0].pk, "south": players[1].pk, "west": players[2].pk, "north": players[3].pk}
    response = client.post(
        reverse("scoring_manage:game_new", args=[event.slug]), {**data, "entry_mode": "hands"}
    )
    assert response.status_code == 200 and "east" in response.context["form"].errors
    assert Hanchan.objects.filter(event=event).count() == 1
    ann = next(row for row in standings(event) if row.name == "Ann")
    assert ann.games == 1 and ann.points == 10000 + 15000 + 0  # still counts (oka 0 under EMA 2016)


def test_withdrawn_players_are_left_out_of_the_tournament_seating(club, players, organiser):
    from tests.conftest import make_event
    from tournaments.services import _seat_pool

    tournament = make_event(club, slug="lyon-open")
    for player in players[:5]:
        Registration.objects.create(event=tournament, player=player)
    Registration.objects.filter(event=tournament, player=players[4]).update(withdrawn_at="2025-01-01T00:00Z")
    pool, substitutes = _seat_pool(tournament)
    assert players[4] not in pool and len(pool) == 4 and substitutes == []


# -- pasting names -----------------------------------------------------------------------------------------


def test_a_pasted_line_with_only_a_name_registers_that_player(event, organiser):
    text = "Ann\nBob, Robert\nCho,,,04390002\nDan, Daniel, Weber, 05000001, DE\n"
    registrations = services.register_players_csv(event=event, text=text, user=organiser)
    assert [r.player.display_name for r in registrations] == ["Ann", "Bob", "Cho", "Dan"]
    assert Player.objects.get(display_name="Bob").given_name == "Robert"
    assert Player.objects.get(display_name="Cho").ema_number == "04390002"
    assert Player.objects.get(display_name="Ann").given_name == ""


def test_pasting_names_from_the_event_page(event, organiser):
    client = client_for(organiser)
    url = reverse("league_manage:register_players_csv", args=[event.slug])
    response = client.post(url, {"csv": "Ann\nBob\n"}, follow=True)
    assert "2 players registered" in response.content.decode()
    assert "A line with only a name registers that player" in response.content.decode()
    assert Registration.objects.filter(event=event).count() == 2


def test_a_club_without_the_player_gets_a_new_one_and_names_still_must_be_unique(organiser):
    club = Club.objects.create(name="Paris", slug="paris")
    club.organisers.add(organiser)
    from tests.conftest import make_event

    event = make_event(club, slug="paris-league")
    with pytest.raises(ValidationError) as info:
        services.register_players_csv(event=event, text="Ann\nann\n", user=organiser)
    assert info.value.messages == ["line 2: same player as line 1 (ann)"]


@pytest.mark.parametrize("junk", ["abc", "//evil.example/", "/no/such/page/"])
def test_the_other_views_that_take_a_next_never_fail_on_junk(organiser, junk):
    """Login, logout and the language switcher are Django's: they check ``next`` the same way and answer
    a redirect (never a server error), away from other hosts."""
    client = Client()
    assert client.get(reverse("login"), {"next": junk}).status_code == 200
    login = client.post(
        reverse("login"), {"username": "olga", "password": "organiser-pass-123", "next": junk}
    )
    assert login.status_code == 302 and "evil.example" not in login.url
    language = client.post(reverse("set_language"), {"language": "fr", "next": junk})
    assert language.status_code == 302 and "evil.example" not in language.url
    logout = client.post(reverse("logout"), {"next": junk})
    assert logout.status_code == 302 and "evil.example" not in logout.url
