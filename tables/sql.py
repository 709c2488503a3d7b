"""The hand-written SQL of the tables app (as pretix keeps its raw SQL in ``locking.py``).

The hot paths of a dealer's action speak plain SQL instead of compiling ORM queries.  The one
write of a hand event lives here, used by both writers: the write path's step
(:func:`tables.services.steps.append_event`, the table row locked) and the one-statement fast
path (:mod:`tables.services.fastpath`, guarded by the table's seq instead of a lock).
"""

from __future__ import annotations

import datetime
import functools
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils import timezone

from tables import jsontext
from tables.models import Hand, HandEvent, Player, Seat, Table

__all__ = [
    "EPOCH",
    "EventRow",
    "SeqGuard",
    "StartEvent",
    "DealGuard",
    "deal_statement",
    "dealt_hand",
    "deal_row",
    "event_batch_statement",
    "deal_hand",
    "HandEnd",
    "seat_rows",
    "seats_with_players",
    "settle_stacks",
    "write_event",
]


#: A CTE setting the lock timeout (its ``%s``: a PostgreSQL interval, ``"2000ms"``) for the statement's own
#: transaction (``set_config(..., true)``, as ``tables.writepath.set_lock_timeout`` does in a statement of
#: its own), and the condition reading it: in the WHERE clause of the part that waits for a row, the
#: timeout is set before the wait, and a row held longer fails the statement.
LOCK_TIMEOUT_CTE = "lt AS (SELECT set_config('lock_timeout', %s, true) AS v)"
LOCK_TIMEOUT_READ = "(SELECT v FROM lt) IS NOT NULL"


#: The Unix epoch as an aware datetime (UTC): :func:`write_event` returns ``EPOCH`` plus the event's microseconds.
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


@dataclass(frozen=True)
class SeqGuard:
    """Write only while the table is as the fast path remembered it: its seq is ``seq`` and the
    hand is its current hand, and ``right`` (``(sql, params)``, a boolean condition on the
    table row, e.g. :func:`tables.access.deal_right_sql`) holds.  ``lock_timeout``: how long the
    statement waits for the table's row (``"2000ms"``) before it fails."""

    seq: int
    lock_timeout: str
    right: tuple[str, list[Any]] = field(default=("", []))


def event_statement(
    *,
    table_id: int,
    seq: int,
    hand_id: int,
    index: int,
    kind: str,
    payload_json: str,
    actor_id: int | None,
    client_id: str | None,
    snapshot_json: str | None = None,
    guard: SeqGuard | None = None,
    end: HandEnd | None = None,
) -> tuple[str, list[Any]]:
    """The statement of :func:`write_event` and its parameters, ``(sql, params)``, for a caller that runs
    it on a connection of its own (``tables.services.fastpath`` on the event loop's); its one row, if
    any, is the event's ``at`` for :func:`event_at`.  ``end``: the event ends the hand (with
    ``snapshot_json``): the same statement records the hand as ended and its final stacks on the
    table's seats.  Raises ``ValueError`` for an ``end`` without ``snapshot_json``."""
    if end is not None and snapshot_json is None:
        raise ValueError("a hand's end is written with its snapshot")
    params: list[Any] = []
    if guard is None:
        params += [seq, table_id]
        right_sql = None
    else:
        right_sql, right_params = guard.right
        params += [guard.lock_timeout, seq, table_id, guard.seq, hand_id, *right_params]
    params += [hand_id, seq, index, kind, payload_json, actor_id, client_id or None]
    if snapshot_json is not None:
        params += [snapshot_json, seq, index]
        if end is not None:
            params += [end.status, end.ended_at]
        params.append(hand_id)
    if end is not None:
        params += [end.numbers, end.stacks, table_id]
    return _event_sql(right_sql, snapshot_json is not None, end is not None), params


@dataclass(frozen=True)
class HandEnd:
    """A hand that ends with the event of :func:`event_statement`: its new ``status`` and ``ended_at``
    (what ``hand.save(update_fields=[...])`` would write; no handler listens for a hand's save), and
    the final ``stacks`` (chips) of its seats ``numbers``, written to the table's seats as
    :func:`settle_stacks` does (no ``post_save`` of the seats)."""

    status: str
    ended_at: datetime.datetime
    numbers: list[int]
    stacks: list[int]


