"""Snapshots of a tournament: the director's view (:func:`snapshot`) and
the lobby screen's (:func:`public_snapshot`), and an instruction as sent to
the tablets (:func:`instruction_message`)."""

from __future__ import annotations

import time
from typing import Any

from django.db.models import Exists, OuterRef

from poker import tournament as eng
from tables.models import Hand, Seat
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentTable
from tournaments.services.reading import ENTRY_OPS, _level_dict, clock_of, entry_refusal, payout_table_of


def _instruction_message(i: Instruction) -> dict:
    return {
        "type": "instruction",
        "id": i.id,
        "kind": i.kind,
        "text_en": i.text_en,
        "text_de": i.text_de,
        "player": i.entry.player.name if i.entry_id else None,
        "from": {"table": i.from_table, "seat": i.from_seat} if i.from_table else None,
        "to": {"table": i.to_table, "seat": i.to_seat} if i.to_table else None,
        "status": i.status,
        "rule": i.rule,
        "cancelled": i.status == "cancelled",
        "at": i.at.isoformat() if i.at else None,
    }


def snapshot(t: Tournament, now: float | None = None) -> dict[str, Any]:
    """The director's view of a tournament (JSON-ready; chips and money ints).

    Keys: ``seq``, ``id``, ``name``, ``rulebook``, ``status``, ``server_now``,
    ``clock`` (stored timestamps, ``periods`` with start seconds, ``state``
    at ``server_now``), ``players_left``, ``entries`` (count), ``average_stack``,
    ``prize_pool``, ``payouts`` (by place), ``places_paid``, ``bubble``,
    ``tables`` (number, table_id, seats with player/stack/absent, broken,
    live), ``seat_draw`` (player -> table, seat), ``chip_leaders`` (the ten
    biggest stacks, player and stack, only while the director shows them on
    the TV), ``registrations`` (with
    ``can``: which of ``re_enter``, ``surrender``, ``rebuy``, ``add_on`` the
    services would accept now, see :func:`entry_refusal`; ``rebuy_pending``:
    busted in a rebuy tournament, may rebuy before his next hand, 004 #27 --
    seats carry the same flag), ``finishes``,
    ``instructions`` (newest 40), ``public_token``.

    Five SQL queries whatever the number of tables (tables with their live
    flag, seats, entries, finishes, instructions).
    """
    now = time.time() if now is None else now
    clock = clock_of(t)
    st = clock.state(now)
    s = clock.structure
    tts = list(
        TournamentTable.objects.filter(tournament=t)
        .select_related("table")
        .annotate(live=Exists(Hand.objects.filter(pk=OuterRef("table__current_hand_id"), status=Hand.Status.LIVE)))
        .order_by("number")
    )
    by_table: dict[int, list] = {}
    for row in (
        Seat.objects.filter(table_id__in=[tt.table_id for tt in tts], player__isnull=False)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "player_id", "player__name", "stack", "absent")
    ):
        by_table.setdefault(row[0], []).append(row)
    entries = list(Entry.objects.filter(tournament=t).select_related("player").order_by("id"))
    seated_players = {e.player_id: e for e in entries if e.status == Entry.Status.SEATED}
    tables, draw, stacks = [], [], []
    for tt in tts:
        rows = []
        for _table_id, number, player_id, name, stack, absent in by_table.get(tt.table_id, []):
            entry = seated_players.get(player_id)
            rows.append(
                {
                    "seat": number,
                    "player": name,
                    "stack": stack,
                    "absent": absent,
                    "rebuy_pending": bool(entry and entry.rebuy_pending),
                    "entry": entry.id if entry else None,
                    "waits": bool(entry and entry.wait_hands),
                }
            )
            draw.append({"player": name, "table": tt.number, "seat": number})
            stacks.append(stack)
        tables.append(
            {
                "number": tt.number,
                "table_id": tt.table_id,
                "name": tt.table.name,
                "broken": tt.broken,
                "seats": rows,
                "players": len(rows),
                "max_seats": tt.table.max_seats,
                "live": tt.live,
                "h4h_hands": tt.h4h_hands,
            }
        )
    draw.sort(key=lambda d: d["player"].lower())
    payouts = payout_table_of(t, entries)
    finishes = [
        {
            "player": f.entry.player.name,
            "place": f.place,
            "place_worst": f.place_worst,
            "prize": f.prize,
            "rule": f.rule,
        }
        for f in Finish.objects.filter(tournament=t).select_related("entry__player").order_by("place", "id")
    ]
    in_play = [e for e in entries if e.status in (Entry.Status.SEATED, Entry.Status.REGISTERED)]
    players_left = len(in_play)
    by_player: dict[int, list[Entry]] = {}
    for e in entries:
        by_player.setdefault(e.player_id, []).append(e)
    late_open = st.late_registration_open
    periods, start = [], 0
    for p in s.periods:
        if isinstance(p, eng.Level):
            periods.append({"kind": "level", "start": start, **_level_dict(p)})
        else:
            periods.append(
                {"kind": "break", "start": start, "seconds": p.duration_seconds, "color_up": list(p.color_up)}
            )
        start += p.duration_seconds
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
            "level": _level_dict(st.level),
            "on_break": st.on_break,
            "seconds_left": st.seconds_left,
            "next_level": _level_dict(st.next_level),
            "next_level_number": st.next_level_number,
            "seconds_to_next_level": st.seconds_to_next_level,
            "finished": st.finished,
            "late_registration_open": st.late_registration_open,
            "color_up": list(st.color_up),
            "next_break_in": _next_break_in(s, st),
        },
        "players_left": players_left,
        "entries": sum(
            1 for e in entries if e.status not in (Entry.Status.RESERVED, Entry.Status.WAITLISTED, Entry.Status.EXPIRED)
        ),
        "average_stack": (sum(stacks) // len(stacks)) if stacks else (t.starting_stack if players_left else 0),
        "prize_pool": payouts.prize_pool if payouts else 0,
        "payouts": list(payouts.amounts) if payouts else [],
        "places_paid": payouts.places_paid if payouts else 0,
        "bubble": payouts.bubble if payouts else None,
        "tables": tables,
        "seat_draw": draw,
        "chip_leaders": _chip_leaders(tables) if t.show_chip_leaders else [],
        "registrations": [
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
                "can": _can(t, e, by_player[e.player_id], late_open),
            }
            for e in entries
        ],
        "finishes": finishes,
        "instructions": [
            _instruction_message(i)
            for i in Instruction.objects.filter(tournament=t).select_related("entry__player").order_by("-id")[:40]
        ],
        "starting_stack": t.starting_stack,
        "buy_in": t.buy_in,
    }


