"""Several server processes on one Redis and one PostgreSQL, on the real parts.

Real daphne processes (``pokerfloor.asgi``) against the test database, a real
``redis-server`` (on a Unix socket in a temporary directory, started here;
``REDIS_URL`` is not used because the tests stop and restart their Redis),
and real websocket clients (``websockets``) that behave as docs/protocol.md
asks of a client: apply ``update``s in ``seq`` order, ask for a ``snapshot``
on a gap, take the snapshot a reconnect brings, and resend an unacknowledged
message with the same ``client_id``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import (
    ARTIFACTS,
    ROOT,
    SERVER_APP_NAME,
    _free_port,
    database_url,
    end_server_sessions,
    http_status,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed (apt-get install redis-server)"
    ),
]


class RedisServer:
    """A ``redis-server`` on a Unix socket in ``folder``, without persistence (a restart forgets
    everything, as the default Debian set-up of ``make run`` does)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.socket = folder / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.socket.unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            ["redis-server", "--port", "0", "--unixsocket", str(self.socket), "--save", "", "--appendonly", "no"]
            + ["--dir", str(self.folder), "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.socket.exists():
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Server:
    """One daphne process serving ``pokerfloor.asgi`` on its own port against the test database."""

    def __init__(self, name: str, db_url: str, redis_url: str) -> None:
        self.name = name
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = ARTIFACTS / f"multiprocess-{name}.log"
        env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "REDIS_URL": redis_url,
            "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "pokerfloor.settings"),
            "DEBUG": "true",
            "PYTHONUNBUFFERED": "1",
            "PGAPPNAME": SERVER_APP_NAME,
        }
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        ARTIFACTS.mkdir(exist_ok=True)
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                [
                    str(ROOT / ".venv/bin/daphne"),
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "pokerfloor.asgi:application",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"daphne {self.name} exited with {self.proc.returncode}:\n{self.log_path.read_text()}")
            if self.http_status("/login/") == 200:
                return
            if time.monotonic() > deadline:
                pytest.fail(f"daphne {self.name} did not answer within 60 s:\n{self.log_path.read_text()}")
            time.sleep(0.2)

    def http_status(self, path: str) -> int | None:
        return http_status(self.base + path)

    def ws(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` and wait for the end (SIGKILL after 15 s: a busy daphne may take long to stop)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def redis():
    folder = Path(tempfile.mkdtemp(prefix="pf-redis-", dir="/tmp"))  # a short path: Unix sockets allow ~100 bytes
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def servers(transactional_db, redis):
    """Two daphne processes, A and B, sharing the test database and ``redis``."""
    from django.db import connection

    url = database_url(connection.settings_dict)
    started = [Server("A", url, redis.url), Server("B", url, redis.url)]
    try:
        for server in started:
            server.wait_ready()
        yield started
    finally:
        for server in started:
            if server.alive():
                server.kill(signal.SIGTERM)
        with connection.cursor() as cursor:  # daphne's backends may outlive it a moment; the flush comes next
            end_server_sessions(cursor)


@pytest.fixture
def room(dealer, floorman):
    """A table of four players dealt by ``dealer``, and session cookies of the dealer and the floor."""
    from django.test import Client

    from tables import services

    table = services.create_table("Multi", small_blind=50, big_blind=100, dealer=dealer)
    for seat, name in enumerate(["Anna", "Ben", "Clara", "David"], start=1):
        services.seat_player(table.id, seat, name, 10_000)
    cookies = {}
    for name, user in (("dealer", dealer), ("floor", floorman)):
        client = Client()
        client.force_login(user)
        cookies[name] = client.cookies["sessionid"].value
    return table.id, cookies


# ---------------------------------------------------------------------------
# Clients that follow docs/protocol.md


async def _open(url: str, cookie: str):
    import websockets

    origin = "http://" + url.split("/")[2]
    return await websockets.connect(url, additional_headers={"Cookie": f"sessionid={cookie}", "Origin": origin})


class Refused(AssertionError):
    """The server answered a tablet's message with an error (``code``)."""

    def __init__(self, message: dict) -> None:
        super().__init__(f"refused: {message}")
        self.code = message.get("code")


class Tablet:
    """A dealer tablet: one unacknowledged message at a time, resent with its ``client_id`` after a
    reconnect; a resend refused as ``stale`` (the table moved on without it: its ack came, its update
    was lost with the layer and the socket closed before the snapshot asked for) is dropped, and the
    next move is decided on the reconnect's snapshot, as the page does (static/js/dealer/connection.js)."""

    def __init__(self, table_id: int, cookie: str) -> None:
        self.table_id = table_id
        self.cookie = cookie
        self.ws = None
        self.snapshot: dict = {}
        self.unacked: dict | None = None
        self.snapshots_asked = 0

    async def connect(self, server: Server, timeout: float = 20.0) -> None:
        """(Re)connect to ``server``, retrying until ``timeout``; take the snapshot it sends."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ws = await _open(server.ws(f"/ws/tables/{self.table_id}/dealer/"), self.cookie)
                message = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
                assert message["type"] == "snapshot", message
                self.snapshot = message["snapshot"]
                return
            except Exception as error:  # refused, closed, no Redis yet: try again
                if time.monotonic() > deadline:
                    raise AssertionError(f"tablet could not connect to {server.name}: {error!r}") from error
                await asyncio.sleep(0.3)

    def next_message(self) -> dict:
        """The next move of the hand: start one, or the player to act checks or calls."""
        hand = self.snapshot.get("hand")
        if hand is None or hand["status"] != "live":
            message: dict = {"type": "start_hand"}
        else:
            state = hand["state"]
            if state["phase"] == "board":
                message = {"type": "action", "action": {"type": "board", "cards": ""}}
            else:
                seat, legal = state["to_act_seat"], state["legal"]
                kind = "check" if legal["can_check"] else "call"
                message = {"type": "action", "action": {"type": kind, "seat": seat}}
        message["client_id"] = uuid.uuid4().hex
        message["expected_seq"] = self.snapshot["seq"]
        return message

    async def send(self, message: dict) -> None:
        self.unacked = message
        await self.ws.send(json.dumps(message))

    async def ack(self, timeout: float = 10.0) -> dict:
        """Read until the ack of the unacknowledged message (applying updates); return it."""
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if message["type"] in ("update", "snapshot") and message["seq"] >= self.snapshot["seq"]:
                self.snapshot = message["snapshot"]
            elif message["type"] == "error":
                raise Refused(message)
            elif message["type"] == "ack" and message["client_id"] == self.unacked["client_id"]:
                self.unacked = None
                await self._catch_up(message["seq"], timeout)
                return message

    async def _catch_up(self, seq: int, timeout: float) -> None:
        """Wait for the update of ``seq`` (our own: it comes with the ack or just before); when it does
        not come within a second (the layer dropped it), ask for a snapshot."""
        asked = False
        while self.snapshot["seq"] < seq:
            try:
                update = json.loads(await asyncio.wait_for(self.ws.recv(), timeout if asked else 1.0))
            except TimeoutError:
                if asked:
                    raise
                asked = True
                self.snapshots_asked += 1
                await self.ws.send(json.dumps({"type": "snapshot"}))
                continue
            if update["type"] in ("update", "snapshot") and update["seq"] > self.snapshot["seq"]:
                self.snapshot = update["snapshot"]

    async def play(self, moves: int) -> list[dict]:
        acks = []
        for _ in range(moves):
            await self.send(self.next_message())
            acks.append(await self.ack())
        return acks

    async def play_on(self, server: Server, moves: int, attempts: int = 3) -> list[dict]:
        """:meth:`play`, as the page does when its socket closes or goes quiet: reconnect to ``server``
        (a fresh snapshot), resend the unacknowledged message, go on."""
        import websockets

        acks: list[dict] = []
        for attempt in range(attempts):
            try:
                if self.unacked is not None:
                    try:
                        acks.append(await self.resend())
                    except Refused as refusal:
                        if refusal.code != "stale" or self.snapshot["seq"] <= self.unacked["expected_seq"]:
                            raise
                        self.unacked = None  # never applied: decided again on the fresh snapshot
                while len(acks) < moves:
                    await self.send(self.next_message())
                    acks.append(await self.ack())
                return acks
            except (websockets.ConnectionClosed, TimeoutError):
                if attempt == attempts - 1:
                    raise
                await self.connect(server)
        return acks

    async def resend(self) -> dict:
        """Send the unacknowledged message again, same ``client_id`` and ``expected_seq``."""
        await self.ws.send(json.dumps(self.unacked))
        return await self.ack()


class Floor:
    """A floor dashboard: applies updates per table in ``seq`` order, asks for a table's snapshot on a
    gap; records every seq it applied."""

    def __init__(self, cookie: str) -> None:
        self.cookie = cookie
        self.ws = None
        self.seq: dict[int, int] = {}
        self.applied: dict[int, list[int]] = {}
        self.snapshots_asked = 0
        self.reconnects = 0
        self.task: asyncio.Task | None = None
        self.server: Server | None = None

    async def connect(self, server: Server, timeout: float = 20.0) -> None:
        self.server = server
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ws = await _open(server.ws("/ws/floor/"), self.cookie)
                first = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
                assert first["type"] == "floor_snapshot", first
                for entry in first["tables"]:
                    self.seq[entry["table"]["id"]] = entry["seq"]
                return
            except Exception as error:
                if time.monotonic() > deadline:
                    raise AssertionError(f"floor could not connect to {server.name}: {error!r}") from error
                await asyncio.sleep(0.3)

    async def _apply(self, message: dict) -> None:
        table_id = message["snapshot"]["table"]["id"]
        seq, last = message["seq"], self.seq.get(table_id)
        if message["type"] == "snapshot":
            self.seq[table_id] = max(seq, last or 0)
            return
        if last is not None and seq <= last:
            return  # an old update: already applied or covered by a snapshot
        if last is not None and seq != last + 1:
            self.snapshots_asked += 1  # a gap: the layer lost an update
            await self.ws.send(json.dumps({"type": "snapshot", "table_id": table_id}))
            return
        self.seq[table_id] = seq
        self.applied.setdefault(table_id, []).append(seq)

    async def run(self) -> None:
        """Receive until cancelled; reconnect (and take the new floor snapshot) when the socket closes."""
        import websockets

        while True:
            try:
                message = json.loads(await self.ws.recv())
            except websockets.ConnectionClosed:
                self.reconnects += 1
                await self.connect(self.server)
                continue
            batch = message["messages"] if message["type"] == "batch" else [message]
            for item in batch:
                if item["type"] in ("update", "snapshot"):
                    await self._apply(item)

    def start(self) -> None:
        self.task = asyncio.ensure_future(self.run())

    async def until(self, table_id: int, seq: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while self.seq.get(table_id, -1) < seq:
            if self.task is not None and self.task.done():
                self.task.result()
            assert time.monotonic() < deadline, f"floor at seq {self.seq.get(table_id)}, expected {seq}"
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        if self.ws is not None:
            await self.ws.close()


def _table_state(table_id: int) -> tuple[int, list[int], list[str]]:
    """The table's seq, its events' seqs in order and their client_ids, from the database."""
    from tables.models import HandEvent, Table

    events = list(HandEvent.objects.filter(table_id=table_id).order_by("seq").values_list("seq", "client_id"))
    return Table.objects.get(pk=table_id).seq, [s for s, _ in events], [c for _, c in events if c]


# ---------------------------------------------------------------------------


def test_a_dealer_on_one_process_updates_a_floor_dashboard_on_another(servers, room):
    a, b = servers
    table_id, cookies = room

    async def scenario():
        floor = Floor(cookies["floor"])
        await floor.connect(b)
        floor.start()
        tablet = Tablet(table_id, cookies["dealer"])
        await tablet.connect(a)
        acks = await tablet.play(4)  # the hand starts, then three players act
        await floor.until(table_id, acks[-1]["seq"])
        await floor.stop()
        return floor, acks

    floor, acks = asyncio.run(scenario())
    seq, event_seqs, _ = _table_state(table_id)
    assert acks[-1]["seq"] == seq
    applied = floor.applied[table_id]
    assert applied == list(range(applied[0], seq + 1)), "the floor on B saw every update of A in order"
    assert floor.snapshots_asked == 0


def test_a_killed_process_loses_nothing_and_doubles_nothing(servers, room):
    """kill -9 of the dealer's process mid-hand after it applied a message whose ack the tablet never
    read: the tablet reconnects to the other process, resends with the same client_id and is told it
    was applied (once); play goes on there and the floor (on B) misses and repeats nothing."""
    a, b = servers
    table_id, cookies = room

    async def scenario():
        floor = Floor(cookies["floor"])
        await floor.connect(b)
        floor.start()
        tablet = Tablet(table_id, cookies["dealer"])
        await tablet.connect(a)
        await tablet.play(3)
        message = tablet.next_message()
        await tablet.send(message)
        await floor.until(table_id, message["expected_seq"] + 1)  # A committed it and broadcast it
        a.kill()  # SIGKILL: no goodbye; the ack on its way is lost with the process
        await tablet.connect(b)
        assert tablet.snapshot["seq"] == message["expected_seq"] + 1
        again = await tablet.resend()
        acks = await tablet.play(3)
        await floor.until(table_id, acks[-1]["seq"])
        await floor.stop()
        return floor, message, again, acks

    floor, message, again, acks = asyncio.run(scenario())
    assert not a.alive() and b.alive()
    assert again == {
        "type": "ack",
        "client_id": message["client_id"],
        "seq": message["expected_seq"] + 1,
        "duplicate": True,
    }
    seq, event_seqs, client_ids = _table_state(table_id)
    assert client_ids.count(message["client_id"]) == 1
    assert acks[-1]["seq"] == seq
    assert event_seqs == sorted(set(event_seqs))
    applied = floor.applied[table_id]
    assert applied == list(range(applied[0], seq + 1)), "no update lost or doubled on the floor"


def test_the_floor_and_tablet_resync_when_redis_restarts(servers, room, redis):
    """Redis goes away mid-session and comes back empty: both servers stay up, a message sent meanwhile
    is applied once, and the tablet and the floor dashboard end up at the table's seq (a snapshot on
    reconnect or on a gap) and follow the updates after."""
    a, b = servers
    table_id, cookies = room

    async def scenario():
        floor = Floor(cookies["floor"])
        await floor.connect(b)
        floor.start()
        tablet = Tablet(table_id, cookies["dealer"])
        await tablet.connect(a)
        await tablet.play(3)
        redis.stop()
        message = tablet.next_message()
        await tablet.send(message)
        try:
            first = await tablet.ack(timeout=5)
        except Exception as error:  # the socket may close: nothing tells the tablet then
            first = repr(error)
        await asyncio.sleep(1.0)
        redis.start()
        acks = await tablet.play_on(a, 4 if tablet.unacked is not None else 3)
        await floor.until(table_id, acks[-1]["seq"], timeout=20)
        await floor.stop()
        return floor, message, first, acks

    floor, message, first, acks = asyncio.run(scenario())
    print(
        "first reply during the outage:",
        first,
        "floor reconnects",
        floor.reconnects,
        "snapshots",
        floor.snapshots_asked,
    )
    assert a.alive() and b.alive()
    assert a.http_status("/login/") == 200 and b.http_status("/login/") == 200
    seq, event_seqs, client_ids = _table_state(table_id)
    assert client_ids.count(message["client_id"]) == 1
    assert acks[-1]["seq"] == seq
    assert floor.seq[table_id] == seq


def test_a_quick_redis_restart_leaves_no_socket_deaf(servers, room, redis):
    """Redis restarts empty between two moves, so the group memberships are gone: every socket of both
    servers closes, its client reconnects and takes a snapshot, and every floor dashboard (two on A,
    one on B beside the tablet) follows the updates after it.  None stays open hearing nothing."""
    a, b = servers
    table_id, cookies = room

    async def scenario():
        floors = [Floor(cookies["floor"]) for _ in range(3)]
        for floor, server in zip(floors, (a, a, b)):
            await floor.connect(server)
            floor.start()
        tablet = Tablet(table_id, cookies["dealer"])
        await tablet.connect(b)
        await tablet.play(2)
        for floor in floors:
            await floor.until(table_id, tablet.snapshot["seq"])
        redis.stop()
        redis.start()
        await asyncio.sleep(2)
        acks = await tablet.play_on(b, 3)
        for floor in floors:
            await floor.until(table_id, acks[-1]["seq"], timeout=15)
            await floor.stop()
        return floors, acks

    floors, acks = asyncio.run(scenario())
    seq, _, _ = _table_state(table_id)
    assert acks[-1]["seq"] == seq
    assert [floor.seq[table_id] for floor in floors] == [seq] * 3
    assert all(floor.reconnects == 1 for floor in floors)


def test_a_lobby_screen_that_reconnects_after_a_redis_restart_hears_the_room_again(servers, redis, roles):
    """The lobby screens of a room share one subscription per process (tables.fanout).  Redis restarts:
    the screen's socket closes, it reconnects to the same process, and the next waitlist change
    reaches it (the dead subscription is not reused)."""
    from django.contrib.auth.models import User
    from django.test import override_settings

    from room import services as r
    from tables import services

    manager = User.objects.create_user(username="manager", password="pw-manager")
    manager.groups.add(roles["manager"])
    room_ = r.create_room("casino", "Casino", lobby_names="initials")
    game = r.create_game(room_.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, "Main 1", max_seats=2)
    for seat, name in [(1, "Anna Berger"), (2, "Ben Carlsen")]:
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 100)
    token = r.create_display(room_.id, actor=manager, label="TV 1").token
    a, _b = servers
    shared = {"default": {"BACKEND": "pokerfloor.runtime.layers.RedisChannelLayer", "CONFIG": {"hosts": [redis.url]}}}

    def add(name: str) -> None:
        with override_settings(CHANNEL_LAYERS=shared):  # this process broadcasts through the servers' Redis
            r.add_to_waitlist(game.id, name, actor=manager)

    async def screen():
        deadline = time.monotonic() + 20
        while True:
            try:
                ws = await _open(a.ws(f"/ws/lobby/{token}/"), "")
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert first["type"] == "snapshot"
                return ws, first["seq"]
            except Exception:  # Redis not back yet
                assert time.monotonic() < deadline, "the lobby screen could not reconnect"
                await asyncio.sleep(0.3)

    async def scenario():
        import websockets

        loop = asyncio.get_running_loop()
        ws, seq = await screen()
        await loop.run_in_executor(None, add, "Zoe Quinn")
        update = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert update["type"] == "update" and update["seq"] == seq + 1
        redis.stop()
        redis.start()
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        ws, seq = await screen()
        await loop.run_in_executor(None, add, "Yan Xu")
        update = json.loads(await asyncio.wait_for(ws.recv(), 5))
        await ws.close()
        return seq, update

    seq, update = asyncio.run(scenario())
    assert update["type"] == "update" and update["seq"] == seq + 1
    assert [w["name"] for w in update["snapshot"]["games"][0]["waitlist"]] == ["Z.Q.", "Y.X."]


def test_the_layer_ends_every_receiver_when_redis_breaks_and_drops_sends_it_cannot_make(redis):
    """pokerfloor.runtime.layers on a real Redis: a channel waiting in ``receive`` and one busy elsewhere
    when the connection breaks both end with ChannelLayerLost (the busy one at its next receive, even
    though Redis is back by then: its group memberships are gone), and a group_send while Redis is
    down is dropped instead of failing the commit that sent it."""
    from pokerfloor.runtime.layers import ChannelLayerLost, RedisChannelLayer

    async def scenario():
        layer = RedisChannelLayer(hosts=[redis.url])
        # an idle channel's blocking pop (5 s) must not race the client's read timeout (redis-py 8: 5 s)
        assert layer.create_pool(0).connection_kwargs["socket_timeout"] > layer.brpop_timeout
        waiting, busy = await layer.new_channel(), await layer.new_channel()
        for channel in (waiting, busy):
            await layer.group_add("floor", channel)
        await layer.group_send("floor", {"type": "table.update", "text": "1"})
        assert (await layer.receive(waiting))["text"] == "1"
        assert (await layer.receive(busy))["text"] == "1"  # busy from now on: not receiving
        receiver = asyncio.ensure_future(layer.receive(waiting))
        await asyncio.sleep(0.2)
        redis.stop()
        with pytest.raises(ChannelLayerLost):
            await asyncio.wait_for(receiver, 10)
        await layer.group_send("floor", {"type": "table.update", "text": "2"})  # no Redis: dropped, no error
        redis.start()
        with pytest.raises(ChannelLayerLost):
            await asyncio.wait_for(layer.receive(busy), 10)
        await layer.group_add("floor", busy)  # the socket's successor joins again and hears the floor
        await layer.group_send("floor", {"type": "table.update", "text": "3"})
        assert (await asyncio.wait_for(layer.receive(busy), 10))["text"] == "3"
        await layer.close_pools()

    asyncio.run(scenario())


def _start_launcher(redis, port: int, log_name: str) -> tuple[subprocess.Popen, Path]:
    """``python -m pokerfloor.serve --workers 2`` on ``port`` against the test database and ``redis``."""
    from django.db import connection

    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": redis.url,
        "DEBUG": "true",
        "PYTHONUNBUFFERED": "1",
        "PGAPPNAME": SERVER_APP_NAME,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    log_path = ARTIFACTS / log_name
    with open(log_path, "w") as log:
        launcher = subprocess.Popen(
            [str(ROOT / ".venv/bin/python"), "-m", "pokerfloor.serve", "--workers", "2", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    return launcher, log_path


def _listening(pids, port: int) -> set[int]:
    """Those of ``pids`` (live processes) that listen on ``port``."""
    import psutil

    found = set()
    for pid in pids:
        try:
            process = psutil.Process(pid)
            if process.status() != "zombie" and any(
                c.laddr.port == port and c.status == psutil.CONN_LISTEN for c in process.net_connections()
            ):
                found.add(pid)
        except psutil.NoSuchProcess:
            continue
    return found


def _end_servers(launcher: subprocess.Popen) -> None:
    """Stop the launcher (it gives its daphnes 10 s before SIGKILL) and their database sessions."""
    from django.db import connection

    if launcher.poll() is None:
        launcher.send_signal(signal.SIGTERM)
        launcher.wait(30)
    with connection.cursor() as cursor:
        end_server_sessions(cursor)


def _status(port: int) -> int | None:
    """The status of ``/login/`` on ``port`` of this machine, None when nothing answers."""
    return http_status(f"http://127.0.0.1:{port}/login/")


def _wait(predicate, what: str, log_path: Path, launcher: subprocess.Popen | None = None, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert launcher is None or launcher.poll() is None, log_path.read_text()
        assert time.monotonic() < deadline, f"{what}:\n{log_path.read_text()}"
        time.sleep(0.2)


def test_make_run_workers_serves_from_several_processes_on_one_port_and_replaces_a_dead_one(transactional_db, redis):
    """``python -m pokerfloor.serve --workers 2`` (``make run WORKERS=2``): two daphnes answer on one port;
    after kill -9 of one, requests still succeed and a new daphne takes its place; SIGTERM stops all."""
    import psutil

    port = _free_port()
    launcher, log_path = _start_launcher(redis, port, "multiprocess-serve.log")

    def listening() -> set[int]:
        return _listening([p.pid for p in psutil.Process(launcher.pid).children()], port)

    try:
        _wait(lambda: len(listening()) == 2 and _status(port) == 200, "two daphnes listening", log_path, launcher)
        victim = sorted(listening())[0]
        os.kill(victim, signal.SIGKILL)
        assert [_status(port) for _ in range(10)] == [200] * 10  # the other one answers meanwhile
        _wait(
            lambda: len(listening()) == 2 and victim not in listening(),
            "a new daphne in the dead one's place",
            log_path,
            launcher,
        )
        assert [_status(port) for _ in range(10)] == [200] * 10
    finally:
        _end_servers(launcher)
    assert launcher.returncode == 0
    assert _status(port) is None


def test_the_daphnes_stop_when_their_launcher_is_killed(transactional_db, redis):
    """kill -9 of the launcher itself (it cannot stop its daphnes then): the kernel tells each daphne
    (``PR_SET_PDEATHSIG``), they stop, and the port is free for the next ``make run``."""
    import psutil

    from pokerfloor.serve import listening_socket

    port = _free_port()
    launcher, log_path = _start_launcher(redis, port, "multiprocess-serve-killed.log")
    try:
        _wait(
            lambda: len(_listening([p.pid for p in psutil.Process(launcher.pid).children()], port)) == 2,
            "two daphnes listening",
            log_path,
            launcher,
        )
        daphnes = [p.pid for p in psutil.Process(launcher.pid).children()]
        assert _status(port) == 200
        launcher.send_signal(signal.SIGKILL)
        launcher.wait(10)

        def gone() -> bool:
            return not any(psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie" for pid in daphnes)

        _wait(gone, "the daphnes of a killed launcher stop", log_path, timeout=30)
        assert _status(port) is None
        listening_socket("127.0.0.1", port).close()  # the next launcher can bind it
    finally:
        for pid in daphnes if "daphnes" in locals() else []:
            with contextlib.suppress(psutil.NoSuchProcess):
                psutil.Process(pid).kill()
        _end_servers(launcher)
