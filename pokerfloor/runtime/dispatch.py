"""The consumers' ``dispatch`` without Channels' per-message connection check.

Why: Channels' ``AsyncConsumer.dispatch`` runs ``aclose_old_connections()`` through its single database
thread before EVERY message a consumer handles, group broadcasts included, so each table update cost one
thread hop per floor dashboard, all queued on one thread: the floors fell seconds behind and the layer
dropped updates at its capacity (``bench/RESULTS.md``, "Runtime machinery").  The consumers of this
project never touch the database on the event loop (reads run on :mod:`pokerfloor.runtime.threads`,
whose threads check their own connections), so the hop buys nothing.  The same hop came before every
socket's connect (a storm's 200 lobby screens queued on that one thread) and ends every websocket
(``websocket_disconnect``).  Every consumer of the project (tables, room, tournaments) mixes it in.  This
is the one place that overrides Channels internals.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer


class DirectDispatch:
    """Mixin for a Channels consumer (before the Channels base class): ``dispatch`` calls the message's
    handler directly, and a websocket's end runs its ``disconnect`` without the connection check.
    ``ValueError`` for a message type without a handler, as Channels raises."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the handler of ``message["type"]`` (``"table.update"`` -> ``table_update``)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' ``AsyncWebsocketConsumer.websocket_disconnect`` (leave ``self.groups``, call
        ``disconnect(code)``, end the consumer) without its ``aclose_old_connections`` hop."""
        for group in getattr(self, "groups", None) or ():
            await self.channel_layer.group_discard(group, self.channel_name)  # type: ignore[attr-defined]  # a mixin of a consumer
        await self.disconnect(message["code"])  # type: ignore[attr-defined]  # a mixin of a websocket consumer
        raise StopConsumer()
