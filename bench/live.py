"""Live benchmark: a real daphne server, N simulated tablets, F floor dashboards.

    .venv/bin/python bench/live.py [--tables 50] [--floors 5] [--seconds 30] [--rate 6]
                                   [--rates 0.4,2,4,8] [--baseline] [--workers N]

Every tablet connects first (the connection storm is timed apart: connect
and first snapshot p50/p99); then each acts at random (Poisson) times, ``--rate`` actions per second on
average, waiting for the ack of its previous message like a dealer would;
it plays random legal actions (starting hands, betting, boards, awards).
Prints actions/s, p50/p95/p99 latency from send to ack and from send to
receipt on every floor dashboard, and the count of lost or doubled events
seen by the floors (gaps or repeats of a table's ``seq``) and in the
database, and how the disk answered meanwhile (``DiskProbe``: a commit
waits for the disk, so its stalls show in every p99).  Uses its own
database (``pokerfloor_bench`` on the embedded server, or ``DATABASE_URL``
as given).  Figures are printed, never asserted.

``--baseline`` runs the same clients against a bare Channels echo server
(``bench/echo_asgi.py``: same URLs and JSON, no database, no engine) in the
same run, one row each per offered load, and prints the ratios pokerfloor /
echo (the machine's noise cancels out of them).  ``--rates`` runs one row
per mean rate per tablet (new tables for each).  ``--workers N`` serves each
from N daphne processes on one port (``pokerfloor/serve.py``) sharing Redis
(``REDIS_URL``, or a redis-server started on a Unix socket for the run).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchdb import free_port  # noqa: E402  (bench/ is on the path of a script run from it)


def setup_django() -> str:
    """Django on this benchmark's own database (``bench/benchdb.py``)."""
    from benchdb import setup_django as on_database

    return on_database("pokerfloor_bench")


def make_room(n_tables: int, run: str, n_floors: int = 5) -> tuple[list[int], list[str], list[str]]:
    """Create tables with six deep-stacked players each; return table ids and
    session cookies of one dealer per table and of ``n_floors`` floor sessions
    (one per floor dashboard the run opens: the receipts expected are counted
    per dashboard, so there must be as many as ``--floors`` says)."""
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from tables import services
    from tables.models import Table

    Table.objects.filter(name__startswith="Bench ").update(status=Table.Status.CLOSED)  # earlier runs
    dealer_group = Group.objects.get_or_create(name="dealer")[0]
    floor_group = Group.objects.get_or_create(name="floor")[0]
    table_ids, dealer_cookies, floor_cookies = [], [], []
    for i in range(n_tables):
        user = User.objects.create_user(f"bench-{run}-d{i}")
        user.groups.add(dealer_group)
        table = services.create_table(f"Bench {run} #{i}", small_blind=50, big_blind=100, dealer=user)
        for seat in range(1, 7):
            services.seat_player(table.id, seat, f"P{i}-{seat}", 10_000_000)
        client = Client()
        client.force_login(user)
        table_ids.append(table.id)
        dealer_cookies.append(client.cookies["sessionid"].value)
    floor_user = User.objects.create_user(f"bench-{run}-floor")
    floor_user.groups.add(floor_group)
    for _ in range(n_floors):
        client = Client()
        client.force_login(floor_user)
        floor_cookies.append(client.cookies["sessionid"].value)
    return table_ids, dealer_cookies, floor_cookies


def choose(snapshot: dict, rng: random.Random) -> dict:
    """A random legal message for the table's current state."""
    hand = snapshot.get("hand")
    if hand is None or hand["status"] != "live":
        return {"type": "start_hand"}
    state = hand["state"]
    phase = state["phase"]
    if phase == "board":
        return {"type": "action", "action": {"type": "board", "cards": ""}}
    if phase == "showdown":
        for index, pot in enumerate(state["pots"]):
            if not any(a["pot"] == index for a in state.get("awards", [])):
                return {
                    "type": "action",
                    "action": {"type": "award", "pot": index, "winners": [rng.choice(pot["eligible_seats"])]},
                }
    legal = state["legal"]
    seat = state["to_act_seat"]
    r = rng.random()
    if legal["can_bet_or_raise"] and r < 0.15:
        return {"type": "action", "action": {"type": "raise", "seat": seat, "to": legal["min_raise_to"]}}
    if legal["can_fold"] and legal["call_amount"] > 0 and r < 0.35:
        return {"type": "action", "action": {"type": "fold", "seat": seat}}
    if legal["can_check"]:
        return {"type": "action", "action": {"type": "check", "seat": seat}}
    return {"type": "action", "action": {"type": "call", "seat": seat}}


