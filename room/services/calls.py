"""Calls to open seats: who is offered a seat (000 Allgemein 15), accepting, declining, and no-shows when the countdown
runs out (``expire_calls``, also run by the floor timers).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from room.models import (
    Call,
    Game,
    GameTable,
    QueueEntry,
)
from room.services.base import (
    Step,
    move_seated,
    room_of,
    room_step,
)
from room.services.noshow import remote_no_show
from room.services.push import push_call_on_commit
from tables import services
from tables.db import rows as sql_rows
from tables.models import Seat, Table
from tables.writepath import ServiceError


def _uncalled_open_seats(game: Game) -> list[tuple[GameTable, int]]:
    """Open seats at the game's open tables that no open call of the game
    holds: main tables first, then must-move, each by table name and seat.
    One statement (it runs in every waitlist change); the GameTable rows
    only when there is a seat to offer."""
    found = sql_rows(
        f"SELECT gt.id, s.number FROM {GameTable._meta.db_table} gt "
        f"JOIN {Table._meta.db_table} t ON t.id = gt.table_id "
        f"JOIN {Seat._meta.db_table} s ON s.table_id = t.id AND s.player_id IS NULL "
        f"WHERE gt.game_id = %s AND t.status = %s AND NOT EXISTS (SELECT 1 FROM {Call._meta.db_table} c "
        f"WHERE c.game_id = gt.game_id AND c.table_id = t.id AND c.seat_number = s.number AND c.status = %s) "
        f"ORDER BY gt.kind, t.name, s.number",
        [game.id, Table.Status.OPEN, Call.Status.OPEN],
    )
    if not found:
        return []
    game_tables = GameTable.objects.select_related("table").in_bulk({gt_id for gt_id, _ in found})
    return [(game_tables[gt_id], number) for gt_id, number in found]


def _busy_player_ids(game: Game) -> set[int]:
    """Players who cannot be called now: called somewhere in the room already."""
    return set(
        Call.objects.filter(game__room_id=game.room_id, status=Call.Status.OPEN).values_list(
            "entry__player_id", flat=True
        )
    )


def _candidates(game: Game, queue: str, exclude: set[int]) -> list[QueueEntry]:
    busy = _busy_player_ids(game)
    seated = set()
    if queue == QueueEntry.Queue.WAITLIST:
        seated = set(
            Seat.objects.filter(table__game_table__game=game, player__isnull=False).values_list("player_id", flat=True)
        )
    return [
        e
        for e in game.queue.select_related("player")
        .filter(queue=queue, status=QueueEntry.Status.WAITING)
        .order_by("joined_at", "id")
        if e.id not in exclude and e.player_id not in busy and e.player_id not in seated
    ]


def _has_must_move(game: Game) -> bool:
    return game.game_tables.filter(kind=GameTable.Kind.MUST_MOVE, table__status=Table.Status.OPEN).exists()


def _call(
    step: Step, game: Game, gt: GameTable, seat_number: int, entry: QueueEntry, *, declined=(), forced: bool = False
) -> Call:
    now = timezone.now()
    call = Call.objects.create(
        game=game,
        table=gt.table,
        seat_number=seat_number,
        entry=entry,
        forced=forced,
        declined=list(declined),
        called_at=now,
        deadline=now + dt.timedelta(seconds=step.room.call_seconds),
    )
    entry.status = QueueEntry.Status.CALLED
    entry.save(update_fields=["status"])
    if entry.source == QueueEntry.Source.REMOTE:  # the phone gets the call even with its page closed (issue 29)
        push_call_on_commit(call.id)
    step.log(
        "call",
        game=game,
        player=entry.player,
        call=call.id,
        table=gt.table_id,
        seat=seat_number,
        queue=entry.queue,
        forced=forced,
        deadline=call.deadline.isoformat(),
    )
    return call


def _offer(step: Step, game: Game, gt: GameTable, seat_number: int, declined: list[int]) -> Call | None:
    """Offer one open seat to the next player in line, or None.

    000 Allgemein 15: a main-table seat goes to the must-move order first
    (asked in order; if all say no, the first must move); new players start
    at the must-move table, in waitlist order.  Without must-move tables
    every seat goes to the waitlist."""
    if gt.kind == GameTable.Kind.MAIN and _has_must_move(game):
        movers = game.queue.filter(
            queue=QueueEntry.Queue.MUST_MOVE, status__in=[QueueEntry.Status.WAITING, QueueEntry.Status.CALLED]
        )
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


def fill_open_seats(step: Step, game: Game) -> list[Call]:
    """Call the next players for every open seat of the game without a call."""
    calls: list[Call] = []
    if not game.is_open:
        return calls
    nobody_for: set[str] = set()  # table kinds whose seats found nobody in line
    for gt, number in _uncalled_open_seats(game):
        if gt.kind in nobody_for:
            continue  # nothing changed since: the next seat of that kind finds nobody either
        call = _offer(step, game, gt, number, [])
        if call is not None:
            calls.append(call)
        else:
            nobody_for.add(gt.kind)
    return calls


def call_open_seats(game_id: int, *, actor=None) -> list[Call]:
    """Offer every open seat of a game that has no call yet to the next in
    line (the seat-opened trigger; also the floor's "call" button).
    Errors: ``not_found``."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", _("no game %(game_id)s") % {"game_id": game_id})
    with transaction.atomic():  # two steps (each its own seq and broadcast), one transaction
        with room_step(game.room_id, actor) as step:
            _expire(step, timezone.now())
        with room_step(game.room_id, actor) as step:
            calls = fill_open_seats(step, game)
            step.finish()
    return calls


