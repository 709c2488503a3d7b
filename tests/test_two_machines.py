"""The README's "several machines", for real: deploy/two_machines.py as the test's set-up.

Two network namespaces (two machines with their own network stack) each run the README's
``python -m pokerfloor.serve`` against one PostgreSQL and one Redis on the host, reached over a bridge;
Debian's nginx on the host balances HTTP and websockets over both (not sticky).  A dealer tablet and a
floor dashboard log in through nginx and end up on different boxes (nginx says which in
``X-Pokerfloor-Box``); the tablet's actions reach the floor through Redis; then the floor's box is lost
(its cable pulled, then its processes killed: nothing tells nginx or the floor) and the floor finds its
silent socket by the page's heartbeat, reconnects through nginx to the other box, takes a fresh snapshot
and follows the tablet's next actions, none lost or doubled.  The floor is a websocket client that
behaves as the page, and the real floor page in Debian's chromium beside it (left out without
``/usr/bin/chromium``).

Needs root, ``ip netns`` (a namespace and a veth pair are tried), nginx and redis-server (.ci/run
installs them; CI runs as root); skipped otherwise, naming what is missing.  It uses its own throwaway
PostgreSQL cluster (database ``test_two_machines``), bridge and namespaces, all removed at the end, also
when it fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import time
from pathlib import Path

import pytest

from deploy.two_machines import TwoMachines, missing_requirements
from tests.conftest import ARTIFACTS
from tests.test_multiprocess import Tablet

MISSING = missing_requirements()
pytestmark = pytest.mark.skipif(bool(MISSING), reason="two machines need: " + "; ".join(MISSING))

BOX = "X-Pokerfloor-Box"


def free_ports(n: int) -> list[int]:
    """``n`` different TCP ports nothing listens on now (asked of the kernel on 127.0.0.1, all held until the
    last is drawn: drawn one after the other, two could be the same, and nginx, PostgreSQL or Redis then
    failed to bind the port another of them had)."""
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(n)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]


class Balancer:
    """nginx in front of both boxes, as the clients of tests/test_multiprocess.py address a server."""

    name = "nginx"

    def __init__(self, machines: TwoMachines) -> None:
        self.machines = machines

    def ws(self, path: str) -> str:
        return f"ws://{self.machines.listen_host}:{self.machines.port}{path}"


@pytest.fixture(scope="module")
def machines():
    run = os.getpid() % 10_000  # names and a /24 of this run: two test runs on one host stay apart
    port, pg_port, redis_port = free_ports(3)
    setup = TwoMachines(
        port=port,
        subnet=f"10.203.{run % 250 + 1}",
        names=(f"pf{run}box1", f"pf{run}box2"),
        bridge=f"pf{run}br",
        database="test_two_machines",
        pg_port=pg_port,
        redis_port=redis_port,
        log=None,
    )
    started = time.monotonic()
    setup.start()
    print(f"two machines up in {time.monotonic() - started:.1f} s")
    try:
        yield setup
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "two-machines.log").write_text(setup.logs())
        setup.stop()


class PageFloor:
    """A floor dashboard that behaves as the page does (``static/js/socket.js``, docs/protocol.md
    "Heartbeat"): it pings every second and counts its socket dead when nothing at all has arrived for
    3.5 s, or when it closes; then it reconnects through nginx and takes the new ``floor_snapshot``.  It
    applies each table's updates in ``seq`` order and asks for a snapshot on a gap; ``applied`` records
    every update applied, ``losses`` how each socket ended ("closed" or "silent")."""

    PING_EVERY = 1.0
    DEAD_AFTER = 3.5

    def __init__(self, cookie: str, balancer: Balancer) -> None:
        self.cookie = cookie
        self.balancer = balancer
        self.ws = None
        self.seq: dict[int, int] = {}
        self.applied: dict[int, list[int]] = {}
        self.losses: list[str] = []
        self.connected = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def connect(self, timeout: float = 30.0) -> None:
        """Open ``/ws/floor/`` through nginx (again until ``timeout``) and take its ``floor_snapshot``."""
        import websockets

        deadline = time.monotonic() + timeout
        while True:
            try:
                url = self.balancer.ws("/ws/floor/")
                origin = "http://" + url.split("/")[2]
                self.ws = await websockets.connect(
                    url, additional_headers={"Cookie": f"sessionid={self.cookie}", "Origin": origin}, open_timeout=10
                )
                first = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
                assert first["type"] == "floor_snapshot", first
                self.seq.update({entry["table"]["id"]: entry["seq"] for entry in first["tables"]})
                self.connected.set()
                return
            except Exception as error:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the floor could not connect through nginx: {error!r}") from error
                await asyncio.sleep(0.3)

    async def apply(self, message: dict) -> None:
        """One ``update`` or ``snapshot`` of a table: in order, a gap answered by asking for a snapshot."""
        table_id, seq = message["snapshot"]["table"]["id"], message["seq"]
        last = self.seq.get(table_id)
        if message["type"] == "snapshot":
            self.seq[table_id] = max(seq, last or 0)
        elif last is None or seq == last + 1:
            self.seq[table_id] = seq
            self.applied.setdefault(table_id, []).append(seq)
        elif seq > last + 1:
            await self.ws.send(json.dumps({"type": "snapshot", "table_id": table_id}))

    async def ping(self, ws) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await ws.send('{"type":"ping"}')
                await asyncio.sleep(self.PING_EVERY)

    async def run(self) -> None:
        """Receive until cancelled; on a closed or silent socket drop it and connect again."""
        import websockets

        while True:
            ws = self.ws
            pinger = asyncio.ensure_future(self.ping(ws))
            try:
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), self.DEAD_AFTER))
                    for item in message["messages"] if message["type"] == "batch" else [message]:
                        if item["type"] in ("update", "snapshot"):
                            await self.apply(item)
            except websockets.ConnectionClosed:
                self.losses.append("closed")
            except TimeoutError:
                self.losses.append("silent")
                ws.transport.abort()  # no closing handshake with a peer that is gone
            finally:
                pinger.cancel()
            self.connected.clear()
            await self.connect()

    def start(self) -> None:
        self.task = asyncio.ensure_future(self.run())

    async def until(self, table_id: int, seq: int, timeout: float = 15.0) -> None:
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


CHROMIUM = "/usr/bin/chromium"  # Debian's (tests/browser/conftest.py); without it the page part is left out
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync"]


class BrowserFloor:
    """The real floor page (``/floor/``, static/js/floor.js) in Debian's chromium through nginx, logged in
    with ``cookie``; ``boxes`` lists the box of each socket the page has opened since :meth:`open` got it
    on its box, read from the handshake's answer (DevTools' ``Network.webSocketHandshakeResponseReceived``)."""

    def __init__(self, machines: TwoMachines, cookie: str) -> None:
        self.machines = machines
        self.cookie = cookie
        self.boxes: list[str] = []
        self.page = None

    async def open(self, playwright, box: str) -> None:
        """Launch chromium and load the floor page, again until its socket is on ``box`` (round robin)."""
        self.browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        context = await self.browser.new_context(viewport={"width": 1600, "height": 1200})
        await context.add_cookies([{"name": "sessionid", "value": self.cookie, "url": self.machines.url}])
        self.page = await context.new_page()
        devtools = await context.new_cdp_session(self.page)
        await devtools.send("Network.enable")
        devtools.on("Network.webSocketHandshakeResponseReceived", self.handshake)
        for _ in range(10):
            seen = len(self.boxes)
            await self.page.goto(self.machines.url + "/floor/")
            await self.until_open()
            await self.until(lambda seen=seen: len(self.boxes) > seen, "the floor page's socket opened")
            if self.boxes[-1] == box:
                self.boxes = self.boxes[-1:]  # the earlier pages' sockets are gone with them
                return
            await asyncio.to_thread(_get, self.machines.url + "/login/")  # shift nginx's round robin by one
        raise AssertionError(f"nginx never put the floor page's socket on {box}")

    def handshake(self, event: dict) -> None:
        headers = {name.lower(): value for name, value in event["response"]["headers"].items()}
        self.boxes.append(self.machines.box_of(headers[BOX.lower()]))

    async def until_open(self) -> None:
        """Until the page shows its connection "Live" (``data-state="open"``: a first message arrived)."""
        from playwright.async_api import expect

        await expect(self.page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=30_000)

    async def until_seq(self, table_id: int, seq: int) -> None:
        """Until the page's tile of ``table_id`` shows the table at ``seq`` (its ``data-seq``)."""
        from playwright.async_api import expect

        tile = self.page.locator(f'.tile[data-table-id="{table_id}"]')
        await expect(tile).to_have_attribute("data-seq", str(seq), timeout=20_000)

    @staticmethod
    async def until(condition, what: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, f"not within {timeout:.0f} s: {what}"
            await asyncio.sleep(0.05)


def login(machines: TwoMachines, username: str, password: str, through: str):
    """Log ``username`` in through nginx with the login form, again until the box ``through`` took the
    login (nginx alternates); (session cookie, the page the login led to)."""
    for _ in range(8):
        cookie, page, box = login_once(machines, username, password)
        if box == through:
            return cookie, page
        _get(machines.url + "/login/")  # one more request: the next login's POST goes to the other box
    raise AssertionError(f"nginx never sent the login of {username} to {through}")


def login_once(machines: TwoMachines, username: str, password: str):
    """Log ``username`` in through nginx with the login form; (session cookie, the page the login led to,
    the box that took the login)."""
    import requests

    session = requests.Session()
    page = session.get(machines.url + "/login/", timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    answer = session.post(
        machines.url + "/login/",
        data={"username": username, "password": password, "csrfmiddlewaretoken": token},
        allow_redirects=False,
        timeout=30,
    )
    assert answer.status_code == 302, f"login of {username} refused: {answer.status_code}"
    box = machines.box_of(answer.headers[BOX])
    landing = session.get(machines.url + answer.headers["Location"], timeout=30)
    assert landing.status_code == 200
    return session.cookies["sessionid"], landing.url, box


def socket_box(machines: TwoMachines, client) -> str:
    """The box that serves ``client``'s websocket (nginx's header on the handshake's answer)."""
    return machines.box_of(client.ws.response.headers[BOX])


def test_a_tablet_on_one_box_reaches_a_floor_on_the_other_and_the_floor_survives_its_box(machines):
    box1, box2 = machines.names
    balancer = Balancer(machines)
    dealer_cookie, tablet_page = login(machines, "dealer", "dealer-demo", through=box1)
    table_id = int(re.search(r"/tables/(\d+)/dealer/", tablet_page).group(1))
    floor_cookie, _ = login(machines, "floor", "floor-demo", through=box2)

    async def on_box(client, box: str) -> None:
        """Connect ``client`` through nginx, again until its socket is on ``box`` (round robin)."""
        for _ in range(8):
            await (client.connect(balancer) if isinstance(client, Tablet) else client.connect())
            if socket_box(machines, client) == box:
                return
            await client.ws.close()
        raise AssertionError(f"nginx never put the socket on {box}")

    async def scenario():
        tablet = Tablet(table_id, dealer_cookie)
        await on_box(tablet, box1)
        tablet_box = socket_box(machines, tablet)
        floor = PageFloor(floor_cookie, balancer)
        await on_box(floor, box2)
        floor_socket_box = socket_box(machines, floor)
        floor.start()
        async with contextlib.AsyncExitStack() as stack:
            page = None
            if Path(CHROMIUM).exists():
                from playwright.async_api import async_playwright

                page = BrowserFloor(machines, floor_cookie)
                await page.open(await stack.enter_async_context(async_playwright()), box2)
                stack.push_async_callback(page.browser.close)

            started = time.monotonic()
            acks = await tablet.play(3)  # the hand starts, two players act: applied on the tablet's box
            await floor.until(table_id, acks[-1]["seq"])  # ... and seen on the floor's box, through Redis
            across = time.monotonic() - started
            if page is not None:
                await page.until_seq(table_id, acks[-1]["seq"])

            lost = time.monotonic()
            machines.stop_box(floor_socket_box)  # cable pulled, then power off: nothing tells nginx or the floor
            deadline = time.monotonic() + 30
            while not (floor.losses and floor.connected.is_set()):  # its heartbeat finds it; nginx, the other box
                assert time.monotonic() < deadline, "the floor did not come back within 30 s"
                if floor.task.done():
                    floor.task.result()
                await asyncio.sleep(0.05)
            back = time.monotonic() - lost
            floor_new_box = socket_box(machines, floor)
            page_back = None
            if page is not None:
                await page.until(lambda: len(page.boxes) > 1, "the floor page opened a new socket")
                await page.until_open()
                page_back = time.monotonic() - lost

            more = await tablet.play(3)
            await floor.until(table_id, more[-1]["seq"])
            if page is not None:
                await page.until_seq(table_id, more[-1]["seq"])
                assert page.boxes == [floor_socket_box, tablet_box], "the page came back on the other box"
        await floor.stop()
        await tablet.ws.close()
        return tablet_box, floor_socket_box, floor_new_box, acks + more, floor, across, back, page_back

    tablet_box, floor_box_before, floor_box_after, acks, floor, across, back, page_back = asyncio.run(scenario())
    print(
        f"logins through {box1} (dealer) and {box2} (floor); tablet on {tablet_box}, floor on "
        f"{floor_box_before}; 3 actions to the floor across boxes {across * 1000:.0f} ms; floor back on "
        f"{floor_box_after} {back * 1000:.0f} ms after its box was lost ({floor.losses}); the floor page "
        + (f"live again after {page_back * 1000:.0f} ms" if page_back is not None else f"left out: no {CHROMIUM}")
    )
    assert (tablet_box, floor_box_before) == (box1, box2)
    assert floor_box_after == tablet_box, "the floor came back through nginx on the box still standing"
    assert floor.losses == ["silent"], "the floor found its lost box by its heartbeat and reconnected once"
    applied = floor.applied[table_id]
    assert applied == [ack["seq"] for ack in acks], "every action reached the floor once, in order"
    for _ in range(4):  # nginx leaves the lost box out: every page is served by the other
        status, headers = _get(machines.url + "/login/")
        assert status == 200 and machines.box_of(headers[BOX]) == tablet_box


def _get(url: str):
    import requests

    answer = requests.get(url, timeout=30)
    return answer.status_code, answer.headers