async def connect(url: str, cookie: str, errors=None, attempts: int = 5):
    """Open a websocket with the session cookie and the page's origin; a handshake that a busy server
    drops is tried again (up to ``attempts`` times, counted in ``errors["handshake_retry"]``)."""
    import websockets

    for attempt in range(attempts):
        try:
            return await websockets.connect(
                url,
                additional_headers={"Cookie": f"sessionid={cookie}", "Origin": "http://" + url.split("/")[2]},
                max_size=None,
                open_timeout=30,
            )
        except (OSError, websockets.InvalidHandshake, TimeoutError):
            if attempt == attempts - 1:
                raise
            if errors is not None:
                errors["handshake_retry"] += 1
            await asyncio.sleep(0.5)


async def tablet(url, cookie, table_id, clock, rate, rng, sent, acks, errors, kinds):
    """One dealer tablet: connects, reports itself ready (``clock["ready"]``, with the seconds its
    connection and first snapshot took), waits for ``clock["go"]``, then acts until ``clock["deadline"]``."""
    c0 = time.perf_counter()
    async with await connect(url, cookie, errors) as ws:
        snapshot = json.loads(await ws.recv())["snapshot"]
        clock["connects"].append(time.perf_counter() - c0)
        clock["ready"].release()
        await clock["go"].wait()
        pending = None
        while True:
            if pending is None:
                if time.perf_counter() >= clock["deadline"]:
                    return
                await asyncio.sleep(rng.expovariate(rate))
                message = choose(snapshot, rng)
                message["client_id"] = uuid.uuid4().hex
                message["expected_seq"] = snapshot["seq"]
                pending = message["client_id"]
                sent[pending] = (table_id, time.perf_counter())
                kinds[pending] = message["action"]["type"] if message["type"] == "action" else message["type"]
                await ws.send(json.dumps(message))
            reply = json.loads(await ws.recv())
            if reply["type"] in ("update", "snapshot"):
                if reply["seq"] >= snapshot["seq"]:
                    snapshot = reply["snapshot"]
            elif reply["type"] == "ack" and reply["client_id"] == pending:
                acks[pending] = (reply["seq"], time.perf_counter(), reply["duplicate"])
                pending = None
                while snapshot["seq"] < reply["seq"]:  # wait for our own update before deciding again
                    try:
                        update = json.loads(await asyncio.wait_for(ws.recv(), 5.0))
                    except TimeoutError:  # the layer lost it: ask for a snapshot, as a tablet does on a gap
                        errors["own_update_missing"] += 1
                        await ws.send(json.dumps({"type": "snapshot"}))
                        continue
                    if update["type"] in ("update", "snapshot") and update["seq"] > snapshot["seq"]:
                        snapshot = update["snapshot"]
            elif reply["type"] == "error":
                errors[reply["code"]] += 1
                pending = None
                await ws.send(json.dumps({"type": "snapshot"}))


async def floor(url, cookie, stop, received, anomalies):
    async with await connect(url, cookie) as ws:
        first = json.loads(await ws.recv())
        last = {t["table"]["id"]: t["seq"] for t in first["tables"]}
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                continue
            now = time.perf_counter()
            message = json.loads(raw)
            batch = message["messages"] if message["type"] == "batch" else [message]
            for message in batch:
                if message["type"] != "update":
                    continue
                table_id = message["snapshot"]["table"]["id"]
                seq = message["seq"]
                previous = last.get(table_id)
                if previous is not None and seq != previous + 1:
                    anomalies["doubled" if seq <= previous else "lost"] += 1
                last[table_id] = max(seq, previous or 0)
                received[(table_id, seq)].append(now)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))] * 1000