def seat_opened(table_id: int, seat_number: int | None = None, *, actor=None) -> list[Call]:
    """A seat opened at a table (the tablet's unseat, a leave): call the next
    player(s) of its game.  Tables of no game are ignored (returns [])."""
    gt = GameTable.objects.filter(table_id=table_id).first()
    if gt is None:
        return []
    return call_open_seats(gt.game_id, actor=actor)


def close_call(step: Step, call: Call, status: str) -> None:
    call.status = status
    call.save(update_fields=["status"])
    entry = call.entry
    if status in (Call.Status.CANCELLED,) or (
        entry.queue == QueueEntry.Queue.MUST_MOVE and status in (Call.Status.DECLINED, Call.Status.EXPIRED)
    ):
        entry.status = QueueEntry.Status.WAITING
    elif status in (Call.Status.DECLINED, Call.Status.EXPIRED):
        entry.status = QueueEntry.Status.REMOVED
    elif status == Call.Status.ACCEPTED:
        entry.status = QueueEntry.Status.DONE
    entry.save(update_fields=["status"])
    if status == Call.Status.EXPIRED and entry.source == QueueEntry.Source.REMOTE and entry.queue == "waitlist":
        remote_no_show(step, entry)  # down or off the list, as the room sets (issue 29)
    kind: str = {
        Call.Status.DECLINED: "decline",
        Call.Status.EXPIRED: "no_show",
        Call.Status.CANCELLED: "call_cancel",
        Call.Status.ACCEPTED: "accept",
    }[Call.Status(status)]
    step.log(
        kind,
        game=call.game,
        player=entry.player,
        call=call.id,
        table=call.table_id,
        seat=call.seat_number,
        queue=entry.queue,
    )


def _room_of_call(call_id: int) -> int:
    """The room id of a call; ``not_found`` if there is no such call."""
    room_id = room_of("call", call_id)
    if room_id is None:
        raise ServiceError("not_found", _("no call %(call_id)s") % {"call_id": call_id})
    return room_id


def _locked_open_call(call_id: int) -> Call:
    """Lock an open call (its room is locked already); ``call_closed`` if it is not open any more."""
    call = (
        Call.objects.select_for_update(of=("self",))
        .select_related("game", "table", "entry", "entry__player")
        .get(pk=call_id)
    )
    if call.status != Call.Status.OPEN:
        raise ServiceError(
            "call_closed", _("that call is %(call_status)s already") % {"call_status": call.get_status_display()}
        )
    return call


