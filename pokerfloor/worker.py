"""The floor's background worker: the server's own clock for waitlist calls and for "Time".

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
:func:`room.services.due.expire_due_calls`: the waitlist's side lives in the room app, this
module only schedules).  The room's updates go out through the channel
layer, so lobby screens and dashboards served by daphne see them only with
a layer both processes share (``REDIS_URL``; ``make run`` starts a local
Redis for that when it finds one).  With the in-process layer the change is
recorded all the same and shows with the room's next update.

"Time" called on a player (004 #29, 001 6.13) runs out the same way: at the
clock's deadline the worker applies the house rule's effect as the player's
action (:func:`expire_due_clocks`), recorded by nobody (the server) with the
rule's citation, whether or not a tablet or a dashboard is open.  No page
expires a clock any more (issue 24: a floor dashboard that opened after the
deadline recorded the fold as the floorman's).

A tournament clock that reaches the next level by itself shows it on the
tables between hands within a poll (:func:`push_due_levels`), as the
director's clock buttons do at once.

The dealers' push schedule pushes by the clock (issue 28): when the next push is due the worker pushes
as the floor's tap would, by nobody ("system" on the rotation board; :func:`tables.dealers.push_if_due`),
and the tablets hear of it.

This module imports the room app; it lives in ``pokerfloor`` (which may
import every app) so that ``tables`` stays below ``room``.
"""

from __future__ import annotations

import datetime
import logging
import threading

from django.db import close_old_connections, connection
from django.utils import timezone

from room.services import expire_due_calls, next_call_deadline
from tables.dealers import next_push_at, push_if_due
from tables.models import Hand, Table
from tables.services import ServiceError, expire_time

logger = logging.getLogger(__name__)

#: The longest the worker sleeps between two looks at the calls (seconds).
POLL_SECONDS = 1.0


#: The running clocks of live hands, by deadline: ``(table id, hand id, clock event index, deadline)``.  A
#: clock whose rulebook sets no effect (``floor_decides``, 000: the floor rules) is left to the floor.
_CLOCKS_SQL = (
    f"SELECT t.id, h.id, (h.snapshot->'clock'->>'index')::bigint, (h.snapshot->'clock'->>'deadline')::timestamptz "
    f"FROM {Table._meta.db_table} t JOIN {Hand._meta.db_table} h ON h.id = t.current_hand_id "
    f"WHERE h.status = 'live' AND jsonb_typeof(h.snapshot->'clock') = 'object' "
    f"AND NOT coalesce((h.snapshot->'clock'->>'floor_decides')::boolean, false) "
    f"ORDER BY 4"
)


def _running_clocks() -> list[tuple[int, int, int, datetime.datetime]]:
    with connection.cursor() as cursor:
        cursor.execute(_CLOCKS_SQL)
        return cursor.fetchall()


def expire_due_clocks(now=None) -> int:
    """Apply the house rule's effect for every "Time" clock past its deadline
    (``tables.services.expire_time``: 004 #29 dead facing a bet, else a
    check; 001 6.13 the hand is dead), by nobody (``actor=None``: the
    server), its citation in the event.  Returns how many this worker
    expired.  ``now``: an aware datetime (default: the server clock).

    Several workers are safe: each expiry is one step of the table's write
    path, which takes the table's row lock and looks at the clock again
    under it (a clock another worker, or the player's action, ended is
    refused as ``no_clock`` and skipped); its ``client_id`` names the hand
    and the clock (``time-<hand>-<index>``), so a second report of the same
    expiry is answered as a duplicate and never recorded twice.  A table
    busy with a long step is left for the next look (the write path's lock
    timeout)."""
    now = now or timezone.now()
    expired = 0
    for table_id, hand_id, index, deadline in _running_clocks():
        if deadline is None or deadline > now:
            break  # ordered by deadline: the rest are not due
        try:
            outcome = expire_time(table_id, actor=None, client_id=f"time-{hand_id}-{index}", now=now)
        except ServiceError as exc:  # ended meanwhile (no_clock), busy, or the clock is the floor's
            logger.info("floor worker: time at table %s not expired: %s", table_id, exc.code)
            continue
        expired += 0 if outcome.duplicate else 1
    return expired


