"""The Redis channel layer of several server processes, made safe for a Redis that goes away.

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
counters of ``tables.throttle`` live in Redis too: while it is away, a login
attempt fails with an error instead of being counted.)
"""

from __future__ import annotations

import logging
from typing import Any

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
