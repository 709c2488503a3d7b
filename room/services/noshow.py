"""A remote entry's no-show (issue 29): the call ran out (no answer, or "On my way" without arriving in the
arrival window), so the seat went to the next player; the entry moves down the list or off it, as the room
sets (``Room.remote_no_show``, ``Room.no_show_places``).  Walk-ins are untouched (off the list, as before).
"""

from __future__ import annotations

import datetime as dt

from room.models import QueueEntry, RemoteEntry


def remote_no_show(step, entry: QueueEntry) -> None:
    """Called by ``close_call`` for an expired call of a remote ``entry`` (its status is ``removed`` already):
    with the room's ``down`` setting and a first no-show, the entry waits again ``no_show_places`` places
    further down (behind the players it passes; at the end of a shorter list), logged ``remote_moved_down``;
    otherwise it stays off the list, logged ``remote_off``.  The call's seat goes to the next player either
    way (the entry is among the call's declined ones)."""
    room = step.room
    remote = RemoteEntry.objects.filter(entry=entry).first()
    if remote is None:
        return
    remote.no_shows += 1
    remote.on_my_way_at = None
    remote.more_time_used = False
    remote.save(update_fields=["no_shows", "on_my_way_at", "more_time_used"])
    if room.remote_no_show != "down" or remote.no_shows > 1:
        step.log("remote_off", game=entry.game, player=entry.player, entry=entry.pk)
        return
    behind = list(
        QueueEntry.objects.filter(game=entry.game, queue=entry.queue, status=QueueEntry.Status.WAITING)
        .exclude(pk=entry.pk)
        .filter(joined_at__gte=entry.joined_at)
        .order_by("joined_at", "id")[: room.no_show_places]
    )
    if behind:
        entry.joined_at = behind[-1].joined_at + dt.timedelta(microseconds=1)
    entry.status = QueueEntry.Status.WAITING
    entry.save(update_fields=["status", "joined_at"])
    step.log("remote_moved_down", game=entry.game, player=entry.player, entry=entry.pk, places=len(behind))
