"""The room as data: the floor's snapshot (a few plain SQL statements) and its public lobby form."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from room.models import (
    Call,
    Game,
    GameTable,
    LeaveAfterHand,
    QueueEntry,
    Room,
    RoomLog,
    TableChange,
)
from tables.db import rows as sql_rows
from tables.models import Hand, Player, Seat, Table


def _initials(name: str) -> str:
    parts = [p for p in name.replace("-", " ").split() if p]
    return "".join(p[0].upper() + "." for p in parts) or "?"


def room_snapshot(room: Room, *, lobby: bool) -> dict[str, Any]:
    """The room as JSON-able data with its ``seq``.

    Shape: ``{"seq", "room": {slug, name, call_seconds, names, stacks, running_min_players},
    "server_time", "games": [{"id", "name", "variant", "variant_label",
    "small_blind", "big_blind", "min_buy_in", "max_buy_in", "unit",
    "open_seats", "tables": [{"name", "kind", "status", "open_seats",
    "max_seats", "seats": [{"number", "player", "absent", "stack"?, "leaving"
    (floor form: marked to leave after the hand)}]}],
    "waitlist": [{"name", "called"}], "must_move": [...], "calls": [{"name",
    "table", "seat", "deadline", "forced", "queue"}]}]}``; chips are ints,
    times ISO 8601 (server clock: the countdown is ``deadline`` minus
    ``server_time``).

    ``lobby=True`` is the public lobby form (:func:`lobby_view`): each table and game
    with ``running`` (:func:`table_running`) and the game's ``open_seats`` counted
    at running tables only, names or
    initials (room setting), no ids, stacks only if the room allows, and
    never anything from a hand (no cards).  The floor form adds ids,
    stacks, dealers, table-change requests and the log tail.
    """
    data = _floor_snapshot(room)
    return lobby_view(data) if lobby else data


_PUBLIC_TABLE = ("name", "kind", "status", "open_seats", "max_seats")


def table_running(table: dict[str, Any], min_players: int) -> bool:
    """Whether a table of a floor snapshot (:func:`room_snapshot`, floor form) is running: open, a dealer
    assigned and at least ``min_players`` seated (``Room.running_min_players``).  Only a running table's
    game is listed as running and only its seats are offered to the public (issue 29: a list never shows
    a game that is not there)."""
    seated = sum(1 for s in table["seats"] if s["player"] is not None)
    return table["status"] == "open" and bool(table["dealer"]) and seated >= min_players


_PUBLIC_CALL = ("name", "table", "seat", "deadline", "forced", "queue")


def lobby_view(floor: dict[str, Any]) -> dict[str, Any]:
    """The public lobby form of a floor snapshot (pure: no queries)."""
    room = floor["room"]
    show = _initials if room["names"] == Room.Names.INITIALS else (lambda n: n)
    stacks = room["stacks"]

    def seat(s: dict[str, Any]) -> dict[str, Any]:
        if s["player"] is None:
            return {"number": s["number"], "player": None}
        out = {"number": s["number"], "player": show(s["player"]), "absent": s["absent"]}
        if stacks:
            out["stack"] = s["stack"]
        return out

    min_players = room.get("running_min_players", 2)
    games = []
    for g in floor["games"]:
        running = {t["name"]: table_running(t, min_players) for t in g["tables"]}
        games.append(
            {
                **{
                    k: g[k]
                    for k in (
                        "name",
                        "variant",
                        "variant_label",
                        "small_blind",
                        "big_blind",
                        "min_buy_in",
                        "max_buy_in",
                        "unit",
                    )
                },
                # the seats the lobby offers: those of running tables only
                "open_seats": sum(t["open_seats"] for t in g["tables"] if running[t["name"]]),
                "running": any(running.values()),
                "tables": [
                    {
                        **{k: t[k] for k in _PUBLIC_TABLE},
                        "running": running[t["name"]],
                        "seats": [seat(s) for s in t["seats"]],
                    }
                    for t in g["tables"]
                ],
                "waitlist": [{"name": show(e["name"]), "called": e["called"]} for e in g["waitlist"]],
                "must_move": [{"name": show(e["name"]), "called": e["called"]} for e in g["must_move"]],
                "calls": [{**{k: c[k] for k in _PUBLIC_CALL}, "name": show(c["name"])} for c in g["calls"]],
            }
        )
    return {"seq": floor["seq"], "room": dict(room), "server_time": floor["server_time"], "games": games}


def _floor_snapshot(room: Room) -> dict[str, Any]:
    """The floor form of :func:`room_snapshot` in six plain SQL statements
    (it is taken in every room mutation, so it is on the path of every
    lobby update)."""
    T = {
        m.__name__: m._meta.db_table
        for m in (Game, GameTable, Table, Seat, Player, QueueEntry, Call, TableChange, RoomLog, Hand, LeaveAfterHand)
    }
    user_table = User._meta.db_table
    games_rows = sql_rows(
        f"SELECT id, name, variant, small_blind, big_blind, min_buy_in, max_buy_in, chip_unit "
        f"FROM {T['Game']} WHERE room_id = %s AND is_open ORDER BY big_blind, name",
        [room.id],
    )
    game_ids = [g[0] for g in games_rows]
    tables: dict[int, list[dict[str, Any]]] = {gid: [] for gid in game_ids}
    by_id: dict[int, dict[str, Any]] = {}
    for (
        game_id,
        kind,
        tid,
        tname,
        tstatus,
        max_seats,
        tseq,
        button,
        dealer,
        hand_status,
        number,
        player_id,
        player_name,
        stack,
        absent,
        leaving,
    ) in sql_rows(
        f"SELECT gt.game_id, gt.kind, t.id, t.name, t.status, t.max_seats, t.seq, t.button_seat, u.username, "
        f"h.status, s.number, s.player_id, p.name, s.stack, s.absent, l.id IS NOT NULL "
        f"FROM {T['GameTable']} gt JOIN {T['Table']} t ON t.id = gt.table_id "
        f"LEFT JOIN {user_table} u ON u.id = t.dealer_id LEFT JOIN {T['Hand']} h ON h.id = t.current_hand_id "
        f"JOIN {T['Seat']} s ON s.table_id = t.id LEFT JOIN {T['Player']} p ON p.id = s.player_id "
        f"LEFT JOIN {T['LeaveAfterHand']} l ON l.table_id = t.id AND l.seat_number = s.number AND l.player_id = s.player_id "
        f"WHERE gt.game_id = ANY(%s) ORDER BY gt.game_id, gt.kind, t.name, s.number",
        [game_ids],
    ):
        table = by_id.get(tid)
        if table is None:
            table = by_id[tid] = {
                "id": tid,
                "name": tname,
                "kind": kind,
                "status": tstatus,
                "open_seats": 0,
                "max_seats": max_seats,
                "seats": [],
                "dealer": dealer,
                "seq": tseq,
                "button_seat": button,
                "live_hand": hand_status == "live",
            }
            tables[game_id].append(table)
        if player_id is None:
            table["open_seats"] += 1
            table["seats"].append({"number": number, "player": None})
        else:
            table["seats"].append(
                {
                    "number": number,
                    "player": player_name,
                    "absent": absent,
                    "stack": stack,
                    "player_id": player_id,
                    "leaving": leaving,  # marked to leave after the running hand (000 Einsätze 1)
                }
            )
    lists: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for eid, game_id, queue, status, source, joined_at, player_id, name in sql_rows(
        f"SELECT e.id, e.game_id, e.queue, e.status, e.source, e.joined_at, e.player_id, p.name "
        f"FROM {T['QueueEntry']} e JOIN {T['Player']} p ON p.id = e.player_id "
        f"WHERE e.game_id = ANY(%s) AND e.status IN ('waiting', 'called') ORDER BY e.joined_at, e.id",
        [game_ids],
    ):
        lists.setdefault((game_id, queue), []).append(
            {
                "name": name,
                "called": status == QueueEntry.Status.CALLED,
                "id": eid,
                "player_id": player_id,
                "source": source,
                "joined_at": joined_at.isoformat(),
            }
        )
    calls: dict[int, list[dict[str, Any]]] = {}
    for cid, game_id, table_id, tname, seat, deadline, forced, entry_id, queue, name in sql_rows(
        f"SELECT c.id, c.game_id, c.table_id, t.name, c.seat_number, c.deadline, c.forced, c.entry_id, "
        f"e.queue, p.name FROM {T['Call']} c JOIN {T['Table']} t ON t.id = c.table_id "
        f"JOIN {T['QueueEntry']} e ON e.id = c.entry_id JOIN {T['Player']} p ON p.id = e.player_id "
        f"WHERE c.game_id = ANY(%s) AND c.status = 'open' ORDER BY c.deadline, c.id",
        [game_ids],
    ):
        calls.setdefault(game_id, []).append(
            {
                "name": name,
                "table": tname,
                "seat": seat,
                "deadline": deadline.isoformat(),
                "forced": forced,
                "queue": queue,
                "id": cid,
                "table_id": table_id,
                "entry_id": entry_id,
            }
        )
    games = []
    for gid, name, variant, sb, bb, min_buy_in, max_buy_in, unit in games_rows:
        game_tables = tables[gid]
        games.append(
            {
                "id": gid,
                "name": name,
                "variant": variant,
                "variant_label": str(Game.Variant(variant).label),
                "small_blind": sb,
                "big_blind": bb,
                "min_buy_in": min_buy_in,
                "max_buy_in": max_buy_in,
                "unit": unit,
                "open_seats": sum(t["open_seats"] for t in game_tables if t["status"] == Table.Status.OPEN),
                "tables": game_tables,
                "waitlist": lists.get((gid, QueueEntry.Queue.WAITLIST), []),
                "must_move": lists.get((gid, QueueEntry.Queue.MUST_MOVE), []),
                "calls": calls.get(gid, []),
            }
        )
    changes = [
        {
            "id": cid,
            "player": player,
            "from_table": from_name,
            "from_table_id": from_id,
            "to_table": to_name,
            "to_table_id": to_id,
        }
        for cid, player, from_id, from_name, to_id, to_name in sql_rows(
            f"SELECT c.id, p.name, c.from_table_id, f.name, c.to_table_id, t.name FROM {T['TableChange']} c "
            f"JOIN {T['Player']} p ON p.id = c.player_id JOIN {T['Table']} f ON f.id = c.from_table_id "
            f"JOIN {T['Table']} t ON t.id = c.to_table_id JOIN {T['GameTable']} gt ON gt.table_id = c.from_table_id "
            f"WHERE c.status = 'pending' AND gt.game_id IN (SELECT id FROM {T['Game']} WHERE room_id = %s) "
            f"ORDER BY c.requested_at, c.id",
            [room.id],
        )
    ]
    log = [
        {
            "seq": seq,
            "kind": kind,
            "player": player,
            "payload": json.loads(payload) if isinstance(payload, str) else payload,
            "actor": actor,
            "at": at.isoformat(),
        }
        for seq, kind, player, payload, actor, at in sql_rows(
            f"SELECT l.seq, l.kind, p.name, l.payload, u.username, l.at FROM {T['RoomLog']} l "
            f"LEFT JOIN {T['Player']} p ON p.id = l.player_id LEFT JOIN {user_table} u ON u.id = l.actor_id "
            f"WHERE l.room_id = %s ORDER BY l.id DESC LIMIT 15",
            [room.id],
        )
    ]
    return {
        "seq": room.seq,
        "room": {
            "slug": room.slug,
            "name": room.name,
            "call_seconds": room.call_seconds,
            "names": room.lobby_names,
            "stacks": room.lobby_stacks,
            "running_min_players": room.running_min_players,
        },
        "server_time": timezone.now().isoformat(),
        "games": games,
        "changes": changes,
        "log": log,
    }
