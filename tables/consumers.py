"""Thin websocket consumers: authenticate, authorise, join groups, send a
snapshot with its ``seq``, forward messages to ``tables.services``.

The right a socket was opened with holds only as long as the user keeps it
(``tables.revocation``): every message checks it again before its service
runs (``forbidden``, then close 4403), and a reassigned dealer, a removed
group or a logout closes the socket with 4403 at once.

Protocol: docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any

import psycopg
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from pokerfloor.runtime.auth import SESSION_EXPIRY, session_user
from pokerfloor.runtime.dispatch import DirectDispatch
from pokerfloor.runtime.shared import SharedRead
from pokerfloor.runtime.threads import in_service_thread, run_on_connection, socket_read
from tables import hooks, jsontext, revocation, schemas, services
from tables.access import (
    StepRight,
    deal_right_sql,
    is_floor,
    is_floor_now,
    may_deal_now,
    right_in_session,
    run_in_step,
    step_right,
)
from tables.fanout import fanout
from tables.floor_summary import summary_text, tile_summary
from tables.heartbeat import Heartbeat
from tables.models import Table
from tables.services import eventbatch, fastpath
from tables.tablet_messages import TABLET_MESSAGES, DealerMessage
from tables.tablet_open import Opening, open_tablet, open_tablet_on_loop
from tables.writepath import Broadcaster, run_answering_first, run_jobs

CLOSE_UNAUTHORISED = 4403
DB_SESSIONS = "django.contrib.sessions.backends.db"
CLOSE_NOT_FOUND = 4404


class _JsonConsumer(Heartbeat, DirectDispatch, AsyncWebsocketConsumer):
    groups_joined: list[str]

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=jsontext.dumps(content))

    async def send_error(self, code: str, message: str, client_id: Any = None, **extra: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, "client_id": client_id, **extra})

    async def disconnect(self, code: int) -> None:
        await self.leave_groups()

    async def leave_groups(self) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    async def join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = [*getattr(self, "groups_joined", []), group]

    async def table_update(self, event: dict[str, Any]) -> None:
        """Group handler: forward a table update, serialised once by the
        service for every receiver (sends only)."""
        await self.send(text_data=event["text"])

    async def parse(self, text_data: str | None, adapter: Any) -> Any:
        """The message validated by its schema (``tables.schemas``), or None after answering ``invalid``
        with the offending field named (the socket stays open)."""
        try:
            data = schemas.load_json(text_data)
            return schemas.validate(adapter, data)
        except schemas.MessageError as exc:
            client_id = None
            if "data" in locals() and isinstance(data, dict) and isinstance(data.get("client_id"), str):
                client_id = data["client_id"][:64]
            await self.send_error(exc.code, exc.message, client_id, field=exc.field)
            return None


def _table(table_id: int) -> Table | None:
    """The table with what its snapshot shows (dealer, current hand), or None."""
    return Table.objects.select_related("dealer", "current_hand").filter(pk=table_id).first()


#: A tablet's connect on a read thread, in one statement (``tables.tablet_open``).
_open_tablet = socket_read(open_tablet)


async def _read_opening(table_id: int, session_key: str | None, user_id: int | None = None) -> Opening:
    """The tablet's connect read: on the event loop's own connection when it can
    (``tables.tablet_open.open_tablet_on_loop``), else on a read thread."""
    if settings.LOOP_DATABASE:
        try:
            opening = await open_tablet_on_loop(table_id, session_key, user_id)
        except psycopg.Error:  # a connection the database ended: the read thread's path reads again
            opening = None
        if opening is not None:
            return opening
    return await _open_tablet(table_id, session_key, user_id)


#: The session's user by Channels' own ``get_user`` (a session the one statement cannot vouch for).
_session_user = socket_read(session_user)


@socket_read
def _snapshot(table_id: int) -> dict | None:
    """The table's snapshot, or None when there is no such table."""
    table = _table(table_id)
    return None if table is None else services.table_snapshot(table)


