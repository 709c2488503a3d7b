"""Websocket routes of the tables app (see docs/protocol.md)."""

from django.urls import path

from tables import consumers

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/dealer/", consumers.DealerConsumer.as_asgi()),
    path("ws/floor/", consumers.FloorConsumer.as_asgi()),
]
