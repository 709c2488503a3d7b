"""The floor's background worker: the server's own clock for waitlist calls.

A waitlist call runs a countdown (the room's ``call_seconds``, 000
Allgemein 15 and the room setting); when it ends unanswered the player is a
no-show, the step is recorded and the seat is offered to the next in line
(the room's ``expire_calls``).  That must happen even when no floor
dashboard is open, so one long-running process does it
(``manage.py run_worker``, started by ``make run`` beside daphne): it sleeps
until the next call's deadline (at most ``POLL_SECONDS``) and expires the
calls that are due.

It is a process of its own, not part of a server process: with several
daphnes (``python -m pokerfloor.serve --workers N``, ``make run WORKERS=N``)
or several machines there is still one worker for them all.  Several
workers may run at once all the same (two machines, or a restart that overlaps):
each due call is first *claimed* with a conditional update, and a worker
goes on with a call only if its update changed that one row (see
:func:`expire_due_calls`).  The room's updates go out through the channel
layer, so lobby screens and dashboards served by daphne see them only with
a layer both processes share (``REDIS_URL``; ``make run`` starts a local
Redis for that when it finds one).  With the in-process layer the change is
recorded all the same and shows with the room's next update.

This module imports the room app; it lives in ``pokerfloor`` (which may
import every app) so that ``tables`` stays below ``room``.
"""

from __future__ import annotations

import logging
import threading

from django.db import OperationalError, close_old_connections, transaction
from django.db.models import F, Min
from django.utils import timezone

from room.models import Call, Room
from room.services import expire_calls

logger = logging.getLogger(__name__)

#: The longest the worker sleeps between two looks at the calls (seconds).
POLL_SECONDS = 1.0


def expire_due_calls(now=None) -> int:
    """Record a no-show for every open, unforced call past its deadline, in
    every room, and call the next players.  Returns the number of calls this
    worker expired.  ``now``: an aware datetime (default: the server clock).
    Forced must-move calls never expire (000 Allgemein 15: the floor moves
    that player).

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


def seconds_to_next_deadline(now=None) -> float | None:
    """Seconds from ``now`` to the earliest deadline of an open, unforced
    call (0 if one is due), or None when nobody is being called."""
    now = now or timezone.now()
    deadline = Call.objects.filter(status=Call.Status.OPEN, forced=False).aggregate(d=Min("deadline"))["d"]
    if deadline is None:
        return None
    return max(0.0, (deadline - now).total_seconds())


def tick(poll: float = POLL_SECONDS) -> float:
    """One look: expire what is due; return how long to sleep (seconds,
    between 0.05 and ``poll``)."""
    expire_due_calls()
    wait = seconds_to_next_deadline()
    return poll if wait is None else min(poll, max(wait, 0.05))


def run(stop: threading.Event, poll: float = POLL_SECONDS) -> None:
    """Look at the calls whenever a deadline passes until ``stop`` is set.
    An error is logged and the loop goes on (a database restart must not
    stop the floor's clock).  The database connection is checked and given
    back between looks, as after a request."""
    while not stop.is_set():
        close_old_connections()
        try:
            wait = tick(poll)
        except Exception:  # noqa: BLE001  (logged; the clock must survive a failed look)
            logger.exception("floor worker: expiring waitlist calls failed")
            wait = poll
        finally:
            close_old_connections()
        stop.wait(wait)
