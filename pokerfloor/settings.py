"""Django settings for pokerfloor, driven by environment variables.

A fresh checkout runs with no configuration at all: with no ``DATABASE_URL``
an embedded PostgreSQL is started in ``.pgdata/`` (see ``embedded_pg``); with
no ``REDIS_URL`` the channel layer is in-memory (one daphne process).
"""

from __future__ import annotations

import os
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


DEBUG = envbool("DEBUG", "true")
SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-secret-key-change-me" if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "channels",
    "pokerfloor",  # project-wide management commands (load_demo imports every app)
    "tables",
    "rules",
    "room",
    "tournaments",
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
# connection (pokerfloor.handlers).  DB_POOL=on (default off) takes them
# from psycopg's connection pool instead (Django's OPTIONS["pool"], at most
# DB_POOL_SIZE per process, default 8); measured slower for the lobby with
# this project's HTTP handler (see pokerfloor.handlers).
HTTP_THREADS = envint("HTTP_THREADS", "4")
DB_POOL = envbool("DB_POOL", "false")
DB_POOL_SIZE = envint("DB_POOL_SIZE", "8")
CONN_MAX_AGE = 0 if DB_POOL else envint("CONN_MAX_AGE", "600")
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=CONN_MAX_AGE, conn_health_checks=not DB_POOL
        )
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

if os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [os.environ["REDIS_URL"]]},
        }
    }
else:
    # One process only (the worker's updates need a shared layer: REDIS_URL).
    # The lobby screens of a room share one subscription per process
    # (room.fanout), so the layer's expiry sweep on each receive walks the
    # channels once per update, not once per screen.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": envint("CHANNEL_CAPACITY", "1000")},
        }
    }

if os.environ.get("POKERFLOOR_FAST_PASSWORDS") == "1":
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
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Zurich")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
WHITENOISE_USE_FINDERS = True  # serve straight from static/ too, so no collectstatic is needed in tests
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Where the shared material (rulebooks, PHH hands) lives: ../shared beside the checkout.
SHARED_DIR = Path(os.environ.get("POKERFLOOR_SHARED", BASE_DIR.parent / "shared"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Parallel pytest sessions (several engineers on one machine) each get their own test database.
DATABASES["default"]["TEST"] = {"NAME": os.environ.get("POKERFLOOR_TEST_DB", "test_pokerfloor")}
