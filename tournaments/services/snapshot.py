"""Snapshots of a tournament: the director's view (:func:`snapshot`) and
the lobby screen's (:func:`public_snapshot`), and an instruction as sent to
the tablets (:func:`instruction_message`).  The rows and the header are
public: :mod:`.delta` builds a change's message from them."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.db import connection

from poker import tournament as eng
from tables.models import Hand, Player, Seat, Table
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentTable
from tournaments.services.reading import (
    ENTRY_OPS,
    UNPAID,
    clock_of,
    entry_refusal,
    level_dict,
    payout_table_from,
    pool_amounts,
)
from tournaments.services.windows import window_open

__all__ = [
    "INSTRUCTIONS",
    "LIST_KEYS",
    "PUBLIC_KEYS",
    "draw_of",
    "entry_rows",
    "entry_stacks",
    "finish_order",
    "finish_rows",
    "header_counts",
    "header_of",
    "instruction_message",
    "open_windows",
    "public_snapshot",
    "public_snapshot_of",
    "registration_rows",
    "snapshot",
    "table_rows",
]


def instruction_message(i: Instruction) -> dict:
    """An instruction as the tablets and the director get it: ``{"type":
    "instruction", "id", "kind", "text_en", "text_de", "player", "from",
    "to" (``{"table", "seat"}`` or None), "status", "rule", "cancelled",
    "at"}`` (docs/protocol.md)."""
    return {
        "type": "instruction",
        "id": i.id,
        "kind": i.kind,
        "text_en": i.text_en,
        "text_de": i.text_de,
        "player": i.entry.player.name if i.entry is not None else None,
        "from": {"table": i.from_table, "seat": i.from_seat} if i.from_table else None,
        "to": {"table": i.to_table, "seat": i.to_seat} if i.to_table else None,
        "status": i.status,
        "rule": i.rule,
        "cancelled": i.status == "cancelled",
        "at": i.at.isoformat() if i.at else None,
    }


LIST_KEYS = ("tables", "seat_draw", "registrations", "finishes", "instructions")
"""The director snapshot's lists; every other key is the header a ``delta`` carries whole."""


def table_rows(t: Tournament, *, table_ids: list[int] | None = None, players: set[int] | None = None) -> list[dict]:
    """The director's rows of ``t``'s tables, by number: seats with player,
    stack, absent, rebuy_pending, entry id and waits -- a busted player (no
    chips, no seated entry) is left out, whether or not his seat was cleared
    yet (that happens between hands, without an event).

    Every table of ``t``, or (a delta) only those whose ``tables.Table`` id
    is in ``table_ids`` or where one of ``players`` (player ids) sits.  One
    SQL statement: the tables with their live flag (a live hand at the
    table), each occupied seat with its player's seated entry (one at most)
    -- this runs in every bust's delta (bench/tournament.py --floor).
    """
    params: list[Any] = [Hand.Status.LIVE.value, t.id, Entry.Status.SEATED.value, t.id]
    where = ""
    if table_ids is not None or players is not None:
        where = (
            f" AND (tt.table_id = ANY(%s) OR EXISTS (SELECT 1 FROM {Seat._meta.db_table} s2 "
            f"WHERE s2.table_id = tt.table_id AND s2.player_id = ANY(%s)))"
        )
        params += [list(table_ids or ()), list(players or ())]
    sql = (
        f"SELECT tt.number, tt.table_id, tb.name, tt.broken, tb.max_seats, tt.h4h_hands, "
        f"EXISTS (SELECT 1 FROM {Hand._meta.db_table} h WHERE h.id = tb.current_hand_id AND h.status = %s), "
        f"st.number, p.name, st.stack, st.absent, e.id, e.rebuy_pending, e.wait_hands "
        f"FROM {TournamentTable._meta.db_table} tt JOIN {Table._meta.db_table} tb ON tb.id = tt.table_id "
        f"LEFT JOIN {Seat._meta.db_table} st ON st.table_id = tt.table_id AND st.player_id IS NOT NULL "
        f"LEFT JOIN {Player._meta.db_table} p ON p.id = st.player_id "
        f"LEFT JOIN {Entry._meta.db_table} e ON e.player_id = st.player_id AND e.tournament_id = %s "
        f"AND e.status = %s "
        f"WHERE tt.tournament_id = %s{where} ORDER BY tt.number, st.number"
    )
    tables: list[dict] = []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for (
            number,
            table_id,
            name,
            broken,
            max_seats,
            h4h_hands,
            live,
            seat,
            player,
            stack,
            absent,
            *entry,
        ) in cursor.fetchall():
            if not tables or tables[-1]["number"] != number:
                tables.append(
                    {
                        "number": number,
                        "table_id": table_id,
                        "name": name,
                        "broken": broken,
                        "seats": [],
                        "players": 0,
                        "max_seats": max_seats,
                        "live": live,
                        "h4h_hands": h4h_hands,
                    }
                )
            entry_id, rebuy_pending, wait_hands = entry
            if seat is None or (entry_id is None and stack == 0):
                continue  # no one seated; or busted: off the felt at once, though his seat is cleared between hands
            row = tables[-1]
            row["seats"].append(
                {
                    "seat": seat,
                    "player": player,
                    "stack": stack,
                    "absent": absent,
                    "rebuy_pending": bool(entry_id is not None and rebuy_pending),
                    "entry": entry_id,
                    "waits": bool(entry_id is not None and wait_hands),
                }
            )
            row["players"] += 1
    return tables


