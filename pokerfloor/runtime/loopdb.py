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

:class:`LoopConnections` keeps up to ``size`` connections per event loop (``settings.LOOP_CONNECTIONS``,
default 1: few, so that the actions arriving while it is busy are written together:
``tables.services.eventbatch``), opened on first use with Django's settings of the ``default`` database
(the test database in tests) and kept.  A connection that breaks is
closed and replaced by the next call.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections

#: A connection of the loop and its one cursor.
Held = tuple[psycopg.AsyncConnection, psycopg.AsyncCursor]


class LoopConnections:
    """Up to ``size`` autocommit connections of one event loop (use :func:`for_running_loop`).

    :meth:`fetchone` runs one statement and returns its first row (a tuple) or None; a statement
    waits for a free connection when all ``size`` are busy.  Errors are psycopg's
    (``psycopg.Error`` and its subclasses; ``sqlstate`` tells which), after which a broken
    connection is dropped."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.idle: list[Held] = []
        self.opened = 0
        #: Statements waiting for a connection, first come first served: a released connection goes
        #: to the first of them (its future's result; None: open one in the place of a broken one).
        self.waiters: collections.deque[asyncio.Future[Held | None]] = collections.deque()

    def free(self) -> bool:
        """True when a statement would start at once (a connection idle, or one more may open).  The
        callers run their statement on a thread instead when none is free: a statement waiting here
        waits for the loop's next turn after each hand-over, and in a connect storm (a thousand
        handshakes in one turn of the loop) that turn is long; the threads' queue does not wait on it."""
        return bool(self.idle) or self.opened < self.size

    async def fetchone(self, sql: str, params: Sequence[Any]) -> tuple | None:
        """The first row of ``sql`` with ``params`` (psycopg's ``%s`` placeholders), run as its own
        transaction on a connection of this loop; None when it returns no row."""
        # No lock: the loop runs one coroutine at a time.  Each connection keeps one cursor (psycopg
        # builds its adapters per cursor); statements are prepared as on Django's connections
        # (``DB_PREPARE_THRESHOLD``, 0: never, as behind an older PgBouncer).
        held = self.idle.pop() if self.idle else await self._acquire()
        try:
            await held[1].execute(sql, params)
            return await held[1].fetchone()
        finally:
            self._release(held)

    async def acquire(self) -> Held:
        """A connection of this loop for several statements of the caller's (``tables.services.eventbatch``):
        an idle one, else as :meth:`fetchone` waits for one.  Give it back with :meth:`release`."""
        return self.idle.pop() if self.idle else await self._acquire()

    def release(self, held: Held) -> None:
        """Give back a connection of :meth:`acquire` (a broken one is closed and replaced on demand)."""
        self._release(held)

    async def _acquire(self) -> Held:
        """A connection when none is idle: a new one while fewer than ``size`` are open, else the next
        one released, in the order of asking (after a restart a thousand tablets' connects queue here;
        a newcomer taking a connection before those waiting would leave some waiting past their
        handshake's deadline)."""
        if self.opened < self.size:
            self.opened += 1  # a new place
        else:
            waiter: asyncio.Future[Held | None] = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            try:
                held = await waiter
            except asyncio.CancelledError:
                if waiter.cancelled() or not waiter.done():  # nothing handed to it
                    with contextlib.suppress(ValueError):
                        self.waiters.remove(waiter)
                elif (given := waiter.result()) is None:
                    self._free_place()  # handed over as this statement gave up: to the next one
                else:
                    self._release(given)
                raise
            if held is not None:
                return held
            # None: the place of a broken connection, handed over (``opened`` counts it already)
        try:
            conn = await psycopg.AsyncConnection.connect(**connection_params(), autocommit=True)
            await conn.execute("SET TIME ZONE 'UTC'")  # as Django's connections: times come back in UTC
        except BaseException:
            self._free_place()
            raise
        return conn, conn.cursor()

    def _release(self, held: Held) -> None:
        """A statement is done with ``held``: to the first waiting statement, else idle; a broken
        connection is closed and its place handed on."""
        if held[0].closed or held[0].broken:
            asyncio.ensure_future(held[0].close())
            self._free_place()
        elif not self._give(held):
            self.idle.append(held)

    def _free_place(self) -> None:
        """A place whose connection is gone: to the first waiting statement (it opens one), else one
        connection fewer is open."""
        if not self._give(None):
            self.opened -= 1

    def _give(self, held: Held | None) -> bool:
        """Hand ``held`` (None: a place to open a connection in) to the first waiting statement; False
        when none waits."""
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(held)
                return True
        return False

    async def close(self) -> None:
        """Close the idle connections (a test's end, a server's shutdown)."""
        idle, self.idle = self.idle, []
        self.opened -= len(idle)
        for conn, _cursor in idle:
            await conn.close()


_by_loop: dict[asyncio.AbstractEventLoop, LoopConnections] = {}


def for_running_loop() -> LoopConnections:
    """The :class:`LoopConnections` of the running event loop (made on first use, ``LOOP_CONNECTIONS``
    connections at most)."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        close_all(closed_loops_only=True)
        found = _by_loop[loop] = LoopConnections(settings.LOOP_CONNECTIONS)
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
