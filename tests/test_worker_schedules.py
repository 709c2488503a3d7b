"""The floor worker only schedules (issue 25): what a waitlist call that ran out means lives in the
room app (``room.services.due``); ``pokerfloor/worker.py`` asks it what is due and when."""

import ast
from pathlib import Path

WORKER = Path(__file__).resolve().parents[1] / "pokerfloor" / "worker.py"


def waitlist_internals(source: str) -> list[str]:
    """What of the room's waitlist a module reaches past the room services: its models, the
    ``Call`` and ``Room`` rows, or the per-room ``expire_calls``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("room.")
            and node.module != "room.services"
        ):
            found.append(f"from {node.module}")
        elif isinstance(node, ast.Name) and node.id in ("Call", "Room", "expire_calls"):
            found.append(node.id)
    return found


def test_the_check_sees_waitlist_logic():
    before = "from room.models import Call, Room\nCall.objects.filter(status='open')\n"
    assert waitlist_internals(before) == ["from room.models", "Call"]


def test_the_worker_only_schedules_the_waitlist():
    assert waitlist_internals(WORKER.read_text(encoding="utf-8")) == []
