"""``manage.py run_worker``: the floor's background worker (``pokerfloor.worker``).

Runs until SIGTERM or SIGINT (Ctrl-C), then finishes the look in progress
and exits.  ``make run`` starts it beside daphne and stops it with daphne.
"""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand

from pokerfloor import embedded_pg, worker


class Command(BaseCommand):
    help = "Run the floor's background worker: waitlist calls whose countdown ended become no-shows."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--poll",
            type=float,
            default=worker.POLL_SECONDS,
            help="longest sleep between two looks at the calls (seconds, default %(default)s)",
        )
        parser.add_argument("--once", action="store_true", help="look once, print how many calls expired, exit")

    def handle(self, *args, poll: float, once: bool, **options) -> None:
        if once:
            self.stdout.write(str(worker.expire_due_calls()))
            return
        embedded_pg.start_watchdog()  # a dead embedded PostgreSQL is restarted here too (no-op with DATABASE_URL)
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        self.stdout.write(f"floor worker running (looks at least every {poll:g} s)")
        if warning := worker.unshared_layer_warning():
            self.stderr.write(warning)
        self.stdout.flush()
        worker.run(stop, poll)
