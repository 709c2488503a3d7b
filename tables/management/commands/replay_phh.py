"""``manage.py replay_phh PATH... [--via-websocket ws://HOST:PORT] [--json]``

Replays PHH hand histories (the Poker Hand History format, TOML) through the
same services the dealer tablet uses: for each hand a table is created with
the hand's players and starting stacks (seat i = position i, so seat 1 is the
small blind and the last seat the button), the hand is started from the
recorded forced bets, and every recorded action is applied as the dealer
would enter it.  With ``--via-websocket`` the hand is played over the dealer
websocket of a running server, logged in as a dealer (the demo dealer unless
``--username``/``--password`` say otherwise), exactly as a tablet would.

Output: one line per hand; with ``--json`` one JSON object per line:
``{"file", "ok", "expected", "actual", "error"}``.  ``ok`` is true only if
every action applied as recorded and the final stacks equal
``finishing_stacks``.  Exit code 0 only if every hand was ok.
"""

from __future__ import annotations

import asyncio
import dataclasses
import http.cookiejar
import json
import sys
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError

from poker.hand import EngineError, HandSpec, HandState
from poker.hand.phh import PhhHand, load_phh, translate_action
from tables import services
from tables.models import Hand, Table


class ReplayError(Exception):
    """A recorded action that could not be applied as recorded."""


