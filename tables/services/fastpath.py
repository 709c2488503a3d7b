"""A dealer's betting action in one statement: the live table kept in memory.

The write path of :mod:`tables.writepath` costs five round trips to
PostgreSQL per action (BEGIN, the locked read of the table with its hand,
the event with the seq, COMMIT, and the socket's right read before it).
Most actions of a hand are a check, a call, a bet or a fold in the middle of
a betting round: nothing but the hand's state changes.  For those, this
module keeps per process the table and its live hand as they were
committed (:func:`remember`, after every committed step of
:func:`tables.services.hands.apply_action` and ``start_hand``), applies the
engine in memory, and writes everything in ONE statement, run as its own
transaction (autocommit), so the dealer's ack still waits for the commit:

* ``UPDATE`` of the table's seq, only ``WHERE seq = <the seq remembered>``
  (and, when the caller gives it, only while the dealer's right holds:
  :func:`tables.access.deal_right_sql`).  A write by any other step, any
  other process, since then makes it update nothing, and nothing else of the
  statement happens;
* ``INSERT`` of the hand event (its ``client_id`` unique: a repeated
  message makes the statement fail as a whole);
* ``UPDATE`` of the hand's cached snapshot.

The action that ends the hand is written the same way where no app's hook
has anything to do at the table's hand end (``tables.hooks.hand_completed``:
no room game publishing its stacks, no tournament counting busts, no player
marked to leave): the same statement also records the hand's end and the
final stacks on the seats (``tables.sql.HandEnd``), and it writes only while
every such hook's probe (``tables.probes.none_sql``) is false at that moment.

The event log stays the source of truth: the memory is a cache keyed by the
seq, rebuilt by the normal write path whenever it does not match (a restart,
another process, a floor correction).  Whatever the fast path does not
handle (a hand's end where a hook has work, a held out-of-turn action, a
misdeal, an engine refusal, a repeated ``client_id``, a lost right) it leaves
to the normal path by returning None without having changed anything.
"""

from __future__ import annotations

import contextlib
import copy
import threading
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from poker.hand import EngineError
from tables import hooks, jsontext, probes, sql
from tables.models import Hand, Seat, Table
from tables.services.floor import info_after_action
from tables.services.replay import cache_lock, remember_state, state_cache
from tables.services.snapshots import SnapshotParts, hand_view, seat_cache, snapshot_parts
from tables.services.steps import Outcome, actor_id, event_json, final_seats, update_messages
from tables.writepath import (
    busy_error,
    is_lock_timeout,
    lock_timeout_interval,
    send_messages_on_commit,
)


@dataclass
class Kept:
    """A table row and its live hand as committed at ``table.seq``; ``parts``: what the updates of
    this hand say of the table and its seats (``snapshots.snapshot_parts``), once an action of the
    fast path built them (kept while the table row in memory and the seats are the same objects);
    ``seats``: the table's ``Seat`` rows (players loaded, in seat order) as the hand was dealt, or,
    once the fast path wrote its end, as the hand left them: what the next deal starts from
    (``tables.services.fastdeal``).  A hand that is over is kept only with its seats."""

    table: Table
    hand: Hand
    parts: SnapshotParts | None = None
    seats: list[Seat] | None = None


_live: dict[int, Kept] = {}
_live_lock = threading.Lock()


def remember(
    table: Table, hand: Hand | None, parts: SnapshotParts | None = None, seats: list[Seat] | None = None
) -> None:
    """Keep ``table`` (its ``dealer`` loaded) with its live ``hand`` for the
    next action; called once the step that wrote them has committed.  A
    hand that is not live forgets the table, unless ``seats`` say what it
    left (a hand ended by :func:`finish`: the next deal).  ``parts``: the
    snapshot's parts built for this same ``table`` object (:func:`finish`);
    ``seats``: the table's ``Seat`` rows as the hand was dealt or left them."""
    if hand is not None and (hand.status == Hand.Status.LIVE or (hand.status == Hand.Status.COMPLETE and seats)):
        with _live_lock:
            _live[table.id] = Kept(table, hand, parts, seats)
    else:
        forget(table.id)


def take(table_id: int) -> Kept | None:
    """Take what is kept of ``table_id`` out of the memory (a second write of the table meanwhile goes
    the normal way); put it back with :func:`give_back` or :func:`remember`."""
    with _live_lock:
        return _live.pop(table_id, None)