#: tournament id -> the stakes (``floor_tables.stakes_of``) this worker last sent its tables.
_levels_shown: dict[int, dict] = {}


def push_due_levels(now: float | None = None) -> int:
    """Show a new level on the tournament tables when the clock reaches it by
    itself (001 Neues Limit, 004 #23: the next hand plays it), without a
    director's button and without waiting for the tables' next hand: each
    running tournament whose level in force (``current_level``) differs from
    the one this worker last saw gets ``push_level_to_tables`` (its tables
    between hands take the stakes and send their snapshot; a table in a hand
    keeps the hand's). Returns how many tables changed. ``now``: epoch seconds
    (default the server clock). The first look after a start pushes once for
    every running tournament (a table already showing the level is left as it
    is)."""
    from tournaments.models import Tournament
    from tournaments.services.clock import push_level_to_tables
    from tournaments.services.floor_tables import current_level, stakes_of

    changed = 0
    running = set()
    for t in Tournament.objects.filter(status=Tournament.Status.RUNNING, clock_started_at__isnull=False):
        running.add(t.id)
        stakes = stakes_of(current_level(t, now))
        if _levels_shown.get(t.id) == stakes:
            continue
        changed += len(push_level_to_tables(t.id, now=now))
        _levels_shown[t.id] = stakes
    for gone in set(_levels_shown) - running:
        del _levels_shown[gone]
    return changed


def seconds_to_next_deadline(now=None) -> float | None:
    """Seconds from ``now`` to the earliest deadline of an open, unforced
    call or of a running "Time" clock (0 if one is due), or None when
    nobody is being called and no clock runs."""
    now = now or timezone.now()
    deadline = next_call_deadline()
    clocks = [row[3] for row in _running_clocks() if row[3] is not None]
    push_at = next_push_at()
    if push_at is not None and push_at <= now:
        push_at = None  # due but not possible yet (takeovers pending, nobody on a break): the next poll looks
    deadlines = [d for d in (deadline, *clocks[:1], push_at) if d is not None]
    if not deadlines:
        return None
    return max(0.0, (min(deadlines) - now).total_seconds())


def tick(poll: float = POLL_SECONDS) -> float:
    """One look: expire what is due, show the tournament levels the clocks
    reached, push the dealers when the push is due; return how long to sleep (seconds, between 0.05 and ``poll``)."""
    expire_due_calls()
    expire_due_clocks()
    push_due_levels()
    push_if_due()
    wait = seconds_to_next_deadline()
    return poll if wait is None else min(poll, max(wait, 0.05))


def unshared_layer_warning() -> str | None:
    """The warning the worker prints at start when its channel layer is the in-process one (no
    ``REDIS_URL``): what it records (no-shows, Time's fold) then reaches no screen until the next
    change made in a server process; None when the layer is shared."""
    from django.conf import settings

    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    if "InMemory" not in backend:
        return None
    return (
        "floor worker: no shared channel layer (REDIS_URL is not set): what it records reaches "
        "the screens only with the next change made in a server process"
    )


def run(stop: threading.Event, poll: float = POLL_SECONDS) -> None:
    """Look at the calls whenever a deadline passes until ``stop`` is set.
    An error is logged and the loop goes on (a database restart must not
    stop the floor's clock).  The database connection is checked and given
    back between looks, as after a request."""
    while not stop.is_set():
        close_old_connections()
        try:
            wait = tick(poll)
        except Exception:  # logged; the clock must survive a failed look
            logger.exception("floor worker: expiring waitlist calls or clocks failed")
            wait = poll
        finally:
            close_old_connections()
        stop.wait(wait)
