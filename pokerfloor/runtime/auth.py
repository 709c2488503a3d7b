"""Channels' session authentication, on the threads of sockets' reads, with the session's expiry read in
the same hop.

Why: Channels' ``AuthMiddleware`` looks the user up through ``database_sync_to_async``, one thread for the
whole process, so sockets opened at once (every tablet after a restart) authenticated one after another,
the fiftieth waiting for the other 49 (``bench/RESULTS.md``, "Runtime machinery").  And every staff socket
then read its session's expiry (to close when the session ends, ``tables.revocation``) in a second hop to
those threads, with its own connection check: one hop per connect is enough.
"""

from __future__ import annotations

import datetime
from importlib import import_module

from channels.auth import AuthMiddleware, get_user
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from pokerfloor.runtime.threads import socket_read

__all__ = ["SESSION_EXPIRY", "ParallelAuthMiddleware", "session_expiry", "session_user", "user_and_expiry"]

#: The scope key of the session's expiry read with the user (aware datetime, or None: no session).
SESSION_EXPIRY = "pokerfloor.session_expiry"


def session_expiry(session_key: str) -> datetime.datetime | None:
    """When session ``session_key`` expires (aware datetime), or None when it is gone already.  One
    statement with the database session engine (the row's ``expire_date`` rules)."""
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.db":
        return (
            Session.objects.filter(session_key=session_key, expire_date__gt=timezone.now())
            .values_list("expire_date", flat=True)
            .first()
        )
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return store.get_expiry_date() if store.load() else None


def user_and_expiry(scope) -> tuple:
    """The session's user (Channels' ``get_user`` on ``scope["session"]``) and, for a logged-in user, the
    session's expiry."""
    user = get_user.func(scope)
    session_key = getattr(scope.get("session"), "session_key", None)
    expiry = session_expiry(session_key) if session_key and user.is_authenticated else None
    return user, expiry


def session_user(session_key: str) -> tuple:
    """:func:`user_and_expiry` of the session ``session_key`` (for a socket that has its session cookie
    only, ``tables.tablet_open``)."""
    return user_and_expiry({"session": import_module(settings.SESSION_ENGINE).SessionStore(session_key)})


_user_and_expiry = socket_read(user_and_expiry)


class ParallelAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware`` (``scope["user"]`` from the Django session, by Channels' own
    ``get_user``) with the lookup on :data:`pokerfloor.runtime.threads.SOCKET_READS`, and
    ``scope[SESSION_EXPIRY]`` read in the same hop."""

    async def resolve_scope(self, scope):
        """Set ``scope["user"]`` (a lazy object Channels made) to the session's user and
        ``scope[SESSION_EXPIRY]`` to its session's expiry (None for an anonymous user)."""
        scope["user"]._wrapped, scope[SESSION_EXPIRY] = await _user_and_expiry(scope)
