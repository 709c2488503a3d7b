"""Database helpers: the few hand-written statements on the hot path of
every update (the room snapshot behind each lobby screen), and the reads of
websocket consumers (:func:`socket_read`).

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

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection

#: Worker threads for sockets' reads (:data:`socket_read`); few, as every thread competes with the event
#: loop for the GIL: with the loop's default executor (6 threads here) 50 tablets connecting at once took
#: 338-451 ms (p50), with these two 313 ms, with four 565 ms (``bench/live.py``, same session).
_SOCKET_READS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pokerfloor-read")


def socket_read(func: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for a consumer's read (its connect, a snapshot asked for): ``func`` run by asgiref's
    ``sync_to_async`` on :data:`_SOCKET_READS` instead of Channels' one database thread, with the
    thread's connection checked before and after (``close_old_connections``, in the call's own context:
    Channels' ``database_sync_to_async`` checks the connection of the thread's outer context, which is
    not the one a call with ``thread_sensitive=False`` uses, so a connection the database had ended
    since was used and failed).  With ``CONN_HEALTH_CHECKS`` that is one ``SELECT 1`` per read.

    Why not Channels' thread: on it, 50 tablets connecting at once (a restart, a deploy) queued for up
    to 128 ms to authenticate and up to 195 ms more for their snapshots and open floor calls, and their
    first deals waited behind that (ack p99 240-400 ms, 45-80 ms after; ``bench/live.py``, 50 tablets,
    2026-11-26).  A read must be safe beside any other: plain reads of committed rows."""

    @functools.wraps(func)
    def checked(*args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        try:
            return func(*args, **kwargs)
        finally:
            close_old_connections()

    return sync_to_async(checked, thread_sensitive=False, executor=_SOCKET_READS)


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
