"""ASGI entry point: HTTP through Django, websockets through Channels.

Served by daphne (``daphne pokerfloor.asgi:application``).  The floor's
clock for waitlist calls is a separate process (``manage.py run_worker``).
"""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerfloor.settings")

# Django's HTTP handler, run with one thread hop per request and persistent
# database connections (see pokerfloor.handlers for why and the figures).
from pokerfloor.handlers import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from pokerfloor.routing import websocket_urlpatterns  # noqa: E402

#: Read-only display sockets (the lobby TVs) are keyed by their unguessable
#: token and never look at a user: they skip the session and auth stack (no
#: session lookup per screen, no session wrapper on every update sent).
PUBLIC_WEBSOCKET_PREFIXES = ("/ws/lobby/", "/ws/tournaments/lobby/")

_public_websockets = URLRouter(websocket_urlpatterns)
_staff_websockets = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


async def websocket_app(scope, receive, send):
    """Route a websocket: display links without auth, everything else with
    the session's user (each consumer checks roles itself)."""
    if scope.get("path", "").startswith(PUBLIC_WEBSOCKET_PREFIXES):
        return await _public_websockets(scope, receive, send)
    return await _staff_websockets(scope, receive, send)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(websocket_app),
    }
)

# Everything imported so far (Django, the apps, the URL and websocket routes)
# lives as long as the process: move it out of the garbage collector's
# generations, so that a full collection during a fan-out to many screens
# does not walk it again and again.
gc.freeze()