@functools.lru_cache(maxsize=64)
def _event_sql(right_sql: str | None, with_snapshot: bool, ends: bool) -> str:
    """The text of :func:`event_statement` (the same for every action of the same kind: built once).
    ``right_sql``: None without a guard, else the right's condition (``""``: none); ``ends``: the
    hand ends (its status and end written with the snapshot, the stacks settled)."""
    if right_sql is None:
        sql = f"WITH tb AS (UPDATE {Table._meta.db_table} SET seq = %s WHERE id = %s RETURNING id), "
    else:
        sql = (
            f"WITH {LOCK_TIMEOUT_CTE}, "
            f"tb AS (UPDATE {Table._meta.db_table} SET seq = %s WHERE id = %s AND seq = %s "
            f"AND current_hand_id = %s AND {LOCK_TIMEOUT_READ}"
            f"{f' AND ({right_sql})' if right_sql else ''} RETURNING id), "
        )
    sql += (
        f'ev AS (INSERT INTO {HandEvent._meta.db_table} (table_id, hand_id, seq, "index", kind, payload, '
        f"actor_id, at, client_id) SELECT tb.id, %s, %s, %s, %s, %s::jsonb, %s, now(), %s FROM tb RETURNING at)"
    )
    if with_snapshot:
        sql += (
            f", hd AS (UPDATE {Hand._meta.db_table} SET snapshot = %s::jsonb, snapshot_seq = %s, last_index = %s"
            f"{', status = %s, ended_at = %s' if ends else ''} WHERE id = %s AND EXISTS (SELECT 1 FROM tb))"
        )
    if ends:
        sql += f", st AS ({_SETTLE} AND EXISTS (SELECT 1 FROM tb))"
    # ``at`` comes back as microseconds since the epoch (an integer): psycopg's timestamptz loader is
    # built anew for every cursor and looks the session's time zone up, on every dealer action.
    return sql + " SELECT (extract(epoch FROM at) * 1000000)::bigint FROM ev"


@dataclass(slots=True)
class EventRow:
    """One dealer's action for :func:`event_batch_statement`: written only while the table's seq is
    still ``old_seq`` with ``hand_id`` its current hand and the right of the user ``user_id`` in the
    session ``session_key`` holds; then the table's seq is ``seq``, the event ``index`` of the hand
    is recorded (``payload_json``, ``actor_id``, ``client_id``) and the hand's cached snapshot is
    ``snapshot_json`` (JSON texts).  Not changed once made; not frozen, for one is made for every
    action of the fast path and a frozen dataclass sets each field through ``object.__setattr__``."""

    table_id: int
    seq: int
    old_seq: int
    hand_id: int
    index: int
    payload_json: str
    actor_id: int | None
    client_id: str | None
    snapshot_json: str
    user_id: int
    session_key: str | None


_BATCH_COLUMNS = (
    ("table_id", "bigint"),
    ("seq", "bigint"),
    ("old_seq", "bigint"),
    ("hand_id", "bigint"),
    ("index", "integer"),  # ``ix`` in the statement (INDEX is a keyword)
    ("payload_json", "text"),
    ("actor_id", "bigint"),
    ("client_id", "text"),
    ("snapshot_json", "text"),
    ("user_id", "bigint"),
    ("session_key", "text"),
)


def event_batch_statement(
    rows: list[EventRow], lock_timeout: str, right: tuple[str, list[Any]]
) -> tuple[str, list[Any]]:
    """ONE statement, one transaction, that writes the betting actions of several tables as
    :func:`event_statement` with a :class:`SeqGuard` writes one (``tables.services.eventbatch``: the
    actions that arrived while the event loop's connections were busy).  ``right``: the right to deal
    over the columns ``i.user_id``, ``i.session_key`` and ``t.dealer_id``
    (``tables.access.deal_right_columns``).

    A table whose guard or right fails, or whose row another transaction holds (``SKIP LOCKED``: the
    others do not wait for it), is not written and gets no row.  The rows are ``(table_id,
    microseconds of its event's at since the epoch)`` of the tables written.  Any error (a repeated
    ``client_id``, a lock timeout on a hand's row) rolls back the whole batch: nothing is written.

    The columns go as binary arrays (``%b``): in the text form of an array every quote and backslash
    of the JSON texts is escaped by a Python callback, which cost far more than the rest of the batch."""
    right_sql, right_params = right
    params: list[Any] = [lock_timeout]
    params += [[getattr(row, name) for row in rows] for name, _kind in _BATCH_COLUMNS]
    return _batch_sql(right_sql), params + right_params


