"""Tenbou settings.

Everything that differs between a laptop and a production server comes from the environment, so the
same file serves both: ``DATABASE_URL`` (default: ``db.sqlite3`` beside ``manage.py``), ``CACHE_URL``
(default: local memory), ``TASKS_BACKEND`` and ``TASKS_REDIS_URL`` (background work: the database by
default), ``EMAIL_URL`` (or ``EMAIL_HOST``…: the console by default), ``SITE_URL``, ``SECRET_KEY``,
``DEBUG``, ``ALLOWED_HOSTS`` and ``TRUSTED_PROXY_COUNT``.
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
    "allauth",
    "allauth.account",
    "django_tasks",
    "django_tasks_db",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "background",
    "league",
    "scoring",
    "tournaments",
    "rankings",
    "accounts",
    "api",
    "notifications",
    "registration",
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
    "allauth.account.middleware.AccountMiddleware",
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # Players log in with their e-mail address (django-allauth, accounts/); axes, first, still counts
    # and locks their failed attempts (config.login.axes_username reads the address).
    "allauth.account.auth_backends.AuthenticationBackend",
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
# Seconds a public page may be served behind its results version to anonymous visitors while one request
# renders the new one (the standings while hands come in), never across a change of what may be shown
# (league/wholepage.py). 0: every reader meeting a new version waits for it.
TENBOU_STALE_SECONDS = float(os.environ.get("TENBOU_STALE_SECONDS", "5"))



def tasks_from_env(backend: str, redis_url: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``TASKS`` and django-rq's ``RQ_QUEUES`` from ``TASKS_BACKEND`` and ``TASKS_REDIS_URL``.

    ``database`` (the default: django-tasks-db, a table in the site's own database, and a worker started
    with ``manage.py worker`` — nothing to install), ``rq`` (RQ workers on the Redis at
    ``TASKS_REDIS_URL``, for production), or ``immediate`` (every task runs inside the call that enqueues
    it: for a one-off script, never for a site — requests would wait for the work again). Whatever the
    backend, the work itself is kept as rows of the database (``background/``), so no work is lost with
    the queue. The RQ queue is configured whenever a Redis URL is given (the worker tests use it)."""
    from django.core.exceptions import ImproperlyConfigured

    queues = {"default": {"URL": redis_url, "DEFAULT_TIMEOUT": 3600}} if redis_url else {}
    choice = backend.strip().lower() or "database"
    if choice == "database":
        return {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}, queues
    if choice == "immediate":
        return {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}, queues
    if choice == "rq":
        if not redis_url:
            raise ImproperlyConfigured("TASKS_BACKEND=rq needs TASKS_REDIS_URL (e.g. redis://127.0.0.1:6379/2)")
        return {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}, queues
    raise ImproperlyConfigured(f"TASKS_BACKEND: {backend!r} is not database, rq or immediate")


TASKS, RQ_QUEUES = tasks_from_env(
    os.environ.get("TASKS_BACKEND", ""),
    os.environ.get("TASKS_REDIS_URL", "") or os.environ.get("REDIS_URL", ""),
)
if RQ_QUEUES:
    INSTALLED_APPS.append("django_rq")  # RQBackend's system check asks for it
# django-rq's one model is a table-less admin hook: the router keeps it out of migrations and backups
# (``dumpdata`` skips what a router keeps out of the database).
DATABASE_ROUTERS = ["config.routers.TablesOfTheSiteOnly"]

