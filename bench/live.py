"""Live benchmark: a real daphne server, N simulated tablets, F floor dashboards.

    .venv/bin/python bench/live.py [--tables 50] [--floors 5] [--screens 0] [--seconds 30] [--rate 6]
                                   [--rates 0.4,2,4,8] [--baseline] [--workers N] [--restart]

Every tablet, floor dashboard and lobby screen connects at once first (the
storm after a restart, timed apart: connect and first snapshot p50/p99, the
clients in ``bench/live_clients.py`` retry as the pages do); then each tablet acts at random (Poisson) times, ``--rate`` actions per second on
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
echo (the machine's noise cancels out of them).  ``--restart`` kills the
server (SIGKILL) half-way and starts it again: how long until every tablet
has its snapshot back, and whether every acknowledged message is in the
database.  ``--rates`` runs one row per mean rate per tablet (new tables for each).  ``--workers N``
serves each from N daphne processes on one port (``pokerfloor/serve.py``) sharing Redis (``REDIS_URL``,
or a redis-server started on a Unix socket for the run).  The server's CPU per applied action is given
for the whole run and for the part after the connect storm (whose CPU is given per client)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchdb import free_port  # noqa: E402  (bench/ is on the path of a script run from it)
from live_clients import floor, new_clock, screen, tablet  # noqa: E402
from live_report import report  # noqa: E402
from probes import DiskProbe, pct  # noqa: E402


def setup_django() -> str:
    """Django on this benchmark's own database (``bench/benchdb.py``)."""
    from benchdb import setup_django as on_database

    return on_database("pokerfloor_bench")


@dataclasses.dataclass
class Room:
    """What :func:`make_room` made: table ids, one dealer's session cookie per table, one floor session
    cookie per floor dashboard, and the display token of the lobby screens."""

    table_ids: list[int]
    dealer_cookies: list[str]
    floor_cookies: list[str]
    token: str


def make_room(n_tables: int, run: str, n_floors: int = 5) -> Room:
    """Create tables with six deep-stacked players each, one dealer per table, ``n_floors`` floor
    sessions (one per floor dashboard the run opens: the receipts expected are counted per dashboard,
    so there must be as many as ``--floors`` says), and a room with a lobby display for the screens."""
    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.test import Client, override_settings

    from room import services as room_services
    from tables import services
    from tables.models import Table

    Table.objects.filter(name__startswith="Bench ").update(status=Table.Status.CLOSED)  # earlier runs
    dealer_group = Group.objects.get_or_create(name="dealer")[0]
    floor_group = Group.objects.get_or_create(name="floor")[0]
    manager_group = Group.objects.get_or_create(name="manager")[0]

    def one_table(i: int) -> tuple[int, str]:
        # set-up only: no broadcasts (nobody listens yet) and commits that do not wait for the disk
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")
        user = User.objects.create_user(f"bench-{run}-d{i}")
        user.groups.add(dealer_group)
        table = services.create_table(f"Bench {run} #{i}", small_blind=50, big_blind=100, dealer=user)
        for seat in range(1, 7):
            services.seat_player(table.id, seat, f"P{i}-{seat}", 10_000_000)
        client = Client()
        client.force_login(user)
        return table.id, client.cookies["sessionid"].value

    with override_settings(CHANNEL_LAYERS={}), ThreadPoolExecutor(max_workers=4) as pool:
        made = list(pool.map(one_table, range(n_tables)))
    table_ids = [table_id for table_id, _ in made]
    dealer_cookies = [cookie for _, cookie in made]
    floor_cookies = []
    floor_user = User.objects.create_user(f"bench-{run}-floor")
    floor_user.groups.add(floor_group, manager_group)
    for _ in range(n_floors):
        client = Client()
        client.force_login(floor_user)
        floor_cookies.append(client.cookies["sessionid"].value)
    lobby = room_services.create_room(f"bench-{run}", f"Bench {run}", lobby_names="initials")
    display = room_services.create_display(lobby.id, actor=floor_user)
    return Room(table_ids, dealer_cookies, floor_cookies, display.token)