def draw_of(tables: list[dict]) -> list[dict]:
    """The seat draw of ``tables`` (player, table, seat), by name."""
    draw = [{"player": s["player"], "table": tb["number"], "seat": s["seat"]} for tb in tables for s in tb["seats"]]
    draw.sort(key=lambda d: d["player"].lower())
    return draw


def finish_rows(t: Tournament, ids: Iterable[int] | None = None) -> list[dict]:
    """The finishes of ``t`` (all, or those of ``ids``) as the director's
    snapshot lists them -- ``{"id", "player", "place", "place_worst",
    "prize", "rule"}`` -- by place (the unplaced last), then id: one SQL
    statement (a bust's delta reads its finish so)."""
    params: list[Any] = [t.id]
    where = ""
    if ids is not None:
        where = " AND f.id = ANY(%s)"
        params.append(list(ids))
    sql = (
        f"SELECT f.id, p.name, f.place, f.place_worst, f.prize, f.rule FROM {Finish._meta.db_table} f "
        f"JOIN {Entry._meta.db_table} e ON e.id = f.entry_id JOIN {Player._meta.db_table} p ON p.id = e.player_id "
        f"WHERE f.tournament_id = %s{where} ORDER BY f.place NULLS LAST, f.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [
            {"id": i, "player": name, "place": place, "place_worst": worst, "prize": prize, "rule": rule}
            for i, name, place, worst, prize, rule in cursor.fetchall()
        ]


def finish_order(f: dict) -> tuple:
    """Finishes by place (the unplaced last, as PostgreSQL orders NULL), then id."""
    return (f["place"] is None, f["place"] or 0, f["id"])


def entry_stacks(tables: list[dict]) -> dict[int, int]:
    """``{entry id: stack}`` of the seated entries on ``tables`` (a rebuy only on a short stack, 004 #27)."""
    return {s["entry"]: s["stack"] for tb in tables for s in tb["seats"] if s["entry"]}


