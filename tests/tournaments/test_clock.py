"""The round clock: its services (start, pause, add or take back time, set the length) on a fake clock,
the "last hand" rule per ruleset, the organiser's actions and their rights, and the clock partial."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import HistoryEntry
from tests.tournaments.test_tournament import make_tournament
from tournaments import clock
from tournaments import services as tournament
from tournaments.models import Round
from tournaments.rounds import close_round, open_round

pytestmark = pytest.mark.django_db


class FakeNow:
    """``timezone.now`` under the test's control: the clock is computed from stored instants, so moving
    "now" is how time passes."""

    def __init__(self) -> None:
        self.now = timezone.now().replace(microsecond=0)

    def __call__(self):  # type: ignore[no-untyped-def]
        return self.now

    def advance(self, seconds: int) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def now(monkeypatch):
    fake = FakeNow()
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture
def seated(club, organiser):
    event = make_tournament(club, 8, round_minutes=60)
    tournament.seat_tournament(event=event, rounds=2, user=organiser)
    return event


def left(event, number=1) -> int:
    return int(Round.objects.get(event=event, number=number).remaining().total_seconds())


def test_start_pause_resume_counts_only_the_running_time(seated, organiser, now):
    clock.start_clock(event=seated, number=1, user=organiser)
    row = Round.objects.get(event=seated, number=1)
    assert row.status == Round.Status.OPEN  # starting the clock opens a round that was not open yet
    assert row.minutes == 60 and row.running
    now.advance(600)
    assert left(seated) == 50 * 60
    clock.pause_clock(event=seated, number=1, user=organiser)
    now.advance(3600)  # a long dispute: the paused clock does not move
    assert left(seated) == 50 * 60
    clock.start_clock(event=seated, number=1, user=organiser)
    now.advance(60)
    assert left(seated) == 49 * 60
    actions = list(HistoryEntry.objects.filter(event=seated).values_list("action", flat=True).order_by("pk"))
    assert actions[-4:] == ["round_open", "clock started", "clock paused", "clock started"]


def test_double_start_and_double_pause_change_nothing(seated, organiser, now):
    clock.start_clock(event=seated, number=1, user=organiser)
    now.advance(30)
    clock.start_clock(event=seated, number=1, user=organiser)  # a double tap
    assert left(seated) == 60 * 60 - 30
    clock.pause_clock(event=seated, number=1, user=organiser)
    clock.pause_clock(event=seated, number=1, user=organiser)
    assert HistoryEntry.objects.filter(event=seated, action__startswith="clock").count() == 2


def test_adding_and_taking_back_time(seated, organiser, now):
    clock.start_clock(event=seated, number=1, user=organiser)
    now.advance(60 * 60 - 10)
    clock.adjust_clock(event=seated, number=1, seconds=5 * 60, user=organiser)
    assert left(seated) == 5 * 60 + 10
    clock.adjust_clock(event=seated, number=1, seconds=-10 * 60, user=organiser)  # more than is left
    assert left(seated) == 0
    state = clock.clock_state(Round.objects.get(event=seated, number=1))
    assert state.expired and state.display == "0:00"
    entry = HistoryEntry.objects.filter(event=seated, action="clock adjusted").order_by("pk").last()
    assert "taken back" in entry.summary and entry.after["added_seconds"] == -5 * 60


@pytest.mark.parametrize(
    ("seconds", "message"),
    [(0, "between 1 and 120 minutes"), (121 * 60, "between 1 and 120 minutes"), (-61 * 60, "from 0 to 600")],
)
def test_bad_time_changes_are_refused_and_name_the_field(seated, organiser, seconds, message):
    with pytest.raises(ValidationError) as caught:
        clock.adjust_clock(event=seated, number=1, seconds=seconds, user=organiser)
    assert "minutes" in caught.value.message_dict
    assert message in " ".join(caught.value.messages)
    assert not Round.objects.filter(event=seated).exists()  # nothing half-saved, not even the row


def test_length_can_change_before_and_during_the_round(seated, organiser, now):
    clock.set_length(event=seated, number=2, minutes=75, user=organiser)  # round 2 is not open yet
    assert Round.objects.get(event=seated, number=2).minutes == 75
    clock.start_clock(event=seated, number=1, user=organiser)
    now.advance(20 * 60)
    clock.set_length(event=seated, number=1, minutes=45, user=organiser)
    assert left(seated) == 25 * 60
    for minutes in (0, 601):
        with pytest.raises(ValidationError, match="from 1 to 600 minutes"):
            clock.set_length(event=seated, number=1, minutes=minutes, user=organiser)
    assert Round.objects.get(event=seated, number=1).minutes == 45


def test_a_new_length_keeps_the_time_added_and_says_so_or_drops_it_when_asked(
    seated, organiser, client_in, now
):
    """ "+5 min" then a new length used to keep the 5 minutes silently: the page, the message and the
    history now say they stay, and "drop the time added" makes the new length the whole time."""
    clock.start_clock(event=seated, number=1, user=organiser)
    clock.adjust_clock(event=seated, number=1, seconds=5 * 60, user=organiser)
    page = reverse("tournaments_manage:tournament", args=[seated.slug])
    html = client_in.get(page).content.decode()
    assert "Length: 60 min, +5 min added: 1:05:00 in all." in html
    assert "Drop the +5 min added (the new length is the whole time)" in html
    url = reverse("tournaments_manage:clock_length", args=[seated.slug])
    said = client_in.post(url, {"round_number": 1, "minutes": 90}, follow=True).content.decode()
    assert "Round 1 lasts 90 minutes. Time added to the length: +5 min (1:35:00 in all)." in said
    assert left(seated) == 95 * 60
    kept = HistoryEntry.objects.filter(event=seated, action="clock length").latest("pk")
    assert kept.summary == "Round 1: length 60 → 90 min. The +5 min added stay."

    said = client_in.post(url, {"round_number": 1, "minutes": 90, "clear_added": "on"}, follow=True)
    assert "Round 1 lasts 90 minutes." in said.content.decode() and "Time added" not in said.content.decode()
    assert left(seated) == 90 * 60
    row = Round.objects.get(event=seated, number=1)
    assert row.minutes == 90 and row.added_seconds == 0
    dropped = HistoryEntry.objects.filter(event=seated, action="clock length").latest("pk")
    assert dropped.summary == "Round 1: length 90 → 90 min. The +5 min added are dropped."
    assert "Length: 90 min." in client_in.get(page).content.decode()


def test_the_round_page_starts_pauses_and_adds_time(seated, client_in, now):
    """The guide says the clock starts from the round's page: it does, and comes back to it."""
    page = reverse("tournaments_manage:round", args=[seated.slug, 1])
    html = client_in.get(page).content.decode()
    assert 'id="round-clock-start"' in html and "Open the round and start the clock" in html
    data = {"round_number": 1, "next": "round"}
    response = client_in.post(reverse("tournaments_manage:clock_start", args=[seated.slug]), data)
    assert response.status_code == 302 and response["Location"] == page
    row = Round.objects.get(event=seated, number=1)
    assert row.status == Round.Status.OPEN and row.running
    html = client_in.get(page).content.decode()
    assert 'id="round-clock-pause"' in html and 'id="round-clock-start"' not in html
    client_in.post(reverse("tournaments_manage:clock_adjust", args=[seated.slug]), {**data, "minutes": 5})
    now.advance(60)
    assert left(seated) == 64 * 60
    response = client_in.post(reverse("tournaments_manage:clock_pause", args=[seated.slug]), data)
    assert response["Location"] == page and not Round.objects.get(event=seated, number=1).running
    assert "Resume the clock" in client_in.get(page).content.decode()


