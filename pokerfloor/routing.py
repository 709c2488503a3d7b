"""Websocket URL routes of every app (documented in docs/protocol.md)."""

from tables.routing import websocket_urlpatterns as tables_ws

websocket_urlpatterns = [*tables_ws]
