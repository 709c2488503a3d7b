"""The README's "several machines", for real: deploy/two_machines.py as the test's set-up.

Two network namespaces (two machines with their own network stack) each run the README's
``python -m pokerfloor.serve`` against one PostgreSQL and one Redis on the host, reached over a bridge;
Debian's nginx on the host balances HTTP and websockets over both (not sticky).  A dealer tablet and a
floor dashboard log in through nginx and end up on different boxes (nginx says which in
``X-Pokerfloor-Box``); the tablet's actions reach the floor through Redis; then the floor's box is lost
(its processes killed, its cable pulled) and the floor reconnects through nginx to the other box, takes
a fresh snapshot and follows the tablet's next actions, none lost or doubled.

Needs root, ``ip netns``, nginx and redis-server (.ci/run installs them; CI runs as root); skipped
otherwise, naming what is missing.  It uses its own throwaway PostgreSQL cluster (database
``test_two_machines``), bridge and namespaces, all removed at the end, also when it fails.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from deploy.two_machines import TwoMachines, missing_requirements
from tests.conftest import ARTIFACTS, _free_port
from tests.test_multiprocess import Floor, Tablet

MISSING = missing_requirements()
pytestmark = pytest.mark.skipif(bool(MISSING), reason="two machines need: " + "; ".join(MISSING))

BOX = "X-Pokerfloor-Box"


class Balancer:
    """nginx in front of both boxes, as the clients of tests/test_multiprocess.py address a server."""

    name = "nginx"

    def __init__(self, machines: TwoMachines) -> None:
        self.machines = machines

    def ws(self, path: str) -> str:
        return f"ws://{self.machines.listen_host}:{self.machines.port}{path}"


@pytest.fixture(scope="module")
def machines():
    setup = TwoMachines(
        port=_free_port(),
        subnet="10.202.0",
        names=("pftbox1", "pftbox2"),
        bridge="pftbr0",
        database="test_two_machines",
        pg_port=_free_port(),
        redis_port=_free_port(),
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


def login(machines: TwoMachines, username: str, password: str):
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
    dealer_cookie, tablet_page, dealer_box = login(machines, "dealer", "dealer-demo")
    table_id = int(re.search(r"/tables/(\d+)/dealer/", tablet_page).group(1))
    floor_cookie, _, floor_box = login(machines, "floor", "floor-demo")

    async def scenario():
        tablet = Tablet(table_id, dealer_cookie)
        await tablet.connect(balancer)
        tablet_box = socket_box(machines, tablet)
        floor = Floor(floor_cookie)
        for _ in range(6):  # round robin: the next socket goes to the other box
            await floor.connect(balancer)
            if socket_box(machines, floor) != tablet_box:
                break
            await floor.ws.close()
        floor_socket_box = socket_box(machines, floor)
        assert floor_socket_box != tablet_box, "nginx put both sockets on one box"
        floor.start()

        started = time.monotonic()
        acks = await tablet.play(3)  # the hand starts, two players act: applied on the tablet's box
        await floor.until(table_id, acks[-1]["seq"])  # ... and seen on the floor's box, through Redis
        across = time.monotonic() - started

        lost = time.monotonic()
        machines.stop_box(floor_socket_box)
        deadline = time.monotonic() + 30
        while floor.reconnects < 1 or floor.ws is None or floor.ws.state.name != "OPEN":
            assert time.monotonic() < deadline, "the floor did not reconnect within 30 s"
            await asyncio.sleep(0.05)
        back = time.monotonic() - lost
        floor_new_box = socket_box(machines, floor)

        more = await tablet.play(3)
        await floor.until(table_id, more[-1]["seq"])
        await floor.stop()
        await tablet.ws.close()
        return tablet_box, floor_socket_box, floor_new_box, acks + more, floor, across, back

    tablet_box, floor_box_before, floor_box_after, acks, floor, across, back = asyncio.run(scenario())
    print(
        f"logins through {dealer_box} (dealer) and {floor_box} (floor); tablet on {tablet_box}, floor on "
        f"{floor_box_before}; 3 actions to the floor across boxes {across * 1000:.0f} ms; floor back on "
        f"{floor_box_after} {back * 1000:.0f} ms after its box was lost"
    )
    assert {tablet_box, floor_box_before} == {box1, box2}
    assert floor_box_after == tablet_box, "the floor came back through nginx on the box still standing"
    assert floor.reconnects == 1
    applied = floor.applied[table_id]
    assert applied == [ack["seq"] for ack in acks], "every action reached the floor once, in order"
    for _ in range(4):  # nginx leaves the lost box out: every page is served by the other
        status, headers = _get(machines.url + "/login/")
        assert status == 200 and machines.box_of(headers[BOX]) == tablet_box


def _get(url: str):
    import requests

    answer = requests.get(url, timeout=30)
    return answer.status_code, answer.headers
