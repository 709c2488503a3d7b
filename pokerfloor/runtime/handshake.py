"""Autobahn's debug formatting of every websocket handshake, done only when a debug line is written.

Why: daphne's websocket protocol is autobahn's, whose ``_connectionMade`` passes
``pformat(configAttrLog)`` (the pretty-printed list of its thirty-odd options) to ``self.log.debug`` on
every connection.  The debug call itself is a no-op at daphne's log level (txaio's loggers below their
level), but Python evaluates the argument before the call, so every handshake pretty-printed the options
for nothing: a third of the bare Channels echo's CPU per connect, 3.7 % of the server's during a connect
storm (``bench/RESULTS.md``, "Connect storm ...").  :func:`defer_handshake_debug` gives autobahn's
protocol module a ``pformat`` that formats when the text is asked for (a debug line that is written),
and costs one small object otherwise.
"""

from __future__ import annotations

import pprint
from typing import Any

__all__ = ["LazyPformat", "defer_handshake_debug"]


class LazyPformat:
    """``pprint.pformat(obj)``, computed when formatted (``str``, ``format``, ``repr``)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any, *args: Any, **kwargs: Any) -> None:
        self.obj = obj

    def __str__(self) -> str:
        return pprint.pformat(self.obj)

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def defer_handshake_debug() -> bool:
    """Give ``autobahn.websocket.protocol`` the lazy ``pformat`` (call once per process, before serving);
    False when autobahn is not installed (nothing to do)."""
    try:
        from autobahn.websocket import protocol
    except ImportError:
        return False
    protocol.pformat = LazyPformat  # type: ignore[assignment]  # formats only when written
    return True