def test_a_closed_round_or_a_round_without_tables_is_refused(seated, organiser, now):
    open_round(event=seated, number=1, user=organiser)
    close_round(event=seated, number=1, user=organiser)
    for action in (
        lambda: clock.start_clock(event=seated, number=1, user=organiser),
        lambda: clock.pause_clock(event=seated, number=1, user=organiser),
        lambda: clock.adjust_clock(event=seated, number=1, seconds=60, user=organiser),
        lambda: clock.set_length(event=seated, number=1, minutes=30, user=organiser),
    ):
        with pytest.raises(ValidationError, match="Round 1 is closed"):
            action()
    with pytest.raises(ValidationError, match="Round 7 has no tables"):
        clock.start_clock(event=seated, number=7, user=organiser)


def test_a_clock_with_no_time_left_does_not_start(seated, organiser, now):
    clock.start_clock(event=seated, number=1, user=organiser)
    now.advance(61 * 60)
    clock.pause_clock(event=seated, number=1, user=organiser)
    with pytest.raises(ValidationError, match="no time left"):
        clock.start_clock(event=seated, number=1, user=organiser)
    clock.adjust_clock(event=seated, number=1, seconds=120, user=organiser)
    clock.start_clock(event=seated, number=1, user=organiser)
    assert left(seated) == 60


