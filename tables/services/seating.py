"""Tables and seats between hands: opening a table, seating and unseating
players, the table's status, seats set by other apps.
"""

from __future__ import annotations

from django.db import transaction

from tables import hooks
from tables.models import Player, Seat, Table
from tables.services.snapshots import _seat_cache
from tables.services.steps import Outcome, _step, _table_changed, live_hand
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
    ``invalid``."""
    if stack < 0:
        raise ServiceError("invalid", "stack must not be negative")
    with _step(table_id, expected_seq) as step:
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
        seat.player = player
        seat.stack = stack
        seat.sitting_out = False
        seat.save()
        return _table_changed(step)


def unseat_player(table_id: int, seat_number: int, *, expected_seq: int | None = None) -> Outcome:
    """Remove the player from a seat between hands (they leave with their stack)."""
    with _step(table_id, expected_seq) as step:
        table = step.row
        if live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "players leave between hands")
        updated = table.seats.filter(number=seat_number).update(player=None, stack=0, sitting_out=False)
        if not updated:
            raise ServiceError("no_such_seat", f"table has no seat {seat_number}")
        transaction.on_commit(lambda: _call_next_for_seat(table_id, seat_number))
        return _table_changed(step)


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
    with _step(table_id, expected_seq) as step:
        table = step.row
        if status == Table.Status.CLOSED and live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "finish the hand before closing the table")
        table.status = status
        return _table_changed(step, "status")


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
    with _step(table_id) as step:
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
        _seat_cache.pop(table.id, None)
        return _table_changed(step)