async def run(args, rate, port, table_ids, dealer_cookies, floor_cookies):
    rng = random.Random(args.seed)
    sent, acks, errors, kinds = {}, {}, defaultdict(int), {}
    received, anomalies = defaultdict(list), defaultdict(int)
    stop = asyncio.Event()
    floors = [
        asyncio.create_task(floor(f"ws://127.0.0.1:{port}/ws/floor/", c, stop, received, anomalies))
        for c in floor_cookies[: args.floors]
    ]
    await asyncio.sleep(0.5)
    # every tablet connects first (a dealer's tablet is open before the first hand): the
    # connection storm of 50 sockets is timed apart, not counted in the actions' latencies
    clock = {"ready": asyncio.Semaphore(0), "go": asyncio.Event(), "connects": [], "deadline": 0.0}
    tablets = [
        asyncio.create_task(
            tablet(
                f"ws://127.0.0.1:{port}/ws/tables/{t}/dealer/",
                c,
                t,
                clock,
                rate,
                random.Random(rng.random()),
                sent,
                acks,
                errors,
                kinds,
            )
        )
        for t, c in zip(table_ids, dealer_cookies)
    ]
    for _ in tablets:
        await clock["ready"].acquire()
    start = time.perf_counter()
    clock["deadline"] = start + args.seconds
    clock["go"].set()
    await asyncio.gather(*tablets)
    elapsed = time.perf_counter() - start
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.gather(*floors)
    return sent, acks, errors, received, anomalies, elapsed, kinds, start, clock["connects"]


@contextlib.contextmanager
def redis_server():
    """``REDIS_URL`` if set, else a redis-server on a Unix socket in a temporary directory for the
    block (no persistence); yields the URL.  Exits with a message when redis-server is missing."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("--workers > 1 needs Redis: set REDIS_URL or install redis-server")
    folder = tempfile.mkdtemp(prefix="bench-redis-")
    path = os.path.join(folder, "redis.sock")
    server = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", path, "--save", "", "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            if os.path.exists(path):
                break
            time.sleep(0.05)
        yield f"unix://{path}"
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def server(app: str, workers: int, env: dict[str, str], log_path: str):
    """Serve the ASGI ``app`` on a free port of 127.0.0.1: one daphne, or ``workers`` daphnes on the
    one port (``python -m pokerfloor.serve``); yield the port once it accepts connections (and, with
    several processes, a few seconds more for all to load); stop on exit."""
    port = free_port()
    if workers == 1:
        command = [str(ROOT / ".venv/bin/daphne"), "-b", "127.0.0.1", "-p", str(port), app]
    else:
        command = [str(ROOT / ".venv/bin/python"), "-m", "pokerfloor.serve", "--workers", str(workers)]
        command += ["--port", str(port), "--app", app]
    with open(log_path, "w") as log:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    SERVER_PIDS[port] = proc.pid
    try:
        for _ in range(300):
            if proc.poll() is not None:
                sys.exit(f"{app} exited with {proc.returncode}; see {log_path}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        if workers > 1:
            time.sleep(2.0 + workers)
        yield port
    finally:
        proc.terminate()
        proc.wait(20)


#: port -> pid of the server process started by :func:`server` (the launcher with several workers).
SERVER_PIDS: dict[int, int] = {}


def _cpu_seconds(pids) -> dict[int, float]:
    """CPU time (user + system, s) of each live process in ``pids``, from /proc."""
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def _process_tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children[ppid].append(int(entry.name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def _db_backends() -> list[int]:
    """The PostgreSQL backends connected to this benchmark's database (the servers' connections)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [pid for (pid,) in cursor.fetchall()]


def _cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(after[pid] - before.get(pid, 0.0) for pid in after)


class DiskProbe:
    """While the block runs, overwrite 8 KiB of a preallocated file and ``fdatasync`` it every
    ``interval`` seconds, as PostgreSQL's WAL writes do at every commit, in ``folder`` (by default
    the embedded server's data directory, else the checkout: the file system a commit waits on).
    The benchmark's acks wait for commits, so a stall of the disk (a shared virtual disk stalls for
    30-300 ms now and then) shows in their p99 whatever the server does: this tells the runs that met
    one.  ``figures()``: ``(p50, p99, max, stalls over 50 ms)`` in ms."""

    def __init__(self, folder: Path | None = None, interval: float = 0.05) -> None:
        if folder is None:
            from pokerfloor import embedded_pg

            folder = embedded_pg.pgdata_dir() if "DATABASE_URL" not in os.environ else ROOT
            folder = folder if folder.is_dir() else ROOT
        self.path, self.interval, self.samples = folder / ".bench-disk-probe", interval, []
        self._stop = None

    def __enter__(self) -> DiskProbe:
        import threading

        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        size, block = 1 << 22, b"x" * 8192
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            os.posix_fallocate(fd, 0, size)
            os.fsync(fd)
            offset = 0
            while not self._stop.wait(self.interval):
                t0 = time.perf_counter()
                os.pwrite(fd, block, offset)
                os.fdatasync(fd)
                self.samples.append(time.perf_counter() - t0)
                offset = (offset + len(block)) % size
        finally:
            os.close(fd)
            self.path.unlink(missing_ok=True)

    def figures(self) -> tuple[float, float, float, int]:
        return (
            pct(self.samples, 50),
            pct(self.samples, 99),
            max(self.samples, default=float("nan")) * 1000,
            sum(1 for t in self.samples if t > 0.05),
        )


