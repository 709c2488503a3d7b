"""Django settings for pokerfloor, driven by environment variables.

A fresh checkout runs with no configuration at all: with no ``DATABASE_URL``
an embedded PostgreSQL is started in ``.pgdata/`` (see ``embedded_pg``); with
no ``REDIS_URL`` the channel layer is in-memory (one daphne process).
``DEBUG`` is off unless set (``make run`` sets ``DEBUG=1`` for the demo); with it
off, ``SECRET_KEY`` is required.  The production variables are listed in the
README ("Running it for real").
"""

from __future__ import annotations

import os
import sys
import zoneinfo
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    """Read a yes/no environment variable; raise ImproperlyConfigured on junk."""
    value = os.environ.get(name, default).lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean, got {value!r}")


def envint(name: str, default: str) -> int:
    """Read an integer environment variable; raise ImproperlyConfigured on junk."""
    value = os.environ.get(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None


def envlist(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable as a list of non-empty, stripped items."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def envstr(name: str, default: str = "") -> str:
    """Read a text environment variable (stripped); ``default`` when unset or empty."""
    return os.environ.get(name, "").strip() or default


def envchoice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """Read an environment variable that must be one of ``choices`` (compared upper-case);
    raise ImproperlyConfigured naming the variable otherwise."""
    value = envstr(name, default).upper()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def envzone(name: str, default: str) -> str:
    """Read an IANA time zone name (``Europe/Zurich``); raise ImproperlyConfigured naming the
    variable when the zone database does not know it."""
    value = envstr(name, default)
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(f"{name} must be a time zone such as Europe/Zurich, got {value!r}") from None
    return value


#: The test suite (pytest in this process, or a server it started: tests/conftest.py sets
#: POKERFLOOR_FAST_PASSWORDS for itself and its subprocesses).
TESTING = "pytest" in sys.modules or envbool("POKERFLOOR_FAST_PASSWORDS", "0")

# Off unless set: `make run` turns it on for the local demo (DEBUG=1).  With
# DEBUG on, a 404 page lists every URL pattern and errors show tracebacks.
DEBUG = envbool("DEBUG", "false")
# Required when DEBUG is off: the server (pokerfloor.asgi) refuses to start
# without it, and Django refuses to sign anything.  Commands that sign nothing
# (migrate, compilemessages, run_worker) run without it.
SECRET_KEY = envstr("SECRET_KEY", "dev-only-insecure-secret-key-change-me" if DEBUG or TESTING else "")
# The host names this site answers to (the Host header); Django's test client's
# "testserver" only with DEBUG on or under the test suite.
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost" + (",testserver" if DEBUG or TESTING else ""))
# Origins (scheme://host[:port]) trusted for POSTs and websockets besides the
# page's own, e.g. https://poker.example.org when a proxy terminates HTTPS.
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")
for _origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in _origin:
        raise ImproperlyConfigured(f"CSRF_TRUSTED_ORIGINS entries must start with a scheme, got {_origin!r}")

# HTTPS: behind a proxy that terminates TLS and sets X-Forwarded-Proto
# (BEHIND_HTTPS_PROXY=1), or served over HTTPS some other way (HTTPS=1).  Then
# cookies are sent over HTTPS only, plain HTTP is redirected, and browsers are
# told to use HTTPS only (HSTS for SECURE_HSTS_SECONDS, default a year).
BEHIND_HTTPS_PROXY = envbool("BEHIND_HTTPS_PROXY", "false")
HTTPS = envbool("HTTPS", "true" if BEHIND_HTTPS_PROXY else "false")
if BEHIND_HTTPS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "true" if HTTPS else "false")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000" if HTTPS else "0")
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "true")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "true")

# Rate limits (pokerfloor.runtime.throttle, counted in the cache below): failed logins per
# user name and client address, and unknown lobby-display tokens per client
# address (then every token lookup from that address is refused for the window).
LOGIN_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", "5")
LOGIN_FAILURE_WINDOW = envint("LOGIN_FAILURE_WINDOW", "900")  # seconds
LOBBY_TOKEN_MISS_LIMIT = envint("LOBBY_TOKEN_MISS_LIMIT", "60")
LOBBY_TOKEN_MISS_WINDOW = envint("LOBBY_TOKEN_MISS_WINDOW", "600")  # seconds

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.contrib.humanize",  # intcomma: prizes grouped as the page's language writes them
    "channels",
    "pokerfloor",  # project-wide management commands (load_demo imports every app)
    "tables",
    "rules",
    "room",
    "tournaments",
    "office",  # players, dealers and reports (issue 28): the top, beside pokerfloor
    "public",  # the public room pages for phones, remote waitlist joins, feeds (issue 29)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "pokerfloor.urls"
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
                "django.template.context_processors.i18n",
            ]
        },
    }
]
WSGI_APPLICATION = None
ASGI_APPLICATION = "pokerfloor.asgi.application"

