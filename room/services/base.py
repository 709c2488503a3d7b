"""Shared parts of the room services: groups, pure rules, the room lock, one floor step on the write path (log, seq, broadcast), lookups
and the primitive move of a seated player.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from room.models import (
    BlindDue,
    Call,
    Departure,
    Game,
    GameTable,
    QueueEntry,
    Room,
    RoomLog,
    TableChange,
)
from room.services.snapshot import lobby_view, room_snapshot
from tables import services
from tables.db import rows as sql_rows
from tables.models import Player, Seat, Table
from tables.writepath import ServiceError, WriteStep, send_messages_on_commit, write_step


def lobby_group(slug: str) -> str:
    """Channels group of a room's lobby screens (read-only)."""
    return f"lobby.{slug}"


def floor_room_group(slug: str) -> str:
    """Channels group of a room's floor dashboards."""
    return f"roomfloor.{slug}"


# ---------------------------------------------------------------------------
# Pure rules


def chip_unit_for(small_blind: int, big_blind: int) -> int:
    """The unit every amount must be divisible by (000 Allgemein 8, 000
    Einsätze 1): the small blind; at 2/5 the big blind."""
    if (small_blind, big_blind) == (2, 5):
        return big_blind
    return small_blind or big_blind


def check_divisible(amount: int, unit: int) -> None:
    """Refuse an amount not divisible by ``unit`` (000 Allgemein 8: the
    excess is returned to the player).  Raises ``ServiceError('indivisible')``
    with ``excess`` (chips to hand back) and ``unit``."""
    excess = amount % unit
    if excess:
        message = _(
            "%(amount)s is not divisible by the chip unit %(unit)s: return the excess of %(excess)s (000 Allgemein 8)"
        ) % {"amount": amount, "unit": unit, "excess": excess}
        raise ServiceError("indivisible", message, excess=excess, unit=unit)


def minimum_buy_in(game: Game, player: Player | None, today: dt.date | None = None) -> tuple[int, str]:
    """The smallest table stake ``player`` may sit down with in ``game`` today,
    and the rule it comes from: the game's minimum, at least the big blind
    (000 Einsätze 3); after leaving the game today with more than the
    minimum, at least that stake (000 Einsätze 1)."""
    floor_amount, source = max(game.min_buy_in, game.big_blind), "000 Einsätze 3"
    if player is not None and player.pk is not None:
        today = today or timezone.localdate()
        start = timezone.make_aware(dt.datetime.combine(today, dt.time.min))
        left = (
            Departure.objects.filter(game=game, player=player, at__gte=start, at__lt=start + dt.timedelta(days=1))
            .order_by("-stack")
            .values_list("stack", flat=True)
            .first()
        )
        if left is not None and left > game.min_buy_in and left > floor_amount:
            floor_amount, source = left, "000 Einsätze 1"
    return floor_amount, source


def seats_passed_from_button(button: int, old: int, new: int, occupied: list[int], max_seats: int) -> int:
    """How many occupied seats a player passes moving from seat ``old`` to
    ``new`` clockwise away from the button (000 Einsätze 4): the occupied
    seats (other than the mover's) whose clockwise distance from the
    button lies after ``old`` and up to ``new``.  Negative when moving
    towards the button.  Seat numbers increase clockwise."""

    def dist(seat: int) -> int:
        return (seat - button) % max_seats

    others = [s for s in occupied if s not in (old, new)]
    d_old, d_new = dist(old), dist(new)
    if d_new >= d_old:
        return sum(1 for s in others if d_old < dist(s) < d_new)
    return -sum(1 for s in others if d_new < dist(s) < d_old)


# ---------------------------------------------------------------------------
# Locking, logging, broadcasting


def lock_room(room_id: int) -> Room:
    """Lock the room row (``FOR NO KEY UPDATE``: one writer per room for its
    lists) and load it.  Raises ``ServiceError('not_found')``."""
    room = Room.objects.select_for_update(no_key=True).filter(pk=room_id).first()
    if room is None:
        raise ServiceError("not_found", _("no room %(room_id)s") % {"room_id": room_id})
    return room


def _actor_id(actor) -> int | None:
    return actor.id if actor is not None and getattr(actor, "is_authenticated", False) else None


