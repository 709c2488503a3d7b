"""The thread pools of the websocket side: sockets' reads and services.

Why not Channels' ``database_sync_to_async``: it runs every call on one thread (asgiref's
thread-sensitive executor).  Fifty tablets connecting at once (a restart, a deploy) queued on it to
authenticate and again for their snapshots, and the first deals waited behind that; every dealer's
action queued behind every other table's.  Here:

* :data:`SOCKET_READS` -- two threads for a consumer's reads (its connect, a snapshot asked for, a right
  checked again).  Few, because every thread competes with the event loop for the GIL: two measured
  faster than the loop's default executor and than four (``bench/RESULTS.md``, "Runtime machinery").
* :data:`SERVICE_THREADS` -- ``settings.SERVICE_THREADS`` threads (default 3) for the services: each
  holds its database connection while it waits on a table's lock or for the broadcast after its commit,
  so calls for different tables run side by side and calls for one table queue on its lock.

Every thread keeps its database connection between calls (Django's connections belong to a thread), and
checks it only when it has to (:func:`run_on_connection`): a ``SELECT 1`` round trip before each call
(Django's ``CONN_HEALTH_CHECKS``) was two of a tablet connect's nine statements.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection

#: Worker threads for sockets' reads (:func:`socket_read`).
SOCKET_READS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pokerfloor-read")

#: Worker threads for services (:func:`in_service_thread`); ``settings.SERVICE_THREADS`` of them.
SERVICE_THREADS = ThreadPoolExecutor(max_workers=settings.SERVICE_THREADS, thread_name_prefix="pokerfloor-service")


def socket_read(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """Decorator for a consumer's read (its connect, a snapshot asked for): ``func`` run on
    :data:`SOCKET_READS` instead of Channels' one database thread, with the caller's context variables,
    through :func:`run_on_connection` (no health check before it: a connection the database ended since
    is found by the read's own first statement, dropped, and the read runs once more on a new one).
    A read must be safe beside any other and safe to run twice: plain reads of committed rows."""

    @functools.wraps(func)
    async def read(*args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        call = functools.partial(run_on_connection, func, *args, **kwargs)
        return await loop.run_in_executor(SOCKET_READS, contextvars.copy_context().run, call)

    return read


def run_on_connection(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` on this worker thread's persistent database connection.  The connection
    is checked only when it needs it: after an error (``errors_occurred``: a health check, closed when
    unusable) or past ``CONN_MAX_AGE``; Django's ``close_old_connections`` before every call would cost a
    ``SELECT 1`` round trip per dealer action and per socket read.

    A connection PostgreSQL ended while it was idle (a restart, ``idle_session_timeout``, a failover) is
    only found dead by the next statement: when that happens before any statement of the call succeeded
    (nothing can have been committed), the connection is dropped and the call runs once more on a fresh
    one, so the caller gets the answer and not the error (issue 24).  A dealer's message that is
    repeated all the same is applied once: services answer a repeated ``client_id`` as a duplicate."""
    check_connection()
    watch = FirstStatement()
    try:
        try:
            with connection.execute_wrapper(watch):
                return func(*args, **kwargs)
        except (OperationalError, InterfaceError):
            if not watch.died_first:
                raise
            connection.close()  # the dead connection; the retry opens a new one
            return func(*args, **kwargs)
    finally:
        check_connection()


class FirstStatement:
    """An execute wrapper noting whether a statement met a dead connection before any statement of
    the call succeeded (``died_first``)."""

    __slots__ = ("succeeded", "died_first")

    def __init__(self) -> None:
        self.succeeded = False
        self.died_first = False

    def __call__(self, execute, sql, params, many, context):
        try:
            result = execute(sql, params, many, context)
        except (OperationalError, InterfaceError):
            if not self.succeeded and connection_dead():
                self.died_first = True
            raise
        self.succeeded = True
        return result


def connection_dead() -> bool:
    """True when this thread's psycopg connection is closed or broken (the server ended it)."""
    raw = connection.connection
    return raw is None or bool(getattr(raw, "closed", False)) or bool(getattr(raw, "broken", False))


def check_connection() -> None:
    """Django's ``close_old_connections`` for this thread's connection, only
    when it has something to do (an error seen, ``CONN_MAX_AGE`` over)."""
    if connection.connection is None:
        return
    close_at = connection.close_at
    if connection.errors_occurred or (close_at is not None and time.monotonic() >= close_at):
        close_old_connections()


def in_service_thread(func: Callable[..., Any], *args: Any, **kwargs: Any) -> asyncio.Future:
    """``func(*args, **kwargs)`` on a thread of :data:`SERVICE_THREADS`, with the caller's context
    variables; await the returned future for its result (or its exception).  The executor directly:
    what asgiref's ``sync_to_async`` does for a thread-insensitive call, without its per-call wrapper
    objects (every dealer action comes here).  Call from the event loop."""
    loop = asyncio.get_running_loop()
    call = functools.partial(func, *args, **kwargs)
    return loop.run_in_executor(SERVICE_THREADS, contextvars.copy_context().run, call)
