"""Thin websocket consumers of a tournament: the director's page (floor and
manager roles, full snapshot) and the lobby screen (no login, by the
tournament's unguessable ``public_token``, public snapshot only).

Both join the group ``tournament.<id>``; on connect they get a ``snapshot``
with its ``seq``; every committed change brings a ``delta`` with the new
seq and only what changed (an ``update`` with the whole snapshot after the
few events that change many rows at once; docs/protocol.md), serialised
once by the service for all the director's pages and once for all the
TVs.  A client that sees a gap sends ``{"type": "snapshot"}``.  Clients count the clock down locally from the snapshot's
``server_now`` and clock fields; the server never sends ticks.  Anything
else a client sends (not JSON, not an object, another type, a binary
frame) is answered with ``{"type": "error", "code": "invalid"}``.  The
director's floor role is checked again on every message and when a
revocation arrives (``tables.revocation``): a director who lost it, or
logged out, is closed with 4403.

The consumers implement only Channels' documented hooks: ``connect``,
``receive``, ``disconnect`` and the group message handler
``tournament_update`` (for ``tournament.update``), and the director's
``rights_revoke`` (``tables.revocation.Revocable``).
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from pokerfloor.runtime import throttle
from pokerfloor.runtime.dispatch import DirectDispatch
from pokerfloor.runtime.threads import socket_read
from tables import revocation, schemas
from tables.access import is_floor, is_floor_now
from tables.heartbeat import Heartbeat
from tournaments import services
from tournaments.models import Tournament
from tournaments.schemas import TournamentSocketMessage
from tournaments.services.snapshot import public_snapshot_of

CLOSE_UNAUTHORISED = 4403
CLOSE_NOT_FOUND = 4404


@socket_read
def _tournament_of_token(token: str) -> int | None:
    """The id of the tournament whose lobby link is ``token``; None when there is none."""
    return Tournament.objects.filter(public_token=token).values_list("id", flat=True).first()


@socket_read
def _load(tournament_id: int, public: bool = False) -> dict | None:
    """The tournament's snapshot: the director's, or with ``public`` the TV's; None when there is none."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return None
    return public_snapshot_of(t) if public else services.snapshot(t)


@socket_read
def _is_floor(user) -> bool:
    return is_floor(user)


class _TournamentConsumer(Heartbeat, DirectDispatch, AsyncWebsocketConsumer):
    """Shared by both sockets; ``public`` screens get the public snapshot."""

    public = False
    tournament_id: int | None = None

    async def _send_snapshot(self, data: dict) -> None:
        await self.send(text_data=json.dumps({"type": "snapshot", "seq": data["seq"], "snapshot": data}))

    async def start(self, tournament_id: int | None = None, token: str | None = None) -> None:
        """Join the tournament (by id or public token) and send its snapshot;
        close with 4404 when there is no such tournament.

        The tournament's group is joined before its snapshot is read: a change committed in between
        reaches the socket after its snapshot (the page skips a delta its snapshot covers), where it
        was lost before (a director who started the tournament the moment the page opened saw no
        tables until the next change).  A lobby screen's token is looked up first (its id alone), the
        snapshot read once its group is joined."""
        if tournament_id is None:
            tournament_id = await _tournament_of_token(token) if token is not None else None
            if tournament_id is None:
                await throttle.atoken_missed(self.scope)  # an unknown lobby token counts against the address
                await self.close(code=CLOSE_NOT_FOUND)
                return
        group = services.tournament_group(tournament_id)
        await self.channel_layer.group_add(group, self.channel_name)
        snap = await _load(tournament_id, public=self.public)
        if snap is None:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.tournament_id = tournament_id
        await self.accept()
        await self._send_snapshot(snap)

    async def disconnect(self, code: int) -> None:
        if self.tournament_id is not None:
            await self.channel_layer.group_discard(services.tournament_group(self.tournament_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """``{"type": "snapshot"}`` brings a fresh snapshot; anything else an ``invalid`` error."""
        if getattr(self, "revoked", False):
            return
        try:
            schemas.parse(TournamentSocketMessage, text_data)
        except schemas.MessageError as exc:
            await self.send(
                text_data=json.dumps(
                    {
                        "type": "error",
                        **exc.as_dict(),
                        "message": f'only {{"type": "snapshot"}} is accepted here ({exc.message})',
                    }
                )
            )
            return
        if not await self.may_continue():
            return
        found = await _load(self.tournament_id, public=self.public)
        if found is not None:
            await self._send_snapshot(found)

    async def may_continue(self) -> bool:
        """Whether this socket may still be answered (the director's role is checked again)."""
        return True

    async def tournament_update(self, event: dict[str, Any]) -> None:
        """Group handler: forward the update serialised once by the service (sends only)."""
        if getattr(self, "revoked", False):
            return
        await self.send(text_data=event["public" if self.public else "full"])


class DirectorConsumer(revocation.Revocable, _TournamentConsumer):
    """``/ws/tournaments/<id>/``: the tournament director's page (floor, manager)."""

    def has_right(self) -> bool:
        return is_floor_now(self.scope["user"])

    async def may_continue(self) -> bool:
        """False (after answering ``forbidden`` and closing with 4403) once the floor role or the session is gone."""
        if self.revoked:
            return False
        if await self.still_allowed():
            return True
        await self.send(text_data=json.dumps({"type": "error", **revocation.RightLost().as_dict()}))
        await self.close_revoked()
        return False

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        await self.watch_rights()  # before the check: a revocation from now on reaches this socket
        if not await _is_floor(user):
            await self.forget_rights()
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        await self.start(tournament_id=int(self.scope["url_route"]["kwargs"]["tournament_id"]))


class LobbyConsumer(_TournamentConsumer):
    """``/ws/tournaments/lobby/<token>/``: the lobby screen, read-only, no login."""

    public = True

    async def connect(self) -> None:
        if await throttle.atoken_lookups_blocked(self.scope):  # too many unknown tokens from this address
            await self.close(code=throttle.CLOSE_THROTTLED)
            return
        await self.start(token=str(self.scope["url_route"]["kwargs"]["token"]))
