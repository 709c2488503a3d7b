"""``manage.py replay_phh PATH... [--rules SLUG] [--chip-unit 0.01] [--via-websocket ws://HOST:PORT] [--json]``

Replays PHH hand histories (the Poker Hand History format, TOML; ``.phh``
one hand, ``.phhs`` several hands as tables ``[1]``, ``[2]`` ...) through the
same services the dealer tablet uses: for each hand a table is created with
the hand's players and starting stacks (seat i = position i, so seat 1 is the
small blind and the last seat the button), the hand is started from the
recorded forced bets, and every recorded action is applied as the dealer
would enter it.  With ``--via-websocket`` the hand is played over the dealer
websocket of a running server, logged in as a dealer (the demo dealer unless
``--username``/``--password`` say otherwise), exactly as a tablet would.

Rules: ``--rules pokerkit`` (pokerkit 0.7.7's reading, ``Rules.pokerkit()``)
or a house-rule profile slug (``tda-2024``, ``munotpoker``, ``004`` ...).
Without ``--rules`` a hand exported by pokerfloor keeps the rules in its
``_rules`` field and any other PHH hand is read as ``pokerkit``.

Amounts with decimals (``0.50``) become whole chips of the hand's chip unit
(``0.01``; ``--chip-unit`` sets it), exactly (``Decimal``).  Unknown hole
cards (``????``) are entered as unknown; when a showdown cannot be decided
from the cards, the pots are awarded as the recorded ``winnings`` say.

Output: one line per hand; with ``--json`` one JSON object per line:
``{"file", "hand", "ok", "expected", "actual", "error", "rules", "chip_unit",
"checked", "unchecked"}`` (``hand``: the table name in a ``.phhs``, a hand
refused while loading too, else null; ``error``: ``"<code>: <message>"``;
``rules``: null for a hand refused while loading unless ``--rules`` names
them; ``expected``/``actual``: finishing stacks in chips; ``checked``: what
was compared, ``finishing_stacks`` and/or ``winnings``; ``unchecked``: what
the record did not let us check).  ``ok`` is true only if every action
applied as recorded and the recorded result (``finishing_stacks``, else
``winnings``) matched.  A hand that fails leaves nothing behind: its table
and hand are rolled back (or, over the websocket, removed), so no replayed
hand stays in progress.  Exit code 0 only if every hand was ok.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import sys
import urllib.parse
import urllib.request
import uuid
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from poker.hand import EngineError, HandSpec, Rules
from poker.hand.phh import PhhHand
from poker.hand.phh_stud import StudPhhHand, replay_stud
from tables import services
from tables.models import Hand, HandEvent, Table
from tables.phh_import import (  # find_phh_files, rules_for, spec_for: this command's names too
    ReplayError,
    Replica,
    check_recorded,
    find_phh_files,
    load_error_result,
    load_hands,
    new_result,
    rules_for,
    rules_label,
    spec_for,
)


class _Failed(Exception):
    """Rolls a failed hand's table back (the result line says why)."""


def stud_result(result: dict[str, Any], hand: StudPhhHand, rules: Rules | None) -> dict[str, Any]:
    """The result line of a stud hand (``F7S``, ``FR``, ``F7S/8``): replayed by the engine
    (:func:`poker.hand.phh_stud.replay_stud`, as ``import_phh`` does), not through a live table -- a stud
    table is dealt street by street from the tablet, which a PHH file does not record -- and checked
    against the recorded finishing stacks; the line says so in ``unchecked``."""
    result["hand"] = hand.index
    result["chip_unit"] = str(hand.chip_unit)
    if rules is None and "_rules" not in hand.extra:
        rules = Rules.pokerkit()
    replayed = replay_stud(hand, rules)
    result["rules"] = rules_label(rules) if rules is not None else None
    result["expected"] = list(replayed.expected) if replayed.expected is not None else None
    result["actual"] = list(replayed.actual) if replayed.actual is not None else None
    result["ok"], result["error"] = replayed.ok, replayed.error
    result["checked"] = list(replayed.checked)
    result["unchecked"] = [
        f"{hand.variant}: replayed by the engine, not through a live table (a stud table deals from the tablet)",
        *replayed.unchecked,
    ]
    return result


