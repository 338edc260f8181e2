"""Every country can be chosen (django-countries), and EMA pages use the IOC three-letter codes."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from league.countries import country_choices, country_name, ema_code, lookup_country
from league.forms import RegisterPlayerForm
from league.services import parse_country


def test_every_country_is_offered_not_a_short_list():
    codes = {code for code, _ in country_choices()}
    assert len(codes) > 240
    # countries the old 52-entry list lacked
    assert {"MN", "NZ", "SG", "AR", "IN", "ZA", "MX"} <= codes


@pytest.mark.parametrize(
    ("iso", "ioc"),
    [("DE", "GER"), ("NL", "NED"), ("CH", "SUI"), ("MN", "MGL"), ("NZ", "NZL"), ("TW", "TPE"), ("", "")],
)
def test_ema_code_is_the_ioc_code(iso, ioc):
    assert ema_code(iso) == ioc


@pytest.mark.parametrize(
    ("typed", "iso"),
    [("mn", "MN"), ("MGL", "MN"), ("MNG", "MN"), ("Mongolia", "MN"), ("new zealand", "NZ"), ("SUI", "CH")],
)
def test_any_country_is_parsed_from_iso_ioc_or_name(typed, iso):
    assert parse_country(typed) == iso


@pytest.mark.parametrize("typed", ["XX", "12", "Atlantis"])
def test_unknown_country_is_refused_with_the_rule(typed):
    assert lookup_country(typed) == ""
    with pytest.raises(ValidationError, match="not known"):
        parse_country(typed)


def test_register_form_accepts_a_country_outside_the_old_list():
    form = RegisterPlayerForm(data={"display_name": "Bat", "country": "MN"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["country"] == "MN"
    assert country_name("MN") == "Mongolia"