# PostgreSQL connections persist for CONN_MAX_AGE seconds (default 600):
# websocket consumers run many short database calls, and HTTP requests run on
# their own pool of HTTP_THREADS long-lived threads, each keeping its
# connection (pokerfloor.runtime.http).  DB_POOL=on (default off) takes them
# from psycopg's connection pool instead (Django's OPTIONS["pool"], at most
# DB_POOL_SIZE per process, default 8); measured slower for the lobby with
# this project's HTTP handler (see pokerfloor.runtime.http).
HTTP_THREADS = envint("HTTP_THREADS", "4")
#: How many dealer and floor services run at once per process (tables/consumers.py).  Few on purpose: a
#: service is mostly Python, and every extra thread competes with the event loop for the GIL; scale with
#: processes (``make run WORKERS=N``), not threads.  Figures: bench/RESULTS.md.
SERVICE_THREADS = envint("SERVICE_THREADS", "3")
if SERVICE_THREADS < 1:
    raise ImproperlyConfigured(f"SERVICE_THREADS must be at least 1, got {SERVICE_THREADS}")
#: A dealer's betting action decided in memory, and a tablet's connect read, run their one statement on the
#: event loop's own connections (``pokerfloor.runtime.loopdb``) instead of a thread: no thread hop.  0: off.
LOOP_DATABASE = envbool("LOOP_DATABASE", "1")
#: How many connections the event loop keeps for those statements (``pokerfloor.runtime.loopdb``).  Few on
#: purpose: while they are all busy, the betting actions that arrive meanwhile are written together in one
#: statement and one commit (``tables.services.eventbatch``), which costs the server and PostgreSQL less per
#: action than more statements at once.  Figures: bench/RESULTS.md.
LOOP_CONNECTIONS = envint("LOOP_CONNECTIONS", "1")
if LOOP_CONNECTIONS < 1:
    raise ImproperlyConfigured(f"LOOP_CONNECTIONS must be at least 1, got {LOOP_CONNECTIONS}")
#: Websocket connects in progress at once per process, at most (pokerfloor/runtime/admission.py: it starts
#: at 32 and lets one more in per fast connect, halves while connects are slow); more wait their turn or
#: are closed with 4503 after a "retry" message and the page comes back then.  Figures: bench/RESULTS.md.
WS_CONNECT_LIMIT = envint("WS_CONNECT_LIMIT", "1024")
if WS_CONNECT_LIMIT < 1:
    raise ImproperlyConfigured(f"WS_CONNECT_LIMIT must be at least 1, got {WS_CONNECT_LIMIT}")
#: How long a connect beyond WS_CONNECT_LIMIT may wait for its turn (milliseconds; 0: none, told to retry at
#: once), when its turn comes within that time at the measured rate (pokerfloor/runtime/admission.py).  Well
#: below daphne's 5 s for a handshake and the pages' 3.5 s without a word (static/js/socket.js).
WS_CONNECT_QUEUE_MS = envint("WS_CONNECT_QUEUE_MS", "1000")
if WS_CONNECT_QUEUE_MS < 0:
    raise ImproperlyConfigured(f"WS_CONNECT_QUEUE_MS must not be negative, got {WS_CONNECT_QUEUE_MS}")
#: After the player to act changes, the dealer tablet drops taps on its betting buttons this long
#: (milliseconds): a double tap, whose second tap was meant for the player before (static/js/dealer/state.js).
TABLET_DOUBLE_TAP_MS = envint("TABLET_DOUBLE_TAP_MS", "400")
if not 0 <= TABLET_DOUBLE_TAP_MS <= 2000:
    raise ImproperlyConfigured(f"TABLET_DOUBLE_TAP_MS must be 0 to 2000 (milliseconds), got {TABLET_DOUBLE_TAP_MS}")
#: How long a step waits for the row lock of its table, room or tournament (milliseconds) before it gives
#: up and answers ``busy`` (``tables.writepath``; the tablet sends the message again).  0: wait for ever.
WRITE_LOCK_TIMEOUT_MS = envint("WRITE_LOCK_TIMEOUT_MS", "2000")
DB_POOL = envbool("DB_POOL", "false")
DB_POOL_SIZE = envint("DB_POOL_SIZE", "8")
CONN_MAX_AGE = 0 if DB_POOL else envint("CONN_MAX_AGE", "600")
DATABASE_URL = envstr("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=not DB_POOL)
    }
else:
    from pokerfloor.embedded_pg import embedded_database_url

    DATABASES = {
        "default": dj_database_url.parse(
            embedded_database_url(), conn_max_age=CONN_MAX_AGE, conn_health_checks=not DB_POOL
        )
    }
