"""Dealing and playing a hand: the next hand's spec, the deal (dead hands
included), the dealer's actions.
"""

from __future__ import annotations

from typing import Any

from poker.floor.absent import absent_player
from poker.hand import AnySpec, AnyState, EngineError, HandSpec, SeatSpec, corrections
from poker.hand import start_hand as start_engine_hand
from poker.hand.undo import undo_decision, undo_history
from poker.houserules import Citation
from tables import hooks, sql
from tables.models import Hand, Seat, Table
from tables.services import fastpath
from tables.services.floor import check_restriction, info_after_action, resolve_held
from tables.services.formats import apply_format, clean_format
from tables.services.replay import hand_replay, house_profile, rules_for_table, spec_from_dict, spec_to_dict
from tables.services.snapshots import dealt_in_seats, next_button_seat, seat_cache, seat_dict
from tables.services.steps import (
    Outcome,
    append_event,
    broadcast_on_commit,
    deal_event,
    live_hand,
    repeated_outcome,
    table_step,
)
from tables.writepath import ServiceError


def build_spec(table: Table, seats: list[Seat], button: int) -> HandSpec:
    """The engine spec of the next hand at ``table`` with the button at seat
    ``button``: stakes from the table, stacks from the seats."""
    live = dealt_in_seats(seats)
    spec = HandSpec.standard(
        [SeatSpec(seat=s.number, player=s.occupant.name, stack=s.stack) for s in sorted(live, key=lambda s: s.number)],
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


def _check_spec_matches_seats(spec: AnySpec, seats: list[Seat]) -> None:
    by_number = {s.number: s for s in seats}
    for seat_spec in spec.seats:
        seat = by_number.get(seat_spec.seat)
        if seat is None or seat.player is None:
            raise ServiceError("spec_mismatch", f"seat {seat_spec.seat} has no player at this table")
        if seat.player.name != seat_spec.player or seat.stack != seat_spec.stack:
            raise ServiceError(
                "spec_mismatch",
                f"seat {seat_spec.seat}: table has {seat.player.name} with {seat.stack}, "
                f"spec says {seat_spec.player} with {seat_spec.stack}",
            )


def start_hand(
    table_id: int,
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
    spec: dict[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
    format: dict[str, Any] | None = None,
) -> Outcome:  # the protocol's word
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
    with table_step(table_id, expected_seq, client_id) as step:
        if dup := repeated_outcome(step):
            return dup
        table = step.row
        if table.status != Table.Status.OPEN:
            raise ServiceError("table_closed", "the table is closed")
        if live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "finish the current hand first")
        hooks.before_deal(table)  # e.g. a disqualified player's seat opens (000 Strafen 4)
        seat_cache.pop(table.id, None)
        seats = sql.seats_with_players(table)
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
                raise ServiceError(
                    "redeal", "the misdealt hand is dealt again as it was, in its own format: start it without a format"
                )
        format_record = None
        seats_as_read = True  # the seats read above are still the table's (no provider changed them)
        if spec is not None:
            hand_spec = spec_from_dict(spec)
            _check_spec_matches_seats(hand_spec, seats)
            dealer = getattr(hand_spec, "button_seat", None) or getattr(hand_spec, "dealer_seat", None)  # stud: dealer
            button = dealer or hand_spec.seats[-1].seat
        else:
            hand_spec, button, format_record, seats_as_read = next_spec(table, seats, fmt)
        try:
            state = start_engine_hand(hand_spec)  # the one HandState, a HandSpec's or a StudSpec's game
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message) from None
        number = table.current_hand.number + 1 if table.current_hand else 1
        metadata, start = start_record(hand_spec, seats, button, format_record, metadata)
        # The hand, its start event and snapshot, the table's button and seq: one statement.
        hand, event = deal_event(
            step, number, spec_to_dict(hand_spec), metadata, button, start, actor, client_id, state
        )
        if seats_as_read:  # the snapshot's seats without reading them again (one statement less per deal)
            seat_cache[table.id] = (hand.id, [seat_dict(s) for s in seats])
        index = 0
        for kill in dead_hands(table, seats, state):
            if state.phase == "complete":
                break
            state = state.apply(kill)
            index += 1
            event = append_event(step, hand, index, "action", kill, actor, None, state)
        step.publish(broadcast_on_commit, table, hand, event)
        fastpath.remember_on_commit(table, hand, seats if seats_as_read else None)
        return Outcome(table.id, table.seq)


