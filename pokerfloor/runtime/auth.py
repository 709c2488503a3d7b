"""Channels' session authentication, on the threads of sockets' reads.

Why: Channels' ``AuthMiddleware`` looks the user up through ``database_sync_to_async``, one thread for the
whole process, so sockets opened at once (every tablet after a restart) authenticated one after another,
the fiftieth waiting for the other 49 (``bench/RESULTS.md``, "Runtime machinery").
"""

from __future__ import annotations

from channels.auth import AuthMiddleware, get_user

from pokerfloor.runtime.threads import socket_read


class ParallelAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware`` (``scope["user"]`` from the Django session, by Channels' own
    ``get_user``) with the lookup on :data:`pokerfloor.runtime.threads.SOCKET_READS`."""

    async def resolve_scope(self, scope):
        """Set ``scope["user"]`` (a lazy object Channels made) to the session's user."""
        scope["user"]._wrapped = await socket_read(get_user.func)(scope)
