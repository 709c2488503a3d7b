"""The channel layers: one process in memory (no ``REDIS_URL``), several on Redis (``settings.CHANNEL_LAYERS``).

## In memory: :class:`SweepingInMemoryChannelLayer`

Channels' :class:`~channels.layers.InMemoryChannelLayer` is correct but does
work per message that grows with the number of open sockets, and it is the
live path of every table update (one group send to the table's tablet, one
to the floor group of every dashboard):

* every ``receive`` and every ``group_send`` walks *all* channels and groups
  for expired messages (``_clean_expired``): with 50 tablets, 5 floors and
  the lobby screens that walk was a sixth of the server's Python time under
  ``bench/live.py`` (``bench/RESULTS.md``, "Runtime machinery");
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

## On Redis: :class:`RedisChannelLayer`

The Redis channel layer of several server processes, made safe for a Redis that goes away.

``channels_redis`` keeps the group memberships (which socket gets a table's
updates) in Redis.  When Redis restarts it comes back empty (``make run``
keeps nothing on disk), and a socket that survived the restart would stay
open and hear nothing more: a floor dashboard that silently stops updating.
So this layer (``settings.CHANNEL_LAYERS`` with ``REDIS_URL``) does two things
on top of ``channels_redis.core.RedisChannelLayer``:

* When this process's connection to Redis breaks while receiving, every
  consumer of the process ends with :class:`ChannelLayerLost`: the ones
  waiting at once, the others at their next receive.  Daphne closes their
  sockets (code 1011), and the clients reconnect, join their groups again
  and take the snapshot every connect brings (docs/protocol.md).  A connect
  while Redis is still down is refused the same way, and the client retries.
* A ``send`` or ``group_send`` that cannot reach Redis is logged and dropped
  instead of raising: the change it announces is committed already, channel
  delivery is at-most-once anyway, and a client that misses an update sees
  the gap in ``seq`` and asks for a snapshot.  Without this, the dealer whose
  action was committed would get no ack (its socket crashed after the
  commit) and an HTTP request would answer 500 for a change it made.

The server process itself never stops over Redis: it goes on serving HTTP
and accepts sockets again as soon as Redis answers.  (The rate-limit
counters of ``pokerfloor.runtime.throttle`` live in Redis too: while it is away, a login
attempt fails with an error instead of being counted.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: What counts as "Redis is unreachable".
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)

#: Put in the receive buffer of every waiting channel when the connection breaks.
_LOST: dict[str, Any] = {"type": "pokerfloor.channel_layer_lost"}


#: Seconds a read from Redis may take beyond the layer's blocking pop (``brpop_timeout``, 5 s).
READ_TIMEOUT_MARGIN = 10.0


def with_read_timeout(hosts: Any, block_seconds: float) -> list[dict[str, Any]]:
    """``hosts`` (channels_redis's forms: URLs, ``(host, port)``, dicts) as dicts whose connections wait
    ``block_seconds + READ_TIMEOUT_MARGIN`` for a reply unless they say otherwise.

    redis-py 8 gives every connection a 5 s read timeout by default, exactly as long as the 5 s that
    channels_redis asks Redis to block for a message: the reply of an idle channel ("nothing came")
    races the client's timeout, and on a busy machine the timeout wins, which ends the socket's
    consumer with ``TimeoutError`` (seen under ``bench/live.py --workers 2``)."""
    from channels_redis.utils import decode_hosts

    timeout = block_seconds + READ_TIMEOUT_MARGIN
    return [{"socket_timeout": timeout, **host} for host in decode_hosts(hosts)]


class ChannelLayerLost(ConnectionError):
    """This process's connection to Redis broke; group memberships may be gone.  The consumer that
    receives it ends (its socket closes) so that its client reconnects and resyncs by snapshot."""


class RedisChannelLayer(_RedisChannelLayer):
    """``channels_redis``'s layer; see the module docstring for what it adds."""

    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(with_read_timeout(hosts, self.brpop_timeout), *args, **kwargs)
        #: Bumped each time the connection breaks while receiving.
        self.epoch = 0
        #: The epoch in which each local channel last received.
        self._channel_epoch: dict[str, int] = {}

    async def receive(self, channel: str) -> dict[str, Any]:
        """Channels' ``receive``; raises :class:`ChannelLayerLost` once the connection broke since this
        channel's previous receive (or while it waits)."""
        seen = self._channel_epoch.get(channel)
        if seen is not None and seen != self.epoch:
            self._channel_epoch.pop(channel, None)
            raise ChannelLayerLost("the connection to Redis broke; reconnect and take a snapshot")
        self._channel_epoch[channel] = self.epoch
        message = await super().receive(channel)
        if message is _LOST:
            self._channel_epoch.pop(channel, None)
            raise ChannelLayerLost("the connection to Redis broke; reconnect and take a snapshot")
        return message

    async def receive_single(self, channel: str) -> Any:
        try:
            return await super().receive_single(channel)
        except UNREACHABLE as error:
            self._connection_lost(error)
            raise ChannelLayerLost(f"the connection to Redis broke: {error}") from error

    def _connection_lost(self, error: BaseException) -> None:
        """A new epoch; wake every channel waiting in ``receive`` with the lost marker."""
        self.epoch += 1
        waiting = list(self.receive_buffer)
        logger.warning(
            "channel layer: the connection to Redis broke (%s); closing this process's %d waiting sockets "
            "(and the others at their next message) so that their clients resync",
            error,
            len(waiting),
        )
        for name in waiting:
            self.receive_buffer[name].put_nowait(_LOST)

    async def group_discard(self, group: str, channel: str) -> None:
        self._channel_epoch.pop(channel, None)  # a consumer leaves its groups as it ends
        try:
            await super().group_discard(group, channel)
        except UNREACHABLE as error:
            logger.warning("channel layer: Redis unreachable, %s not removed from %s: %s", channel, group, error)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        try:
            await super().send(channel, message)
        except UNREACHABLE as error:
            logger.warning("channel layer: Redis unreachable, message to %s dropped: %s", channel, error)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        try:
            await super().group_send(group, message)
        except UNREACHABLE as error:
            logger.warning("channel layer: Redis unreachable, message to group %s dropped: %s", group, error)


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
