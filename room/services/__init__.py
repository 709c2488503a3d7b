"""The cash-game floor: games, buy-ins, waitlists, calls, must-move tables,
table changes, absent players and lobby display links.

Every mutation is one step on the write path (``tables.writepath``, through
:func:`room.services.base.room_step`): one transaction that locks the room
row first (``FOR NO KEY UPDATE``: one writer per room for its lists), then
the table rows it changes (through ``tables.services``, ascending ids), writes append-only
``RoomLog`` entries with actor and time, bumps ``Room.seq`` once and
broadcasts the room after the commit (``transaction.on_commit``) to the
lobby screens (group ``lobby.<slug>``) and the floor's room dashboards
(group ``roomfloor.<slug>``).  Bad input raises ``ServiceError`` and
changes nothing.

Chips are integers in the table's smallest unit.  The rulebook is the
casino cash-game reglement, ``../shared/seeds/000_2b5ab8aade69ac44.txt``;
sections are cited as "000 <chapter> <n>" (e.g. "000 Allgemein 15").

Waitlist decisions (where the rulebook leaves the detail to the floor,
000 Allgemein 1): a waitlist player who declines a seat or does not come
before the deadline is taken off that list (the floor may add them again);
a must-move player who declines stays in the must-move order.

The services are split by job: :mod:`room.services.rooms` (rooms, games,
tables, dealers, display links, settings), :mod:`~room.services.waitlists`,
:mod:`~room.services.calls` (offers, accept, decline, no-shows),
:mod:`~room.services.stakes` (buy-ins, leaving, absent players, blinds
owed), :mod:`~room.services.moves` (moves, table changes),
:mod:`~room.services.snapshot` (room and lobby snapshots); shared parts in
:mod:`~room.services.base`.  This package exports the public functions of
all of them.
"""

from room.services.base import (
    check_divisible,
    chip_unit_for,
    floor_room_group,
    lobby_group,
    minimum_buy_in,
    room_of,
    seats_passed_from_button,
)
from room.services.calls import accept_call, call_open_seats, decline_call, expire_calls, seat_opened
from room.services.due import expire_due_calls, next_call_deadline
from room.services.moves import approve_table_change, move_player, refuse_table_change, request_table_change
from room.services.rooms import (
    assign_dealer,
    create_display,
    create_game,
    create_room,
    open_table,
    revoke_display,
    set_table_open,
    update_room,
)
from room.services.snapshot import lobby_view, room_snapshot
from room.services.stakes import (
    add_on,
    adjust_spec,
    blinds_due,
    buy_in,
    hand_ended,
    leave_seat,
    publish_stacks,
    set_absent,
    table_stakes,
)
from room.services.waitlists import add_to_waitlist, remove_from_waitlist, seat_from_list
from tables.writepath import ServiceError

__all__ = [
    "ServiceError",
    "lobby_group",
    "floor_room_group",
    "chip_unit_for",
    "check_divisible",
    "minimum_buy_in",
    "create_room",
    "update_room",
    "create_game",
    "open_table",
    "set_table_open",
    "assign_dealer",
    "add_to_waitlist",
    "remove_from_waitlist",
    "call_open_seats",
    "seat_opened",
    "accept_call",
    "decline_call",
    "expire_calls",
    "expire_due_calls",
    "next_call_deadline",
    "seat_from_list",
    "buy_in",
    "add_on",
    "leave_seat",
    "hand_ended",
    "publish_stacks",
    "move_player",
    "request_table_change",
    "approve_table_change",
    "refuse_table_change",
    "set_absent",
    "create_display",
    "revoke_display",
    "room_snapshot",
    "blinds_due",
    "seats_passed_from_button",
    "adjust_spec",
    "table_stakes",
    "lobby_view",
    "room_of",
]
