"""The in-process channel layer of a single server process (no ``REDIS_URL``).

Channels' :class:`~channels.layers.InMemoryChannelLayer` is correct but does
work per message that grows with the number of open sockets, and it is the
live path of every table update (one group send to the table's tablet, one
to the floor group of every dashboard):

* every ``receive`` and every ``group_send`` walks *all* channels and groups
  for expired messages (``_clean_expired``): with 50 tablets, 5 floors and
  the lobby screens that walk was 17 % of the server's Python time under
  ``bench/live.py`` (py-spy, ``--gil``);
* every ``group_send`` starts one asyncio task per receiver and waits for
  them with ``as_completed``;
* every ``send`` and ``receive`` builds a new ``asyncio.Queue`` just to
  pass it to ``dict.setdefault``, and deep-copies the message per receiver.

:class:`SweepingInMemoryChannelLayer` keeps the same semantics (capacity,
``ChannelFull`` dropping, expiry of messages and of group memberships,
channel names) with the expiry sweep run at most once per ``sweep_interval``
seconds, receivers served in one loop without tasks, and a shallow copy for
messages whose values are immutable (str, int, float, bool, None: every
message this project sends; anything else is still deep-copied).
"""

from __future__ import annotations

import asyncio
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

_IMMUTABLE = (str, int, float, bool, type(None), bytes)


def _copy(message: dict[str, Any]) -> dict[str, Any]:
    """A copy the receiver may change without touching the sender's or another receiver's."""
    if all(isinstance(value, _IMMUTABLE) for value in message.values()):
        return dict(message)
    return deepcopy(message)


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer with the expiry sweep run at most every
    ``sweep_interval`` seconds (default 1.0) instead of on every message, and a
    group send without one task per receiver.

    Config (``CHANNEL_LAYERS["default"]["CONFIG"]``): Channels' own options
    (``expiry``, ``group_expiry``, ``capacity``, ``channel_capacity``) plus
    ``sweep_interval``.  A full channel drops the message for that receiver
    only (``ChannelFull`` is swallowed by ``group_send``, as in Channels)."""

    def __init__(self, *args: Any, sweep_interval: float = 1.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sweep_interval = sweep_interval
        self._next_sweep = 0.0

    def _sweep(self) -> None:
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + self.sweep_interval
            self._clean_expired()

    def _queue(self, channel: str) -> asyncio.Queue:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        try:
            self._queue(channel).put_nowait((time.time() + self.expiry, _copy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        """Put ``message`` on ``channel``; ``ChannelFull`` when it holds ``capacity`` messages."""
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, message)

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message of ``channel`` (waits for one)."""
        self.require_valid_channel_name(channel)
        self._sweep()
        queue = self._queue(channel)
        try:
            _, message = await queue.get()
        finally:
            if queue.empty() and self.channels.get(channel) is queue:
                self.channels.pop(channel, None)
        return message

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Put ``message`` on every channel of ``group``, skipping full ones."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._sweep()
        for channel in list(self.groups.get(group, ())):
            try:
                self._put(channel, message)
            except ChannelFull:
                pass
