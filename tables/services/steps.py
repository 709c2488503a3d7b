"""The tables' side of the write path (:mod:`tables.writepath`): locking a
table with its hand, appending hand events, settling, broadcasting the
snapshot.
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from poker.hand import AnyState, HandState
from tables import hooks, jsontext, probes, sql
from tables.access import STEP_RIGHT
from tables.floor_summary import tile_summary
from tables.models import Hand, HandEvent, Table
from tables.services.replay import empty_info, hand_replay, remember_state
from tables.services.snapshots import FLOOR_GROUP, SnapshotParts, hand_view, table_group, table_snapshot
from tables.writepath import ServiceError, WriteStep, send_messages_on_commit, write_step


@dataclass(frozen=True)
class Outcome:
    """What a service did: the table's ``seq`` after it, and whether the
    message was a duplicate (``client_id`` already applied).  ``update_text``:
    the table's update as its group gets it (a JSON text), when the service
    hands it to the socket that asked, to send before its ack
    (``tables.services.eventbatch.try_action_on_loop``); else None."""

    table_id: int
    seq: int
    duplicate: bool = False
    update_text: str | None = None


_TABLE_FIELDS = [f.attname for f in Table._meta.concrete_fields]


_HAND_FIELDS = [f.attname for f in Hand._meta.concrete_fields]
#: The columns of :func:`lock_table`'s read, joined once.
_TABLE_COLUMNS = ", ".join(f't."{name}"' for name in _TABLE_FIELDS)
_HAND_COLUMNS = ", ".join(f'h."{name}"' for name in _HAND_FIELDS)
#: Per column of the hand, its field's ``from_db_value`` (the JSON fields'), or None.
_HAND_CONVERTERS = [getattr(field, "from_db_value", None) for field in Hand._meta.concrete_fields]


def lock_table(table_id: int, client_id: str | None = None, lock_timeout: str | None = None) -> Table:
    """Lock the table row (``FOR NO KEY UPDATE``: one writer per table) and
    load it with its dealer's username and its current hand, in one plain
    SQL statement (the hot path of every dealer action).  With ``client_id``
    the same statement also looks the id up among the recorded events, so a
    dealer action costs one round trip less (read by :func:`_duplicate_seq`).
    With ``lock_timeout`` (a PostgreSQL interval, ``"2000ms"``) the statement
    first sets the transaction's ``lock_timeout`` (``tables.sql.LOCK_TIMEOUT_CTE``),
    so the wait for the row is bounded by it.  A dealer socket's right to
    deal at this table, when its step carries one
    (``tables.access.STEP_RIGHT``), is read by the same statement.
    Raises ``ServiceError('not_found')``, the right's ``lost()`` (``forbidden``)
    when it no longer holds; a row held past the timeout raises the database's
    lock-not-available error (``tables.writepath.write_step``: ``busy``)."""
    probe_cols, probe_names = probes.select_sql()
    params: list[Any] = []
    timeout_cte, timeout_cond = "", ""
    if lock_timeout:
        timeout_cte, timeout_cond = f"WITH {sql.LOCK_TIMEOUT_CTE} ", f" AND {sql.LOCK_TIMEOUT_READ}"
        params.append(lock_timeout)
    right = STEP_RIGHT.get()
    if right is not None and (right.checked or right.table_id != table_id):
        right = None  # checked by an outer step already, or another table's
    right_col = ""
    if right is not None:
        right_col = f", ({right.sql})"
        params += right.params
    seen = ""
    if client_id:
        seen = f", (SELECT ARRAY[e.table_id, e.seq] FROM {HandEvent._meta.db_table} e WHERE e.client_id = %s LIMIT 1)"
        params.append(client_id)
    query = (
        f"{timeout_cte}SELECT {_TABLE_COLUMNS}, u.username, {_HAND_COLUMNS}{probe_cols}{right_col}{seen} "
        f"FROM {Table._meta.db_table} t "
        f"LEFT JOIN {User._meta.db_table} u ON u.id = t.dealer_id "
        f"LEFT JOIN {Hand._meta.db_table} h ON h.id = t.current_hand_id "
        f"WHERE t.id = %s{timeout_cond} FOR NO KEY UPDATE OF t"
    )
    params.append(table_id)
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        row = cursor.fetchone()
    if row is None:
        raise ServiceError("not_found", f"no table {table_id}")
    n = len(_TABLE_FIELDS)
    if right is not None:
        if not row[n + 1 + len(_HAND_FIELDS) + len(probe_names)]:
            raise right.lost()  # inside the step's transaction: nothing is written
        right.checked = True
    alias = connection.alias  # once: ``connection`` looks the thread's connection up on every attribute
    table = Table.from_db(alias, _TABLE_FIELDS, row[:n])
    first_probe = n + 1 + len(_HAND_FIELDS)
    probes.keep(table, probe_names, row[first_probe : first_probe + len(probe_names)])
    if table.dealer_id is not None:
        table.dealer = User.from_db(alias, ["id", "username"], [table.dealer_id, row[n]])
    if table.current_hand_id is not None:
        hand_values = [  # jsonb arrives as text from a raw cursor
            value if convert is None else convert(value, None, connection)
            for convert, value in zip(_HAND_CONVERTERS, row[n + 1 : n + 1 + len(_HAND_FIELDS)])
        ]
        table.current_hand = Hand.from_db(alias, _HAND_FIELDS, hand_values)
    else:
        table.current_hand = None
    if client_id:
        table.client_id_seen = (client_id, row[-1])  # (client_id, [table_id, seq] or None)
    return table


def live_hand(table: Table) -> Hand | None:
    hand = table.current_hand
    return hand if hand is not None and hand.status == Hand.Status.LIVE else None


def _duplicate_seq(table: Table, client_id: str) -> int | None:
    """The seq of the event first recorded with ``client_id`` at this table,
    or None; ``ServiceError('invalid')`` when another table used it."""
    seen = table.client_id_seen
    if seen is not None and seen[0] == client_id:
        found = seen[1]
    else:
        with connection.cursor() as cursor:  # hot path: plain SQL, no ORM query compilation
            cursor.execute(f"SELECT table_id, seq FROM {HandEvent._meta.db_table} WHERE client_id = %s", [client_id])
            found = cursor.fetchone()
    if found is None:
        return None
    if found[0] != table.id:
        raise ServiceError("invalid", "client_id already used at another table")
    return found[1]


def table_step(
    table_id: int, expected_seq: int | None = None, client_id: str | None = None
) -> contextlib.AbstractContextManager[WriteStep[Table]]:
    """A write step on the table (:func:`tables.writepath.write_step`): the
    row locked by :func:`lock_table`, a repeated ``client_id`` found in the
    hand events.  Errors: ``not_found``, ``stale``, ``invalid``."""
    return write_step(
        Table,
        table_id,
        expected_seq=expected_seq,
        client_id=client_id,
        find_duplicate=_duplicate_seq,
        lock=functools.partial(lock_table, client_id=client_id),
        lock_sets_timeout=True,
    )


def repeated_outcome(step: WriteStep[Table]) -> Outcome | None:
    """The outcome of a repeated ``client_id`` (its first seq), or None."""
    if step.duplicate_seq is None:
        return None
    return Outcome(step.row.id, step.duplicate_seq, duplicate=True)


#: Stands for the hand's state in a snapshot serialised without it (see :func:`broadcast_on_commit`).
_STATE_MARK = "\x00hand-state\x00"
_STATE_MARK_JSON = jsontext.dumps(_STATE_MARK)


def update_messages(
    table: Table,
    hand: Hand | None = None,
    event: dict[str, Any] | None = None,
    state_json: str | None = None,
    snapshot: dict[str, Any] | None = None,
    parts: SnapshotParts | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """The channel messages of the table's update, ``[(group, message), ...]``: the table's group and
    the floor's.  The table's snapshot is taken now unless the caller took it (``snapshot``), with the
    table's and seats' ``parts`` (``tables.services.snapshots.snapshot_parts``) when the caller kept them.

    ``state_json``: the hand's state (``hand.snapshot``) as the caller
    serialised it already for the database; it goes into the message as it
    is instead of being serialised a second time.  The floor's message also
    carries the update's summary (``floor_text``, :func:`tables.floor_summary.tile_summary`),
    made here once from the snapshot while it is a dict, not parsed back from
    the text by every process serving dashboards."""
    if snapshot is None:
        snapshot = table_snapshot(table, hand=hand, last_event=event, parts=parts)
    else:
        parts = None  # the caller's snapshot: its own table and seats
    seq = snapshot["seq"]
    known = None if parts is None else parts.summary
    floor_text = jsontext.dumps({"type": "update", "seq": seq, "snapshot": tile_summary(snapshot, known=known)})
    payload = {"type": "update", "seq": seq, "snapshot": snapshot}
    if state_json is None or snapshot["hand"] is None:
        text = jsontext.dumps(payload)
    else:
        snapshot["hand"] = dict(snapshot["hand"], state=_STATE_MARK)
        text = jsontext.dumps(payload).replace(_STATE_MARK_JSON, state_json, 1)
    update = {"type": "table.update", "seq": seq, "table_id": table.id, "text": text}
    return [(table_group(table.id), update), (FLOOR_GROUP, dict(update, floor_text=floor_text))]


def broadcast_on_commit(
    table: Table,
    hand: Hand | None = None,
    event: dict[str, Any] | None = None,
    state_json: str | None = None,
    snapshot: dict[str, Any] | None = None,
) -> None:
    """Send the table's update (:func:`update_messages`, the snapshot taken now, inside the
    transaction, unless the caller took it) to the table's group and the floor once the transaction
    commits."""
    send_messages_on_commit(update_messages(table, hand, event, state_json, snapshot))


def append_event(
    step: WriteStep[Table],
    hand: Hand,
    index: int,
    kind: str,
    payload: dict,
    actor,
    client_id: str | None,
    state: AnyState,
    info: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Append event number ``index`` of ``hand`` with the step's next seq
    (written at once) and cache the hand's new snapshot; return the event as
    JSON-able data.

    The table row is locked, so seq and index cannot collide; the unique
    constraints stay as a last line of defence.  This is the hot path of
    every dealer action, so it writes in one plain SQL statement
    (:func:`tables.sql.write_event`, the fast path's write too) instead of
    compiling ORM queries.
    """
    table = step.row
    step.bump()
    recorded_actor = actor_id(actor)
    info = info if info is not None else empty_info()
    hand.snapshot = hand_view(table, state, info)
    hand.snapshot_seq = table.seq
    hand.last_index = index
    ends = state.phase == "complete" and hand.status == Hand.Status.LIVE and not info["misdeal"]
    end = None
    if ends:
        hand.status = Hand.Status.COMPLETE
        hand.ended_at = timezone.now()
        end = sql.HandEnd(str(hand.status), hand.ended_at, *final_seats(state))
    # One round trip: the event, the table's seq and the hand's snapshot -- and when the hand ends, its
    # status and the final stacks on the seats -- in one statement (tables.sql.event_statement, shared
    # with the fast path).
    at = sql.write_event(
        sql.event_statement(
            table_id=table.id,
            seq=table.seq,
            hand_id=hand.id,
            index=index,
            kind=kind,
            payload_json=jsontext.dumps(payload),
            actor_id=recorded_actor,
            client_id=client_id,
            snapshot_json=jsontext.dumps(hand.snapshot),
            end=end,
        )
    )
    step.stored()
    if ends:
        start_stacks = {s.seat: s.stack for s in state.spec.seats}
        final_stacks = {s.seat: stack for s, stack in zip(state.spec.seats, completed_stacks(state), strict=True)}
        hooks.hand_completed(table=table, hand=hand, start_stacks=start_stacks, final_stacks=final_stacks, actor=actor)
    remember_state(hand.id, index, state, info)
    return event_json(table.seq, index, kind, payload, at, actor if recorded_actor else None)


