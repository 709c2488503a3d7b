"""Admission control of websocket connects (``pokerfloor.runtime.admission``): a storm of connects beyond
the limit is told to come back (``{"type": "retry", "after_ms"}``, close 4503) instead of timing out in a
queue, and the clients that do come back as told all get their snapshot."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from pokerfloor.runtime.admission import CLOSE_RETRY, MIN_RETRY_MS, START, Admission
from tables import services
from tests.conftest import daphne_server


def _slow_app(release: asyncio.Event, connected: list[int]):
    """An ASGI websocket app whose connect waits for ``release`` before it accepts and sends a snapshot."""

    async def app(scope, receive, send):
        assert (await receive())["type"] == "websocket.connect"
        await release.wait()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "snapshot"})
        connected.append(scope["n"])

    return app


async def _connect(admission: Admission, n: int) -> list[dict]:
    """One client's handshake through ``admission``; the messages the server sent."""
    sent: list[dict] = []
    inbox: asyncio.Queue = asyncio.Queue()
    inbox.put_nowait({"type": "websocket.connect"})

    async def send(message):
        sent.append(message)

    await admission({"type": "websocket", "n": n}, inbox.get, send)
    return sent


def test_connects_beyond_the_limit_are_told_when_to_retry_and_then_all_get_in():
    async def scenario():
        release, connected = asyncio.Event(), []
        admission = Admission(_slow_app(release, connected), limit=3)
        admission.mean_connect = 0.05  # 60 connects a second: the backlog's drain shows in the hints
        first = [asyncio.ensure_future(_connect(admission, n)) for n in range(20)]
        await asyncio.sleep(0.05)
        refused = [task.result() for task in first if task.done()]
        assert len(refused) == 17 and admission.in_progress == 3
        for messages in refused:  # accepted only to be told when to retry and closed: no snapshot
            assert [m["type"] for m in messages] == ["websocket.accept", "websocket.send", "websocket.close"]
            assert json.loads(messages[1]["text"])["type"] == "retry"
            assert json.loads(messages[1]["text"])["after_ms"] >= MIN_RETRY_MS
            assert messages[2]["code"] == CLOSE_RETRY
        hints = [json.loads(m[1]["text"])["after_ms"] for m in refused]
        assert hints == sorted(hints) and hints[-1] > hints[0]  # the backlog grows, so does the wait
        release.set()
        await asyncio.gather(*first)
        assert sorted(connected) == [0, 1, 2] and admission.in_progress == 0
        # the refused come back (as the pages do, after their hint scaled down here) until all are in
        waiting = [n for n in range(3, 20)]
        for _ in range(20):
            results = await asyncio.gather(*(_connect(admission, n) for n in waiting))
            waiting = [n for n, messages in zip(waiting, results) if messages[-1]["type"] == "websocket.close"]
            if not waiting:
                break
            await asyncio.sleep(0.01)
        assert not waiting and sorted(connected) == list(range(20))

    asyncio.run(scenario())


def test_connects_beyond_the_limit_wait_their_turn_in_order_when_it_comes_soon_enough():
    async def scenario():
        release, connected = asyncio.Event(), []
        admission = Admission(_slow_app(release, connected), limit=3, queue_wait=1.0)
        tasks = []
        for n in range(20):
            tasks.append(asyncio.ensure_future(_connect(admission, n)))
            await asyncio.sleep(0)  # arriving one after the other
        await asyncio.sleep(0.05)
        assert admission.in_progress == 3 and len(admission.waiting) == 17  # nobody refused
        release.set()
        results = await asyncio.gather(*tasks)
        assert all(messages[-1]["text"] == "snapshot" for messages in results)  # none told to retry
        assert connected == list(range(20)) and admission.in_progress == 0 and not admission.waiting

    asyncio.run(scenario())


