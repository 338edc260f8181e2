"""Tenbou settings.

Everything that differs between a laptop and a production server comes from the environment, so the
same file serves both: ``DATABASE_URL`` (default: ``db.sqlite3`` beside ``manage.py``), ``CACHE_URL``
(default: local memory), ``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS`` and ``TRUSTED_PROXY_COUNT``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean from the environment ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated list from the environment."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
# The development key only works with DEBUG on; production must set SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-tenbou-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "django_filters",
    "django_countries",
    "axes",
    "league",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.SecurityHeadersMiddleware",  # Content-Security-Policy, Permissions-Policy
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (Django's documented place): picks the language from the
    # language cookie set by the header's switcher, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has no row locks: by default a transaction starts as a reader and fails at once with
    # "database is locked" when it tries to write while another one does (a double tap on "Save hand").
    # IMMEDIATE takes the write lock when the transaction begins, so concurrent writers queue (up to
    # ``timeout`` seconds) instead of failing; WAL lets the pages keep reading while one writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            # A 64 MB page cache per connection instead of SQLite's 2 MB: a league's indexes stay in
            # memory, which a rebuild writing every cached row and the first render of a page both need.
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;"
                " PRAGMA temp_store=MEMORY;"
            ),
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def cache_from_url(url: str) -> dict[str, Any]:
    """A ``CACHES["default"]`` from ``CACHE_URL``: where the pages that many people read are kept.

    ``locmem://`` (the default: each process's own memory, nothing to install), ``file:///abs/dir``,
    ``redis://[:password@]host:port/db`` or ``rediss://…`` (Django's own RedisCache: one cache shared by
    every gunicorn worker, and kept across restarts), ``dummy://`` (no cache). The entries are keyed by
    results versions (scoring/cache.py), so none of them can be stale whatever the backend."""
    from urllib.parse import urlsplit

    from django.core.exceptions import ImproperlyConfigured

    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "locmem":
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": parts.netloc or "tenbou",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    if scheme == "file" and parts.path.startswith("/"):
        return {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": parts.path,
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    if scheme in ("redis", "rediss", "unix"):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    raise ImproperlyConfigured(
        f"CACHE_URL: {url!r} is not locmem://, file:///absolute/dir, redis://host:port/db or dummy://"
    )


CACHES = {"default": cache_from_url(os.environ.get("CACHE_URL", "") or "locmem://")}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True
# The site's languages, each named in itself: the header's switcher lists these names, so a reader finds
# their language whatever the page's language is. URLs carry no language prefix (they are printed on
# slips and QR codes): the choice lives in Django's language cookie, kept for a year.
LANGUAGES = [("en", "English"), ("fr", "Français"), ("pl", "Polski")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Numbers on pages follow the language (decimal comma in French and Polish), but a bare integer in a
# template is never grouped: ids, table numbers and data attributes read by scripts (data-remaining="1234")
# must stay machine-readable. Points are grouped on purpose by the display filters (scoring/templatetags/
# tenbou.py), with the digit grouping of config/formats/<language>/formats.py.
USE_THOUSAND_SEPARATOR = False
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login throttling (django-axes): lock a username+address pair after repeated failures.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# What axes stores as the username is bounded (its column holds 255 characters, NUL is refused by
# PostgreSQL): a hostile username is then a failed login, never a server error.
AXES_USERNAME_CALLABLE = "config.login.axes_username"

# Reverse proxies in front of the site (a TLS proxy on the same machine: 1). Only their headers are
# believed: with N > 0 the client's address is the N-th X-Forwarded-For entry from the right (what the
# outermost trusted proxy saw), and X-Forwarded-Proto says whether the request came over HTTPS. With 0
# (the default) both headers are ignored, since any client could write them. django-ipware (axes'
# optional resolver) is not installed, so axes asks ``config.proxy.client_ip``.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT < 0:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")
AXES_CLIENT_IP_CALLABLE = "config.proxy.client_ip"
if TRUSTED_PROXY_COUNT > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap4-responsive.html"

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# EMA number prefixes accepted besides the member countries listed in league/countries.py (rules.md §9
# says "others exist"): e.g. TENBOU_EXTRA_EMA_PREFIXES=13,18
TENBOU_EXTRA_EMA_PREFIXES = env_list("TENBOU_EXTRA_EMA_PREFIXES", "")

# Table entry links (tournament day): requests per minute and per address on the token pages, and the
# stricter budget for wrong tokens and codes (django-ratelimit's "N/m" form).
TABLE_LINK_RATE = os.environ.get("TABLE_LINK_RATE", "600/m")
TABLE_LINK_FAILURE_RATE = os.environ.get("TABLE_LINK_FAILURE_RATE", "30/m")

# Online games: where Tenhou replay links are fetched from (only the log id is taken from a pasted link),
# and how long to wait.
TENBOU_TENHOU_URL = os.environ.get("TENBOU_TENHOU_URL", "https://tenhou.net")
TENBOU_TENHOU_TIMEOUT = float(os.environ.get("TENBOU_TENHOU_TIMEOUT", "10"))
