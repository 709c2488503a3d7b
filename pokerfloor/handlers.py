"""Django's HTTP handler for daphne: one thread hop per request, and
database connections that live as long as ``CONN_MAX_AGE`` says.

Django's own ``ASGIHandler`` costs this project a lot on its two-core
machine, for two reasons (``bench/lobby.py``, traced inside daphne: 32 ms of
a 112 ms waitlist change):

* It runs the middleware in async mode.  Every ``MiddlewareMixin`` (session,
  locale, CSRF, auth, messages, …) then calls ``process_request`` and
  ``process_response`` through ``sync_to_async``, and the sync view through
  one more: a request crosses from the event loop to a worker thread and
  back about eighteen times.
* It wraps every request in ``asgiref``'s ``ThreadSensitiveContext``, which
  gives each request a new worker thread.  Django's database connections
  belong to a thread, so each request also opens a new PostgreSQL
  connection and drops it at the end: ``CONN_MAX_AGE`` has no effect under
  ASGI (Django ticket #33497).

Every view and middleware here is synchronous.  :class:`SyncStackASGIHandler`
builds the middleware chain in Django's sync mode and runs chain and view
together in one call on a small pool of long-lived threads (``HTTP_THREADS``,
default 4), each keeping its connection between requests, checked and
recycled at the start and end of every request exactly as Django's WSGI
handler does (``close_old_connections``).  Requests still run side by side,
and apart from the thread the Channels consumers use for the database, so a
slow page never holds up a dealer's action.  An ``async def`` view would
still work (Django wraps it with ``async_to_sync`` in sync mode).

Reading the body, the ASGI request object, disconnect handling and sending
the response stay Django's (``django.core.handlers.asgi.ASGIHandler``).

Why a private override rather than Django's documented set-up (its own
``get_asgi_application()`` with psycopg's connection pool, ``DB_POOL=on``):
measured in one session with ``bench/lobby.py`` (200 screens, 100 waitlist
changes, runs alternated), change -> all screens p50/p99 in ms:

* this handler, persistent connections: 46.5/63.8 and 47.1/57.3
* Django's handler with the pool: 49.9/80.1 and 49.7/67.1
  (floor POST answered p50 53.6-54.1 against 48.2-48.8)
* this handler with the pool: slower still under load (73-76 p50 against
  the same run's 50-70 for the others)

The pool removes the connection per request but not the eighteen thread
hops and the new thread per request; this handler is the only set-up found
that keeps the lobby figures of the version before the pool.  It is the one
place that touches Django's handler internals (``handle``,
``get_response_async``, ``load_middleware``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponseBase


class SyncStackASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose middleware and view run in one call on a worker
    thread of its own pool.

    Build it after ``django.setup()`` (:func:`get_asgi_application`).  The
    pool has ``settings.HTTP_THREADS`` threads (int, default 4); more
    simultaneous requests wait for a free thread.  Only HTTP scopes:
    ``ValueError`` for others, as Django's handler raises."""

    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.executor = ThreadPoolExecutor(max_workers=getattr(settings, "HTTP_THREADS", 4), thread_name_prefix="http")

    async def __call__(self, scope, receive, send) -> None:
        """Serve one HTTP request (Django's ``handle``, without a
        ``ThreadSensitiveContext``: the pool's threads are the context)."""
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The response of the sync middleware chain and view, computed on one
        pool thread."""
        return await sync_to_async(self._respond, thread_sensitive=False, executor=self.executor)(request)

    def _respond(self, request: HttpRequest) -> HttpResponseBase:
        # Django's request_started/request_finished receivers run in another
        # thread under ASGI; check this thread's own connection here, before
        # and after, as the WSGI handler does through those signals.
        close_old_connections()
        try:
            return self.get_response(request)
        finally:
            close_old_connections()


def get_asgi_application() -> SyncStackASGIHandler:
    """Set Django up and return the HTTP application (like
    ``django.core.asgi.get_asgi_application``)."""
    import django

    django.setup(set_prefix=False)
    return SyncStackASGIHandler()