def find_phh_files(paths: list[str]) -> list[Path]:
    """Files given, and ``*.phh`` files found recursively in folders given, sorted."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(path.rglob("*.phh")))
        elif path.is_file():
            found.append(path)
        else:
            raise CommandError(f"no such file or folder: {raw}")
    return found


def spec_for(hand: PhhHand) -> HandSpec:
    """The engine spec of a PHH hand (positions in PHH order; the last seat is the button)."""
    spec = hand.spec()
    return dataclasses.replace(spec, button_seat=spec.seats[-1].seat)


def create_table_for(spec: HandSpec, name: str, dealer: User | None) -> Table:
    """A new table for one PHH hand, with its players seated at their seats."""
    blinds = sorted(b for b in spec.blinds_or_straddles if b > 0) or [spec.min_bet]
    table = services.create_table(
        name,
        small_blind=blinds[0] if len(blinds) > 1 else 0,
        big_blind=blinds[-1] if len(blinds) > 1 else spec.min_bet,
        max_seats=max(2, max(s.seat for s in spec.seats)),
        dealer=dealer,
    )
    for seat in spec.seats:
        services.seat_player(table.id, seat.seat, seat.player, seat.stack)
    return table


class Replica:
    """The dealer's own view of the hand, used to read a PHH line as the
    dealer would enter it (``cc`` is a check or a call depending on the
    situation).  Raises ReplayError when a line does not fit the hand."""

    def __init__(self, spec: HandSpec) -> None:
        self.state = HandState.start(spec)

    def translate(self, line: str) -> dict[str, Any] | None:
        try:
            action = translate_action(self.state, line)
            if action is not None:
                self.state = self.state.apply(action)
        except EngineError as exc:
            raise ReplayError(f"{line!r}: {exc.code}: {exc.message}") from None
        return action


def replay_via_services(spec: HandSpec, lines: tuple[str, ...], table: Table) -> list[int]:
    """Play the hand through ``tables.services``; return the final stacks."""
    services.start_hand(table.id, spec=services.spec_to_dict(spec), metadata={"source": "phh"})
    replica = Replica(spec)
    for line in lines:
        action = replica.translate(line)
        if action is None:
            continue
        try:
            services.apply_action(table.id, action)
        except services.ServiceError as exc:
            raise ReplayError(f"{line!r} refused: {exc.code}: {exc.message}") from None
    return _final_stacks(table)


def _final_stacks(table: Table) -> list[int]:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if hand is None or hand.status != "complete":
        phase = (hand.snapshot or {}).get("phase") if hand else None
        raise ReplayError(f"hand not complete after the last recorded action (phase {phase})")
    return list(hand.snapshot["final_stacks"])


class WebsocketDealer:
    """A dealer tablet over the real websocket of a running server."""

    def __init__(self, base: str, username: str, password: str) -> None:
        parsed = urllib.parse.urlparse(base)
        if parsed.scheme not in ("ws", "wss") or not parsed.netloc:
            raise CommandError("--via-websocket takes ws://HOST:PORT")
        self.ws_base = f"{parsed.scheme}://{parsed.netloc}"
        self.http_base = f"{'https' if parsed.scheme == 'wss' else 'http'}://{parsed.netloc}"
        self.session = self._login(username, password)

    def _login(self, username: str, password: str) -> str:
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(f"{self.http_base}/login/").read()
        csrf = next((c.value for c in jar if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": csrf}
        ).encode()
        request = urllib.request.Request(
            f"{self.http_base}/login/", data=body, headers={"Referer": f"{self.http_base}/login/"}
        )
        opener.open(request).read()
        session = next((c.value for c in jar if c.name == "sessionid"), None)
        if session is None:
            raise CommandError(f"could not log in as {username!r} at {self.http_base}")
        return session

    async def play(self, spec: HandSpec, lines: tuple[str, ...], table_id: int) -> list[int]:
        import websockets

        url = f"{self.ws_base}/ws/tables/{table_id}/dealer/"
        headers = {"Cookie": f"sessionid={self.session}", "Origin": self.http_base}
        async with websockets.connect(url, additional_headers=headers, max_size=None) as ws:
            snapshot = json.loads(await ws.recv())["snapshot"]
            snapshot = await self._send(ws, snapshot, {"type": "start_hand", "spec": services.spec_to_dict(spec)})
            replica = Replica(spec)
            for line in lines:
                action = replica.translate(line)
                if action is None:
                    continue
                snapshot = await self._send(ws, snapshot, {"type": "action", "action": action}, line)
        hand_data = snapshot["hand"]
        if hand_data is None or hand_data["status"] != "complete":
            raise ReplayError("hand not complete after the last recorded action")
        return list(hand_data["state"]["final_stacks"])

    async def _send(self, ws, snapshot: dict, message: dict, line: str = "start") -> dict:
        message = {**message, "client_id": uuid.uuid4().hex, "expected_seq": snapshot["seq"]}
        await ws.send(json.dumps(message))
        acked_seq = None
        while True:
            reply = json.loads(await ws.recv())
            if reply["type"] == "error":
                raise ReplayError(f"{line!r} refused: {reply['code']}: {reply['message']}")
            if reply["type"] == "ack" and reply["client_id"] == message["client_id"]:
                acked_seq = reply["seq"]
            elif reply["type"] in ("update", "snapshot"):
                snapshot = reply["snapshot"]
            if acked_seq is not None and snapshot["seq"] >= acked_seq:
                return snapshot


class Command(BaseCommand):
    help = "Replay PHH hand histories through the dealer services and check the finishing stacks."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="PHH files or folders (searched recursively)")
        parser.add_argument(
            "--via-websocket", metavar="ws://HOST:PORT", help="play over the dealer websocket of a running server"
        )
        parser.add_argument("--username", default="dealer", help="dealer login for --via-websocket")
        parser.add_argument("--password", default="dealer-demo", help="dealer password for --via-websocket")
        parser.add_argument("--json", action="store_true", help="one JSON object per hand")

    def handle(self, *args, **options):
        files = find_phh_files(options["paths"])
        remote = None
        dealer = None
        if options["via_websocket"]:
            dealer = User.objects.filter(username=options["username"]).first()
            if dealer is None:
                raise CommandError(f"no user {options['username']!r}")
            dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
            remote = WebsocketDealer(options["via_websocket"], options["username"], options["password"])
        run = uuid.uuid4().hex[:6]
        failures = 0
        for number, path in enumerate(files):
            result = {"file": str(path), "ok": False, "expected": None, "actual": None, "error": None}
            table = None
            try:
                hand = load_phh(path)
                result["expected"] = list(hand.finishing_stacks) if hand.finishing_stacks is not None else None
                spec = spec_for(hand)
                table = create_table_for(spec, f"PHH {run} {number} {path.stem}"[:60], dealer)
                if remote is not None:
                    result["actual"] = asyncio.run(remote.play(spec, hand.actions, table.id))
                else:
                    result["actual"] = replay_via_services(spec, hand.actions, table)
                if result["expected"] is None:
                    result["error"] = "the file records no finishing_stacks"
                elif result["actual"] != result["expected"]:
                    result["error"] = "mismatch: final stacks differ from finishing_stacks"
                else:
                    result["ok"] = True
            except (ReplayError, EngineError, services.ServiceError, ValueError, KeyError, TypeError, OSError) as exc:
                result["error"] = getattr(exc, "message", None) or str(exc)
            if table is not None and result["ok"]:
                # the replayed hand stays in the history; its table leaves the floor
                # (a hand that stopped half-way stays live on the floor, as recorded)
                services.set_table_status(table.id, Table.Status.CLOSED)
            failures += not result["ok"]
            if options["json"]:
                self.stdout.write(json.dumps(result))
            else:
                status = "ok  " if result["ok"] else "FAIL"
                detail = (
                    ""
                    if result["ok"]
                    else f"  {result['error']} expected={result['expected']} actual={result['actual']}"
                )
                self.stdout.write(f"{status} {path}{detail}")
        if not options["json"]:
            self.stdout.write(f"{len(files) - failures} ok, {failures} failed of {len(files)} hands")
        if failures:
            sys.exit(1)