def registration_rows(
    t: Tournament,
    entries: list[Entry],
    by_player: dict[int, list[Entry]],
    windows_open: dict[str, bool],
    stacks: dict[int, int] | None = None,
) -> list[dict]:
    """The director's rows of ``entries`` (``by_player``: every entry of
    their players; ``stacks``: ``{entry id: stack}``, :func:`entry_stacks`),
    each with ``can`` (the entry operations allowed now)."""
    stacks = stacks or {}
    return [
        {
            "id": e.id,
            "player": e.player.name,
            "number": e.number,
            "status": e.status,
            "rebuy_pending": e.rebuy_pending,
            "priority": e.priority,
            "late": e.late,
            "rebuys": e.rebuys,
            "add_ons": e.add_ons,
            "can": _can(t, e, by_player[e.player_id], windows_open, stacks.get(e.id)),
        }
        for e in entries
    ]


def _deal_rows(t: Tournament) -> list[dict]:
    """The recorded deal's players, biggest amount first: ``[{"player",
    "amount", "place"}]`` (``place`` once he has finished, else None); empty
    without a deal.  The amounts are the prizes those players are paid
    (``tournaments.services.places``), whatever their place."""
    players = (t.deal or {}).get("players", [])
    if not players:
        return []
    entries = [p["entry"] for p in players]
    placed = dict(Finish.objects.filter(tournament=t, entry_id__in=entries).values_list("entry_id", "place"))
    rows = [{"player": p["name"], "amount": p["amount"], "place": placed.get(p["entry"])} for p in players]
    rows.sort(key=lambda r: (-r["amount"], r["player"].lower()))
    return rows


def _podium(t: Tournament) -> list[dict]:
    """A finished tournament's final table as the TV shows it: ``[{"place", "player", "prize"}]`` by place,
    the winner first, places up to the rulebook's final-table size (001: 10, 004 #78: 9); empty while it
    runs (one query, only once it is over)."""
    if t.status != Tournament.Status.FINISHED:
        return []
    size = eng.rules_for(t.rulebook).final_table_seats
    rows = (
        Finish.objects.filter(tournament=t, place__isnull=False, place__lte=size)
        .order_by("place", "id")
        .values_list("place", "entry__player__name", "prize")
    )
    return [{"place": place, "player": name, "prize": prize} for place, name, prize in rows]


