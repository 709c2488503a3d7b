"""Moves within a game: the floor's moves and seat changes, must-move players reaching the main table, and table-change
requests (000 Allgemein 12, 15; 000 Einsätze 4).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from room.models import (
    Call,
    GameTable,
    QueueEntry,
    TableChange,
)
from room.services.base import (
    game_of_table,
    move_seated,
    room_step,
)
from room.services.calls import close_call, fill_open_seats
from tables.models import Seat
from tables.writepath import ServiceError


def move_player(from_table_id: int, from_seat: int, to_table_id: int, to_seat: int, *, actor=None) -> int:
    """The floor moves a player (seat change or another table of the same
    game) with their full table stake (000 Allgemein 12); a seat change two
    or more occupied seats away from the button owes the big blind next
    hand (000 Einsätze 4).  The freed seat is offered on.  Returns the
    room's seq.  Errors: ``no_game``, ``wrong_game``, ``empty_seat``,
    ``seat_taken``, ``no_such_seat``, ``table_closed``, ``hand_in_progress``."""
    src = game_of_table(from_table_id)
    dst = game_of_table(to_table_id)
    if src.game_id != dst.game_id:
        raise ServiceError(
            "wrong_game",
            _("moves stay within one game; put the player on the other game's waitlist (000 Allgemein 12)"),
        )
    with room_step(src.game.room_id, actor) as step:
        player_id = (
            Seat.objects.filter(table_id=from_table_id, number=from_seat).values_list("player_id", flat=True).first()
        )
        move_seated(step, src.game, from_table_id, from_seat, to_table_id, to_seat, by_floor=True)
        if src.kind == GameTable.Kind.MUST_MOVE and dst.kind == GameTable.Kind.MAIN and player_id:
            for mm in QueueEntry.objects.select_for_update().filter(
                game=src.game,
                player_id=player_id,
                queue=QueueEntry.Queue.MUST_MOVE,
                status__in=[QueueEntry.Status.WAITING, QueueEntry.Status.CALLED],
            ):
                for call in (
                    Call.objects.select_for_update(of=("self",))
                    .select_related("entry", "game")
                    .filter(entry=mm, status=Call.Status.OPEN)
                ):
                    close_call(step, call, Call.Status.CANCELLED)
                QueueEntry.objects.filter(pk=mm.pk).update(status=QueueEntry.Status.DONE)
        fill_open_seats(step, src.game)
        return step.finish()


def request_table_change(table_id: int, seat_number: int, to_table_id: int, *, actor=None) -> TableChange:
    """Record a player's wish to change to another table; it needs the
    floor's approval (000 Allgemein 12).  Errors: ``no_game``,
    ``empty_seat``, ``wrong_game``, ``invalid``."""
    src = game_of_table(table_id)
    dst = game_of_table(to_table_id)
    if src.game_id != dst.game_id:
        raise ServiceError("wrong_game", _("a change to another game goes through its waitlist (000 Allgemein 12)"))
    if table_id == to_table_id:
        raise ServiceError("invalid", _("that is the same table"))
    with room_step(src.game.room_id, actor) as step:
        seat = Seat.objects.select_related("player").filter(table_id=table_id, number=seat_number).first()
        if seat is None or seat.player_id is None:
            raise ServiceError("empty_seat", _("seat %(seat_number)s is empty") % {"seat_number": seat_number})
        change = TableChange.objects.create(
            player=seat.occupant, from_table_id=table_id, to_table_id=to_table_id, requested_at=timezone.now()
        )
        step.log(
            "change_request",
            game=src.game,
            player=seat.player,
            change=change.id,
            from_table=table_id,
            to_table=to_table_id,
        )
        step.finish()
        return change


def _game_of_change(change_id: int) -> GameTable:
    """The game of a table-change request (of the table it leaves);
    ``not_found``, ``no_game``."""
    from_table_id = TableChange.objects.filter(pk=change_id).values_list("from_table_id", flat=True).first()
    if from_table_id is None:
        raise ServiceError("not_found", _("no table change request %(change_id)s") % {"change_id": change_id})
    return game_of_table(from_table_id)


def _locked_pending_change(change_id: int) -> TableChange:
    """Lock a pending table-change request (its room is locked already); ``call_closed`` if it is decided."""
    change = TableChange.objects.select_for_update().select_related("player").get(pk=change_id)
    if change.status != TableChange.Status.PENDING:
        raise ServiceError(
            "call_closed",
            _("that request is %(change_status)s already") % {"change_status": change.get_status_display()},
        )
    return change


def approve_table_change(change_id: int, to_seat: int, *, actor=None) -> int:
    """The floor approves a table change: the player moves to ``to_seat`` of
    the table asked for with their full table stake (000 Allgemein 12).
    Returns the room's seq.  Errors: ``not_found``, ``call_closed``,
    ``seat_taken``, ``hand_in_progress``, ``empty_seat``."""
    gt = _game_of_change(change_id)
    with room_step(gt.game.room_id, actor) as step:
        change = _locked_pending_change(change_id)
        seat = Seat.objects.filter(table_id=change.from_table_id, player=change.player).first()
        if seat is None:
            raise ServiceError(
                "empty_seat", _("%(player)s is not at that table any more") % {"player": change.player.name}
            )
        move_seated(step, gt.game, change.from_table_id, seat.number, change.to_table_id, to_seat, by_floor=False)
        change.status = TableChange.Status.APPROVED
        change.save(update_fields=["status"])
        step.log("change_approve", game=gt.game, player=change.player, change=change.id)
        fill_open_seats(step, gt.game)
        return step.finish()


def refuse_table_change(change_id: int, *, actor=None) -> int:
    """The floor refuses a table change (000 Allgemein 12: the floor decides).
    Returns the room's seq.  Errors: ``not_found``, ``call_closed``."""
    gt = _game_of_change(change_id)
    with room_step(gt.game.room_id, actor) as step:
        change = _locked_pending_change(change_id)
        change.status = TableChange.Status.REFUSED
        change.save(update_fields=["status"])
        step.log("change_refuse", game=gt.game, player=change.player, change=change.id)
        return step.finish()