def test_the_queue_is_bounded_by_the_wait_and_a_connect_that_waited_too_long_is_told_to_retry():
    async def scenario():
        release, connected = asyncio.Event(), []
        admission = Admission(_slow_app(release, connected), limit=2, queue_wait=0.2)
        admission.mean_connect = 0.1  # two at a time: the fourth waiter's turn would come after 0.2 s
        tasks = [asyncio.ensure_future(_connect(admission, n)) for n in range(8)]
        await asyncio.sleep(0.05)
        refused_at_once = [task.result() for task in tasks if task.done()]
        assert len(admission.waiting) == 4 and len(refused_at_once) == 2
        await asyncio.sleep(0.3)  # nobody got in meanwhile: the waiters are told to retry too
        assert not admission.waiting
        refused = [task.result() for task in tasks if task.done()]
        assert len(refused) == 6
        for messages in refused:
            assert json.loads(messages[1]["text"])["type"] == "retry" and messages[2]["code"] == CLOSE_RETRY
        release.set()
        await asyncio.gather(*tasks)
        assert sorted(connected) == [0, 1] and admission.in_progress == 0

    asyncio.run(scenario())


def test_the_rate_is_what_completed_in_the_last_second_unless_little_says_more():
    """A storm's hint follows the connects completing, not one slow kind of connect: the floor dashboards'
    first connects (each waiting for one read of the whole room) made the mean connect time say a few dozen
    connects a second while the tablets completed hundreds, and told the rest of the storm to wait the
    longest the hint allows."""
    now = [100.0]
    admission = Admission(None, limit=32, clock=lambda: now[0])
    admission.mean_connect = 0.5
    assert admission.rate(now[0]) == 64  # nothing completed yet: 32 at once, half a second each
    admission.completed.extend(99.5 + i / 1000 for i in range(400))  # 400 in the last second
    assert admission.rate(now[0]) == 400
    admission.refused.extend([99.9] * 399)
    assert admission.retry_ms(now[0]) == 1000  # 400 to drain at 400 a second
    now[0] += 2  # a quiet moment: what completed is old, Little's law again
    assert admission.rate(now[0]) == 64


def test_the_connects_let_in_at_once_start_small_and_grow_by_one_per_fast_connect_up_to_the_limit():
    """As TCP's slow start: a process begins with START in progress at once and lets one more in per connect
    that was fast, so cheap connects soon run by the hundred; a slow one halves them again."""
    now = [100.0]

    async def app(scope, receive, send):
        await receive()
        now[0] += scope["takes"]
        await send({"type": "websocket.accept"})

    async def scenario():
        admission = Admission(app, limit=1024, clock=lambda: now[0])
        assert admission.allowed == START
        for _ in range(START):
            await admission({"type": "websocket", "takes": 0.01}, _inbox(), _ignore)
        assert admission.allowed == 2 * START
        for _ in range(2000):
            await admission({"type": "websocket", "takes": 0.01}, _inbox(), _ignore)
        assert admission.allowed == 1024
        await admission({"type": "websocket", "takes": 2.5}, _inbox(), _ignore)
        assert admission.allowed == 512

    asyncio.run(scenario())


def test_other_scopes_pass_untouched_and_the_limit_must_be_positive():
    calls = []

    async def app(scope, receive, send):
        calls.append(scope["type"])

    admission = Admission(app, limit=1)
    admission.in_progress = 1  # full: HTTP still passes
    asyncio.run(admission({"type": "http"}, None, None))
    assert calls == ["http"]
    with pytest.raises(ValueError):
        Admission(app, limit=0)