@functools.lru_cache(maxsize=4)
def _batch_sql(right_sql: str) -> str:
    """The text of :func:`event_batch_statement` with the right ``right_sql`` (built once)."""
    columns = ", ".join(f"%b::{kind}[]" for _name, kind in _BATCH_COLUMNS)
    names = ", ".join("ix" if name == "index" else name for name, _kind in _BATCH_COLUMNS)
    table, event, hand = Table._meta.db_table, HandEvent._meta.db_table, Hand._meta.db_table
    return (
        f"WITH {LOCK_TIMEOUT_CTE}, "
        f"i AS (SELECT * FROM unnest({columns}) AS i({names})), "
        f"lk AS (SELECT t.id FROM {table} t JOIN i ON i.table_id = t.id WHERE t.seq = i.old_seq "
        f"AND t.current_hand_id = i.hand_id AND {LOCK_TIMEOUT_READ} AND ({right_sql}) "
        "FOR UPDATE OF t SKIP LOCKED), "
        f"tb AS (UPDATE {table} t SET seq = i.seq FROM i WHERE t.id = i.table_id AND t.id IN (SELECT id FROM lk) "
        "RETURNING t.id), "
        f'ev AS (INSERT INTO {event} (table_id, hand_id, seq, "index", kind, payload, actor_id, at, client_id) '
        "SELECT i.table_id, i.hand_id, i.seq, i.ix, 'action', i.payload_json::jsonb, i.actor_id, now(), "
        "i.client_id FROM i JOIN tb ON tb.id = i.table_id RETURNING table_id, at), "
        f"hd AS (UPDATE {hand} h SET snapshot = i.snapshot_json::jsonb, snapshot_seq = i.seq, last_index = i.ix "
        "FROM i JOIN tb ON tb.id = i.table_id WHERE h.id = i.hand_id) "
        "SELECT table_id, (extract(epoch FROM at) * 1000000)::bigint FROM ev"
    )


def event_at(row: tuple | None) -> datetime.datetime | None:
    """The event's ``at`` from the row of :func:`event_statement` (None: nothing was written)."""
    return None if row is None else _micros_at(row[0])


def _micros_at(micros: int) -> datetime.datetime:
    """An event's ``at`` from the microseconds since the epoch its statement returns (aware, UTC)."""
    return EPOCH + datetime.timedelta(microseconds=micros)


def write_event(statement: tuple[str, list[Any]]) -> datetime.datetime | None:
    """Record a hand event in ONE statement (data-modifying CTEs) on Django's connection: ``statement``
    is :func:`event_statement`'s ``(sql, params)``: the table's ``seq`` set, the event inserted with
    that seq and, given a snapshot, the hand's cached snapshot, its seq and last index updated.

    Without a guard the caller holds the table's row lock (the write path); with a :class:`SeqGuard`
    nothing is written unless the guard holds.  Returns the event's ``at`` (the database clock, an
    aware datetime in UTC, to the microsecond), or None when the guard did not hold.  A repeated
    ``client_id`` (unique) raises the database's IntegrityError and writes nothing."""
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        return event_at(cursor.fetchone())


_SEAT_FIELDS = [f.attname for f in Seat._meta.concrete_fields]
_PLAYER_FIELDS = [f.attname for f in Player._meta.concrete_fields]
_SEATS_WITH_PLAYERS = (
    "SELECT "
    + ", ".join([f's."{name}"' for name in _SEAT_FIELDS] + [f'p."{name}"' for name in _PLAYER_FIELDS])
    + f" FROM {Seat._meta.db_table} s LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id"
    " WHERE s.table_id = %s ORDER BY s.number"
)


