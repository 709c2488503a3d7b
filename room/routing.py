"""Websocket routes of the cash floor (see docs/protocol.md)."""

from django.urls import path

from room.consumers import LobbyConsumer, RoomFloorConsumer
from room.phone_consumer import PhoneConsumer

websocket_urlpatterns = [
    path("ws/lobby/<str:token>/", LobbyConsumer.as_asgi()),  # read-only lobby screen (display token)
    path("ws/room/<slug:slug>/", RoomFloorConsumer.as_asgi()),  # the floor's room dashboard
    path("ws/phone/<str:token>/", PhoneConsumer.as_asgi()),  # a remote waitlist player's phone (issue 29)
]
