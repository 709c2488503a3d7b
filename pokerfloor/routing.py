"""Websocket URL routes of every app (documented in docs/protocol.md)."""

from django.urls import path

from tables.lobby import LobbyConsumer, RoomFloorConsumer
from tables.routing import websocket_urlpatterns as tables_ws
from tournaments.routing import websocket_urlpatterns as tournaments_ws

websocket_urlpatterns = [
    *tables_ws,
    *tournaments_ws,
    path("ws/lobby/<str:token>/", LobbyConsumer.as_asgi()),  # cash floor: read-only lobby screen
    path("ws/room/<slug:slug>/", RoomFloorConsumer.as_asgi()),  # cash floor: room dashboard
]
