"""PostgreSQL connections of the event loop itself, for the one statement of a dealer's betting action.

Why: a dealer's action through a service thread (:mod:`pokerfloor.runtime.threads`) costs about ten
context switches of the server process: the loop hands the call to a thread, the thread takes the GIL,
waits for PostgreSQL without it, takes it again, hands the broadcast and the result back through the
loop's self-pipe, and goes back to sleep.  The echo server of ``bench/live.py`` does its whole work on
the loop with less than one.  An action the fast path takes (``tables.services.fastpath``) is decided in
memory and written in ONE autocommit statement, so nothing about it needs Django's connection or a
thread: the statement goes out on an ``psycopg.AsyncConnection`` of the loop and the loop serves other
sockets while PostgreSQL answers.  Everything else (a deal, a hand's end, a correction, any read through
the ORM) stays on the threads.

:class:`LoopConnections` keeps up to ``size`` connections per event loop (``settings.SERVICE_THREADS``,
so the server opens no more connections than the threads would), opened on first use with Django's
settings of the ``default`` database (the test database in tests) and kept.  A connection that breaks is
closed and replaced by the next call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections


class LoopConnections:
    """Up to ``size`` autocommit connections of one event loop (use :func:`for_running_loop`).

    :meth:`fetchone` runs one statement and returns its first row (a tuple) or None; a statement
    waits for a free connection when all ``size`` are busy.  Errors are psycopg's
    (``psycopg.Error`` and its subclasses; ``sqlstate`` tells which), after which a broken
    connection is dropped."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.idle: list[tuple[psycopg.AsyncConnection, psycopg.AsyncCursor]] = []
        self.opened = 0
        self.waiters: list[asyncio.Future] = []

    async def fetchone(self, sql: str, params: Sequence[Any]) -> tuple | None:
        """The first row of ``sql`` with ``params`` (psycopg's ``%s`` placeholders), run as its own
        transaction on a connection of this loop; None when it returns no row."""
        # No lock: the loop runs one coroutine at a time, so the idle list needs none.  Each connection
        # keeps one cursor (psycopg builds its adapters per cursor); statements are prepared as on Django's
        # connections (``DB_PREPARE_THRESHOLD``, 0: never, as behind an older PgBouncer).
        held = self.idle.pop() if self.idle else await self._open_or_wait()
        try:
            await held[1].execute(sql, params)
            return await held[1].fetchone()
        finally:
            self._release(held)

    async def _open_or_wait(self) -> tuple[psycopg.AsyncConnection, psycopg.AsyncCursor]:
        while self.opened >= self.size:
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            try:
                await waiter
            finally:
                if waiter in self.waiters:
                    self.waiters.remove(waiter)
            if self.idle:
                return self.idle.pop()
        self.opened += 1
        try:
            conn = await psycopg.AsyncConnection.connect(**connection_params(), autocommit=True)
            await conn.execute("SET TIME ZONE 'UTC'")  # as Django's connections: times come back in UTC
        except BaseException:
            self.opened -= 1
            self._wake()
            raise
        return conn, conn.cursor()

    def _release(self, held: tuple[psycopg.AsyncConnection, psycopg.AsyncCursor]) -> None:
        conn = held[0]
        if conn.closed or conn.broken:
            self.opened -= 1
            asyncio.ensure_future(conn.close())
        else:
            self.idle.append(held)
        self._wake()

    def _wake(self) -> None:
        while self.waiters:
            waiter = self.waiters.pop(0)
            if not waiter.done():
                waiter.set_result(None)
                return

    async def close(self) -> None:
        """Close the idle connections (a test's end, a server's shutdown)."""
        idle, self.idle = self.idle, []
        self.opened -= len(idle)
        for conn, _cursor in idle:
            await conn.close()


_by_loop: dict[asyncio.AbstractEventLoop, LoopConnections] = {}


def for_running_loop() -> LoopConnections:
    """The :class:`LoopConnections` of the running event loop (made on first use, ``SERVICE_THREADS``
    connections at most)."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        close_all(closed_loops_only=True)
        found = _by_loop[loop] = LoopConnections(settings.SERVICE_THREADS)
    return found


def close_all(closed_loops_only: bool = False) -> None:
    """End the connections kept for event loops (only those of loops already closed, given
    ``closed_loops_only``): a test's loop ends with its test, and a database with open sessions
    cannot be dropped.  Synchronous: libpq's ``finish`` needs no loop."""
    for loop in list(_by_loop):
        if closed_loops_only and not loop.is_closed():
            continue
        for conn, _cursor in _by_loop.pop(loop).idle:
            conn.pgconn.finish()


def connection_params() -> dict[str, Any]:
    """psycopg's keyword arguments for the ``default`` database, as Django would connect (its name, user,
    password, host, port and ``OPTIONS``), without Django's cursor class and adapters."""
    params = dict(connections["default"].get_connection_params())
    for django_only in ("cursor_factory", "context", "server_side_binding", "pool", "assume_role"):
        params.pop(django_only, None)
    return params
