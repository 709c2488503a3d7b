"""Live benchmark: a real daphne server, N simulated tablets, F floor dashboards.

    .venv/bin/python bench/live.py [--tables 50] [--floors 5] [--seconds 30] [--rate 6]

Each tablet acts at random (Poisson) times, ``--rate`` actions per second on
average, waiting for the ack of its previous message like a dealer would;
it plays random legal actions (starting hands, betting, boards, awards).
Prints actions/s, p50/p95/p99 latency from send to ack and from send to
receipt on every floor dashboard, and the count of lost or doubled events
seen by the floors (gaps or repeats of a table's ``seq``) and in the
database.  Uses its own database (``pokerfloor_bench`` on the embedded
server, or ``DATABASE_URL`` as given).  Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchdb import daphne  # noqa: E402  (bench/ is on the path of a script run from it)


def setup_django() -> str:
    """Django on this benchmark's own database (``bench/benchdb.py``)."""
    from benchdb import setup_django as on_database

    return on_database("pokerfloor_bench")


def make_room(n_tables: int, run: str) -> tuple[list[int], list[str], list[str]]:
    """Create tables with six deep-stacked players each; return table ids and
    session cookies of one dealer per table and of floor users."""
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
    for _ in range(5):
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


async def tablet(url, cookie, table_id, deadline, rate, rng, sent, acks, errors):
    import websockets

    async with websockets.connect(
        url, additional_headers={"Cookie": f"sessionid={cookie}", "Origin": "http://" + url.split("/")[2]}
    ) as ws:
        snapshot = json.loads(await ws.recv())["snapshot"]
        pending = None
        while True:
            if pending is None:
                if time.perf_counter() >= deadline:
                    return
                await asyncio.sleep(rng.expovariate(rate))
                message = choose(snapshot, rng)
                message["client_id"] = uuid.uuid4().hex
                message["expected_seq"] = snapshot["seq"]
                pending = message["client_id"]
                sent[pending] = (table_id, time.perf_counter())
                await ws.send(json.dumps(message))
            reply = json.loads(await ws.recv())
            if reply["type"] in ("update", "snapshot"):
                if reply["seq"] >= snapshot["seq"]:
                    snapshot = reply["snapshot"]
            elif reply["type"] == "ack" and reply["client_id"] == pending:
                acks[pending] = (reply["seq"], time.perf_counter(), reply["duplicate"])
                pending = None
                while snapshot["seq"] < reply["seq"]:  # wait for our own update before deciding again
                    update = json.loads(await ws.recv())
                    if update["type"] in ("update", "snapshot") and update["seq"] > snapshot["seq"]:
                        snapshot = update["snapshot"]
            elif reply["type"] == "error":
                errors[reply["code"]] += 1
                pending = None
                await ws.send(json.dumps({"type": "snapshot"}))


async def floor(url, cookie, stop, received, anomalies):
    import websockets

    async with websockets.connect(
        url,
        additional_headers={"Cookie": f"sessionid={cookie}", "Origin": "http://" + url.split("/")[2]},
        max_size=None,
    ) as ws:
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


async def run(args, port, table_ids, dealer_cookies, floor_cookies):
    rng = random.Random(args.seed)
    sent, acks, errors = {}, {}, defaultdict(int)
    received, anomalies = defaultdict(list), defaultdict(int)
    stop = asyncio.Event()
    floors = [
        asyncio.create_task(floor(f"ws://127.0.0.1:{port}/ws/floor/", c, stop, received, anomalies))
        for c in floor_cookies[: args.floors]
    ]
    await asyncio.sleep(0.5)
    start = time.perf_counter()
    deadline = start + args.seconds
    tablets = [
        asyncio.create_task(
            tablet(
                f"ws://127.0.0.1:{port}/ws/tables/{t}/dealer/",
                c,
                t,
                deadline,
                args.rate,
                random.Random(rng.random()),
                sent,
                acks,
                errors,
            )
        )
        for t, c in zip(table_ids, dealer_cookies)
    ]
    await asyncio.gather(*tablets)
    elapsed = time.perf_counter() - start
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.gather(*floors)
    return sent, acks, errors, received, anomalies, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--floors", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=6.0, help="mean actions per second per tablet")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    database_url = setup_django()
    run_id = uuid.uuid4().hex[:6]
    table_ids, dealer_cookies, floor_cookies = make_room(args.tables, run_id)
    with daphne(database_url, "/tmp/bench-daphne.log") as port:
        sent, acks, errors, received, anomalies, elapsed = asyncio.run(
            run(args, port, table_ids, dealer_cookies, floor_cookies)
        )

    from tables.models import HandEvent

    applied = [a for a in acks.values() if not a[2]]
    ack_latency = [acks[c][1] - sent[c][1] for c in acks]
    floor_latency = []
    for client_id, (seq, _, _duplicate) in acks.items():
        table_id, t0 = sent[client_id]
        for t in received.get((table_id, seq), []):
            floor_latency.append(t - t0)
    expected_floor = len(applied) * args.floors
    floor_missing = expected_floor - len(floor_latency)
    db_events = HandEvent.objects.filter(table_id__in=table_ids).count()
    print(f"tables={args.tables} floors={args.floors} seconds={elapsed:.1f} rate/tablet={args.rate}/s")
    print(f"actions applied: {len(applied)}  ({len(applied) / elapsed:.1f} actions/s)  errors: {dict(errors) or 0}")
    print(
        f"send->ack   ms: p50 {pct(ack_latency, 50):.1f}  p95 {pct(ack_latency, 95):.1f}"
        f"  p99 {pct(ack_latency, 99):.1f}"
    )
    print(
        f"send->floor ms: p50 {pct(floor_latency, 50):.1f}  p95 {pct(floor_latency, 95):.1f}"
        f"  p99 {pct(floor_latency, 99):.1f}  ({len(floor_latency)} receipts)"
    )
    print(
        f"lost events: {anomalies['lost'] + max(floor_missing, 0)}  doubled events: {anomalies['doubled']}"
        f"  (db events {db_events}, acked applied {len(applied)})"
    )


if __name__ == "__main__":
    main()
