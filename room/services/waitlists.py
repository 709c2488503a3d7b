"""Waitlists: walk-ins and phone-ins on and off a game's list, and the floor seating a listed player directly (000
Allgemein 12, 15).
"""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from room.models import (
    Call,
    Game,
    GameTable,
    QueueEntry,
)
from room.services.base import (
    game_of_table,
    move_seated,
    player_of,
    room_of,
    room_step,
)
from room.services.calls import close_call, fill_open_seats
from tables import services
from tables.models import Player, Seat
from tables.players import check_may_play
from tables.writepath import ServiceError


def add_to_waitlist(
    game_id: int, player: Player | str | int, *, source: str = QueueEntry.Source.WALK_IN, actor=None
) -> QueueEntry:
    """Put a walk-in or phone-in on a game's waitlist (a player may be on
    several lists, 000 Allgemein 12).  If a seat is open it is offered at
    once.  Errors: ``not_found``, ``invalid``, ``already_listed``,
    ``already_seated``, ``barred`` (:func:`tables.players.check_may_play`)."""
    if source not in (QueueEntry.Source.WALK_IN, QueueEntry.Source.PHONE_IN, QueueEntry.Source.REMOTE):
        raise ServiceError("invalid", _("source is walk_in or phone_in"))
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", _("no game %(game_id)s") % {"game_id": game_id})
    with room_step(game.room_id, actor) as step:
        player = player_of(player)
        check_may_play(player)  # a barred or self-excluded player is refused, the reason to staff (issue 28)
        if QueueEntry.objects.filter(
            game=game,
            player=player,
            queue=QueueEntry.Queue.WAITLIST,
            status__in=[QueueEntry.Status.WAITING, QueueEntry.Status.CALLED],
        ).exists():
            raise ServiceError(
                "already_listed",
                _("%(player)s is on the %(game)s list already") % {"player": player.name, "game": game.name},
            )
        if Seat.objects.filter(player=player, table__game_table__game=game).exists():
            raise ServiceError(
                "already_seated", _("%(player)s plays in %(game)s already") % {"player": player.name, "game": game.name}
            )
        entry = QueueEntry.objects.create(game=game, player=player, source=source, joined_at=timezone.now())
        step.log("waitlist_add", game=game, player=player, entry=entry.id, source=source)
        fill_open_seats(step, game)
        step.finish()
    entry.refresh_from_db()
    return entry


def remove_from_waitlist(entry_id: int, *, actor=None) -> int:
    """Take a player off a list (an open call of theirs is cancelled and the
    seat offered to the next).  Returns the room's seq.  Errors:
    ``not_found``."""
    with room_step(_room_of_entry(entry_id), actor) as step:
        entry = QueueEntry.objects.select_for_update().select_related("game", "player").get(pk=entry_id)
        if entry.status not in (QueueEntry.Status.WAITING, QueueEntry.Status.CALLED):
            raise ServiceError(
                "not_found", _("%(player)s is not on that list any more") % {"player": entry.player.name}
            )
        if entry.status == QueueEntry.Status.CALLED:  # only a called entry has an open call
            for call in Call.objects.select_for_update().filter(entry=entry, status=Call.Status.OPEN):
                close_call(step, call, Call.Status.CANCELLED)
        entry.status = QueueEntry.Status.REMOVED
        entry.save(update_fields=["status"])
        step.log("waitlist_remove", game=entry.game, player=entry.player, entry=entry.id, queue=entry.queue)
        fill_open_seats(step, entry.game)
        return step.finish()


def _room_of_entry(entry_id: int) -> int:
    """The room id of a list entry; ``not_found`` if there is no such entry."""
    room_id = room_of("entry", entry_id)
    if room_id is None:
        raise ServiceError("not_found", _("no list entry %(entry_id)s") % {"entry_id": entry_id})
    return room_id


def seat_from_list(entry_id: int, table_id: int, seat_number: int, *, actor=None) -> int:
    """The floor seats a waitlist player directly at an open seat of the
    game (one tap), without a countdown; an open call for that seat is
    cancelled.  Returns the room's seq.  Errors: ``not_found``, ``no_game``,
    ``wrong_game``, ``seat_taken``, ``hand_in_progress``."""
    with room_step(_room_of_entry(entry_id), actor) as step:
        entry = QueueEntry.objects.select_for_update().select_related("game", "player").get(pk=entry_id)
        if entry.status not in (QueueEntry.Status.WAITING, QueueEntry.Status.CALLED):
            raise ServiceError(
                "not_found", _("%(player)s is not on that list any more") % {"player": entry.player.name}
            )
        gt = game_of_table(table_id)
        if gt.game_id != entry.game_id:
            raise ServiceError(
                "wrong_game", _("%(table)s is not a %(game)s table") % {"table": gt.table.name, "game": entry.game.name}
            )
        for call in (
            Call.objects.select_for_update(of=("self",))
            .select_related("entry", "game")
            .filter(status=Call.Status.OPEN)
            .filter(_calls_to_cancel(entry, table_id, seat_number))
        ):
            close_call(step, call, Call.Status.CANCELLED)
        entry.refresh_from_db()
        game = entry.game
        if entry.queue == QueueEntry.Queue.MUST_MOVE:
            seat = Seat.objects.filter(player=entry.player, table__game_table__game=game).first()
            if seat is None:
                raise ServiceError(
                    "not_found",
                    _("%(player)s is not seated in %(game)s") % {"player": entry.player.name, "game": game.name},
                )
            entry.status = QueueEntry.Status.DONE
            entry.save(update_fields=["status"])
            move_seated(step, game, seat.table_id, seat.number, table_id, seat_number, by_floor=True)
        else:
            services.seat_player(table_id, seat_number, entry.player, 0)
            entry.status = QueueEntry.Status.DONE
            entry.save(update_fields=["status"])
            step.log("seat", game=game, player=entry.player, table=table_id, seat=seat_number, direct=True)
            if gt.kind == GameTable.Kind.MUST_MOVE:
                QueueEntry.objects.create(
                    game=game,
                    player=entry.player,
                    queue=QueueEntry.Queue.MUST_MOVE,
                    source=QueueEntry.Source.SEATED,
                    joined_at=entry.joined_at,
                )
                step.log("must_move_add", game=game, player=entry.player)
        fill_open_seats(step, game)
        return step.finish()


def _calls_to_cancel(entry: QueueEntry, table_id: int, seat_number: int):
    """Open calls to cancel when the floor seats ``entry`` directly: theirs, and the seat's."""
    return Q(entry=entry) | Q(table_id=table_id, seat_number=seat_number)
