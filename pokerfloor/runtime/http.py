"""Django's HTTP handler for daphne: one thread hop per request, and database connections that live as
long as ``CONN_MAX_AGE`` says.

Why: Django's own ``ASGIHandler`` costs this project a lot on a small machine, for two reasons:

* It runs the middleware in async mode.  Every ``MiddlewareMixin`` (session, locale, CSRF, auth,
  messages, ...) then calls ``process_request`` and ``process_response`` through ``sync_to_async``, and
  the sync view through one more: a request crosses from the event loop to a worker thread and back
  about eighteen times.
* It wraps every request in ``asgiref``'s ``ThreadSensitiveContext``, which gives each request a new
  worker thread.  Django's database connections belong to a thread, so each request also opens a new
  PostgreSQL connection and drops it at the end: ``CONN_MAX_AGE`` has no effect under ASGI (Django
  ticket #33497).

Every view and middleware here is synchronous.  :class:`SyncStackASGIHandler` builds the middleware
chain in Django's sync mode and runs chain and view together in one call on a small pool of long-lived
threads (``HTTP_THREADS``, default 4), each keeping its connection between requests, checked and recycled
at the start and end of every request exactly as Django's WSGI handler does (``close_old_connections``).
Requests still run side by side, and apart from the threads the consumers use for the database, so a
slow page never holds up a dealer's action.  An ``async def`` view would still work (Django wraps it
with ``async_to_sync`` in sync mode).

Reading the body, the ASGI request object, disconnect handling and sending the response stay Django's
(``django.core.handlers.asgi.ASGIHandler``).  Django's documented alternative (its own handler with
psycopg's pool, ``DB_POOL=on``) removes the connection per request but not the thread hops, and measured
slower (``bench/lobby.py``; figures in ``bench/RESULTS.md``, "Runtime machinery").  This is the one place
that touches Django's handler internals (``handle``, ``get_response_async``, ``load_middleware``).
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
        return await sync_to_async(self.respond_in_thread, thread_sensitive=False, executor=self.executor)(request)

    def respond_in_thread(self, request: HttpRequest) -> HttpResponseBase:
        """The sync chain's response, on this pool thread's own persistent connection."""
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
