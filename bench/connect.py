"""What one dealer tablet's websocket connect costs the server, against the bare Channels echo's.

    .venv/bin/python bench/connect.py [--tablets 300] [--rounds 3] [--concurrency 16] [--calls 10]
                                      [--daphne] [--profile FILE]

Makes ``--tablets`` tables (six players, a live hand each) with one dealer session each and
``--calls`` open floor calls, then opens every tablet's socket (the session cookie, the page's origin)
and waits for its snapshot, ``--concurrency`` at a time (by default below the admission limit: nothing is
told to retry; 0 with ``--daphne``: all at once, a storm, the connects told to retry coming back as the
pages do), ``--rounds`` times.  For each round it prints, per connect: the CPU time of the server (this
process's, ``time.process_time``, all threads: the ASGI application runs here on
``channels.testing.WebsocketCommunicator``; the client side is the communicator's few calls), the
SQL statements sent (every psycopg ``execute``, the connection health checks included) and the CPU of
the PostgreSQL backends serving them.  Then the same for ``bench/echo_asgi.py``'s tablet (same
consumer framework and channel layer, no session, no database): the floor of what a connect costs.

``--daphne`` serves both from a real daphne instead (the handshake, autobahn and Twisted included)
and takes the server's CPU from /proc; the clients are this process's.  ``--profile FILE`` writes a
cProfile of the in-process pokerfloor rounds (the event loop's thread only; use py-spy for the read
threads).  Uses its own database (``pokerfloor_bench_connect``).  Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchdb import setup_django  # noqa: E402  (bench/ is on the path of a script run from it)
from live import _cpu_used  # noqa: E402

HOST = "127.0.0.1"


class StatementCounter:
    """Counts every statement any thread sends to PostgreSQL (psycopg's ``Cursor.execute``, which
    Django's cursors and its health checks call)."""

    def __init__(self) -> None:
        import psycopg

        self.count = 0
        self.lock = threading.Lock()
        self.texts: dict[str, int] = {}
        self.keep = False
        real = psycopg.Cursor.execute

        def execute(cursor, query, *args, **kwargs):
            with self.lock:
                self.count += 1
                if self.keep:
                    key = str(query)[:160]
                    self.texts[key] = self.texts.get(key, 0) + 1
            return real(cursor, query, *args, **kwargs)

        psycopg.Cursor.execute = execute


def make_tablets(n: int, calls: int) -> list[tuple[int, str]]:
    """``n`` tables with a live hand and a dealer session each, ``calls`` of them with an open floor
    call: ``[(table id, session cookie)]``."""
    from live import make_room

    from rules.models import FloorCall
    from tables.services.hands import start_hand

    run = uuid.uuid4().hex[:6]
    # this database is the bench's own: the calls earlier runs left open are cancelled (every open call of
    # the room is read at a tablet's connect before 2e45895: they would weigh on the later runs)
    FloorCall.objects.filter(status__in=[FloorCall.Status.OPEN, FloorCall.Status.ANSWERED]).update(
        status=FloorCall.Status.CANCELLED
    )
    room = make_room(n, run, n_floors=1)
    for table_id in room.table_ids:
        start_hand(table_id)
    if calls:
        from rules.services import raise_floor_call

        for table_id in room.table_ids[:calls]:
            raise_floor_call(table_id, "dispute", note="bench")
    return list(zip(room.table_ids, room.dealer_cookies))


def _headers(cookie: str) -> list[tuple[bytes, bytes]]:
    """The in-process tablet's headers (its host, its page's origin, its session cookie)."""
    return [
        (b"host", HOST.encode()),
        (b"origin", f"http://{HOST}".encode()),
        (b"cookie", f"sessionid={cookie}".encode()),
    ]


async def _connect_all(tablets, concurrency: int, open_one) -> tuple[list[float], list]:
    """Connect every tablet, ``concurrency`` at a time (0: all at once), with ``open_one(table id, cookie)
    -> (socket, first message)``; returns the seconds each took to its snapshot and the open sockets."""
    gate = asyncio.Semaphore(concurrency or len(tablets))
    took: list[float] = []
    opened = []

    async def one(table_id: int, cookie: str) -> None:
        async with gate:
            t0 = time.perf_counter()
            ws, first = await open_one(table_id, cookie)
            if first.get("type") != "snapshot":
                raise RuntimeError(f"table {table_id}: {first}")
            took.append(time.perf_counter() - t0)
            opened.append(ws)

    await asyncio.gather(*(one(t, c) for t, c in tablets))
    return took, opened


async def _in_process(app, tablets, concurrency: int) -> tuple[list[float], list]:
    """:func:`_connect_all` through ``app`` in this process (Channels' ``WebsocketCommunicator``)."""
    from channels.testing import WebsocketCommunicator

    async def open_one(table_id: int, cookie: str) -> tuple:
        ws = WebsocketCommunicator(app, f"/ws/tables/{table_id}/dealer/", headers=_headers(cookie))
        connected, code = await ws.connect(timeout=30)
        if not connected:
            raise RuntimeError(f"table {table_id}: refused ({code})")
        return ws, json.loads(await ws.receive_from(timeout=30))

    return await _connect_all(tablets, concurrency, open_one)


async def _over_tcp(port: int, tablets, concurrency: int, retries: list[int]) -> tuple[list[float], list]:
    """:func:`_connect_all` against a server on ``port``, each tablet opened as the page opens it
    (``live_clients.Opener``: told to retry, it waits as told; a failed or silent handshake, it backs off);
    ``retries`` gets one entry per attempt that did not bring the snapshot."""
    import random
    from collections import defaultdict

    from live_clients import Opener

    rng = random.Random(1)

    async def open_one(table_id: int, cookie: str) -> tuple:
        errors: dict[str, int] = defaultdict(int)
        opener = Opener(f"ws://{HOST}:{port}/ws/tables/{table_id}/dealer/", cookie, errors, rng)
        try:
            return await opener.open(time.perf_counter() + 300)
        finally:
            retries.extend([1] * sum(errors.values()))

    return await _connect_all(tablets, concurrency, open_one)


def _backend_cpu() -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend of this database but the bench's own connection."""
    from live import _cpu_seconds, _db_backends

    return _cpu_seconds(_db_backends())


def _proc_cpu(pid: int) -> float:
    from live import _cpu_seconds, _process_tree

    return sum(_cpu_seconds(_process_tree(pid)).values())


def run_rounds(name: str, tablets, args, counter: StatementCounter, app=None, server=None, profile=None) -> list[dict]:
    """``args.rounds`` rounds of every tablet connecting; one dict of figures per round."""
    out = []
    for number in range(args.rounds):
        statements, pg0 = counter.count, _backend_cpu()
        cpu0 = _proc_cpu(server.proc.pid) if server is not None else time.process_time()
        wall0 = time.perf_counter()

        retries: list[int] = []

        async def go(retries: list[int] = retries):
            if server is not None:
                took, opened = await _over_tcp(server.port, tablets, args.concurrency, retries)
            else:
                took, opened = await _in_process(app, tablets, args.concurrency)
            return took, opened

        if profile is not None:
            profile.enable()
        took, opened = LOOP.run_until_complete(go())
        if profile is not None:
            profile.disable()
        wall = time.perf_counter() - wall0
        cpu = (_proc_cpu(server.proc.pid) if server is not None else time.process_time()) - cpu0
        sent = counter.count - statements
        pg = _cpu_used(pg0, _backend_cpu())  # the backends alive at the end (one that ended meanwhile: not counted)
        LOOP.run_until_complete(_close_all(opened))
        n = len(tablets)
        figures = {
            "cpu_ms": cpu * 1000 / n,
            "statements": sent / n,
            "pg_ms": pg * 1000 / n,
            "wall_s": wall,
            "p50_ms": statistics.median(took) * 1000,
            "p99_ms": sorted(took)[int(0.99 * (len(took) - 1))] * 1000,
            "max_ms": max(took) * 1000,
            "retries": len(retries),
        }
        out.append(figures)
        print(
            f"{name:<10} round {number + 1}: {n} connects in {wall:.2f} s; per connect: server CPU"
            f" {figures['cpu_ms']:.2f} ms, {statements_text(figures, server)}, PostgreSQL CPU"
            f" {figures['pg_ms']:.2f} ms; connect p50 {figures['p50_ms']:.0f} ms, p99 {figures['p99_ms']:.0f} ms,"
            f" max {figures['max_ms']:.0f} ms, attempts that failed or were told to retry {figures['retries']}",
            flush=True,
        )
    return out


def statements_text(figures: dict, server) -> str:
    """The statements per connect, counted in this process only (with ``--daphne`` the server's own are
    not seen here; the in-process run counts the same code's)."""
    return "statements not counted" if server is not None else f"{figures['statements']:.1f} statements"


async def _close_all(opened) -> None:
    for ws in opened:
        if hasattr(ws, "disconnect"):
            await ws.disconnect()
        else:
            await ws.close()
    await asyncio.sleep(0.2)


LOOP = asyncio.new_event_loop()


def _spy(pid: int, path: str):
    """py-spy sampling the server ``pid`` (the thread holding the GIL) until SIGINT."""
    spy = subprocess.Popen(
        [str(ROOT / ".venv/bin/py-spy"), "record", "--gil", "-r", "500", "-f", "raw", "-o", path, "-p", str(pid)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
    return spy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tablets", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=16, help="connects in flight at once (0: all, a storm)")
    parser.add_argument("--calls", type=int, default=10, help="open floor calls (at as many tables)")
    parser.add_argument("--daphne", action="store_true", help="a real daphne per server, CPU from /proc")
    parser.add_argument("--statements", action="store_true", help="list the statements of one connect")
    parser.add_argument("--profile", default="", help="cProfile of the in-process pokerfloor rounds to this file")
    parser.add_argument(
        "--spy", default="", help="with --daphne: py-spy (raw, --gil) of each server to PREFIX-<name>.txt"
    )
    args = parser.parse_args()
    asyncio.set_event_loop(LOOP)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    database_url = setup_django("pokerfloor_bench_connect")
    counter = StatementCounter()
    t0 = time.perf_counter()
    tablets = make_tablets(args.tablets, args.calls)
    print(f"made {len(tablets)} tables in {time.perf_counter() - t0:.0f} s", flush=True)
    results = {}
    if args.daphne:
        from live import Server

        env = {**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"}
        for name, app in (("pokerfloor", "pokerfloor.asgi:application"), ("echo", "bench.echo_asgi:application")):
            server = Server(app, 1, env, f"/tmp/bench-connect-{name}.log")
            server.start()
            spy = None
            try:
                LOOP.run_until_complete(_over_tcp(server.port, tablets[:8], 4, []))  # warm: imports, connections
                spy = _spy(server.proc.pid, f"{args.spy}-{name}.txt") if args.spy else None
                results[name] = run_rounds(name, tablets, args, counter, server=server)
            finally:
                if spy is not None:
                    spy.send_signal(signal.SIGINT)
                    spy.wait(30)
                server.stop()
    else:
        from pokerfloor.asgi import application

        took, opened = LOOP.run_until_complete(_in_process(application, tablets[:8], 4))  # warm
        LOOP.run_until_complete(_close_all(opened))
        if args.statements:
            counter.keep = True
            took, opened = LOOP.run_until_complete(_in_process(application, tablets[:1], 1))
            LOOP.run_until_complete(_close_all(opened))
            counter.keep = False
            for text, times in counter.texts.items():
                print(f"  {times} x {text}")
        profile = None
        if args.profile:
            import cProfile

            profile = cProfile.Profile()
        results["pokerfloor"] = run_rounds("pokerfloor", tablets, args, counter, app=application, profile=profile)
        if profile is not None:
            profile.dump_stats(args.profile)
        import echo_asgi

        LOOP.run_until_complete(_in_process(echo_asgi.application, tablets[:8], 4))
        results["echo"] = run_rounds("echo", tablets, args, counter, app=echo_asgi.application)
    best = {name: min(rounds, key=lambda r: r["cpu_ms"]) for name, rounds in results.items()}
    real, echo = best["pokerfloor"], best["echo"]
    print(
        f"best round, per connect: pokerfloor {real['cpu_ms']:.2f} ms CPU + {real['pg_ms']:.2f} ms PostgreSQL,"
        f" {statements_text(real, None if not args.daphne else True)}; echo {echo['cpu_ms']:.2f} ms; ratio"
        f" {real['cpu_ms'] / echo['cpu_ms']:.1f}x ({(real['cpu_ms'] + real['pg_ms']) / echo['cpu_ms']:.1f}x with"
        f" PostgreSQL); load average after: {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
