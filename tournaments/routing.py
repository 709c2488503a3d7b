"""Websocket routes of the tournaments app."""

from django.urls import path

from tournaments import consumers

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", consumers.DirectorConsumer.as_asgi()),
    path("ws/tournaments/lobby/<str:token>/", consumers.LobbyConsumer.as_asgi()),
]
