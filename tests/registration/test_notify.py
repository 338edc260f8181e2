"""The registered players hear of their tournament's day: the seating (their table and wind), a round
starting, their result confirmed, the standings released — by e-mail in their own language, once per
event however often the signal comes, and only the kinds they kept."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from background.worker import run_ready
from league.models import Event, Hanchan, Seat
from notifications.models import Message, Muted
from registration import services
from scoring.services import record_final_scores
from tests.smtp import body_of
from tournaments import rounds
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cho", "Dan"]


@pytest.fixture
def seated(tournament, organiser, opening, django_capture_on_commit_callbacks):
    """Four players registered through the form (Cho in French), made the event's players, seated."""
    for name in NAMES:
        services.sign_up(
            event=tournament,
            name=name,
            email=f"{name.lower()}@example.org",
            language="fr" if name == "Cho" else "en",
        )
    services.add_confirmed_players(event=tournament, user=organiser)
    Message.objects.all().delete()  # the registration's own e-mails: not what these tests are about
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.seat_tournament(event=tournament, rounds=2, user=organiser, seed=1)
    return tournament


def _seat_of(event, name, number):
    return Seat.objects.select_related("hanchan").get(
        hanchan__event=event, hanchan__round_number=number, player__display_name=name
    )


def test_seating_published_tells_each_player_their_table_and_wind(seated, smtp_server):
    run_ready()
    assert len(smtp_server.messages) == 4
    (ann,) = smtp_server.to("ann@example.org")
    assert ann["Subject"] == "Your seating at Lyon Open"
    seat = _seat_of(seated, "Ann", 1)
    wind = ["East", "South", "West", "North"][seat.seat]
    assert f"Round 1: table {seat.hanchan.table_number}, {wind}" in body_of(ann)
    assert "Round 2: table" in body_of(ann)
    (cho,) = smtp_server.to("cho@example.org")  # in the language she registered in
    assert cho["Subject"] == "Votre placement à Lyon Open"
    assert "Manche 1 : table" in body_of(cho)
    assert "?kind=seating" in cho["List-Unsubscribe"]


def test_the_same_signal_twice_is_one_message(seated, organiser, django_capture_on_commit_callbacks):
    from tournaments.signals import seating_published

    with django_capture_on_commit_callbacks(execute=True):  # as the seating service sends it
        seating_published.send(sender=Event, event=seated, rounds=[1, 2])
    assert Message.objects.filter(kind="seating").count() == 4
    with django_capture_on_commit_callbacks(execute=True):  # the same seating drawn again
        tournament_services.seat_tournament(event=seated, rounds=2, user=organiser, seed=1)
    assert Message.objects.filter(kind="seating").count() == 4
    with django_capture_on_commit_callbacks(execute=True):  # another seating: told again
        tournament_services.seat_tournament(event=seated, rounds=3, user=organiser, seed=2)
    assert Message.objects.filter(kind="seating").count() == 8


def test_a_round_started_and_a_result_confirmed(
    seated, organiser, smtp_server, django_capture_on_commit_callbacks
):
    run_ready()
    smtp_server.messages.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.open_round(event=seated, number=1, user=organiser)
    with django_capture_on_commit_callbacks(execute=True):  # opened again (a double click): no second one
        rounds.open_round(event=seated, number=1, user=organiser)
    run_ready()
    (ann,) = smtp_server.to("ann@example.org")
    seat = _seat_of(seated, "Ann", 1)
    assert ann["Subject"] == f"Round 1 starts: table {seat.hanchan.table_number}"
    smtp_server.messages.clear()
    game = Hanchan.objects.get(pk=seat.hanchan_id)
    with django_capture_on_commit_callbacks(execute=True):
        record_final_scores(
            hanchan=game, scores=[45000, 35000, 25000, 15000], user=organiser, switch_mode=True
        )
    run_ready()
    assert len(smtp_server.messages) == 4  # the four players of that table
    (ann,) = smtp_server.to("ann@example.org")
    assert ann["Subject"] == "Your result is confirmed: Lyon Open"
    assert f"Your final score: {[45000, 35000, 25000, 15000][seat.seat]}" in body_of(ann)


def test_a_rolled_back_change_tells_nobody(seated, organiser, django_capture_on_commit_callbacks):
    from django.db import transaction

    before = Message.objects.count()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        rounds.open_round(event=seated, number=2, user=organiser)
        raise RuntimeError("the request failed after the service")
    assert Message.objects.count() == before