_OPS_BY_STATUS = {Entry.Status.BUSTED: ("re_enter",), Entry.Status.SEATED: ("surrender", "rebuy", "add_on")}
"""The only entry operations :func:`entry_refusal` can allow for an entry of that status."""


def _can(t: Tournament, e: Entry, player_entries: list[Entry], late_open: bool) -> dict[str, bool]:
    """``{op: allowed}`` for :data:`ENTRY_OPS`, the same answers as
    :func:`entry_refusal` without building (and translating) a refusal for
    each entry and operation: none is allowed unless the tournament runs
    with its window open, and only the operations of the entry's status."""
    can = dict.fromkeys(ENTRY_OPS, False)
    if t.status == Tournament.Status.RUNNING and late_open:
        for op in _OPS_BY_STATUS.get(e.status, ()):
            can[op] = entry_refusal(t, op, e, player_entries, late_open) is None
    return can


def _chip_leaders(tables: list[dict], n: int = 10) -> list[dict]:
    """The ``n`` biggest stacks (player and stack) for the TV, when the director shows them."""
    seats = [s for tb in tables if not tb["broken"] for s in tb["seats"] if s["stack"] > 0]
    seats.sort(key=lambda s: (-s["stack"], s["player"].lower()))
    return [{"player": s["player"], "stack": s["stack"]} for s in seats[:n]]


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
    "seat_draw",
    "finishes",
    "chip_leaders",
)


def public_snapshot(full: dict) -> dict:
    """What the lobby screen may show (no registrations, stacks or instructions):
    the keys of ``PUBLIC_KEYS`` plus ``tables`` as number and player count."""
    data = {k: full[k] for k in PUBLIC_KEYS}
    data["tables"] = [{"number": tb["number"], "players": tb["players"]} for tb in full["tables"] if not tb["broken"]]
    return data
