"""Every write to a table goes through a function of this module.

Each service is one step of the write path (:func:`tables.writepath.write_step`):
it locks the table row (one writer per table), checks the client's
``expected_seq``, applies the pure engine, appends a ``HandEvent``, bumps
``Table.seq`` and broadcasts the new table snapshot after the commit (never
before).  A message whose ``client_id`` was already applied is
acknowledged with the original ``seq`` and changes nothing.  Errors raise
``ServiceError`` with a machine code (see docs/protocol.md) and leave the
database untouched.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from poker.hand import EngineError, HandSpec, HandState, Rules, SeatSpec, corrections
from tables import hooks
from tables.models import Hand, HandEvent, Player, Seat, Table
from tables.signals import hand_completed
from tables.writepath import ServiceError, WriteStep, send_on_commit, write_step

__all__ = ["ServiceError", "send_on_commit"]  # re-exported from tables.writepath (with the names defined here)

FLOOR_GROUP = "floor"


def table_group(table_id: int) -> str:
    """Channels group name of one table's subscribers."""
    return f"table.{table_id}"


@dataclass(frozen=True)
class Outcome:
    """What a service did: the table's ``seq`` after it, and whether the
    message was a duplicate (``client_id`` already applied)."""

    table_id: int
    seq: int
    duplicate: bool = False


# ---------------------------------------------------------------------------
# Spec (de)serialisation and the replay of a hand's events

def spec_to_dict(spec: HandSpec) -> dict[str, Any]:
    """Serialise a ``HandSpec`` to JSON-able data (stored on ``Hand.spec``;
    ``HandSpec.to_dict``: game, formats and rules included)."""
    return spec.to_dict()


def spec_from_dict(data: dict[str, Any]) -> HandSpec:
    """Inverse of ``spec_to_dict`` (older stored dicts load with the
    defaults); raises ``ServiceError('invalid')`` on bad data."""
    try:
        return HandSpec.from_dict(data)
    except (KeyError, TypeError, ValueError, EngineError) as exc:
        raise ServiceError("invalid", f"malformed hand spec: {exc}") from None


_CACHE_SIZE = 512
_state_cache: OrderedDict[int, tuple[int, HandState, dict]] = OrderedDict()
_cache_lock = threading.Lock()


def hand_state(hand: Hand) -> HandState:
    """Replay a hand's events through the engine and return its state."""
    return _hand_state_and_index(hand)[0]


def _no_info() -> dict[str, Any]:
    return {"held": {}, "voided": [], "corrected": False, "misdeal": False, "clock": None, "restricted": {}}


def _hand_state_and_index(hand: Hand) -> tuple[HandState, int]:
    """The hand's state and the index of its last event (see :func:`_hand_replay`)."""
    state, last, _ = _hand_replay(hand)
    return state, last


def _hand_replay(hand: Hand) -> tuple[HandState, int, dict[str, Any]]:
    """The hand's state, the index of its last event, and what the replay
    knows beyond the engine state (``info``: held out-of-turn actions,
    voided event indices, whether it was corrected or misdealt, the running
    "time" clock).

    A per-process cache keyed by hand id remembers the state after the last
    event index seen; it is used only if that index is still the hand's last
    (so several server processes stay correct).  Corrections are folded in
    by :func:`poker.hand.corrections.replay`.
    """
    last = hand.last_index
    with _cache_lock:
        cached = _state_cache.get(hand.id)
    if cached is not None and cached[0] == last:
        return cached[1], last, cached[2]
    events = list(hand.events.order_by("index").values_list("index", "kind", "payload"))
    result = corrections.replay(spec_from_dict(hand.spec), events)
    info = {"held": result.held, "voided": sorted(result.voided), "corrected": result.corrected,
            "misdeal": result.misdeal, "clock": None, "restricted": {}}
    for index, kind, payload in events:
        if kind == "note" and payload.get("type") == "out_of_turn_released" \
                and "may_not_raise" in payload.get("restrictions", ()) and payload.get("street") == result.state.street:
            info["restricted"][payload["seat"]] = {"street": payload["street"], "citations": payload.get("citations", [])}
    for index, kind, payload in reversed(events):
        if kind in ("action", "correction"):
            break
        if kind == "clock" and payload.get("type") == "time_called":
            info["clock"] = dict(payload, index=index)
            break
    _remember(hand.id, last, result.state, info)
    return result.state, last, info


def _remember(hand_id: int, index: int, state: HandState, info: dict[str, Any] | None = None) -> None:
    with _cache_lock:
        _state_cache[hand_id] = (index, state, info if info is not None else _no_info())
        _state_cache.move_to_end(hand_id)
        while len(_state_cache) > _CACHE_SIZE:
            _state_cache.popitem(last=False)


def _profile(table: Table):
    from poker.houserules import get_profile  # noqa: PLC0415  (rules is a sibling app)

    try:
        return get_profile(table.rules_profile)
    except KeyError:
        raise ServiceError("invalid", f"unknown house-rule profile {table.rules_profile!r}") from None


def hand_view(table: Table, state: HandState, info: dict[str, Any]) -> dict[str, Any]:
    """The engine snapshot of a hand plus what the floor procedures add:
    ``held`` (out-of-turn actions waiting, ``[{"index", "seat", "action"}]``),
    ``voided`` (event indices), ``corrected``, ``misdeal``, ``clock`` (the
    "time" called on a player: ``{"seat", "seconds", "deadline"}`` or None),
    ``substantial_action`` and ``misdeal_possible`` under the table's profile
    (004 #36, 000 Allgemein 9: substantial action ends the right to a
    misdeal), and the hand's ``format``, ``run_twice_possible`` and
    ``board_results`` (:func:`format_view`)."""
    from poker.houserules import is_substantial_action, misdeal_still_possible  # noqa: PLC0415

    view = state.to_dict()
    profile = _profile(table)
    words = corrections.acted_words(list(enumerate(state.history)))
    view["held"] = [{"index": i, "seat": a.get("seat"), "action": a} for i, a in sorted(info["held"].items())]
    view["voided"] = info["voided"]
    view["corrected"] = info["corrected"]
    view["misdeal"] = info["misdeal"]
    view["clock"] = info["clock"]
    view["restricted"] = {str(k): v for k, v in info.get("restricted", {}).items()}
    view["substantial_action"] = is_substantial_action(profile, words)
    view["misdeal_possible"] = state.phase != "complete" and misdeal_still_possible(
        profile, words, state.street)
    view["profile"] = profile.slug
    view.update(format_view(state))  # bomb pot, flip, double board, straddles, run it twice
    return view


# ---------------------------------------------------------------------------
# Snapshots

def table_snapshot(table: Table, *, hand: Hand | None = None, last_event: dict[str, Any] | None = None
                   ) -> dict[str, Any]:
    """The whole client view of a table (see docs/protocol.md, ``snapshot``).

    Shape: ``{"seq", "table": {...}, "seats": [...], "hand": null|{...},
    "next_button_seat"}``.  Chips are integers.  ``hand`` and
    ``last_event`` (JSON form) may be passed when the caller has them
    already (the table's newest hand and its last event).
    """
    if hand is None:
        hand = table.current_hand
    seats = _seats(table, hand)
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
        "table": {
            "id": table.id,
            "name": table.name,
            "status": table.status,
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
            "dealer": table.dealer.username if table.dealer_id else None,
        },
        "seats": seats,
        "hand": hand_data,
        "next_button_seat": _next_button(
            table.button_seat,
            [s["number"] for s in seats if _is_dealt_in(s["player"] is not None, s["stack"], s["sitting_out"])]),
    }