def floor_summaries() -> list[dict]:
    """The floor's summary of every open table (``tables.floor_summary.tile_summary``, with its section),
    by section and name: what a dashboard's connect sends instead of the full snapshots (at 1,000 tables
    those were megabytes)."""
    tables = list(
        Table.objects.filter(status=Table.Status.OPEN, imported=False)
        .select_related("dealer", "current_hand")
        .order_by("section", "name")
    )
    snapshots = services.table_snapshots(tables)
    return [tile_summary(snapshots[t.id], t.section) for t in tables]


#: Shared by the dashboards asking at once (``pokerfloor.runtime.shared``: at 1,000 tables a second each).
_all_summaries: SharedRead[list[dict]] = SharedRead(socket_read(floor_summaries))


@socket_read
def _watched_snapshots(table_ids: list[int]) -> list[dict]:
    """The full snapshots of the open tables among ``table_ids`` (a dashboard's ``watch``), in two
    statements however many."""
    tables = list(
        Table.objects.filter(pk__in=table_ids, imported=False).select_related("dealer", "current_hand").order_by("pk")
    )
    snapshots = services.table_snapshots(tables)
    return [snapshots[t.id] for t in tables]


def open_floor() -> tuple[list[dict], list[dict]]:
    """Everything a floor dashboard's connect reads, in one thread hop: the summaries of all open tables
    and the open floor calls."""
    return floor_summaries(), hooks.open_calls()


#: One read for every dashboard connecting at once (after a restart all of them do).
_open_floor: SharedRead[tuple[list[dict], list[dict]]] = SharedRead(socket_read(open_floor))


@socket_read
def _is_floor(user) -> bool:
    return is_floor(user)


#: A service on the worker thread's persistent connection, run once more when its first statement meets a
#: connection the database ended (``pokerfloor.runtime.threads.run_on_connection``).
_run_service = run_on_connection


def _guarded(check, func, *args, **kwargs):
    """``func(*args, **kwargs)`` once the socket's right holds (``check()``, a fresh read from the
    database); ``RightLost`` (nothing runs) when it does not."""
    if not check():
        raise revocation.RightLost
    return func(*args, **kwargs)


def _action(
    check, right_sql, step: StepRight | None, table_id: int, action: Any, decided: bool, **kwargs
) -> services.Outcome:
    """A dealer's action: in one statement with the right checked inside it when it can
    (``tables.services.fastpath``), else ``apply_action`` with the right read by its locked read
    (:func:`tables.access.run_in_step`, given ``step``) or before it (:func:`_guarded`).  ``decided``:
    the event loop's fast path has decided it in memory already and left it to this path (a hand's
    end, a held action, a refusal ...): the same decision is not made again here."""
    if not decided:
        if right_sql is None:
            if not check():
                raise revocation.RightLost
            right_sql = ("TRUE", [])
        outcome = fastpath.try_action(table_id, action, right=right_sql, **kwargs)
        if outcome is not None:
            return outcome
    if step is not None:
        return run_in_step(step, services.apply_action, table_id, action, fast=False, **kwargs)
    return _guarded(check, services.apply_action, table_id, action, fast=False, **kwargs)


async def _call(func, *args, **kwargs):
    """Run a service in a worker thread of its own (not Channels' single
    database thread): services lock their table row, so calls for different
    tables run in parallel and calls for one table queue on the lock."""
    broadcaster = Broadcaster.for_running_loop()
    result, jobs = await in_service_thread(run_answering_first, broadcaster, _run_service, func, *args, **kwargs)
    if jobs:  # the consequences the client does not wait for (a bust's moves): after the answer
        later = [functools.partial(_run_service, job) for job in jobs]
        asyncio.get_running_loop().call_soon(in_service_thread, run_jobs, broadcaster, later)
    return result


