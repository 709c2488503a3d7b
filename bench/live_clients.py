"""The simulated clients of ``bench/live.py``: dealer tablets, floor dashboards and lobby screens.

Every client reconnects the way the pages do (``static/js/socket.js``): a socket that closes is opened
again after a backoff with jitter (the same steps, and a handshake silent for 3.5 s given up as the page's
heartbeat does), or after the wait a "try again" close asks for (``{"type": "retry",
"after_ms"}`` then close 4503: the server's admission control, ``pokerfloor/runtime/admission.py``), and every
reconnect brings a fresh snapshot.  A tablet whose message was not acknowledged when its socket closed
sends it again with the same ``client_id`` (applied once: docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections import defaultdict
from typing import Any

#: The server's "try again in N ms" close code (``pokerfloor.runtime.admission.CLOSE_RETRY``).
CLOSE_RETRY = 4503


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


def retry_hint(first: dict) -> float | None:
    """Seconds the server asked to wait (its ``{"type": "retry", "after_ms"}`` before a 4503 close), else None."""
    if first.get("type") != "retry":
        return None
    return float(first.get("after_ms", 1000)) / 1000


#: ``static/js/socket.js``: the reconnect backoff (``minDelay`` doubling per attempt up to ``maxDelay``,
#: times 0.5-1) and the heartbeat's ``DEAD_AFTER_MS`` (a socket that has said nothing for that long, its
#: handshake included, is given up and opened again).
MIN_DELAY, MAX_DELAY, DEAD_AFTER = 0.5, 8.0, 3.5


class Opener:
    """Opens a client's socket and takes its first message, again and again until it works, as
    ``static/js/socket.js``'s ``LiveSocket`` does.

    ``errors`` counts what happened (``retry_close``: a 4503 close, ``retry:<exception>``: a handshake or
    first message that failed or took over :data:`DEAD_AFTER`).  Backoff: the server's hint times 0.5-1.5,
    else :data:`MIN_DELAY` doubling per attempt up to :data:`MAX_DELAY`, times 0.5-1; a socket that
    closed waits the first step before it opens again (the page's ``scheduleReconnect``)."""

    def __init__(self, url: str, cookie: str | None, errors: dict[str, int], rng: random.Random) -> None:
        self.url, self.cookie, self.errors, self.rng = url, cookie, errors, rng

    def backoff(self, attempt: int) -> float:
        """The page's wait before reconnect attempt ``attempt`` (0 after a close), in seconds."""
        return min(MAX_DELAY, MIN_DELAY * 2**attempt) * (0.5 + self.rng.random() / 2)

    async def open(self, deadline: float, closed: bool = False) -> tuple[Any, dict]:
        """``(websocket, first message)``; ``TimeoutError`` after ``deadline`` (perf_counter).  ``closed``:
        the client's socket just closed (the first attempt waits its backoff)."""
        import websockets

        headers = {"Origin": "http://" + self.url.split("/")[2]}
        if self.cookie:
            headers["Cookie"] = f"sessionid={self.cookie}"
        attempt = 0
        if closed:
            await asyncio.sleep(self.backoff(attempt))
            attempt += 1
        while True:
            ws, hint, failure = None, None, "?"
            try:
                async with asyncio.timeout(DEAD_AFTER):  # the page's heartbeat gives up a silent handshake
                    ws = await websockets.connect(self.url, additional_headers=headers, max_size=None)
                    first = json.loads(await ws.recv())
                hint = retry_hint(first)
                if hint is None:
                    return ws, first
                await ws.close()
            except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed, TimeoutError) as exc:
                if ws is not None:
                    await ws.close()
                failure = type(exc).__name__
            if hint is not None:
                self.errors["retry_close"] += 1
                delay = hint * (0.5 + self.rng.random())
            else:
                self.errors[f"retry:{failure}"] += 1
                delay = self.backoff(attempt)
                attempt += 1
            if time.perf_counter() + delay > deadline:
                raise TimeoutError(f"{self.url}: no snapshot before the deadline")
            await asyncio.sleep(delay)


