"""League services on a real database: effective rulesets, registration, CSV pastes saved all or none."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from league import services
from league.models import Event, Player, Registration
from scoring.engine import make_ruleset
from tests.conftest import make_event

pytestmark = pytest.mark.django_db


def event_args(club, organiser, **changes):
    args = {
        "club": club,
        "name": "Spring League",
        "slug": "",
        "kind": Event.Kind.LEAGUE,
        "preset": "ema2016",
        "overrides": {},
        "visibility": Event.Visibility.PUBLIC,
        "min_games": 0,
        "start_date": date(2025, 3, 1),
        "end_date": date(2025, 6, 30),
        "city": "Lyon",
        "country": "fr",
        "user": organiser,
    }
    return {**args, **changes}


def register(event, organiser, display_name, *, ema="", country="", given="", family=""):
    return services.register_player(
        event=event,
        display_name=display_name,
        given_name=given,
        family_name=family,
        ema_number=ema,
        country=country,
        user=organiser,
    )


# -- create_event ------------------------------------------------------------------------------------------


def test_create_event_stores_the_effective_ruleset_with_overrides(club, organiser):
    event = services.create_event(
        **event_args(club, organiser, preset="wrc2022", overrides={"kiriage": False, "red_fives": 3})
    )
    event.refresh_from_db()
    assert event.ruleset == make_ruleset("wrc2022", {"kiriage": False, "red_fives": 3}).to_dict()
    assert event.ruleset["preset"] == "wrc2022"
    assert event.ruleset["kiriage"] is False and event.ruleset["chombo_points"] == 30000
    assert event.rules.red_fives == 3
    assert (event.slug, event.country, event.club) == ("spring-league", "FR", club)


def test_create_event_makes_a_free_slug_from_the_name(club, organiser):
    first = services.create_event(**event_args(club, organiser))
    second = services.create_event(**event_args(club, organiser))
    assert (first.slug, second.slug) == ("spring-league", "spring-league-2")


def test_create_event_refuses_a_typed_slug_that_is_taken(club, organiser, event):
    with pytest.raises(ValidationError) as info:
        services.create_event(**event_args(club, organiser, slug=event.slug))
    assert "slug" in info.value.message_dict
    assert Event.objects.count() == 1


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"uma": [15000, 5000, -5000, -10000]}, "uma"),
        ({"red_fives": 5}, "red_fives"),
        ({"chombo_points": 0}, "chombo_points"),
        ({"length": "marathon"}, "length"),
    ],
)
def test_create_event_puts_a_ruleset_error_on_its_setting(club, organiser, overrides, field):
    with pytest.raises(ValidationError) as info:
        services.create_event(**event_args(club, organiser, overrides=overrides))
    assert field in info.value.message_dict
    assert not Event.objects.exists()


def test_create_event_checks_dates_and_country(club, organiser):
    with pytest.raises(ValidationError) as info:
        services.create_event(
            **event_args(
                club, organiser, start_date=date(2025, 5, 1), end_date=date(2025, 4, 1), country="XX"
            )
        )
    assert "country" in info.value.message_dict
    with pytest.raises(ValidationError) as info:
        services.create_event(
            **event_args(club, organiser, start_date=date(2025, 5, 1), end_date=date(2025, 4, 1))
        )
    assert "end_date" in info.value.message_dict
    assert not Event.objects.exists()


# -- countries and EMA numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "iso"), [("fr", "FR"), ("FR", "FR"), ("FRA", "FR"), ("ger", "DE"), ("France", "FR"), ("", "")]
)
def test_parse_country_accepts_iso_ema_codes_and_names(typed, iso):
    assert services.parse_country(typed) == iso


@pytest.mark.parametrize("typed", ["XX", "FRANCEE", "ﬁ", "F", "12"])
def test_parse_country_refuses_unknown_codes(typed):
    with pytest.raises(ValidationError, match="not known"):
        services.parse_country(typed)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1234", "EMA number 1234 must be 8 digits"),
        ("043900021", "must be 8 digits"),
        ("0439000a", "must be 8 digits"),
        ("٠٤٣٩٠٠٠٢", "must be 8 digits"),  # Arabic-Indic digits are digits to \d, not to the EMA
        ("99123456", "first two digits must be an EMA member country"),
    ],
)
def test_ema_number_is_8_ascii_digits_with_a_member_prefix(typed, message):
    with pytest.raises(ValidationError, match=message):
        services.parse_ema_number(typed)


def test_ema_number_keeps_leading_zeros():
    assert services.parse_ema_number(" 04390002 ") == "04390002"
    assert services.parse_ema_number("") is None


# -- register_player -------------------------------------------------------------------------------------


def test_register_player_creates_the_player_in_the_events_club(event, organiser, club):
    registration = register(
        event, organiser, "Ann", ema="04390002", country="FRA", given="Ann", family="Martin"
    )
    player = registration.player
    assert (player.club, player.ema_number, player.country, player.family_name) == (
        club,
        "04390002",
        "FR",
        "Martin",
    )
    assert registration.event == event


def test_register_player_reuses_a_known_player_and_fills_blank_details(event, organiser, club):
    known = Player.objects.create(display_name="Ann", club=club)
    registration = register(event, organiser, "ann", ema="04390002", given="Ann", family="Martin")
    assert registration.player == known
    known.refresh_from_db()
    assert (known.ema_number, known.family_name) == ("04390002", "Martin")
    assert Player.objects.count() == 1


def test_register_player_reuses_a_player_by_ema_number_across_clubs(event, organiser, other_club):
    traveller = Player.objects.create(
        display_name="Hans", family_name="Meyer", ema_number="05000001", club=other_club
    )
    registration = register(event, organiser, "Hans M.", ema="05000001", family="Meyer")
    assert registration.player == traveller


def test_register_player_reports_an_ema_number_of_someone_else(event, organiser, club):
    Player.objects.create(display_name="Bob", family_name="Smith", ema_number="04390002", club=club)
    with pytest.raises(ValidationError, match="belongs to Smith, not Ann Martin") as info:
        register(event, organiser, "Ann", ema="04390002", given="Ann", family="Martin")
    assert "ema_number" in info.value.message_dict
    assert not Registration.objects.exists()


def test_register_player_reports_a_name_with_another_ema_number(event, organiser, club):
    Player.objects.create(display_name="Ann", ema_number="04390002", club=club)
    with pytest.raises(ValidationError, match="already has EMA number 04390002"):
        register(event, organiser, "Ann", ema="04390003")


def test_register_player_twice_is_an_error(event, organiser):
    register(event, organiser, "Ann")
    with pytest.raises(ValidationError, match="already registered") as info:
        register(event, organiser, "Ann")
    assert NON_FIELD_ERRORS in info.value.message_dict
    assert Registration.objects.count() == 1


def test_register_player_bad_fields_name_the_field_and_save_nothing(event, organiser):
    with pytest.raises(ValidationError) as info:
        register(event, organiser, "", ema="12", country="Atlantis")
    assert set(info.value.message_dict) == {"display_name", "ema_number", "country"}
    with pytest.raises(ValidationError) as info:
        register(event, organiser, "x" * 81)
    assert "display_name" in info.value.message_dict
    assert not Player.objects.exists() and not Registration.objects.exists()


# -- register_players_csv --------------------------------------------------------------------------------

GOOD = """display name, given name, family name, EMA number, country

