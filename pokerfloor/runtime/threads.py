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

Every thread keeps its database connection between calls (Django's connections belong to a thread).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

#: Worker threads for sockets' reads (:func:`socket_read`).
SOCKET_READS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pokerfloor-read")

#: Worker threads for services (:func:`in_service_thread`); ``settings.SERVICE_THREADS`` of them.
SERVICE_THREADS = ThreadPoolExecutor(max_workers=settings.SERVICE_THREADS, thread_name_prefix="pokerfloor-service")


def socket_read(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """Decorator for a consumer's read (its connect, a snapshot asked for): ``func`` run by asgiref's
    ``sync_to_async`` on :data:`SOCKET_READS` instead of Channels' one database thread, with the
    thread's connection checked before and after (``close_old_connections``, in the call's own context:
    Channels' ``database_sync_to_async`` checks the connection of the thread's outer context, which is
    not the one a call with ``thread_sensitive=False`` uses, so a connection the database had ended
    since was used and failed).  With ``CONN_HEALTH_CHECKS`` that is one ``SELECT 1`` per read.
    A read must be safe beside any other: plain reads of committed rows."""

    @functools.wraps(func)
    def checked(*args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        try:
            return func(*args, **kwargs)
        finally:
            close_old_connections()

    return sync_to_async(checked, thread_sensitive=False, executor=SOCKET_READS)


def in_service_thread(func: Callable[..., Any], *args: Any, **kwargs: Any) -> asyncio.Future:
    """``func(*args, **kwargs)`` on a thread of :data:`SERVICE_THREADS`, with the caller's context
    variables; await the returned future for its result (or its exception).  The executor directly:
    what asgiref's ``sync_to_async`` does for a thread-insensitive call, without its per-call wrapper
    objects (every dealer action comes here).  Call from the event loop."""
    loop = asyncio.get_running_loop()
    call = functools.partial(func, *args, **kwargs)
    return loop.run_in_executor(SERVICE_THREADS, contextvars.copy_context().run, call)
