"""Server-side timers of the cash-game floor.

A waitlist call runs a countdown (the room's ``call_seconds``, 000
Allgemein 15 and the room setting); when it ends unanswered the player is a
no-show, the step is recorded and the seat is offered to the next in line
(:func:`tables.room.expire_calls`).  That must happen even when no floor
dashboard is open, so the server runs it itself: :class:`FloorTimers`
wraps the ASGI application and, on the first connection it serves, starts
one background task on the server's event loop that sleeps until the next
call's deadline (at most ``POLL_SECONDS``) and then expires the due calls.

Every daphne process runs its own task; expiring is idempotent (the room
row is locked and only open calls past their deadline are closed), so
several processes never record a no-show twice.  ``FLOOR_TIMERS=off`` in
the environment switches the task off (the dashboard's countdown still
asks for the sweep).
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from channels.db import database_sync_to_async
from django.db.models import Min
from django.utils import timezone

logger = logging.getLogger(__name__)

#: The longest the task sleeps between two looks at the calls (seconds).
POLL_SECONDS = 1.0


def expire_due_calls(now=None) -> int:
    """Record a no-show for every open call past its deadline, in every
    room, and call the next players (:func:`tables.room.expire_calls` per
    room).  Returns the number of calls expired.  ``now``: an aware
    datetime (default: the server clock).  Forced must-move calls never
    expire (000 Allgemein 15: the floor moves that player)."""
    from room import services as floor_room  # noqa: PLC0415  (apps are loaded when this runs)
    from room.models import Call  # noqa: PLC0415

    now = now or timezone.now()
    room_ids = (Call.objects.filter(status=Call.Status.OPEN, forced=False, deadline__lte=now)
                .values_list("game__room_id", flat=True).distinct())
    return sum(floor_room.expire_calls(room_id, now=now) for room_id in list(room_ids))


def seconds_to_next_deadline(now=None) -> float | None:
    """Seconds from ``now`` to the earliest deadline of an open, unforced
    call (0 if one is due), or None when nobody is being called."""
    from room.models import Call  # noqa: PLC0415

    now = now or timezone.now()
    deadline = Call.objects.filter(status=Call.Status.OPEN, forced=False).aggregate(d=Min("deadline"))["d"]
    if deadline is None:
        return None
    return max(0.0, (deadline - now).total_seconds())


def _tick() -> float:
    """One look: expire what is due, return how long to sleep (seconds)."""
    expire_due_calls()
    wait = seconds_to_next_deadline()
    return POLL_SECONDS if wait is None else min(POLL_SECONDS, max(wait, 0.05))


async def run_forever() -> None:
    """The background task: :func:`expire_due_calls` whenever a deadline
    passes, for as long as the event loop runs.  An error is logged and the
    task goes on (a database restart must not stop the floor's timers)."""
    tick = database_sync_to_async(_tick)
    while True:
        try:
            wait = await tick()
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001  (logged; the timer must survive a failed look)
            logger.exception("floor timers: expiring waitlist calls failed")
            wait = POLL_SECONDS
        await asyncio.sleep(wait)


class FloorTimers:
    """ASGI middleware that starts :func:`run_forever` once per event loop,
    on the first connection (HTTP or websocket) the server passes through.

    ``FloorTimers(app)`` behaves like ``app`` otherwise.  Disabled when the
    environment says ``FLOOR_TIMERS=off``."""

    def __init__(self, app) -> None:
        self.app = app
        self.enabled = os.environ.get("FLOOR_TIMERS", "on").lower() not in ("0", "off", "false", "no")
        self._loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task | None = None

    def _ensure_started(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        self._loop = loop
        self.task = loop.create_task(run_forever(), name="pokerfloor-floor-timers")

    async def __call__(self, scope: dict[str, Any], receive, send) -> None:
        if self.enabled and scope.get("type") in ("http", "websocket"):
            self._ensure_started()
        await self.app(scope, receive, send)