_seat_cache: dict[int, tuple[int, list[dict[str, Any]]]] = {}


def _seats(table: Table, hand: Hand | None) -> list[dict[str, Any]]:
    """The table's seats as JSON-able dicts, in seat order.

    Seats change only between hands, so while a hand is live they are
    cached per process under the hand's id (a new hand, in any process,
    has a new id)."""
    live_id = hand.id if hand is not None and hand.status == Hand.Status.LIVE else None
    if live_id is not None:
        cached = _seat_cache.get(table.id)
        if cached is not None and cached[0] == live_id:
            return cached[1]
    seats = [
        {"number": number, "player": name, "stack": stack, "sitting_out": sitting_out}
        for number, name, stack, sitting_out in table.seats.order_by("number").values_list(
            "number", "player__name", "stack", "sitting_out")
    ]
    if live_id is not None:
        _seat_cache[table.id] = (live_id, seats)
    return seats


def _event_dict(event: HandEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "index": event.index,
        "kind": event.kind,
        "payload": event.payload,
        "at": event.at.isoformat() if event.at else None,
        "actor": event.actor.username if event.actor_id else None,
    }


def hand_events(hand: Hand) -> list[dict[str, Any]]:
    """All events of a hand in order, as JSON-able dicts."""
    return [_event_dict(e) for e in hand.events.select_related("actor").order_by("index")]


def _is_dealt_in(occupied: bool, stack: int, sitting_out: bool) -> bool:
    """Who gets cards in the next hand: a seated player with chips who is not sitting out."""
    return occupied and stack > 0 and not sitting_out


def _dealt_in(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if _is_dealt_in(s.player_id is not None, s.stack, s.sitting_out)]


def next_button_seat(table: Table, seats: list[Seat] | None = None) -> int | None:
    """Seat number of the button for the next hand: the next seat clockwise
    (ascending seat numbers, wrapping) after the current button that holds a
    player dealt in; the lowest such seat for the table's first hand.
    Returns None when fewer than two players can be dealt in."""
    seats = seats if seats is not None else list(table.seats.all())
    return _next_button(table.button_seat, [s.number for s in _dealt_in(seats)])


def _next_button(button: int | None, live: list[int]) -> int | None:
    live = sorted(live)
    if len(live) < 2:
        return None
    if button is None:
        return live[0]
    after = [n for n in live if n > button]
    return after[0] if after else live[0]


# ---------------------------------------------------------------------------
# Mutations

_TABLE_FIELDS = [f.attname for f in Table._meta.concrete_fields]
_HAND_FIELDS = [f.attname for f in Hand._meta.concrete_fields]


def _lock_table(table_id: int) -> Table:
    """Lock the table row (``FOR NO KEY UPDATE``: one writer per table) and
    load it with its dealer's username and its current hand, in one plain
    SQL statement (the hot path of every dealer action).  Raises
    ``ServiceError('not_found')``."""
    table_cols = ", ".join(f't."{name}"' for name in _TABLE_FIELDS)
    hand_cols = ", ".join(f'h."{name}"' for name in _HAND_FIELDS)
    sql = (f"SELECT {table_cols}, u.username, {hand_cols} FROM {Table._meta.db_table} t "
           f"LEFT JOIN {User._meta.db_table} u ON u.id = t.dealer_id "
           f"LEFT JOIN {Hand._meta.db_table} h ON h.id = t.current_hand_id "
           f"WHERE t.id = %s FOR NO KEY UPDATE OF t")
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        raise ServiceError("not_found", f"no table {table_id}")
    n = len(_TABLE_FIELDS)
    table = Table.from_db(connection.alias, _TABLE_FIELDS, row[:n])
    if table.dealer_id is not None:
        table.dealer = User.from_db(connection.alias, ["id", "username"], [table.dealer_id, row[n]])
    hand_values = list(row[n + 1:])
    if table.current_hand_id is not None:
        for i, field in enumerate(Hand._meta.concrete_fields):  # jsonb arrives as text from a raw cursor
            hand_values[i] = field.from_db_value(hand_values[i], None, connection) \
                if hasattr(field, "from_db_value") else hand_values[i]
        table.current_hand = Hand.from_db(connection.alias, _HAND_FIELDS, hand_values)
    else:
        table.current_hand = None
    return table


def _live_hand(table: Table) -> Hand | None:
    hand = table.current_hand
    return hand if hand is not None and hand.status == Hand.Status.LIVE else None


def _duplicate_seq(table: Table, client_id: str) -> int | None:
    """The seq of the event first recorded with ``client_id`` at this table,
    or None; ``ServiceError('invalid')`` when another table used it."""
    with connection.cursor() as cursor:  # hot path: plain SQL, no ORM query compilation
        cursor.execute(f"SELECT table_id, seq FROM {HandEvent._meta.db_table} WHERE client_id = %s", [client_id])
        found = cursor.fetchone()
    if found is None:
        return None
    if found[0] != table.id:
        raise ServiceError("invalid", "client_id already used at another table")
    return found[1]


def _step(table_id: int, expected_seq: int | None = None, client_id: str | None = None
          ) -> contextlib.AbstractContextManager[WriteStep[Table]]:
    """A write step on the table (:func:`tables.writepath.write_step`): the
    row locked by :func:`_lock_table`, a repeated ``client_id`` found in the
    hand events.  Errors: ``not_found``, ``stale``, ``invalid``."""
    return write_step(Table, table_id, expected_seq=expected_seq, client_id=client_id,
                      find_duplicate=_duplicate_seq, lock=_lock_table)


def _repeated(step: WriteStep[Table]) -> Outcome | None:
    """The outcome of a repeated ``client_id`` (its first seq), or None."""
    if step.duplicate_seq is None:
        return None
    return Outcome(step.row.id, step.duplicate_seq, duplicate=True)


def _broadcast_on_commit(table: Table, hand: Hand | None = None, event: dict[str, Any] | None = None) -> None:
    """Send the table's snapshot (taken now, inside the transaction) to the
    table's group and the floor once the transaction commits."""
    snapshot = table_snapshot(table, hand=hand, last_event=event)
    send_on_commit([table_group(table.id), FLOOR_GROUP], {"type": "update", "seq": snapshot["seq"], "snapshot": snapshot},
                   seq=snapshot["seq"], table_id=table.id)