def next_spec(
    table: Table, seats: list[Seat], fmt: dict[str, Any] | None
) -> tuple[AnySpec, int, dict[str, Any] | None, bool]:
    """The next hand's spec at ``table`` (its row as locked) from its ``seats`` (``Seat`` rows, players
    loaded, in seat order) and the dealer's format ``fmt`` (:func:`clean_format`'s, or None): a
    tournament's hand from its provider (``tables.hooks.next_hand_spec``), else the cash game's
    (:func:`build_spec` with the format applied).  Returns ``(spec, button seat, the format's record
    for the start event or None, whether the seats are still as read)``: a provider may have opened
    seats (a missed rebuy).  Errors: ``not_enough_players``, ``format_not_allowed`` and the format's
    own (``apply_format``)."""
    hand_spec = hooks.next_hand_spec(table, seats)
    if hand_spec is not None:
        if fmt is not None:
            raise ServiceError(
                "format_not_allowed", "this table's hands are dealt by its tournament: no special formats"
            )
        return hand_spec, hand_spec.button_seat, None, False
    button = next_button_seat(table, seats)
    if button is None:
        raise ServiceError("not_enough_players", "at least two players with chips are needed")
    cash = build_spec(table, seats, button)
    if cash.game == "stud":  # a StudSpec (room.services.stakes.stud_spec)
        if fmt is not None:
            raise ServiceError("format_not_allowed", "Seven Card Stud is dealt without special formats")
        return cash, button, None, True
    cash, format_record = apply_format(table, cash, fmt)
    return cash, button, format_record, True