def _next_after(step: Step, call: Call) -> Call | None:
    gt = GameTable.objects.select_related("table").get(table_id=call.table_id)
    if (
        gt.table.status != Table.Status.OPEN
        or gt.table.seats.filter(number=call.seat_number, player__isnull=False).exists()
    ):
        return None
    return _offer(step, call.game, gt, call.seat_number, [*call.declined, call.entry_id])


def accept_call(call_id: int, *, actor=None) -> Call:
    """The called player takes the seat: a waitlist player is seated with no
    chips yet (next: :func:`buy_in`) and, at a must-move table, joins the
    must-move order (000 Allgemein 15); a must-move player moves with their
    whole table stake (000 Allgemein 12); the seat they leave is offered on.
    Errors: ``not_found``, ``call_closed``, ``expired`` (deadline passed:
    recorded as a no-show and the next player called), ``hand_in_progress``."""
    room_id = _room_of_call(call_id)
    with room_step(room_id, actor) as step:
        call = _locked_open_call(call_id)
        if call.deadline <= timezone.now() and not call.forced:
            close_call(step, call, Call.Status.EXPIRED)
            _next_after(step, call)
            step.finish()
            expired = True
        else:
            expired = False
    if expired:
        raise ServiceError("expired", _("the countdown ran out: the next player was called"))
    with room_step(room_id, actor) as step:
        call = _locked_open_call(call_id)
        entry, game = call.entry, call.game
        gt = GameTable.objects.get(table_id=call.table_id)
        if entry.queue == QueueEntry.Queue.MUST_MOVE:
            seat = Seat.objects.filter(player=entry.player, table__game_table__game=game).first()
            if seat is None:
                raise ServiceError(
                    "not_found",
                    _("%(player)s is not seated in %(game)s") % {"player": entry.player.name, "game": game.name},
                )
            close_call(step, call, Call.Status.ACCEPTED)
            move_seated(step, game, seat.table_id, seat.number, call.table_id, call.seat_number, by_floor=True)
        else:
            close_call(step, call, Call.Status.ACCEPTED)
            services.seat_player(call.table_id, call.seat_number, entry.player, 0)
            step.log("seat", game=game, player=entry.player, table=call.table_id, seat=call.seat_number)
            if gt.kind == GameTable.Kind.MUST_MOVE:
                mm = QueueEntry.objects.create(
                    game=game,
                    player=entry.player,
                    queue=QueueEntry.Queue.MUST_MOVE,
                    source=QueueEntry.Source.SEATED,
                    joined_at=entry.joined_at,
                )
                step.log("must_move_add", game=game, player=entry.player, entry=mm.id)
        fill_open_seats(step, game)
        step.finish()
        return call


def decline_call(call_id: int, *, actor=None) -> Call | None:
    """The called player says no: the next in line is called and returned
    (None if nobody is left).  A waitlist player leaves that list; a
    must-move player keeps their place; when every must-move player said no
    the first one must move (a forced call, which cannot be declined;
    000 Allgemein 15).  Errors: ``not_found``, ``call_closed``,
    ``must_move``."""
    with room_step(_room_of_call(call_id), actor) as step:
        call = _locked_open_call(call_id)
        if call.forced:
            raise ServiceError(
                "must_move",
                _("%(player)s must move: everyone else declined (000 Allgemein 15)")
                % {"player": call.entry.player.name},
            )
        close_call(step, call, Call.Status.DECLINED)
        nxt = _next_after(step, call)
        step.finish()
        return nxt


def _expire(step: Step, now) -> int:
    n = 0
    for call in (
        Call.objects.select_for_update(of=("self",))
        .select_related("game", "entry", "entry__player")
        .filter(game__room=step.room, status=Call.Status.OPEN, forced=False, deadline__lte=now)
        .order_by("deadline", "id")
    ):
        close_call(step, call, Call.Status.EXPIRED)
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
    with room_step(room_id, actor) as step:
        return _expire(step, now or timezone.now())
