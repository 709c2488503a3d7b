"""Shared reads: sockets that connect at the same moment and need the same picture read it once.

Why: after a restart every floor dashboard connects at once, and each connect read the summaries of every
open table (at 1,000 tables about a second of the read threads' time, under the GIL, for each of 20
dashboards), and every lobby screen of a room read the same room snapshot; the tablets' connects queued
behind those reads (``bench/RESULTS.md``, "Connect storms").

:class:`SharedRead` runs at most one read of a key at a time.  A caller that comes while none runs starts
one; callers that come while one runs wait for it to end and then share the *next* read, one for all of
them.  So every caller gets a picture read after it called -- a socket subscribes to its updates first and
reads its snapshot second, and an update committed between the two is then either in the snapshot or
held back for the socket (a read already running when it subscribed might predate that update and is
therefore never shared with it).  A read that fails fails for every caller sharing it.  A caller that goes
away (its socket closed, its task cancelled) does not cancel the read the others wait for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

__all__ = ["SharedRead"]

T = TypeVar("T")


def _retrieved(task: asyncio.Future) -> None:
    """Mark a shared read's failure as seen: when every caller went away, nobody else awaits it."""
    if not task.cancelled():
        task.exception()


class _Key(Generic[T]):
    """The reads of one key: the one running and the one its waiting callers share next."""

    __slots__ = ("running", "next")

    def __init__(self) -> None:
        self.running: asyncio.Future[T] | None = None
        self.next: asyncio.Future[T] | None = None


class SharedRead(Generic[T]):
    """``await shared(*args)``: ``read(*args)`` (an async callable, e.g. a ``socket_read`` function),
    shared by the callers with the same ``args`` (hashable) as the module docstring says.  One event
    loop: call only from the loop's thread (the consumers)."""

    def __init__(self, read: Callable[..., Awaitable[T]]) -> None:
        self.read = read
        self.keys: dict[Hashable, _Key[T]] = {}

    async def __call__(self, *args: Any) -> T:
        key = self.keys.get(args)
        if key is None:
            key = self.keys[args] = _Key()
        if key.next is not None:  # starts after the running one: after this call
            task = key.next
        elif key.running is None:
            task = key.running = asyncio.ensure_future(self._run(args, key, None))
            task.add_done_callback(_retrieved)
        else:
            task = key.next = asyncio.ensure_future(self._run(args, key, key.running))
            task.add_done_callback(_retrieved)
        return await asyncio.shield(task)

    async def _run(self, args: tuple, key: _Key[T], after: asyncio.Future[T] | None) -> T:
        if after is not None:
            await asyncio.wait([after])  # its outcome is its own callers'
            key.running, key.next = key.next, None
        try:
            return await self.read(*args)
        finally:
            if key.next is None:  # nobody waits for another read: forget the key
                key.running = None
                self.keys.pop(args, None)
