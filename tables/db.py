"""Database helpers: the few hand-written statements on the hot path of
every update (the room snapshot behind each lobby screen).  The threads of
websocket consumers' reads are :mod:`pokerfloor.runtime.threads`.

Prepared statements come from Django's documented PostgreSQL options, set in
``pokerfloor/settings.py``: ``OPTIONS["server_side_binding"]`` makes every
cursor bind its parameters on the server, and psycopg prepares a statement
once it has run ``OPTIONS["prepare_threshold"]`` times on a connection
(``DB_PREPARE_THRESHOLD``).  For the joins of the room snapshot, planning is
most of the cost (the seats join: 2.8 ms planned each time, 0.4 ms
prepared).  The helpers here are plain Django cursors; they only fix how the
statements are written so that they run under either binding.
"""

from __future__ import annotations

from typing import Any

from django.db import connection


def prepared_cursor():
    """A Django cursor (``CursorWrapper``; use as a context manager) on the
    default connection: same transaction, execute wrappers and query logging
    as the ORM.  Its statements are prepared after ``DB_PREPARE_THRESHOLD``
    runs on a connection when server-side binding is on (the default).

    Write ``%s`` placeholders as with any Django cursor, and parameters that
    bind on the server as well as on the client (``= ANY(%s)`` with a list,
    not ``IN %s`` with a tuple)."""
    return connection.cursor()


def rows(sql: str, params: list[Any] | tuple[Any, ...]) -> list[tuple]:
    """All rows (tuples) of one statement run through :func:`prepared_cursor`."""
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