@pytest.mark.parametrize(
    ("preset", "words"),
    [
        ("ema2016", "then play one more hand"),
        ("wrc2022", "finish the hand being played. It is the last hand"),
        ("mleague", "no time limit"),
    ],
)
def test_the_last_hand_follows_the_rulesets_time_limit(club, organiser, preset, words):
    from scoring.engine import make_ruleset

    event = make_tournament(club, 4)
    event.ruleset = make_ruleset(preset, {}).to_dict()
    event.save()
    tournament.seat_tournament(event=event, rounds=1, user=organiser)
    found = Round.objects.create(event=event, number=1, minutes=1, elapsed_seconds=60)
    state = clock.clock_state(found)
    assert state.expired and words in state.last_hand


@pytest.mark.parametrize(("seconds", "text"), [(0, "0:00"), (7, "0:07"), (307, "5:07"), (5399, "1:29:59")])
def test_format_seconds(seconds, text):
    assert clock.format_seconds(seconds) == text


@given(st.integers(0, 36_000))
def test_format_seconds_reads_back(seconds):
    parts = [int(p) for p in clock.format_seconds(seconds).split(":")]
    assert sum(p * 60**i for i, p in enumerate(reversed(parts))) == seconds


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    steps=st.lists(
        st.one_of(
            st.tuples(st.just("start"), st.just(0)),
            st.tuples(st.just("pause"), st.just(0)),
            st.tuples(st.just("wait"), st.integers(0, 900)),
            st.tuples(st.just("adjust"), st.integers(-30, 30).filter(bool)),
        ),
        max_size=12,
    )
)
def test_the_clock_counts_exactly_the_running_time(seated, organiser, now, steps):
    """Whatever the organiser does, time left = length + time added − time run, never below zero, and
    time run is exactly the sum of the intervals the clock was running."""
    Round.objects.filter(event=seated).delete()
    ran = added = 0
    running = False
    for action, value in steps:
        if action == "start" and (60 * 60 + added - ran) > 0:
            clock.start_clock(event=seated, number=1, user=organiser)
            running = True
        elif action == "pause":
            clock.pause_clock(event=seated, number=1, user=organiser)
            running = False
        elif action == "wait":
            now.advance(value)
            ran += value if running else 0
        elif action == "adjust":
            try:
                clock.adjust_clock(event=seated, number=1, seconds=value * 60, user=organiser)
            except ValidationError:
                assert 60 * 60 + added + value * 60 < 0
            else:
                added += value * 60
        if Round.objects.filter(event=seated, number=1).exists():
            row = Round.objects.get(event=seated, number=1)
            assert int(row.elapsed().total_seconds()) == ran
            assert left(seated) == max(0, 60 * 60 + added - ran)
            assert row.running == running


# -- the organiser's actions ---------------------------------------------------------------------------