async def tablet(url, cookie, table_id, clock, rate, rng, sent, acks, errors, kinds):
    """One dealer tablet: connects, reports itself ready (``clock["ready"]``, with the seconds its
    connection and first snapshot took), waits for ``clock["go"]``, then acts until ``clock["deadline"]``.
    When its socket closes it reconnects (``clock["back"]``: the time of each snapshot after
    ``clock["killed"]``) and resends its unacknowledged message."""
    import websockets

    opener = Opener(url, cookie, errors, rng)
    c0 = time.perf_counter()
    ws, first = await opener.open(c0 + clock["connect_limit"])
    clock["connects"].append(time.perf_counter() - c0)
    clock["ready"].release()
    await clock["go"].wait()
    state = _State(first["snapshot"], None)
    try:
        while True:
            try:
                await _act_loop(ws, clock, rate, rng, sent, acks, errors, kinds, table_id, state)
                return
            except websockets.ConnectionClosed:
                errors["reconnect"] += 1
                try:
                    ws, first = await opener.open(clock["deadline"] + 60, closed=True)
                except TimeoutError:  # counted, and the run's figures still printed (not one tablet's traceback)
                    errors["gave_up_reconnecting"] += 1
                    return
                state.snapshot = first["snapshot"]
                if clock["killed"]:
                    clock["back"][table_id] = time.perf_counter()
                if state.pending is not None:  # the message whose answer the close took: again, same client_id
                    state.pending["expected_seq"] = state.snapshot["seq"]
                    await ws.send(json.dumps(state.pending))
    finally:
        await ws.close()


class _State:
    """A tablet's snapshot and unacknowledged message, carried across a reconnect."""

    def __init__(self, snapshot: dict, pending: dict | None) -> None:
        self.snapshot, self.pending = snapshot, pending


async def _idle(ws, until: float, state: _State) -> None:
    """Wait until ``until`` (perf_counter) reading what comes, as the page does between a dealer's actions:
    a closed socket is seen at once (``ConnectionClosed``), not at the next action.  (A sleep instead left
    a killed server unnoticed until each tablet's next action: after a restart the last tablets came back
    as late as the longest of their random waits, ``bench/RESULTS.md`` "Connect storm ...".)"""
    while (left := until - time.perf_counter()) > 0:
        try:
            reply = json.loads(await asyncio.wait_for(ws.recv(), left))
        except TimeoutError:
            return
        if reply["type"] in ("update", "snapshot") and reply["seq"] >= state.snapshot["seq"]:
            state.snapshot = reply["snapshot"]


async def _act_loop(ws, clock, rate, rng, sent, acks, errors, kinds, table_id, state: _State) -> None:
    """Act until the deadline (``ConnectionClosed`` when the socket closes or stays silent for 15 s;
    ``state`` keeps the rest)."""
    import websockets

    while True:
        if state.pending is None:
            if time.perf_counter() >= clock["deadline"]:
                return
            await _idle(ws, min(time.perf_counter() + rng.expovariate(rate), clock["deadline"]), state)
            if time.perf_counter() >= clock["deadline"]:  # the run is over: nothing more sent
                return
            message = choose(state.snapshot, rng)
            message["client_id"] = uuid.uuid4().hex
            message["expected_seq"] = state.snapshot["seq"]
            state.pending = message
            sent[message["client_id"]] = (table_id, time.perf_counter())
            kinds[message["client_id"]] = message["action"]["type"] if message["type"] == "action" else message["type"]
            await ws.send(json.dumps(message))
        try:
            reply = json.loads(await asyncio.wait_for(ws.recv(), 15.0))
        except TimeoutError:  # no answer (a server killed after the send): as the page's heartbeat, reconnect
            errors["answer_missing"] += 1
            await ws.close()
            raise websockets.ConnectionClosedError(None, None) from None
        if reply["type"] in ("update", "snapshot"):
            if reply["seq"] >= state.snapshot["seq"]:
                state.snapshot = reply["snapshot"]
        elif reply["type"] == "ack" and state.pending and reply["client_id"] == state.pending["client_id"]:
            acks[reply["client_id"]] = (reply["seq"], time.perf_counter(), reply["duplicate"])
            state.pending = None
            while state.snapshot["seq"] < reply["seq"]:  # wait for our own update before deciding again
                try:
                    update = json.loads(await asyncio.wait_for(ws.recv(), 5.0))
                except TimeoutError:  # the layer lost it: ask for a snapshot, as a tablet does on a gap
                    errors["own_update_missing"] += 1
                    await ws.send(json.dumps({"type": "snapshot"}))
                    continue
                if update["type"] in ("update", "snapshot") and update["seq"] > state.snapshot["seq"]:
                    state.snapshot = update["snapshot"]
        elif reply["type"] == "error":
            errors[reply["code"]] += 1
            state.pending = None
            await ws.send(json.dumps({"type": "snapshot"}))


