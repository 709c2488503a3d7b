"""The tournaments of the house as the public sees them (issue 29): the room page, the JSON feed and the
iCalendar feed.  Names of players are never part of it."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.utils import timezone

from tournaments.models import Tournament
from tournaments.services.snapshot import public_snapshot_of


def public_tournaments(now: float | None = None) -> list[dict[str, Any]]:
    """Tournaments open for registration or running: ``[{"id", "name", "status", "starts" (ISO 8601: the
    clock's start, or null before it), "level": {small_blind, big_blind, ante...} | null, "level_number",
    "on_break", "seconds_left", "late_registration_open", "late_registration_seconds_left" (or null),
    "entries", "players_left", "buy_in", "fee"}]`` (amounts are ints)."""
    now = time.time() if now is None else now
    out = []
    for t in Tournament.objects.exclude(status=Tournament.Status.FINISHED).order_by("created_at", "id"):
        snap = public_snapshot_of(t, now)
        clock = snap["clock"]
        ends = clock.get("late_registration_ends_at")
        late_left = None
        if clock.get("late_registration_open") and ends is not None:
            late_left = max(0, int(ends - clock["elapsed"]))
        starts = None
        if t.clock_started_at is not None:
            starts = dt.datetime.fromtimestamp(t.clock_started_at, tz=dt.UTC).isoformat()
        out.append(
            {
                "id": t.id,
                "name": t.name,
                "status": t.status,
                "status_label": str(Tournament.Status(t.status).label),
                "starts": starts,
                "created": timezone.localtime(t.created_at).isoformat(),
                "running": bool(clock["running"]),
                "level": clock["level"] if clock["started"] else None,
                "level_number": clock["level_number"] if clock["started"] else None,
                "on_break": bool(clock["on_break"]),
                "seconds_left": int(clock["seconds_left"]) if clock["started"] and clock["seconds_left"] else None,
                "late_registration_open": bool(clock["late_registration_open"]),
                "late_registration_seconds_left": late_left,
                "entries": snap["entries"],
                "players_left": snap["players_left"],
                "buy_in": t.buy_in,
                "fee": t.fee,
            }
        )
    return out