def _append(step: WriteStep[Table], hand: Hand, index: int, kind: str, payload: dict, actor,
            client_id: str | None, state: HandState, info: dict[str, Any] | None = None) -> dict[str, Any]:
    """Append event number ``index`` of ``hand`` with the step's next seq
    (written at once) and cache the hand's new snapshot; return the event as
    JSON-able data.

    The table row is locked, so seq and index cannot collide; the unique
    constraints stay as a last line of defence.  This is the hot path of
    every dealer action, so it speaks plain SQL (three statements) instead
    of compiling ORM queries.
    """
    table = step.row
    step.bump()
    actor_id = actor.id if actor is not None and actor.is_authenticated else None
    info = info if info is not None else _no_info()
    hand.snapshot = hand_view(table, state, info)
    hand.snapshot_seq = table.seq
    hand.last_index = index
    with connection.cursor() as cursor:
        cursor.execute(
            f'INSERT INTO {HandEvent._meta.db_table} (table_id, hand_id, seq, "index", kind, payload, actor_id, '
            f"at, client_id) VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s, now(), %s) RETURNING at",
            [table.id, hand.id, table.seq, index, kind, json.dumps(payload), actor_id, client_id or None],
        )
        at = cursor.fetchone()[0]
        cursor.execute(f"UPDATE {Table._meta.db_table} SET seq = %s WHERE id = %s", [table.seq, table.id])
        step.stored()
        if not (state.phase == "complete" and hand.status == Hand.Status.LIVE and not info["misdeal"]):
            cursor.execute(
                f"UPDATE {Hand._meta.db_table} SET snapshot = %s::jsonb, snapshot_seq = %s, last_index = %s "
                f"WHERE id = %s",
                [json.dumps(hand.snapshot), table.seq, index, hand.id],
            )
    if state.phase == "complete" and hand.status == Hand.Status.LIVE and not info["misdeal"]:
        hand.status = Hand.Status.COMPLETE
        hand.ended_at = timezone.now()
        _settle(table, hand, state)
        hand.save(update_fields=["snapshot", "snapshot_seq", "last_index", "status", "ended_at"])
        start_stacks = {s.seat: s.stack for s in state.spec.seats}
        final_stacks = {s.seat: state.final_stacks[i] for i, s in enumerate(state.spec.seats)}
        hooks.hand_completed(table=table, hand=hand, start_stacks=start_stacks, final_stacks=final_stacks)
        # The signal of earlier releases, sent until its receivers register with tables.hooks.
        hand_completed.send(sender=Hand, table=table, hand=hand, start_stacks=start_stacks,
                            final_stacks=final_stacks)
    _remember(hand.id, index, state, info)
    return {
        "seq": table.seq,
        "index": index,
        "kind": kind,
        "payload": payload,
        "at": at.isoformat(),
        "actor": actor.username if actor_id else None,
    }


def _settle(table: Table, hand: Hand, state: HandState) -> None:
    """Write the final stacks of a completed hand back to the seats."""
    final = state.final_stacks
    by_seat = {spec.seat: final[i] for i, spec in enumerate(state.spec.seats)}
    for seat in table.seats.filter(number__in=by_seat):
        seat.stack = by_seat[seat.number]
        seat.save(update_fields=["stack"])


def rules_for_table(table: Table) -> Rules:
    """The engine rules of the table's house-rule profile (``poker.houserules``,
    through ``Rules.from_house_rules``):
    the minimum raise reading (TDA last full raise, or 002 #4 "double the
    previous") and who may re-raise after a short all-in.  An unknown
    profile slug raises ``ServiceError('invalid')``."""
    from poker.houserules import get_profile  # noqa: PLC0415  (rules is a sibling app)

    try:
        profile = get_profile(table.rules_profile)
    except KeyError:
        raise ServiceError("invalid", f"unknown house-rule profile {table.rules_profile!r}") from None
    return Rules.from_house_rules(profile)


def build_spec(table: Table, seats: list[Seat], button: int) -> HandSpec:
    """The engine spec of the next hand at ``table`` with the button at seat
    ``button``: stakes from the table, stacks from the seats."""
    live = _dealt_in(seats)
    spec = HandSpec.standard(
        [SeatSpec(seat=s.number, player=s.player.name, stack=s.stack) for s in sorted(live, key=lambda s: s.number)],
        button=button,
        small_blind=table.small_blind,
        big_blind=table.big_blind,
        ante=table.ante,
        big_blind_ante=table.big_blind_ante,
        straddle=table.straddle,
        rules=rules_for_table(table),
    )
    # Registered adjusters (the cash floor: the game's variant, the big blind owed after a seat change).
    return hooks.adjust_spec(table, seats, spec)


def _check_spec_matches_seats(spec: HandSpec, seats: list[Seat]) -> None:
    by_number = {s.number: s for s in seats}
    for seat_spec in spec.seats:
        seat = by_number.get(seat_spec.seat)
        if seat is None or seat.player_id is None:
            raise ServiceError("spec_mismatch", f"seat {seat_spec.seat} has no player at this table")
        if seat.player.name != seat_spec.player or seat.stack != seat_spec.stack:
            raise ServiceError("spec_mismatch",
                               f"seat {seat_spec.seat}: table has {seat.player.name} with {seat.stack}, "
                               f"spec says {seat_spec.player} with {seat_spec.stack}")


# Spec providers of earlier releases, honoured after ``tables.hooks.register_spec_provider``'s
# until their apps register there (same call: ``provider(table, seats) -> HandSpec | None``).
SPEC_PROVIDERS: list = []


def _provided_spec(table: Table, seats: list[Seat]) -> HandSpec | None:
    spec = hooks.next_hand_spec(table, seats)
    if spec is None:
        for provider in SPEC_PROVIDERS:
            if provider in hooks.registered("spec_provider"):
                continue
            spec = provider(table, seats)
            if spec is not None:
                break
    return spec


