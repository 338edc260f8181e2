"""Registration's pages: the public form resists duplicate and junk submissions (no server error, nothing
half-saved), the personal page checks in and withdraws, the organiser's list decides and exports, and
someone else's event or sign-up answers 404."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import HistoryEntry, Registration
from notifications.models import Message
from registration import services
from registration.models import SignUp
from tests.registration.conftest import open_registration

pytestmark = pytest.mark.django_db


def post_form(client: Client, event, **data):
    return client.post(reverse("registration:register", args=[event.slug]), data)


def test_the_form_registers_and_leads_to_the_personal_page(tournament, opening):
    client = Client()
    page = client.get(reverse("registration:register", args=[tournament.slug]))
    assert page.status_code == 200 and b"4 places left" in page.content
    key = page.context["form"].initial["form_key"]
    response = post_form(client, tournament, name="Ann", email="ann@example.org", form_key=key)
    signup = SignUp.objects.get()
    assert response.status_code == 302 and response["Location"] == signup.get_absolute_url()
    personal = client.get(response["Location"])
    assert b"Your registration is confirmed" in personal.content and b"<svg" in personal.content
    assert personal["Cache-Control"] == "private, no-store"


def test_the_same_form_sent_twice_is_one_registration(tournament, opening):
    client = Client()
    first = post_form(client, tournament, name="Ann", email="ann@example.org", form_key="k" * 30)
    again = post_form(client, tournament, name="Ann", email="ann@example.org", form_key="k" * 30)
    assert first["Location"] == again["Location"]
    assert SignUp.objects.count() == 1 and Message.objects.count() == 1


def test_a_duplicate_ema_number_is_said_on_its_field(tournament, opening):
    client = Client()
    post_form(client, tournament, name="Ann", email="ann@example.org", ema_number="04390002", form_key="a1")
    response = post_form(
        client, tournament, name="Annie", email="annie@example.org", ema_number="04390002", form_key="a2"
    )
    assert response.status_code == 422
    assert "already registered" in str(response.context["form"].errors["ema_number"])
    assert SignUp.objects.count() == 1


def test_a_closed_registration_says_so(tournament, organiser):
    now = timezone.now()
    open_registration(
        tournament, organiser, opens_at=now - timedelta(days=9), closes_at=now - timedelta(days=1)
    )
    client = Client()
    assert (
        b"Registration is closed"
        in client.get(reverse("registration:register", args=[tournament.slug])).content
    )
    response = post_form(client, tournament, name="Ann", email="ann@example.org")
    assert response.status_code == 422 and not SignUp.objects.exists()


def test_no_registration_opened_is_a_404(tournament):
    assert Client().get(reverse("registration:register", args=[tournament.slug])).status_code == 404


junk = st.one_of(
    st.text(max_size=300),
    st.sampled_from(["", " ", "\x00", "04390002", "99999999", "a@b", "FR", "ZZ", "<script>", "x" * 500]),
)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    data=st.dictionaries(
        st.sampled_from(["name", "ema_number", "country", "club", "email", "form_key"]), junk
    )
)
def test_junk_never_fails_and_never_half_saves(data, tournament, opening):
    before = (SignUp.objects.count(), Message.objects.count(), HistoryEntry.objects.count())
    response = Client().post(reverse("registration:register", args=[tournament.slug]), data)
    assert response.status_code in (302, 422)
    after = (SignUp.objects.count(), Message.objects.count(), HistoryEntry.objects.count())
    if response.status_code == 422:
        assert after == before
    else:
        assert after[0] in (before[0], before[0] + 1)  # a new sign-up, or the same form sent again


def test_check_in_and_withdraw_by_the_personal_link(tournament, opening):
    ann = services.sign_up(event=tournament, name="Ann", email="ann@example.org")
    client = Client()
    url = reverse("registration:check_in", args=[ann.token])
    assert client.get(url).status_code == 303  # a GET (a link preview) checks nobody in
    ann.refresh_from_db()
    assert ann.checked_in_at is None
    page = client.post(url, follow=True)
    assert b"Checked in" in page.content
    ann.refresh_from_db()
    assert ann.checked_in_at is not None
    client.post(reverse("registration:withdraw", args=[ann.token]))
    ann.refresh_from_db()
    assert ann.status == "withdrawn"


def test_a_wrong_token_is_a_404():
    for name in ("registration:signup", "registration:check_in", "registration:withdraw"):
        assert Client().post(reverse(name, args=["nope"])).status_code == 404


def test_the_organisers_list_decides_and_exports(tournament, organiser, opening):
    signups = [services.sign_up(event=tournament, name=n, email=f"{n}@x.org") for n in "ABCDE"]
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("registration_manage:registration", args=[tournament.slug]))
    assert page.status_code == 200 and b"4 confirmed of 4 places, 1 on the waiting list" in page.content
    client.post(reverse("registration_manage:reject", args=[tournament.slug, signups[0].pk]))
    assert SignUp.objects.get(pk=signups[4].pk).status == "confirmed"  # promoted
    client.post(reverse("registration_manage:wait", args=[tournament.slug, signups[1].pk]))
    assert SignUp.objects.get(pk=signups[1].pk).status == "waiting"
    client.post(reverse("registration_manage:approve", args=[tournament.slug, signups[1].pk]))
    assert SignUp.objects.get(pk=signups[1].pk).status == "confirmed"
    csv = client.get(reverse("registration_manage:csv", args=[tournament.slug]))
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("name,ema_number,country,club,email,status")
    assert sorted(line.split(",")[5] for line in lines[1:]) == ["confirmed"] * 4 + ["rejected"]
    client.post(reverse("registration_manage:add_players", args=[tournament.slug]))
    assert Registration.objects.filter(event=tournament).count() == 4


def test_someone_elses_sign_up_is_a_404(tournament, organiser, opening, other_organiser, other_club):
    from tests.conftest import make_event

    theirs = make_event(other_club, slug="berlin-open")
    open_registration(theirs, other_organiser)
    signup = services.sign_up(event=theirs, name="Ann", email="ann@example.org")
    client = Client()
    client.force_login(organiser)
    # The organiser's own event in the URL, another event's sign-up: not found, nothing changed.
    for name in ("approve", "reject", "wait", "tap"):
        response = client.post(reverse(f"registration_manage:{name}", args=[tournament.slug, signup.pk]))
        assert response.status_code == 404
    signup.refresh_from_db()
    assert signup.status == "confirmed" and signup.checked_in_at is None


def test_the_check_in_list_searches_and_taps(tournament, organiser, opening):
    for name in ["Ann", "Bob", "Cho"]:
        services.sign_up(
            event=tournament, name=name, email=f"{name}@x.org", club="Lyon" if name == "Bob" else ""
        )
    client = Client()
    client.force_login(organiser)
    url = reverse("registration_manage:check_in", args=[tournament.slug])
    page = client.get(url, {"q": "lyon"})
    assert [row.name for row in page.context["rows"]] == ["Bob"]
    bob = SignUp.objects.get(name="Bob")
    client.post(reverse("registration_manage:tap", args=[tournament.slug, bob.pk]), {"q": "lyon"})
    bob.refresh_from_db()
    assert bob.checked_in_at is not None
    page = client.get(url)
    assert page.context["arrived"] == 1 and page.context["confirmed"] == 3
    client.post(reverse("registration_manage:tap", args=[tournament.slug, bob.pk]), {"undo": "on"})
    bob.refresh_from_db()
    assert bob.checked_in_at is None


@pytest.mark.parametrize("count", [5, 40])
def test_the_list_reads_in_a_bounded_number_of_queries(
    tournament, organiser, opening, count, django_assert_max_num_queries
):
    open_registration(tournament, organiser, capacity=50)
    for i in range(count):
        services.sign_up(event=tournament, name=f"P{i}", email=f"p{i}@x.org")
    client = Client()
    client.force_login(organiser)
    with django_assert_max_num_queries(14):
        assert (
            client.get(reverse("registration_manage:registration", args=[tournament.slug])).status_code == 200
        )
    with django_assert_max_num_queries(10):
        assert client.get(reverse("registration_manage:check_in", args=[tournament.slug])).status_code == 200


def test_the_organiser_opens_registration_through_the_form(tournament, organiser):
    client = Client()
    client.force_login(organiser)
    url = reverse("registration_manage:registration", args=[tournament.slug])
    page = client.get(url)
    assert page.status_code == 200 and b"Open registration" in page.content
    form = page.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data.update(
        opens_at="2030-01-01T10:00",
        closes_at="2029-12-01T10:00",
        capacity="16",
        approval="on",
        ask_ema_number="required",
        ask_country="no",
        ask_club="optional",
        ask_email="required",
    )
    data.pop("waiting_list")
    refused = client.post(url, data)
    assert refused.status_code == 422 and "close after it opens" in str(refused.context["form"].errors)
    assert not tournament.history.filter(action="registration opened").exists()
    data["closes_at"] = "2030-02-01T10:00"
    assert client.post(url, data).status_code == 302
    opening = tournament.registration_opening
    assert (opening.capacity, opening.approval, opening.waiting_list) == (16, True, False)
    assert (opening.ask_ema_number, opening.ask_country) == ("required", "no")
    form = Client().get(reverse("registration:register", args=[tournament.slug])).context["form"]
    assert "country" not in form.fields and form.fields["ema_number"].required


def test_the_desk_seats_the_players_who_checked_in(tournament, organiser, opening):
    from league.models import Hanchan

    signups = [services.sign_up(event=tournament, name=n, email=f"{n}@x.org") for n in "ABCD"]
    client = Client()
    client.force_login(organiser)
    url = reverse("registration_manage:seat", args=[tournament.slug])
    page = client.post(url, {"rounds": "1"}, follow=True)
    assert "Nobody has checked in yet" in page.content.decode() and not Hanchan.objects.exists()
    for signup in signups:
        client.post(reverse("registration_manage:tap", args=[tournament.slug, signup.pk]))
    page = client.post(url, {"rounds": "0"}, follow=True)
    assert "The seating was not made" in page.content.decode() and not Hanchan.objects.exists()
    response = client.post(url, {"rounds": "1"})
    assert response.status_code == 302
    (table,) = Hanchan.objects.filter(event=tournament)
    assert sorted(table.seats.values_list("player__display_name", flat=True)) == list("ABCD")