def email_from_env(environ: Any) -> dict[str, Any]:
    """Django's e-mail settings from ``EMAIL_URL``, else ``EMAIL_HOST`` and its companions, else the
    console backend (every message printed by the worker: nothing to install, nothing leaves the laptop).

    ``EMAIL_URL``: ``smtp://user:password@host:587?tls=1`` (STARTTLS), ``smtps://user:password@host:465``
    (TLS from the start), ``console://`` or ``file:///absolute/dir`` (one file per message). User and
    password are percent-decoded. Only the background worker sends (notifications/outbox.py): a request
    never waits for a mail server."""
    from urllib.parse import parse_qs, unquote, urlsplit

    from django.core.exceptions import ImproperlyConfigured

    url = (environ.get("EMAIL_URL") or "").strip()
    host = (environ.get("EMAIL_HOST") or "").strip()
    if not url and host:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": host,
            "EMAIL_PORT": int(environ.get("EMAIL_PORT") or 25),
            "EMAIL_HOST_USER": environ.get("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": environ.get("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_TLS": (environ.get("EMAIL_USE_TLS") or "").lower() in {"1", "true", "yes", "on"},
            "EMAIL_USE_SSL": (environ.get("EMAIL_USE_SSL") or "").lower() in {"1", "true", "yes", "on"},
        }
    if not url or url == "console://":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "file" and parts.path.startswith("/"):
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": parts.path,
        }
    if scheme in ("smtp", "smtps") and parts.hostname:
        query = {key: values[-1].lower() for key, values in parse_qs(parts.query).items()}
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname,
            "EMAIL_PORT": parts.port or (465 if scheme == "smtps" else 25),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_TLS": scheme == "smtp" and query.get("tls") in {"1", "true", "yes", "on"},
            "EMAIL_USE_SSL": scheme == "smtps",
        }
    raise ImproperlyConfigured(
        f"EMAIL_URL: {url!r} is not smtp://user:password@host:port, smtps://…, console:// or file:///absolute/dir"
    )


_EMAIL = email_from_env(os.environ)
# EMAIL_BACKEND names a backend class outright (e.g. a provider's package) and wins over EMAIL_URL.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or _EMAIL["EMAIL_BACKEND"]
EMAIL_FILE_PATH = _EMAIL.get("EMAIL_FILE_PATH")
EMAIL_HOST = _EMAIL.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _EMAIL.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _EMAIL.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _EMAIL.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _EMAIL.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _EMAIL.get("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Tenbou <tenbou@localhost>")
# The site's address as the people who receive its e-mails reach it: their links (a registration's
# personal page, its check-in QR code, "unsubscribe") are written by the worker, outside any request.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")

# Web Push (notifications/push.py): the site's VAPID key pair, made by ``manage.py vapid_keys``; without
# it push is off. The subject is how a push service reaches the site's operator (mailto: or https:).
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_SUBJECT = (
    os.environ.get("VAPID_SUBJECT", "").strip()
    or f"mailto:{DEFAULT_FROM_EMAIL.rpartition('<')[2].strip('> ')}"
)


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

# Players' accounts (django-allauth, accounts/, docs/players.md): sign-up and log-in by e-mail address,
# confirmed by a link sent to it before the first log-in. Organisers keep their username login at
# /accounts/login/; players use /account/login/. allauth's messages go through Django's e-mail backend.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Tenbou] "
# Whether anyone may sign up. A logged-in account sees the members-only events and players, so a site
# whose clubs keep events for members only may close sign-up (organisers then create players' accounts
# in the admin and link them).
TENBOU_PLAYER_SIGNUP = env_bool("TENBOU_PLAYER_SIGNUP", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Tenbou <noreply@localhost>")

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
    # Links in the players' account messages (confirm the address, reset the password) made outside a
    # request: HTTPS, as the site is served.
    ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# EMA number prefixes accepted besides the member countries listed in league/countries.py (docs/rules.md §9.1
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

# The API (docs/api.md): JSON, read without a key for what the public pages show; a logged-in session
# reads what its user reads on the pages. Its OpenAPI 3 schema is generated from the code
# (drf-spectacular) and its Swagger UI and Redoc assets come from a package (no CDN).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.KeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_THROTTLE_CLASSES": ["api.authentication.RateLimit"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# Requests per minute to the API, per key (or per client address without one): django-ratelimit's form.
API_RATE = os.environ.get("API_RATE", "600/m")
SPECTACULAR_SETTINGS = {
    "TITLE": "Tenbou API",
    "DESCRIPTION": "Clubs, events, standings, games with their hands, players, ratings, seating and clocks "
    "of a Tenbou site, with the visibility of its pages. See docs/api.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "league.models.Hanchan.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
    },
}
