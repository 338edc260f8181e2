"""Registration's services: places, the waiting list and its promotions, approval, EMA numbers checked
and linked (never changed), the confirmed list made the event's players, check-in and the seating of the
players who checked in."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from background.worker import run_ready
from league.models import Hanchan, Player, Registration
from notifications.models import Message
from notifications.outbox import qr_png
from registration import services
from registration.models import SignUp
from tests.registration.conftest import open_registration
from tests.smtp import body_of

pytestmark = pytest.mark.django_db


def sign(event, name, **fields):
    fields.setdefault("email", f"{name.lower().replace(' ', '').replace('.', '')}@example.org")
    return services.sign_up(event=event, name=name, **fields)


def test_places_then_the_waiting_list_then_full(tournament, organiser, opening):
    made = [sign(tournament, n) for n in ["Ann", "Bob", "Cho", "Dan", "Eve", "Fay"]]
    assert [s.status for s in made] == ["confirmed"] * 4 + ["waiting"] * 2
    open_registration(tournament, organiser, waiting_list=False)
    with pytest.raises(ValidationError, match="full: all 4 places are taken"):
        sign(tournament, "Gus")
    assert SignUp.objects.count() == 6


def test_closed_and_not_yet_open(tournament, organiser, opening):
    with pytest.raises(ValidationError, match="opens on"):
        services.sign_up(event=tournament, name="Ann", email="a@x.org", now=opening.opens_at - timedelta(1))
    with pytest.raises(ValidationError, match="is closed"):
        services.sign_up(event=tournament, name="Ann", email="a@x.org", now=opening.closes_at)
    assert not SignUp.objects.exists()


def test_a_withdrawal_promotes_the_first_on_the_waiting_list_who_is_told(tournament, opening, smtp_server):
    confirmed = [sign(tournament, n) for n in ["Ann", "Bob", "Cho", "Dan"]]
    first, second = sign(tournament, "Eve"), sign(tournament, "Fay")
    run_ready()
    services.withdraw(signup=confirmed[1])
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == "confirmed" and second.status == "waiting"
    run_ready()
    (promoted,) = [m for m in smtp_server.to("eve@example.org") if "place" in m["Subject"]]
    assert promoted["Subject"] == "A place for you: Lyon Open"
    assert first.get_absolute_url() in body_of(promoted)
    (attachment,) = list(promoted.iter_attachments())  # the check-in QR code: the personal link's
    assert attachment.get_content_type() == "image/png"
    assert attachment.get_content() == qr_png("http://testserver" + first.get_absolute_url())
    services.withdraw(signup=confirmed[1])  # a second tap changes nothing more
    second.refresh_from_db()
    assert second.status == "waiting"


def test_a_rejected_place_goes_to_the_waiting_list_too(tournament, organiser, opening):
    confirmed = [sign(tournament, n) for n in ["Ann", "Bob", "Cho", "Dan"]]
    waiting = sign(tournament, "Eve")
    services.reject(signup=confirmed[0], user=organiser)
    waiting.refresh_from_db()
    assert waiting.status == "confirmed"


def test_approval(tournament, organiser):
    open_registration(tournament, organiser, approval=True, capacity=1)
    ann, bob = sign(tournament, "Ann"), sign(tournament, "Bob")
    assert ann.status == bob.status == "pending"
    services.approve(signup=ann, user=organiser)
    with pytest.raises(ValidationError, match="All 1 places are taken"):
        services.approve(signup=bob, user=organiser)
    services.move_to_waiting_list(signup=bob, user=organiser)
    bob.refresh_from_db()
    assert bob.status == "waiting"
    keys = set(Message.objects.values_list("template", flat=True))
    assert keys == {
        "registration/email/pending",
        "registration/email/confirmed",
        "registration/email/waiting",
    }


@pytest.mark.parametrize(
    ("number", "country", "message"),
    [
        ("4390002", "", "must be 8 digits"),
        ("0439000x", "", "must be 8 digits"),
        ("９９３９０００２", "", "must be 8 digits"),  # full-width digits are not ASCII digits
        ("99390002", "", "EMA member country"),
        ("04390002", "PL", "is a number of France"),
    ],
)
def test_ema_numbers_are_checked(tournament, opening, number, country, message):
    with pytest.raises(ValidationError) as caught:
        sign(tournament, "Ann", ema_number=number, country=country)
    assert message in " ".join(caught.value.message_dict["ema_number"])
    assert not SignUp.objects.exists() and not Message.objects.exists()


def test_an_ema_number_is_registered_once(tournament, opening):
    sign(tournament, "Ann", ema_number="04390002")
    with pytest.raises(ValidationError, match="already registered"):
        sign(tournament, "Annie", ema_number="04390002", email="other@example.org")
    assert SignUp.objects.count() == 1


def test_the_country_comes_from_the_ema_number_when_not_chosen(tournament, opening):
    assert sign(tournament, "Ann", ema_number="19000123").country == "PL"


def test_a_known_player_is_linked_and_never_changed(tournament, organiser, opening, other_club):
    known = Player.objects.create(
        display_name="Kasia K.", ema_number="19000123", country="PL", club=other_club
    )
    mine = Player.objects.create(display_name="Léa", ema_number="04390002", club=tournament.club)
    before = {p.pk: Player.objects.filter(pk=p.pk).values().get() for p in (known, mine)}
    kasia = sign(tournament, "Katarzyna", ema_number="19000123", club="Warsaw Riichi")
    lea = sign(tournament, "Lea B.", ema_number="04390002", country="FR")
    assert kasia.player == known and lea.player == mine
    registrations = services.add_confirmed_players(event=tournament, user=organiser)
    assert {r.player_id for r in registrations} == {known.pk, mine.pk}
    after = {p.pk: Player.objects.filter(pk=p.pk).values().get() for p in (known, mine)}
    for values in (*after.values(), *before.values()):
        # a registration moves the player page's versions (results, and what it shows), nothing else
        values.pop("results_version")
        values.pop("shown_version")
    assert after == before  # never changed: not the name typed, not the country (Léa's stays blank)
    assert Player.objects.count() == 2


def test_the_confirmed_list_becomes_the_events_players_once(tournament, organiser, opening):
    for name in ["Ann", "Bob", "Cho", "Dan", "Eve"]:
        sign(tournament, name, ema_number="")
    made = services.add_confirmed_players(event=tournament, user=organiser)
    assert sorted(r.player.display_name for r in made) == ["Ann", "Bob", "Cho", "Dan"]  # Eve waits
    assert services.add_confirmed_players(event=tournament, user=organiser) == []
    assert Registration.objects.filter(event=tournament).count() == 4
    assert tournament.history.filter(action="player registered").count() == 4


def test_a_registered_ema_number_cannot_sign_up_again(tournament, organiser, opening):
    sign(tournament, "Ann", ema_number="04390002")
    services.add_confirmed_players(event=tournament, user=organiser)
    SignUp.objects.update(status="withdrawn")
    with pytest.raises(ValidationError, match="already registered"):
        sign(tournament, "Ann", ema_number="04390002")


def test_check_in_by_the_personal_link_and_the_day(tournament, opening):
    tournament.start_date = date.today() + timedelta(days=3)
    tournament.save()
    ann, *_rest, eve = [sign(tournament, n) for n in ["Ann", "Bob", "Cho", "Dan", "Eve"]]
    with pytest.raises(ValidationError, match="Check-in opens on"):
        services.check_in(signup=ann)
    day = timezone.now() + timedelta(days=3)
    services.check_in(signup=ann, now=day)
    services.check_in(signup=ann, now=day + timedelta(hours=1))  # twice is once
    ann.refresh_from_db()
    assert ann.checked_in_at == day
    with pytest.raises(ValidationError, match="only confirmed players check in"):
        services.check_in(signup=eve, now=day)


def test_the_players_who_checked_in_are_seated_substitutes_take_the_no_shows_places(tournament, organiser):
    open_registration(tournament, organiser, capacity=8)
    signups = [sign(tournament, f"P{i}") for i in range(8)]
    from league import services as league_services

    sub = league_services.register_player(
        event=tournament,
        display_name="Sub",
        given_name="",
        family_name="",
        ema_number="",
        country="",
        user=organiser,
        is_substitute=True,
    )
    services.add_confirmed_players(event=tournament, user=organiser)
    no_show = signups[3]
    for signup in signups:
        if signup != no_show:
            services.check_in(signup=signup, user=organiser)
    services.seat_checked_in(event=tournament, rounds=2, user=organiser)
    seated = set(
        Hanchan.objects.filter(event=tournament, round_number=1).values_list(
            "seats__player__display_name", flat=True
        )
    )
    assert seated == {f"P{i}" for i in range(8) if i != 3} | {sub.player.display_name}
    assert not Registration.objects.filter(event=tournament, player__display_name="P3").exists()


def test_nobody_checked_in_nothing_seated(tournament, organiser, opening):
    sign(tournament, "Ann")
    with pytest.raises(ValidationError, match="Nobody has checked in"):
        services.seat_checked_in(event=tournament, rounds=2, user=organiser)
    assert not Hanchan.objects.exists()


def test_fewer_places_than_confirmed_is_refused(tournament, organiser, opening):
    for name in ["Ann", "Bob", "Cho"]:
        sign(tournament, name)
    with pytest.raises(ValidationError, match="3 registrations are confirmed"):
        open_registration(tournament, organiser, capacity=2)


def test_more_places_promote_the_waiting_list(tournament, organiser, opening):
    for name in ["Ann", "Bob", "Cho", "Dan", "Eve"]:
        sign(tournament, name)
    open_registration(tournament, organiser, capacity=5)
    assert SignUp.objects.get(name="Eve").status == "confirmed"
