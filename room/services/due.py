"""Waitlist calls that ran out: the room's side of the floor worker (``pokerfloor.worker``
only schedules; it asks this module what is due and when the next call runs out).

A call runs a countdown (the room's ``call_seconds``, 000 Allgemein 15); when it ends
unanswered the player is a no-show and the seat goes to the next in line
(:func:`room.services.calls.expire_calls`).  Forced must-move calls never run out
(000 Allgemein 15: the floor moves that player).
"""

from __future__ import annotations

import datetime
import logging

from django.db import OperationalError, transaction
from django.db.models import F, Min
from django.utils import timezone

from room.models import Call, Room
from room.services.calls import expire_calls

__all__ = ["expire_due_calls", "next_call_deadline"]

logger = logging.getLogger("pokerfloor.worker")


def expire_due_calls(now: datetime.datetime | None = None) -> int:
    """Record a no-show for every open, unforced call past its deadline, in
    every room, and call the next players.  Returns the number of calls this
    worker expired.  ``now``: an aware datetime (default: the server clock).

    Each due call is claimed in its own transaction, in the style of a job
    queue: ``UPDATE … WHERE id = %s AND status = 'open' AND deadline <= now``
    takes the call's row lock and, if another worker (or the floor) is
    closing that call, waits for it and re-checks the condition after its
    commit; a worker goes on only when its update changed one row.  It then
    takes the room's lock without waiting (a room busy with a floor action is
    left for the next look, so the claim never waits for the room while
    holding the call, which the room's services lock the other way round)
    and runs the room's ``expire_calls``, which closes every due call of the
    room under that lock.  So two workers never record a no-show twice."""
    now = now or timezone.now()
    due = list(
        Call.objects.filter(status=Call.Status.OPEN, forced=False, deadline__lte=now)
        .order_by("deadline", "id")
        .values_list("id", "game__room_id")
    )
    expired = 0
    for call_id, room_id in due:
        try:
            with transaction.atomic():
                claimed = Call.objects.filter(
                    id=call_id, status=Call.Status.OPEN, forced=False, deadline__lte=now
                ).update(deadline=F("deadline"))
                if claimed != 1:
                    continue  # closed meanwhile, by the floor or another worker
                list(Room.objects.select_for_update(no_key=True, nowait=True).filter(pk=room_id).values_list("pk"))
                expired += expire_calls(room_id, now=now)
        except OperationalError:
            logger.info("floor worker: room %s is busy; its due calls wait for the next look", room_id)
    return expired


def next_call_deadline() -> datetime.datetime | None:
    """The earliest deadline of an open, unforced call in any room (aware datetime), or None
    when nobody is being called."""
    return Call.objects.filter(status=Call.Status.OPEN, forced=False).aggregate(d=Min("deadline"))["d"]
