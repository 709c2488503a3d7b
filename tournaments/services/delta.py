"""A tournament's change as the screens get it: the director's ``delta``
(:func:`delta`; :func:`apply_delta` turns the snapshot at ``seq - 1`` into
the one at ``seq``) and the lobby screen's part of it (:func:`public_delta`).
The rows are those of :mod:`.snapshot`.  What changed is said by the
services themselves (:func:`changed`), collected per write step
(:func:`collecting`, :func:`take_changes`); no model signal is listened to."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from tables.models import Seat
from tournaments.models import Entry, Instruction, Tournament
from tournaments.services.snapshot import (
    INSTRUCTIONS,
    PUBLIC_KEYS,
    draw_of,
    entry_rows,
    entry_stacks,
    finish_order,
    finish_rows,
    header_counts,
    header_of,
    instruction_message,
    open_windows,
    registration_rows,
    table_rows,
)

__all__ = ["Changes", "apply_delta", "changed", "collecting", "delta", "public_delta", "take_changes"]


@dataclass
class Changes:
    """What a write may have changed in a tournament since its last event
    (ids; a superset does no harm: an unchanged row is sent as it is)."""

    tables: set[int] = field(default_factory=set)  # tables.Table ids
    entries: set[int] = field(default_factory=set)
    instructions: set[int] = field(default_factory=set)
    finishes: set[int] = field(default_factory=set)
    finishes_removed: set[int] = field(default_factory=set)
    whole: bool = False  # a change no row list says: the next event sends the whole snapshot


_PENDING: ContextVar[Changes | None] = ContextVar("tournament_changes", default=None)


@contextmanager
def collecting() -> Iterator[None]:
    """Within the block (one tournament write step, :func:`.writes.tournament_step`),
    :func:`changed` collects the rows the step's services change for the
    step's events (:func:`take_changes`).  Steps nest: each collects its own."""
    token = _PENDING.set(Changes())
    try:
        yield
    finally:
        _PENDING.reset(token)


def changed(
    *,
    tables: Iterable[int] = (),
    entries: Iterable[int] = (),
    instructions: Iterable[int] = (),
    finishes: Iterable[int] = (),
    finishes_removed: Iterable[int] = (),
    whole: bool = False,
) -> None:
    """Name rows the running tournament step changed, for its next event's
    :func:`delta`: ``tables`` (``tables.Table`` ids of the tournament's
    tables: seats, broken, hand-for-hand counts), ``entries``,
    ``instructions``, ``finishes`` (ids), ``finishes_removed`` (deleted
    finish ids); ``whole``: the change reaches what no list names (every
    registration's allowed operations, the players' names), so the next
    event sends the whole snapshot.  Every service that writes those rows
    calls this itself (as zulip's ``do_*`` functions send their events):
    a ``QuerySet.update`` is seen as well as a ``save``.  Outside a step
    (nothing will be sent) it does nothing."""
    pending = _PENDING.get()
    if pending is None:
        return
    pending.tables.update(tables)
    pending.entries.update(entries)
    pending.instructions.update(instructions)
    pending.finishes.update(finishes)
    removed = set(finishes_removed)
    pending.finishes -= removed
    pending.finishes_removed |= removed
    pending.whole = pending.whole or whole


def take_changes() -> Changes | None:
    """What the running step changed since its previous event (and start
    collecting anew for the next); ``None`` outside a step."""
    pending = _PENDING.get()
    if pending is None:
        return None
    _PENDING.set(Changes())
    return pending


def _chip_leaders_now(t: Tournament, n: int = 10) -> list[dict]:
    """:func:`_chip_leaders` read from the seats (every seat as big as the
    ``n``-th biggest stack, then ordered as there)."""
    seats = Seat.objects.filter(
        table__tournament_table__tournament=t, table__tournament_table__broken=False, player__isnull=False, stack__gt=0
    )
    nth = list(seats.order_by("-stack").values_list("stack", flat=True)[:n])
    if not nth:
        return []
    rows: list[dict[str, Any]] = [
        {"player": name, "stack": stack}
        for name, stack in seats.filter(stack__gte=nth[-1]).values_list("player__name", "stack")
    ]
    rows.sort(key=lambda s: (-s["stack"], s["player"].lower()))
    return rows[:n]