def deal_event(
    step: WriteStep[Table],
    number: int,
    spec: dict[str, Any],
    metadata: dict[str, Any],
    button: int,
    payload: dict[str, Any],
    actor,
    client_id: str | None,
    state: AnyState,
) -> tuple[Hand, dict[str, Any]]:
    """Deal hand ``number`` of the step's table with its ``start`` event (``payload``) at the step's next
    seq: the hand (``spec`` and ``metadata`` as :func:`tables.sql.deal_hand` records them, the button
    on seat ``button``), its snapshot after the start (``state``, the engine's hand as dealt) and the
    event in ONE statement, as :func:`append_event` writes the events that follow.  Returns ``(hand,
    the event as JSON-able data)``.  Errors: ``ServiceError('invalid')`` for a state already complete
    (a dealt hand never is: its pots are not yet awarded)."""
    if state.phase == "complete":
        raise ServiceError("invalid", "a hand cannot end as it is dealt")
    table = step.row
    step.bump()
    recorded_actor = actor_id(actor)
    info = empty_info()
    start = sql.StartEvent(table.seq, hand_view(table, state, info), payload, recorded_actor, client_id)
    hand, at = sql.deal_hand(table, number, spec, metadata, button, start)
    step.stored()
    remember_state(hand.id, 0, state, info)
    return hand, event_json(table.seq, 0, "start", payload, at, actor if recorded_actor else None)


