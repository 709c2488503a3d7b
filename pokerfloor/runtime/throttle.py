"""Rate limits counted in Django's cache: failed logins and lobby-token guesses.

Each limit is a fixed window: the first counted event starts a window of
``window`` seconds (the cache entry's timeout), and once ``limit`` events
are counted in it the key is blocked until the entry expires.  The counters
live in ``settings.CACHES["default"]``: Redis when ``REDIS_URL`` is set
(shared by every process), else per process.

The client address is the connection's peer (``REMOTE_ADDR`` for a request,
``scope["client"]`` for a websocket); behind a proxy, daphne must be started
with ``--proxy-headers`` so that it is the browser's and not the proxy's.

* Logins: ``settings.LOGIN_FAILURE_LIMIT`` failed logins (default 5) for one
  user name from one address within ``LOGIN_FAILURE_WINDOW`` seconds (default
  900) refuse further logins of that name from that address, even with the
  right password, until the window ends.
* Lobby-display tokens: ``settings.LOBBY_TOKEN_MISS_LIMIT`` unknown tokens
  (default 60) from one address within ``LOBBY_TOKEN_MISS_WINDOW`` seconds
  (default 600) refuse every token lookup from that address (HTTP 429,
  websocket close code 4429) until the window ends, so guessing is slow and
  a known token's screen keeps working.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

#: Websocket close code for a refused lookup (HTTP's 429 in the 4000 range).
CLOSE_THROTTLED = 4429


def _key(kind: str, *parts: str) -> str:
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"throttle:{kind}:{digest}"


def count(key: str) -> int:
    """Events counted under ``key`` in its current window (0 when none)."""
    return int(cache.get(key, 0))


def hit(key: str, window: int) -> int:
    """Count one event under ``key`` (a window of ``window`` seconds starts
    with the first); returns the count so far."""
    cache.add(key, 0, timeout=window)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window)
        return 1


def client_ip(request_or_scope: HttpRequest | dict[str, Any]) -> str:
    """The client's address of a request or an ASGI scope ("" when unknown)."""
    if isinstance(request_or_scope, HttpRequest):
        return request_or_scope.META.get("REMOTE_ADDR") or ""
    client = request_or_scope.get("client")
    return str(client[0]) if client else ""


# --- logins -----------------------------------------------------------------


def _login_key(username: str, ip: str) -> str:
    return _key("login", username.strip().lower(), ip)


def login_blocked(username: str, ip: str) -> bool:
    """True when ``username`` may not log in from ``ip`` now (too many failures)."""
    return count(_login_key(username, ip)) >= settings.LOGIN_FAILURE_LIMIT


def login_failed(username: str, ip: str) -> None:
    """Count a failed login of ``username`` from ``ip``."""
    hit(_login_key(username, ip), settings.LOGIN_FAILURE_WINDOW)


def login_succeeded(username: str, ip: str) -> None:
    """Forget the failures of ``username`` from ``ip`` after a good login."""
    cache.delete(_login_key(username, ip))


def login_wait_minutes() -> int:
    """The login window in whole minutes (for the refusal message)."""
    return max(1, -(-settings.LOGIN_FAILURE_WINDOW // 60))


# --- lobby-display tokens ------------------------------------------------------


def _token_key(ip: str) -> str:
    return _key("token", ip)


def token_lookups_blocked(request_or_scope: HttpRequest | dict[str, Any]) -> bool:
    """True when the client of this request or scope may look up no token now."""
    return count(_token_key(client_ip(request_or_scope))) >= settings.LOBBY_TOKEN_MISS_LIMIT


def token_missed(request_or_scope: HttpRequest | dict[str, Any]) -> None:
    """Count one unknown (or revoked) token looked up by this client."""
    hit(_token_key(client_ip(request_or_scope)), settings.LOBBY_TOKEN_MISS_WINDOW)


async def atoken_lookups_blocked(scope: dict[str, Any]) -> bool:
    """:func:`token_lookups_blocked` for a consumer (the cache may be Redis)."""
    return int(await cache.aget(_token_key(client_ip(scope)), 0)) >= settings.LOBBY_TOKEN_MISS_LIMIT


async def atoken_missed(scope: dict[str, Any]) -> None:
    """:func:`token_missed` for a consumer."""
    key, window = _token_key(client_ip(scope)), settings.LOBBY_TOKEN_MISS_WINDOW
    await cache.aadd(key, 0, timeout=window)
    try:
        await cache.aincr(key)
    except ValueError:
        await cache.aadd(key, 1, timeout=window)


def throttled_response() -> HttpResponse:
    """HTTP 429 with a short text, for a refused token lookup."""
    return HttpResponse(
        _("Too many requests for unknown links from your address: try again later."),
        status=429,
        content_type="text/plain; charset=utf-8",
        headers={"Retry-After": str(settings.LOBBY_TOKEN_MISS_WINDOW)},
    )


def limit_token_lookups(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a view that looks a display token up and raises ``Http404``
    for an unknown one: the 404s count as misses of the client, and a client
    over the limit gets :func:`throttled_response` without a lookup."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if token_lookups_blocked(request):
            return throttled_response()
        try:
            return view(request, *args, **kwargs)
        except Http404:
            token_missed(request)
            raise

    return wrapper
