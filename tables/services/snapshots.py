"""What clients see: the table snapshot, the hand view and its format, hand
events, the next button.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from poker.hand import AnyState, HandSpec, HandState, corrections
from poker.hand.cards import is_known
from poker.hand.evaluation import best_hand_description, hand_strength
from poker.hand.records import AwardPot
from poker.houserules import is_substantial_action, misdeal_still_possible
from tables import sql
from tables.floor_summary import summary_seats, summary_table
from tables.models import Hand, HandEvent, Seat, Table
from tables.services.replay import house_profile

FLOOR_GROUP = "floor"


def table_group(table_id: int) -> str:
    """Channels group name of one table's subscribers."""
    return f"table.{table_id}"


def hand_view(table: Table, state: AnyState, info: dict[str, Any]) -> dict[str, Any]:
    """The engine snapshot of a hand plus what the floor procedures add:
    ``held`` (out-of-turn actions waiting, ``[{"index", "seat", "action"}]``),
    ``voided`` (event indices), ``corrected``, ``misdeal``, ``clock`` (the
    "time" called on a player: ``{"seat", "seconds", "deadline"}`` or None),
    ``substantial_action`` and ``misdeal_possible`` under the table's profile
    (004 #36, 000 Allgemein 9: substantial action ends the right to a
    misdeal), and the hand's ``format``, ``run_twice_possible`` and
    ``board_results`` (:func:`format_view`)."""

    view = state.to_dict()
    profile = house_profile(table)
    words = corrections.acted_words(list(enumerate(state.history)))
    view["held"] = [{"index": i, "seat": a.get("seat"), "action": a} for i, a in sorted(info["held"].items())]
    view["voided"] = info["voided"]
    view["corrected"] = info["corrected"]
    view["undone"] = info.get("undone", [])  # actions the dealer took back at the table (poker.hand.undo)
    view["misdeal"] = info["misdeal"]
    view["clock"] = info["clock"]
    view["restricted"] = {str(k): v for k, v in info.get("restricted", {}).items()}
    view["substantial_action"] = is_substantial_action(profile, words)
    view["misdeal_possible"] = state.phase != "complete" and misdeal_still_possible(profile, words, state.street)
    view["profile"] = profile.slug
    view.update(format_view(state))  # bomb pot, flip, double board, straddles, run it twice
    return view


def table_snapshot(
    table: Table,
    *,
    hand: Hand | None = None,
    last_event: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
    parts: SnapshotParts | None = None,
) -> dict[str, Any]:
    """The whole client view of a table (see docs/protocol.md, ``snapshot``).

    Shape: ``{"seq", "table": {...}, "seats": [...], "hand": null|{...},
    "next_button_seat"}``.  Chips are integers.  ``hand``, ``last_event``
    (JSON form) and ``seats`` (as :func:`table_snapshots` reads them) may be
    passed when the caller has them already (the table's newest hand and
    its last event); ``parts`` (:func:`snapshot_parts`) when it kept the
    table's and seats' part from an earlier update of the same hand.
    """
    if hand is None:
        hand = table.current_hand
    if parts is None:
        parts = snapshot_parts(table, _seats(table, hand) if seats is None else seats)
    hand_data = None
    if hand is not None:
        if last_event is None:
            event = hand.events.select_related("actor").order_by("-index").first()
            last_event = None if event is None else _event_dict(event)
        hand_data = {
            "id": hand.id,
            "number": hand.number,
            "status": hand.status,
            "state": hand.snapshot,
            "last_event": last_event,
        }
    return {
        "seq": table.seq,
        "table": parts.table,
        "seats": parts.seats,
        "hand": hand_data,
        "next_button_seat": parts.next_button_seat,
    }