def actor_id(actor) -> int | None:
    """The id a hand event records for ``actor`` (a ``User``): None for nobody or an anonymous user."""
    return actor.id if actor is not None and actor.is_authenticated else None


def event_json(seq: int, index: int, kind: str, payload: dict, at, actor) -> dict[str, Any]:
    """A recorded hand event as clients see it (``last_event``, docs/protocol.md);
    ``at`` a datetime, ``actor`` the authenticated user or None."""
    return {
        "seq": seq,
        "index": index,
        "kind": kind,
        "payload": payload,
        "at": at.isoformat(),
        "actor": actor.username if actor is not None else None,
    }


def completed_stacks(state: AnyState) -> tuple[int, ...]:
    """A complete hand's final stacks, seat by seat of its spec (chips).  Errors: ``ServiceError('invalid')``
    for a hand not complete (it has none yet)."""
    if state.final_stacks is None:
        raise ServiceError("invalid", "the hand is not complete")
    return tuple(state.final_stacks)


def final_seats(state: AnyState) -> tuple[list[int], list[int]]:
    """``(seat numbers, final stacks)`` of a completed hand, seat by seat of its spec (chips).
    Errors: ``ServiceError('invalid')`` for a hand not complete."""
    final = completed_stacks(state)
    return [spec.seat for spec in state.spec.seats], [int(stack) for stack in final]