class _StaffConsumer(revocation.Revocable, _JsonConsumer):
    """A socket of a logged-in user whose right is checked again on every message and on revocation."""

    async def table_update(self, event: dict[str, Any]) -> None:
        if not self.revoked:
            await super().table_update(event)

    async def run_service(self, func, *args, **kwargs):
        """:func:`_call` behind a fresh check of the socket's right (``RightLost``: nothing ran)."""
        return await _call(_guarded, self.right_holds, func, *args, **kwargs)

    async def refuse_revoked(self, client_id: Any = None) -> None:
        """Answer ``forbidden`` and close with 4403: the right this socket was opened with is gone."""
        await self.send_json({"type": "error", "client_id": client_id, **revocation.RightLost().as_dict()})
        await self.close_revoked()


class DealerConsumer(_StaffConsumer):
    """``/ws/tables/<id>/dealer/``: the dealer tablet of one table.

    The update of the socket's own betting action goes out with its ack, update first (the tablet
    asks for a snapshot when an ack names a seq it has not seen); the same update arriving through
    the table's group afterwards is not sent twice (``_sent_seq``)."""

    _sent_seq = -1

    async def table_update(self, event: dict[str, Any]) -> None:
        if event.get("seq", self._sent_seq + 1) > self._sent_seq:
            await super().table_update(event)

    def has_right(self) -> bool:
        return may_deal_now(self.user, self.table_id)

    _right: tuple[str | None, tuple[str, list[Any]] | None] | None = None

    def _right_sql(self) -> tuple[str, list[Any]] | None:
        """The socket's right as a condition of the action's one statement (``tables.services.fastpath``);
        None when sessions are not in the database (then :meth:`right_holds` runs first).  Built once per
        session key of the socket."""
        if settings.SESSION_ENGINE != DB_SESSIONS:
            return None
        if self._right is None or self._right[0] != self._session_key:
            self._right = (self._session_key, deal_right_sql(self.user, self._session_key))
        return self._right[1]

    def _step_right(self) -> StepRight | None:
        """The socket's right for the locked read of a step at its table (``tables.access.run_in_step``);
        None when sessions are not in the database (then :meth:`right_holds` runs first).  A new one
        per step (it records that it was checked)."""
        if settings.SESSION_ENGINE != DB_SESSIONS:
            return None
        return step_right(self.user, self._session_key, self.table_id, revocation.RightLost)

    async def run_step(self, service, *args, **kwargs):
        """:func:`_call` of a write step of this table (``tables.tablet_messages.TabletSocket.run_step``)
        with the socket's right read by the step's own locked read (:func:`tables.access.run_in_step`),
        else behind a fresh check first (:meth:`run_service`; ``RightLost``: nothing ran)."""
        step = self._step_right()
        if step is None:
            return await self.run_service(service, *args, **kwargs)
        return await _call(run_in_step, step, service, *args, **kwargs)

    def right_holds(self) -> bool:
        """One statement before every tablet message (``tables.access.right_in_session``)."""
        if settings.SESSION_ENGINE != DB_SESSIONS:
            return super().right_holds()
        return right_in_session(self.user, self._session_key, table_id=self.table_id)

    _cookie_key: str | None = None

    def session_key(self) -> str | None:
        """The session of the scope, or of the session cookie (the tablet's own stack has no session
        middleware: ``pokerfloor.asgi``)."""
        return super().session_key() if "session" in self.scope else self._cookie_key

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        if self.user is None:  # the tablet's own stack: its session cookie, read with the snapshot
            self._cookie_key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        elif not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        else:
            await self.watch_rights()  # before the check: a revocation from now on reaches this socket
        # The table's group before the snapshot is read: no update falls between the two (one sent meanwhile
        # reaches the socket after its snapshot, and the tablet ignores what its snapshot's seq covers).  A
        # revocation of the table's dealer is sent to this group too (tables.revocation.revoke_users).
        await self.join(services.table_group(self.table_id))
        opening = await self._open()
        if opening.status != "ok":
            await self.leave_groups()
            await self.forget_rights()
            await self.close(code=CLOSE_NOT_FOUND if opening.status == "not_found" else CLOSE_UNAUTHORISED)
            return
        if self.user is None:  # read with its session
            self.user = self.scope["user"] = opening.user
        if self._rights_group is None:  # its user's group from now on
            self.scope[SESSION_EXPIRY] = opening.expiry
            await self.watch_rights()
        await self.accept()
        await self.send(text_data=opening.text)
        for call in opening.calls:  # a reloaded tablet still shows its open call
            await self.send_json({"type": "floor_call", "call": call})

    async def _open(self) -> Opening:
        """The tablet's connect read (``tables.tablet_open``): for the scope's user, or for its session's."""
        if self.user is not None:
            return await _read_opening(self.table_id, None, self.user.pk)
        key = self._cookie_key
        if key is None:
            return Opening("anonymous")
        opening = await _read_opening(self.table_id, key)
        if opening.status == "other_user":  # not the table's dealer: its group joined before its right is read
            self.scope[SESSION_EXPIRY] = opening.expiry
            await self.watch_rights(opening.user_id)
            opening = await _read_opening(self.table_id, key, opening.user_id)
        if opening.status == "unverified":  # Channels' get_user decides (and ends a session it refuses)
            user, self.scope[SESSION_EXPIRY] = await _session_user(key)
            if not user.is_authenticated:
                return Opening("anonymous")
            await self.forget_rights()
            self.user = self.scope["user"] = user
            await self.watch_rights()
            opening = await _read_opening(self.table_id, None, user.pk)
        return opening

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.revoked:
            return
        message = await self.parse(text_data, DealerMessage)
        if message is None:
            return
        if message.type == "snapshot":
            if not await self.still_allowed():
                await self.refuse_revoked()
                return
            snapshot = await _snapshot(self.table_id)
            if snapshot is None:
                await self.send_error("not_found", f"no table {self.table_id}")
                return
            await self.send_json({"type": "snapshot", "seq": snapshot["seq"], "snapshot": snapshot})
            return
        client_id, expected_seq = message.client_id, message.expected_seq
        try:
            outcome = await self._handle(message, client_id, expected_seq)
        except revocation.RightLost:
            await self.refuse_revoked(client_id)
            return
        except services.ServiceError as exc:
            await self.send_json({"type": "error", "client_id": client_id, **exc.as_dict()})
            return
        if outcome is not None:
            if outcome.update_text is not None:  # the tablet sees the new state with its ack, not after it
                await self.send(text_data=outcome.update_text)
                self._sent_seq = max(self._sent_seq, outcome.seq)
            await self.send_json(
                {"type": "ack", "client_id": client_id, "seq": outcome.seq, "duplicate": outcome.duplicate}
            )

    async def _handle(self, message: Any, client_id: str | None, expected_seq: int | None) -> Any:
        """Run one validated message by its row of ``tables.tablet_messages.TABLET_MESSAGES``; returns the
        service's ``Outcome`` (acknowledged by the caller), or None when the reply was already sent (floor
        call, interpretation, undo options)."""
        return await TABLET_MESSAGES[message.type].handle(self, message, client_id, expected_seq)

    async def run_deal(self, client_id: str | None, expected_seq: int | None) -> Any:
        """The dealer's "start" of the next hand without a format or spec: on the loop from the table in
        memory (``eventbatch.try_deal_on_loop``, the right inside its one statement), else the step."""
        kw, right_sql = {"actor": self.user, "expected_seq": expected_seq, "client_id": client_id}, self._right_sql()
        if right_sql is not None and settings.LOOP_DATABASE:
            if (outcome := await eventbatch.try_deal_on_loop(self.table_id, right=right_sql, **kw)) is not None:
                return outcome
        return await self.run_step(services.start_hand, self.table_id, **kw)

    async def run_action(self, action: dict[str, Any], client_id: str | None, expected_seq: int | None) -> Any:
        """A dealer's action: :func:`_action` (the fast path with the right inside its one statement)."""
        right_sql = self._right_sql()
        # on the loop, alone or with the actions that arrive while its connections are busy
        # (``tables.services.eventbatch``); what it does not write goes to the threads
        decided = False
        if right_sql is not None and settings.LOOP_DATABASE:
            decided = True
            outcome = await eventbatch.try_action_on_loop(
                self.table_id,
                action,
                actor=self.user,
                expected_seq=expected_seq,
                client_id=client_id,
                right=right_sql,
                who=(self.user.pk, self._session_key),
            )
            if outcome is not None:
                return outcome
        return await _call(
            _action,
            self.right_holds,
            right_sql,
            self._step_right(),
            self.table_id,
            action,
            decided,
            actor=self.user,
            expected_seq=expected_seq,
            client_id=client_id,
        )


