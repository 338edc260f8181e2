"""Countries: ISO 3166 alpha-2 codes are stored; EMA pages and reports use IOC-style three-letter codes.

Every country comes from django-countries (names translated, IOC codes included), so a player from any
country can be registered. The EMA number's first two digits name the member country (docs/rules.md §9.1);
the table below maps them.
"""

from __future__ import annotations

from functools import cache

from django.utils import translation
from django_countries import countries


def country_choices() -> list[tuple[str, str]]:
    """Every country as ``(ISO alpha-2, name)``, sorted by name in the active language."""
    return [(code, str(name)) for code, name in countries]


@cache
def _by_code() -> dict[str, str]:
    """Upper-case ISO alpha-3, IOC code and English name -> ISO alpha-2 (for what organisers type)."""
    table: dict[str, str] = {}
    with translation.override("en"):
        for code, name in countries:
            for key in (countries.alpha3(code), countries.ioc_code(code), str(name)):
                if key:
                    table.setdefault(key.upper(), code)
    return table


def lookup_country(text: str) -> str:
    """The ISO alpha-2 code of ``fr``, ``FRA`` (IOC/EMA or ISO alpha-3) or ``France``; '' when unknown."""
    upper = (text or "").strip().upper()
    if not upper:
        return ""
    if any(ch.isdigit() for ch in upper):  # numeric ISO codes are not what organisers type
        return ""
    if len(upper) == 2 and countries.alpha2(upper):
        return countries.alpha2(upper)
    return _by_code().get(upper, "")


# First two digits of an EMA number -> ISO alpha-2 of the member country.
EMA_PREFIXES: dict[str, str] = {
    "01": "AT",
    "02": "BE",
    "03": "DK",
    "04": "FR",
    "05": "DE",
    "06": "HU",
    "07": "IT",
    "08": "NL",
    "09": "SE",
    "10": "ES",
    "11": "GB",
    "12": "PT",
    "14": "FI",
    "15": "RU",
    "16": "CH",
    "17": "SK",
    "19": "PL",
    "21": "UA",
    "22": "CZ",
}


def ema_code(iso: str) -> str:
    """The EMA three-letter (IOC) code of an ISO alpha-2 country; ISO alpha-3 where the IOC has none;
    '' when unknown."""
    code = str(iso or "").upper()
    if not code or not countries.alpha2(code):
        return ""
    return countries.ioc_code(code) or countries.alpha3(code)


def country_name(iso: str) -> str:
    """The country's name in the active language (the code itself when unknown)."""
    code = str(iso or "").upper()
    return (str(countries.name(code)) or code) if code else ""