def create_table_for(spec: HandSpec, name: str, dealer: User | None) -> Table:
    """A new table for one PHH hand, with its players seated at their seats
    (its stakes: the two smallest blinds; a straddle is not the big blind)."""
    blinds = sorted(b for b in spec.blinds_or_straddles if b > 0) or [spec.min_bet]
    table = services.create_table(
        name,
        small_blind=blinds[0] if len(blinds) > 1 else 0,
        big_blind=blinds[1] if len(blinds) > 1 else blinds[0],
        max_seats=max(2, max(s.seat for s in spec.seats)),
        dealer=dealer,
    )
    for seat in spec.seats:
        services.seat_player(table.id, seat.seat, seat.player, seat.stack)
    return table


def replay_via_services(hand: PhhHand, spec: HandSpec, table: Table, replica: Replica) -> list[int]:
    """Play the hand through ``tables.services``; return the final stacks."""
    services.start_hand(table.id, spec=services.spec_to_dict(spec), metadata={"source": "phh"})
    for line, action in replica.steps(hand):
        try:
            services.apply_action(table.id, action)
        except services.ServiceError as exc:
            raise ReplayError(f"{line!r} refused: {exc.code}: {exc.message}") from None
    return _final_stacks(table)


def _final_stacks(table: Table) -> list[int]:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if hand is None or hand.status != "complete":
        phase = (hand.snapshot or {}).get("phase") if hand else None
        raise ReplayError(f"incomplete: hand not complete after the last recorded action (phase {phase})")
    return list(hand.snapshot["final_stacks"])


def discard_table(table_id: int) -> None:
    """Remove a table this command made for a hand whose replay failed,
    with its hand and events (played over the websocket, so committed)."""
    with transaction.atomic():
        HandEvent.objects.filter(table_id=table_id).delete()
        Hand.objects.filter(table_id=table_id).delete()
        Table.objects.filter(pk=table_id).delete()


