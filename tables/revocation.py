"""Rights for the life of a connection: an open socket that loses its right closes.

A staff socket's right (dealer of its table, floor staff, manager) is checked on connect
(:mod:`tables.access`) and again

- before every message it receives runs: the session is still there and not expired, and the right is
  read afresh from the database (:func:`check`); a message sent after the right was lost is refused
  with ``forbidden`` (:class:`RightLost`), changes nothing, and the socket closes with 4403;
- when told by a ``rights.revoke`` channel message, sent after the commit of a change that may take a
  right away (:func:`connect_signals`):

  ========================================================  ==================================
  change                                                    sent to
  ========================================================  ==================================
  ``Table.dealer`` saved (any service), a table deleted      ``table.<id>`` (its tablets)
  a user removed from a group (either side of the m2m),      ``user.<id>``
  a group deleted, a user saved (deactivated) or deleted
  a user logged out (``user_logged_out``)                    ``user.<id>`` with the session key
  ========================================================  ==================================

  The socket checks its right again and closes with 4403 if it is gone; a logout closes the sockets of
  that session (and those with no session in their scope) at once.

Every authenticated consumer mixes in :class:`Revocable`, which joins ``user.<id>`` on connect.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model, user_logged_out
from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete
from django.utils import timezone

from pokerfloor.runtime.auth import SESSION_EXPIRY, session_expiry
from pokerfloor.runtime.threads import socket_read
from tables.models import Table
from tables.services.snapshots import table_group
from tables.writepath import ServiceError, send_messages_on_commit

#: Close code of a socket whose right is gone (as on a refused connect).
CLOSE_UNAUTHORISED = 4403
#: Channel message type; consumers handle it in ``rights_revoke``.
REVOKE = "rights.revoke"


def user_group(user_id: int) -> str:
    """Channels group of every open staff socket of one user."""
    return f"user.{user_id}"


class RightLost(ServiceError):
    """A socket's user no longer holds the right the socket was opened with: ``forbidden``."""

    def __init__(self) -> None:
        super().__init__("forbidden", "you no longer have the right to use this connection")


# ---------------------------------------------------------------------------
# Sending


def revoke_users(user_ids: Iterable[int], *, session_key: str | None = None, logout: bool = False) -> None:
    """After the commit, tell every open socket of ``user_ids`` to check its right again;
    ``logout``: the session ``session_key`` ends (its sockets close without a check).

    The tablets of the tables these users deal at are told too, through the table's group: a tablet
    reads its dealer's right with its snapshot before it joins the dealer's group
    (``tables.tablet_open``), and only the table's group was joined before that read."""
    ids = sorted(set(user_ids))
    message = {"type": REVOKE, "logout": logout, "session_key": session_key, "users": ids}
    tables = Table.objects.filter(dealer_id__in=ids).order_by("id").values_list("id", flat=True) if ids else []
    send_messages_on_commit([(user_group(uid), message) for uid in ids] + [(table_group(t), message) for t in tables])


def revoke_table(table_id: int) -> None:
    """After the commit, tell the sockets of table ``table_id`` to check their right again
    (its dealer changed or it is gone)."""
    send_messages_on_commit(
        [(table_group(table_id), {"type": REVOKE, "logout": False, "session_key": None, "users": None})]
    )


# ---------------------------------------------------------------------------
# Checking


def session_alive(session_key: str | None, user: Any) -> bool:
    """True when session ``session_key`` still exists, has not expired and still belongs to ``user``
    (one query with the database session engine).  A scope without a session (None) has nothing to
    check: True."""
    if session_key is None:
        return True
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    data = store.load()  # {} when the session is gone or expired
    return str(data.get(SESSION_KEY)) == str(user.pk)


def check(user: Any, session_key: str | None, right: Any) -> bool:
    """The session is alive and ``right()`` (a fresh check from :mod:`tables.access`) holds."""
    return bool(user is not None and user.is_authenticated and session_alive(session_key, user) and right())


def guard(user: Any, session_key: str | None, right: Any) -> None:
    """:func:`check`, raising :class:`RightLost` when it fails."""
    if not check(user, session_key, right):
        raise RightLost


_session_expiry = socket_read(session_expiry)


@socket_read
def _fresh(right_holds: Any) -> bool:
    """``right_holds()`` in a worker thread with a usable database connection."""
    return bool(right_holds())


