"""One channel-layer subscription per process and group, shared by the
local websockets of that group (the lobby TVs, the floor dashboards).

Channels gives every consumer its own channel: a room update sent to a
group of 200 lobby screens is 200 channel messages, 200 queue wake-ups and
200 dispatch rounds in the server (and 200 Redis messages, each serialised
and read back, with the Redis layer).  The screens of a group all receive
the very same text, so a process needs the message once: :class:`GroupFanout`
subscribes one channel per group and process to the layer, and hands each
message to the local sockets of that group directly, in order.  It also
renews the group membership every ``RENEW_SECONDS`` (the layer forgets
memberships after ``group_expiry``, a day by default; a TV stays connected
for longer).

Used by ``room.consumers.LobbyConsumer`` and ``tables.consumers.FloorConsumer``;
any consumer with an async ``fanout_message(event)`` method can join.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

#: How often the shared subscription renews its group membership (seconds).
RENEW_SECONDS = 3600.0


class Member(Protocol):
    async def fanout_message(self, event: dict[str, Any]) -> None:
        """Deliver one channel-layer message (the group's event dict)."""


class _Subscription:
    def __init__(self, group: str) -> None:
        self.group = group
        self.members: list[Member] = []
        self.channel: str | None = None
        self.ready = asyncio.Event()
        self.task: asyncio.Task | None = None


class GroupFanout:
    """The per-process registry: ``await join(group, member)`` and
    ``await leave(group, member)``.  One instance per event loop
    (:func:`fanout`).  Messages reach the members in the order the layer
    delivers them; a member whose send fails is skipped for that message."""

    def __init__(self) -> None:
        self.subscriptions: dict[str, _Subscription] = {}
        self.layer = get_channel_layer()

    async def join(self, group: str, member: Member) -> None:
        """Add ``member`` to ``group``; returns once the process is
        subscribed, so every message sent after this call reaches it."""
        sub = self.subscriptions.get(group)
        if sub is not None and sub.task is not None and sub.task.done() and sub.ready.is_set():
            # its receive failed (Redis went away, and its sockets closed): subscribe afresh
            del self.subscriptions[group]
            sub = None
        if sub is None:
            sub = _Subscription(group)
            self.subscriptions[group] = sub
            sub.task = asyncio.get_running_loop().create_task(self._run(sub), name=f"fanout {group}")
        sub.members.append(member)
        task = sub.task
        if not sub.ready.is_set() and task is not None:
            ready = asyncio.ensure_future(sub.ready.wait())
            await asyncio.wait({ready, task}, return_when=asyncio.FIRST_COMPLETED)
            if not sub.ready.is_set():  # the subscription failed: say so, do not hang the connection
                ready.cancel()
                await self.leave(group, member)
                task.result()
                raise RuntimeError(f"could not subscribe to {group}")

    async def leave(self, group: str, member: Member) -> None:
        """Remove ``member``; the last one out ends the subscription."""
        sub = self.subscriptions.get(group)
        if sub is None:
            return
        if member in sub.members:
            sub.members.remove(member)
        if not sub.members:
            del self.subscriptions[group]
            if sub.task is not None:
                sub.task.cancel()
            if sub.channel is not None:
                await self.layer.group_discard(group, sub.channel)

    async def _run(self, sub: _Subscription) -> None:
        sub.channel = await self.layer.new_channel()
        await self.layer.group_add(sub.group, sub.channel)
        sub.ready.set()
        renew = asyncio.get_running_loop().create_task(self._renew(sub))
        try:
            while True:
                event = await self.layer.receive(sub.channel)
                for member in list(sub.members):
                    try:
                        await member.fanout_message(event)
                    except Exception:  # one broken socket must not starve the others
                        logger.exception("fan-out to a member of %s failed", sub.group)
        finally:
            renew.cancel()

    async def _renew(self, sub: _Subscription) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            await self.layer.group_add(sub.group, sub.channel)


_by_loop: dict[asyncio.AbstractEventLoop, GroupFanout] = {}


def fanout() -> GroupFanout:
    """The :class:`GroupFanout` of the running event loop."""
    loop = asyncio.get_running_loop()
    hub = _by_loop.get(loop)
    if hub is None:
        for old in [lp for lp in _by_loop if lp.is_closed()]:
            del _by_loop[old]
        hub = _by_loop[loop] = GroupFanout()
    return hub
