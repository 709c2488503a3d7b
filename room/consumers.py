"""Websockets of the cash-game floor: the lobby screens and the floor's room dashboard.

``/ws/lobby/<token>/``: the lobby screen (TV) of a room, read-only and
without login: the display link's unguessable token is the key.  It joins
the group ``lobby.<room slug>`` (one group per lobby), gets the public
room snapshot with its ``seq`` on connect, then ``update`` messages each
with the next ``seq``; a screen that sees a gap reconnects.  Anything the
screen sends is refused (``read_only``).  Never hole cards (the lobby
snapshot holds nothing from a hand); stacks only if the room allows.
A revoked display link closes its open screens at once with 4404
(``lobby.revoke`` on the lobby group, sent by ``room.services.revoke_display``).

``/ws/room/<slug>/``: the floor's room dashboard (floor and manager roles
only): the full room snapshot and its updates.  Changes go through the
dashboard's HTTP actions (``room.views``), never through this socket;
it answers only ``{"type": "snapshot"}``.  The floor role is checked again
on every message and when a revocation arrives (``tables.revocation``): a
user who lost it, or logged out, is closed with 4403.
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from pokerfloor.runtime import throttle
from pokerfloor.runtime.dispatch import DirectDispatch
from pokerfloor.runtime.shared import SharedRead
from pokerfloor.runtime.threads import socket_read
from room import services as floor_room
from room.models import LobbyDisplay, Room
from room.schemas import RoomSocketMessage
from tables import revocation, schemas
from tables.access import is_floor, is_floor_now
from tables.fanout import fanout
from tables.heartbeat import Heartbeat

CLOSE_UNAUTHORISED = 4403
CLOSE_NOT_FOUND = 4404


def display_slug(token: str) -> str | None:
    """The slug of the room whose lobby display link ``token`` is (None: no such link, or revoked)."""
    return LobbyDisplay.objects.filter(token=token, revoked=False).values_list("room__slug", flat=True).first()


#: One look-up per display link for the screens connecting at once (``pokerfloor.runtime.shared``: after a
#: restart every screen of a room comes back together, on a handful of links), the check after the
#: subscription as much as the first one: a caller shares only a read begun after it asked.
_display_slug: SharedRead[str | None] = SharedRead(socket_read(display_slug))


def lobby_snapshot(slug: str) -> dict | None:
    """The lobby screen's snapshot of room ``slug`` (``room_snapshot(lobby=True)``), or None: no such room."""
    room = Room.objects.filter(slug=slug).first()
    return None if room is None else floor_room.room_snapshot(room, lobby=True)


#: One read per room for the screens connecting at once (``pokerfloor.runtime.shared``).
_lobby_snapshot: SharedRead[dict | None] = SharedRead(socket_read(lobby_snapshot))


@socket_read
def _floor_room(user, slug: str) -> tuple[str, dict | None]:
    if not is_floor(user):
        return "forbidden", None
    room = Room.objects.filter(slug=slug).first()
    if room is None:
        return "not_found", None
    return "ok", floor_room.room_snapshot(room, lobby=False)


class _RoomSocket(Heartbeat, DirectDispatch, AsyncWebsocketConsumer):
    group: str | None = None

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def room_update(self, event: dict[str, Any]) -> None:
        """Group handler: forward the update, serialised once by the service (sends only)."""
        await self.send(text_data=event["text"])


class LobbyConsumer(_RoomSocket):
    """The read-only lobby screen of one room (see the module docstring).

    The screens of a room share one channel-layer subscription per process
    (``tables.fanout``): an update is taken from the layer once and written
    to every local screen."""

    joined: str | None = None
    pending: list[dict[str, Any]] | None = None  # updates that came before the snapshot was sent
    revoked = False

    async def connect(self) -> None:
        self.token = str(self.scope["url_route"]["kwargs"]["token"])
        if await throttle.atoken_lookups_blocked(self.scope):  # too many unknown tokens from this address
            await self.close(code=throttle.CLOSE_THROTTLED)
            return
        slug = await _display_slug(self.token)
        if slug is None:
            await throttle.atoken_missed(self.scope)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        # Subscribe first, then read the snapshot: an update made in between
        # is held back and sent after the snapshot if it is newer.
        self.pending = []
        self.joined = floor_room.lobby_group(slug)
        await fanout().join(self.joined, self)
        snapshot = await _lobby_snapshot(slug)
        if snapshot is None or self.revoked or await _display_slug(self.token) is None:  # revoked meanwhile
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        await self.send_json({"type": "snapshot", "seq": snapshot["seq"], "snapshot": snapshot})
        pending, self.pending = self.pending, None
        for event in pending:
            if event.get("seq", 0) > snapshot["seq"]:
                await self.send(text_data=event["text"])

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await fanout().leave(self.joined, self)
            self.joined = None

    async def fanout_message(self, event: dict[str, Any]) -> None:
        """From the shared subscription: forward a ``room.update`` as it is
        (held back while the snapshot is being read); close with 4404 on the
        ``lobby.revoke`` of this screen's link."""
        if event.get("type") == "lobby.revoke" and event.get("token") == self.token and not self.revoked:
            self.revoked = True
            if self.pending is None:  # accepted already (else connect refuses it)
                await self.close(code=CLOSE_NOT_FOUND)
            return
        if event.get("type") != "room.update" or self.revoked:
            return
        if self.pending is not None:
            self.pending.append(event)
            return
        await self.send(text_data=event["text"])

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send_json({"type": "error", "code": "read_only", "message": "the lobby screen is read-only"})


class RoomFloorConsumer(revocation.Revocable, _RoomSocket):
    """The floor's room dashboard socket (floor and manager roles only)."""

    def has_right(self) -> bool:
        return is_floor_now(self.user)

    async def room_update(self, event: dict[str, Any]) -> None:
        if not self.revoked:
            await super().room_update(event)

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        self.user = user
        await self.watch_rights()  # before the check: a revocation from now on reaches this socket
        slug = self.scope["url_route"]["kwargs"]["slug"]
        # The room's group before its snapshot is read: a change committed in between reaches the socket
        # after its snapshot (the page skips an update its snapshot covers) instead of being lost.
        group = floor_room.floor_room_group(slug)
        await self.channel_layer.group_add(group, self.channel_name)
        status, snapshot = await _floor_room(user, slug)
        if status != "ok":
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.forget_rights()
            await self.close(code=CLOSE_NOT_FOUND if status == "not_found" else CLOSE_UNAUTHORISED)
            return
        self.slug, self.group = slug, group
        await self.accept()
        await self.send_json({"type": "snapshot", "seq": snapshot["seq"], "snapshot": snapshot})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.revoked:
            return
        try:
            schemas.parse(RoomSocketMessage, text_data)
        except schemas.MessageError as exc:
            await self.send_json(
                {
                    "type": "error",
                    **exc.as_dict(),
                    "message": f"this socket only answers snapshot requests ({exc.message})",
                }
            )
            return
        if not await self.still_allowed():
            await self.send_json({"type": "error", **revocation.RightLost().as_dict()})
            await self.close_revoked()
            return
        status, snapshot = await _floor_room(self.user, self.slug)
        if status == "ok":
            await self.send_json({"type": "snapshot", "seq": snapshot["seq"], "snapshot": snapshot})
            return
        await self.close(code=CLOSE_NOT_FOUND)