#: The last ``(summaries, page size, frames)`` of :func:`_floor_frames`.
_frames: tuple[list[dict], int, list[str]] | None = None


def _floor_frames(tables: list[dict], page: int) -> list[str]:
    """The ``floor_snapshot`` frames of ``tables`` (pages of ``page`` summaries) as JSON texts, serialised
    once for the dashboards sharing one read of the room (``_open_floor``), not once per dashboard."""
    global _frames
    if _frames is None or _frames[0] is not tables or _frames[1] != page:
        pages = [tables[i : i + page] for i in range(0, len(tables), page)] or [[]]
        texts = [
            json.dumps({"type": "floor_snapshot", "tables": p, "part": n, "parts": len(pages)}, separators=(",", ":"))
            for n, p in enumerate(pages, start=1)
        ]
        _frames = (tables, page, texts)
    return _frames[2]


class FloorConsumer(_StaffConsumer):
    """``/ws/floor/``: every table, live, for floor staff and managers.

    Updates arriving within ``BATCH_SECONDS`` go out in one ``batch`` frame (in order, each an
    ``update`` with its seq): one frame per dashboard per tick, not one per action.  The dashboards
    of a process share one subscription to the floor group (``tables.fanout``): one channel message
    per process and update.  A dashboard hears summaries (``tables.floor_summary``, made once per
    process and update) except for the tables it ``watch``es (its detailed tiles), which come whole.
    """

    BATCH_SECONDS = 0.02
    #: The most tables one dashboard may watch (a screen of tiles is a dozen or two).
    MAX_WATCHED = 100
    #: Tables per ``floor_snapshot`` frame (summaries of about 600 bytes: some 150 kB a frame).
    SNAPSHOT_PAGE = 250
    _held: list[dict[str, Any]] | None = None  # updates that came while the snapshot was being read
    _pending: list[str] | None = None  # the frames of this tick, sent together by _flush
    _on_floor = False
    _watched: frozenset[int] = frozenset()

    def has_right(self) -> bool:
        return is_floor_now(self.user)

    def right_holds(self) -> bool:
        """One statement before every floor message (``tables.access.right_in_session``)."""
        if settings.SESSION_ENGINE != DB_SESSIONS:
            return super().right_holds()
        return right_in_session(self.user, self._session_key)

    def _text_for(self, event: dict[str, Any]) -> str:
        """What this dashboard gets of ``event``: the whole text for a watched table (and for messages
        that are not a table's update), else the update's summary: ``floor_text``, made once by the step
        that sent it (``tables.services.steps.broadcast_on_commit``); for an update sent without one, made
        here once for all dashboards of the process (the fan-out hands them the same event)."""
        text = event["text"]
        if event.get("table_id") in self._watched:
            return text
        summary = event.get("floor_text")
        if summary is None:
            summary = event["floor_text"] = summary_text(text) or text
        return summary

    async def table_update(self, event: dict[str, Any]) -> None:
        """Group handler: queue the update; the first one of a tick schedules the flush."""
        if self.revoked:
            return
        text = self._text_for(event)
        pending = self._pending
        if pending is None:
            self._pending = [text]
            asyncio.get_running_loop().call_later(self.BATCH_SECONDS, self._flush_soon)
        else:
            pending.append(text)

    async def fanout_message(self, event: dict[str, Any]) -> None:
        """From the process's floor subscription: an update (or floor call) for this dashboard, held back
        while its snapshot is being read, else queued for the tick."""
        if event.get("type") != "table.update":
            return
        if self._held is not None:
            self._held.append(event)
            return
        await self.table_update(event)

    def _flush_soon(self) -> None:
        asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        pending, self._pending = self._pending or [], None
        if self.revoked:
            return
        if len(pending) == 1:
            await self.send(text_data=pending[0])
        elif pending:
            await self.send(text_data='{"type":"batch","messages":[' + ",".join(pending) + "]}")

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        await self.watch_rights()  # before the check: a revocation from now on reaches this socket
        if not await _is_floor(self.user):
            await self.forget_rights()
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        # Subscribed before the snapshot is read: what is sent meanwhile is held back and follows the
        # snapshot, an update only when it is newer than the snapshot's table.
        self._held = []
        await fanout().join(services.FLOOR_GROUP, self)
        self._on_floor = True
        await self.accept()
        tables, calls = await _open_floor()
        await self.send_floor_snapshot(tables)
        await self.send_json({"type": "floor_calls", "calls": calls})
        held, self._held = self._held, None
        seqs = {snapshot["table"]["id"]: snapshot["seq"] for snapshot in tables}
        for event in held:
            if event.get("table_id") in seqs and event.get("seq", 0) <= seqs[event["table_id"]]:
                continue
            await self.table_update(event)

    async def disconnect(self, code: int) -> None:
        if self._on_floor:
            self._on_floor = False
            await fanout().leave(services.FLOOR_GROUP, self)
        await super().disconnect(code)

    async def send_floor_snapshot(self, tables: list[dict]) -> None:
        """The room's summaries in ``floor_snapshot`` frames of at most ``SNAPSHOT_PAGE`` tables, each
        with ``part`` and ``parts`` (1-based): a frame stays far below the server's frame limit (daphne's
        autobahn refuses messages over 1 MiB: the full snapshots of 1,000 tables, 2.9 MB, never left) and
        the page draws the first rows while the rest is on its way.  The frames of one shared read are
        serialised once for all the dashboards it serves (:func:`_floor_frames`)."""
        for text in _floor_frames(tables, self.SNAPSHOT_PAGE):
            await self.send(text_data=text)

    async def watch(self, table_ids: list[int]) -> None:
        """``watch``: from now on the updates of ``table_ids`` (at most ``MAX_WATCHED``) come whole, the
        others' as summaries; the tables newly watched get their full ``snapshot`` at once (one read)."""
        if not await self.still_allowed():
            await self.refuse_revoked()
            return
        ids = frozenset(table_ids[: self.MAX_WATCHED])
        new = sorted(ids - self._watched)
        self._watched = ids
        if not new:
            return
        for snapshot in await _watched_snapshots(new):
            await self.send_json({"type": "snapshot", "seq": snapshot["seq"], "snapshot": snapshot})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.revoked:
            return
        message = await self.parse(text_data, schemas.FloorMessage)
        if message is None:
            return
        if message.type == "snapshot":
            if not await self.still_allowed():
                await self.refuse_revoked()
                return
            if message.table_id is None:
                await self.send_floor_snapshot(await _all_summaries())
                return
            snapshot = await _snapshot(message.table_id)
            if snapshot is None:
                await self.send_error("not_found", f"no table {message.table_id}")
                return
            await self.send_json({"type": "snapshot", "seq": snapshot["seq"], "snapshot": snapshot})
            return
        if message.type == "watch":
            await self.watch(message.table_ids)
