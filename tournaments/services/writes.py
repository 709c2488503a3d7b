"""The plumbing every tournament write shares: the write step (tables
locked first, then the tournament; :mod:`tables.writepath`), events with
their seq and broadcast, instructions to the tablets, and seat changes of
tournament tables (with their ``absent`` flag pushed to the tablet).

A service is one step::

    with tournament_step(tournament_id) as step:
        t = step.row
        ...
        record_event(step, "kind", payload, actor, ("changed", "fields"))

Every event of a step is its own message to the screens (one per seq,
docs/protocol.md), so :func:`record_event` queues it at its seq itself (sent
after the commit) rather than one publisher for the step's end; the step
writes the last seq and the changed fields when its block ends.

The message is a ``delta`` (:func:`tournaments.services.delta.delta`):
the header and only the tables, registrations, instructions and finishes
that changed since the tournament's previous event.  What changed is said
by the services themselves (:func:`tournaments.services.delta.changed`,
called where they write: a ``QuerySet.update`` as well as a ``save``; the
seat and instruction helpers here say it for their callers), collected per
step.  The events of kinds outside :data:`DELTA_KINDS` -- the start, the
clock, the structure, the payouts: changes that reach every registration
row -- and every event in hand-for-hand send the whole snapshot as an
``update`` instead.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import connection
from django.utils.translation import gettext as _

from tables import services as table_services
from tables.models import Seat, Table
from tables.services import SeatChange, table_group
from tables.writepath import ServiceError, WriteStep, send_messages_on_commit, send_on_commit, write_step
from tournaments.models import Entry, Instruction, Tournament, TournamentEvent, TournamentTable
from tournaments.services.delta import changed, collecting, delta, public_delta, take_changes
from tournaments.services.places import refresh_if_needed
from tournaments.services.reading import tournament_group
from tournaments.services.snapshot import instruction_message, public_snapshot, snapshot

__all__ = [
    "DELTA_KINDS",
    "absent_seats",
    "busted_seats",
    "busted_seats_sql",
    "caused_by",
    "clear_busted_seats",
    "instruct",
    "locked_entry",
    "push_absent",
    "push_instruction",
    "record_event",
    "seat_of",
    "set_seat",
    "set_seats",
    "set_seats_at",
    "take_seat",
    "tournament_step",
]


def _lock(tournament_id: int, *, with_tables: bool | Iterable[int] = True) -> Tournament:
    """Lock the tournament's tables (ascending id; ``with_tables`` false: none,
    an iterable of table ids: those of the tournament's tables among them),
    then the tournament row."""
    if with_tables:
        tts = TournamentTable.objects.filter(tournament_id=tournament_id)
        if with_tables is not True:
            tts = tts.filter(table_id__in=list(with_tables))
        list(
            Table.objects.filter(id__in=tts.values("table_id"))
            .order_by("id")
            .select_for_update(no_key=True)
            .values_list("id", flat=True)
        )
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise ServiceError("not_found", _("no tournament %(tournament_id)s") % {"tournament_id": tournament_id})
    return t


@contextmanager
def tournament_step(tournament_id: int, *, with_tables: bool | Iterable[int] = True) -> Iterator[WriteStep[Tournament]]:
    """One write to a tournament (:func:`tables.writepath.write_step`): a
    transaction with the tournament locked by :func:`_lock` (its tables
    first unless ``with_tables`` is false: a service called from a hand
    holds its table already, or one that changes no table; or only the
    tables of ``with_tables``, ids, for a service that changes only those).
    Yields the ``WriteStep`` (``step.row`` is the tournament); the rows its
    services name (:func:`~tournaments.services.delta.changed`) go in its
    events' deltas.  Errors: ``not_found``."""
    with (
        collecting(),
        write_step(Tournament, tournament_id, lock=functools.partial(_lock, with_tables=with_tables)) as step,
    ):
        yield step


@contextmanager
def locked_entry(entry_id: int) -> Iterator[tuple[WriteStep[Tournament], Entry]]:
    """The opening of every service on one entry: one step (:func:`tournament_step`)
    on the entry's tournament and the entry read again under its lock
    (player selected).  Yields ``(step, entry)``.  Errors: ``not_found``."""
    entry = Entry.objects.filter(pk=entry_id).select_related("player").first()
    if entry is None:
        raise ServiceError("not_found", _("no entry %(entry_id)s") % {"entry_id": entry_id})
    with tournament_step(entry.tournament_id) as step:
        entry.refresh_from_db()
        yield step, entry


_CAUSE: ContextVar[dict | None] = ContextVar("tournament_event_cause", default=None)


@contextmanager
def caused_by(seq: int, kind: str) -> Iterator[None]:
    """Within the block, the events the system records (no person acting)
    name the event ``seq`` of ``kind`` as their cause (``payload["cause"] =
    {"seq", "kind"}``): the waitlist seating and the moves a bust brings."""
    token = _CAUSE.set({"seq": seq, "kind": kind})
    try:
        yield
    finally:
        _CAUSE.reset(token)


