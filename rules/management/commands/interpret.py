"""``manage.py interpret --profile SLUG --json '<input>'``: rule on a physical action.

Prints the ruling as JSON (shape: docs/interpret.md). Malformed input or an
unknown profile prints ``{"error": code, "message": ...}`` and exits with 2.
``--json -`` reads the input from stdin.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from poker.floor.interpret import InterpretError, interpret_json


class Command(BaseCommand):
    help = "Interpret what a player physically did under a house-rule profile (JSON in, JSON out)."
    requires_system_checks: list = []

    def add_arguments(self, parser):
        parser.add_argument("--profile", required=True, help="profile slug, e.g. munotpoker, tda-2024, 004")
        parser.add_argument("--json", required=True, dest="data", help="input JSON, or - for stdin")

    def _fail(self, code: str, message: str) -> None:
        self.stdout.write(json.dumps({"error": code, "message": message}, ensure_ascii=False))
        sys.exit(2)

    def handle(self, *args, **options):
        raw = sys.stdin.read() if options["data"] == "-" else options["data"]
        try:
            data = json.loads(raw)
        except ValueError as exc:
            self._fail("malformed_json", f"input is not valid JSON: {exc}")
        try:
            result = interpret_json(options["profile"], data)
        except KeyError as exc:
            self._fail("unknown_profile", str(exc.args[0]) if exc.args else "unknown profile")
        except InterpretError as exc:
            self._fail(exc.code, str(exc))
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