def measure(args, rate, port, table_ids, dealer_cookies, floor_cookies, database: bool) -> dict:
    """One run of the clients at ``rate`` against the server on ``port``; returns its figures
    (``database``: count the tables' events in the database too).  Besides the latencies: the CPU
    time the server's processes (and, with ``database``, the PostgreSQL backends serving them) spent
    per applied action -- a figure other work on the machine disturbs far less than latencies."""
    server_pids = _process_tree(SERVER_PIDS[port])
    server_before = _cpu_seconds(server_pids)
    db_before = _cpu_seconds(_db_backends()) if database else {}
    with DiskProbe() as disk:
        sent, acks, errors, received, anomalies, elapsed, kinds, start, connects = asyncio.run(
            run(args, rate, port, table_ids, dealer_cookies, floor_cookies)
        )
    server_cpu = _cpu_used(server_before, _cpu_seconds(_process_tree(SERVER_PIDS[port])))
    db_cpu = _cpu_used(db_before, _cpu_seconds(_db_backends())) if database else None
    applied = [a for a in acks.values() if not a[2]]
    ack_latency = [acks[c][1] - sent[c][1] for c in acks]
    floor_latency = []
    for client_id, (seq, _, _duplicate) in acks.items():
        table_id, t0 = sent[client_id]
        for t in received.get((table_id, seq), []):
            floor_latency.append(t - t0)
    steady_from = start + args.warmup  # the first seconds: every table's first deal at about the same time
    steady_ack = [acks[c][1] - sent[c][1] for c in acks if sent[c][1] >= steady_from]
    steady_floor = [
        t - sent[c][1]
        for c, (seq, _, _duplicate) in acks.items()
        if sent[c][1] >= steady_from
        for t in received.get((sent[c][0], seq), [])
    ]
    floor_missing = len(applied) * args.floors - len(floor_latency)
    by_kind: dict[str, list[float]] = defaultdict(list)
    for c in acks:
        by_kind[kinds.get(c, "?")].append(acks[c][1] - sent[c][1])
    db_events = None
    if database:
        from tables.models import HandEvent

        db_events = HandEvent.objects.filter(table_id__in=table_ids).count()
    return {
        "rate": rate,
        "elapsed": elapsed,
        "applied": len(applied),
        "sent": len(sent),
        "applied_s": len(applied) / elapsed,
        "errors": dict(errors),
        "ack50": pct(ack_latency, 50),
        "ack95": pct(ack_latency, 95),
        "ack99": pct(ack_latency, 99),
        "floor50": pct(floor_latency, 50),
        "floor95": pct(floor_latency, 95),
        "floor99": pct(floor_latency, 99),
        "receipts": len(floor_latency),
        "lost": anomalies["lost"] + max(floor_missing, 0),
        "doubled": anomalies["doubled"],
        "db_events": db_events,
        "steady": {
            "ack50": pct(steady_ack, 50),
            "ack95": pct(steady_ack, 95),
            "ack99": pct(steady_ack, 99),
            "floor50": pct(steady_floor, 50),
            "floor95": pct(steady_floor, 95),
            "floor99": pct(steady_floor, 99),
        },
        "ack_by_kind": {k: (len(v), pct(v, 50), pct(v, 99)) for k, v in sorted(by_kind.items())},
        "connect": (pct(connects, 50), pct(connects, 99)),
        "disk": disk.figures(),
        "server_cpu_ms": server_cpu * 1000 / max(len(applied), 1),
        "db_cpu_ms": None if db_cpu is None else db_cpu * 1000 / max(len(applied), 1),
    }


COLUMNS = "server      rate  applied/s  ack p50  ack p95  ack p99  floor p50  floor p95  floor p99   lost doubled"


def row(name: str, r: dict) -> str:
    return (
        f"{name:<10} {r['rate']:>5g} {r['applied_s']:>10.1f} {r['ack50']:>8.1f} {r['ack95']:>8.1f} {r['ack99']:>8.1f}"
        f" {r['floor50']:>10.1f} {r['floor95']:>10.1f} {r['floor99']:>10.1f} {r['lost']:>6} {r['doubled']:>7}"
    )


