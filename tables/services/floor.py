"""Floor procedures on the live hand: actions out of turn (000 Aktionen 2, 002
#8, 004 #53), "time" (004 #29, 001 6.13) and corrections by a ruling.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from poker.floor.procedures import clock_policy, resolve_out_of_turn, time_expired
from poker.hand import EngineError, HandState, corrections
from tables.models import Hand, Table
from tables.services.replay import hand_replay, house_profile, spec_from_dict
from tables.services.steps import (
    Outcome,
    append_event,
    broadcast_on_commit,
    live_replay,
    repeated_outcome,
    settle_stacks,
    table_step,
)
from tables.writepath import ServiceError, WriteStep

BETTING_TYPES = frozenset({"fold", "check", "call", "bet", "raise", "all_in"})


def info_after_action(info: dict[str, Any], state: HandState) -> dict[str, Any]:
    """The replay info after a betting action: the clock stops; a
    restriction lasts for the street it was given on."""
    restricted = {seat: r for seat, r in info.get("restricted", {}).items() if r.get("street") == state.street}
    return dict(info, held=dict(info["held"]), clock=None, restricted=restricted)


def check_restriction(info: dict[str, Any], state: HandState, action: dict[str, Any]) -> None:
    """Refuse a bet or raise by a player whose released out-of-turn check or
    call forbids it on this street (002 #8, 004 #55: ``may_not_raise``)."""
    r = info.get("restricted", {}).get(action.get("seat"))
    if r and r.get("street") == state.street and action.get("type") in ("bet", "raise"):
        raise ServiceError(
            "restricted",
            f"seat {action.get('seat')} may only check, call or fold on this street "
            f"({', '.join(c['label'] for c in r.get('citations', []))})",
        )


def resolve_held(
    step: WriteStep[Table], hand: Hand, state: HandState, info: dict[str, Any], index: int, actor
) -> dict[str, Any] | None:
    """When the action reaches a player whose out-of-turn action is held,
    resolve it by the profile (``poker.floor.procedures.resolve_out_of_turn``:
    000 Aktionen 2, 002 #8, 004 #53): append it as his action (binding) or a
    ``note`` that releases it.  Returns the last event appended, or None."""

    event = None
    table = step.row
    profile = house_profile(table)
    while state.phase == "betting" and info["held"]:
        seat = state.to_act_seat
        mine = sorted(i for i, a in info["held"].items() if a.get("seat") == seat)
        if not mine:
            break
        held_index = mine[0]
        held_action = info["held"].pop(held_index)
        intervening = [
            payload
            for payload in hand.events.filter(index__gt=held_index, kind="action")
            .order_by("index")
            .values_list("payload", flat=True)
            if payload.get("type") in BETTING_TYPES and payload.get("seat") != seat
        ]
        result = resolve_out_of_turn(profile, held_action, intervening, state.to_dict())
        cites = [c for c in result.to_dict()["citations"]]
        payload = None
        if result.status == "binding" and result.action:
            payload = dict(
                result.action,
                out_of_turn=held_index,
                citations=cites,
                explanation_en=result.explanation_en,
                explanation_de=result.explanation_de,
            )
            try:
                new_state = state.apply(payload)
            except EngineError:
                payload = None
        index += 1
        if payload is not None:
            state = new_state
            info = info_after_action(info, state)
            event = append_event(step, hand, index, "action", payload, actor, None, state, info)
        else:
            note = {
                "type": "out_of_turn_released",
                "of": held_index,
                "seat": seat,
                "street": state.street,
                "restrictions": list(result.restrictions),
                "citations": cites,
                "explanation_en": result.explanation_en,
                "explanation_de": result.explanation_de,
            }
            if "may_not_raise" in result.restrictions:
                info["restricted"] = {
                    **info.get("restricted", {}),
                    seat: {"street": state.street, "citations": cites},
                }
            event = append_event(step, hand, index, "note", note, actor, None, state, info)
    return event


def record_out_of_turn(
    table_id: int, action: dict[str, Any], *, actor=None, expected_seq: int | None = None, client_id: str | None = None
) -> Outcome:
    """Record an action a player took out of turn (the tablet flags it).

    It is held, not applied: when the action reaches the player it is
    resolved by the table's profile (binding unless the action changed in
    between: 000 Aktionen 2, 002 #8, 004 #53).  ``action`` is an engine
    betting action of a seat that is in the hand and not the one to act.

    Errors: ``not_found``, ``stale``, ``no_hand``, ``invalid``,
    ``not_betting_round``, ``in_turn`` (it is his turn: enter the action
    normally), ``already_held``, ``above_stack`` (a bet or raise to more
    than the seat's chips); nothing changes on error.
    """
    if not isinstance(action, dict) or action.get("type") not in BETTING_TYPES:
        raise ServiceError("invalid", "an out-of-turn action is fold, check, call, bet, raise or all_in with a seat")
    with table_step(table_id, expected_seq, client_id) as step:
        if dup := repeated_outcome(step):
            return dup
        table, hand, state, last_index, info = live_replay(step)
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
        to = action.get("to")
        if action["type"] in ("bet", "raise") and not (isinstance(to, int) and not isinstance(to, bool) and to > 0):
            raise ServiceError("invalid", "a bet or raise needs 'to', a positive integer")
        if action["type"] in ("bet", "raise") and isinstance(to, int) and to > state.stacks[pos] + state.bets[pos]:
            raise ServiceError(
                "above_stack",
                f"{to} is more than seat {seat} has: the all-in is to {state.stacks[pos] + state.bets[pos]}",
            )
        clean = {k: action[k] for k in ("type", "seat", "to") if k in action}
        info = dict(info, held={**info["held"], last_index + 1: clean})
        event = append_event(
            step, hand, last_index + 1, "out_of_turn", {"action": clean}, actor, client_id, state, info
        )
        step.publish(broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


def call_time(
    table_id: int, seat: int, *, actor=None, expected_seq: int | None = None, client_id: str | None = None
) -> Outcome:
    """ "Time" is called on the player to act: the clock of the table's
    profile starts (004 #29: 25 s + 5 s countdown; 001 6.13: 30 s; where
    the rulebook has none, 60 s and the floor decides).  The deadline is a
    server timestamp in the ``clock`` event and in the snapshot.

    Errors: ``not_found``, ``stale``, ``no_hand``, ``not_your_turn`` (time is
    called only on the player to act), ``clock_running``.
    """

    with table_step(table_id, expected_seq, client_id) as step:
        if dup := repeated_outcome(step):
            return dup
        table, hand, state, last_index, info = live_replay(step)
        if state.phase != "betting" or state.to_act_seat != seat:
            raise ServiceError("not_your_turn", f"time is called on the player to act (seat {state.to_act_seat})")
        if info["clock"] is not None:
            raise ServiceError("clock_running", "time is already running")
        policy = clock_policy(house_profile(table))
        seconds = policy.total_seconds or DEFAULT_TIME_SECONDS
        deadline = timezone.now() + timedelta(seconds=seconds)
        payload = {
            "type": "time_called",
            "seat": seat,
            "seconds": seconds,
            "countdown": policy.countdown_seconds,
            "deadline": deadline.isoformat(),
            "floor_decides": policy.total_seconds is None,
            "citations": policy.to_dict()["citations"],
        }
        info = dict(info, clock=dict(payload, index=last_index + 1))
        event = append_event(step, hand, last_index + 1, "clock", payload, actor, client_id, state, info)
        step.publish(broadcast_on_commit, table, hand, event)
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

    with table_step(table_id, client_id=client_id) as step:
        if dup := repeated_outcome(step):
            return dup
        table, hand, state, last_index, info = live_replay(step, missing="no_clock")
        clock = info["clock"]
        if clock is None or state.to_act_seat != clock["seat"]:
            raise ServiceError("no_clock", "no clock is running")
        left = (datetime.fromisoformat(clock["deadline"]) - (now or timezone.now())).total_seconds()
        if left > EXPIRY_TOLERANCE_SECONDS:
            raise ServiceError("clock_running", f"{left:.0f} s left", seconds_left=round(left))
        facing_bet = bool(state.legal().call_amount)
        result = time_expired(house_profile(table), facing_bet, clock["seat"])
        if result.action is None:
            raise ServiceError("floor_decides", result.explanation_en)
        payload = dict(
            result.action,
            cause="time",
            citations=result.to_dict()["citations"],
            explanation_en=result.explanation_en,
            explanation_de=result.explanation_de,
        )
        new_state = state.apply(payload)
        info = info_after_action(info, new_state)
        event = append_event(step, hand, last_index + 1, "action", payload, actor, client_id, new_state, info)
        event = resolve_held(step, hand, new_state, info, last_index + 1, actor) or event
        step.publish(broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


def apply_corrections(
    table_id: int, items: list[dict[str, Any]], *, ruling_id: int | None, actor=None
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
    with table_step(table_id) as step:
        table = step.row
        hand = table.current_hand
        if hand is None or hand.status == Hand.Status.MISDEAL:
            raise ServiceError("no_hand", "there is no hand to correct")
        state, last_index, info = hand_replay(hand)
        events = list(hand.events.order_by("index").values_list("index", "kind", "payload"))
        was_complete = hand.status == Hand.Status.COMPLETE
        start_stacks = {s.seat: s.stack for s in state.spec.seats}
        indices = []
        for item in items:
            if item.get("type") not in corrections.CORRECTION_TYPES:
                raise ServiceError("bad_correction", f"unknown correction {item.get('type')!r}")
            if item["type"] == "misdeal" and not hand.snapshot.get("misdeal_possible", True):
                raise ServiceError(
                    "misdeal_not_allowed", "substantial action has taken place: a misdeal can no longer be declared"
                )
            last_index += 1
            payload = dict(item, ruling=ruling_id)
            events.append((last_index, "correction", payload))
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
            }
            if was_complete and result.state.phase != "complete" and not result.misdeal:
                # A finished hand reopened by the correction is live again.
                hand.status = Hand.Status.LIVE
                hand.ended_at = None
                hand.save(update_fields=["status", "ended_at"])
                for seat in table.seats.filter(number__in=start_stacks):
                    seat.stack = start_stacks[seat.number]
                    seat.save(update_fields=["stack"])
                was_complete = False
            event = append_event(step, hand, last_index, "correction", payload, actor, None, result.state, info)
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
            settle_stacks(table, hand, result.state)
        step.publish(broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq), indices