def give_back(live: Kept) -> None:
    """Put back the entry :func:`take` took when the action goes to the normal path (unchanged:
    the table and hand as committed, and the parts built for them)."""
    with _live_lock:
        _live[live.table.id] = live


def remember_on_commit(table: Table, hand: Hand | None, seats: list[Seat] | None = None) -> None:
    """:func:`remember` after the current transaction commits (nothing on a rollback)."""
    transaction.on_commit(lambda: remember(table, hand, seats=seats))


def forget(table_id: int) -> None:
    """Drop what is kept of ``table_id`` (the next action takes the normal path)."""
    with _live_lock:
        _live.pop(table_id, None)


@dataclass
class Prepared:
    """An action decided in memory by :func:`prepare`, not yet written: ``statement`` is the one
    ``(sql, params)`` that writes it (``tables.sql.event_statement``); :func:`finish` once it wrote."""

    table: Table
    hand: Hand
    action: dict[str, Any]
    actor: Any
    new_state: Any
    info: dict[str, Any]
    index: int
    seq: int
    snapshot: dict[str, Any]
    state_json: str
    statement: tuple[str, list[Any]]
    #: The action as a row of a batch (``tables.sql.event_batch_statement``); None without ``who``.
    row: sql.EventRow | None = None
    #: The update's parts (``snapshots.snapshot_parts``) for ``table`` and the seats in memory (at a
    #: hand's end with its final stacks).
    parts: SnapshotParts | None = None
    #: The hand's end when the action ends it (``tables.sql.HandEnd``, written by ``statement``).
    end: sql.HandEnd | None = None
    #: The table's ``Seat`` rows after the action (at a hand's end with its final stacks), if known.
    seats: list[Seat] | None = None


def prepare(
    table_id: int,
    action: Any,
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
    right: tuple[str, list[Any]] | None = None,
    who: tuple[int, str | None] | None = None,
    lock_timeout: str | None = None,
) -> Prepared | None:
    """Decide a dealer's betting action in memory, the one that ends the hand included where no app's
    hook has work there (arguments as :func:`try_action`; ``who``: the
    ``(user id, session key)`` whose right ``right`` states, for a batch's row; ``lock_timeout``: how
    long the statement may wait for the table's row, e.g. ``"100ms"``, by default the write path's
    ``WRITE_LOCK_TIMEOUT_MS``): the
    :class:`Prepared` statement that writes it, or None (nothing changed) when this path does not
    take it.  While prepared, the table is taken from the memory: its next action goes the normal
    way until :func:`finish` puts it back.  No database access: safe on the event loop."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str) or action["type"] in ("show", "muck"):
        return None
    live = take(table_id)  # taken: a second action of this table meanwhile goes the normal way
    if live is None:
        return None
    table, hand = live.table, live.hand
    if hand.status != Hand.Status.LIVE or (expected_seq is not None and expected_seq != table.seq):
        give_back(live)
        return None
    with cache_lock:
        cached = state_cache.get(hand.id)
    if cached is None or cached[0] != hand.last_index:
        return None
    last_index, state, info = cached
    seats = seat_cache.get(table.id)
    if info["held"] or info["misdeal"] or info.get("restricted") or seats is None or seats[0] != hand.id:
        give_back(live)
        return None  # the seats too come from memory (``snapshots.seat_cache``): no read on the event loop
    try:
        new_state = state.apply(action)
    except (EngineError, KeyError, TypeError, ValueError):
        give_back(live)
        return None  # the normal path checks the right first, then refuses with the same error
    end = None
    right_sql, right_params = right if right is not None else ("", [])
    if new_state.phase == "complete":  # the hand's end: written only where no app's hook has work there
        quiet = probes.none_sql(hooks.registered("hand_completed"), Table._meta.db_table)
        if quiet is None:
            give_back(live)
            return None  # a hook without a probe runs at every hand's end: the locked step
        end = sql.HandEnd(str(Hand.Status.COMPLETE), timezone.now(), *final_seats(new_state))
        right_sql = f"({right_sql}) AND {quiet}" if right_sql else quiet
        final = dict(zip(end.numbers, end.stacks, strict=True))
        parts = snapshot_parts(
            table, [dict(s, stack=final[s["number"]]) if s["number"] in final else s for s in seats[1]]
        )
        rows = None if live.seats is None else _settled_rows(live.seats, final)
    else:
        rows = live.seats
        kept = live.parts  # built for this table object; still good while the seats are the same list
        parts = kept if kept is not None and kept.seats is seats[1] else snapshot_parts(table, seats[1])
    info = info_after_action(info, new_state)
    index, seq = last_index + 1, table.seq + 1
    snapshot = hand_view(table, new_state, info)
    recorded_actor = actor_id(actor)
    state_json = jsontext.dumps(snapshot)  # once: for the database and the broadcast
    timeout = lock_timeout or lock_timeout_interval() or "0"  # "0": no limit
    guard = sql.SeqGuard(table.seq, timeout, (right_sql, right_params))
    payload_json = jsontext.dumps(action)
    statement = sql.event_statement(
        table_id=table.id,
        seq=seq,
        hand_id=hand.id,
        index=index,
        kind="action",
        payload_json=payload_json,
        actor_id=recorded_actor,
        client_id=client_id,
        snapshot_json=state_json,
        guard=guard,
        end=end,
    )
    row = None
    if who is not None and end is None:  # a hand's end is written alone, never in a batch
        row = sql.EventRow(
            table.id, seq, table.seq, hand.id, index, payload_json, recorded_actor, client_id or None, state_json, *who
        )
    return Prepared(
        table,
        hand,
        action,
        actor if recorded_actor else None,
        new_state,
        info,
        index,
        seq,
        snapshot,
        state_json,
        statement,
        row,
        parts,
        end,
        rows,
    )


def _settled_rows(seats: list[Seat], final: dict[int, int]) -> list[Seat]:
    """Copies of the ``Seat`` rows ``seats`` (players loaded) with the ``final`` stacks (seat number ->
    chips) of a hand's end; the rows of seats it does not name are the same objects."""
    settled = []
    for seat in seats:
        if seat.number in final:
            seat = copy.copy(seat)
            seat.stack = final[seat.number]
        settled.append(seat)
    return settled


