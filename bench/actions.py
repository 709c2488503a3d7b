"""The cost of one dealer action in the services, without sockets: CPU, statements, PostgreSQL.

    .venv/bin/python bench/actions.py [--tables 20] [--actions 3000] [--seed 1]

Plays random legal actions (the choice of ``bench/live.py``: deals, checks,
calls, raises, folds, boards, awards) at ``--tables`` tables of six players
through ``tables.services`` in this one process, as a server's service
thread runs them, on its own database (``pokerfloor_bench_actions`` on the
embedded server, or ``DATABASE_URL``).  For each kind of step -- the deal
(``start_hand``), an action in the middle of a hand, the action that ends
the hand; the first deal of each table in the process apart -- it prints the mean per step of: this process's CPU time (the
service's Python: engine, snapshot, JSON, the driver), the wall time, the
statements sent to PostgreSQL, and the CPU time of the PostgreSQL backend
that ran them, and the write-ahead log PostgreSQL wrote per step (what
the disk takes).  The broadcasts are built as on a server and handed to a
broadcaster that drops them (on a server, ``tables.writepath.Broadcaster``
sends them from the event loop, outside the service's thread).

CPU times are far less disturbed by other work on the machine than wall
times, so two checkouts compare in one session:
``cd /other/checkout && .venv/bin/python bench/actions.py``.  Prints
figures only; asserts nothing.

Figures, dated and with the machine: ``bench/RESULTS.md`` ("The event loop's own connections").
The counted statements leave out BEGIN and COMMIT: the locked path sends them too, the one-statement
path commits in its one statement.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from benchdb import setup_django  # noqa: E402


def _backend_cpu(pid: int) -> float:
    """CPU seconds (user + system) of the PostgreSQL backend ``pid`` (same machine), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setup_django("pokerfloor_bench_actions")

    from django.db import connection
    from live_clients import choose  # the same random legal choice as the live benchmark

    from tables import services
    from tables.models import Table

    run = f"{random.Random().getrandbits(24):06x}"
    tables = []
    for i in range(args.tables):
        table = services.create_table(f"Actions {run} #{i}", small_blind=50, big_blind=100)
        for seat in range(1, 7):
            services.seat_player(table.id, seat, f"A{i}-{seat}", 10_000_000)
        tables.append(table.id)

    statements = [0]

    def count(execute, sql, params, many, context):
        statements[0] += 1
        return execute(sql, params, many, context)

    def wal_lsn() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()")
            return cursor.fetchone()[0]

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]

    def snapshot(table_id: int) -> dict:
        return services.table_snapshot(Table.objects.select_related("dealer", "current_hand").get(pk=table_id))

    class DroppingBroadcaster:
        def submit(self, messages) -> None:
            pass

    from tables import writepath

    if hasattr(writepath, "_thread"):
        writepath._thread.broadcaster = DroppingBroadcaster()

    rng = random.Random(args.seed)
    dealt: set[int] = set()  # tables dealt in this process (the first deal of each is counted apart)
    snapshots = {t: snapshot(t) for t in tables}
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0, 0.0])  # n, cpu, wall, statements, db cpu
    wal_start = wal_lsn()
    with connection.execute_wrapper(count):
        for _ in range(args.actions):
            table_id = rng.choice(tables)
            message = choose(snapshots[table_id], rng)
            live = snapshots[table_id]["hand"] is not None and snapshots[table_id]["hand"]["status"] == "live"
            statements[0] = 0
            db0, cpu0, wall0 = _backend_cpu(backend), time.process_time(), time.perf_counter()
            if message["type"] == "start_hand":
                services.start_hand(table_id)
                kind = "deal" if table_id in dealt else "first deal"
                dealt.add(table_id)
            else:
                services.apply_action(table_id, message["action"])
                kind = "action"
            wall, cpu, db = time.perf_counter() - wall0, time.process_time() - cpu0, _backend_cpu(backend) - db0
            n = statements[0]
            snapshots[table_id] = snapshot(table_id)
            if kind == "action" and live and snapshots[table_id]["hand"]["status"] != "live":
                kind = "hand end"
            entry = totals[kind]
            entry[0] += 1
            entry[1] += cpu
            entry[2] += wall
            entry[3] += n
            entry[4] += db

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)", [wal_start])
        wal_bytes = float(cursor.fetchone()[0])
    print(f"tables={args.tables} actions={args.actions} checkout={ROOT}")
    print(f"{'step':<10} {'count':>6} {'CPU ms':>8} {'wall ms':>8} {'statements':>11} {'PG CPU ms':>10}")
    all_n = sum(e[0] for e in totals.values())
    for kind in ("first deal", "deal", "action", "hand end"):
        n, cpu, wall, stmts, db = totals[kind]
        if n:
            print(
                f"{kind:<10} {n:>6} {cpu / n * 1000:>8.2f} {wall / n * 1000:>8.2f} {stmts / n:>11.2f} {db / n * 1000:>10.2f}"
            )
    cpu = sum(e[1] for e in totals.values())
    wall = sum(e[2] for e in totals.values())
    stmts = sum(e[3] for e in totals.values())
    db = sum(e[4] for e in totals.values())
    print(
        f"{'all':<10} {all_n:>6} {cpu / all_n * 1000:>8.2f} {wall / all_n * 1000:>8.2f} {stmts / all_n:>11.2f}"
        f" {db / all_n * 1000:>10.2f}"
    )
    # the whole server's WAL over the run (autovacuum's too), per step of every kind: what each step costs the disk
    print(f"WAL written: {wal_bytes / all_n:,.0f} bytes per step")


if __name__ == "__main__":
    main()