class Step:
    """One room mutation on the write path: its ``RoomLog`` entries, all with
    the room's new seq (one bump per step), and one broadcast after the
    commit.  ``room`` is the locked ``Room``."""

    def __init__(self, write: WriteStep[Room], actor) -> None:
        self.write = write
        self.room = write.row
        self.actor_id = _actor_id(actor)
        self.entries: list[RoomLog] = []

    def log(self, kind: str, /, *, game: Game | None = None, player: Player | None = None, **payload: Any) -> None:
        """Add a log entry: ``kind`` (e.g. ``waitlist_add``), the game and
        player concerned, and a JSON-able ``payload``."""
        self.entries.append(
            RoomLog(room=self.room, kind=kind, game=game, player=player, payload=payload, actor_id=self.actor_id)
        )

    def finish(self) -> int:
        """Bump the room's seq, append the log entries with it and publish
        the room when the step ends (sent after the commit).  Returns the
        new seq."""
        seq = self.write.bump()
        for entry in self.entries:
            entry.seq = seq
        RoomLog.objects.bulk_create(self.entries)
        self.entries = []
        self.write.publish(_publish, self.room)
        return seq


@contextlib.contextmanager
def room_step(room_id: int, actor) -> Iterator[Step]:
    """One mutation of a room through the write path
    (:func:`tables.writepath.write_step`): a transaction, the room row
    locked (:func:`lock_room`), a :class:`Step` to log to; when the block
    ends without an error the seq is written and the room published.  An
    error rolls the whole block back.  Raises ``ServiceError('not_found')``
    for an unknown room."""
    with write_step(Room, room_id, lock=lock_room) as write:
        yield Step(write, actor)


def _publish(room: Room) -> None:
    """Snapshot the room now (inside the transaction, after the step's
    writes) and send it after the commit: the lobby form to
    ``lobby.<slug>``, the floor form to ``roomfloor.<slug>``; each
    serialised once for all receivers."""
    seq, slug = room.seq, room.slug
    floor = room_snapshot(room, lobby=False)
    lobby = lobby_view(floor)
    lobby_text = json.dumps({"type": "update", "seq": seq, "snapshot": lobby}, separators=(",", ":"))
    floor_text = json.dumps({"type": "update", "seq": seq, "snapshot": floor}, separators=(",", ":"))
    send_messages_on_commit(
        [
            (lobby_group(slug), {"type": "room.update", "seq": seq, "text": lobby_text}),
            (floor_room_group(slug), {"type": "room.update", "seq": seq, "text": floor_text}),
        ]
    )


# ---------------------------------------------------------------------------
# Lookups


def game_of_table(table_id: int) -> GameTable:
    gt = GameTable.objects.select_related("game", "game__room", "table").filter(table_id=table_id).first()
    if gt is None:
        raise ServiceError("no_game", _("table %(table_id)s belongs to no game") % {"table_id": table_id})
    return gt