def header_of(t: Tournament, now: float, counts: dict[str, int], chip_leaders: list[dict]) -> dict[str, Any]:
    """Every key of the director snapshot but its lists (:data:`LIST_KEYS`).

    ``counts`` -- ``players_left`` (seated or registered entries), ``paid``
    (entries that paid a buy-in), ``extra_buy_ins`` (their rebuys and
    add-ons), ``rebuys`` (the rebuys among them), ``seats`` and ``chips`` (the seats of the tournament's tables
    shown occupied, see :func:`table_rows`, and the chips on them)."""
    clock = clock_of(t)
    st = clock.state(now)
    s = clock.structure
    periods, start = [], 0
    for p in s.periods:
        if isinstance(p, eng.Level):
            periods.append({"kind": "level", "start": start, **level_dict(p)})
        else:
            periods.append(
                {"kind": "break", "start": start, "seconds": p.duration_seconds, "color_up": list(p.color_up)}
            )
        start += p.duration_seconds
    add_ons = counts["extra_buy_ins"] - counts["rebuys"]
    payouts = payout_table_from(t, counts["paid"], counts["rebuys"], add_ons)
    _pool, _collected, overlay = pool_amounts(t, counts["paid"], counts["rebuys"], add_ons)
    players_left = counts["players_left"]
    return {
        "seq": t.seq,
        "id": t.id,
        "name": t.name,
        "rulebook": t.rulebook,
        "status": t.status,
        "public_token": t.public_token,
        "server_now": now,
        "clock": {
            "started": clock.started_at is not None,
            "running": clock.running,
            "elapsed": st.elapsed,
            "hand_for_hand": clock.hand_for_hand,
            "hands_played": clock.hands_played,
            "periods": periods,
            "period_index": st.period_index,
            "level_number": st.level_number,
            "level": level_dict(st.level),
            "on_break": st.on_break,
            "seconds_left": st.seconds_left,
            "next_level": level_dict(st.next_level),
            "next_level_number": st.next_level_number,
            "seconds_to_next_level": st.seconds_to_next_level,
            "finished": st.finished,
            "late_registration_open": st.late_registration_open,
            "late_registration_ends_at": _late_registration_ends_at(s),
            "color_up": list(st.color_up),
            "next_break_in": _next_break_in(s, st),
        },
        "players_left": players_left,
        "entries": counts["paid"],
        "average_stack": (counts["chips"] // counts["seats"])
        if counts["seats"]
        else (t.starting_stack if players_left else 0),
        "prize_pool": payouts.prize_pool if payouts else 0,
        "payouts": list(payouts.amounts) if payouts else [],
        "places_paid": payouts.places_paid if payouts else 0,
        "bubble": payouts.bubble if payouts else None,
        "deal": _deal_rows(t),
        "podium": _podium(t),
        "chip_leaders": chip_leaders,
        "rebuys": counts["rebuys"],
        "add_ons": add_ons,
        "guarantee": t.guarantee,
        "overlay": overlay if payouts else 0,
        "rebuys_allowed": t.rebuys_allowed,
        "add_ons_allowed": t.add_ons_allowed,
        "starting_stack": t.starting_stack,
        "buy_in": t.buy_in,
    }


def snapshot(t: Tournament, now: float | None = None) -> dict[str, Any]:
    """The director's view of a tournament (JSON-ready; chips and money ints).

    Keys: ``seq``, ``id``, ``name``, ``rulebook``, ``status``, ``server_now``,
    ``clock`` (stored timestamps, ``periods`` with start seconds, ``state``
    at ``server_now``), ``players_left``, ``entries`` (count), ``average_stack``,
    ``prize_pool``, ``payouts`` (by place), ``places_paid``, ``bubble``, ``deal`` (:func:`_deal_rows`),
    ``tables`` (number, table_id, seats with player/stack/absent, broken,
    live), ``seat_draw`` (player -> table, seat), ``chip_leaders`` (the ten
    biggest stacks, player and stack, only while the director shows them on
    the TV), ``registrations`` (with
    ``can``: which of ``re_enter``, ``surrender``, ``rebuy``, ``add_on`` the
    services would accept now, see :func:`entry_refusal`; ``rebuy_pending``:
    busted in a rebuy tournament, may rebuy before his next hand, 004 #27 --
    seats carry the same flag), ``finishes`` (with their ``id``),
    ``instructions`` (newest 40), ``public_token``.

    Sent on connect and on request; a change sends a :func:`delta` (or, for
    the few events it does not cover, this whole snapshot as an ``update``).
    Four SQL queries whatever the number of tables (tables with their live
    flag and seats, entries, finishes, instructions).
    """
    now = time.time() if now is None else now
    entries = entry_rows(t)
    tables = table_rows(t)
    stacks = [s["stack"] for tb in tables for s in tb["seats"]]
    paid = [e for e in entries if e.status not in UNPAID]
    counts = {
        "players_left": sum(1 for e in entries if e.status in (Entry.Status.SEATED, Entry.Status.REGISTERED)),
        "paid": len(paid),
        "extra_buy_ins": sum(e.rebuys + e.add_ons for e in paid),
        "rebuys": sum(e.rebuys for e in paid),
        "seats": len(stacks),
        "chips": sum(stacks),
    }
    by_player: dict[int, list[Entry]] = {}
    for e in entries:
        by_player.setdefault(e.player_id, []).append(e)
    windows_open = open_windows(t, now)
    data = header_of(t, now, counts, _chip_leaders(tables) if t.show_chip_leaders else [])
    data["tables"] = tables
    data["seat_draw"] = draw_of(tables)
    data["registrations"] = registration_rows(t, entries, by_player, windows_open, entry_stacks(tables))
    data["finishes"] = finish_rows(t)
    data["instructions"] = [
        instruction_message(i)
        for i in Instruction.objects.filter(tournament=t).select_related("entry__player").order_by("-id")[:INSTRUCTIONS]
    ]
    return data


INSTRUCTIONS = 40
"""How many instructions (the newest) the director's snapshot carries."""


class _Named:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class _EntryRow:
    """The fields of an :class:`Entry` the snapshot reads (``player.name`` too), read as
    plain values: 2,000 entries are read in a third of the time model instances take."""

    FIELDS = ("id", "player_id", "number", "status", "rebuy_pending", "priority", "late", "rebuys", "add_ons")
    __slots__ = (*FIELDS, "wait_hands", "player")

    def __init__(self, row: tuple) -> None:
        for name, value in zip((*self.FIELDS, "wait_hands"), row, strict=False):
            setattr(self, name, value)
        self.player = _Named(row[-1])


def entry_rows(t: Tournament, **filters: Any) -> list[Any]:
    """The entries of ``t`` (every one, or those of the ``Entry`` field lookups
    ``filters``) by id, as :class:`_EntryRow` (duck-typed as ``Entry`` for
    :func:`entry_refusal`, :func:`registration_rows` and the payout table)."""
    return [
        _EntryRow(row)
        for row in Entry.objects.filter(tournament=t, **filters)
        .order_by("id")
        .values_list(*_EntryRow.FIELDS, "wait_hands", "player__name")
    ]


def header_counts(t: Tournament) -> dict[str, int]:
    """The header's counts (see :func:`header_of`) read in one SQL statement
    (two aggregates: the entries by status, the seats shown occupied)."""
    entry, seat, tt = Entry._meta.db_table, Seat._meta.db_table, TournamentTable._meta.db_table
    sql = (
        f"SELECT e.players_left, e.paid, e.extra, e.rebuys, s.seats, s.chips FROM "
        f"(SELECT count(*) FILTER (WHERE status = ANY(%s)) AS players_left, "
        f"count(*) FILTER (WHERE NOT status = ANY(%s)) AS paid, "
        f"coalesce(sum(rebuys + add_ons) FILTER (WHERE NOT status = ANY(%s)), 0)::bigint AS extra, "
        f"coalesce(sum(rebuys) FILTER (WHERE NOT status = ANY(%s)), 0)::bigint AS rebuys "
        f"FROM {entry} WHERE tournament_id = %s) e, "
        f"(SELECT count(*) AS seats, coalesce(sum(st.stack), 0)::bigint AS chips FROM {seat} st "
        f"WHERE st.table_id = ANY(ARRAY(SELECT table_id FROM {tt} WHERE tournament_id = %s)) "
        f"AND st.player_id IS NOT NULL "
        f"AND (st.stack > 0 OR EXISTS (SELECT 1 FROM {entry} x WHERE x.tournament_id = %s "
        f"AND x.status = %s AND x.player_id = st.player_id))) s"
    )
    live = [Entry.Status.SEATED.value, Entry.Status.REGISTERED.value]
    unpaid = [str(status) for status in UNPAID]
    with connection.cursor() as cursor:
        cursor.execute(sql, [live, unpaid, unpaid, unpaid, t.id, t.id, t.id, Entry.Status.SEATED.value])
        players_left, paid, extra, rebuys, seats, chips = cursor.fetchone()
    return {
        "players_left": players_left,
        "paid": paid,
        "extra_buy_ins": extra,
        "rebuys": rebuys,
        "seats": seats,
        "chips": chips,
    }


_OPS_BY_STATUS: dict[str, tuple[str, ...]] = {
    Entry.Status.BUSTED: ("re_enter",),
    Entry.Status.SEATED: ("surrender", "rebuy", "add_on"),
}
"""The only entry operations :func:`entry_refusal` can allow for an entry of that status."""


def open_windows(t: Tournament, now: float) -> dict[str, bool]:
    """``{op: open}`` for :data:`ENTRY_OPS` at ``now``: each operation's own
    window of the structure (re-entry 004 #72, rebuy 004 #27, add-on; 001
    Re-buy/Add-on), or late registration where the structure names none
    (:func:`tournaments.services.windows.window_open`)."""
    return {op: window_open(t, op, now) for op in ENTRY_OPS}


def _can(
    t: Tournament, e: Entry, player_entries: list[Entry], windows_open: dict[str, bool], stack: int | None = None
) -> dict[str, bool]:
    """``{op: allowed}`` for :data:`ENTRY_OPS`, the same answers as the
    services' refusal (:func:`entry_refusal`, then the operation's window)
    without building (and translating) a refusal for each entry and
    operation: only while the tournament runs, within each operation's
    window, and only the operations of the entry's status; ``double_rebuy`` too in an event that
    allows double rebuys (``Tournament.double_rebuy``)."""
    can = dict.fromkeys(ENTRY_OPS, False)
    if t.status == Tournament.Status.RUNNING:
        for op in _OPS_BY_STATUS.get(e.status, ()):
            if windows_open[op]:
                can[op] = entry_refusal(t, op, e, player_entries, True, stack=stack) is None
    if t.double_rebuy:  # a double rebuy: two at once where the event allows it and two are left
        can["double_rebuy"] = can["rebuy"] and t.rebuys_allowed - e.rebuys >= 2
    return can


def _chip_leaders(tables: list[dict], n: int = 10) -> list[dict]:
    """The ``n`` biggest stacks (player and stack) for the TV, when the director shows them."""
    seats = [s for tb in tables if not tb["broken"] for s in tb["seats"] if s["stack"] > 0]
    seats.sort(key=lambda s: (-s["stack"], s["player"].lower()))
    return [{"player": s["player"], "stack": s["stack"]} for s in seats[:n]]


def _late_registration_ends_at(s: eng.Structure) -> int | None:
    """The clock's elapsed seconds at which late registration closes (the end of
    the structure's ``late_registration_until`` period), or ``None`` without one;
    the TV counts down to it while ``late_registration_open``."""
    if s.late_registration_until is None:
        return None
    return s.starts[s.late_registration_until] + s.periods[s.late_registration_until].duration_seconds


def _next_break_in(s: eng.Structure, st: eng.ClockState) -> float | None:
    for i in range(st.period_index + 1, len(s.periods)):
        if isinstance(s.periods[i], eng.Break):
            return s.starts[i] - st.elapsed
    return None


PUBLIC_KEYS = (
    "seq",
    "id",
    "name",
    "rulebook",
    "status",
    "server_now",
    "clock",
    "players_left",
    "entries",
    "average_stack",
    "prize_pool",
    "payouts",
    "places_paid",
    "bubble",
    "deal",
    "podium",
    "rebuys",
    "add_ons",
    "rebuys_allowed",
    "add_ons_allowed",
    "seat_draw",
    "chip_leaders",
)
"""What the lobby screen shows, besides ``tables``: no registrations, stacks (the chip leaders only while
the director shows them), away flags, instructions or finishes."""


def public_snapshot(full: dict) -> dict:
    """What the lobby screen may show (no registrations, stacks or instructions):
    the keys of ``PUBLIC_KEYS`` plus ``tables`` as number and player count."""
    data = {k: full[k] for k in PUBLIC_KEYS}
    data["tables"] = [{"number": tb["number"], "players": tb["players"]} for tb in full["tables"] if not tb["broken"]]
    return data


def public_snapshot_of(t: Tournament, now: float | None = None) -> dict:
    """``public_snapshot(snapshot(t))`` without reading what the TV does not
    show (registrations, finishes, instructions): for a TV that connects."""
    now = time.time() if now is None else now
    tables = table_rows(t)
    full = header_of(t, now, header_counts(t), _chip_leaders(tables) if t.show_chip_leaders else [])
    full["tables"] = tables
    full["seat_draw"] = draw_of(tables)
    return public_snapshot(full)
