"""Readiness checks of ``deploy/two_machines.py``: is a server up, and answering as itself?

A bare TCP connect is not enough: when two servers of a run drew the same port, the one that failed to
bind exited while the connect was answered by the other.  Each check here asks the server a question
only it answers, and :func:`wait_until` gives up at once when the process it waits for has exited.
"""

from __future__ import annotations

import socket
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
    """True when the Redis server on ``host:port`` answers ``AUTH <password>`` with ``+OK`` and ``PING``
    with ``+PONG``; False when nothing or something else answers."""
    try:
        with socket.create_connection((host, port), timeout=1) as conn:
            conn.sendall(f"AUTH {password}\r\nPING\r\n".encode())
            answer = b""
            while b"PONG" not in answer and len(answer) < 256:
                chunk = conn.recv(256)
                if not chunk:
                    break
                answer += chunk
    except OSError:
        return False
    return b"+OK\r\n+PONG\r\n" in answer


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