_db_options = DATABASES["default"].setdefault("OPTIONS", {})
if DB_POOL:
    # min_size connections are opened when the pool opens and kept; a broken
    # connection is noticed when it is given back and replaced.
    _db_options["pool"] = {"min_size": min(2, DB_POOL_SIZE), "max_size": DB_POOL_SIZE, "max_idle": 600}
# Prepared statements: every query binds its parameters on the server
# (DB_SERVER_SIDE_BINDING, default on; Django's OPTIONS["server_side_binding"])
# and psycopg prepares a statement once it has run DB_PREPARE_THRESHOLD times
# (default 2) on a connection, which saves PostgreSQL planning it again: the
# joins of the room snapshot behind every lobby update plan in 2.8 ms and run
# prepared in 0.4 ms.  Binding every ORM query on the server too measured
# faster than client-side binding (bench/lobby.py change -> all screens p50
# 49.8 against 54.5 ms, same session).  DB_PREPARE_THRESHOLD=0 prepares nothing (needed behind
# a transaction-mode pooler older than PgBouncer 1.21).
DB_SERVER_SIDE_BINDING = envbool("DB_SERVER_SIDE_BINDING", "true")
DB_PREPARE_THRESHOLD = envint("DB_PREPARE_THRESHOLD", "2")
_db_options["server_side_binding"] = DB_SERVER_SIDE_BINDING
_db_options["prepare_threshold"] = DB_PREPARE_THRESHOLD or None
if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
    raise ImproperlyConfigured("pokerfloor runs on PostgreSQL only")

REDIS_URL = envstr("REDIS_URL")
if REDIS_URL:
    # Several processes (daphnes, the worker) share groups through Redis: channels_redis, with the
    # sockets of a process closed (their clients resync by snapshot) when its connection to Redis
    # breaks, and sends to an unreachable Redis dropped, not raised (pokerfloor.runtime.layers).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "pokerfloor.runtime.layers.RedisChannelLayer",
            # messages a socket may have waiting before more are dropped (channels_redis: 100), as in memory
            "CONFIG": {"hosts": [REDIS_URL], "capacity": envint("CHANNEL_CAPACITY", "1000")},
        }
    }
else:
    # One process only (the worker's updates need a shared layer: REDIS_URL).
    # The lobby screens of a room share one subscription per process
    # (tables.fanout), so the layer's expiry sweep on each receive walks the
    # channels once per update, not once per screen.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "pokerfloor.runtime.layers.SweepingInMemoryChannelLayer",
            "CONFIG": {"capacity": envint("CHANNEL_CAPACITY", "1000")},
        }
    }

# The cache holds the rate-limit counters: shared by all processes through
# Redis when REDIS_URL is set, else per process.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

if envbool("POKERFLOOR_FAST_PASSWORDS", "0"):
    # The test suite only (tests/conftest.py sets it for pytest and for its
    # daphne): PBKDF2's million rounds cost about a second per test user on
    # a small machine.  Never set this in production.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = envzone("TIME_ZONE", "Europe/Zurich")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
WHITENOISE_USE_FINDERS = True  # serve straight from static/ too, so no collectstatic is needed in tests
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Where the shared material (rulebooks, PHH hands) lives: ../shared beside the checkout.
SHARED_DIR = Path(envstr("POKERFLOOR_SHARED", str(BASE_DIR.parent / "shared")))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {
        "handlers": ["console"],
        "level": envchoice("LOG_LEVEL", "WARNING", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")),
    },
}

# Parallel pytest sessions (several engineers on one machine) each get their own test database.
DATABASES["default"]["TEST"] = {"NAME": envstr("POKERFLOOR_TEST_DB", "test_pokerfloor")}

# The waitlist in the player's pocket (issue 29): the one-time codes by SMS go through this backend
# (room/sms.py; README "Remote waitlist: SMS provider"), by e-mail through Django's mail.  Web Push of a
# call needs the VAPID keys (room/services/push.py); without a private key nothing is pushed.
EMAIL_BACKEND = envstr(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
POKERFLOOR_SMS_BACKEND = envstr("POKERFLOOR_SMS_BACKEND", "room.sms.ConsoleSMSBackend")
POKERFLOOR_SMS_FILE = envstr("POKERFLOOR_SMS_FILE", "")  # room.sms.FileSMSBackend's file (tests)
POKERFLOOR_VAPID_PRIVATE_KEY = envstr("POKERFLOOR_VAPID_PRIVATE_KEY", "")
POKERFLOOR_VAPID_PUBLIC_KEY = envstr("POKERFLOOR_VAPID_PUBLIC_KEY", "")
POKERFLOOR_VAPID_SUBJECT = envstr("POKERFLOOR_VAPID_SUBJECT", "mailto:floor@example.invalid")