def record_event(
    step: WriteStep[Tournament], kind: str, payload: dict, actor=None, fields: tuple[str, ...] = ()
) -> int:
    """Append an event at the next seq of the step's tournament, have the
    step save ``fields`` (with the seq, at its end) and send the snapshot
    at this seq after the commit.  Finishing places and prizes follow any
    change of the entries, the pool or the deal first
    (:func:`~tournaments.services.places.refresh_if_needed`).  The audit
    trail says who: the ``actor`` (a person), else the payload says
    ``"by": "system"`` and, inside :func:`caused_by`, the event that caused
    it.  Returns the seq."""
    t = step.row
    refresh_if_needed(t, kind)
    if actor is None or not actor.is_authenticated:
        payload = {**payload, "by": "system"}
        if _CAUSE.get() is not None and "cause" not in payload:
            payload["cause"] = _CAUSE.get()
    seq = step.bump()
    TournamentEvent.objects.create(
        tournament=t,
        seq=seq,
        kind=kind,
        payload=payload,
        actor=actor if actor is not None and actor.is_authenticated else None,
    )
    step.save(*fields)
    _broadcast_on_commit(t, kind)
    return seq


DELTA_KINDS = frozenset(
    {
        "hand_completed",
        "moves_made",
        "move_confirmed",
        "move_cancelled",
        "move_undone",
        "rebalance",
        "registered",
        "checked_in",
        "surrender",
        "finished",
        "absent",
        "desk_bust",
        "desk_chips",
        "desk_move",
        "desk_break",
        "desk_undone",
        "chip_count",
        "rebuy",
        "rebuy_declined",
        "rebuy_lapsed",
    }
)
"""Events sent as a ``delta``: their changes reach only the rows their
services name (:func:`~tournaments.services.delta.changed`); the other
kinds change what every row derives from (the clock and its windows, the
structure, the settings, the start) and send the whole snapshot."""


def _broadcast_on_commit(t: Tournament, kind: str = "") -> None:
    """Queue the message of ``t``'s event ``kind`` at its current seq for
    the group ``tournament.<id>``, each text serialised once
    (``tournament.update`` with ``full`` for the director and ``public``
    for the lobby screen; the consumers forward one of them): a ``delta``
    for the events of :data:`DELTA_KINDS` outside hand-for-hand, else the
    whole snapshot as an ``update``."""
    changes = take_changes()
    if changes is not None and not changes.whole and kind in DELTA_KINDS and not t.hand_for_hand:
        d = delta(t, changes, kind)
        full_text = json.dumps(d)
        public_text = json.dumps(public_delta(d))
    else:
        full = snapshot(t)
        full_text = json.dumps({"type": "update", "seq": t.seq, "snapshot": full})
        public_text = json.dumps({"type": "update", "seq": t.seq, "snapshot": public_snapshot(full)})
    message = {"type": "tournament.update", "seq": t.seq, "full": full_text, "public": public_text}
    send_messages_on_commit([(tournament_group(t.id), message)])


def push_instruction(
    t: Tournament, i: Instruction, table_numbers: set[int] | None = None, table_ids: dict[int, int] | None = None
) -> None:
    """Send an instruction (new or changed) to the tablets of the tables it
    concerns (on commit), and name it for the step's next delta;
    ``table_ids`` (table number -> ``Table`` id) saves the lookup."""
    changed(instructions=[i.id])
    numbers = table_numbers or {n for n in (i.from_table, i.to_table) if n}
    if numbers and table_ids is not None and numbers <= table_ids.keys():
        ids = [table_ids[n] for n in sorted(numbers)]
    elif numbers:
        ids = list(TournamentTable.objects.filter(tournament=t, number__in=numbers).values_list("table_id", flat=True))
    else:
        ids = list(TournamentTable.objects.filter(tournament=t, broken=False).values_list("table_id", flat=True))
    send_on_commit([table_group(table_id) for table_id in ids], instruction_message(i))


def instruct(
    t: Tournament,
    kind: str,
    text_en: str,
    text_de: str,
    *,
    entry: Entry | None = None,
    move: tuple[int, int, int, int] | None = None,
    status: str = "done",
    rule: str = "",
    stack: int = 0,
    undoes: Instruction | None = None,
    actor=None,
    tables: set[int] | None = None,
    table_ids: dict[int, int] | None = None,
) -> Instruction:
    """Record an instruction to the tablets (``entry``: the player it
    concerns, his player loaded; ``move``: from table, from seat, to table, to seat)
    and push it (:func:`push_instruction`)."""
    fr, fs, to, ts = move or (None, None, None, None)
    i = Instruction.objects.create(
        tournament=t,
        kind=kind,
        status=status,
        entry=entry,
        from_table=fr,
        from_seat=fs,
        to_table=to,
        to_seat=ts,
        text_en=text_en,
        text_de=text_de,
        rule=rule,
        stack=stack,
        undoes=undoes,
        actor=actor if actor is not None and actor.is_authenticated else None,
    )
    push_instruction(t, i, tables, table_ids)
    return i


