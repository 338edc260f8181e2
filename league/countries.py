"""Countries: ISO 3166 alpha-2 codes are stored; EMA pages and reports use IOC-style three-letter codes.

The EMA number's first two digits name the member country (rules.md §9); the table below holds the
members we know of and the mapping to the EMA codes.
"""

from __future__ import annotations

# ISO alpha-2 -> (name, EMA/IOC code)
COUNTRIES: dict[str, tuple[str, str]] = {
    "AT": ("Austria", "AUT"),
    "BE": ("Belgium", "BEL"),
    "CH": ("Switzerland", "SUI"),
    "CZ": ("Czech Republic", "CZE"),
    "DE": ("Germany", "GER"),
    "DK": ("Denmark", "DEN"),
    "EE": ("Estonia", "EST"),
    "ES": ("Spain", "ESP"),
    "FI": ("Finland", "FIN"),
    "FR": ("France", "FRA"),
    "GB": ("United Kingdom", "GBR"),
    "GR": ("Greece", "GRE"),
    "HR": ("Croatia", "CRO"),
    "HU": ("Hungary", "HUN"),
    "IE": ("Ireland", "IRL"),
    "IS": ("Iceland", "ISL"),
    "IT": ("Italy", "ITA"),
    "LT": ("Lithuania", "LTU"),
    "LU": ("Luxembourg", "LUX"),
    "LV": ("Latvia", "LAT"),
    "NL": ("Netherlands", "NED"),
    "NO": ("Norway", "NOR"),
    "PL": ("Poland", "POL"),
    "PT": ("Portugal", "POR"),
    "RO": ("Romania", "ROU"),
    "RS": ("Serbia", "SRB"),
    "RU": ("Russia", "RUS"),
    "SE": ("Sweden", "SWE"),
    "SI": ("Slovenia", "SLO"),
    "SK": ("Slovakia", "SVK"),
    "UA": ("Ukraine", "UKR"),
    "US": ("United States", "USA"),
    "CA": ("Canada", "CAN"),
    "JP": ("Japan", "JPN"),
    "CN": ("China", "CHN"),
    "KR": ("South Korea", "KOR"),
    "TW": ("Chinese Taipei", "TPE"),
    "BR": ("Brazil", "BRA"),
    "AU": ("Australia", "AUS"),
    "IL": ("Israel", "ISR"),
    "TR": ("Turkey", "TUR"),
    "BY": ("Belarus", "BLR"),
}

COUNTRY_CHOICES = sorted(((code, name) for code, (name, _) in COUNTRIES.items()), key=lambda c: c[1])

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
    """The EMA three-letter code of an ISO alpha-2 country ('' when unknown)."""
    return COUNTRIES.get((iso or "").upper(), ("", ""))[1]


def country_name(iso: str) -> str:
    return COUNTRIES.get((iso or "").upper(), (iso or "", ""))[0]
