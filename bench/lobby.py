"""Lobby benchmark: a real daphne server, N lobby screens, waitlist changes on the floor.

    .venv/bin/python bench/lobby.py [--screens 200] [--changes 100]

Connects ``--screens`` lobby websockets (``/ws/lobby/<token>/``, read-only,
no login) to a daphne it starts itself, then makes ``--changes`` waitlist
changes one after the other (after ``--warmup`` unmeasured ones) the way
the floor dashboard does (an HTTP POST to ``/room/<slug>/act/``,
alternately adding a walk-in and taking them off again).  For each change
it measures the time from sending the POST until the update with the
room's new ``seq`` is on every screen, and prints p50/p99 of that ("all
screens") and of the single screens' receipt times, plus lost or doubled
updates.  Target: p99 all screens <= 100 ms.

A screen notes each message's arrival time and parses it after the run:
200 TVs parse in parallel, while one client process parsing 200 copies on
the server's own two cores would put the client's work in the figures.
Uses its own database (``pokerfloor_bench_lobby`` on the embedded server,
or ``DATABASE_URL`` as given).  Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import gc
import json
import sys
import time
import urllib.request
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchdb import daphne  # noqa: E402  (bench/ is on the path of a script run from it)


def setup_django() -> str:
    """Django on this benchmark's own database (``bench/benchdb.py``)."""
    from benchdb import setup_django as on_database

    return on_database("pokerfloor_bench_lobby")


def make_room(run: str) -> tuple[str, int, str, str]:
    """A room with one game and a full table; return its slug, the game id,
    a display token and a floor user's session cookie."""
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from room import services as r
    from tables import services

    floor_group = Group.objects.get_or_create(name="floor")[0]
    manager_group = Group.objects.get_or_create(name="manager")[0]
    user = User.objects.create_user(f"bench-lobby-{run}")
    user.groups.add(floor_group, manager_group)
    slug = f"bench-{run}"
    room = r.create_room(slug, f"Bench {run}", lobby_names="initials")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, f"Bench lobby {run}", max_seats=6)
    for seat in range(1, 7):
        services.seat_player(table.id, seat, f"Player {run} {seat}", 0)
        r.buy_in(table.id, seat, 100)
    display = r.create_display(room.id, actor=user)
    client = Client()
    client.force_login(user)
    return slug, game.id, display.token, client.cookies["sessionid"].value


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))] * 1000


#: Messages received by all screens together (the change loop waits on it).
arrivals_count = [0]


async def screen(url: str, connected: list, arrivals: list) -> None:
    """One lobby screen: connect, read the snapshot, then note the arrival of
    each message (monotonic and wall clock) with its raw text until closed.

    Parsing waits until the run is over: the 200 screens of a room are 200
    devices, each parsing its own copy, while here they share one process on
    the server's two cores; parsing on arrival would put 200 parses of the
    client in the figures."""
    import websockets

    for attempt in range(5):  # a busy server may drop a handshake: try again, like a screen would
        try:
            ws = await websockets.connect(
                url, additional_headers={"Origin": "http://" + url.split("/")[2]}, max_size=None
            )
            break
        except (OSError, websockets.exceptions.InvalidMessage, websockets.exceptions.InvalidHandshake):
            await asyncio.sleep(0.2 * (attempt + 1))
    else:
        raise SystemExit("a lobby screen could not connect")
    first = json.loads(await ws.recv())
    mine: list[tuple[float, float, str]] = []
    arrivals.append((first["seq"], mine))
    connected.append(ws)
    try:
        async for raw in ws:
            mine.append((time.perf_counter(), time.time(), raw))
            arrivals_count[0] += 1
    except websockets.exceptions.ConnectionClosed:
        pass


def post(url: str, cookie: str, csrf: str, body: dict) -> dict:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "X-CSRFToken": csrf,
            "Cookie": f"sessionid={cookie}; csrftoken={csrf}",
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


