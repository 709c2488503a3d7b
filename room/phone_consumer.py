"""The phone socket of a remote waitlist player (issue 29): ``/ws/phone/<token>/``.

No login: the phone page's unguessable token is the key (unknown tokens count against the address, as
the lobby screen's do).  On connect it sends ``{"type": "phone", "state": ...}`` (``room.services.remote.
phone_state``: the player's entries, places, waits and an open call with its deadline); after every change
of the room (it listens on the room's lobby group, ``tables.fanout``) it sends the state again, so a call
shows on the phone at once.  The phone may send ``{"type": "snapshot"}`` (answered ``{"type": "snapshot", "state"}``); anything
else is refused with ``invalid``.  Answers to a call go over HTTP (``public.views.phone_answer``).
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from pokerfloor.runtime import throttle
from room.services.base import lobby_group
from room.services.remote import phone_state, verified_session
from tables import schemas
from tables.fanout import fanout
from tables.writepath import ServiceError

CLOSE_NOT_FOUND = 4404


@database_sync_to_async
def _session_slug(token: str) -> str | None:
    try:
        return verified_session(token).room.slug
    except ServiceError:
        return None


@database_sync_to_async
def _state(token: str) -> dict[str, Any] | None:
    try:
        return phone_state(verified_session(token))
    except ServiceError:
        return None


class PhoneConsumer(AsyncWebsocketConsumer):
    """One remote player's phone page (see the module docstring)."""

    joined: str | None = None

    async def connect(self) -> None:
        self.token = str(self.scope["url_route"]["kwargs"]["token"])[:100]
        if await throttle.atoken_lookups_blocked(self.scope):
            await self.close(code=throttle.CLOSE_THROTTLED)
            return
        slug = await _session_slug(self.token)
        if slug is None:
            await throttle.atoken_missed(self.scope)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.joined = lobby_group(slug)
        await fanout().join(self.joined, self)
        await self.accept()
        await self._send_state()

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await fanout().leave(self.joined, self)
            self.joined = None

    async def _send_state(self, kind: str = "phone") -> None:
        state = await _state(self.token)
        if state is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send(text_data=json.dumps({"type": kind, "state": state}, separators=(",", ":")))

    async def fanout_message(self, event: dict[str, Any]) -> None:
        """A change of the room: send this phone's state again."""
        if event.get("type") == "room.update":
            await self._send_state()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = schemas.load_json(text_data)  # size, depth and non-finite numbers checked
        except schemas.MessageError:
            message = None
        if isinstance(message, dict) and message.get("type") == "snapshot":
            await self._send_state("snapshot")
            return
        await self.send(
            text_data=json.dumps({"type": "error", "code": "invalid", "message": "this socket answers only snapshot"})
        )
