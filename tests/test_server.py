"""The HTTP side of the real server (daphne with ``pokerfloor.asgi``):
requests reuse their database connections (``pokerfloor.runtime.http``)."""

import time
import urllib.error
import urllib.request

import pytest
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


def _sessions_opened() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def _get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_requests_reuse_database_connections_instead_of_opening_one_each(live_server_url):
    # Django's own ASGI handler opens (and drops) a PostgreSQL connection for
    # every request; a lobby link that is not ours is looked up in the database.
    for _ in range(3):  # the handler's threads open theirs
        assert _get_status(f"{live_server_url}/lobby/no-such-display/") == 404
    time.sleep(0.6)  # PostgreSQL publishes its counters about every 0.5 s
    before = _sessions_opened()
    for _ in range(20):
        assert _get_status(f"{live_server_url}/lobby/no-such-display/") == 404
    time.sleep(0.6)
    opened = _sessions_opened() - before
    kept = settings.DB_POOL_SIZE if settings.DB_POOL else settings.HTTP_THREADS
    assert opened <= kept, f"20 requests opened {opened} database sessions"