async def _tablet(url: str, cookie: str, rng: random.Random, outcome: dict) -> None:
    """Open a tablet socket until it gets its snapshot, as ``static/js/socket.js`` does: after a retry
    message and a 4503 close, wait as told (times 0.5-1.5); after any other failure, back off."""
    import websockets

    headers = {"Cookie": f"sessionid={cookie}", "Origin": "http://" + url.split("/")[2]}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            async with websockets.connect(url, additional_headers=headers, open_timeout=30) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if first["type"] == "retry":
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        await asyncio.wait_for(ws.recv(), 30)
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_RETRY
                    outcome["retries"] += 1
                    await asyncio.sleep(first["after_ms"] / 1000 * (0.5 + rng.random()))
                    continue
                assert first["type"] == "snapshot"
                outcome["snapshots"].append(first["snapshot"]["table"]["id"])
                return
        except (OSError, websockets.InvalidHandshake, TimeoutError):  # the machine is loaded: as the page does
            outcome["failures"] += 1
            await asyncio.sleep(1 + rng.random())
    raise AssertionError("no snapshot within 120 s")


@pytest.mark.django_db(transaction=True)
def test_a_storm_of_tablets_beyond_the_connect_limit_is_told_to_retry_and_every_tablet_gets_its_snapshot(
    django_db_blocker,
):
    dealer = Group.objects.get_or_create(name="dealer")[0]
    tablets = []
    for i in range(24):
        user = User.objects.create_user(f"storm-{i}")
        user.groups.add(dealer)
        table = services.create_table(f"Storm {i}", small_blind=1, big_blind=2, dealer=user)
        client = Client()
        client.force_login(user)
        tablets.append((table.id, client.cookies["sessionid"].value))
    # no queue: the storm beyond the limit is told to retry (the queue has tests of its own above)
    with daphne_server(
        django_db_blocker,
        {"WS_CONNECT_LIMIT": "2", "WS_CONNECT_QUEUE_MS": "0"},
        session=False,
        log_name="daphne-admission",
    ) as base:
        ws_base = base.replace("http://", "ws://")
        outcome = {"retries": 0, "failures": 0, "snapshots": []}

        async def storm():
            rng = random.Random(7)
            await asyncio.gather(
                *(_tablet(f"{ws_base}/ws/tables/{t}/dealer/", cookie, rng, outcome) for t, cookie in tablets)
            )

        asyncio.run(storm())
    assert outcome["retries"] > 0  # 24 at once against 2 in progress: some were told to come back
    assert outcome["failures"] < outcome["retries"]  # and were not left to time out
    assert sorted(outcome["snapshots"]) == sorted(t for t, _ in tablets)  # and every tablet got its own


async def _ignore(message: dict) -> None:
    pass


def _inbox():
    queue: asyncio.Queue = asyncio.Queue()
    queue.put_nowait({"type": "websocket.connect"})
    return queue.get


def test_slow_connects_let_fewer_in_at_once_and_fast_ones_more_again():
    now = [100.0]

    async def app(scope, receive, send):
        await receive()
        now[0] += scope["takes"]  # the connect's time, as the machine's load makes it
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "snapshot"})

    async def scenario():
        admission = Admission(app, limit=16, clock=lambda: now[0])
        for _ in range(2):  # two slow connects more than a second apart: halved twice
            await admission({"type": "websocket", "takes": 3.0}, _inbox(), _ignore)
        assert int(admission.allowed) == 4
        admission.in_progress = 4  # four in progress: a fifth is told to retry
        refused: list[dict] = []

        async def keep(message: dict) -> None:
            refused.append(message)

        await admission({"type": "websocket", "takes": 0.0}, _inbox(), keep)
        assert refused[-1]["type"] == "websocket.close" and refused[-1]["code"] == CLOSE_RETRY
        wait = refused[-2]["text"]  # the retry message, and its wait repeated in the close's reason
        assert refused[-1]["reason"] == "after_ms=" + wait.split(":")[-1].rstrip("}")
        admission.in_progress = 0
        for _ in range(200):  # fast again: back up, one at a time, never past the limit
            await admission({"type": "websocket", "takes": 0.01}, _inbox(), _ignore)
        assert int(admission.allowed) == 16

    asyncio.run(scenario())
