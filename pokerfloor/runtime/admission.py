"""Admission control for websocket connects: a bounded number in progress, the rest told when to retry.

Why: a connect costs the server a session read, a right check and a snapshot on the two read threads
(:mod:`pokerfloor.runtime.threads`).  When 1,000 tablets connect at once (after a restart), they all
queue there; daphne gives each handshake 5 s (``--websocket_connect_timeout``) and then drops it, the
client retries, and the server still does the dropped connect's work (and logs "Application instance
... took too long to shut down and was killed" for it).  The queue never drains: a reconnect loop.

:class:`Admission` keeps at most ``limit`` connects in progress per process (from the handshake to the
connect's accept, first message sent or close: a floor dashboard accepts before it waits for its share of
the one read of the room, which holds no slot meanwhile).  A connect beyond that waits in a bounded queue for its turn
when its turn comes within ``queue_wait`` seconds at the rate this process completes connects (:meth:`rate`:
the connects completed during the last second, or the connects let in at once divided by the mean connect
time when that is more: a quiet second completes few because few came); the queue is served first come,
first served, and a connect that waited ``queue_wait`` without its turn is refused.
Without the queue every connect beyond the limit was refused and came back after at least a fifth of a
second and its jitter, although the slots freed within milliseconds: a storm of cheap connects took
several times as long as the same storm served at once (``bench/RESULTS.md``, "Connect storm ...").

A connect refused (the queue full, or its wait over) is accepted, told ``{"type": "retry", "after_ms":
<ms>}`` and closed at once with :data:`CLOSE_RETRY` (the wait is a message because daphne drops a close's
reason): how long the connects waiting now take to drain at that rate (the connects queued and those
refused during the last second, divided by the rate; at least :data:`MIN_RETRY_MS`, at most
:data:`MAX_RETRY_MS`, the pages' own longest backoff).  The client waits that long times a random factor
(0.5-1.5, ``static/js/socket.js``), so the retries spread over the time the server needs instead of
arriving together.  (A hint from the mean connect time alone told a storm's tablets to wait the longest
it allows because the floor dashboards' first connects, each waiting for one read of the whole room, were
slow, while the tablets' connects went on completing by the hundred: ``bench/RESULTS.md``.)  A refusal costs a handshake and no database work, a
place in the queue a waiting task.

The server's log says when pages wait: a warning when a slow connect cuts the connects let in at once, and
one per second at most while connects are refused (how many, in progress, waiting, the wait told).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any

#: The close code meaning "the server is busy: try again in the reason's milliseconds".
CLOSE_RETRY = 4503
MIN_RETRY_MS = 200
MAX_RETRY_MS = 8_000
#: Seconds of refusals and completions counted for the rate and the hint.
WINDOW = 1.0
#: A connect slower than this (s) halves the connects let in at once (at most once per :data:`WINDOW`):
#: daphne drops a handshake not answered within 5 s, so the queue in front of the read threads must stay
#: well below that on a loaded machine.  One faster than :data:`FAST` lets one more in, up to the limit:
#: as TCP's slow start, the connects let in at once double while each of them is fast, and stop growing
#: where the last of them waits about :data:`FAST` for the read threads: the cheaper a connect, the more
#: in progress at once.
SLOW = 2.0
FAST = 0.5
#: Connects let in at once when the process starts (then grown as above, up to the limit).
START = 32

logger = logging.getLogger(__name__)


class Admission:
    """ASGI middleware in front of the websocket application (``scope["type"] == "websocket"``; other
    scopes pass through untouched).  ``limit``: connects in progress at once (int, at least 1), at most:
    :attr:`allowed` starts at :data:`START` (or the limit), goes down (halved) while connects take longer
    than :data:`SLOW` and up (one per fast connect) while they are faster than :data:`FAST`."""

    def __init__(self, app: Any, limit: int, clock: Any = time.monotonic, queue_wait: float = 0.0) -> None:
        if limit < 1:
            raise ValueError("the websocket connect limit must be at least 1")
        self.app = app
        self.clock = clock  # seconds, monotonic (a test's own clock)
        self.limit = limit
        #: Seconds a connect may wait for its turn (0: no queue, refused at once beyond the limit).
        self.queue_wait = queue_wait
        #: The connects waiting for a slot, first come first served (a future each: True when given one).
        self.waiting: deque[asyncio.Future[bool]] = deque()
        #: Connects let in at once now (float, 1 to ``limit``).
        self.allowed = float(min(limit, START))
        self.last_cut = 0.0
        self.in_progress = 0
        #: Mean seconds from handshake to accept or first message (exponentially weighted).  Its first value is
        #: optimistic on purpose: a storm that comes first after a start is queued rather than refused (a
        #: connect queued in vain is refused after ``queue_wait``, costing its client that wait and the
        #: server nothing more; one refused in vain costs a handshake more and a wait of a second or two).
        self.mean_connect = 0.01
        self.refused: deque[float] = deque()
        #: When a refusal was last logged (at most one warning per :data:`WINDOW`).
        self.last_logged = float("-inf")
        #: When the connects of the last :data:`WINDOW` completed (:meth:`rate`).
        self.completed: deque[float] = deque()

    def rate(self, now: float) -> float:
        """Connects this process completes per second: those completed in the last :data:`WINDOW`, or the
        connects let in at once divided by the mean connect time (Little's law) when that is more."""
        while self.completed and self.completed[0] < now - WINDOW:
            self.completed.popleft()
        return max(len(self.completed) / WINDOW, self.allowed / self.mean_connect)

    def retry_ms(self, now: float) -> int:
        """The wait to tell a refused client (ms): the backlog's drain time at this process's rate."""
        while self.refused and self.refused[0] < now - WINDOW:
            self.refused.popleft()
        backlog = len(self.refused) + len(self.waiting) + 1
        drain = backlog / self.rate(now)
        return int(min(MAX_RETRY_MS, max(MIN_RETRY_MS, drain * 1000)))

    async def queued(self) -> bool:
        """Wait for a slot in the queue (see the module docstring): True once given one (counted in
        :attr:`in_progress` already), False when the queue has no room for this connect or its wait is over."""
        if (len(self.waiting) + 1) / self.rate(self.clock()) > self.queue_wait:
            return False
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[bool] = loop.create_future()
        self.waiting.append(turn)
        timer = loop.call_later(self.queue_wait, self._give_up, turn)
        try:
            return await turn
        except BaseException:  # cancelled while waiting (its client gone): a slot given meanwhile goes on
            if turn.done() and not turn.cancelled() and turn.result():
                self.in_progress -= 1
                self._next()
            elif turn in self.waiting:
                self.waiting.remove(turn)
            raise
        finally:
            timer.cancel()

    def _give_up(self, turn: asyncio.Future[bool]) -> None:
        if not turn.done():
            self.waiting.remove(turn)
            turn.set_result(False)

    def _next(self) -> None:
        """Hand the free slots to the connects waiting longest."""
        while self.waiting and self.in_progress < int(self.allowed):
            turn = self.waiting.popleft()
            if not turn.done():
                self.in_progress += 1
                turn.set_result(True)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        if self.in_progress < int(self.allowed) and not self.waiting:
            self.in_progress += 1
        elif not await self.queued():
            return await self.refuse(receive, send)
        started = self.clock()
        finished = False

        def finish() -> None:
            nonlocal finished
            finished = True
            self.in_progress -= 1
            now = self.clock()
            took = now - started
            self.completed.append(now)
            self.mean_connect += 0.1 * (took - self.mean_connect)
            if took > SLOW and now - self.last_cut > WINDOW:
                self.allowed, self.last_cut = max(1.0, self.allowed / 2), now
                logger.warning(
                    "a websocket connect took %.1f s: %d connects let in at once from now (%d in progress, %d waiting)",
                    took,
                    int(self.allowed),
                    self.in_progress,
                    len(self.waiting),
                )
            elif took < FAST:
                self.allowed = min(float(self.limit), self.allowed + 1)
            self._next()

        async def watched_send(message: dict[str, Any]) -> None:
            if not finished and message["type"] in ("websocket.accept", "websocket.send", "websocket.close"):
                finish()
            await send(message)

        try:
            return await self.app(scope, receive, watched_send)
        finally:
            if not finished:
                finish()

    async def refuse(self, receive: Any, send: Any) -> None:
        """Complete the handshake, send ``{"type":"retry","after_ms":<ms>}`` and close with :data:`CLOSE_RETRY`."""
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        now = self.clock()
        wait = self.retry_ms(now)
        self.refused.append(now)
        if now - self.last_logged >= WINDOW:  # the server's log says why pages wait, without a line per refusal
            self.last_logged = now
            logger.warning(
                "websocket connects refused (%d in the last second): %d in progress of %d let in at once,"
                " %d waiting; told to retry in %d ms",
                len(self.refused),
                self.in_progress,
                int(self.allowed),
                len(self.waiting),
                wait,
            )
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": f'{{"type":"retry","after_ms":{wait}}}'})
        # the reason repeats the wait for servers and proxies that carry it (daphne 4 drops it)
        await send({"type": "websocket.close", "code": CLOSE_RETRY, "reason": f"after_ms={wait}"})