def settle_stacks(table: Table, hand: Hand, state: AnyState) -> None:
    """Write the final stacks of a completed hand back to the seats, in one
    statement for all of them (a hand's end writes them with its event:
    :class:`tables.sql.HandEnd`).  It sends no
    ``post_save`` of the seats: the apps learn of the new stacks from
    ``tables.hooks.hand_completed``, called right after."""
    sql.settle_stacks(table.id, *final_seats(state))


def live_replay(step: WriteStep[Table], *, missing: str = "no_hand") -> tuple[Table, Hand, HandState, int, dict]:
    """The live hand of the step's table, replayed: ``(table, hand, state,
    last_index, info)``; ``ServiceError(missing)`` when no hand is live."""
    table = step.row
    hand = live_hand(table)
    if hand is None:
        raise ServiceError(missing, "no hand in progress")
    return (table, hand, *hand_replay(hand))


def commit_table_change(table: Table, fields: tuple[str, ...] = ()) -> Outcome:
    """Save a change of a table the caller locked (``fields`` besides
    ``seq``): bump its seq and broadcast the new snapshot after the commit."""
    table.seq += 1
    table.save(update_fields=[*fields, "seq"])
    broadcast_on_commit(table)
    return Outcome(table.id, table.seq)


def table_changed(step: WriteStep[Table], *fields: str) -> Outcome:
    """The step changed the table between hands (``fields`` of the row, its
    seats): one new seq, the snapshot broadcast after the commit."""
    step.bump()
    step.save(*fields)
    step.publish(broadcast_on_commit, step.row)
    return Outcome(step.row.id, step.row.seq)