def positive_int(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ServiceError("invalid", _("%(name)s must be a positive whole number of chips") % {"name": name})
    return value


def player_of(value: Player | str | int) -> Player:
    """The player given as a model, a player record's id or a name.  The id is the main path (the floor picks
    the record in the autocomplete, issue 28); an id of a merged duplicate gives the record it was merged
    into.  A typed name finds the oldest live record of exactly that name (merged and erased records left
    out) or makes a new player under it.  Errors: ``not_found`` for an unknown id, ``invalid`` for an empty
    name or one with NUL characters or lone surrogates."""
    if isinstance(value, Player):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        player = Player.objects.filter(pk=value).first()
        seen: set[int] = set()
        while player is not None and player.merged_into_id is not None and player.pk not in seen:
            seen.add(player.pk)
            player = Player.objects.filter(pk=player.merged_into_id).first()
        if player is None:
            raise ServiceError("not_found", _("no player %(value)s") % {"value": value})
        return player
    if isinstance(value, str) and ("\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value)):
        raise ServiceError("invalid", _("a player's name must not contain NUL characters or lone surrogates"))
    if isinstance(value, str) and value.strip():
        name = value.strip()[:100]
        live = Player.objects.filter(name=name, merged_into__isnull=True, erased_at__isnull=True)
        return live.order_by("id").first() or Player.objects.create(name=name)
    raise ServiceError("invalid", _("a player needs a name"))


def _room_of_sql() -> dict[str, str]:
    t = {m.__name__: m._meta.db_table for m in (Game, GameTable, QueueEntry, Call, TableChange)}
    return {
        "game": f"SELECT room_id FROM {t['Game']} WHERE id = %s",
        "table": f"SELECT g.room_id FROM {t['GameTable']} gt JOIN {t['Game']} g ON g.id = gt.game_id "
        f"WHERE gt.table_id = %s",
        "entry": f"SELECT g.room_id FROM {t['QueueEntry']} e JOIN {t['Game']} g ON g.id = e.game_id WHERE e.id = %s",
        "call": f"SELECT g.room_id FROM {t['Call']} c JOIN {t['Game']} g ON g.id = c.game_id WHERE c.id = %s",
        "change": f"SELECT g.room_id FROM {t['TableChange']} c JOIN {t['GameTable']} gt "
        f"ON gt.table_id = c.from_table_id JOIN {t['Game']} g ON g.id = gt.game_id WHERE c.id = %s",
    }


_ROOM_OF_SQL = _room_of_sql()


def room_of(kind: str, row_id: int) -> int | None:
    """The id of the room a row belongs to, or None if there is no such row.

    ``kind``: ``"game"``, ``"table"`` (a table id; a table of no game has no
    room), ``"entry"`` (list entry), ``"call"`` or ``"change"`` (table-change
    request).  One small prepared statement: it runs before every floor
    action (``room.views``).  ``KeyError`` for another kind."""
    found = sql_rows(_ROOM_OF_SQL[kind], [row_id])
    return found[0][0] if found else None


# ---------------------------------------------------------------------------
# Seats


def locked_seat(table_id: int, seat_number: int) -> tuple[Table, Seat]:
    table = services.lock_table(table_id)
    seat = table.seats.select_related("player").filter(number=seat_number).first()
    if seat is None:
        raise ServiceError(
            "no_such_seat",
            _("%(table)s has no seat %(seat_number)s") % {"table": table.name, "seat_number": seat_number},
        )
    if seat.player_id is None:
        raise ServiceError(
            "empty_seat",
            _("seat %(seat_number)s of %(table)s is empty") % {"seat_number": seat_number, "table": table.name},
        )
    return table, seat


def between_hands(table: Table, what: str) -> None:
    if services.live_hand(table) is not None:
        raise ServiceError("hand_in_progress", _("%(what)s only between hands (000 Einsätze 1)") % {"what": what})


def move_seated(
    step: Step, game: Game, from_table_id: int, from_seat: int, to_table_id: int, to_seat: int, *, by_floor: bool
) -> None:
    """Move a player with their whole table stake (000 Allgemein 12).  A
    seat change at the same table two or more occupied seats clockwise away
    from the button owes the big blind (000 Einsätze 4); a move by the floor
    to another table owes nothing."""
    locked = {tid: services.lock_table(tid) for tid in sorted({from_table_id, to_table_id})}
    src_table, dst_table = locked[from_table_id], locked[to_table_id]
    for t in locked.values():
        between_hands(t, _("players move"))
    if dst_table.status != Table.Status.OPEN:
        raise ServiceError("table_closed", _("%(dst_table)s is closed") % {"dst_table": dst_table.name})
    src = src_table.seats.select_related("player").filter(number=from_seat).first()
    dst = dst_table.seats.filter(number=to_seat).first()
    if src is None or dst is None:
        raise ServiceError("no_such_seat", _("no such seat"))
    if src.player is None:
        raise ServiceError(
            "empty_seat",
            _("seat %(from_seat)s of %(src_table)s is empty") % {"from_seat": from_seat, "src_table": src_table.name},
        )
    if dst.player_id is not None:
        raise ServiceError(
            "seat_taken",
            _("seat %(to_seat)s of %(dst_table)s is taken") % {"to_seat": to_seat, "dst_table": dst_table.name},
        )
    player, stack, absent = src.player, src.stack, src.absent
    owes = 0
    if from_table_id == to_table_id and src_table.button_seat is not None:
        occupied = [s.number for s in src_table.seats.filter(player__isnull=False, stack__gt=0)]
        passed = seats_passed_from_button(src_table.button_seat, from_seat, to_seat, occupied, src_table.max_seats)
        if passed >= 2:
            owes = src_table.big_blind
    Seat.objects.filter(pk=src.pk).update(player=None, stack=0, sitting_out=False, absent=False)
    Seat.objects.filter(pk=dst.pk).update(player=player, stack=stack, sitting_out=False, absent=absent)
    if owes:
        BlindDue.objects.create(table=src_table, seat_number=to_seat, player=player, amount=owes, at=timezone.now())
    for t in locked.values():
        services.commit_table_change(t)
    step.log(
        "move",
        game=game,
        player=player,
        from_table=from_table_id,
        from_seat=from_seat,
        to_table=to_table_id,
        to_seat=to_seat,
        stack=stack,
        by_floor=by_floor,
        big_blind_due=owes,
    )
