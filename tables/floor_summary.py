"""The floor dashboard's summary of a table: what a tile on the room map shows, not the whole snapshot.

At 1,000 tables the floor socket cannot send every table's full snapshot on connect (megabytes, and the
event loop starved while it is serialised) nor forward every table's full update to every dashboard.
The floor hears instead, per table, a *summary* in the snapshot's own shape (``static/js/hand.js``
``readSnapshot`` reads both) with only what a row of the room map shows: number and name, stakes, the
seated players (seat number and name: the one to act is named), the dealer, the hand's number, street,
pot and who is to act, a "time" clock, a correction flag, the last action and the table's section.
A dashboard asks for the full state only of the tables it draws in detail (``watch``: the tiles in
view, the tile opened from the map); those tables' updates reach it whole.

Shapes (docs/protocol.md): a summary is ``{"seq", "summary": true, "table": {...}, "seats":
[{"number", "player", "sitting_out"?}], "hand": null | {"number", "status", "state": {...}, "last_event":
{"kind", "payload"}}, "next_button_seat"?}``; fields that are 0, false, null or "open" are left out of
``table`` (``TABLE_FIELDS_SET``).
"""

from __future__ import annotations

import json
from typing import Any

#: The table fields a row shows (``tables.services.snapshots.table_snapshot``'s ``table``), always sent.
TABLE_FIELDS = ("id", "name", "small_blind", "big_blind", "max_seats")
#: Sent only when set (not 0, false, null or "open"): a room's 1,000 rows are mostly defaults.
TABLE_FIELDS_SET = ("status", "imported", "ante", "big_blind_ante", "straddle", "dealer", "button_seat")

#: The hand state's fields a row reads (street, phase, who is to act, the pot, "time", a stud street).
STATE_FIELDS = (
    "game",
    "phase",
    "street",
    "next_street",
    "to_act_seat",
    "button_seat",
    "clock",
    "community_due",
)


def summary_table(table: dict[str, Any]) -> dict[str, Any]:
    """The summary's ``table``: of a snapshot's ``table`` dict, the fields a row shows."""
    found = {key: table[key] for key in TABLE_FIELDS if key in table}
    found.update((key, table[key]) for key in TABLE_FIELDS_SET if table.get(key) not in (None, 0, False, "open"))
    return found


def summary_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The summary's ``seats``: of a snapshot's seat dicts, the seated players' numbers and names."""
    return [
        {"number": s["number"], "player": s["player"], **({"sitting_out": True} if s.get("sitting_out") else {})}
        for s in seats
        if s.get("player")
    ]


def tile_summary(
    snapshot: dict[str, Any],
    section: str | None = None,
    known: tuple[dict[str, Any], list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The floor's summary of ``snapshot`` (a ``table_snapshot`` dict, or a summary: returned as it is).

    ``section``: the table's section of the room (``Table.section``) when the caller knows it (a
    snapshot does not carry it; an update's summary leaves it out and the dashboard keeps the one
    it had).  ``known``: the summary's ``table`` and ``seats`` (:func:`summary_table`,
    :func:`summary_seats`) of the snapshot's table and seats, when the caller kept them
    (``tables.services.snapshots.SnapshotParts``); taken as they are.  Chips are ints; the pot is the
    hand state's ``total_pot`` or the sum of its pots."""
    if snapshot.get("summary"):
        return snapshot
    if known is not None and section is None:
        table_part, seats = known
    else:
        table_part = summary_table(snapshot.get("table") or {})
        if section is not None:
            table_part["section"] = section
        seats = summary_seats(snapshot.get("seats") or [])
    hand = snapshot.get("hand")
    hand_summary = None
    if hand is not None:
        state = hand.get("state") or {}
        short = {key: state[key] for key in STATE_FIELDS if state.get(key) is not None}
        pots = state.get("pots") or []
        short["total_pot"] = int(state.get("total_pot") or sum(int(p.get("amount") or 0) for p in pots))
        if state.get("undone"):
            short["undone"] = state["undone"]
        last = hand.get("last_event")
        hand_summary = {
            "number": hand.get("number"),
            "status": hand.get("status"),
            "state": short,
            "last_event": None if not last else {"kind": last.get("kind"), "payload": last.get("payload")},
        }
    summary = {
        "seq": snapshot.get("seq"),
        "summary": True,
        "table": table_part,
        "seats": seats,
        "hand": hand_summary,
    }
    if snapshot.get("next_button_seat") is not None:
        summary["next_button_seat"] = snapshot["next_button_seat"]
    return summary


def summary_text(text: str) -> str | None:
    """The floor's form of one channel message's text (serialised once by the write path for the
    table's group and the floor): an ``update`` comes back as the same ``update`` with its snapshot
    summarised (:func:`tile_summary`); any other message (a floor call, a ruling) as None: it goes
    out as it is."""
    if not text.startswith('{"type":"update"'):
        return None
    message = json.loads(text)
    if message.get("type") != "update" or not isinstance(message.get("snapshot"), dict):
        return None
    summary = tile_summary(message["snapshot"])
    return json.dumps(
        {"type": "update", "seq": message.get("seq"), "snapshot": summary}, separators=(",", ":"), default=str
    )