def seats_with_players(table: Table) -> list[Seat]:
    """The seats of ``table`` in seat order, each with its ``player`` (a ``Player`` or None) and its
    ``table`` loaded: what ``table.seats.select_related("player").order_by("number")`` gives, in one
    statement written once (the deal reads them for every hand; compiling that query was a third of
    a deal's CPU)."""
    n = len(_SEAT_FIELDS)
    seats = []
    with connection.cursor() as cursor:
        cursor.execute(_SEATS_WITH_PLAYERS, [table.id])
        found = cursor.fetchall()
    # Read once: ``connection`` is a proxy that looks the thread's connection up on every attribute.
    alias = connection.alias
    cache_table, cache_player = Seat.table.field.set_cached_value, Seat.player.field.set_cached_value
    for row in found:
        seat = Seat.from_db(alias, _SEAT_FIELDS, row[:n])
        cache_table(seat, table)
        cache_player(seat, Player.from_db(alias, _PLAYER_FIELDS, row[n:]) if seat.player_id is not None else None)
        seats.append(seat)
    return seats


_SEAT_ROWS = (
    f"SELECT s.number, p.name, s.stack, s.sitting_out FROM {Seat._meta.db_table} s "
    f"LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id WHERE s.table_id = %s ORDER BY s.number"
)


def seat_rows(table_id: int) -> list[tuple[int, str | None, int, bool]]:
    """``(number, player name or None, stack, sitting_out)`` of every seat of the table, in seat order:
    the seats of a table snapshot, read after every hand's end."""
    with connection.cursor() as cursor:
        cursor.execute(_SEAT_ROWS, [table_id])
        return cursor.fetchall()


#: The final stacks of a hand written to its table's seats: ``[seat numbers], [stacks], table id``.
_SETTLE = (
    f"UPDATE {Seat._meta.db_table} AS s SET stack = v.stack"
    " FROM unnest(%s::integer[], %s::bigint[]) AS v(number, stack)"
    " WHERE s.table_id = %s AND s.number = v.number"
)


def settle_stacks(table_id: int, numbers: list[int], stacks: list[int]) -> None:
    """Write ``stacks`` (chips) to the seats ``numbers`` of the table, in one statement for all of them.
    It sends no ``post_save`` of the seats (``tables.services.steps.settle_stacks``)."""
    with connection.cursor() as cursor:
        cursor.execute(_SETTLE, [numbers, stacks, table_id])


_HAND_FIELDS = [f.attname for f in Hand._meta.concrete_fields]
_HAND_JSON = frozenset({"spec", "snapshot", "metadata"})
_HAND_COLUMNS = [name for name in _HAND_FIELDS if name != "id"]
_SNAPSHOT_AT = _HAND_COLUMNS.index("snapshot")  # where :func:`_hand_params` puts the snapshot's JSON text
_DEAL_HAND = (
    f"WITH h AS (INSERT INTO {Hand._meta.db_table} ("
    + ", ".join(f'"{name}"' for name in _HAND_COLUMNS)
    + ") VALUES ("
    + ", ".join("%s::jsonb" if name in _HAND_JSON else "%s" for name in _HAND_COLUMNS)
    + ") RETURNING id), "
    f"tb AS (UPDATE {Table._meta.db_table} SET button_seat = %s, current_hand_id = (SELECT id FROM h), seq = %s "
    "WHERE id = %s RETURNING id), "
)
#: The end of both deal statements (:func:`deal_hand`, :func:`deal_statement`): the start event, and the
#: hand's id with the event's microseconds since the epoch.
_DEAL_START = (
    f'ev AS (INSERT INTO {HandEvent._meta.db_table} (table_id, hand_id, seq, "index", kind, payload, actor_id, at,'
    " client_id) SELECT tb.id, h.id, %s, 0, %s, %s::jsonb, %s, now(), %s FROM tb, h RETURNING hand_id, at) "
    "SELECT hand_id, (extract(epoch FROM at) * 1000000)::bigint FROM ev"
)
_DEAL_HAND += _DEAL_START


@dataclass(frozen=True)
class StartEvent:
    """The first event of a dealt hand (index 0, kind ``start``), written by :func:`deal_hand` with the
    hand: the table's new ``seq``, the hand's ``snapshot`` after it, the event's ``payload``,
    ``actor_id`` and ``client_id`` (JSON-able data; each written as JSON text once)."""

    seq: int
    snapshot: dict[str, Any]
    payload: dict[str, Any]
    actor_id: int | None
    client_id: str | None


