"""Tables and seats between hands: opening a table, seating and unseating
players, the table's status, seats set by other apps.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from django.db import connection, transaction

from tables import hooks
from tables.models import Player, Seat, Table
from tables.players import check_may_play
from tables.services.snapshots import seat_cache, table_snapshots
from tables.services.steps import Outcome, broadcast_on_commit, live_hand, table_changed, table_step
from tables.writepath import ServiceError


def create_table(
    name: str,
    *,
    small_blind: int,
    big_blind: int,
    ante: int = 0,
    big_blind_ante: int = 0,
    straddle: int = 0,
    max_seats: int = 9,
    rules_profile: str = "tda-2024",
    dealer=None,
) -> Table:
    """Open a new table with empty seats 1..``max_seats`` (2..10)."""
    if not 2 <= max_seats <= 10:
        raise ServiceError("invalid", "a table has 2 to 10 seats")
    if small_blind < 0 or big_blind <= 0:
        raise ServiceError("invalid", "blinds must be positive")
    with transaction.atomic():
        table = Table.objects.create(
            name=name,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            big_blind_ante=big_blind_ante,
            straddle=straddle,
            max_seats=max_seats,
            rules_profile=rules_profile,
            dealer=dealer,
        )
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(1, max_seats + 1))
    return table


def seat_player(
    table_id: int, seat_number: int, player: Player | str, stack: int, *, expected_seq: int | None = None
) -> Outcome:
    """Seat ``player`` (a Player or a name, created if new) at an empty seat
    with ``stack`` chips.  Only between hands.  Errors: ``not_found``,
    ``stale``, ``seat_taken``, ``no_such_seat``, ``hand_in_progress``,
    ``invalid``, ``barred`` (:func:`tables.players.check_may_play`)."""
    if stack < 0:
        raise ServiceError("invalid", "stack must not be negative")
    with table_step(table_id, expected_seq) as step:
        table = step.row
        if live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "players are seated between hands")
        seat = table.seats.filter(number=seat_number).first()
        if seat is None:
            raise ServiceError("no_such_seat", f"table has no seat {seat_number}")
        if seat.player_id is not None:
            raise ServiceError("seat_taken", f"seat {seat_number} is taken")
        if isinstance(player, str):
            player = Player.objects.create(name=player)
        check_may_play(player)  # barred or self-excluded: refused (issue 28)
        seat.player = player
        seat.stack = stack
        seat.sitting_out = False
        seat.save()
        return table_changed(step)


def unseat_player(table_id: int, seat_number: int, *, expected_seq: int | None = None) -> Outcome:
    """Remove the player from a seat between hands (they leave with their stack)."""
    with table_step(table_id, expected_seq) as step:
        table = step.row
        if live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "players leave between hands")
        updated = table.seats.filter(number=seat_number).update(player=None, stack=0, sitting_out=False)
        if not updated:
            raise ServiceError("no_such_seat", f"table has no seat {seat_number}")
        transaction.on_commit(lambda: _call_next_for_seat(table_id, seat_number))
        return table_changed(step)


def _call_next_for_seat(table_id: int, seat_number: int) -> None:
    """After a seat opened: the seat-opened hooks (the waitlist of the
    table's game calls its next player; 000 Allgemein 15 must-move order).
    A refusal (nobody to call, the room is closed) is ignored: the floor
    calls by hand."""
    hooks.seat_opened(table_id, seat_number)


def set_table_status(table_id: int, status: str, *, expected_seq: int | None = None) -> Outcome:
    """Open or close a table (``Table.Status``).  A table is closed only
    between hands; a closed table leaves the floor dashboard and starts no
    hands.  Errors: ``not_found``, ``stale``, ``hand_in_progress``, ``invalid``."""
    if status not in Table.Status.values:
        raise ServiceError("invalid", f"unknown table status {status!r}")
    with table_step(table_id, expected_seq) as step:
        table = step.row
        if status == Table.Status.CLOSED and live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "finish the hand before closing the table")
        table.status = status
        return table_changed(step, "status")


def set_seat(
    table_id: int, seat_number: int, *, player_id: int | None, stack: int = 0, sitting_out: bool = False
) -> Outcome:
    """Put player ``player_id`` (a ``Player`` id; ``None`` empties the seat)
    with ``stack`` chips into a seat, bump the table's seq and broadcast.

    For apps that seat players themselves (tournaments: seat draws, moves,
    breaking, rebuys).  Between hands any seat may change; while a hand is
    live only a seat that is not dealt in that hand (a player moved in waits
    for the next hand).  Errors: ``not_found``, ``no_such_seat``,
    ``seat_taken`` (another player holds the seat), ``hand_in_progress``,
    ``invalid``.
    """
    if stack < 0:
        raise ServiceError("invalid", "stack must not be negative")
    with table_step(table_id) as step:
        table = step.row
        seat = table.seats.filter(number=seat_number).first()
        if seat is None:
            raise ServiceError("no_such_seat", f"table has no seat {seat_number}")
        live = live_hand(table)
        if live is not None and any(int(s["seat"]) == seat_number for s in live.spec.get("seats", [])):
            raise ServiceError("hand_in_progress", f"seat {seat_number} is in the live hand")
        if player_id is not None and seat.player_id not in (None, player_id):
            raise ServiceError("seat_taken", f"seat {seat_number} is taken")
        seat.player_id = player_id
        seat.stack = stack if player_id is not None else 0
        seat.sitting_out = sitting_out if player_id is not None else False
        seat.save(update_fields=["player", "stack", "sitting_out"])
        seat_cache.pop(table.id, None)
        return table_changed(step)


def vacate_seats(table: Table, numbers: Iterable[int]) -> int:
    """Empty the seats ``numbers`` of ``table`` inside a write step the
    caller holds on it (a ``tables.hooks.hand_completed`` hook: a
    tournament's busted players leave the felt with the hand that busted
    them).  No seq or broadcast of its own: the caller's step bumps the seq,
    and its snapshot, taken after the hook, shows the seats empty.  Returns
    the number of seats emptied."""
    emptied = Seat.objects.filter(table_id=table.id, number__in=list(numbers), player__isnull=False).update(
        player=None, stack=0, sitting_out=False, absent=False
    )
    seat_cache.pop(table.id, None)
    return emptied


class SeatChange(NamedTuple):
    """One seat of a :func:`set_seats` batch: ``number`` (the seat), the
    ``player_id`` who sits there (a ``Player`` id; ``None`` empties it)
    with ``stack`` chips (smallest chip unit; 0 when empty); ``absent``
    sets the seat's absent flag (``None`` leaves it; an emptied seat is
    never absent)."""

    number: int
    player_id: int | None
    stack: int = 0
    absent: bool | None = None


def set_seats(table_id: int, changes: Iterable[SeatChange]) -> Outcome:
    """Several seats of one table changed in one step: one lock, one
    statement, one new seq and one snapshot broadcast (a balancing move, a
    chip count; a seat draw fills a whole table).  ``changes`` are
    :class:`SeatChange` values applied in order, so a seat emptied earlier
    in the batch may be given to another player later in it (a player may
    change seats within the table).  :func:`set_seats_at` for several tables.

    The rules of :func:`set_seat` hold for every change (between hands any
    seat may change; while a hand is live only a seat not dealt in).
    ``sitting_out`` is cleared.  All or nothing: on an error no seat
    changes.  Errors: ``not_found``, ``no_such_seat``, ``seat_taken``
    (another player holds the seat at that point of the batch),
    ``hand_in_progress``, ``invalid`` (a negative stack).
    """
    return set_seats_at({table_id: list(changes)})[0]


def set_seats_at(changes: dict[int, list[SeatChange]]) -> list[Outcome]:
    """:func:`set_seats` for several tables at once (a table broken: its
    players take seats at up to nine others): the tables locked in one
    statement (ascending id, the order of every multi-table lock), all the
    seats written in one, the seqs in one; each table changed gets one new
    seq and its snapshot broadcast.  ``changes``: ``{table id: [SeatChange,
    ...]}``.  Returns one :class:`Outcome` per table, in ascending id.  All
    or nothing, errors as :func:`set_seats`."""
    batches = {table_id: list(batch) for table_id, batch in changes.items()}
    if any(c.stack < 0 for batch in batches.values() for c in batch):
        raise ServiceError("invalid", "stack must not be negative")
    ids = sorted(batches)
    with transaction.atomic():
        tables = list(
            Table.objects.filter(pk__in=ids)
            .select_related("current_hand")
            .order_by("id")
            .select_for_update(no_key=True, of=("self",))
        )
        if len(tables) != len(ids):
            missing = sorted(set(ids) - {t.id for t in tables})
            raise ServiceError("not_found", f"no table {missing[0]}")
        holder: dict[tuple[int, int], int | None] = {
            (table_id, number): player_id
            for table_id, number, player_id in Seat.objects.filter(table_id__in=ids).values_list(
                "table_id", "number", "player_id"
            )
        }
        rows: list[tuple[int, SeatChange]] = []
        changed: list[Table] = []
        for table in tables:
            batch = batches[table.id]
            if not batch:
                continue
            live = live_hand(table)
            dealt = {int(s["seat"]) for s in live.spec.get("seats", [])} if live is not None else set()
            final: dict[int, SeatChange] = {}
            for c in batch:
                key = (table.id, c.number)
                if key not in holder:
                    raise ServiceError("no_such_seat", f"table has no seat {c.number}")
                if c.number in dealt:
                    raise ServiceError("hand_in_progress", f"seat {c.number} is in the live hand")
                if c.player_id is not None and holder[key] not in (None, c.player_id):
                    raise ServiceError("seat_taken", f"seat {c.number} is taken")
                holder[key] = c.player_id
                final[c.number] = c
            rows += [(table.id, c) for c in final.values()]
            changed.append(table)
        if rows:
            with connection.cursor() as cursor:  # one statement for every seat of the batch
                cursor.execute(
                    f"UPDATE {Seat._meta.db_table} AS s SET player_id = c.player_id, stack = c.stack,"
                    " sitting_out = false, absent = CASE WHEN c.player_id IS NULL THEN false"
                    " ELSE COALESCE(c.absent, s.absent) END"
                    " FROM unnest(%s::bigint[], %s::int[], %s::bigint[], %s::bigint[], %s::boolean[])"
                    " AS c(table_id, number, player_id, stack, absent)"
                    " WHERE s.table_id = c.table_id AND s.number = c.number",
                    [
                        [table_id for table_id, _c in rows],
                        [c.number for _t, c in rows],
                        [c.player_id for _t, c in rows],
                        [c.stack if c.player_id is not None else 0 for _t, c in rows],
                        [c.absent for _t, c in rows],
                    ],
                )
                for table in changed:
                    table.seq += 1
                    seat_cache.pop(table.id, None)
                cursor.execute(
                    f"UPDATE {Table._meta.db_table} AS t SET seq = v.seq"
                    " FROM unnest(%s::bigint[], %s::bigint[]) AS v(id, seq) WHERE t.id = v.id",
                    [[t.id for t in changed], [t.seq for t in changed]],
                )
        snapshots = table_snapshots(changed)  # now, inside the transaction: two queries for all the tables
        for table in changed:
            broadcast_on_commit(table, snapshot=snapshots[table.id])  # sent after the commit
        return [Outcome(table.id, table.seq) for table in tables]
