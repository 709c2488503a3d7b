"""The application-level heartbeat of every websocket (docs/protocol.md "Heartbeat").

A socket whose network silently drops frames (a tablet's Wi-Fi gone half-way, a proxy that stopped
forwarding) stays "open" for the browser until TCP gives up, minutes later: the tablet showed a green
"Live" for over 20 s with nothing arriving (issue 24).  So every page pings: it sends the exact text
``{"type":"ping"}`` every second and counts its socket dead when nothing at all (an update, a pong) has
arrived for 3.5 s (``static/js/socket.js`` ``LiveSocket``); it then shows itself offline, drops the socket
and reconnects.  The server answers each ping with ``{"type":"pong"}`` at once, before any parsing,
role check or rate limit, so a ping costs one string comparison.

:class:`Heartbeat` is mixed into every consumer (tables, room, tournaments), before the Channels base
class.
"""

from __future__ import annotations

from typing import Any

#: The ping a page sends, byte for byte (``JSON.stringify({type: "ping"})``).
PING = '{"type":"ping"}'
#: The server's answer.
PONG = '{"type":"pong"}'


class Heartbeat:
    """Answer a page's ping with a pong before the consumer sees the frame (it never reaches ``receive``)."""

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        if message.get("text") == PING:
            await self.send(text_data=PONG)  # type: ignore[attr-defined]  # a mixin of a websocket consumer
            return
        await super().websocket_receive(message)  # type: ignore[misc]  # a mixin of a websocket consumer