def deal_hand(
    table: Table, number: int, spec: dict[str, Any], metadata: dict[str, Any], button: int, start: StartEvent
) -> tuple[Hand, datetime.datetime]:
    """Record hand ``number`` of ``table`` as dealt (``spec``: the engine's spec as JSON-able data,
    ``metadata``: who was dealt in) with the button on seat ``button`` and its ``start`` event, and
    return ``(hand, the event's time)``: the hand as ``Hand.objects.create(...)`` makes it (status
    live, ``started_at`` now) with the start's snapshot (``snapshot_seq`` the start's seq,
    ``last_index`` 0); the table's ``button_seat``, ``current_hand`` and ``seq`` set, as
    ``table.save(update_fields=[...])`` does; the start event recorded -- in ONE statement written
    once (every deal comes here; no handler listens for those fields: ``tables.revocation`` reacts to
    a table's dealer only).  ``table`` is updated in memory too (its ``seq`` is the caller's).  The
    unique constraints (one live hand per table, one number per table, a repeated ``client_id``)
    raise the database's IntegrityError as the ORM's create would, and nothing is written."""
    values = _hand_values(table.id, number, spec, metadata, start)
    with connection.cursor() as cursor:
        cursor.execute(_DEAL_HAND, [*_hand_params(values), button, start.seq, table.id, *_start_params(start)])
        hand_id, micros = cursor.fetchone()
    return dealt_hand(table, values, hand_id, button), _micros_at(micros)


def _hand_values(
    table_id: int, number: int, spec: dict[str, Any], metadata: dict[str, Any], start: StartEvent
) -> dict[str, Any]:
    """The columns of a hand as it is dealt (``Hand.objects.create(...)`` would write them), by attname."""
    return {
        "table_id": table_id,
        "number": number,
        "status": str(Hand.Status.LIVE),
        "spec": spec,
        "snapshot": start.snapshot,
        "snapshot_seq": start.seq,
        "last_index": 0,
        "started_at": timezone.now(),
        "ended_at": None,
        "metadata": metadata,
    }


def _hand_params(values: dict[str, Any]) -> list[Any]:
    return [jsontext.dumps(values[name]) if name in _HAND_JSON else values[name] for name in _HAND_COLUMNS]


def _start_params(start: StartEvent) -> list[Any]:
    return [start.seq, "start", jsontext.dumps(start.payload), start.actor_id, start.client_id or None]


def dealt_hand(table: Table, values: dict[str, Any], hand_id: int, button: int) -> Hand:
    """The ``Hand`` a deal recorded (``values``: its columns, :func:`deal_statement`'s; ``hand_id``:
    the id the statement returned), its ``table`` cached; ``table`` gets the hand as its current
    one and the button on seat ``button``, as the statement wrote them (its ``seq`` is the caller's)."""
    hand = Hand.from_db(
        connection.alias, _HAND_FIELDS, [hand_id if name == "id" else values[name] for name in _HAND_FIELDS]
    )
    Hand.table.field.set_cached_value(hand, table)
    table.button_seat = button
    table.current_hand = hand
    return hand


@dataclass(frozen=True)
class DealGuard:
    """Deal only while the table is as a deal in memory found it (``tables.services.fastdeal``): its
    seq is ``seq``, the hand over is its current hand (``hand_id``), it is open, the columns a deal
    reads of it (its stakes, straddle, house rules, button: ``_DEALT_FROM``) are those of the table
    in memory, ``condition``
    (``(sql, params)``: a boolean condition on the unaliased table row, the dealer's right and the
    deal hooks' probes) holds, and its seats are ``seats`` exactly: ``[number, player id or 0,
    stack, sitting_out, absent]`` of every seat in seat order (chips; booleans as 0/1), with
    ``names`` the players' names of the occupied seats in that order.  ``lock_timeout``: how long
    the statement waits for the table's row (``"100ms"``) before it fails."""

    seq: int
    hand_id: int
    lock_timeout: str
    condition: tuple[str, list[Any]]
    seats: list[list[int]]
    names: list[str]