class Revocable:
    """Mixin for an ``AsyncWebsocketConsumer`` of a logged-in user (list it first among the bases).

    The consumer defines ``has_right()`` (sync, fresh from the database) and calls
    :meth:`watch_rights` once it accepted; a ``rights.revoke`` message makes it check again and
    close with 4403 when the right or the session is gone.  ``revoked`` is True from then on: the
    consumer sends nothing more."""

    revoked = False
    _rights_group: str | None = None
    _session_key: str | None = None
    _expiry_timer: asyncio.TimerHandle | None = None

    def has_right(self) -> bool:  # pragma: no cover - every consumer defines it
        raise NotImplementedError

    def session_key(self) -> str | None:
        """The session key of the socket's scope (None without a session)."""
        session = self.scope.get("session")  # type: ignore[attr-defined]  # a mixin of a websocket consumer
        return getattr(session, "session_key", None) if session is not None else None

    async def watch_rights(self, user_id: int | None = None) -> None:
        """Join ``user.<id>`` (of the scope's user, or of ``user_id``) so that a revocation reaches this socket."""
        if user_id is None:
            user_id = self.scope.get("user").pk  # type: ignore[attr-defined]  # a mixin of a websocket consumer
        self._session_key = self.session_key()
        self._rights_group = user_group(user_id)
        await self.channel_layer.group_add(self._rights_group, self.channel_name)  # type: ignore[attr-defined]  # a mixin of a websocket consumer
        await self._watch_expiry()

    async def _watch_expiry(self) -> None:
        """Check again half a second after the session's expiry date, so that a socket of a session that
        expires closes then (4403) even when it sends nothing; a session extended meanwhile is watched
        until its new expiry."""
        if self._session_key is None or self.revoked:
            return
        scope = self.scope  # type: ignore[attr-defined]  # a mixin of a websocket consumer
        if SESSION_EXPIRY in scope:  # read with the user at the connect: the first watch needs no read of its own
            expires = scope.pop(SESSION_EXPIRY)
        else:
            expires = await _session_expiry(self._session_key)
        if expires is None:
            return
        delay = min(max(0.0, (expires - timezone.now()).total_seconds()) + 0.5, 86_400.0)
        loop = asyncio.get_running_loop()
        self._expiry_timer = loop.call_later(delay, lambda: asyncio.ensure_future(self._session_expired()))

    async def _session_expired(self) -> None:
        self._expiry_timer = None
        if self.revoked:
            return
        if not await self.still_allowed():
            await self.close_revoked()
        else:
            await self._watch_expiry()

    async def still_allowed(self) -> bool:
        """The session and the right, checked afresh (in a worker thread)."""
        if self.revoked:
            return False
        return await _fresh(self.right_holds)

    def right_holds(self) -> bool:
        """The session and the right, read afresh (sync; a consumer may answer it in fewer statements).
        The one check behind both :meth:`still_allowed` and the check before each message."""
        return check(self.scope.get("user"), self._session_key, self.has_right)  # type: ignore[attr-defined]  # a mixin of a websocket consumer

    async def rights_revoke(self, event: dict[str, Any]) -> None:
        """Group handler of ``rights.revoke``: close with 4403 when the right is gone.  A revocation of
        other users (``users``, heard through a table's group) leaves this socket alone."""
        if self.revoked:
            return
        users = event.get("users")
        if users is not None and getattr(self.scope.get("user"), "pk", None) not in users:  # type: ignore[attr-defined]  # a mixin of a websocket consumer
            return
        ends_session = event.get("logout") and (
            self._session_key is None or event.get("session_key") == self._session_key
        )
        if ends_session or not await self.still_allowed():
            await self.close_revoked()

    async def close_revoked(self) -> None:
        """Leave the user's group and close with 4403 (nothing more is sent)."""
        self.revoked = True
        await self.forget_rights()
        await self.close(code=CLOSE_UNAUTHORISED)  # type: ignore[attr-defined]  # a mixin of a websocket consumer

    async def forget_rights(self) -> None:
        if self._expiry_timer is not None:
            self._expiry_timer.cancel()
            self._expiry_timer = None
        if self._rights_group is not None:
            await self.channel_layer.group_discard(self._rights_group, self.channel_name)  # type: ignore[attr-defined]  # a mixin of a websocket consumer
            self._rights_group = None

    async def disconnect(self, code: int) -> None:
        await self.forget_rights()
        await super().disconnect(code)  # type: ignore[misc]  # a mixin of a websocket consumer


# ---------------------------------------------------------------------------
# Signals


def _table_saved(sender: Any, instance: Table, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if not created and (update_fields is None or "dealer" in update_fields):
        revoke_table(instance.pk)


def _table_deleted(sender: Any, instance: Table, **kwargs: Any) -> None:
    revoke_table(instance.pk)


def _groups_changed(sender: Any, instance: Any, action: str, reverse: bool, pk_set: Any, **kwargs: Any) -> None:
    if action not in ("post_remove", "pre_clear"):
        return  # an added group takes no right away
    if not reverse:  # user.groups.remove(...) / .clear()
        revoke_users([instance.pk])
    elif action == "post_remove":  # group.user_set.remove(...)
        revoke_users(pk_set or ())
    else:  # group.user_set.clear()
        revoke_users(instance.user_set.values_list("pk", flat=True))


def _group_deleted(sender: Any, instance: Group, **kwargs: Any) -> None:
    revoke_users(instance.user_set.values_list("pk", flat=True))


def _user_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return  # a new user holds no socket; a login only stamps last_login
    revoke_users([instance.pk])


def _user_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    revoke_users([instance.pk])


def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is None or user.pk is None:
        return
    session = getattr(request, "session", None)
    revoke_users([user.pk], session_key=getattr(session, "session_key", None), logout=True)


def connect_signals() -> None:
    """Connect the handlers above (``TablesConfig.ready``; connecting twice connects once)."""
    user_model = get_user_model()
    post_save.connect(_table_saved, sender=Table, dispatch_uid="revocation.table_saved")
    post_delete.connect(_table_deleted, sender=Table, dispatch_uid="revocation.table_deleted")
    m2m_changed.connect(_groups_changed, sender=user_model.groups.through, dispatch_uid="revocation.groups")
    pre_delete.connect(_group_deleted, sender=Group, dispatch_uid="revocation.group_deleted")
    post_save.connect(_user_saved, sender=user_model, dispatch_uid="revocation.user_saved")
    post_delete.connect(_user_deleted, sender=user_model, dispatch_uid="revocation.user_deleted")
    user_logged_out.connect(_logged_out, dispatch_uid="revocation.logged_out")
