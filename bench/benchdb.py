"""Django for the benchmarks: each on its own database, migrated, DEBUG off.

``setup_django("pokerfloor_bench_lobby")`` uses that database on the
embedded PostgreSQL unless ``DATABASE_URL`` says otherwise, and returns
the URL (the servers a benchmark starts are given the same one).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def setup_django(database: str) -> str:
    """Configure Django on ``database`` (created if missing) and migrate it.

    DEBUG is off, as in production: the servers the benchmarks start run so,
    and sessions made here must verify there.  Returns ``DATABASE_URL``."""
    if not os.environ.get("DATABASE_URL"):
        from pokerfloor.embedded_pg import embedded_database_url

        os.environ["DATABASE_URL"] = embedded_database_url(database)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerfloor.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return os.environ["DATABASE_URL"]


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def daphne(database_url: str, log_path: str):
    """Run ``daphne pokerfloor.asgi:application`` on a free port of 127.0.0.1
    against ``database_url`` (stderr to ``log_path``); yield the port once it
    accepts connections (up to 10 s); stop it on exit."""
    import socket
    import subprocess
    import time

    root = Path(__file__).resolve().parents[1]
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "ERROR"}
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [str(root / ".venv/bin/daphne"), "-b", "127.0.0.1", "-p", str(port), "pokerfloor.asgi:application"],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(10)