@dataclass(frozen=True)
class SnapshotParts:
    """What a table's snapshot and its floor summary (``tables.floor_summary.tile_summary``) say of the
    table and its seats: the same at every action of a hand, so the fast path of a dealer's action
    (``tables.services.fastpath``) keeps them from one action to the next instead of building them
    again.  ``table``: the snapshot's ``table`` dict; ``seats``: its seat dicts; ``next_button_seat``;
    :attr:`summary`: the summary's table and seats, made when first asked for (most snapshots, a
    connect's, are never summarised this way).  Shared, never to be changed."""

    table: dict[str, Any]
    seats: list[dict[str, Any]]
    next_button_seat: int | None

    @functools.cached_property
    def summary(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``(table, seats)`` of the floor's summary (``tables.floor_summary.summary_table``,
        ``summary_seats``)."""
        return summary_table(self.table), summary_seats(self.seats)


def snapshot_parts(table: Table, seats: list[dict[str, Any]]) -> SnapshotParts:
    """The :class:`SnapshotParts` of ``table`` with ``seats`` (seat dicts, as :func:`_seats` gives them)."""
    view = {
        "id": table.id,
        "name": table.name,
        "status": table.status,
        "imported": table.imported,
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "ante": table.ante,
        "big_blind_ante": table.big_blind_ante,
        "straddle": table.straddle,
        "straddle_kinds": table_straddle_kinds(table),
        "run_it_twice_min_pot": table.run_it_twice_min_pot,
        "rules_profile": table.rules_profile,
        "button_seat": table.button_seat,
        "max_seats": table.max_seats,
        "dealer": table.dealer.username if table.dealer is not None else None,
    }
    next_button = _next_button(
        table.button_seat,
        [s["number"] for s in seats if _is_dealt_in(s["player"] is not None, s["stack"], s["sitting_out"])],
    )
    return SnapshotParts(view, seats, next_button)


seat_cache: dict[int, tuple[int, list[dict[str, Any]]]] = {}
"""This process's seats of each table while a hand is live: table id -> ``(live hand id, seat
dicts)``; a writer that changes the seats pops its table."""


def _seats(table: Table, hand: Hand | None) -> list[dict[str, Any]]:
    """The table's seats as JSON-able dicts, in seat order.

    Seats change only between hands, so while a hand is live they are
    cached per process under the hand's id (a new hand, in any process,
    has a new id)."""
    live_id = hand.id if hand is not None and hand.status == Hand.Status.LIVE else None
    if live_id is not None:
        cached = seat_cache.get(table.id)
        if cached is not None and cached[0] == live_id:
            return cached[1]
    seats = [
        {"number": number, "player": name, "stack": stack, "sitting_out": sitting_out}
        for number, name, stack, sitting_out in sql.seat_rows(table.id)
    ]
    if live_id is not None:
        seat_cache[table.id] = (live_id, seats)
    return seats


def seat_dict(seat: Seat) -> dict[str, Any]:
    """A seat (its ``player`` loaded) as the snapshot lists it."""
    return {
        "number": seat.number,
        "player": seat.player.name if seat.player is not None else None,
        "stack": seat.stack,
        "sitting_out": seat.sitting_out,
    }


def table_snapshots(tables: list[Table]) -> dict[int, dict[str, Any]]:
    """:func:`table_snapshot` of several tables (their ``current_hand``
    loaded) in two queries in all -- their seats, the last events of their
    hands -- instead of two per table (a break changes up to ten tables).
    Returns ``{table id: snapshot}``."""
    ids = [t.id for t in tables]
    seats: dict[int, list[dict[str, Any]]] = {t.id: [] for t in tables}
    for table_id, number, name, stack, sitting_out in (
        Seat.objects.filter(table_id__in=ids)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "player__name", "stack", "sitting_out")
    ):
        seats[table_id].append({"number": number, "player": name, "stack": stack, "sitting_out": sitting_out})
    hands = [t.current_hand_id for t in tables if t.current_hand_id is not None]
    last: dict[int, dict[str, Any]] = {}
    if hands:
        for event in (
            HandEvent.objects.filter(hand_id__in=hands)
            .select_related("actor")
            .order_by("hand_id", "-index")
            .distinct("hand_id")
        ):
            last[event.hand_id] = _event_dict(event)
    return {
        t.id: table_snapshot(
            t,
            hand=t.current_hand,
            last_event=last.get(t.current_hand_id or 0),
            seats=seats[t.id],
        )
        for t in tables
    }


def _event_dict(event: HandEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "index": event.index,
        "kind": event.kind,
        "payload": event.payload,
        "at": event.at.isoformat() if event.at else None,
        "actor": event.actor.username if event.actor is not None else None,
    }


def hand_events(hand: Hand) -> list[dict[str, Any]]:
    """All events of a hand in order, as JSON-able dicts."""
    return [_event_dict(e) for e in hand.events.select_related("actor").order_by("index")]


def _is_dealt_in(occupied: bool, stack: int, sitting_out: bool) -> bool:
    """Who gets cards in the next hand: a seated player with chips who is not sitting out."""
    return occupied and stack > 0 and not sitting_out


def dealt_in_seats(seats: list[Seat]) -> list[Seat]:
    """The seats of ``seats`` dealt into the next hand (a player with chips, not sitting out)."""
    return [s for s in seats if _is_dealt_in(s.player_id is not None, s.stack, s.sitting_out)]


def next_button_seat(table: Table, seats: list[Seat] | None = None) -> int | None:
    """Seat number of the button for the next hand: the next seat clockwise
    (ascending seat numbers, wrapping) after the current button that holds a
    player dealt in; the lowest such seat for the table's first hand.
    Returns None when fewer than two players can be dealt in."""
    seats = seats if seats is not None else list(table.seats.all())
    return _next_button(table.button_seat, [s.number for s in dealt_in_seats(seats)])


def _next_button(button: int | None, live: list[int]) -> int | None:
    live = sorted(live)
    if len(live) < 2:
        return None
    if button is None:
        return live[0]
    after = [n for n in live if n > button]
    return after[0] if after else live[0]


#: Straddle kinds a table may agree at its opening (000 Aktionen 1).
STRADDLE_KINDS = ("live", "button", "mississippi")


def table_straddle_kinds(table: Table) -> list[str]:
    """The straddle kinds agreed at the table's opening (``Table.straddle_kinds``),
    in the order of :data:`STRADDLE_KINDS` (000 Aktionen 1)."""
    agreed = {part.strip() for part in (table.straddle_kinds or "").split(",")}
    return [kind for kind in STRADDLE_KINDS if kind in agreed]


def format_view(state: AnyState) -> dict[str, Any]:
    """What ``hand_view`` adds about the hand's format.

    Returns ``{"format": {"kind", "amount", "double_board", "straddles":
    [{"kind", "seat", "amount"}], "run_it_twice_min_pot"}, "run_twice_possible":
    bool, "board_results": [...]}``.  ``run_twice_possible`` says the
    players may agree now: nobody can act any more (000 Aktionen 8 a), the
    pot is big enough (c), one board, not yet agreed; the players' and the
    floor's agreement is asked by the tablet.  ``board_results`` (see
    :func:`_board_results`) lists, for each pot played on two boards,
    the winners and chips of each board once they are known.
    """
    spec = state.spec
    if not isinstance(spec, HandSpec):  # a stud game (a StudSpec): no formats, no boards
        return {
            "format": {"kind": "standard", "amount": 0, "double_board": False, "straddles": []},
            "board_results": [],
        }
    kind = "bomb_pot" if spec.bomb_pot else "flip" if spec.flip else "standard"
    possible = (
        spec.run_it_twice_min_pot is not None
        and spec.boards == 1
        and state.phase == "board"
        and state.run_twice_pots is None
        and state.can_run_it_twice([s.seat for s in spec.seats], floor=True)
    )
    return {
        "format": {
            "kind": kind,
            "amount": spec.forced_pot,
            "double_board": spec.boards == 2,
            "straddles": [{"kind": k, "seat": seat, "amount": a} for k, seat, a in spec.straddles],
            "run_it_twice_min_pot": spec.run_it_twice_min_pot,
        },
        "run_twice_possible": possible,
        "board_results": _board_results(state),
    }


def _board_results(state: HandState) -> list[dict[str, Any]]:
    """Per pot on two boards (double board, 000 Allgemein 14; run twice,
    000 Aktionen 8): ``{"pot", "amount", "boards": [{"board": 1|2,
    "winners": [seat, ...], "chips": int, "hand": str|None}, ...]}``, from
    the dealer's award (``winners``/``winners2``) or the shown cards.  Each
    board gets half the pot; the odd chip goes to the winner in the worse
    position (the first left of the button), as the engine splits it."""
    if len(state.boards) != 2 or state.phase not in ("showdown", "complete"):
        return []

    spec = state.spec
    awards = {a.pot: a for a in state.history if isinstance(a, AwardPot)}
    results = []
    for index, pot in enumerate(state.pots):
        if len(state.boards_of_pot(index)) != 2:
            continue
        contenders = [p for p in pot.eligible if not state.mucked[p]]
        described: list[str | None] = [None, None]
        if index in awards:
            first = [spec.position_of(s) for s in awards[index].winners]
            second = [spec.position_of(s) for s in awards[index].winners2 or ()] or first
            by_board = [first, second]
        elif len(contenders) == 1:
            by_board = [contenders, contenders]
        elif all(len(b) == 5 and is_known(b) for b in state.boards) and all(
            is_known(state.hole_cards[p]) for p in contenders
        ):
            by_board = []
            for b, board in enumerate(state.boards):
                # every contender's cards are known (checked above); "or ()" only types it
                strength = {p: hand_strength(state.hole_cards[p] or (), board, spec.game) for p in contenders}
                best = max(strength.values())
                by_board.append([p for p in contenders if strength[p] == best])
                described[b] = best_hand_description(state.hole_cards[by_board[-1][0]] or (), board, spec.game)
        else:
            continue
        unit = spec.split_unit
        units, rest = divmod(pot.amount, unit)
        half, odd = divmod(units, 2)
        chips = [half * unit, half * unit]
        worst = min(p for winners in by_board for p in winners)
        chips[0 if worst in by_board[0] else 1] += odd * unit + rest
        results.append(
            {
                "pot": index,
                "amount": pot.amount,
                "boards": [
                    {
                        "board": b + 1,
                        "winners": [spec.seat_of(p) for p in by_board[b]],
                        "chips": chips[b],
                        "hand": described[b],
                    }
                    for b in range(2)
                ],
            }
        )
    return results