async def run(args, port: int, slug: str, game_id: int, token: str, cookie: str):
    from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
    from django.utils.crypto import get_random_string

    csrf = get_random_string(CSRF_SECRET_LENGTH, allowed_chars=CSRF_ALLOWED_CHARS)  # a cookie's CSRF secret
    connected: list = []
    arrivals: list[tuple[int, list[tuple[float, float, str]]]] = []
    url = f"ws://127.0.0.1:{port}/ws/lobby/{token}/"
    screens = []
    for i in range(args.screens):  # connect in small waves, like screens switched on
        screens.append(asyncio.create_task(screen(url, connected, arrivals)))
        if i % 20 == 19:
            await asyncio.sleep(0.05)
    deadline = time.perf_counter() + 60
    while len(connected) < args.screens:
        if time.perf_counter() > deadline:
            raise SystemExit(f"only {len(connected)} of {args.screens} screens connected")
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    loop = asyncio.get_running_loop()
    act = f"http://127.0.0.1:{port}/room/{slug}/act/"
    rounds = []
    entry_id = None
    for i in range(args.warmup + args.changes):
        body = (
            {"op": "waitlist_add", "game_id": game_id, "name": f"Walk-in {i}"}
            if entry_id is None
            else {"op": "waitlist_remove", "entry_id": entry_id}
        )
        expected = arrivals_count[0] + args.screens
        t0 = time.perf_counter()
        reply = await loop.run_in_executor(None, post, act, cookie, csrf, body)
        answered = time.perf_counter() - t0
        if not reply.get("ok"):
            raise SystemExit(f"the floor action was refused: {reply}")
        entry_id = reply.get("entry_id")
        seq = reply["seq"]
        deadline = time.perf_counter() + 5
        while arrivals_count[0] < expected and time.perf_counter() < deadline:
            await asyncio.sleep(0.001)
        if i >= args.warmup:
            rounds.append((t0, seq, answered))
        await asyncio.sleep(args.pause)
    for ws in connected:
        await ws.close()
    await asyncio.gather(*screens)
    # Now parse what each screen got: receipt times per seq, gaps and repeats.
    received: dict[int, list[float]] = defaultdict(list)
    since_snapshot: dict[int, list[float]] = defaultdict(list)
    anomalies: dict[str, int] = defaultdict(int)
    for last, messages in arrivals:
        for now, wall, raw in messages:
            message = json.loads(raw)
            if message.get("type") != "update":
                continue
            seq = message["seq"]
            if seq != last + 1:
                anomalies["doubled" if seq <= last else "lost"] += 1
            last = max(last, seq)
            received[seq].append(now)
            made = datetime.datetime.fromisoformat(message["snapshot"]["server_time"]).timestamp()
            since_snapshot[seq].append(wall - made)
    return rounds, received, since_snapshot, anomalies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--screens", type=int, default=200)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument(
        "--warmup",
        type=int,
        default=4,
        help="changes made first and not measured (the server's first requests import code and "
        "open its database connection)",
    )
    parser.add_argument("--pause", type=float, default=0.1, help="seconds between changes")
    args = parser.parse_args()

    database_url = setup_django()
    run_id = uuid.uuid4().hex[:6]
    slug, game_id, token, cookie = make_room(run_id)
    # This one process stands in for 200 TVs: keep its own full garbage
    # collections (of Django, imported for the set-up) out of the figures.
    gc.freeze()
    with daphne(database_url, "/tmp/bench-lobby-daphne.log") as port:
        rounds, received, since_snapshot, anomalies = asyncio.run(run(args, port, slug, game_id, token, cookie))

    all_screens, each_screen, missing = [], [], 0
    for t0, seq, _ in rounds:
        times = received.get(seq, [])
        missing += args.screens - len(times)
        each_screen.extend(t - t0 for t in times)
        if len(times) == args.screens:
            all_screens.append(max(times) - t0)
    print(f"screens={args.screens} changes={len(rounds)} (waitlist add/remove through the floor's HTTP action)")
    print(
        f"change->all screens ms: p50 {pct(all_screens, 50):.1f}  p99 {pct(all_screens, 99):.1f}"
        f"  max {pct(all_screens, 100):.1f}  ({len(all_screens)} complete rounds)"
    )
    print(
        f"change->one screen  ms: p50 {pct(each_screen, 50):.1f}  p99 {pct(each_screen, 99):.1f}"
        f"  ({len(each_screen)} receipts)"
    )
    answered = [a for _, _, a in rounds]
    fan_out = [max(since_snapshot[seq]) for _, seq, _ in rounds if since_snapshot.get(seq)]
    print(
        f"room snapshot taken->last screen ms (commit + fan-out): p50 {pct(fan_out, 50):.1f}"
        f"  p99 {pct(fan_out, 99):.1f}"
    )
    print(f"floor POST answered ms: p50 {pct(answered, 50):.1f}  p99 {pct(answered, 99):.1f}")
    print(f"lost updates: {anomalies['lost'] + missing}  doubled updates: {anomalies['doubled']}")


if __name__ == "__main__":
    main()
