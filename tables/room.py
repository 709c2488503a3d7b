"""The cash-game floor: games, buy-ins, waitlists, calls, must-move tables,
table changes, absent players and lobby display links (issue 4).

Same style as ``tables.services``: every mutation is one function that runs
in ``transaction.atomic()``, locks the room row first (``FOR NO KEY
UPDATE``: one writer per room for its lists) and then the table rows it
changes (through ``tables.services``, ascending ids), writes append-only
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
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import secrets
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.db import rows as _rows
from tables import services
from poker.hand import HandSpec
from room.models import (
    BlindDue, Call, Departure, Game, GameTable, LobbyDisplay, QueueEntry, Room, RoomLog, TableChange,
)
from tables.models import Hand, Player, Seat, Table
from tables.services import ServiceError

__all__ = [
    "lobby_group", "floor_room_group", "chip_unit_for", "check_divisible", "minimum_buy_in",
    "create_room", "update_room", "create_game", "open_table", "set_table_open", "assign_dealer",
    "add_to_waitlist", "remove_from_waitlist", "call_open_seats", "seat_opened", "accept_call", "decline_call",
    "expire_calls", "seat_from_list", "buy_in", "add_on", "leave_seat", "move_player", "request_table_change",
    "approve_table_change", "refuse_table_change", "set_absent", "create_display", "room_snapshot",
    "blinds_due", "seats_passed_from_button", "adjust_spec", "lobby_view", "room_of",
]


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
        message = _("%(amount)s is not divisible by the chip unit %(unit)s: return the excess of %(excess)s "
                    "(000 Allgemein 8)") % {"amount": amount, "unit": unit, "excess": excess}
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
        left = (Departure.objects.filter(game=game, player=player, at__gte=start,
                                         at__lt=start + dt.timedelta(days=1))
                .order_by("-stack").values_list("stack", flat=True).first())
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

def _lock_room(room_id: int) -> Room:
    room = Room.objects.select_for_update(no_key=True).filter(pk=room_id).first()
    if room is None:
        raise ServiceError("not_found", _("no room %(room_id)s") % {"room_id": room_id})
    return room


def _actor_id(actor) -> int | None:
    return actor.id if actor is not None and getattr(actor, "is_authenticated", False) else None


class _Step:
    """One room mutation: log entries (all with the room's new seq), one seq
    bump and one broadcast after the commit."""

    def __init__(self, room: Room, actor) -> None:
        self.room = room
        self.actor_id = _actor_id(actor)
        self.entries: list[RoomLog] = []

    def log(self, kind: str, /, *, game: Game | None = None, player: Player | None = None, **payload: Any) -> None:
        self.entries.append(RoomLog(room=self.room, kind=kind, game=game, player=player, payload=payload,
                                    actor_id=self.actor_id))

    def finish(self) -> int:
        room = self.room
        room.seq += 1
        _rows(f"UPDATE {Room._meta.db_table} SET seq = %s WHERE id = %s RETURNING id", [room.seq, room.pk])
        for entry in self.entries:
            entry.seq = room.seq
        RoomLog.objects.bulk_create(self.entries)
        _broadcast_on_commit(room)
        return room.seq


def _broadcast_on_commit(room: Room) -> None:
    """Snapshot the room now (inside the transaction) and send it after the
    commit: the lobby form to ``lobby.<slug>``, the floor form to
    ``roomfloor.<slug>``; each serialised once for all receivers."""
    seq, slug = room.seq, room.slug
    floor = room_snapshot(room, lobby=False)
    lobby = lobby_view(floor)
    lobby_text = json.dumps({"type": "update", "seq": seq, "snapshot": lobby}, separators=(",", ":"))
    floor_text = json.dumps({"type": "update", "seq": seq, "snapshot": floor}, separators=(",", ":"))

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        async_to_sync(layer.group_send)(lobby_group(slug), {"type": "room.update", "seq": seq, "text": lobby_text})
        async_to_sync(layer.group_send)(floor_room_group(slug), {"type": "room.update", "seq": seq, "text": floor_text})

    transaction.on_commit(send)


def _game_of_table(table_id: int) -> GameTable:
    gt = GameTable.objects.select_related("game", "game__room", "table").filter(table_id=table_id).first()
    if gt is None:
        raise ServiceError("no_game", _("table %(table_id)s belongs to no game") % {"table_id": table_id})
    return gt


def _positive_int(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ServiceError("invalid", _("%(name)s must be a positive whole number of chips") % {"name": name})
    return value


def _player(value: Player | str | int) -> Player:
    if isinstance(value, Player):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        player = Player.objects.filter(pk=value).first()
        if player is None:
            raise ServiceError("not_found", _("no player %(value)s") % {"value": value})
        return player
    if isinstance(value, str) and value.strip():
        name = value.strip()[:100]
        return Player.objects.filter(name=name).order_by("id").first() or Player.objects.create(name=name)
    raise ServiceError("invalid", _("a player needs a name"))


# ---------------------------------------------------------------------------
# Rooms, games, tables

def create_room(slug: str, name: str, *, call_seconds: int = 300, lobby_names: str = Room.Names.FULL,
                lobby_stacks: bool = False) -> Room:
    """A new room.  ``call_seconds``: the called player's countdown (default
    5 minutes).  Errors: ``invalid``."""
    if lobby_names not in Room.Names.values:
        raise ServiceError("invalid", _("lobby_names must be one of %(values)s") % {"values": Room.Names.values})
    if not isinstance(call_seconds, int) or call_seconds < 10:
        raise ServiceError("invalid", _("the call countdown is at least 10 seconds"))
    if Room.objects.filter(slug=slug).exists():
        raise ServiceError("invalid", _("a room “%(slug)s” exists already") % {"slug": slug})
    return Room.objects.create(slug=slug, name=name, call_seconds=call_seconds, lobby_names=lobby_names,
                               lobby_stacks=lobby_stacks)


def update_room(room_id: int, *, actor=None, call_seconds: int | None = None, lobby_names: str | None = None,
                lobby_stacks: bool | None = None) -> int:
    """Change the room settings (countdown seconds, names or initials on the
    lobby, stacks on the lobby).  Returns the room's seq.  Errors:
    ``not_found``, ``invalid``."""
    if lobby_names is not None and lobby_names not in Room.Names.values:
        raise ServiceError("invalid", _("lobby_names must be one of %(values)s") % {"values": Room.Names.values})
    if call_seconds is not None and (not isinstance(call_seconds, int) or call_seconds < 10):
        raise ServiceError("invalid", _("the call countdown is at least 10 seconds"))
    with transaction.atomic():
        room = _lock_room(room_id)
        changed = {}
        for field, value in (("call_seconds", call_seconds), ("lobby_names", lobby_names),
                             ("lobby_stacks", lobby_stacks)):
            if value is not None:
                setattr(room, field, value)
                changed[field] = value
        room.save(update_fields=list(changed) or None)
        step = _Step(room, actor)
        step.log("settings", **changed)
        return step.finish()


def create_game(room_id: int, name: str, *, variant: str = Game.Variant.NLHE, small_blind: int, big_blind: int,
                min_buy_in: int, max_buy_in: int, chip_unit: int | None = None,
                rules_profile: str = "casino-cash", actor=None) -> Game:
    """A cash game of the room (000 Einsätze 2: limit form, blinds and the
    maximum buy-in fixed before play).  ``chip_unit`` defaults to
    :func:`chip_unit_for`.  Errors: ``not_found``, ``invalid``,
    ``indivisible`` (buy-ins not in whole units)."""
    if variant not in Game.Variant.values:
        raise ServiceError("invalid", _("unknown variant “%(variant)s”") % {"variant": variant})
    small_blind = _positive_int(small_blind, "small blind")
    big_blind = _positive_int(big_blind, "big blind")
    if small_blind > big_blind:
        raise ServiceError("invalid", _("the small blind is not above the big blind"))
    unit = _positive_int(chip_unit if chip_unit is not None else chip_unit_for(small_blind, big_blind), "chip unit")
    min_buy_in = _positive_int(min_buy_in, "minimum buy-in")
    max_buy_in = _positive_int(max_buy_in, "maximum buy-in")
    if min_buy_in < big_blind or max_buy_in < min_buy_in:
        raise ServiceError("invalid", _("big blind <= minimum buy-in <= maximum buy-in (000 Einsätze 3)"))
    check_divisible(min_buy_in, unit)
    check_divisible(max_buy_in, unit)
    with transaction.atomic():
        room = _lock_room(room_id)
        if Game.objects.filter(room=room, name=name).exists():
            raise ServiceError("invalid", _("the room has a game “%(name)s” already") % {"name": name})
        game = Game.objects.create(room=room, name=name, variant=variant, small_blind=small_blind,
                                   big_blind=big_blind, min_buy_in=min_buy_in, max_buy_in=max_buy_in,
                                   chip_unit=unit, rules_profile=rules_profile)
        step = _Step(room, actor)
        step.log("game", game=game, name=name, variant=variant, blinds=[small_blind, big_blind],
                 buy_in=[min_buy_in, max_buy_in], unit=unit)
        step.finish()
    return game


def open_table(game_id: int, name: str, *, kind: str = GameTable.Kind.MAIN, max_seats: int = 9, dealer=None,
               actor=None) -> Table:
    """Open a new table of the game (the game's blinds and house rules) as
    its main table or a must-move table (000 Allgemein 15).  Open seats are
    offered to the lists at once.  Errors: ``not_found``, ``invalid``."""
    if kind not in GameTable.Kind.values:
        raise ServiceError("invalid", _("unknown table kind “%(kind)s”") % {"kind": kind})
    with transaction.atomic():
        game = Game.objects.select_related("room").filter(pk=game_id).first()
        if game is None:
            raise ServiceError("not_found", _("no game %(game_id)s") % {"game_id": game_id})
        room = _lock_room(game.room_id)
        if Table.objects.filter(name=name).exists():
            raise ServiceError("invalid", _("a table “%(name)s” exists already") % {"name": name})
        table = services.create_table(name, small_blind=game.small_blind, big_blind=game.big_blind,
                                      max_seats=max_seats, rules_profile=game.rules_profile, dealer=dealer)
        GameTable.objects.create(game=game, table=table, kind=kind)
        step = _Step(room, actor)
        step.log("open_table", game=game, table=table.id, name=name, table_kind=kind)
        _fill(step, game)
        step.finish()
    return table


def set_table_open(table_id: int, is_open: bool, *, actor=None) -> int:
    """Open or close a table of a game (``tables.services.set_table_status``;
    closed only between hands).  Open calls to a closed table are cancelled.
    Returns the room's seq.  Errors: ``no_game``, ``hand_in_progress``."""
    with transaction.atomic():
        gt = _game_of_table(table_id)
        room = _lock_room(gt.game.room_id)
        services.set_table_status(table_id, Table.Status.OPEN if is_open else Table.Status.CLOSED)
        step = _Step(room, actor)
        step.log("table_open" if is_open else "table_close", game=gt.game, table=table_id)
        if not is_open:
            for call in Call.objects.select_for_update().filter(table_id=table_id, status=Call.Status.OPEN):
                _close_call(step, call, Call.Status.CANCELLED)
        _fill(step, gt.game)
        return step.finish()


def assign_dealer(table_id: int, dealer, *, actor=None) -> int:
    """The floor assigns a dealer (a user in the ``dealer`` group) or nobody
    (None) to a table.  Returns the room's seq.  Errors: ``no_game``,
    ``invalid``."""
    from tables.access import DEALER, roles_of  # noqa: PLC0415

    if dealer is not None and DEALER not in roles_of(dealer):
        raise ServiceError("invalid", _("%(dealer)s is not a dealer") % {"dealer": dealer.username})
    with transaction.atomic():
        gt = _game_of_table(table_id)
        room = _lock_room(gt.game.room_id)
        table = services._lock_table(table_id)
        table.dealer = dealer
        services._commit_table_change(table, ("dealer",))
        step = _Step(room, actor)
        step.log("dealer", game=gt.game, table=table_id, dealer=dealer.username if dealer else None)
        return step.finish()


# ---------------------------------------------------------------------------
# Waitlists and calls

def add_to_waitlist(game_id: int, player: Player | str | int, *, source: str = QueueEntry.Source.WALK_IN,
                    actor=None) -> QueueEntry:
    """Put a walk-in or phone-in on a game's waitlist (a player may be on
    several lists, 000 Allgemein 12).  If a seat is open it is offered at
    once.  Errors: ``not_found``, ``invalid``, ``already_listed``,
    ``already_seated``."""
    if source not in (QueueEntry.Source.WALK_IN, QueueEntry.Source.PHONE_IN):
        raise ServiceError("invalid", _("source is walk_in or phone_in"))
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise ServiceError("not_found", _("no game %(game_id)s") % {"game_id": game_id})
        room = _lock_room(game.room_id)
        player = _player(player)
        if QueueEntry.objects.filter(game=game, player=player, queue=QueueEntry.Queue.WAITLIST,
                                     status__in=[QueueEntry.Status.WAITING, QueueEntry.Status.CALLED]).exists():
            raise ServiceError("already_listed", _("%(player)s is on the %(game)s list already") %
                                                 {"player": player.name, "game": game.name})
        if Seat.objects.filter(player=player, table__game_table__game=game).exists():
            raise ServiceError("already_seated", _("%(player)s plays in %(game)s already") %
                                                 {"player": player.name, "game": game.name})
        entry = QueueEntry.objects.create(game=game, player=player, source=source, joined_at=timezone.now())
        step = _Step(room, actor)
        step.log("waitlist_add", game=game, player=player, entry=entry.id, source=source)
        _fill(step, game)
        step.finish()
    entry.refresh_from_db()
    return entry


def remove_from_waitlist(entry_id: int, *, actor=None) -> int:
    """Take a player off a list (an open call of theirs is cancelled and the
    seat offered to the next).  Returns the room's seq.  Errors:
    ``not_found``."""
    with transaction.atomic():
        room = _lock_room(_room_of_entry(entry_id))
        entry = QueueEntry.objects.select_for_update().select_related("game", "player").get(pk=entry_id)
        if entry.status not in (QueueEntry.Status.WAITING, QueueEntry.Status.CALLED):
            raise ServiceError("not_found", _("%(player)s is not on that list any more") %
                                            {"player": entry.player.name})
        step = _Step(room, actor)
        if entry.status == QueueEntry.Status.CALLED:  # only a called entry has an open call
            for call in Call.objects.select_for_update().filter(entry=entry, status=Call.Status.OPEN):
                _close_call(step, call, Call.Status.CANCELLED)
        entry.status = QueueEntry.Status.REMOVED
        entry.save(update_fields=["status"])
        step.log("waitlist_remove", game=entry.game, player=entry.player, entry=entry.id, queue=entry.queue)
        _fill(step, entry.game)
        return step.finish()


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
    action (``tables.room_views``).  ``KeyError`` for another kind."""
    found = _rows(_ROOM_OF_SQL[kind], [row_id])
    return found[0][0] if found else None


def _room_of_entry(entry_id: int) -> int:
    """The room id of a list entry; ``not_found`` if there is no such entry."""
    room_id = room_of("entry", entry_id)
    if room_id is None:
        raise ServiceError("not_found", _("no list entry %(entry_id)s") % {"entry_id": entry_id})
    return room_id


def _uncalled_open_seats(game: Game) -> list[tuple[GameTable, int]]:
    """Open seats at the game's open tables that no open call of the game
    holds: main tables first, then must-move, each by table name and seat.
    One statement (it runs in every waitlist change); the GameTable rows
    only when there is a seat to offer."""
    found = _rows(
        f"SELECT gt.id, s.number FROM {GameTable._meta.db_table} gt "
        f"JOIN {Table._meta.db_table} t ON t.id = gt.table_id "
        f"JOIN {Seat._meta.db_table} s ON s.table_id = t.id AND s.player_id IS NULL "
        f"WHERE gt.game_id = %s AND t.status = %s AND NOT EXISTS (SELECT 1 FROM {Call._meta.db_table} c "
        f"WHERE c.game_id = gt.game_id AND c.table_id = t.id AND c.seat_number = s.number AND c.status = %s) "
        f"ORDER BY gt.kind, t.name, s.number", [game.id, Table.Status.OPEN, Call.Status.OPEN])
    if not found:
        return []
    game_tables = GameTable.objects.select_related("table").in_bulk({gt_id for gt_id, _ in found})
    return [(game_tables[gt_id], number) for gt_id, number in found]


def _busy_player_ids(game: Game) -> set[int]:
    """Players who cannot be called now: called somewhere in the room already."""
    return set(Call.objects.filter(game__room_id=game.room_id, status=Call.Status.OPEN)
               .values_list("entry__player_id", flat=True))


def _candidates(game: Game, queue: str, exclude: set[int]) -> list[QueueEntry]:
    busy = _busy_player_ids(game)
    seated = set()
    if queue == QueueEntry.Queue.WAITLIST:
        seated = set(Seat.objects.filter(table__game_table__game=game, player__isnull=False)
                     .values_list("player_id", flat=True))
    return [e for e in game.queue.select_related("player").filter(queue=queue, status=QueueEntry.Status.WAITING)
            .order_by("joined_at", "id")
            if e.id not in exclude and e.player_id not in busy and e.player_id not in seated]


def _has_must_move(game: Game) -> bool:
    return game.game_tables.filter(kind=GameTable.Kind.MUST_MOVE, table__status=Table.Status.OPEN).exists()


def _call(step: _Step, game: Game, gt: GameTable, seat_number: int, entry: QueueEntry, *, declined=(),
          forced: bool = False) -> Call:
    now = timezone.now()
    call = Call.objects.create(game=game, table=gt.table, seat_number=seat_number, entry=entry, forced=forced,
                               declined=list(declined), called_at=now,
                               deadline=now + dt.timedelta(seconds=step.room.call_seconds))
    entry.status = QueueEntry.Status.CALLED
    entry.save(update_fields=["status"])
    step.log("call", game=game, player=entry.player, call=call.id, table=gt.table_id, seat=seat_number,
             queue=entry.queue, forced=forced, deadline=call.deadline.isoformat())
    return call


def _offer(step: _Step, game: Game, gt: GameTable, seat_number: int, declined: list[int]) -> Call | None:
    """Offer one open seat to the next player in line, or None.

    000 Allgemein 15: a main-table seat goes to the must-move order first
    (asked in order; if all say no, the first must move); new players start
    at the must-move table, in waitlist order.  Without must-move tables
    every seat goes to the waitlist."""
    if gt.kind == GameTable.Kind.MAIN and _has_must_move(game):
        movers = game.queue.filter(queue=QueueEntry.Queue.MUST_MOVE,
                                   status__in=[QueueEntry.Status.WAITING, QueueEntry.Status.CALLED])
        if movers.exists():
            candidates = _candidates(game, QueueEntry.Queue.MUST_MOVE, set(declined))
            if candidates:
                return _call(step, game, gt, seat_number, candidates[0], declined=declined)
            first = [e for e in _candidates(game, QueueEntry.Queue.MUST_MOVE, set()) if e.id in declined]
            if first:
                return _call(step, game, gt, seat_number, first[0], declined=declined, forced=True)
            return None
    candidates = _candidates(game, QueueEntry.Queue.WAITLIST, set(declined))
    return _call(step, game, gt, seat_number, candidates[0], declined=declined) if candidates else None


def _fill(step: _Step, game: Game) -> list[Call]:
    """Call the next players for every open seat of the game without a call."""
    calls = []
    if not game.is_open:
        return calls
    for gt, number in _uncalled_open_seats(game):
        call = _offer(step, game, gt, number, [])
        if call is not None:
            calls.append(call)
    return calls


def call_open_seats(game_id: int, *, actor=None) -> list[Call]:
    """Offer every open seat of a game that has no call yet to the next in
    line (the seat-opened trigger; also the floor's "call" button).
    Errors: ``not_found``."""
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise ServiceError("not_found", _("no game %(game_id)s") % {"game_id": game_id})
        room = _lock_room(game.room_id)
        _expire(room, _Step(room, actor), timezone.now())
        step = _Step(room, actor)
        calls = _fill(step, game)
        step.finish()
        return calls


def seat_opened(table_id: int, seat_number: int | None = None, *, actor=None) -> list[Call]:
    """A seat opened at a table (the tablet's unseat, a leave): call the next
    player(s) of its game.  Tables of no game are ignored (returns [])."""
    gt = GameTable.objects.filter(table_id=table_id).first()
    if gt is None:
        return []
    return call_open_seats(gt.game_id, actor=actor)


def _close_call(step: _Step, call: Call, status: str) -> None:
    call.status = status
    call.save(update_fields=["status"])
    entry = call.entry
    if status in (Call.Status.CANCELLED,) or (entry.queue == QueueEntry.Queue.MUST_MOVE
                                               and status in (Call.Status.DECLINED, Call.Status.EXPIRED)):
        entry.status = QueueEntry.Status.WAITING
    elif status in (Call.Status.DECLINED, Call.Status.EXPIRED):
        entry.status = QueueEntry.Status.REMOVED
    elif status == Call.Status.ACCEPTED:
        entry.status = QueueEntry.Status.DONE
    entry.save(update_fields=["status"])
    kind = {Call.Status.DECLINED: "decline", Call.Status.EXPIRED: "no_show", Call.Status.CANCELLED: "call_cancel",
            Call.Status.ACCEPTED: "accept"}[status]
    step.log(kind, game=call.game, player=entry.player, call=call.id, table=call.table_id, seat=call.seat_number,
             queue=entry.queue)


def _lock_open_call(call_id: int) -> tuple[Room, Call]:
    call = Call.objects.select_related("game").filter(pk=call_id).first()
    if call is None:
        raise ServiceError("not_found", _("no call %(call_id)s") % {"call_id": call_id})
    room = _lock_room(call.game.room_id)
    call = Call.objects.select_for_update(of=("self",)).select_related(
        "game", "table", "entry", "entry__player").get(pk=call_id)
    if call.status != Call.Status.OPEN:
        raise ServiceError("call_closed", _("that call is %(call_status)s already") %
                           {"call_status": call.get_status_display()})
    return room, call


def _next_after(step: _Step, call: Call) -> Call | None:
    gt = GameTable.objects.select_related("table").get(table_id=call.table_id)
    if gt.table.status != Table.Status.OPEN or gt.table.seats.filter(number=call.seat_number,
                                                                    player__isnull=False).exists():
        return None
    return _offer(step, call.game, gt, call.seat_number, [*call.declined, call.entry_id])


def accept_call(call_id: int, *, actor=None) -> Call:
    """The called player takes the seat: a waitlist player is seated with no
    chips yet (next: :func:`buy_in`) and, at a must-move table, joins the
    must-move order (000 Allgemein 15); a must-move player moves with their
    whole table stake (000 Allgemein 12); the seat they leave is offered on.
    Errors: ``not_found``, ``call_closed``, ``expired`` (deadline passed:
    recorded as a no-show and the next player called), ``hand_in_progress``."""
    with transaction.atomic():
        room, call = _lock_open_call(call_id)
        step = _Step(room, actor)
        if call.deadline <= timezone.now() and not call.forced:
            _close_call(step, call, Call.Status.EXPIRED)
            _next_after(step, call)
            step.finish()
            expired = True
        else:
            expired = False
    if expired:
        raise ServiceError("expired", _("the countdown ran out: the next player was called"))
    with transaction.atomic():
        room, call = _lock_open_call(call_id)
        step = _Step(room, actor)
        entry, game = call.entry, call.game
        gt = GameTable.objects.get(table_id=call.table_id)
        if entry.queue == QueueEntry.Queue.MUST_MOVE:
            seat = Seat.objects.filter(player=entry.player, table__game_table__game=game).first()
            if seat is None:
                raise ServiceError("not_found", _("%(player)s is not seated in %(game)s") %
                                                {"player": entry.player.name, "game": game.name})
            _close_call(step, call, Call.Status.ACCEPTED)
            _move(step, game, seat.table_id, seat.number, call.table_id, call.seat_number, by_floor=True)
        else:
            _close_call(step, call, Call.Status.ACCEPTED)
            services.seat_player(call.table_id, call.seat_number, entry.player, 0)
            step.log("seat", game=game, player=entry.player, table=call.table_id, seat=call.seat_number)
            if gt.kind == GameTable.Kind.MUST_MOVE:
                mm = QueueEntry.objects.create(game=game, player=entry.player, queue=QueueEntry.Queue.MUST_MOVE,
                                               source=QueueEntry.Source.SEATED, joined_at=entry.joined_at)
                step.log("must_move_add", game=game, player=entry.player, entry=mm.id)
        _fill(step, game)
        step.finish()
        return call


def decline_call(call_id: int, *, actor=None) -> Call | None:
    """The called player says no: the next in line is called and returned
    (None if nobody is left).  A waitlist player leaves that list; a
    must-move player keeps their place; when every must-move player said no
    the first one must move (a forced call, which cannot be declined;
    000 Allgemein 15).  Errors: ``not_found``, ``call_closed``,
    ``must_move``."""
    with transaction.atomic():
        room, call = _lock_open_call(call_id)
        if call.forced:
            raise ServiceError("must_move", _("%(player)s must move: everyone else declined (000 Allgemein 15)") %
                                            {"player": call.entry.player.name})
        step = _Step(room, actor)
        _close_call(step, call, Call.Status.DECLINED)
        nxt = _next_after(step, call)
        step.finish()
        return nxt


def _expire(room: Room, step: _Step, now) -> int:
    n = 0
    for call in (Call.objects.select_for_update(of=("self",)).select_related("game", "entry", "entry__player")
                 .filter(game__room=room, status=Call.Status.OPEN, forced=False, deadline__lte=now)
                 .order_by("deadline", "id")):
        _close_call(step, call, Call.Status.EXPIRED)
        _next_after(step, call)
        n += 1
    if n:
        step.finish()
    return n


def expire_calls(room_id: int, *, now=None, actor=None) -> int:
    """Record a no-show for every call of the room whose deadline has passed
    (server time) and call the next player; returns how many expired.
    Forced must-move calls do not expire (the floor moves the player).
    Run by the floor's room dashboard when a countdown ends (and before
    every :func:`call_open_seats`).  Errors: ``not_found``."""
    with transaction.atomic():
        room = _lock_room(room_id)
        return _expire(room, _Step(room, actor), now or timezone.now())


def seat_from_list(entry_id: int, table_id: int, seat_number: int, *, actor=None) -> int:
    """The floor seats a waitlist player directly at an open seat of the
    game (one tap), without a countdown; an open call for that seat is
    cancelled.  Returns the room's seq.  Errors: ``not_found``, ``no_game``,
    ``wrong_game``, ``seat_taken``, ``hand_in_progress``."""
    with transaction.atomic():
        entry = QueueEntry.objects.select_related("game").filter(pk=entry_id).first()
        if entry is None:
            raise ServiceError("not_found", _("no list entry %(entry_id)s") % {"entry_id": entry_id})
        room = _lock_room(entry.game.room_id)
        entry = QueueEntry.objects.select_for_update().select_related("game", "player").get(pk=entry_id)
        if entry.status not in (QueueEntry.Status.WAITING, QueueEntry.Status.CALLED):
            raise ServiceError("not_found", _("%(player)s is not on that list any more") %
                                            {"player": entry.player.name})
        gt = _game_of_table(table_id)
        if gt.game_id != entry.game_id:
            raise ServiceError("wrong_game", _("%(table)s is not a %(game)s table") %
                                             {"table": gt.table.name, "game": entry.game.name})
        step = _Step(room, actor)
        for call in Call.objects.select_for_update(of=("self",)).select_related("entry", "game").filter(
                status=Call.Status.OPEN).filter(_calls_to_cancel(entry, table_id, seat_number)):
            _close_call(step, call, Call.Status.CANCELLED)
        entry.refresh_from_db()
        game = entry.game
        if entry.queue == QueueEntry.Queue.MUST_MOVE:
            seat = Seat.objects.filter(player=entry.player, table__game_table__game=game).first()
            if seat is None:
                raise ServiceError("not_found", _("%(player)s is not seated in %(game)s") %
                                                {"player": entry.player.name, "game": game.name})
            entry.status = QueueEntry.Status.DONE
            entry.save(update_fields=["status"])
            _move(step, game, seat.table_id, seat.number, table_id, seat_number, by_floor=True)
        else:
            services.seat_player(table_id, seat_number, entry.player, 0)
            entry.status = QueueEntry.Status.DONE
            entry.save(update_fields=["status"])
            step.log("seat", game=game, player=entry.player, table=table_id, seat=seat_number, direct=True)
            if gt.kind == GameTable.Kind.MUST_MOVE:
                QueueEntry.objects.create(game=game, player=entry.player, queue=QueueEntry.Queue.MUST_MOVE,
                                          source=QueueEntry.Source.SEATED, joined_at=entry.joined_at)
                step.log("must_move_add", game=game, player=entry.player)
        _fill(step, game)
        return step.finish()


def _calls_to_cancel(entry: QueueEntry, table_id: int, seat_number: int):
    """Open calls to cancel when the floor seats ``entry`` directly: theirs, and the seat's."""
    from django.db.models import Q  # noqa: PLC0415

    return Q(entry=entry) | Q(table_id=table_id, seat_number=seat_number)


# ---------------------------------------------------------------------------
# Table stakes

def _locked_seat(table_id: int, seat_number: int) -> tuple[Table, Seat]:
    table = services._lock_table(table_id)
    seat = table.seats.select_related("player").filter(number=seat_number).first()
    if seat is None:
        raise ServiceError("no_such_seat", _("%(table)s has no seat %(seat_number)s") %
                                           {"table": table.name, "seat_number": seat_number})
    if seat.player_id is None:
        raise ServiceError("empty_seat", _("seat %(seat_number)s of %(table)s is empty") %
                                         {"seat_number": seat_number, "table": table.name})
    return table, seat


def _between_hands(table: Table, what: str) -> None:
    if services._live_hand(table) is not None:
        raise ServiceError("hand_in_progress", _("%(what)s only between hands (000 Einsätze 1)") % {"what": what})


def buy_in(table_id: int, seat_number: int, amount: int, *, actor=None) -> int:
    """The seated player's buy-in: chips put on the table before they play.

    ``amount`` (chips) must be divisible by the game's unit (000 Allgemein
    8; the excess is named for the dealer to return), at least the game's
    minimum and the big blind (000 Einsätze 3), at least the stake they
    left this game with today if that was above the minimum (000 Einsätze
    1), and at most the game's maximum (000 Einsätze 2).  Only for a seat
    with no chips yet, between hands.  Returns the room's seq.  Errors:
    ``no_game``, ``empty_seat``, ``no_such_seat``, ``indivisible``,
    ``below_minimum``, ``above_maximum``, ``already_bought_in``,
    ``hand_in_progress``, ``invalid``."""
    amount = _positive_int(amount, "the buy-in")
    with transaction.atomic():
        gt = _game_of_table(table_id)
        game = gt.game
        room = _lock_room(game.room_id)
        table, seat = _locked_seat(table_id, seat_number)
        _between_hands(table, _("buy-ins"))
        if seat.stack > 0:
            raise ServiceError("already_bought_in",
                               _("%(player)s has %(stack)s on the table: add chips with an add-on") %
                               {"player": seat.player.name, "stack": seat.stack})
        check_divisible(amount, game.chip_unit)
        minimum, source = minimum_buy_in(game, seat.player)
        if amount < minimum:
            raise ServiceError("below_minimum", _("the buy-in is at least %(minimum)s (%(source)s)") %
                                                {"minimum": minimum, "source": source}, minimum=minimum)
        if amount > game.max_buy_in:
            raise ServiceError("above_maximum", _("the buy-in is at most %(max_buy_in)s (000 Einsätze 2)") %
                               {"max_buy_in": game.max_buy_in}, maximum=game.max_buy_in)
        seat.stack = amount
        seat.save(update_fields=["stack"])
        services._commit_table_change(table)
        step = _Step(room, actor)
        step.log("buy_in", game=game, player=seat.player, table=table_id, seat=seat_number, amount=amount)
        return step.finish()


def add_on(table_id: int, seat_number: int, amount: int, *, actor=None) -> int:
    """Add ``amount`` chips to a seated player's table stake: only between
    hands, in whole units, up to the game's maximum (000 Einsätze 1, 000
    Allgemein 8).  Chips never come off the table except by leaving
    (:func:`leave_seat`): a negative amount is refused with
    ``chips_off_table``.  Returns the room's seq.  Errors: as
    :func:`buy_in`, plus ``chips_off_table`` and ``not_bought_in``."""
    if isinstance(amount, int) and not isinstance(amount, bool) and amount < 0:
        raise ServiceError("chips_off_table", _("no chips come off the table except when leaving (000 Einsätze 1)"))
    amount = _positive_int(amount, "the add-on")
    with transaction.atomic():
        gt = _game_of_table(table_id)
        game = gt.game
        room = _lock_room(game.room_id)
        table, seat = _locked_seat(table_id, seat_number)
        _between_hands(table, _("chips are added"))
        if seat.stack == 0:
            raise ServiceError("not_bought_in", _("%(player)s buys in first") % {"player": seat.player.name})
        check_divisible(amount, game.chip_unit)
        if seat.stack + amount > game.max_buy_in:
            room_left = max(0, game.max_buy_in - seat.stack)
            message = _("the table stake may reach at most %(max_buy_in)s: add at most %(room_left)s "
                        "(000 Einsätze 2)") % {"max_buy_in": game.max_buy_in, "room_left": room_left}
            raise ServiceError("above_maximum", message, maximum=room_left)
        seat.stack += amount
        seat.save(update_fields=["stack"])
        services._commit_table_change(table)
        step = _Step(room, actor)
        step.log("add_on", game=game, player=seat.player, table=table_id, seat=seat_number, amount=amount,
                 stack=seat.stack)
        return step.finish()


def leave_seat(table_id: int, seat_number: int, *, actor=None) -> int:
    """A player ends their game and takes their whole stake (000 Einsätze 1):
    the departure is recorded (its stake bounds their next buy-in in this
    game today), the player leaves the must-move order, and the open seat
    is offered to the next in line.  Returns the room's seq.  Errors:
    ``no_game``, ``empty_seat``, ``hand_in_progress``."""
    with transaction.atomic():
        gt = _game_of_table(table_id)
        game = gt.game
        room = _lock_room(game.room_id)
        table, seat = _locked_seat(table_id, seat_number)
        _between_hands(table, _("players leave"))
        player, stack = seat.player, seat.stack
        Departure.objects.create(game=game, player=player, table=table, stack=stack, at=timezone.now())
        services.unseat_player(table_id, seat_number)
        Seat.objects.filter(table_id=table_id, number=seat_number).update(absent=False)
        step = _Step(room, actor)
        step.log("leave", game=game, player=player, table=table_id, seat=seat_number, stack=stack)
        for mm in QueueEntry.objects.select_for_update().filter(game=game, player=player,
                                                                queue=QueueEntry.Queue.MUST_MOVE,
                                                                status=QueueEntry.Status.WAITING):
            mm.status = QueueEntry.Status.REMOVED
            mm.save(update_fields=["status"])
            step.log("must_move_remove", game=game, player=player, entry=mm.id)
        _fill(step, game)
        return step.finish()


# ---------------------------------------------------------------------------
# Moves, seat changes, table changes, absent players

def _move(step: _Step, game: Game, from_table_id: int, from_seat: int, to_table_id: int, to_seat: int, *,
          by_floor: bool) -> None:
    """Move a player with their whole table stake (000 Allgemein 12).  A
    seat change at the same table two or more occupied seats clockwise away
    from the button owes the big blind (000 Einsätze 4); a move by the floor
    to another table owes nothing."""
    locked = {tid: services._lock_table(tid) for tid in sorted({from_table_id, to_table_id})}
    src_table, dst_table = locked[from_table_id], locked[to_table_id]
    for t in locked.values():
        _between_hands(t, _("players move"))
    if dst_table.status != Table.Status.OPEN:
        raise ServiceError("table_closed", _("%(dst_table)s is closed") % {"dst_table": dst_table.name})
    src = src_table.seats.select_related("player").filter(number=from_seat).first()
    dst = dst_table.seats.filter(number=to_seat).first()
    if src is None or dst is None:
        raise ServiceError("no_such_seat", _("no such seat"))
    if src.player_id is None:
        raise ServiceError("empty_seat", _("seat %(from_seat)s of %(src_table)s is empty") %
                                         {"from_seat": from_seat, "src_table": src_table.name})
    if dst.player_id is not None:
        raise ServiceError("seat_taken", _("seat %(to_seat)s of %(dst_table)s is taken") %
                                         {"to_seat": to_seat, "dst_table": dst_table.name})
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
        services._commit_table_change(t)
    step.log("move", game=game, player=player, from_table=from_table_id, from_seat=from_seat,
             to_table=to_table_id, to_seat=to_seat, stack=stack, by_floor=by_floor, big_blind_due=owes)


def move_player(from_table_id: int, from_seat: int, to_table_id: int, to_seat: int, *, actor=None) -> int:
    """The floor moves a player (seat change or another table of the same
    game) with their full table stake (000 Allgemein 12); a seat change two
    or more occupied seats away from the button owes the big blind next
    hand (000 Einsätze 4).  The freed seat is offered on.  Returns the
    room's seq.  Errors: ``no_game``, ``wrong_game``, ``empty_seat``,
    ``seat_taken``, ``no_such_seat``, ``table_closed``, ``hand_in_progress``."""
    with transaction.atomic():
        src = _game_of_table(from_table_id)
        dst = _game_of_table(to_table_id)
        if src.game_id != dst.game_id:
            raise ServiceError("wrong_game", _("moves stay within one game; put the player on the other game's "
                                               "waitlist (000 Allgemein 12)"))
        room = _lock_room(src.game.room_id)
        step = _Step(room, actor)
        player_id = Seat.objects.filter(table_id=from_table_id, number=from_seat).values_list(
            "player_id", flat=True).first()
        _move(step, src.game, from_table_id, from_seat, to_table_id, to_seat, by_floor=True)
        if src.kind == GameTable.Kind.MUST_MOVE and dst.kind == GameTable.Kind.MAIN and player_id:
            for mm in QueueEntry.objects.select_for_update().filter(
                    game=src.game, player_id=player_id, queue=QueueEntry.Queue.MUST_MOVE,
                    status__in=[QueueEntry.Status.WAITING, QueueEntry.Status.CALLED]):
                for call in Call.objects.select_for_update(of=("self",)).select_related("entry", "game").filter(
                        entry=mm, status=Call.Status.OPEN):
                    _close_call(step, call, Call.Status.CANCELLED)
                QueueEntry.objects.filter(pk=mm.pk).update(status=QueueEntry.Status.DONE)
        _fill(step, src.game)
        return step.finish()


def request_table_change(table_id: int, seat_number: int, to_table_id: int, *, actor=None) -> TableChange:
    """Record a player's wish to change to another table; it needs the
    floor's approval (000 Allgemein 12).  Errors: ``no_game``,
    ``empty_seat``, ``wrong_game``, ``invalid``."""
    with transaction.atomic():
        src = _game_of_table(table_id)
        dst = _game_of_table(to_table_id)
        if src.game_id != dst.game_id:
            raise ServiceError("wrong_game", _("a change to another game goes through its waitlist (000 Allgemein 12)"))
        if table_id == to_table_id:
            raise ServiceError("invalid", _("that is the same table"))
        room = _lock_room(src.game.room_id)
        seat = Seat.objects.select_related("player").filter(table_id=table_id, number=seat_number).first()
        if seat is None or seat.player_id is None:
            raise ServiceError("empty_seat", _("seat %(seat_number)s is empty") % {"seat_number": seat_number})
        change = TableChange.objects.create(player=seat.player, from_table_id=table_id, to_table_id=to_table_id,
                                            requested_at=timezone.now())
        step = _Step(room, actor)
        step.log("change_request", game=src.game, player=seat.player, change=change.id, from_table=table_id,
                 to_table=to_table_id)
        step.finish()
        return change


def _lock_change(change_id: int) -> tuple[Room, TableChange, GameTable]:
    change = TableChange.objects.filter(pk=change_id).first()
    if change is None:
        raise ServiceError("not_found", _("no table change request %(change_id)s") % {"change_id": change_id})
    gt = _game_of_table(change.from_table_id)
    room = _lock_room(gt.game.room_id)
    change = TableChange.objects.select_for_update().select_related("player").get(pk=change_id)
    if change.status != TableChange.Status.PENDING:
        raise ServiceError("call_closed", _("that request is %(change_status)s already") %
                                          {"change_status": change.get_status_display()})
    return room, change, gt


def approve_table_change(change_id: int, to_seat: int, *, actor=None) -> int:
    """The floor approves a table change: the player moves to ``to_seat`` of
    the table asked for with their full table stake (000 Allgemein 12).
    Returns the room's seq.  Errors: ``not_found``, ``call_closed``,
    ``seat_taken``, ``hand_in_progress``, ``empty_seat``."""
    with transaction.atomic():
        room, change, gt = _lock_change(change_id)
        seat = Seat.objects.filter(table_id=change.from_table_id, player=change.player).first()
        if seat is None:
            raise ServiceError("empty_seat", _("%(player)s is not at that table any more") %
                                             {"player": change.player.name})
        step = _Step(room, actor)
        _move(step, gt.game, change.from_table_id, seat.number, change.to_table_id, to_seat, by_floor=False)
        change.status = TableChange.Status.APPROVED
        change.save(update_fields=["status"])
        step.log("change_approve", game=gt.game, player=change.player, change=change.id)
        _fill(step, gt.game)
        return step.finish()


def refuse_table_change(change_id: int, *, actor=None) -> int:
    """The floor refuses a table change (000 Allgemein 12: the floor decides).
    Returns the room's seq.  Errors: ``not_found``, ``call_closed``."""
    with transaction.atomic():
        room, change, gt = _lock_change(change_id)
        change.status = TableChange.Status.REFUSED
        change.save(update_fields=["status"])
        step = _Step(room, actor)
        step.log("change_refuse", game=gt.game, player=change.player, change=change.id)
        return step.finish()


def set_absent(table_id: int, seat_number: int, absent: bool, *, actor=None) -> int:
    """Mark a seated player away from (or back at) their seat.  An absent
    player is still dealt in and the blinds are taken from their stake,
    but their hand is dead (000 Allgemein 6; the hand start does that).
    Returns the room's seq.  Errors: ``no_game``, ``empty_seat``,
    ``no_such_seat``."""
    with transaction.atomic():
        gt = _game_of_table(table_id)
        room = _lock_room(gt.game.room_id)
        table, seat = _locked_seat(table_id, seat_number)
        seat.absent = bool(absent)
        seat.save(update_fields=["absent"])
        services._commit_table_change(table)
        step = _Step(room, actor)
        step.log("absent" if absent else "back", game=gt.game, player=seat.player, table=table_id,
                 seat=seat_number)
        return step.finish()


def adjust_spec(table: Table, seats: list[Seat], spec: HandSpec) -> HandSpec:
    """The cash-floor part of the next hand's spec (called by
    ``tables.services.build_spec``): the game's variant (when the engine's
    ``HandSpec`` has a ``game`` field; likewise ``chip_unit``), and the big
    blind owed after a seat change two or more occupied seats away from the
    button (000 Einsätze 4) as a live post (``HandSpec.posts``: the player
    acts in turn, the post is his call, capped at the current big blind)
    unless they post a blind or straddle anyway (and not in a bomb pot or
    flip).  Tables of no game keep ``spec``."""
    gt = GameTable.objects.select_related("game").filter(table_id=table.id).first()
    if gt is None:
        return spec
    names = {f.name for f in dataclasses.fields(HandSpec)}
    changes: dict[str, Any] = {}
    if "game" in names:
        changes["game"] = gt.game.variant
    if "chip_unit" in names:
        changes["chip_unit"] = gt.game.chip_unit
    dues = blinds_due(table, seats)
    if dues and "posts" in names and not (spec.bomb_pot or spec.flip):
        blinds = spec.blinds_or_straddles
        big_blind = blinds[1] or spec.min_bet
        dealt = {s.seat: i for i, s in enumerate(spec.seats)}
        posts = []
        for seat_number, amount in sorted(dues.items()):
            pos = dealt.get(seat_number)
            if pos is not None and pos >= 2 and blinds[pos] == 0 and amount > 0:
                posts.append((seat_number, min(amount, big_blind)))
        if posts:
            changes["posts"] = tuple(posts)
    return dataclasses.replace(spec, **changes) if changes else spec


def blinds_due(table: Table, seats: list[Seat]) -> dict[int, int]:
    """Big blinds owed in the table's next hand (seat number -> chips) after
    a seat change (000 Einsätze 4): recorded since the table's last hand
    started, by the player still in that seat."""
    dues = BlindDue.objects.filter(table_id=table.id)
    if table.current_hand_id is not None:
        hand = table.current_hand
        if hand is not None and hand.started_at is not None:
            dues = dues.filter(at__gt=hand.started_at)
    players = {s.number: s.player_id for s in seats}
    return {d.seat_number: d.amount for d in dues if players.get(d.seat_number) == d.player_id}


# ---------------------------------------------------------------------------
# Lobby display links

def create_display(room_id: int, *, actor, label: str = "") -> LobbyDisplay:
    """A new unguessable display link for the room's lobby screen (managers
    only).  Errors: ``forbidden``, ``not_found``."""
    from tables.access import MANAGER, roles_of  # noqa: PLC0415

    if MANAGER not in roles_of(actor):
        raise ServiceError("forbidden", _("only a manager makes display links"))
    with transaction.atomic():
        room = _lock_room(room_id)
        display = LobbyDisplay.objects.create(room=room, token=secrets.token_urlsafe(24), label=label[:80],
                                              created_by=actor)
        step = _Step(room, actor)
        step.log("display", display=display.id, label=display.label)
        step.finish()
        return display


# ---------------------------------------------------------------------------
# Snapshots

def _initials(name: str) -> str:
    parts = [p for p in name.replace("-", " ").split() if p]
    return "".join(p[0].upper() + "." for p in parts) or "?"


def room_snapshot(room: Room, *, lobby: bool) -> dict[str, Any]:
    """The room as JSON-able data with its ``seq``.

    Shape: ``{"seq", "room": {slug, name, call_seconds, names, stacks},
    "server_time", "games": [{"id", "name", "variant", "variant_label",
    "small_blind", "big_blind", "min_buy_in", "max_buy_in", "unit",
    "open_seats", "tables": [{"name", "kind", "status", "open_seats",
    "max_seats", "seats": [{"number", "player", "absent", "stack"?}]}],
    "waitlist": [{"name", "called"}], "must_move": [...], "calls": [{"name",
    "table", "seat", "deadline", "forced", "queue"}]}]}``; chips are ints,
    times ISO 8601 (server clock: the countdown is ``deadline`` minus
    ``server_time``).

    ``lobby=True`` is the public lobby form (:func:`lobby_view`): names or
    initials (room setting), no ids, stacks only if the room allows, and
    never anything from a hand (no cards).  The floor form adds ids,
    stacks, dealers, table-change requests and the log tail.
    """
    data = _floor_snapshot(room)
    return lobby_view(data) if lobby else data


_PUBLIC_TABLE = ("name", "kind", "status", "open_seats", "max_seats")
_PUBLIC_CALL = ("name", "table", "seat", "deadline", "forced", "queue")


def lobby_view(floor: dict[str, Any]) -> dict[str, Any]:
    """The public lobby form of a floor snapshot (pure: no queries)."""
    room = floor["room"]
    show = _initials if room["names"] == Room.Names.INITIALS else (lambda n: n)
    stacks = room["stacks"]

    def seat(s: dict[str, Any]) -> dict[str, Any]:
        if s["player"] is None:
            return {"number": s["number"], "player": None}
        out = {"number": s["number"], "player": show(s["player"]), "absent": s["absent"]}
        if stacks:
            out["stack"] = s["stack"]
        return out

    games = []
    for g in floor["games"]:
        games.append({
            **{k: g[k] for k in ("name", "variant", "variant_label", "small_blind", "big_blind", "min_buy_in",
                                 "max_buy_in", "unit", "open_seats")},
            "id": g["id"],
            "tables": [{**{k: t[k] for k in _PUBLIC_TABLE}, "seats": [seat(s) for s in t["seats"]]}
                       for t in g["tables"]],
            "waitlist": [{"name": show(e["name"]), "called": e["called"]} for e in g["waitlist"]],
            "must_move": [{"name": show(e["name"]), "called": e["called"]} for e in g["must_move"]],
            "calls": [{**{k: c[k] for k in _PUBLIC_CALL}, "name": show(c["name"])} for c in g["calls"]],
        })
    return {"seq": floor["seq"], "room": dict(room), "server_time": floor["server_time"], "games": games}


def _floor_snapshot(room: Room) -> dict[str, Any]:
    """The floor form of :func:`room_snapshot` in six plain SQL statements
    (it is taken in every room mutation, so it is on the path of every
    lobby update)."""
    T = {m.__name__: m._meta.db_table for m in (Game, GameTable, Table, Seat, Player, QueueEntry, Call, TableChange,
                                                 RoomLog, Hand)}
    user_table = User._meta.db_table
    games_rows = _rows(f"SELECT id, name, variant, small_blind, big_blind, min_buy_in, max_buy_in, chip_unit "
                       f"FROM {T['Game']} WHERE room_id = %s AND is_open ORDER BY big_blind, name", [room.id])
    game_ids = [g[0] for g in games_rows]
    tables: dict[int, list[dict[str, Any]]] = {gid: [] for gid in game_ids}
    by_id: dict[int, dict[str, Any]] = {}
    for (game_id, kind, tid, tname, tstatus, max_seats, tseq, button, dealer, hand_status, number, player_id,
         player_name, stack, absent) in _rows(
            f"SELECT gt.game_id, gt.kind, t.id, t.name, t.status, t.max_seats, t.seq, t.button_seat, u.username, "
            f"h.status, s.number, s.player_id, p.name, s.stack, s.absent "
            f"FROM {T['GameTable']} gt JOIN {T['Table']} t ON t.id = gt.table_id "
            f"LEFT JOIN {user_table} u ON u.id = t.dealer_id LEFT JOIN {T['Hand']} h ON h.id = t.current_hand_id "
            f"JOIN {T['Seat']} s ON s.table_id = t.id LEFT JOIN {T['Player']} p ON p.id = s.player_id "
            f"WHERE gt.game_id = ANY(%s) ORDER BY gt.game_id, gt.kind, t.name, s.number", [game_ids]):
        table = by_id.get(tid)
        if table is None:
            table = by_id[tid] = {"id": tid, "name": tname, "kind": kind, "status": tstatus, "open_seats": 0,
                                  "max_seats": max_seats, "seats": [], "dealer": dealer, "seq": tseq,
                                  "button_seat": button, "live_hand": hand_status == "live"}
            tables[game_id].append(table)
        if player_id is None:
            table["open_seats"] += 1
            table["seats"].append({"number": number, "player": None})
        else:
            table["seats"].append({"number": number, "player": player_name, "absent": absent, "stack": stack,
                                   "player_id": player_id})
    lists: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for eid, game_id, queue, status, source, joined_at, player_id, name in _rows(
            f"SELECT e.id, e.game_id, e.queue, e.status, e.source, e.joined_at, e.player_id, p.name "
            f"FROM {T['QueueEntry']} e JOIN {T['Player']} p ON p.id = e.player_id "
            f"WHERE e.game_id = ANY(%s) AND e.status IN ('waiting', 'called') ORDER BY e.joined_at, e.id",
            [game_ids]):
        lists.setdefault((game_id, queue), []).append(
            {"name": name, "called": status == QueueEntry.Status.CALLED, "id": eid, "player_id": player_id,
             "source": source, "joined_at": joined_at.isoformat()})
    calls: dict[int, list[dict[str, Any]]] = {}
    for cid, game_id, table_id, tname, seat, deadline, forced, entry_id, queue, name in _rows(
            f"SELECT c.id, c.game_id, c.table_id, t.name, c.seat_number, c.deadline, c.forced, c.entry_id, "
            f"e.queue, p.name FROM {T['Call']} c JOIN {T['Table']} t ON t.id = c.table_id "
            f"JOIN {T['QueueEntry']} e ON e.id = c.entry_id JOIN {T['Player']} p ON p.id = e.player_id "
            f"WHERE c.game_id = ANY(%s) AND c.status = 'open' ORDER BY c.deadline, c.id", [game_ids]):
        calls.setdefault(game_id, []).append(
            {"name": name, "table": tname, "seat": seat, "deadline": deadline.isoformat(), "forced": forced,
             "queue": queue, "id": cid, "table_id": table_id, "entry_id": entry_id})
    games = []
    for gid, name, variant, sb, bb, min_buy_in, max_buy_in, unit in games_rows:
        game_tables = tables[gid]
        games.append({
            "id": gid, "name": name, "variant": variant, "variant_label": str(Game.Variant(variant).label),
            "small_blind": sb, "big_blind": bb, "min_buy_in": min_buy_in, "max_buy_in": max_buy_in, "unit": unit,
            "open_seats": sum(t["open_seats"] for t in game_tables if t["status"] == Table.Status.OPEN),
            "tables": game_tables,
            "waitlist": lists.get((gid, QueueEntry.Queue.WAITLIST), []),
            "must_move": lists.get((gid, QueueEntry.Queue.MUST_MOVE), []),
            "calls": calls.get(gid, []),
        })
    changes = [
        {"id": cid, "player": player, "from_table": from_name, "from_table_id": from_id, "to_table": to_name,
         "to_table_id": to_id}
        for cid, player, from_id, from_name, to_id, to_name in _rows(
            f"SELECT c.id, p.name, c.from_table_id, f.name, c.to_table_id, t.name FROM {T['TableChange']} c "
            f"JOIN {T['Player']} p ON p.id = c.player_id JOIN {T['Table']} f ON f.id = c.from_table_id "
            f"JOIN {T['Table']} t ON t.id = c.to_table_id JOIN {T['GameTable']} gt ON gt.table_id = c.from_table_id "
            f"WHERE c.status = 'pending' AND gt.game_id IN (SELECT id FROM {T['Game']} WHERE room_id = %s) "
            f"ORDER BY c.requested_at, c.id", [room.id])]
    log = [
        {"seq": seq, "kind": kind, "player": player, "payload": json.loads(payload) if isinstance(payload, str)
         else payload, "actor": actor, "at": at.isoformat()}
        for seq, kind, player, payload, actor, at in _rows(
            f"SELECT l.seq, l.kind, p.name, l.payload, u.username, l.at FROM {T['RoomLog']} l "
            f"LEFT JOIN {T['Player']} p ON p.id = l.player_id LEFT JOIN {user_table} u ON u.id = l.actor_id "
            f"WHERE l.room_id = %s ORDER BY l.id DESC LIMIT 15", [room.id])]
    return {
        "seq": room.seq,
        "room": {"slug": room.slug, "name": room.name, "call_seconds": room.call_seconds,
                 "names": room.lobby_names, "stacks": room.lobby_stacks},
        "server_time": timezone.now().isoformat(),
        "games": games,
        "changes": changes,
        "log": log,
    }