def set_seat(table_id: int, number: int, *, player_id: int | None, stack: int = 0, absent: bool = False) -> None:
    """One seat of :func:`set_seats`: a seat emptied or given to a
    newcomer is not absent; a moved player keeps his flag (``absent``)."""
    set_seats(table_id, [SeatChange(number, player_id, stack, absent)])


def set_seats(table_id: int, changes: list[SeatChange]) -> None:
    """:func:`set_seats_at` for one table."""
    set_seats_at({table_id: changes})


def set_seats_at(changes: dict[int, list[SeatChange]]) -> None:
    """``tables.services.set_seats_at`` (the seats of several tables in one
    step, each table's changes applied in order) for tournament tables: the
    tables go in the tournament's next delta, and a table whose absent
    seats change tells its tablet (:func:`push_absent`).  ``SeatChange.absent``
    as there: ``None`` leaves the seat's flag, an emptied seat is never
    absent.  Errors: those of ``set_seats_at``."""
    changes = {table_id: batch for table_id, batch in changes.items() if batch}
    if not changes:
        return
    before: dict[int, set[int]] = {table_id: set() for table_id in changes}
    for table_id, number in Seat.objects.filter(
        table_id__in=list(changes), player__isnull=False, absent=True
    ).values_list("table_id", "number"):
        before[table_id].add(number)
    table_services.set_seats_at(changes)
    changed(tables=changes)
    for table_id, batch in sorted(changes.items()):
        after = set(before[table_id])
        for c in batch:  # in order, as set_seats_at applies them
            if c.player_id is not None and c.absent:
                after.add(c.number)
            elif c.player_id is None or c.absent is False:
                after.discard(c.number)
        if after != before[table_id]:
            push_absent(table_id)


def take_seat(t: Tournament, table_id: int, number: int, player_id: int, stack: int) -> None:
    """Seat a newcomer; a busted player still sitting there (stack 0, no
    seated entry) leaves first."""
    holder = Seat.objects.filter(table_id=table_id, number=number).values_list("player_id", "stack").first()
    if (
        holder
        and holder[0] not in (None, player_id)
        and holder[1] == 0
        and not Entry.objects.filter(tournament=t, player_id=holder[0], status=Entry.Status.SEATED).exists()
    ):
        set_seat(table_id, number, player_id=None)
    set_seat(table_id, number, player_id=player_id, stack=stack)


def busted_seats_sql() -> str:
    """SQL of the seats of the tournament's tables where a busted (or surrendered) player still
    sits with no chips: rows ``(table_id, number)``, one named parameter ``%(t)s`` (the tournament's
    id).  The one definition :func:`busted_seats` runs and :func:`moves._tables_due` reads inside its
    own statement."""
    tt, seat, entry = TournamentTable._meta.db_table, Seat._meta.db_table, Entry._meta.db_table
    return (
        f"SELECT st.table_id, st.number FROM {seat} st JOIN {tt} tt ON tt.table_id = st.table_id "
        f"AND tt.tournament_id = %(t)s WHERE st.stack = 0 AND st.player_id IS NOT NULL "
        f"AND EXISTS (SELECT 1 FROM {entry} e WHERE e.player_id = st.player_id AND e.tournament_id = %(t)s) "
        f"AND NOT EXISTS (SELECT 1 FROM {entry} e WHERE e.player_id = st.player_id AND e.tournament_id = %(t)s "
        f"AND e.status = '{Entry.Status.SEATED.value}')"
    )


def busted_seats(tournament_id: int) -> list[tuple[int, int]]:
    """The seats of the tournament's tables where a busted (or surrendered)
    player still sits with no chips: ``(table_id, number)`` pairs, one
    statement (:func:`busted_seats_sql`)."""
    with connection.cursor() as cursor:
        cursor.execute(busted_seats_sql(), {"t": tournament_id})
        return cursor.fetchall()


def clear_busted_seats(t: Tournament) -> int:
    """Busted (or surrendered) players still in a seat with no chips leave
    it (:func:`busted_seats`).  Returns the seats cleared."""
    by_table: dict[int, list[SeatChange]] = {}
    for table_id, number in busted_seats(t.id):
        by_table.setdefault(table_id, []).append(SeatChange(number, None))
    set_seats_at(by_table)
    return sum(len(c) for c in by_table.values())


def seat_of(t: Tournament, player_id: int) -> tuple[TournamentTable, int] | None:
    """``(table, seat number)`` where the player sits at an open table of ``t``, or None."""
    seat = Seat.objects.filter(
        player_id=player_id, table__tournament_table__tournament=t, table__tournament_table__broken=False
    ).first()
    if seat is None:
        return None
    return TournamentTable.objects.get(table_id=seat.table_id), seat.number


def absent_seats(table_id: int) -> list[int]:
    """The numbers of the table's occupied seats marked absent, ascending."""
    return list(
        Seat.objects.filter(table_id=table_id, player__isnull=False, absent=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def push_absent(table_id: int) -> None:
    """Tell the table's tablet which seats are absent now (on commit;
    ``{"type": "absent", "table_id", "seats"}``, no seq: like an instruction)."""
    send_on_commit([table_group(table_id)], {"type": "absent", "table_id": table_id, "seats": absent_seats(table_id)})