def check_result(result: dict[str, Any], hand: PhhHand, replica: Replica) -> None:
    """Fill ``ok``/``error``/``checked``/``unchecked`` of a replayed hand's
    result line: the services' final stacks (``result["actual"]``) must be the
    engine's, then the recorded ``finishing_stacks`` and ``winnings`` are
    checked (:func:`tables.phh_import.check_recorded`)."""
    if replica.state.final_stacks is None or list(replica.state.final_stacks) != result["actual"]:
        result["unchecked"].extend(replica.unchecked)
        result["error"] = "the services and the engine disagree on the final stacks"
        return
    check_recorded(result, hand, replica)


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

    async def play(self, hand: PhhHand, spec: HandSpec, table_id: int, replica: Replica) -> list[int]:
        import websockets

        url = f"{self.ws_base}/ws/tables/{table_id}/dealer/"
        headers = {"Cookie": f"sessionid={self.session}", "Origin": self.http_base}
        async with websockets.connect(url, additional_headers=headers, max_size=None) as ws:
            snapshot = json.loads(await ws.recv())["snapshot"]
            snapshot = await self._send(ws, snapshot, {"type": "start_hand", "spec": services.spec_to_dict(spec)})
            for line, action in replica.steps(hand):
                snapshot = await self._send(ws, snapshot, {"type": "action", "action": action}, line)
        hand_data = snapshot["hand"]
        if hand_data is None or hand_data["status"] != "complete":
            raise ReplayError("incomplete: hand not complete after the last recorded action")
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
        parser.add_argument("paths", nargs="+", help="PHH files (.phh, .phhs) or folders (searched recursively)")
        parser.add_argument(
            "--rules",
            metavar="SLUG",
            help="pokerkit or a house-rule profile slug (default: the file's _rules, else pokerkit)",
        )
        parser.add_argument(
            "--chip-unit",
            metavar="AMOUNT",
            help="the amount that is one chip, e.g. 0.01 (default: each hand's own decimal places)",
        )
        parser.add_argument(
            "--via-websocket", metavar="ws://HOST:PORT", help="play over the dealer websocket of a running server"
        )
        parser.add_argument("--username", default="dealer", help="dealer login for --via-websocket")
        parser.add_argument("--password", default="dealer-demo", help="dealer password for --via-websocket")
        parser.add_argument("--json", action="store_true", help="one JSON object per hand")

    def handle(self, *args, **options):
        files = find_phh_files(options["paths"])
        rules = rules_for(options["rules"])
        chip_unit = None
        if options["chip_unit"] is not None:
            try:
                chip_unit = Decimal(options["chip_unit"])
            except InvalidOperation:
                raise CommandError(f"--chip-unit: {options['chip_unit']!r} is not an amount") from None
            if not chip_unit.is_finite() or chip_unit <= 0:
                raise CommandError(f"--chip-unit: {options['chip_unit']!r} must be a positive amount")
        remote = None
        dealer = None
        if options["via_websocket"]:
            dealer = User.objects.filter(username=options["username"]).first()
            if dealer is None:
                raise CommandError(f"no user {options['username']!r}")
            dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
            remote = WebsocketDealer(options["via_websocket"], options["username"], options["password"])
        run = uuid.uuid4().hex[:6]
        failures = total = 0
        for number, path in enumerate(files):
            hands = load_hands(path, chip_unit)
            for hand in hands:
                result = self.replay_one(hand, path, f"{run} {number}", rules, dealer, remote)
                total += 1
                failures += not result["ok"]
                self.report(result, options["json"])
        if not options["json"]:
            self.stdout.write(f"{total - failures} ok, {failures} failed of {total} hands")
        if failures:
            sys.exit(1)

    def replay_one(
        self,
        hand: PhhHand | StudPhhHand | EngineError,
        path: Path,
        label: str,
        rules: Rules | None,
        dealer: User | None,
        remote: WebsocketDealer | None,
    ) -> dict[str, Any]:
        """Replay one hand; return its result line. A failed hand leaves no
        table or hand behind."""
        result = new_result(path)
        if isinstance(hand, EngineError):
            # a hand refused while loading: named as far as the file names it
            return load_error_result(result, hand, rules)
        if isinstance(hand, StudPhhHand):
            return stud_result(result, hand, rules)
        result["hand"] = hand.index
        result["chip_unit"] = str(hand.chip_unit)
        result["expected"] = list(hand.finishing_stacks) if hand.finishing_stacks is not None else None
        name = f"PHH {label}{'.' + hand.index if hand.index else ''} {path.stem}"[:60]
        try:
            spec = spec_for(hand, rules)
            result["rules"] = rules_label(spec.rules)
            replica = Replica(spec)
            if remote is not None:
                table = create_table_for(spec, name, dealer)
                try:
                    result["actual"] = asyncio.run(remote.play(hand, spec, table.id, replica))
                    check_result(result, hand, replica)
                finally:
                    if not result["ok"]:
                        discard_table(table.id)
            else:
                # one transaction per hand: a hand that fails is rolled back
                with transaction.atomic():
                    table = create_table_for(spec, name, dealer)
                    result["actual"] = replay_via_services(hand, spec, table, replica)
                    check_result(result, hand, replica)
                    if not result["ok"]:
                        raise _Failed
            # the replayed hand stays in the history; its table leaves the floor
            services.set_table_status(table.id, Table.Status.CLOSED)
        except _Failed:
            pass
        except (EngineError, services.ServiceError) as exc:
            result["error"] = f"{exc.code}: {exc.message}"
        except (ReplayError, ValueError, KeyError, TypeError, OSError) as exc:
            result["error"] = str(exc)
        return result

    def report(self, result: dict[str, Any], as_json: bool) -> None:
        if as_json:
            self.stdout.write(json.dumps(result))
            return
        where = result["file"] + (f" [{result['hand']}]" if result["hand"] else "")
        if result["ok"]:
            self.stdout.write(f"ok   {where}")
        else:
            self.stdout.write(
                f"FAIL {where}  {result['error']} expected={result['expected']} actual={result['actual']}"
            )
