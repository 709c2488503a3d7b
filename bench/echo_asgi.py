"""A bare Channels echo server: the floor of what daphne and Channels cost (``bench/live.py --baseline``).

    daphne bench.echo_asgi:application              (from the checkout's top directory)

Same URLs and JSON shapes as the real tablet and floor sockets, so the same
benchmark client drives it, but no database, no session, no engine:

* ``/ws/tables/<id>/dealer/``: on connect ``{"type": "snapshot", "seq", "snapshot"}`` with a table
  that has no hand; each message bumps the table's ``seq`` (kept in this process's memory), is
  group-sent as an ``update`` to the table's group and to ``floor``, then acknowledged
  (``{"type": "ack", "client_id", "seq", "duplicate": false}``), in the real server's order;
* ``/ws/lobby/<token>/``: a snapshot on connect (the lobby screens of ``--screens``);
* ``/ws/floor/``: on connect ``{"type": "floor_snapshot", "tables": [...]}`` of the tables this
  process knows, then every update of the ``floor`` group, batched within 20 ms as the real floor
  socket does (``ECHO_FLOOR_BATCH`` seconds; ``0``: one frame per update).

The channel layer is in memory, or ``channels_redis`` on ``REDIS_URL`` when it is set (several
processes: ``python -m pokerfloor.serve --app bench.echo_asgi:application``).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import defaultdict
from typing import Any

import django
from django.conf import settings

if not settings.configured:
    if os.environ.get("REDIS_URL"):
        layer = {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # apart from the real server's groups; reads wait longer than channels_redis's 5 s blocking
            # pop (redis-py 8's default read timeout is 5 s too: see pokerfloor.runtime.layers)
            "CONFIG": {
                "hosts": [{"address": os.environ["REDIS_URL"], "socket_timeout": 15}],
                "prefix": "bench-echo",
                "capacity": 1000,
            },
        }
    else:
        layer = {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 1000}}
    settings.configure(
        DEBUG=False,
        SECRET_KEY="bench-echo",
        INSTALLED_APPS=["channels"],
        CHANNEL_LAYERS={"default": layer},
        LOGGING_CONFIG=None,
    )
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

from pokerfloor.runtime.dispatch import DirectDispatch
from pokerfloor.runtime.handshake import defer_handshake_debug

# As pokerfloor.asgi does: no pretty-printing of autobahn's options at every handshake for a debug line
# nobody writes (the framework's cost, not the application's).
defer_handshake_debug()

#: The last seq of every table this process has served.
SEQ: dict[int, int] = defaultdict(int)
FLOOR_GROUP = "floor"


def _snapshot(table_id: int, seq: int) -> dict[str, Any]:
    return {"seq": seq, "table": {"id": table_id}, "seats": [], "hand": None}


class _Consumer(DirectDispatch, AsyncWebsocketConsumer):
    """Channels' dispatch without its database-connection check before each message and at the socket's
    end, as the real consumers do (``pokerfloor.runtime.dispatch``)."""


class EchoTablet(_Consumer):
    """The dealer tablet's socket, minus everything but the acknowledgement and the broadcast."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = f"table.{self.table_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        seq = SEQ[self.table_id]
        await self.send(
            text_data=json.dumps({"type": "snapshot", "seq": seq, "snapshot": _snapshot(self.table_id, seq)})
        )

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = json.loads(text_data or "{}")
        if message.get("type") == "snapshot":
            seq = SEQ[self.table_id]
            await self.send(
                text_data=json.dumps({"type": "snapshot", "seq": seq, "snapshot": _snapshot(self.table_id, seq)})
            )
            return
        SEQ[self.table_id] += 1
        seq = SEQ[self.table_id]
        event = {
            "type": "table.update",
            "text": json.dumps({"type": "update", "seq": seq, "snapshot": _snapshot(self.table_id, seq)}),
        }
        await self.channel_layer.group_send(self.group, event)
        await self.channel_layer.group_send(FLOOR_GROUP, event)
        await self.send(
            text_data=json.dumps({"type": "ack", "client_id": message.get("client_id"), "seq": seq, "duplicate": False})
        )

    async def table_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


class EchoFloor(_Consumer):
    """The floor dashboard's socket: every update of every table, those that arrive within
    ``BATCH_SECONDS`` of each other in one ``batch`` frame, as the real floor socket sends them
    (``ECHO_FLOOR_BATCH=0``: one frame per update)."""

    BATCH_SECONDS = float(os.environ.get("ECHO_FLOOR_BATCH", "0.02"))
    pending: list[str] | None = None

    async def connect(self) -> None:
        await self.channel_layer.group_add(FLOOR_GROUP, self.channel_name)
        await self.accept()
        tables = [_snapshot(table_id, seq) for table_id, seq in SEQ.items()]
        await self.send(text_data=json.dumps({"type": "floor_snapshot", "tables": tables}))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(FLOOR_GROUP, self.channel_name)

    async def table_update(self, event: dict[str, Any]) -> None:
        if not self.BATCH_SECONDS:
            await self.send(text_data=event["text"])
        elif self.pending is None:
            self.pending = [event["text"]]
            asyncio.get_running_loop().call_later(self.BATCH_SECONDS, lambda: asyncio.ensure_future(self.flush()))
        else:
            self.pending.append(event["text"])

    async def flush(self) -> None:
        pending, self.pending = self.pending or [], None
        if len(pending) == 1:
            await self.send(text_data=pending[0])
        elif pending:
            await self.send(text_data='{"type":"batch","messages":[' + ",".join(pending) + "]}")


class EchoScreen(_Consumer):
    """A lobby screen's socket (``/ws/lobby/<token>/``): a snapshot on connect, nothing after."""

    async def connect(self) -> None:
        await self.accept()
        await self.send(text_data=json.dumps({"type": "snapshot", "seq": 0, "snapshot": {"tables": []}}))


application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [
                path("ws/tables/<int:table_id>/dealer/", EchoTablet.as_asgi()),
                path("ws/floor/", EchoFloor.as_asgi()),
                path("ws/lobby/<str:token>/", EchoScreen.as_asgi()),
            ]
        )
    }
)