async def floor(url, cookie, clock, stop, received, anomalies, errors, rng):
    """One floor dashboard: connects (``clock["ready"]`` once it has its snapshot), then records the
    time of every update per ``(table, seq)``; a gap or repeat of a table's seq is counted in
    ``anomalies``.  A close: reconnect, and the new snapshot's seqs (all its pages) are the new
    baseline; the updates it covers that this dashboard did not receive before the close (those made
    while it was away: a restart) are counted in ``anomalies["resynced"]``, not lost."""
    import websockets

    opener = Opener(url, cookie, errors, rng)
    c0 = time.perf_counter()
    ws, first = await opener.open(c0 + clock["connect_limit"])
    clock["floor_connects"].append(time.perf_counter() - c0)
    clock["ready"].release()
    last = {t["table"]["id"]: t["seq"] for t in first["tables"]}
    before: dict[int, int] = {}  # the last seq of each table received before a reconnect

    def rebase(tables: list[dict]) -> None:
        """A page of the snapshot read on a reconnect: the new baseline of its tables."""
        for t in tables:
            table_id, seq = t["table"]["id"], t["seq"]
            if table_id in before and seq > before[table_id]:
                anomalies["resynced"] += seq - before.pop(table_id)
            last[table_id] = max(seq, last.get(table_id, 0))

    try:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                continue
            except websockets.ConnectionClosed:
                errors["floor_reconnect"] += 1
                try:
                    ws, first = await opener.open(time.perf_counter() + 120, closed=True)
                except TimeoutError:
                    errors["floor_gave_up_reconnecting"] += 1
                    return
                before, last = {**before, **last}, {}
                rebase(first["tables"])
                continue
            now = time.perf_counter()
            message = json.loads(raw)
            if message["type"] == "floor_snapshot":  # a further page of the snapshot
                rebase(message["tables"])
                continue
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
    finally:
        await ws.close()


async def screen(url, clock, stop, errors, rng):
    """One lobby screen (or a player's phone on the lobby): connects (``clock["screen_connects"]``,
    ``clock["ready"]``) and stays open, reading what comes, until ``stop``; reconnects when closed."""
    import websockets

    opener = Opener(url, None, errors, rng)
    c0 = time.perf_counter()
    ws, _ = await opener.open(c0 + clock["connect_limit"])
    clock["screen_connects"].append(time.perf_counter() - c0)
    clock["ready"].release()
    try:
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            except websockets.ConnectionClosed:
                errors["screen_reconnect"] += 1
                try:
                    ws, _ = await opener.open(time.perf_counter() + 120, closed=True)
                except TimeoutError:
                    errors["screen_gave_up_reconnecting"] += 1
                    return
    finally:
        await ws.close()


def new_clock(connect_limit: float) -> dict[str, Any]:
    """The shared state of one run's clients (see :func:`tablet`)."""
    return {
        "ready": asyncio.Semaphore(0),
        "go": asyncio.Event(),
        "connects": [],
        "floor_connects": [],
        "screen_connects": [],
        "deadline": 0.0,
        "connect_limit": connect_limit,
        "killed": 0.0,
        "back": {},
        "counts": defaultdict(int),
    }