def start_hand(table_id: int, *, actor=None, expected_seq: int | None = None, client_id: str | None = None,
               spec: dict[str, Any] | None = None, metadata: dict[str, Any] | None = None,
               format: dict[str, Any] | None = None) -> Outcome:  # noqa: A002  (the protocol's word)
    """Start the next hand: the button moves, antes, blinds and the live
    straddle post themselves.

    ``spec`` (optional, JSON form of ``HandSpec``) overrides the table's
    stakes and seat stacks: used to replay recorded hands (PHH), where each
    seat's stack must equal the spec's.

    ``format`` (optional) is the dealer's choice for this hand of a cash
    table (see :func:`clean_format`): a bomb pot or a flip with the chips
    every player posts, a double board (000 Allgemein 14), straddles of the
    kinds agreed at the table's opening (000 Aktionen 1).  It is applied on
    top of ``build_spec``, stored in the hand's spec and recorded in the
    ``start`` event (``payload["format"]``).  The table's run-it-twice
    minimum (000 Aktionen 8 c) goes into every cash hand's spec.

    Errors: ``not_found``, ``stale``, ``hand_in_progress``,
    ``not_enough_players``, ``table_closed``, ``invalid``; for a format
    ``bad_format``, ``bad_straddle``, ``straddle_not_agreed``,
    ``format_not_allowed`` (a tournament table, or with ``spec``) and
    ``redeal`` (a misdealt hand is dealt again as it was).
    """
    fmt = clean_format(format)
    if fmt is not None and spec is not None:
        raise ServiceError("format_not_allowed", "a replayed spec carries its own format")
    with _step(table_id, expected_seq, client_id) as step:
        if dup := _repeated(step):
            return dup
        table = step.row
        if table.status != Table.Status.OPEN:
            raise ServiceError("table_closed", "the table is closed")
        if _live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "finish the current hand first")
        hooks.before_deal(table)  # e.g. a disqualified player's seat opens (000 Strafen 4)
        _seat_cache.pop(table.id, None)
        seats = list(table.seats.select_related("player").order_by("number"))
        previous = table.current_hand
        if spec is None and previous is not None and previous.status == Hand.Status.MISDEAL:
            # 001 6.25, 003 "Miss-Deal", 004 #35: the same hand is dealt
            # again with the same button and blinds.
            try:
                _check_spec_matches_seats(spec_from_dict(previous.spec), seats)
                spec = previous.spec
            except ServiceError:
                pass  # somebody left or bought chips since: a normal deal
            if spec is not None and fmt is not None:
                raise ServiceError("redeal", "the misdealt hand is dealt again as it was, in its own format: "
                                             "start it without a format")
        format_record = None
        if spec is not None:
            hand_spec = spec_from_dict(spec)
            _check_spec_matches_seats(hand_spec, seats)
            button = hand_spec.button_seat or hand_spec.seats[-1].seat
        else:
            hand_spec = _provided_spec(table, seats)
            if hand_spec is None:
                button = next_button_seat(table, seats)
                if button is None:
                    raise ServiceError("not_enough_players", "at least two players with chips are needed")
                hand_spec = build_spec(table, seats, button)
                hand_spec, format_record = apply_format(table, hand_spec, fmt)
            else:
                if fmt is not None:
                    raise ServiceError("format_not_allowed",
                                       "this table's hands are dealt by its tournament: no special formats")
                button = hand_spec.button_seat
        try:
            state = HandState.start(hand_spec)
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message) from None
        number = table.current_hand.number + 1 if table.current_hand else 1
        hand = Hand.objects.create(table=table, number=number, spec=spec_to_dict(hand_spec),
                                   metadata=metadata or {})
        table.button_seat = button
        table.current_hand = hand
        table.save(update_fields=["button_seat", "current_hand"])
        start = {"type": "start", "button": button}
        if format_record is not None:
            start["format"] = format_record
        event = _append(step, hand, 0, "start", start, actor, client_id, state)
        index = 0
        for kill in _dead_hands(table, seats, state):
            if state.phase == "complete":
                break
            state = state.apply(kill)
            index += 1
            event = _append(step, hand, index, "action", kill, actor, None, state)
        step.publish(_broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


def _dead_hands(table: Table, seats: list[Seat], state: HandState) -> list[dict[str, Any]]:
    """Kill actions for the seats dealt in whose hand is dead from the start:
    those of the dead-hands hooks (``tables.hooks``: a player sitting out a
    penalty, 004 #71, 001 6.37) and then an absent player's (blinds and
    antes taken from his stack, dead hand: 000 Allgemein 6; at tournament
    tables 001 Sitzverteilung / 6.14, 004 #30).
    """
    from poker.houserules import Citation  # noqa: PLC0415

    dealt = {s.seat for s in state.spec.seats}
    kills = hooks.dead_hands(table, seats, state)
    killed = {kill["seat"] for kill in kills}
    absent = [s for s in seats if s.number in dealt and s.absent and s.number not in killed]
    if absent:
        # The rule of the table's house-rule profile: 001 Sitzverteilung and 6.14 (Wynental
        # tournaments), 004 #30 (MunotPoker), else the cash rule 000 Allgemein 6.
        rule = {"wynental": (("wynental", "Sitzverteilung"), ("wynental", "6.14")),
                "munotpoker": (("munotpoker", "#30"),)}.get(_profile(table).rulebook,
                                                             (("casino-cash", "Allgemein 6"),))
        citations = [Citation(*c).to_dict() for c in rule]
        for seat in absent:
            kills.append({"type": "kill", "seat": seat.number, "reason": "absent", "citations": citations})
    return kills


# ---------------------------------------------------------------------------
# Special formats of a cash hand: straddles (000 Aktionen 1), bomb pot, flip,
# double board (000 Allgemein 14), run it twice (000 Aktionen 8)

#: Straddle kinds a table may agree at its opening (000 Aktionen 1).
STRADDLE_KINDS = ("live", "button", "mississippi")
#: ``format["kind"]`` of ``start_hand``.
FORMAT_KINDS = ("standard", "bomb_pot", "flip")
_FORMAT_KEYS = frozenset({"kind", "amount", "double_board", "straddles"})


def _cite_000(section: str) -> dict[str, str]:
    """A citation of the casino cash-game rulebook (000) in the events' shape."""
    return {"rulebook": "casino-cash", "section": section, "label": f"000 {section}"}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def table_straddle_kinds(table: Table) -> list[str]:
    """The straddle kinds agreed at the table's opening (``Table.straddle_kinds``),
    in the order of :data:`STRADDLE_KINDS` (000 Aktionen 1)."""
    agreed = {part.strip() for part in (table.straddle_kinds or "").split(",")}
    return [kind for kind in STRADDLE_KINDS if kind in agreed]


def clean_format(data: Any) -> dict[str, Any] | None:
    """Check the shape of a ``start_hand`` format and normalise it.

    Args:
        data: None, or ``{"kind": "standard" | "bomb_pot" | "flip",
            "amount": chips each player posts (bomb pot and flip only, > 0),
            "double_board": bool, "straddles": [{"kind": "live" | "button"
            | "mississippi", "seat": seat number}, ...] (standard hands
            only)}``; every key is optional (kind defaults to standard).

    Returns:
        ``{"kind", "amount", "double_board", "straddles"}`` (amount 0 for a
        standard hand), or None when nothing special is asked for.

    Raises:
        ServiceError("bad_format") on any other shape; the table is not
        looked at (see :func:`apply_format` for the table's agreement).
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ServiceError("bad_format", "format must be an object")
    unknown = set(data) - _FORMAT_KEYS
    if unknown:
        raise ServiceError("bad_format", f"unknown format key(s): {', '.join(sorted(map(str, unknown)))}")
    kind = data.get("kind") or "standard"
    if kind not in FORMAT_KINDS:
        raise ServiceError("bad_format", f"format kind must be one of {', '.join(FORMAT_KINDS)}, not {kind!r}")
    amount = data.get("amount")
    if kind == "standard":
        if amount not in (None, 0):
            raise ServiceError("bad_format", "an amount is only for a bomb pot or a flip")
        amount = 0
    elif not _is_int(amount) or amount <= 0:
        raise ServiceError("bad_format", "a bomb pot or a flip needs the amount every player posts, "
                                         "a positive number of chips (000 Allgemein 14)")
    double = data.get("double_board", False)
    if not isinstance(double, bool):
        raise ServiceError("bad_format", "double_board must be true or false")
    raw = data.get("straddles") or []
    if not isinstance(raw, list):
        raise ServiceError("bad_format", "straddles must be a list of {kind, seat}")
    straddles = []
    for item in raw:
        if not isinstance(item, dict) or set(item) - {"kind", "seat"} or item.get("kind") not in STRADDLE_KINDS \
                or not _is_int(item.get("seat")):
            raise ServiceError("bad_format", f"a straddle is {{kind: {'|'.join(STRADDLE_KINDS)}, seat: number}}, "
                                             f"not {item!r}")
        straddles.append({"kind": item["kind"], "seat": item["seat"]})
    if straddles and kind != "standard":
        raise ServiceError("bad_format", "no straddles in a bomb pot or a flip (000 Allgemein 14)")
    if kind == "standard" and not double and not straddles:
        return None
    return {"kind": kind, "amount": amount, "double_board": double, "straddles": straddles}


def apply_format(table: Table, spec: HandSpec, fmt: dict[str, Any] | None) -> tuple[HandSpec, dict | None]:
    """The next cash hand's spec with the dealer's format applied on top of
    ``build_spec``.

    Args:
        table: the locked table (its stakes, ``straddle``, agreed
            ``straddle_kinds`` and ``run_it_twice_min_pot``).
        spec: the spec ``build_spec`` made.
        fmt: the output of :func:`clean_format`, or None.

    Returns:
        ``(spec, record)``: the new spec (``run_it_twice_min_pot`` from the
        table on every one-board hand, 000 Aktionen 8 c), and the record for
        the ``start`` event, None without a format:
        ``{"kind", "amount", "double_board", "straddles": [{"kind", "seat",
        "amount"}], "dropped": [{"kind", "seat", "reason"}], "citations"}``.
        A bomb pot or flip has no blinds, antes or straddles: every player
        posts ``amount`` (all-in when shorter; 000 Allgemein 14).  Straddles
        are planned by the engine (``formats.plan_straddles``): a live
        straddle takes precedence, button and Mississippi requests are then
        set aside and listed in ``dropped`` (000 Aktionen 1).  The table's
        own live straddle (``Table.straddle``) counts as a live request
        under the gun.

    Raises:
        ServiceError: ``straddle_not_agreed`` (a kind not agreed at the
        opening), ``bad_straddle`` (the engine's refusal: wrong seat, too
        few players, ...), ``bad_format`` (an amount not divisible by the
        chip unit, 000 Allgemein 8) or another engine ``bad_spec`` code.
    """
    from poker.hand.formats import Straddle, plan_straddles  # noqa: PLC0415

    changes: dict[str, Any] = {}
    if table.run_it_twice_min_pot is not None and not (fmt and fmt["double_board"]):
        changes["run_it_twice_min_pot"] = table.run_it_twice_min_pot
    record = None
    try:
        if fmt is not None:
            n = len(spec.seats)
            record = {"kind": fmt["kind"], "amount": fmt["amount"], "double_board": fmt["double_board"],
                      "straddles": [], "dropped": [], "citations": []}
            if fmt["kind"] != "standard":
                # no blinds, antes, straddles or owed big blinds: everyone posts the amount (the owed
                # big blind is covered by it, 000 Einsätze 4 / Allgemein 14)
                changes.update({"blinds_or_straddles": (0,) * n, "antes": (0,) * n, "straddles": (), "posts": (),
                                "stakes": (table.small_blind, table.big_blind), fmt["kind"]: fmt["amount"]})
            if fmt["kind"] != "standard" or fmt["double_board"]:
                record["citations"].append(_cite_000("Allgemein 14"))
            if fmt["double_board"]:
                changes["boards"] = 2
            if fmt["straddles"]:
                agreed = table_straddle_kinds(table)
                for item in fmt["straddles"]:
                    if item["kind"] not in agreed:
                        raise ServiceError(
                            "straddle_not_agreed",
                            f"a {item['kind']} straddle was not agreed at this table's opening (000 Aktionen 1); "
                            f"agreed: {', '.join(agreed) or 'none'}")
                seats = [s.seat for s in spec.seats]
                requests = [Straddle(item["kind"], item["seat"]) for item in fmt["straddles"]]
                if table.straddle and n >= 3 and not any(r.kind == "live" and r.seat == seats[2] for r in requests):
                    requests.insert(0, Straddle("live", seats[2], table.straddle))
                plan = plan_straddles(seats, table.big_blind, requests, spec.rules)
                blinds = list(spec.blinds_or_straddles)
                for position, amount in plan.amounts.items():
                    blinds[position] = amount
                # a straddler owes no extra big blind: his straddle is his post (000 Einsätze 4)
                posts = tuple(p for p in spec.posts if blinds[seats.index(p[0])] == 0)
                changes.update(blinds_or_straddles=tuple(blinds), straddles=plan.applied, posts=posts)
                record["straddles"] = [{"kind": k, "seat": seat, "amount": a} for k, seat, a in plan.applied]
                record["dropped"] = [{"kind": r.kind, "seat": r.seat, "reason": reason} for r, reason in plan.dropped]
                record["citations"].append(_cite_000("Aktionen 1"))
        new = dataclasses.replace(spec, **changes) if changes else spec
    except EngineError as exc:
        raise ServiceError(exc.code, exc.message) from None
    if fmt is not None and fmt["amount"] % new.bet_unit:
        raise ServiceError("bad_format", f"the amount must be divisible by the chip unit {new.bet_unit} "
                                         "(000 Allgemein 8)")
    return new, record


def run_it_twice(table_id: int, agreed: list[int], *, pots: list[int] | None = None, floor: bool = False,
                 actor=None, expected_seq: int | None = None, client_id: str | None = None) -> Outcome:
    """The players agree to run the rest of the board twice (000 Aktionen 8).

    Args:
        agreed: seat numbers of the players who declared it (b: every
            player in the chosen pots must).
        pots: pot indexes to run twice (0 = main pot; default every pot).
            Main and side pots are agreed separately: a pot left out is
            decided on the first board only.
        floor: the floor is present (e: needed with more than two players;
            the floor is informed by the update every dashboard receives, d).

    Recorded as an ``action`` event ``{"type": "run_it_twice", "agreed",
    "pots", "floor", "citations"}`` that the replay applies.  Each chosen
    pot is halved between the two run-outs, the odd chip to the worse
    position (f).

    Errors: ``not_found``, ``stale``, ``no_hand``, ``invalid`` (shapes), and
    the engine's ``run_twice_not_offered`` (the table has no run-it-twice
    minimum, or a double board), ``run_twice_action_possible`` (a),
    ``run_twice_not_agreed`` (b), ``run_twice_pot_too_small`` (c),
    ``run_twice_floor_absent`` (e), ``wrong_phase`` (already agreed, board
    complete), ``bad_action`` (pot indexes), ``no_such_seat``; nothing
    changes on error.
    """
    if not isinstance(agreed, list) or not agreed or not all(_is_int(s) for s in agreed) \
            or len(set(agreed)) != len(agreed):
        raise ServiceError("invalid", "agreed must be a non-empty list of distinct seat numbers")
    if pots is not None and (not isinstance(pots, list) or not all(_is_int(i) for i in pots)):
        raise ServiceError("invalid", "pots must be a list of pot indexes")
    if not isinstance(floor, bool):
        raise ServiceError("invalid", "floor must be true or false")
    with _step(table_id, expected_seq, client_id) as step:
        if dup := _repeated(step):
            return dup
        table, hand, state, last_index, info = _live(step)
        chosen = list(range(len(state.pots))) if pots is None else list(pots)
        payload = {"type": "run_it_twice", "agreed": sorted(agreed), "pots": chosen, "floor": floor,
                   "citations": [_cite_000("Aktionen 8")]}
        try:
            new_state = state.apply(payload)
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message) from None
        event = _append(step, hand, last_index + 1, "action", payload, actor, client_id, new_state, info)
        step.publish(_broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


def set_table_formats(table_id: int, *, straddle_kinds: list[str], run_it_twice_min_pot: int | None,
                      expected_seq: int | None = None) -> Outcome:
    """Agree the table's special formats with the floor at its opening:
    which straddles the players may post (000 Aktionen 1: "Nur in Absprache
    mit dem Floorman und bei Tischöffnung") and the chips worth EUR 500 from
    which they may run it twice (000 Aktionen 8 c; None = not offered).

    Only before the table's first hand or while it is closed.  Errors:
    ``not_found``, ``stale``, ``invalid``, ``hand_in_progress``,
    ``formats_locked`` (the table is open and has dealt hands).
    """
    if not isinstance(straddle_kinds, (list, tuple)) or any(k not in STRADDLE_KINDS for k in straddle_kinds):
        raise ServiceError("invalid", f"straddle kinds are a list of {', '.join(STRADDLE_KINDS)}")
    if run_it_twice_min_pot is not None and (not _is_int(run_it_twice_min_pot) or run_it_twice_min_pot < 0):
        raise ServiceError("invalid", "run_it_twice_min_pot must be None or chips (>= 0)")
    with _step(table_id, expected_seq) as step:
        table = step.row
        if _live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "formats are agreed between hands")
        if table.status == Table.Status.OPEN and table.current_hand_id is not None:
            raise ServiceError("formats_locked", "straddles and run it twice are agreed at the table's opening "
                                                 "(000 Aktionen 1): close the table to agree new ones")
        table.straddle_kinds = ",".join(k for k in STRADDLE_KINDS if k in straddle_kinds)
        table.run_it_twice_min_pot = run_it_twice_min_pot
        return _table_changed(step, "straddle_kinds", "run_it_twice_min_pot")


def format_view(state: HandState) -> dict[str, Any]:
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
    kind = "bomb_pot" if spec.bomb_pot else "flip" if spec.flip else "standard"
    possible = (spec.run_it_twice_min_pot is not None and spec.boards == 1 and state.phase == "board"
                and state.run_twice_pots is None
                and state.can_run_it_twice([s.seat for s in spec.seats], floor=True))
    return {
        "format": {"kind": kind, "amount": spec.forced_pot, "double_board": spec.boards == 2,
                   "straddles": [{"kind": k, "seat": seat, "amount": a} for k, seat, a in spec.straddles],
                   "run_it_twice_min_pot": spec.run_it_twice_min_pot},
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
    from poker.hand.evaluation import best_hand_description, hand_strength  # noqa: PLC0415
    from poker.hand.cards import is_known  # noqa: PLC0415

    spec = state.spec
    awards = {a.get("pot"): a for a in state.history if a.get("type") == "award"}
    results = []
    for index, pot in enumerate(state.pots):
        if len(state.boards_of_pot(index)) != 2:
            continue
        contenders = [p for p in pot.eligible if not state.mucked[p]]
        described: list[str | None] = [None, None]
        if index in awards:
            first = [spec.position_of(s) for s in awards[index].get("winners") or []]
            second = [spec.position_of(s) for s in awards[index].get("winners2") or []] or first
            by_board = [first, second]
        elif len(contenders) == 1:
            by_board = [contenders, contenders]
        elif all(len(b) == 5 and is_known(b) for b in state.boards) \
                and all(is_known(state.hole_cards[p]) for p in contenders):
            by_board = []
            for b, board in enumerate(state.boards):
                strength = {p: hand_strength(state.hole_cards[p], board, spec.game) for p in contenders}
                best = max(strength.values())
                by_board.append([p for p in contenders if strength[p] == best])
                described[b] = best_hand_description(state.hole_cards[by_board[-1][0]], board, spec.game)
        else:
            continue
        unit = spec.split_unit
        units, rest = divmod(pot.amount, unit)
        half, odd = divmod(units, 2)
        chips = [half * unit, half * unit]
        worst = min(p for winners in by_board for p in winners)
        chips[0 if worst in by_board[0] else 1] += odd * unit + rest
        results.append({"pot": index, "amount": pot.amount, "boards": [
            {"board": b + 1, "winners": [spec.seat_of(p) for p in by_board[b]], "chips": chips[b],
             "hand": described[b]} for b in range(2)]})
    return results


# Shows and mucks are still recorded after the pots were awarded (until the next hand starts).
LATE_ACTIONS = frozenset({"show", "muck"})


def apply_action(table_id: int, action: dict[str, Any], *, actor=None, expected_seq: int | None = None,
                 client_id: str | None = None) -> Outcome:
    """Apply one dealer action (an engine action dict, see docs/protocol.md)
    to the table's live hand (shows and mucks also to the hand just completed).

    Errors: ``not_found``, ``stale``, ``no_hand``, ``invalid`` and the
    engine's own refusal codes (``not_your_turn``, ``below_minimum_raise``,
    ``above_stack``, …); on error nothing changes.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ServiceError("invalid", "action must be an object with a 'type'")
    with _step(table_id, expected_seq, client_id) as step:
        if dup := _repeated(step):
            return dup
        table = step.row
        hand = table.current_hand
        if hand is None or (hand.status != Hand.Status.LIVE and action["type"] not in LATE_ACTIONS):
            raise ServiceError("no_hand", "no hand in progress: start one first")
        state, last_index, info = _hand_replay(hand)
        _check_restriction(info, state, action)
        try:
            new_state = state.apply(action)
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ServiceError("invalid", f"malformed action: {exc}") from None
        info = _info_after_action(info, new_state)
        event = _append(step, hand, last_index + 1, "action", action, actor, client_id, new_state, info)
        event = _resolve_held(step, hand, new_state, info, last_index + 1, actor) or event
        step.publish(_broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


# ---------------------------------------------------------------------------
# Floor procedures on the live hand: out of turn, "time", corrections

BETTING_TYPES = frozenset({"fold", "check", "call", "bet", "raise", "all_in"})


def _info_after_action(info: dict[str, Any], state: HandState) -> dict[str, Any]:
    """The replay info after a betting action: the clock stops; a
    restriction lasts for the street it was given on."""
    restricted = {seat: r for seat, r in info.get("restricted", {}).items() if r.get("street") == state.street}
    return dict(info, held=dict(info["held"]), clock=None, restricted=restricted)


def _check_restriction(info: dict[str, Any], state: HandState, action: dict[str, Any]) -> None:
    """Refuse a bet or raise by a player whose released out-of-turn check or
    call forbids it on this street (002 #8, 004 #55: ``may_not_raise``)."""
    r = info.get("restricted", {}).get(action.get("seat"))
    if r and r.get("street") == state.street and action.get("type") in ("bet", "raise"):
        raise ServiceError("restricted", f"seat {action.get('seat')} may only check, call or fold on this street "
                           f"({', '.join(c['label'] for c in r.get('citations', []))})")


def _resolve_held(step: WriteStep[Table], hand: Hand, state: HandState, info: dict[str, Any], index: int, actor
                  ) -> dict[str, Any] | None:
    """When the action reaches a player whose out-of-turn action is held,
    resolve it by the profile (``poker.floor.procedures.resolve_out_of_turn``:
    000 Aktionen 2, 002 #8, 004 #53): append it as his action (binding) or a
    ``note`` that releases it.  Returns the last event appended, or None."""
    from poker.floor.procedures import resolve_out_of_turn  # noqa: PLC0415

    event = None
    table = step.row
    profile = _profile(table)
    while state.phase == "betting" and info["held"]:
        seat = state.to_act_seat
        mine = sorted(i for i, a in info["held"].items() if a.get("seat") == seat)
        if not mine:
            break
        held_index = mine[0]
        held_action = info["held"].pop(held_index)
        intervening = [
            payload for payload in hand.events.filter(index__gt=held_index, kind="action")
            .order_by("index").values_list("payload", flat=True)
            if payload.get("type") in BETTING_TYPES and payload.get("seat") != seat
        ]
        result = resolve_out_of_turn(profile, held_action, intervening, state.to_dict())
        cites = [c for c in result.to_dict()["citations"]]
        payload = None
        if result.status == "binding" and result.action:
            payload = dict(result.action, out_of_turn=held_index, citations=cites,
                           explanation_en=result.explanation_en, explanation_de=result.explanation_de)
            try:
                new_state = state.apply(payload)
            except EngineError:
                payload = None
        index += 1
        if payload is not None:
            state = new_state
            info = _info_after_action(info, state)
            event = _append(step, hand, index, "action", payload, actor, None, state, info)
        else:
            note = {"type": "out_of_turn_released", "of": held_index, "seat": seat, "street": state.street,
                    "restrictions": list(result.restrictions), "citations": cites,
                    "explanation_en": result.explanation_en, "explanation_de": result.explanation_de}
            if "may_not_raise" in result.restrictions:
                info["restricted"] = dict(info.get("restricted", {}),
                                          **{seat: {"street": state.street, "citations": cites}})
            event = _append(step, hand, index, "note", note, actor, None, state, info)
    return event


def _live(step: WriteStep[Table], *, missing: str = "no_hand") -> tuple[Table, Hand, HandState, int, dict]:
    """The live hand of the step's table, replayed: ``(table, hand, state,
    last_index, info)``; ``ServiceError(missing)`` when no hand is live."""
    table = step.row
    hand = _live_hand(table)
    if hand is None:
        raise ServiceError(missing, "no hand in progress")
    return (table, hand, *_hand_replay(hand))


def record_out_of_turn(table_id: int, action: dict[str, Any], *, actor=None, expected_seq: int | None = None,
                       client_id: str | None = None) -> Outcome:
    """Record an action a player took out of turn (the tablet flags it).

    It is held, not applied: when the action reaches the player it is
    resolved by the table's profile (binding unless the action changed in
    between: 000 Aktionen 2, 002 #8, 004 #53).  ``action`` is an engine
    betting action of a seat that is in the hand and not the one to act.

    Errors: ``not_found``, ``stale``, ``no_hand``, ``invalid``,
    ``not_betting_round``, ``in_turn`` (it is his turn: enter the action
    normally), ``already_held``; nothing changes on error.
    """
    if not isinstance(action, dict) or action.get("type") not in BETTING_TYPES:
        raise ServiceError("invalid", "an out-of-turn action is fold, check, call, bet, raise or all_in with a seat")
    with _step(table_id, expected_seq, client_id) as step:
        if dup := _repeated(step):
            return dup
        table, hand, state, last_index, info = _live(step)
        if state.phase != "betting":
            raise ServiceError("not_betting_round", "no betting round is running")
        seat = action.get("seat")
        try:
            pos = state.spec.position_of(seat)
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message) from None
        if state.folded[pos] or state.all_in[pos]:
            raise ServiceError("invalid", f"seat {seat} is not in the betting any more")
        if seat == state.to_act_seat:
            raise ServiceError("in_turn", f"seat {seat} is to act: enter the action normally")
        if any(a.get("seat") == seat for a in info["held"].values()):
            raise ServiceError("already_held", f"seat {seat} already has an out-of-turn action held")
        if action["type"] in ("bet", "raise") and not (isinstance(action.get("to"), int) and action["to"] > 0):
            raise ServiceError("invalid", "a bet or raise needs 'to', a positive integer")
        clean = {k: action[k] for k in ("type", "seat", "to") if k in action}
        info = dict(info, held={**info["held"], last_index + 1: clean})
        event = _append(step, hand, last_index + 1, "out_of_turn", {"action": clean}, actor, client_id, state, info)
        step.publish(_broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


def call_time(table_id: int, seat: int, *, actor=None, expected_seq: int | None = None,
              client_id: str | None = None) -> Outcome:
    """"Time" is called on the player to act: the clock of the table's
    profile starts (004 #29: 25 s + 5 s countdown; 001 6.13: 30 s; where
    the rulebook has none, 60 s and the floor decides).  The deadline is a
    server timestamp in the ``clock`` event and in the snapshot.

    Errors: ``not_found``, ``stale``, ``no_hand``, ``not_your_turn`` (time is
    called only on the player to act), ``clock_running``.
    """
    from poker.floor.procedures import clock_policy  # noqa: PLC0415

    with _step(table_id, expected_seq, client_id) as step:
        if dup := _repeated(step):
            return dup
        table, hand, state, last_index, info = _live(step)
        if state.phase != "betting" or state.to_act_seat != seat:
            raise ServiceError("not_your_turn", f"time is called on the player to act (seat {state.to_act_seat})")
        if info["clock"] is not None:
            raise ServiceError("clock_running", "time is already running")
        policy = clock_policy(_profile(table))
        seconds = policy.total_seconds or DEFAULT_TIME_SECONDS
        deadline = timezone.now() + timezone.timedelta(seconds=seconds)
        payload = {"type": "time_called", "seat": seat, "seconds": seconds,
                   "countdown": policy.countdown_seconds, "deadline": deadline.isoformat(),
                   "floor_decides": policy.total_seconds is None,
                   "citations": policy.to_dict()["citations"]}
        info = dict(info, clock=dict(payload, index=last_index + 1))
        event = _append(step, hand, last_index + 1, "clock", payload, actor, client_id, state, info)
        step.publish(_broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


#: Seconds given when the rulebook sets no clock (000): the floor decides at the end.
DEFAULT_TIME_SECONDS = 60
#: Clients may report the expiry this early (their clocks and the network).
EXPIRY_TOLERANCE_SECONDS = 1.0


def expire_time(table_id: int, *, actor=None, client_id: str | None = None, now=None) -> Outcome:
    """The clock called on a player ran out: apply the profile's effect as
    his action (004 #29: dead facing a bet, else a check; 001 6.13: the hand
    is dead).  Any client showing the countdown may report the expiry; the
    server checks its own deadline, so an early or repeated report changes
    nothing.

    Errors: ``not_found``, ``no_clock`` (none running, or the player acted),
    ``clock_running`` (the deadline has not passed), ``floor_decides`` (the
    rulebook sets no effect: the floor rules).  ``now`` (an aware datetime)
    stands in for the server clock in tests.
    """
    from poker.floor.procedures import time_expired  # noqa: PLC0415

    with _step(table_id, client_id=client_id) as step:
        if dup := _repeated(step):
            return dup
        table, hand, state, last_index, info = _live(step, missing="no_clock")
        clock = info["clock"]
        if clock is None or state.to_act_seat != clock["seat"]:
            raise ServiceError("no_clock", "no clock is running")
        left = (timezone.datetime.fromisoformat(clock["deadline"]) - (now or timezone.now())).total_seconds()
        if left > EXPIRY_TOLERANCE_SECONDS:
            raise ServiceError("clock_running", f"{left:.0f} s left", seconds_left=round(left))
        facing_bet = bool(state.legal().call_amount)
        result = time_expired(_profile(table), facing_bet, clock["seat"])
        if result.action is None:
            raise ServiceError("floor_decides", result.explanation_en)
        payload = dict(result.action, cause="time", citations=result.to_dict()["citations"],
                       explanation_en=result.explanation_en, explanation_de=result.explanation_de)
        new_state = state.apply(payload)
        info = _info_after_action(info, new_state)
        event = _append(step, hand, last_index + 1, "action", payload, actor, client_id, new_state, info)
        event = _resolve_held(step, hand, new_state, info, last_index + 1, actor) or event
        step.publish(_broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


def apply_corrections(table_id: int, items: list[dict[str, Any]], *, ruling_id: int | None, actor=None
                      ) -> tuple[Outcome, list[int]]:
    """Apply a ruling's corrections to the table's current hand as new
    ``correction`` events that cite the ruling (vocabulary:
    :mod:`poker.hand.corrections`).  Nothing recorded is rewritten; the hand is
    replayed with the corrections folded in.

    The current hand may be live or just finished (no next hand started):
    a finished hand that a correction reopens goes back to live and the
    seats get their starting stacks back; one that stays finished gets its
    new final stacks.  ``misdeal`` ends the hand with every chip returned;
    the next hand repeats its button and blinds (``start_hand``).

    Returns ``(outcome, event indices appended)``.  Errors: ``not_found``,
    ``no_hand``, ``bad_correction``, ``correction_conflict`` (a later
    action would be illegal: void it too), ``misdeal_not_allowed`` (after
    substantial action, 004 #36 / 000 Allgemein 9); nothing changes on error.
    """
    if not isinstance(items, list) or not all(isinstance(c, dict) for c in items):
        raise ServiceError("invalid", "corrections must be a list of objects")
    with _step(table_id) as step:
        table = step.row
        hand = table.current_hand
        if hand is None or hand.status == Hand.Status.MISDEAL:
            raise ServiceError("no_hand", "there is no hand to correct")
        state, last_index, info = _hand_replay(hand)
        events = list(hand.events.order_by("index").values_list("index", "kind", "payload"))
        was_complete = hand.status == Hand.Status.COMPLETE
        start_stacks = {s.seat: s.stack for s in state.spec.seats}
        indices = []
        for item in items:
            if item.get("type") not in corrections.CORRECTION_TYPES:
                raise ServiceError("bad_correction", f"unknown correction {item.get('type')!r}")
            if item["type"] == "misdeal" and not hand.snapshot.get("misdeal_possible", True):
                raise ServiceError("misdeal_not_allowed",
                                   "substantial action has taken place: a misdeal can no longer be declared")
            last_index += 1
            payload = dict(item, ruling=ruling_id)
            events.append((last_index, "correction", payload))
            try:
                result = corrections.replay(spec_from_dict(hand.spec), events)
            except corrections.CorrectionError as exc:
                raise ServiceError(exc.code, exc.message) from None
            info = {"held": result.held, "voided": sorted(result.voided), "corrected": True,
                    "misdeal": result.misdeal, "clock": None, "restricted": {}}
            if was_complete and result.state.phase != "complete" and not result.misdeal:
                # A finished hand reopened by the correction is live again.
                hand.status = Hand.Status.LIVE
                hand.ended_at = None
                hand.save(update_fields=["status", "ended_at"])
                for seat in table.seats.filter(number__in=start_stacks):
                    seat.stack = start_stacks[seat.number]
                    seat.save(update_fields=["stack"])
                was_complete = False
            event = _append(step, hand, last_index, "correction", payload, actor, None, result.state, info)
            indices.append(last_index)
        if result.misdeal:
            hand.status = Hand.Status.MISDEAL
            hand.ended_at = timezone.now()
            hand.save(update_fields=["status", "ended_at"])
            if was_complete:
                for seat in table.seats.filter(number__in=start_stacks):
                    seat.stack = start_stacks[seat.number]
                    seat.save(update_fields=["stack"])
        elif was_complete and result.state.phase == "complete":
            _settle(table, hand, result.state)
        step.publish(_broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq), indices


def _commit_table_change(table: Table, fields: tuple[str, ...] = ()) -> Outcome:
    """Save a change of a table the caller locked (``fields`` besides
    ``seq``): bump its seq and broadcast the new snapshot after the commit."""
    table.seq += 1
    table.save(update_fields=[*fields, "seq"])
    _broadcast_on_commit(table)
    return Outcome(table.id, table.seq)


def _table_changed(step: WriteStep[Table], *fields: str) -> Outcome:
    """The step changed the table between hands (``fields`` of the row, its
    seats): one new seq, the snapshot broadcast after the commit."""
    step.bump()
    step.save(*fields)
    step.publish(_broadcast_on_commit, step.row)
    return Outcome(step.row.id, step.row.seq)


def create_table(name: str, *, small_blind: int, big_blind: int, ante: int = 0, big_blind_ante: int = 0,
                 straddle: int = 0, max_seats: int = 9, rules_profile: str = "tda-2024", dealer=None) -> Table:
    """Open a new table with empty seats 1..``max_seats`` (2..10)."""
    if not 2 <= max_seats <= 10:
        raise ServiceError("invalid", "a table has 2 to 10 seats")
    if small_blind < 0 or big_blind <= 0:
        raise ServiceError("invalid", "blinds must be positive")
    with transaction.atomic():
        table = Table.objects.create(name=name, small_blind=small_blind, big_blind=big_blind, ante=ante,
                                     big_blind_ante=big_blind_ante, straddle=straddle, max_seats=max_seats,
                                     rules_profile=rules_profile, dealer=dealer)
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(1, max_seats + 1))
    return table


def seat_player(table_id: int, seat_number: int, player: Player | str, stack: int, *,
                expected_seq: int | None = None) -> Outcome:
    """Seat ``player`` (a Player or a name, created if new) at an empty seat
    with ``stack`` chips.  Only between hands.  Errors: ``not_found``,
    ``stale``, ``seat_taken``, ``no_such_seat``, ``hand_in_progress``,
    ``invalid``."""
    if stack < 0:
        raise ServiceError("invalid", "stack must not be negative")
    with _step(table_id, expected_seq) as step:
        table = step.row
        if _live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "players are seated between hands")
        seat = table.seats.filter(number=seat_number).first()
        if seat is None:
            raise ServiceError("no_such_seat", f"table has no seat {seat_number}")
        if seat.player_id is not None:
            raise ServiceError("seat_taken", f"seat {seat_number} is taken")
        if isinstance(player, str):
            player = Player.objects.create(name=player)
        seat.player = player
        seat.stack = stack
        seat.sitting_out = False
        seat.save()
        return _table_changed(step)


def unseat_player(table_id: int, seat_number: int, *, expected_seq: int | None = None) -> Outcome:
    """Remove the player from a seat between hands (they leave with their stack)."""
    with _step(table_id, expected_seq) as step:
        table = step.row
        if _live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "players leave between hands")
        updated = table.seats.filter(number=seat_number).update(player=None, stack=0, sitting_out=False)
        if not updated:
            raise ServiceError("no_such_seat", f"table has no seat {seat_number}")
        transaction.on_commit(lambda: _call_next_for_seat(table_id, seat_number))
        return _table_changed(step)


