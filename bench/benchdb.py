"""Django for the benchmarks: each on its own database, migrated, DEBUG off.

``setup_django("pokerfloor_bench_lobby")`` uses that database on the
embedded PostgreSQL unless ``DATABASE_URL`` says otherwise, and returns
the URL (the servers a benchmark starts are given the same one).
"""

from __future__ import annotations

import os


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
