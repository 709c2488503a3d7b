"""ASGI entry point: HTTP through Django, websockets through Channels.

Served by daphne (``daphne pokerfloor.asgi:application``), or by several
daphnes on one port (``python -m pokerfloor.serve --workers N``, which needs
``REDIS_URL``).  The floor's clock for waitlist calls is a separate process
(``manage.py run_worker``), one for all of them.
"""

import functools
import os
import re

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerfloor.settings")

# Django's HTTP handler, run with one thread hop per request and persistent
# database connections (pokerfloor.runtime.http says why).
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from pokerfloor.runtime.http import get_asgi_application

try:  # Django refuses an empty key when it is read
    _key = settings.SECRET_KEY
except ImproperlyConfigured:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off (a random string of 50 characters or more; "
        "for a local demo set DEBUG=1 instead)"
    ) from None

django_asgi_app = get_asgi_application()

from pokerfloor import embedded_pg  # noqa: E402

# With the embedded PostgreSQL (no DATABASE_URL): start it again when it dies.
embedded_pg.start_watchdog()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402
from django.http.request import split_domain_port, validate_host  # noqa: E402

from pokerfloor.routing import websocket_urlpatterns  # noqa: E402
from pokerfloor.runtime.admission import Admission  # noqa: E402
from pokerfloor.runtime.auth import ParallelAuthMiddleware  # noqa: E402
from pokerfloor.runtime.handshake import defer_handshake_debug  # noqa: E402
from pokerfloor.runtime.memory import freeze_startup_heap  # noqa: E402

#: Read-only display sockets (the lobby TVs) are keyed by their unguessable
#: token and never look at a user: they skip the session and auth stack (no
#: session lookup per screen, no session wrapper on every update sent).
PUBLIC_WEBSOCKET_PREFIXES = ("/ws/lobby/", "/ws/tournaments/lobby/")

_public_websockets = URLRouter(websocket_urlpatterns)


_staff_websockets = CookieMiddleware(SessionMiddleware(ParallelAuthMiddleware(URLRouter(websocket_urlpatterns))))

#: The dealer tablet's socket reads its session, user and right with its table's snapshot, in one
#: statement (``tables.tablet_open``): it gets its session cookie only, no session or auth middleware
#: (their three statements in a trip of their own).
TABLET_WEBSOCKET = re.compile(r"/ws/tables/[0-9]+/dealer/\Z")
_tablet_websockets = CookieMiddleware(URLRouter(websocket_urlpatterns))


async def websocket_app(scope, receive, send):
    """Route a websocket: display links without auth, the dealer tablet with its session cookie,
    everything else with the session's user (each consumer checks roles itself)."""
    path = scope.get("path", "")
    if path.startswith(PUBLIC_WEBSOCKET_PREFIXES):
        return await _public_websockets(scope, receive, send)
    if TABLET_WEBSOCKET.match(path):
        return await _tablet_websockets(scope, receive, send)
    return await _staff_websockets(scope, receive, send)


_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _origin(scheme: str, host: str) -> str:
    """``scheme://host[:port]`` in lower case, without the scheme's default port."""
    host = host.strip().lower().rstrip("/")
    domain, port = split_domain_port(host)
    if port and port == _DEFAULT_PORTS.get(scheme):
        host = domain if ":" not in domain else f"[{domain}]"
    return f"{scheme}://{host}"


def _trusted(origin: str, trusted: str) -> bool:
    """Does ``origin`` match a ``CSRF_TRUSTED_ORIGINS`` entry (``https://*.example.org``
    matches its subdomains, on the same port)?"""
    scheme, _, host = trusted.partition("://")
    if host.startswith("*."):
        o_scheme, _, o_host = origin.partition("://")
        base = _origin(scheme, host[2:]).partition("://")[2]
        o_domain, o_port = split_domain_port(o_host)
        b_domain, b_port = split_domain_port(base)
        return o_scheme == scheme.lower() and o_port == b_port and o_domain.endswith("." + b_domain)
    return origin == _origin(scheme.lower(), host)


def websocket_origin_allowed(scope) -> bool:
    """May a browser page of this ``Origin`` open this websocket?

    Yes when the origin (scheme, host and port) is the page's own origin, the
    one the socket is opened on (the ``Host`` header, a host in
    ``ALLOWED_HOSTS``; the scheme is https for wss, or behind an HTTPS proxy
    that says so in ``X-Forwarded-Proto``), or matches ``CSRF_TRUSTED_ORIGINS``.
    A missing ``Origin`` is refused.  Channels' ``AllowedHostsOriginValidator``
    compares the host only, so a page on another port of an allowed host (any
    other service there) could open the floor's sockets with its users' cookies.

    The answer for the same headers and settings is kept (:func:`_origin_allowed`): every tablet of a room
    comes from the same origin to the same host: a storm asked the same question once per tablet."""
    origin = host = proto = None
    for name, value in scope.get("headers", []):
        name = name.lower()
        if name == b"origin":
            origin = value
        elif name == b"host":
            host = value
        elif name == b"x-forwarded-proto":
            proto = value
    key = (tuple(settings.ALLOWED_HOSTS), tuple(settings.CSRF_TRUSTED_ORIGINS), settings.BEHIND_HTTPS_PROXY)
    return _origin_allowed(origin, host, proto, scope.get("scheme"), key)


@functools.lru_cache(maxsize=256)
def _origin_allowed(origin_header, host_header, proto_header, scheme, settings_key) -> bool:
    """:func:`websocket_origin_allowed` of these header values (bytes or None), the scope's scheme and
    ``settings_key`` (the settings it reads: an answer is kept per settings)."""
    allowed_hosts, trusted_origins, behind_https_proxy = settings_key
    origin = origin_header.decode("latin-1") if origin_header is not None else None
    if not origin or origin == "null":
        return False
    scheme_of_origin, sep, rest = origin.strip().partition("://")
    if not sep or scheme_of_origin.lower() not in _DEFAULT_PORTS:
        return False
    origin = _origin(scheme_of_origin.lower(), rest)
    if any(_trusted(origin, entry) for entry in trusted_origins):
        return True
    host = host_header.decode("latin-1") if host_header is not None else ""
    domain, _port = split_domain_port(host.lower())
    if not domain or not validate_host(domain, list(allowed_hosts)):
        return False
    forwarded = proto_header.decode("latin-1") if proto_header is not None else ""
    secure = scheme in ("wss", "https") or (behind_https_proxy and forwarded.strip().lower() == "https")
    return origin == _origin("https" if secure else "http", host)


def require_allowed_origin(app):
    """ASGI middleware: deny a websocket whose origin is not allowed
    (:func:`websocket_origin_allowed`; the handshake is refused with 403)."""

    async def validate(scope, receive, send):
        if scope["type"] == "websocket" and not websocket_origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await app(scope, receive, send)

    return validate


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # at most WS_CONNECT_LIMIT connects in progress, a bounded queue behind them; the others are told when
        # to retry (close 4503)
        "websocket": require_allowed_origin(
            Admission(websocket_app, settings.WS_CONNECT_LIMIT, queue_wait=settings.WS_CONNECT_QUEUE_MS / 1000)
        ),
    }
)

# autobahn pretty-printed its options for a debug line nobody writes, at every handshake.
defer_handshake_debug()

# Everything imported so far lives as long as the process (pokerfloor.runtime.memory says why).
freeze_startup_heap()