async def run(args, rate, port, room: Room, restart=None, cpu=None):
    """One run: every floor, screen and tablet connects at once (the storm after a restart or a deploy,
    timed apart: its connects are not in the actions' latencies), then the tablets act for
    ``args.seconds``; ``restart`` (a callable) is called half-way from a thread: it kills the server and
    starts it again, and the tablets reconnect.  ``cpu()``: the server's CPU seconds so far (taken at the
    storm's end)."""
    rng = random.Random(args.seed)
    sent, acks, errors, kinds = {}, {}, defaultdict(int), {}
    received, anomalies = defaultdict(list), defaultdict(int)
    stop = asyncio.Event()
    clock = new_clock(args.connect_limit)
    base = f"ws://127.0.0.1:{port}"
    floors = [
        asyncio.create_task(floor(f"{base}/ws/floor/", c, clock, stop, received, anomalies, errors, rng))
        for c in room.floor_cookies[: args.floors]
    ]
    screens = [
        asyncio.create_task(screen(f"{base}/ws/lobby/{room.token}/", clock, stop, errors, random.Random(i)))
        for i in range(args.screens)
    ]
    tablets = [
        asyncio.create_task(
            tablet(
                f"{base}/ws/tables/{t}/dealer/",
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
        for t, c in zip(room.table_ids, room.dealer_cookies)
    ]
    storm = time.perf_counter()
    everyone = len(floors) + len(screens) + len(tablets)
    try:
        async with asyncio.timeout(args.connect_limit):
            for _ in range(everyone):
                await clock["ready"].acquire()
    except TimeoutError:  # the storm did not converge: say how far it got, and stop
        for task in (*floors, *screens, *tablets):
            task.cancel()
        await asyncio.gather(*floors, *screens, *tablets, return_exceptions=True)
        got = (len(clock["connects"]), len(clock["floor_connects"]), len(clock["screen_connects"]))
        return {"converged": False, "got": got, "errors": errors, "storm": args.connect_limit}
    storm = time.perf_counter() - storm
    storm_cpu = cpu() if cpu is not None else None
    start = time.perf_counter()
    clock["deadline"] = start + args.seconds
    clock["go"].set()
    restart_figures = None
    if restart is not None:
        await asyncio.sleep(args.seconds / 2)
        clock["killed"] = time.perf_counter()
        await asyncio.to_thread(restart)
        restarted = time.perf_counter()
        while len(clock["back"]) < len(tablets) and time.perf_counter() < clock["killed"] + 120:
            await asyncio.sleep(0.05)
        back = sorted(clock["back"].values())
        restart_figures = {
            "down": restarted - clock["killed"],
            "back": len(back),
            "all_back": (back[-1] - clock["killed"]) if len(back) == len(tablets) else None,
            "back50": (back[len(back) // 2] - clock["killed"]) if back else None,
        }
    await asyncio.gather(*tablets)
    elapsed = time.perf_counter() - start
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.gather(*floors, *screens)
    return {
        "converged": True,
        "sent": sent,
        "acks": acks,
        "errors": errors,
        "received": received,
        "anomalies": anomalies,
        "elapsed": elapsed,
        "kinds": kinds,
        "start": start,
        "clock": clock,
        "storm": storm,
        "storm_cpu": storm_cpu,
        "restart": restart_figures,
    }


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


class Server:
    """The ASGI ``app`` served on a free port of 127.0.0.1: one daphne, or ``workers`` daphnes on the one
    port (``python -m pokerfloor.serve``).  :meth:`restart` kills it (SIGKILL, every process of it, as a
    crash or a power cut would) and starts it again on the same port."""

    def __init__(self, app: str, workers: int, env: dict[str, str], log_path: str) -> None:
        self.app, self.workers, self.env, self.log_path = app, workers, env, log_path
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        """Start it; return once it accepts connections (with several processes, a few seconds more for
        all to load).  Exits the benchmark when it dies first."""
        if self.workers == 1:
            command = [str(ROOT / ".venv/bin/daphne"), "-b", "127.0.0.1", "-p", str(self.port), self.app]
        else:
            command = [str(ROOT / ".venv/bin/python"), "-m", "pokerfloor.serve", "--workers", str(self.workers)]
            command += ["--port", str(self.port), "--app", self.app]
        with open(self.log_path, "a") as log:
            self.proc = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=log)
        SERVER_PIDS[self.port] = self.proc.pid
        for _ in range(600):
            if self.proc.poll() is not None:
                sys.exit(f"{self.app} exited with {self.proc.returncode}; see {self.log_path}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        if self.workers > 1:
            time.sleep(2.0 + self.workers)

    def restart(self) -> None:
        """Kill every process of the server (SIGKILL) and start it again."""
        assert self.proc is not None
        for pid in _process_tree(self.proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(20)
        self.start()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)


@contextlib.contextmanager
def server(app: str, workers: int, env: dict[str, str], log_path: str):
    """A started :class:`Server` for the block (stopped at its end)."""
    open(log_path, "w").close()
    srv = Server(app, workers, env, log_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


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


def measure(args, rate, srv: Server, room: Room, database: bool) -> dict | None:
    """One run of the clients at ``rate`` against the server ``srv``; returns its figures
    (``database``: count the tables' events in the database too, and with ``--restart`` check every
    acknowledged message is there once).  Besides the latencies: the CPU time the server's processes
    (and, with ``database``, the PostgreSQL backends serving them) spent per applied action -- a figure
    other work on the machine disturbs far less than latencies (not comparable with ``--restart``).
    None (after saying how far it got) when the connect storm did not converge within ``--connect-limit``."""
    port, table_ids = srv.port, room.table_ids
    server_pids = _process_tree(SERVER_PIDS[port])
    server_before = _cpu_seconds(server_pids)
    db_before = _cpu_seconds(_db_backends()) if database else {}

    def server_cpu_now() -> float:
        return _cpu_used(server_before, _cpu_seconds(_process_tree(SERVER_PIDS[port])))

    with DiskProbe() as disk:
        out = asyncio.run(run(args, rate, port, room, srv.restart if args.restart else None, server_cpu_now))
    if not out["converged"]:
        tablets, floors, screens = out["got"]
        print(
            f"{srv.app}: the storm did not converge: after {args.connect_limit:g} s {tablets}/{len(table_ids)}"
            f" tablets, {floors}/{args.floors} floors, {screens}/{args.screens} screens had their snapshot;"
            f" client retries {dict(out['errors'])}",
            flush=True,
        )
        return None
    sent, acks, errors, received, anomalies = out["sent"], out["acks"], out["errors"], out["received"], out["anomalies"]
    elapsed, kinds, start, clock = out["elapsed"], out["kinds"], out["start"], out["clock"]
    connects = clock["connects"]
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
    # what the floors did not receive, less what their snapshot after a reconnect covered (``--restart``)
    floor_missing = len(applied) * args.floors - len(floor_latency) - anomalies["resynced"]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for c in acks:
        by_kind[kinds.get(c, "?")].append(acks[c][1] - sent[c][1])
    db_events = db_missing = db_commits = None
    if database:
        from tables.models import HandEvent

        events = HandEvent.objects.filter(table_id__in=table_ids)
        db_events = events.count()
        # the events of one transaction share its time (now()): the group commit's batches
        db_commits = events.values("at").distinct().count()
        stored = set(HandEvent.objects.filter(client_id__in=list(acks)).values_list("client_id", flat=True))
        db_missing = sum(1 for c in acks if c not in stored)  # acknowledged, yet not in the database
    return {
        "rate": rate,
        "elapsed": elapsed,
        "applied": len(applied),
        "db_commits": db_commits,
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
        "resynced": anomalies["resynced"],
        "db_events": db_events,
        "db_missing": db_missing,
        "unanswered": len(sent) - len(acks),
        "storm": out["storm"],
        "storm_cpu": out["storm_cpu"],
        "restart": out["restart"],
        "floor_connect": (pct(clock["floor_connects"], 50), pct(clock["floor_connects"], 99)),
        "screen_connect": (pct(clock["screen_connects"], 50), pct(clock["screen_connects"], 99)),
        "counts": (len(connects), len(clock["floor_connects"]), len(clock["screen_connects"])),
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
        "server_cpu_steady_ms": (server_cpu - (out["storm_cpu"] or 0)) * 1000 / max(len(applied), 1),
        "db_cpu_ms": None if db_cpu is None else db_cpu * 1000 / max(len(applied), 1),
    }


LOAD_BEFORE = ""


def main() -> None:
    global LOAD_BEFORE
    LOAD_BEFORE = " ".join(f"{x:.2f}" for x in os.getloadavg())
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--floors", type=int, default=5, help="floor dashboards (/ws/floor/)")
    parser.add_argument("--screens", type=int, default=0, help="lobby screens or phones (/ws/lobby/<token>/)")
    parser.add_argument("--restart", action="store_true", help="kill the server half-way (SIGKILL) and start it again")
    parser.add_argument("--connect-limit", type=float, default=300.0, help="seconds every client may take to connect")
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
        srv = stack.enter_context(server("pokerfloor.asgi:application", args.workers, env, "/tmp/bench-daphne.log"))
        echo_srv = None
        if args.baseline:
            echo_srv = stack.enter_context(
                server("bench.echo_asgi:application", args.workers, echo_env, "/tmp/bench-echo.log")
            )
        results = []
        for rate in rates:
            t0 = time.perf_counter()
            room = make_room(args.tables, uuid.uuid4().hex[:6], args.floors)
            print(f"made {args.tables} tables in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
            real = measure(args, rate, srv, room, database=True)
            echo = None
            if echo_srv is not None:
                echo = measure(args, rate, echo_srv, room, database=False)
            results.append((real, echo))

    report(args, results, LOAD_BEFORE)


if __name__ == "__main__":
    main()
