"""Database helpers for the few statements on the hot path of every update.

Django's psycopg 3 backend binds parameters on the client and runs each
statement as plain text, so PostgreSQL plans it again every time.  For the
joins of the room snapshot, planning is most of the cost (measured on this
project's machine: the seats join 2.8 ms planned each time, 0.4 ms
prepared).  :func:`prepared_cursor` is a Django cursor on the same
connection (same transaction, same execute wrappers and query logging) that
binds on the server, so psycopg prepares a statement once it has run
``settings.DB_PREPARE_THRESHOLD`` times on that connection.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.backends.postgresql.base import ServerBindingCursor


def prepared_cursor():
    """A cursor (Django's ``CursorWrapper``; use as a context manager) on the
    default connection whose statements bind parameters on the server and are
    prepared after ``DB_PREPARE_THRESHOLD`` runs (never, if it is 0).

    Write ``%s`` placeholders as with any Django cursor; a parameter must be
    a value PostgreSQL can bind (``= ANY(%s)`` with a list, not ``IN %s``)."""
    connection.ensure_connection()
    return connection._prepare_cursor(ServerBindingCursor(connection.connection))


def rows(sql: str, params: list[Any] | tuple[Any, ...]) -> list[tuple]:
    """All rows of one statement run through :func:`prepared_cursor`."""
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