Ann, Ann, Martin, 04390002, FR
Bob, Robert, Smith, 11000007, gbr
"Cho, Jr", Cho, Lee
Dan, Daniel, Weber, , DE
"""


def test_csv_all_good_registers_everyone(event, organiser):
    registrations = services.register_players_csv(event=event, text=GOOD, user=organiser)
    assert [r.player.display_name for r in registrations] == ["Ann", "Bob", "Cho, Jr", "Dan"]
    bob = Player.objects.get(display_name="Bob")
    assert (bob.ema_number, bob.country, bob.given_name) == ("11000007", "GB", "Robert")
    assert Player.objects.get(display_name="Dan").ema_number is None
    assert Registration.objects.filter(event=event).count() == 4


def test_csv_one_bad_line_reports_every_error_by_line_and_saves_nothing(event, organiser):
    text = GOOD + "Eve, Eve, Dubois, 1234, FR\nFay, Fay, Klein, 05000001, Atlantis\n"
    text += "Gus, G, U, , FR, gus, Gus, 123, DE\n"  # 9 values: one more than the 8 columns
    with pytest.raises(ValidationError) as info:
        services.register_players_csv(event=event, text=text, user=organiser)
    messages = info.value.messages
    assert messages == [
        "line 7: EMA number 1234 must be 8 digits, leading zeros included (e.g. 04390002).",
        "line 8: Country 'Atlantis' is not known: use the two-letter ISO code (FR) or the EMA three-letter "
        "code (FRA).",
        "line 9: expected 1 to 8 values separated by commas (display name, given name, family name, EMA "
        "number, country, Tenhou name, Mahjong Soul nickname, Mahjong Soul friend ID; only the display "
        "name is needed), found 9",
    ]
    assert not Player.objects.exists() and not Registration.objects.exists()


def test_csv_duplicate_ema_number_within_the_paste(event, organiser):
    text = "Ann, Ann, Martin, 04390002\nAnnie, Ann, Martin, 04390002\n"
    with pytest.raises(ValidationError) as info:
        services.register_players_csv(event=event, text=text, user=organiser)
    assert info.value.messages == ["line 2: same player as line 1 (Annie)"]
    assert not Player.objects.exists()


def test_csv_duplicate_display_name_and_known_ema_number(event, organiser, club):
    Player.objects.create(display_name="Bob", ema_number="11000007", club=club)
    text = "Ann, Ann, Martin\nANN, Ann, Other\nRob, , , 11000007\nBob, , \n"
    with pytest.raises(ValidationError) as info:
        services.register_players_csv(event=event, text=text, user=organiser)
    assert info.value.messages == [
        "line 2: same player as line 1 (ANN)",
        "line 4: same player as line 3 (Bob)",
    ]


def test_csv_ema_number_taken_by_a_registered_player(event, organiser):
    """The line names Annie: the refusal says the number is Ann's (not "Ann is already registered",
    which reads as if the line were about Ann)."""
    register(event, organiser, "Amélie Dupont", ema="04390002")
    with pytest.raises(ValidationError) as info:
        services.register_players_csv(event=event, text="Annie, , , 04390002\n", user=organiser)
    assert info.value.messages == [
        "line 1: EMA number 04390002 belongs to Amélie Dupont, already registered in Autumn League."
    ]


def test_register_player_with_the_number_of_someone_registered_names_the_number(event, organiser):
    register(event, organiser, "Amélie Dupont", ema="04390002")
    with pytest.raises(ValidationError) as info:
        register(event, organiser, "Annie", ema="04390002")
    assert info.value.message_dict == {
        "ema_number": ["EMA number 04390002 belongs to Amélie Dupont, already registered in Autumn League."]
    }
    with pytest.raises(ValidationError) as info:  # no number typed: the name is what matched
        register(event, organiser, "amélie dupont")
    assert info.value.messages == ["Amélie Dupont is already registered in Autumn League."]
    assert Registration.objects.count() == 1


def test_a_line_with_the_number_of_an_unregistered_player_says_whose_number_it_is(event, organiser, club):
    amelie = Player.objects.create(display_name="Amélie Dupont", ema_number="04390002", club=club)
    (registration,) = services.register_players_csv(event=event, text="Annie, , , 04390002\n", user=organiser)
    assert registration.player == amelie
    assert registration.notices == [
        "EMA number 04390002 belongs to Amélie Dupont: registered under that name."
    ]
    # The same name (any case) with its own number: nothing to say.
    other = make_event(club, slug="winter-league")
    (registration,) = services.register_players_csv(
        event=other, text="amélie DUPONT, , , 04390002\n", user=organiser
    )
    assert registration.player == amelie and registration.notices == []


def test_csv_names_the_column_of_a_model_error(event, organiser):
    with pytest.raises(ValidationError) as info:
        services.register_players_csv(event=event, text=f"Ann, {'x' * 81}, Martin\n", user=organiser)
    assert info.value.messages == [
        "line 1: given name: Ensure this value has at most 80 characters (it has 81)."
    ]


def test_csv_needs_a_line(event, organiser):
    with pytest.raises(ValidationError, match="Paste at least one line"):
        services.register_players_csv(event=event, text="display name, given\n\n  \n", user=organiser)


def test_csv_header_only_counts_on_the_first_line(event, organiser):
    registrations = services.register_players_csv(
        event=event, text="Ann, Ann, Martin\nDisplay Dan, Dan, Weber\n", user=organiser
    )
    assert [r.player.display_name for r in registrations] == ["Ann", "Display Dan"]