def ratio_row(real: dict, echo: dict) -> str:
    def q(key: str) -> str:
        return f"{real[key] / echo[key]:.2f}x" if echo[key] else "-"

    return (
        f"{'ratio':<10} {real['rate']:>5g} {q('applied_s'):>10} {q('ack50'):>8} {q('ack95'):>8} {q('ack99'):>8}"
        f" {q('floor50'):>10} {q('floor95'):>10} {q('floor99'):>10}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--floors", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=6.0, help="mean actions per second per tablet")
    parser.add_argument("--rates", default="", help="comma-separated rates per tablet: one row each (e.g. 0.4,2,4,8)")
    parser.add_argument("--baseline", action="store_true", help="also run the bare echo server (bench/echo_asgi.py)")
    parser.add_argument("--workers", type=int, default=1, help="daphne processes per server (Redis between them)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warmup",
        type=float,
        default=2.0,
        help="seconds left out of the 'steady' rows (the first deals of all tables)",
    )
    args = parser.parse_args()
    try:
        rates = [float(r) for r in args.rates.split(",") if r.strip()] or [args.rate]
    except ValueError:
        parser.error(f"--rates must be numbers separated by commas, got {args.rates!r}")
    if args.workers < 1 or any(r <= 0 for r in rates):
        parser.error("--workers and the rates must be positive")

    database_url = setup_django()
    with contextlib.ExitStack() as stack:
        env = {**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"}
        echo_env = {k: v for k, v in env.items() if k != "REDIS_URL"}
        if args.workers > 1:
            env["REDIS_URL"] = echo_env["REDIS_URL"] = stack.enter_context(redis_server())
        port = stack.enter_context(server("pokerfloor.asgi:application", args.workers, env, "/tmp/bench-daphne.log"))
        echo_port = None
        if args.baseline:
            echo_port = stack.enter_context(
                server("bench.echo_asgi:application", args.workers, echo_env, "/tmp/bench-echo.log")
            )
        results = []
        for rate in rates:
            table_ids, dealer_cookies, floor_cookies = make_room(args.tables, uuid.uuid4().hex[:6], args.floors)
            real = measure(args, rate, port, table_ids, dealer_cookies, floor_cookies, database=True)
            echo = None
            if echo_port is not None:
                echo = measure(args, rate, echo_port, table_ids, dealer_cookies, floor_cookies, database=False)
            results.append((real, echo))

    print(
        f"tables={args.tables} floors={args.floors} seconds={args.seconds:g} workers={args.workers}"
        f" (rate: mean actions/s per tablet; latencies in ms)"
    )
    print(COLUMNS)
    for real, echo in results:
        print(row("pokerfloor", real))
        if echo is not None:
            print(row("echo", echo))
            print(ratio_row(real, echo))
    print(f"steady: the same runs, latencies of the messages sent after the first {args.warmup:g} s only")
    for real, echo in results:
        steady_real = {**real, **real["steady"]}
        print(row("pokerfloor", steady_real))
        if echo is not None:
            steady_echo = {**echo, **echo["steady"]}
            print(row("echo", steady_echo))
            print(ratio_row(steady_real, steady_echo))
    for real, echo in results:
        for name, r in (("pokerfloor", real), ("echo", echo)):
            if r is None:
                continue
            extra = f"  db events {r['db_events']}" if r["db_events"] is not None else ""
            cpu = f"; CPU per applied action: server {r['server_cpu_ms']:.2f} ms"
            if r["db_cpu_ms"] is not None:
                cpu += f", PostgreSQL backends {r['db_cpu_ms']:.2f} ms"
            print(
                f"{name} rate {r['rate']:g}: {r['sent']} sent, {r['applied']} applied in {r['elapsed']:.1f} s, "
                f"{r['receipts']} floor receipts, errors {r['errors'] or 0}{extra}{cpu}"
            )
            print(
                f"  tablets connected before the first action: "
                f"connect + first snapshot p50 {r['connect'][0]:.0f} ms, p99 {r['connect'][1]:.0f} ms"
            )
            disk50, disk99, disk_max, stalls = r["disk"]
            print(
                f"  disk during the run (8 KiB written and fdatasync'd every 50 ms): p50 {disk50:.2f} ms, "
                f"p99 {disk99:.1f} ms, max {disk_max:.0f} ms, {stalls} stalls over 50 ms"
            )
            if name == "pokerfloor":
                print(
                    "  ack p50/p99 ms by message: "
                    + ", ".join(f"{k} {n}x {p50:.0f}/{p99:.0f}" for k, (n, p50, p99) in r["ack_by_kind"].items())
                )


if __name__ == "__main__":
    main()
