"""Readiness checks of ``deploy/two_machines.py``: is a server up, and answering as itself?

A bare TCP connect is not enough: when two servers of a run drew the same port, the one that failed to
bind exited while the connect was answered by the other.  Each check here asks the server a question
only it answers, and :func:`wait_until` gives up at once when the process it waits for has exited.
"""

from __future__ import annotations

import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

__all__ = ["http_get", "log_tail", "redis_answers", "wait_until"]


def http_get(url: str, host: str, timeout: float = 5.0) -> tuple[int | None, dict[str, str]]:
    """GET ``url`` with the ``Host`` header ``host``: (status, response headers); (None, {}) when
    nothing answers."""
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)
    except (urllib.error.URLError, OSError):
        return None, {}


def redis_answers(host: str, port: int, password: str) -> bool:
    """True when the Redis server on ``host:port`` takes ``password`` and answers ``PING`` (redis-py, which
    channels-redis brings); False when nothing or something else answers."""
    import redis

    client = redis.Redis(host=host, port=port, password=password, socket_timeout=1, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def log_tail(path: Path) -> str:
    """The last 4,000 characters of the log at ``path`` under a ``==> name`` line ("" when there is none)."""
    return f"\n==> {path.name}\n{path.read_text(errors='replace')[-4000:]}" if path.exists() else ""


def wait_until(
    ready: Callable[[], bool],
    timeout: float,
    what: str,
    log: Path | None = None,
    proc: subprocess.Popen | None = None,
) -> None:
    """Poll ``ready()`` every 0.2 s until it is true.  Raises ``RuntimeError`` naming ``what`` (with the
    tail of ``log``) when ``proc`` has exited meanwhile or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while not ready():
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}{log_tail(log) if log else ''}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} not ready within {timeout:.0f} s{log_tail(log) if log else ''}")
        time.sleep(0.2)
