"""Websocket URL routes of every app (documented in docs/protocol.md)."""

from room.routing import websocket_urlpatterns as room_ws
from tables.routing import websocket_urlpatterns as tables_ws
from tournaments.routing import websocket_urlpatterns as tournaments_ws

websocket_urlpatterns = [
    *tables_ws,
    *tournaments_ws,
    *room_ws,  # cash floor: read-only lobby screen, room dashboard
]
