"""League forms: settings in plain words from a preset, overrides only where they differ, and junk input
that never becomes a server error."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.forms import EventForm, RegisterPlayerForm, add_service_errors
from league.models import Event, Registration
from scoring.engine import PRESETS, SETTINGS
from tests.league.test_views import event_post

pytestmark = pytest.mark.django_db

JUNK = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def test_every_setting_is_a_field_labelled_with_its_meaning():
    form = EventForm()
    for name, setting in SETTINGS.items():
        assert form.fields[name].label == setting.meaning
    assert form["uma"].widget_type == "uma" and form["kiriage"].widget_type == "checkbox"
    assert dict(form.fields["multiple_ron_sticks"].choices)["own_back"].startswith("Own deposit back")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_settings_start_from_the_preset(preset):
    form = EventForm(preset=preset)
    assert {name: form[name].value() for name in SETTINGS} == {
        name: PRESETS[preset][name] for name in SETTINGS
    }


def test_unknown_preset_falls_back_to_the_default():
    assert EventForm(preset="bogus")["preset"].value() == "ema2016"


def test_only_settings_that_differ_are_overrides():
    form = EventForm(event_post(preset="ema2016", kiriage="on", pao_yaku=["daisuushii", "daisangen"]))
    assert form.is_valid(), form.errors
    assert form.overrides() == {"kiriage": True}
    form = EventForm(event_post(preset="ema2025"))  # EMA 2016 values posted under the 2025 preset
    assert form.is_valid(), form.errors
    assert form.overrides() == {"kiriage": False}
    form = EventForm(event_post(uma_0="20000", uma_3="-20000", pao_yaku=[]))
    assert form.is_valid(), form.errors
    assert form.overrides() == {"uma": [20000, 5000, -5000, -20000], "pao_yaku": []}


def test_service_errors_land_on_their_field_or_on_top():
    form = RegisterPlayerForm({"display_name": "Ann"})
    assert form.is_valid()
    add_service_errors(
        form, ValidationError({"ema_number": "bad number", "club": "no club", "__all__": "top"})
    )
    assert form.errors["ema_number"] == ["bad number"]
    assert form.non_field_errors() == ["club: no club", "top"]


# -- junk never answers 500 ------------------------------------------------------------------------------

EVENT_FIELDS = [k for k in event_post() if k != "pao_yaku"]


@JUNK
@given(
    junk=st.dictionaries(st.sampled_from(EVENT_FIELDS), st.text(max_size=30), max_size=8),
    drop=st.sets(st.sampled_from(EVENT_FIELDS), max_size=4),
)
def test_event_create_survives_junk(organiser, club, junk, drop):
    client = Client()
    client.force_login(organiser)
    data = {**event_post(), **junk}
    for name in drop:
        data.pop(name, None)
    before = Event.objects.count()
    response = client.post(reverse("league_manage:event_create", args=[club.slug]), data)
    assert response.status_code in (200, 302)
    assert Event.objects.count() == before + (response.status_code == 302)


@JUNK
@given(preset=st.text(max_size=20), htmx=st.booleans())
def test_event_create_get_survives_junk_presets(organiser, club, preset, htmx):
    client = Client()
    client.force_login(organiser)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(
        reverse("league_manage:event_create", args=[club.slug]), {"preset": preset}, headers=headers
    )
    assert response.status_code == 200


PLAYER_FIELDS = ["display_name", "given_name", "family_name", "ema_number", "country"]


@JUNK
@given(
    data=st.fixed_dictionaries(
        {
            name: st.one_of(st.text(max_size=90), st.sampled_from(["", "04390002", "FR", "Ann"]))
            for name in PLAYER_FIELDS
        }
    )
)
def test_register_player_survives_junk(organiser, event, data):
    client = Client()
    client.force_login(organiser)
    response = client.post(reverse("league_manage:register_player", args=[event.slug]), data)
    assert response.status_code in (200, 302)


LINE = st.lists(
    st.one_of(st.text(max_size=12), st.sampled_from(["Ann", "04390002", "FRA", "fr", "1234", '"', ""])),
    max_size=7,
).map(", ".join)


@JUNK
@given(text=st.one_of(st.text(max_size=200), st.lists(LINE, max_size=6).map("\n".join)))
def test_register_players_csv_survives_junk_and_saves_all_or_nothing(organiser, event, text):
    client = Client()
    client.force_login(organiser)
    before = Registration.objects.filter(event=event).count()
    response = client.post(reverse("league_manage:register_players_csv", args=[event.slug]), {"csv": text})
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        assert Registration.objects.filter(event=event).count() == before


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_every_preset_is_offered_by_a_label_in_the_readers_language(language):
    """The preset select never shows an engine key ("mahjongsoul"), and the online presets' labels are
    words of the reader's language, not "Tenhou (online)" on every page."""
    from django.utils import translation

    from league.engine_text import PRESET_LABELS

    assert set(PRESET_LABELS) == set(PRESETS)
    with translation.override(language):
        labels = dict(EventForm().fields["preset"].choices)
    assert set(labels) == set(PRESETS)
    assert all(label != name for name, label in labels.items())
    if language != "en":
        with translation.override("en"):
            english = dict(EventForm().fields["preset"].choices)
        assert labels["tenhou"] != english["tenhou"] and labels["mahjongsoul"] != english["mahjongsoul"]
