"""A dealer's tablet over the socket, for the tests of what the event loop writes."""

from __future__ import annotations


async def reply_to(ws, message: dict, timeout: float = 10) -> tuple[dict, list[dict]]:
    """Send ``message`` on the tablet's socket ``ws``; ``(its ack or error, the updates that came before
    it)``."""
    await ws.send_json_to(message)
    before = []
    while True:
        reply = await ws.receive_json_from(timeout=timeout)
        if reply["type"] in ("ack", "error"):
            return reply, before
        before.append(reply)