def deal_statement(
    table: Table,
    number: int,
    spec: dict[str, Any],
    metadata: dict[str, Any],
    button: int,
    start: StartEvent,
    guard: DealGuard,
) -> tuple[tuple[str, list[Any]], dict[str, Any], str]:
    """What :func:`deal_hand` writes, as ONE statement for a caller that runs it on a connection of
    its own (the event loop's), written only while ``guard`` holds, the table's row locked by the
    statement itself: ``((sql, params), the hand's columns, the snapshot's JSON text as written)``.  Its
    one row, if any, is ``(hand id,
    microseconds of the start event's at since the epoch)``; :func:`dealt_hand` makes the ``Hand``
    from it.  No row: the guard did not hold, nothing was written.  The unique constraints raise as
    in :func:`deal_hand`."""
    values = _hand_values(table.id, number, spec, metadata, start)
    hand_params = _hand_params(values)
    condition, condition_params = guard.condition
    params = [
        guard.lock_timeout,
        table.id,
        guard.seq,
        guard.hand_id,
        str(Table.Status.OPEN),
        *[getattr(table, name) for name in _DEALT_FROM],
        *condition_params,
        guard.seats,
        guard.names,
        *hand_params,
        button,
        start.seq,
        *_start_params(start),
    ]
    return (_guarded_deal_sql(condition), params), values, hand_params[_SNAPSHOT_AT]


#: The table's columns a deal reads (its stakes, straddle, run-it-twice minimum, house rules and the button it
#: moves from): :func:`deal_statement` writes only while they are as the table in memory has them.
_DEALT_FROM = (
    "small_blind",
    "big_blind",
    "ante",
    "big_blind_ante",
    "straddle",
    "straddle_kinds",
    "run_it_twice_min_pot",
    "rules_profile",
    "button_seat",
)


@functools.lru_cache(maxsize=16)
def _guarded_deal_sql(condition: str) -> str:
    """The text of :func:`deal_statement` for the guard's ``condition`` (built once per condition)."""
    table, seat, player = Table._meta.db_table, Seat._meta.db_table, Player._meta.db_table
    dealt_from = " AND ".join(
        f'"{name}" IS NOT DISTINCT FROM %s::{Table._meta.get_field(name).db_type(connection)}' for name in _DEALT_FROM
    )
    types = [Hand._meta.get_field(name).db_type(connection) for name in _HAND_COLUMNS]
    columns = ", ".join(f'"{name}"' for name in _HAND_COLUMNS)
    values = ", ".join(f"%s::{kind}" for kind in types)
    seats = (
        "(SELECT array_agg(ARRAY[s.number::bigint, coalesce(s.player_id, 0)::bigint, s.stack::bigint, "
        f"s.sitting_out::int::bigint, s.absent::int::bigint] ORDER BY s.number) FROM {seat} s "
        f"WHERE s.table_id = {table}.id) = %s::bigint[]"
    )
    names = (
        f"(SELECT array_agg(p.name::text ORDER BY s.number) FROM {seat} s JOIN {player} p ON p.id = s.player_id "
        f"WHERE s.table_id = {table}.id) = %s::text[]"
    )
    return (
        f"WITH {LOCK_TIMEOUT_CTE}, "
        f"lk AS (SELECT id FROM {table} WHERE id = %s AND seq = %s AND current_hand_id = %s AND status = %s "
        f"AND {dealt_from} AND {LOCK_TIMEOUT_READ} AND ({condition or 'TRUE'}) AND {seats} AND {names} FOR UPDATE), "
        f"h AS (INSERT INTO {Hand._meta.db_table} ({columns}) SELECT {values} FROM lk RETURNING id), "
        f"tb AS (UPDATE {table} SET button_seat = %s, current_hand_id = (SELECT id FROM h), seq = %s "
        "WHERE id = (SELECT id FROM lk) RETURNING id), " + _DEAL_START
    )


def deal_row(row: tuple | None) -> tuple[int, datetime.datetime] | None:
    """``(hand id, the start event's at)`` from the row of :func:`deal_statement`, or None (nothing
    was written)."""
    return None if row is None else (row[0], _micros_at(row[1]))
