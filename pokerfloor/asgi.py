"""ASGI entry point: HTTP through Django, websockets through Channels.

Served by daphne (``daphne pokerfloor.asgi:application``).  The floor's
server-side timers (``tables.timers``) start with the first connection.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerfloor.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from pokerfloor.routing import websocket_urlpatterns  # noqa: E402
from tables.timers import FloorTimers  # noqa: E402

# FloorTimers: the server's own clock for the waitlist calls (no-shows are
# recorded even when no floor dashboard is open; see tables.timers).
application = FloorTimers(ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
))