def _call_next_for_seat(table_id: int, seat_number: int) -> None:
    """After a seat opened: the seat-opened hooks (the waitlist of the
    table's game calls its next player; 000 Allgemein 15 must-move order).
    A refusal (nobody to call, the room is closed) is ignored: the floor
    calls by hand."""
    hooks.seat_opened(table_id, seat_number)


def set_table_status(table_id: int, status: str, *, expected_seq: int | None = None) -> Outcome:
    """Open or close a table (``Table.Status``).  A table is closed only
    between hands; a closed table leaves the floor dashboard and starts no
    hands.  Errors: ``not_found``, ``stale``, ``hand_in_progress``, ``invalid``."""
    if status not in Table.Status.values:
        raise ServiceError("invalid", f"unknown table status {status!r}")
    with _step(table_id, expected_seq) as step:
        table = step.row
        if status == Table.Status.CLOSED and _live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "finish the hand before closing the table")
        table.status = status
        return _table_changed(step, "status")


def set_seat(table_id: int, seat_number: int, *, player_id: int | None, stack: int = 0,
             sitting_out: bool = False) -> Outcome:
    """Put player ``player_id`` (a ``Player`` id; ``None`` empties the seat)
    with ``stack`` chips into a seat, bump the table's seq and broadcast.

    For apps that seat players themselves (tournaments: seat draws, moves,
    breaking, rebuys).  Between hands any seat may change; while a hand is
    live only a seat that is not dealt in that hand (a player moved in waits
    for the next hand).  Errors: ``not_found``, ``no_such_seat``,
    ``seat_taken`` (another player holds the seat), ``hand_in_progress``,
    ``invalid``.
    """
    if stack < 0:
        raise ServiceError("invalid", "stack must not be negative")
    with _step(table_id) as step:
        table = step.row
        seat = table.seats.filter(number=seat_number).first()
        if seat is None:
            raise ServiceError("no_such_seat", f"table has no seat {seat_number}")
        live = _live_hand(table)
        if live is not None and any(int(s["seat"]) == seat_number for s in live.spec.get("seats", [])):
            raise ServiceError("hand_in_progress", f"seat {seat_number} is in the live hand")
        if player_id is not None and seat.player_id not in (None, player_id):
            raise ServiceError("seat_taken", f"seat {seat_number} is taken")
        seat.player_id = player_id
        seat.stack = stack if player_id is not None else 0
        seat.sitting_out = sitting_out if player_id is not None else False
        seat.save(update_fields=["player", "stack", "sitting_out"])
        _seat_cache.pop(table.id, None)
        return _table_changed(step)