def finish(prepared: Prepared, at: Any) -> tuple[Outcome, list[tuple[str, dict[str, Any]]]]:
    """Once the statement of ``prepared`` wrote (``at``: its event's time, ``tables.sql.event_at``):
    the table and its hand remembered at the new seq, and ``(outcome, messages)``, the channel
    messages of the update (``tables.services.steps.update_messages``) for the caller to send."""
    p = prepared
    table, hand = p.table, p.hand
    table.seq = p.seq
    hand.snapshot, hand.snapshot_seq, hand.last_index = p.snapshot, p.seq, p.index
    if p.end is not None:  # as the locked step records a hand's end (``steps.append_event``)
        hand.status, hand.ended_at = p.end.status, p.end.ended_at
        seat_cache.pop(table.id, None)  # the stacks changed; the seats are read again at the next deal
    remember_state(hand.id, p.index, p.new_state, p.info)
    event = event_json(p.seq, p.index, "action", p.action, at, p.actor)
    messages = update_messages(table, hand, event, state_json=p.state_json, parts=p.parts)
    remember(table, hand, p.parts, p.seats)
    return Outcome(table.id, p.seq, update_text=messages[0][1]["text"]), messages


def try_action(
    table_id: int,
    action: Any,
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
    right: tuple[str, list[Any]] | None = None,
) -> Outcome | None:
    """Apply a dealer's betting action in one statement on this thread's connection, or return None
    (nothing changed) for the normal path to handle it.

    Args:
        table_id: the table.
        action: the engine action dict (docs/protocol.md ``action``).
        actor: the dealer (a ``User``), or None.
        expected_seq: the seq the tablet saw, or None.
        client_id: the tablet's id of the message, or None.
        right: ``(sql, params)``: a boolean SQL condition on the table row
            (``tables.access.deal_right_sql``) that must hold for the write
            to happen; None when the caller checked the right itself.

    Returns:
        The ``Outcome`` (the table's new seq) once the event is committed
        and the snapshot handed to the broadcaster; None when the action is
        not one this path takes (then nothing was written).

    Raises:
        ServiceError ``busy``: another step holds the table's row past the lock timeout.
    """
    prepared = prepare(table_id, action, actor=actor, expected_seq=expected_seq, client_id=client_id, right=right)
    if prepared is None:
        return None
    try:
        with transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext():
            at = sql.write_event(prepared.statement)
    except DatabaseError as exc:  # a repeated client_id (unique), a lost connection: the normal path answers
        if is_lock_timeout(exc):  # another step holds the table: busy, the tablet sends it again
            raise busy_error() from None
        return None
    if at is None:  # another step wrote first, or the right is gone
        return None
    outcome, messages = finish(prepared, at)
    send_messages_on_commit(messages)
    return outcome
