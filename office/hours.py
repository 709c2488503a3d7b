"""Hours from the hands (issue 28), read from the database: the hands a player was dealt in are those whose
``Hand.metadata['player_ids']`` holds his id (written at the deal); :mod:`poker.staff.hours` makes sessions
and hours of them."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from poker.staff.hours import HandRecord, Session, sessions
from tables.models import Hand


def live_hands(start: datetime | None = None, end: datetime | None = None):
    """The live floor's hands (not replayed or imported) started in ``[start, end)`` (either open)."""
    replays = Hand.objects.filter(metadata__source="phh").values("table_id")  # tables replaying PHH records
    hands = Hand.objects.filter(table__imported=False).exclude(table_id__in=replays)
    if start is not None:
        hands = hands.filter(started_at__gte=start)
    if end is not None:
        hands = hands.filter(started_at__lt=end)
    return hands


def player_ids_of(hand_metadata: dict) -> set[int]:
    """The player ids dealt in, from a hand's metadata (``{"player_ids": {"seat": id}}``)."""
    return {int(pid) for pid in (hand_metadata or {}).get("player_ids", {}).values() if pid}


def sessions_by_player(start: datetime | None = None, end: datetime | None = None) -> dict[int, list[Session]]:
    """Every player's sessions (table ids as the sessions' tables) from the hands started in ``[start, end)``."""
    records: dict[int, list[HandRecord]] = defaultdict(list)
    for table_id, started, ended, meta in live_hands(start, end).values_list(
        "table_id", "started_at", "ended_at", "metadata"
    ):
        for pid in player_ids_of(meta):
            records[pid].append(HandRecord(table_id, started, ended))
    return {pid: sessions(rows) for pid, rows in records.items()}


def player_sessions(player_id: int) -> list[Session]:
    """One player's sessions over all his hands (table ids as the sessions' tables)."""
    rows = (
        live_hands()
        .extra(  # a constant SQL fragment, the id a parameter
            where=[
                "EXISTS (SELECT 1 FROM jsonb_each(tables_hand.metadata->'player_ids') e"
                " WHERE e.value = to_jsonb(%s::int))"
            ],
            params=[player_id],
        )
        .values_list("table_id", "started_at", "ended_at")
    )
    return sessions(HandRecord(t, s, e) for t, s, e in rows)