def delta(t: Tournament, changes: Changes, kind: str = "", now: float | None = None) -> dict[str, Any]:
    """The director's ``delta`` at ``t.seq``: what ``changes`` touched, as in
    :func:`snapshot` -- ``header`` (every key but the lists), ``tables``
    (the whole row of each table changed, or whose players' entries
    changed), ``registrations`` (the entries changed and the other entries
    of their players, whose allowed operations follow from them),
    ``instructions`` and ``finishes`` changed, ``finishes_removed`` (ids)
    -- and the event's ``kind``.  :func:`apply_delta` turns the snapshot at
    ``seq - 1`` into the one at ``seq``.  A handful of queries, each
    bounded by the rows changed (the counts: one statement of two aggregates)."""
    now = time.time() if now is None else now
    entries: list[Any] = []  # plain rows (snapshot.entry_rows), duck-typed as Entry
    if changes.entries:
        changed = Entry.objects.filter(tournament=t, id__in=changes.entries).order_by().values("player_id")
        entries = entry_rows(t, player_id__in=changed)
    players = {e.player_id for e in entries}  # the tables they sit at show their entry's flags
    tables = table_rows(t, table_ids=list(changes.tables), players=players) if changes.tables or players else []
    stacks = entry_stacks(tables)
    if t.rebuys_allowed and stacks:  # a stack that changed may open or close a rebuy (004 #27)
        known = {e.id for e in entries}
        entries += entry_rows(t, id__in=[i for i in stacks if i not in known])
        entries.sort(key=lambda e: e.id)
    by_player: dict[int, list[Any]] = {}
    for e in entries:
        by_player.setdefault(e.player_id, []).append(e)
    windows_open = open_windows(t, now)
    finishes = finish_rows(t, changes.finishes) if changes.finishes else []
    instructions = (
        [
            instruction_message(i)
            for i in Instruction.objects.filter(tournament=t, id__in=changes.instructions)
            .select_related("entry__player")
            .order_by("-id")
        ]
        if changes.instructions
        else []
    )
    return {
        "type": "delta",
        "seq": t.seq,
        "kind": kind,
        "header": header_of(t, now, header_counts(t), _chip_leaders_now(t) if t.show_chip_leaders else []),
        "tables": tables,
        "registrations": registration_rows(t, entries, by_player, windows_open, stacks),
        "instructions": instructions,
        "finishes": sorted(finishes, key=finish_order),
        "finishes_removed": sorted(changes.finishes_removed - {f["id"] for f in finishes}),
    }


def apply_delta(snap: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    """The snapshot ``snap`` (director's or public) with delta ``d`` (of the
    same kind, at ``snap["seq"] + 1``) applied, as the pages do
    (static/js/tournament_clock.js: ``applyDelta``).  A new dict; ``snap``
    is left as it is."""
    out = {**snap, **d["header"], "seq": d["seq"]}
    changed = {tb["number"]: tb for tb in d.get("tables", [])}
    if "registrations" in snap:  # the director's
        tables = [changed.pop(tb["number"], tb) for tb in snap["tables"]]
        out["tables"] = sorted(tables + list(changed.values()), key=lambda tb: tb["number"])
        numbers = {tb["number"] for tb in d.get("tables", [])}
        draw = [row for row in snap["seat_draw"] if row["table"] not in numbers]
        draw += draw_of(d.get("tables", []))
        draw.sort(key=lambda row: row["player"].lower())
        out["seat_draw"] = draw
        regs = {e["id"]: e for e in snap["registrations"]}
        regs.update({e["id"]: e for e in d.get("registrations", [])})
        out["registrations"] = [regs[k] for k in sorted(regs)]
        instructions = {i["id"]: i for i in snap["instructions"]}
        instructions.update({i["id"]: i for i in d.get("instructions", [])})
        out["instructions"] = [instructions[k] for k in sorted(instructions, reverse=True)][:INSTRUCTIONS]
        removed = set(d.get("finishes_removed", ()))
        finishes = {f["id"]: f for f in snap["finishes"] if f["id"] not in removed}
        finishes.update({f["id"]: f for f in d.get("finishes", [])})
        out["finishes"] = sorted(finishes.values(), key=finish_order)
    else:  # the public one: tables as number and players, the draw by table
        tables = [changed.pop(tb["number"], tb) for tb in snap["tables"]]
        tables = [tb for tb in tables + list(changed.values()) if not tb.get("broken")]
        out["tables"] = sorted(
            ({"number": tb["number"], "players": tb["players"]} for tb in tables), key=lambda tb: tb["number"]
        )
        numbers = {tb["number"] for tb in d.get("tables", [])}
        draw = [row for row in snap["seat_draw"] if row["table"] not in numbers]
        draw += [
            {"player": s["player"], "table": tb["number"], "seat": s["seat"]}
            for tb in d.get("tables", [])
            for s in tb["draw"]
        ]
        draw.sort(key=lambda row: row["player"].lower())
        out["seat_draw"] = draw
    return out


def public_delta(d: dict) -> dict:
    """The lobby screen's part of the director's delta ``d``: the public
    header, and each changed table as ``number``, ``players``, ``broken``
    and its seat ``draw`` (player and seat) -- no stacks, away flags,
    registrations, instructions or finishes."""
    return {
        "type": "delta",
        "seq": d["seq"],
        "header": {k: d["header"][k] for k in PUBLIC_KEYS if k not in ("seat_draw",)},
        "tables": [
            {
                "number": tb["number"],
                "players": tb["players"],
                "broken": tb["broken"],
                "draw": [{"player": s["player"], "seat": s["seat"]} for s in tb["seats"]],
            }
            for tb in d["tables"]
        ],
    }
