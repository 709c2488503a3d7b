"""A dealer tablet's connect in one statement: its session, its user and right, the table's snapshot.

Why: after a restart every tablet of the room connects at once, and each connect cost the server about ten
statements in two trips to the read threads -- the session, the user and the session's expiry (Channels'
session and auth middleware), then a health check, the table, the user's roles, the seats, the hand's last
event, the open floor calls and another health check -- most of it the ORM compiling and decoding them
(``bench/RESULTS.md``, "Connect storm ...").  The tablet's socket (``tables.consumers.DealerConsumer``)
takes only its session cookie (``pokerfloor.asgi``) and asks :func:`open_tablet`, on one read thread:

* one prepared statement reads the session's row, the table with its dealer, current hand (its state as
  the write path keeps it, as JSON text), seats and the hand's last event, the row and roles of the
  user it is asked about (by default the table's dealer: who opens a tablet is nearly always its
  dealer), and whether a floor call is open there (``tables.probes.any_of_sql``);
* Python decodes the session (Django's signed session data), checks it the way Channels' ``get_user``
  does (the user, its backend, active, the session's auth hash) and the right the way
  ``tables.access.can_deal`` does, and builds the ``snapshot`` message with the hand's state spliced in
  as the database gave it (not decoded and encoded again);
* the open floor calls are read (a second statement) only where the probe says one is open.

Anything unusual is answered by a status that sends the consumer down the general path: a session of
another user than the table's dealer (``"other_user"``: the consumer joins that user's group first,
then asks again for that user), and a session the fast check cannot vouch for (``"unverified"``: an
auth hash that does not match, another authentication backend, sessions not in the database), which
Channels' own ``get_user`` handles.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import json
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.utils.crypto import constant_time_compare

from pokerfloor.runtime import loopdb
from tables import hooks, probes
from tables.access import deals_at, keep_roles, roles_from
from tables.db import rows
from tables.models import Hand, HandEvent, Player, Seat, Table
from tables.services.snapshots import table_snapshot

__all__ = ["Opening", "open_statement", "open_tablet", "open_tablet_on_loop", "opening_from", "snapshot_text"]

DB_SESSIONS = "django.contrib.sessions.backends.db"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
#: The fields of the hand a snapshot reads (the rest stay deferred).
_HAND_FIELDS = ["id", "table_id", "number", "status", "snapshot"]
#: Stands for the hand's state in a snapshot serialised without it (:func:`snapshot_text`).
STATE_MARK = "\x00hand-state\x00"


@dataclasses.dataclass(slots=True)
class Opening:
    """What :func:`open_tablet` found.  ``status``: ``"ok"`` (``text``: the ``snapshot`` message to send,
    ``calls``: the table's open floor calls), ``"anonymous"`` (no live session with an active user),
    ``"not_found"``, ``"forbidden"``, ``"other_user"`` (``user_id``: the session's user, not the table's
    dealer) or ``"unverified"`` (see the module docstring).  ``user``: the session's user (a fresh
    ``User``) once known; ``expiry``: the session's expiry (aware datetime) when it was read.
    ``calls_open`` and ``needs_event``: what :func:`opening_from` left to read."""

    status: str
    user: Any = None
    user_id: int | None = None
    expiry: datetime.datetime | None = None
    text: str = ""
    calls: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    #: A floor call is open at the table: ``calls`` still to be read (:func:`opening_from`).
    calls_open: bool = False
    #: The arguments of :func:`snapshot_text` when it must read the hand's last event itself.
    needs_event: tuple | None = None


@functools.cache
def _columns() -> tuple[list[str], list[str], int, int]:
    """The attribute names of the table's and the user's concrete fields, in the statement's order, and
    where the table's dealer and the user's primary key are among them."""
    user_model = get_user_model()
    tables, users = (
        [f.attname for f in Table._meta.concrete_fields],
        [f.attname for f in user_model._meta.concrete_fields],
    )
    return tables, users, tables.index("dealer_id"), users.index(user_model._meta.pk.attname)


@functools.cache
def _statement(calls_sql: str) -> str:
    """The one statement, with the floor calls' probe ``calls_sql`` (a boolean over ``t``).  Parameters:
    the table id, the session key (NULL: none read) and the user id (NULL: the table's dealer)."""
    user_model = get_user_model()
    users, groups = user_model._meta.db_table, user_model.groups.through._meta.db_table
    table_cols = ", ".join(f't."{f.column}"' for f in Table._meta.concrete_fields)
    user_cols = ", ".join(f'u."{f.column}"' for f in user_model._meta.concrete_fields)
    return (
        f"SELECT s.session_data, s.expire_date, t.id IS NOT NULL, {table_cols}, d.username,"
        f" h.id, h.number, h.status, h.snapshot::text,"
        f" (SELECT json_agg(json_build_array(st.number, pl.name, st.stack, st.sitting_out) ORDER BY st.number)"
        f"  FROM {Seat._meta.db_table} st LEFT JOIN {Player._meta.db_table} pl ON pl.id = st.player_id"
        f"  WHERE st.table_id = t.id),"
        f' ev.seq, ev."index", ev.kind, ev.payload, ev.at, ev.actor,'
        f" u.id IS NOT NULL, {user_cols},"
        f" ARRAY(SELECT g.name FROM {groups} ug JOIN {Group._meta.db_table} g ON g.id = ug.group_id"
        f"  WHERE ug.user_id = u.id),"
        f" ({calls_sql})"
        f" FROM (SELECT %s::bigint AS table_id, %s::text AS session_key, %s::bigint AS user_id) p"
        f" LEFT JOIN {Session._meta.db_table} s ON s.session_key = p.session_key AND s.expire_date > now()"
        f" LEFT JOIN {Table._meta.db_table} t ON t.id = p.table_id"
        f" LEFT JOIN {users} d ON d.id = t.dealer_id"
        f" LEFT JOIN {users} u ON u.id = COALESCE(p.user_id, t.dealer_id)"
        f" LEFT JOIN {Hand._meta.db_table} h ON h.id = t.current_hand_id"
        f' LEFT JOIN LATERAL (SELECT e.seq, e."index", e.kind, e.payload, e.at, a.username AS actor'
        f"  FROM {HandEvent._meta.db_table} e LEFT JOIN {users} a ON a.id = e.actor_id"
        f'  WHERE e.hand_id = h.id ORDER BY e."index" DESC LIMIT 1) ev ON TRUE'
    )


@functools.cache
def _session_store() -> Any:
    """A session store of the configured engine, for its ``decode`` (which keeps no state)."""
    return import_module(settings.SESSION_ENGINE).SessionStore()


def _session_user_id(session_data: str) -> tuple[str, Any]:
    """``("ok", user id, hash)`` of a session's data, ``("anonymous", ...)`` when it names no user or a
    backend not configured, ``("unverified", ...)`` for a backend other than Django's model backend."""
    session = _session_store().decode(session_data)
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend = session[BACKEND_SESSION_KEY]
    except (KeyError, ValueError, TypeError):  # Channels: a session without a user is anonymous
        return "anonymous", None
    if backend not in settings.AUTHENTICATION_BACKENDS:
        return "anonymous", None
    if backend != MODEL_BACKEND:
        return "unverified", None
    return "ok", (user_id, session.get(HASH_SESSION_KEY))


def open_statement(table_id: int, session_key: str | None, user_id: int | None = None) -> tuple[str, list[Any]]:
    """The one statement of :func:`open_tablet` and its parameters, ``(sql, params)``."""
    return _statement(probes.any_of_sql(hooks.registered("open_calls"))), [table_id, session_key, user_id]


def open_tablet(table_id: int, session_key: str | None, user_id: int | None = None) -> Opening:
    """Everything table ``table_id``'s tablet needs at its connect, in one statement (see the module
    docstring).  ``session_key``: the socket's session (None: none, then ``user_id`` is trusted, as a
    scope's user that a middleware or a test set); ``user_id``: whose right to read (None: the
    session's user, read as the table's dealer).  Run on a read thread."""
    if session_key is not None and settings.SESSION_ENGINE != DB_SESSIONS:
        return Opening("unverified")
    opening = opening_from(rows(*open_statement(table_id, session_key, user_id))[0], session_key, user_id)
    if opening.calls_open:
        opening.calls = hooks.open_calls(table_id)
    if opening.needs_event:
        opening.text = snapshot_text(*opening.needs_event)
    return opening


async def open_tablet_on_loop(table_id: int, session_key: str | None, user_id: int | None = None) -> Opening | None:
    """:func:`open_tablet` with its statement on a connection of the running event loop
    (``pokerfloor.runtime.loopdb``): no thread hop at a tablet's connect.  None when the opening needs an
    ORM read besides (a floor call open at the table, a hand without an event yet) or when no connection
    of the loop is free: then call :func:`open_tablet` on a read thread.  Raises psycopg's errors (a
    lost connection)."""
    if session_key is not None and settings.SESSION_ENGINE != DB_SESSIONS:
        return Opening("unverified")
    connections = loopdb.for_running_loop()
    if not connections.free():  # all busy (a connect storm): the read threads do not wait for the loop
        return None
    row = await connections.fetchone(*open_statement(table_id, session_key, user_id))
    assert row is not None  # a row of parameters, whatever was found
    opening = opening_from(row, session_key, user_id)
    return None if opening.calls_open or opening.needs_event else opening


def opening_from(row: tuple, session_key: str | None, user_id: int | None) -> Opening:
    """The :class:`Opening` of the statement's ``row`` (no database access: the caller reads the open
    floor calls when ``calls_open``, and the snapshot when ``needs_event``)."""
    table_names, user_names, dealer_at, pk_at = _columns()
    session_data, expiry, table_found = row[0], row[1], row[2]
    at = 3 + len(table_names)
    table_values, dealer_name, hand_values, seats = row[3:at], row[at], row[at + 1 : at + 5], row[at + 5]
    event, user_found = row[at + 6 : at + 12], row[at + 12]
    user_values, group_names, calls_open = row[at + 13 : at + 13 + len(user_names)], row[-2], row[-1]
    session_hash = None
    if session_key is not None:
        if session_data is None:
            return Opening("anonymous")
        status, found = _session_user_id(session_data)
        if found is None:
            return Opening(status)
        session_user, session_hash = found
        if user_id is None and session_user != table_values[dealer_at]:
            return Opening("other_user", user_id=session_user, expiry=expiry)
        if not user_found or session_user != user_values[pk_at]:
            return Opening("unverified")  # the user is gone, or the session changed hands: Channels decides
    if not user_found:
        return Opening("anonymous")
    user = get_user_model().from_db("default", user_names, user_values)
    if not getattr(user, "is_active", True):  # Django's model backend lets no inactive user in
        return Opening("anonymous")
    if session_key is not None and not (
        session_hash and constant_time_compare(session_hash, user.get_session_auth_hash())
    ):
        return Opening("unverified")  # Channels' get_user then ends that session
    roles = keep_roles(user, roles_from(group_names, user.is_superuser))
    if not table_found:
        return Opening("not_found", user, expiry=expiry)
    table = Table.from_db("default", table_names, table_values)
    if not deals_at(roles, user.pk, table.dealer_id):
        return Opening("forbidden", user, expiry=expiry)
    parts = (table, dealer_name, hand_values, seats or [], event)
    if hand_values[0] is not None and event[0] is None:  # the snapshot reads the hand's last event itself
        return Opening("ok", user, expiry=expiry, calls_open=bool(calls_open), needs_event=parts)
    return Opening("ok", user, expiry=expiry, text=snapshot_text(*parts), calls_open=bool(calls_open))


def snapshot_text(table: Table, dealer_name: str | None, hand: tuple, seats: list, event: tuple) -> str:
    """The ``snapshot`` message of ``table`` (``tables.services.table_snapshot``'s shape) as JSON text,
    from the statement's columns: the dealer's username, the current hand's ``(id, number, status, state
    as JSON text)`` (id None: no hand), the seats' ``[number, player, stack, sitting_out]`` lists and the
    hand's last event ``(seq, index, kind, payload, at, actor)`` (seq None: none)."""
    dealer = None
    if table.dealer_id is not None:
        dealer = get_user_model().from_db("default", ["id", "username"], [table.dealer_id, dealer_name])
    Table.dealer.field.set_cached_value(table, dealer)
    hand_id, number, status, state_json = hand
    current = None
    if hand_id is not None:
        current = Hand.from_db("default", _HAND_FIELDS, [hand_id, table.id, number, status, STATE_MARK])
    last_event = None
    if event[0] is not None:
        seq, index, kind, payload, at, actor = event
        at_text = at.isoformat() if at else None
        payload = json.loads(payload) if isinstance(payload, str) else payload  # jsonb comes as text (Django)
        last_event = {"seq": seq, "index": index, "kind": kind, "payload": payload, "at": at_text, "actor": actor}
    seat_dicts = [{"number": n, "player": p, "stack": s, "sitting_out": o} for n, p, s, o in seats]
    snapshot = table_snapshot(table, hand=current, last_event=last_event, seats=seat_dicts)
    text = json.dumps({"type": "snapshot", "seq": snapshot["seq"], "snapshot": snapshot}, separators=(",", ":"))
    if current is None:
        return text
    return text.replace(json.dumps(STATE_MARK), state_json, 1)