def start_record(
    hand_spec: AnySpec,
    seats: list[Seat],
    button: int,
    format_record: dict[str, Any] | None,
    metadata: dict[str, Any] | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(the hand's metadata, its start event's payload)`` for a hand dealt from ``hand_spec`` at the
    ``seats`` (``Seat`` rows, players loaded) with the button on ``button``: the metadata adds who
    was dealt in, by player id (``{"player_ids": {"<seat>": id}}``; issue 28: hours from the hands,
    merge and erase follow the player) to the caller's ``metadata``; the start is ``{"type":
    "start", "button", "format"?}``."""
    names = {s.seat: s.player for s in hand_spec.seats}
    ids = {str(s.number): s.player.id for s in seats if s.player and names.get(s.number) == s.player.name}
    start: dict[str, Any] = {"type": "start", "button": button}
    if format_record is not None:
        start["format"] = format_record
    return {**(metadata or {}), "player_ids": ids}, start


def dead_hands(table: Table, seats: list[Seat], state: AnyState) -> list[dict[str, Any]]:
    """Kill actions for the seats dealt in whose hand is dead from the start:
    those of the dead-hands hooks (``tables.hooks``: a player sitting out a
    penalty, 004 #71, 001 6.37) and then an absent player's (blinds and
    antes taken from his stack, dead hand: 000 Allgemein 6; at tournament
    tables 001 Sitzverteilung / 6.14, 004 #30) -- except, under 003, an absent
    player put all-in by his blind ("Auto All-In": not folded, he plays for the
    main pot; ``poker.floor.absent.absent_player``).
    """

    dealt = {s.seat for s in state.spec.seats}
    kills = hooks.dead_hands(table, seats, state)
    killed = {kill["seat"] for kill in kills}
    absent = [s for s in seats if s.number in dealt and s.absent and s.number not in killed]
    if absent:
        # The rule of the table's house-rule profile: 001 Sitzverteilung and 6.14 (Wynental
        # tournaments), 004 #30 (MunotPoker), else the cash rule 000 Allgemein 6.
        profile = house_profile(table)
        rule = {
            "wynental": (("wynental", "Sitzverteilung"), ("wynental", "6.14")),
            "munotpoker": (("munotpoker", "#30"),),
            "nlhe": (("nlhe", "Ausserordentliche und ordentliche Handlungen der Spieler"),),
        }.get(profile.rulebook, (("casino-cash", "Allgemein 6"),))
        citations = [Citation(*c).to_dict() for c in rule]
        order = [s.seat for s in state.spec.seats]
        before = {s.seat: s.stack for s in state.spec.seats}  # a HandSpec's or a StudSpec's starting stacks
        after = dict(zip(order, state.stacks))
        for seat in absent:
            posted = before[seat.number] - after[seat.number]
            if not absent_player(profile, stack=before[seat.number], blind=posted).hand_dead:
                continue
            kills.append({"type": "kill", "seat": seat.number, "reason": "absent", "citations": citations})
    return kills


# Shows and mucks are still recorded after the pots were awarded (until the next hand starts).
LATE_ACTIONS = frozenset({"show", "muck"})


def apply_action(
    table_id: int,
    action: dict[str, Any],
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
    fast: bool = True,
) -> Outcome:
    """Apply one dealer action (an engine action dict, see docs/protocol.md)
    to the table's live hand (shows and mucks also to the hand just completed).

    A betting action of a hand whose table this process wrote last (the one
    ending the hand too, where no app's hook has work at its end) is written
    in one statement (``fast``: :mod:`tables.services.fastpath`);
    everything else, and anything that path declines, takes the locked write
    step.  Both record the same event and broadcast the same snapshot.

    Errors: ``not_found``, ``stale``, ``no_hand``, ``invalid`` and the
    engine's own refusal codes (``not_your_turn``, ``below_minimum_raise``,
    ``above_stack``, …); on error nothing changes.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ServiceError("invalid", "action must be an object with a 'type'")
    if fast:
        outcome = fastpath.try_action(
            table_id, action, actor=actor, expected_seq=expected_seq, client_id=client_id, right=None
        )
        if outcome is not None:
            return outcome
    with table_step(table_id, expected_seq, client_id) as step:
        if dup := repeated_outcome(step):
            return dup
        table = step.row
        hand = table.current_hand
        if hand is None or (hand.status != Hand.Status.LIVE and action["type"] not in LATE_ACTIONS):
            raise ServiceError("no_hand", "no hand in progress: start one first")
        state, last_index, info = hand_replay(hand)
        check_restriction(info, state, action)
        try:
            new_state = state.apply(action)
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ServiceError("invalid", f"malformed action: {exc}") from None
        info = info_after_action(info, new_state)
        event = append_event(step, hand, last_index + 1, "action", action, actor, client_id, new_state, info)
        event = resolve_held(step, hand, new_state, info, last_index + 1, actor) or event
        step.publish(broadcast_on_commit, table, hand, event)
        fastpath.remember_on_commit(table, hand)
        return Outcome(table.id, table.seq)


_STREETS = ("preflop", "flop", "turn", "river")


def _streets_of(events: list[tuple[int, str, dict]]) -> dict[int, str]:
    """Event index -> the street a standing action was taken on (the boards dealt before it)."""
    effective = corrections.effective_actions(events)[0]
    dealt, out = 0, {}
    for index, action in effective:
        out[index] = _STREETS[min(dealt, 3)]
        if action.get("type") == "board":
            dealt += 1
    return out


def undo_options(table_id: int) -> dict[str, Any]:
    """The dealer's history of the current hand to take an entry back from
    (nothing changes).

    Returns ``{"hand": id | None, "seq", "actions": [{"index", "action",
    "street", "allowed", "code", "reason_en", "reason_de", "citations"}, ...]}``,
    newest first (:func:`poker.hand.undo.undo_history`).  Errors: ``not_found``.
    """
    table = Table.objects.select_related("current_hand").filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", f"no table {table_id}")
    hand = table.current_hand
    if hand is None or hand.status == Hand.Status.MISDEAL:
        return {"hand": None, "seq": table.seq, "actions": []}
    events = list(hand.events.order_by("index").values_list("index", "kind", "payload"))
    try:
        history = undo_history(house_profile(table), events)
    except corrections.CorrectionError as exc:
        raise ServiceError(exc.code, exc.message) from None
    streets = _streets_of(events)
    return {
        "hand": hand.id,
        "seq": table.seq,
        "actions": [dict(d.to_dict(), street=streets.get(d.index or 0)) for d in history],
    }


def undo_action(
    table_id: int,
    index: int | None = None,
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
) -> Outcome:
    """The dealer takes back the action recorded as event ``index`` (None:
    the last betting action that stands): a new ``correction`` event
    ``{"type": "undo", "index", "seat", "action", "by": "dealer",
    "citations"}`` citing the profile's ``dealer_undo`` rule; the replay
    leaves the action out and the hand's snapshot flags it (``undone``).
    Nothing recorded is rewritten.

    When the profile allows it is :func:`poker.hand.undo.undo_decision`
    (until the next player acts or a card is dealt: 000 Aktionen 2, 002 #5
    and #10, 004 #49 and #52).  A hand the undone action had finished (a
    fold that left one player) is live again and the seats get their
    starting stacks back, as with a floor correction.

    Errors: ``not_found``, ``stale``, ``no_hand``, ``nothing_to_undo``,
    ``not_undoable``, ``next_player_acted``, ``card_dealt``,
    ``undo_not_allowed`` (with ``reason_de`` and ``index``),
    ``correction_conflict``; nothing changes on error.
    """
    with table_step(table_id, expected_seq, client_id) as step:
        if dup := repeated_outcome(step):
            return dup
        table = step.row
        hand = table.current_hand
        if hand is None or hand.status == Hand.Status.MISDEAL:
            raise ServiceError("no_hand", "there is no hand to take an action back from")
        events = list(hand.events.order_by("index").values_list("index", "kind", "payload"))
        try:
            decision = undo_decision(house_profile(table), events, index)
        except corrections.CorrectionError as exc:
            raise ServiceError(exc.code, exc.message) from None
        if not decision.allowed:
            raise ServiceError(decision.code, decision.reason_en, reason_de=decision.reason_de, index=decision.index)
        last_index = events[-1][0]
        action = decision.action or {}
        payload = {
            "type": "undo",
            "index": decision.index,
            "seat": action.get("seat"),
            "action": action,
            "by": "dealer",
            "citations": [c.to_dict() for c in decision.citations],
        }
        events.append((last_index + 1, "correction", payload))
        try:
            result = corrections.replay(spec_from_dict(hand.spec), events)
        except corrections.CorrectionError as exc:
            raise ServiceError(exc.code, exc.message) from None
        info = {
            "held": result.held,
            "voided": sorted(result.voided),
            "corrected": True,
            "misdeal": result.misdeal,
            "clock": None,
            "restricted": {},
            "undone": result.undone,
        }
        if hand.status == Hand.Status.COMPLETE and result.state.phase != "complete":
            # The undone action had finished the hand: it is live again, the seats as dealt.
            hand.status = Hand.Status.LIVE
            hand.ended_at = None
            hand.save(update_fields=["status", "ended_at"])
            start_stacks = {s.seat: s.stack for s in result.state.spec.seats}
            for seat in table.seats.filter(number__in=start_stacks):
                seat.stack = start_stacks[seat.number]
                seat.save(update_fields=["stack"])
            seat_cache.pop(table.id, None)
        event = append_event(step, hand, last_index + 1, "correction", payload, actor, client_id, result.state, info)
        step.publish(broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)