@pytest.fixture
def client_in(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def test_the_tournament_page_drives_the_clock(seated, client_in, now):
    page = reverse("tournaments_manage:tournament", args=[seated.slug])
    html = client_in.get(page).content.decode()
    assert 'id="clock-panel"' in html and "Open round 1 and start the clock" in html
    assert 'id="round-clock"' in html and "not started · 1:00:00" in html
    response = client_in.post(
        reverse("tournaments_manage:clock_start", args=[seated.slug]), {"round_number": 1}, follow=True
    )
    assert "the clock runs, 1:00:00 left" in response.content.decode()
    now.advance(90)
    html = client_in.get(page).content.decode()
    assert 'data-remaining="3510"' in html and 'data-running="1"' in html and "Pause" in html
    client_in.post(reverse("tournaments_manage:clock_pause", args=[seated.slug]), {"round_number": 1})
    client_in.post(
        reverse("tournaments_manage:clock_adjust", args=[seated.slug]), {"round_number": 1, "minutes": 5}
    )
    client_in.post(
        reverse("tournaments_manage:clock_length", args=[seated.slug]), {"round_number": 1, "minutes": 70}
    )
    assert left(seated) == 75 * 60 - 90
    assert "Resume" in client_in.get(page).content.decode()


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("clock_start", {}, "Round: This field is required."),
        ("clock_start", {"round_number": "x"}, "Round: Enter a whole number."),
        ("clock_start", {"round_number": 9}, "Round 9 has no tables."),
        ("clock_adjust", {"round_number": 1, "minutes": 0}, "Minutes: Add or take back at least 1 minute"),
        ("clock_adjust", {"round_number": 1, "minutes": 500}, "Minutes: Ensure this value is less than"),
        ("clock_length", {"round_number": 1, "minutes": 0}, "Round length (minutes): Ensure this value is"),
        ("standings_release", {}, "does not hide its standings"),
    ],
)
def test_bad_input_is_a_message_naming_the_field(seated, client_in, name, data, message):
    response = client_in.post(reverse(f"tournaments_manage:{name}", args=[seated.slug]), data, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Round.objects.filter(event=seated, clock_started_at__isnull=False).exists()


def test_someone_elses_tournament_is_a_404_and_nothing_changes(seated, other_organiser):
    client = Client()
    client.force_login(other_organiser)
    for name in ("clock_start", "clock_pause", "clock_adjust", "clock_length", "standings_release"):
        url = reverse(f"tournaments_manage:{name}", args=[seated.slug])
        assert client.post(url, {"round_number": 1, "minutes": 5}).status_code == 404
    assert not Round.objects.filter(event=seated).exists()
    assert Client().post(reverse("tournaments_manage:clock_start", args=[seated.slug])).status_code == 302


def test_the_clock_actions_send_a_get_to_the_tournament_page(seated, client_in):
    response = client_in.get(reverse("tournaments_manage:clock_start", args=[seated.slug]))
    assert response.status_code == 303
    assert response["Location"] == reverse("tournaments_manage:tournament", args=[seated.slug])
    assert not Round.objects.filter(event=seated).exists()


# -- the partial ---------------------------------------------------------------------------------------


def test_the_clock_fragment_counts_from_the_server_and_polls_itself(seated, organiser, now):
    clock.start_clock(event=seated, number=1, user=organiser)
    now.advance(59 * 60 + 58)
    url = reverse("tournaments:clock", args=[seated.slug])
    html = Client().get(url).content.decode()
    assert re.search(r'id="round-clock"[^>]*data-remaining="2"[^>]*data-running="1"', html)
    assert f'hx-get="{url}"' in html and 'hx-trigger="every 15s"' in html
    assert "0:02" in html and re.search(r"data-clock-expired hidden", html)  # not yet: the browser shows it
    now.advance(5)
    html = Client().get(f"{url}?round=1&compact=1").content.decode()
    assert 'id="round-clock"' in html and "compact" in html and "expired" in html
    assert f'hx-get="{url}?round=1&amp;compact=1"' in html  # polls itself as it is
    html = Client().get(f"{url}?compact=1&header=1").content.decode()
    assert 'id="wall-header-clock"' in html
    assert "then play one more hand" in html and "data-clock-expired hidden" not in html


def test_the_partial_on_any_page_renders_from_a_round(seated, organiser, now):
    from django.template.loader import render_to_string

    found = clock.start_clock(event=seated, number=1, user=organiser)
    html = render_to_string("tournaments/_clock.html", {"round": found})
    assert "js/clock.js" in html and "css/clock.css" in html
    assert f"{reverse('tournaments:clock', args=[seated.slug])}?round=1" in html
    seated.visibility = "members"
    seated.save()
    found = Round.objects.get(pk=found.pk)
    html = render_to_string("tournaments/_clock.html", {"round": found})
    assert "hx-get" not in html  # an anonymous table page could not poll a members-only URL
    html = render_to_string("tournaments/_clock.html", {"round": found, "clock_url": "/t/abc/clock/"})
    assert 'hx-get="/t/abc/clock/"' in html
    assert "No round in play." in render_to_string("tournaments/_clock.html", {"round": None})


def test_machine_figures_stay_plain_in_every_language(seated, organiser, now, settings):
    """The seconds the browser counts from are a number for JavaScript, never "3 510" or "3.510"."""
    settings.USE_THOUSAND_SEPARATOR = True
    clock.adjust_clock(event=seated, number=1, seconds=120 * 60, user=organiser)
    for language in ("en", "fr", "pl"):
        client = Client(headers={"accept-language": language})
        html = client.get(reverse("tournaments:wall", args=[seated.slug])).content.decode()
        assert 'data-remaining="10800"' in html and 'data-rotate-seconds="15"' in html


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", {1: "Round 1 lasts 1 minute.", 2: "Round 1 lasts 2 minutes.", 5: "Round 1 lasts 5 minutes."}),
        ("pl", {1: "trwa 1 minutę.", 2: "trwa 2 minuty.", 5: "trwa 5 minut.", 22: "trwa 22 minuty."}),
        ("fr", {1: "dure 1 minute.", 2: "dure 2 minutes."}),
    ],
)
def test_a_rounds_length_is_said_with_the_languages_plural(seated, organiser, now, language, said):
    """ "1 minutes", Polish "1 minut": a count next to a word takes the language's form for that number
    (Polish has three for whole numbers: 1 minutę, 2 minuty, 5 minut)."""
    client = Client(headers={"accept-language": language})
    client.force_login(organiser)
    url = reverse("tournaments_manage:clock_length", args=[seated.slug])
    for minutes, words in said.items():
        response = client.post(url, {"round_number": 1, "minutes": minutes}, follow=True)
        shown = [str(m) for m in response.context["messages"]]
        assert any(words in m for m in shown), (minutes, shown)