def test_standings_released_to_every_registered_player(
    seated, organiser, smtp_server, django_capture_on_commit_callbacks
):
    from tournaments.reveal import release_standings

    run_ready()
    smtp_server.messages.clear()
    seated.standings_hidden_after_round = 1
    seated.save()
    with django_capture_on_commit_callbacks(execute=True):
        release_standings(event=seated, user=organiser)
    run_ready()
    assert {str(m["To"]) for m in smtp_server.messages} == {f"{n.lower()}@example.org" for n in NAMES}
    subjects = {str(m["To"]): m["Subject"] for m in smtp_server.messages}
    assert subjects.pop("cho@example.org") == "Classement dévoilé : Lyon Open"
    assert set(subjects.values()) == {"Standings released: Lyon Open"}


def test_each_player_picks_the_kinds_on_the_personal_page(
    seated, organiser, smtp_server, django_capture_on_commit_callbacks
):
    ann = seated.signups.get(name="Ann")
    client = Client()
    page = client.get(ann.get_absolute_url())
    assert b'id="kind-round"' in page.content and b'id="kind-seating"' in page.content
    response = client.post(f"{ann.get_absolute_url()}messages/", {"kinds": ["seating", "result", "junk"]})
    assert response.status_code == 302
    assert not Muted.objects.exists()  # an unknown kind: refused, nothing half-saved
    client.post(f"{ann.get_absolute_url()}messages/", {"kinds": ["seating", "result"]})
    assert set(Muted.objects.values_list("kind", flat=True)) == {"registration", "round", "standings"}
    assert client.get(f"{ann.get_absolute_url()}messages/").status_code == 303  # a GET: back to the page
    run_ready()
    smtp_server.messages.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.open_round(event=seated, number=1, user=organiser)
    run_ready()
    assert sorted(str(m["To"]) for m in smtp_server.messages) == [
        "bob@example.org",
        "cho@example.org",
        "dan@example.org",
    ]


def test_the_unsubscribe_page_offers_only_this_kind_or_everything(
    seated, organiser, smtp_server, django_capture_on_commit_callbacks
):
    run_ready()
    (ann,) = smtp_server.to("ann@example.org")
    link = re.search(r"http://testserver(/unsubscribe/\S+/\?kind=seating)", body_of(ann)).group(1)
    client = Client()
    page = client.get(link)
    assert b'id="unsubscribe-kind"' in page.content and b'id="unsubscribe-all"' in page.content
    assert not Muted.objects.exists()  # a GET does nothing
    assert b'id="muted"' in client.post(link, {"what": "kind"}).content
    assert list(Muted.objects.values_list("address", "kind")) == [("ann@example.org", "seating")]
    smtp_server.messages.clear()
    with django_capture_on_commit_callbacks(execute=True):  # a new seating: Ann does not want it
        tournament_services.seat_tournament(event=seated, rounds=3, user=organiser, seed=2)
    with django_capture_on_commit_callbacks(execute=True):  # a round: she does
        rounds.open_round(event=seated, number=1, user=organiser)
    run_ready()
    assert [m["Subject"].startswith("Round 1") for m in smtp_server.to("ann@example.org")] == [True]


def test_a_round_ending_soon_is_told_once_when_its_clock_gets_there(
    seated, organiser, smtp_server, django_capture_on_commit_callbacks, monkeypatch
):
    from datetime import timedelta

    from django.utils import timezone

    from background.models import Pending
    from tournaments import clock
    from tournaments.models import Round
    from tournaments.tasks import WARNING

    run_ready()
    smtp_server.messages.clear()
    start = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        clock.start_clock(event=seated, number=1, user=organiser)
    found = Round.objects.get(event=seated, number=1)
    length = timedelta(minutes=found.minutes)
    (row,) = Pending.objects.filter(kind="round-ending-soon")
    assert abs(row.run_after - (start + length - WARNING)) < timedelta(seconds=5)
    clock.adjust_clock(event=seated, number=1, seconds=600, user=organiser)  # ten minutes more
    later = start + length - WARNING + timedelta(seconds=10)
    monkeypatch.setattr(timezone, "now", lambda: later)
    with django_capture_on_commit_callbacks(execute=True):
        run_ready()  # the first moment came: time was added since, so it waits for the new one
    assert not Message.objects.filter(template="registration/email/round_ending").exists()
    monkeypatch.setattr(timezone, "now", lambda: later + timedelta(minutes=10))
    with django_capture_on_commit_callbacks(execute=True):
        run_ready()
    run_ready()
    ending = [m for m in smtp_server.messages if "left" in m["Subject"] or "encore" in m["Subject"]]
    assert sorted(str(m["To"]) for m in ending) == [f"{n.lower()}@example.org" for n in NAMES]
    (ann,) = [m for m in ending if str(m["To"]) == "ann@example.org"]
    assert ann["Subject"] == "Round 1: 5 minutes left"
    assert not Pending.objects.filter(kind="round-ending-soon").exists()
