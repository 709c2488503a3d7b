"""Guided procedures the dealer finishes at the table (issue 24): an exposed card replaced, a
misdeal declared while one may still be, as the table's house rules let the dealer do without a
floor person (``poker.floor.guided.dealer_may_finish``: 000 Allgemein 9, 001 6.25, 003 "Miss-Deal",
004 #35). Everything else a procedure ends in still goes to the floor (a floor call).
"""

from __future__ import annotations

from typing import Any

from poker.floor.procedures import HandFacts, Outcome, ProcedureError, walk
from poker.hand import HandState, corrections
from tables.models import Hand, Table
from tables.services.floor import apply_corrections
from tables.services.replay import hand_replay, house_profile
from tables.services.steps import Outcome as StepOutcome
from tables.services.steps import append_event, broadcast_on_commit, live_replay, repeated_outcome, table_step
from tables.writepath import ServiceError


def hand_facts(state: HandState) -> HandFacts:
    """What the tablet knows of a hand for the guided steps: its street, the standing betting
    words since the deal (blinds not counted), whose turn it is and whether that player faces an
    all-in bet (a player all-in whose bet is above his)."""
    words = tuple(corrections.acted_words(list(enumerate(state.history))))
    pos = state.to_act
    facing = False
    if pos is not None:
        bets = state.bets
        all_in = state.all_in  # every game's state (stud's too) flags its players all-in
        facing = any(all_in[i] and bets[i] > bets[pos] for i in range(len(bets)) if i != pos)
    return HandFacts(state.street, words, state.to_act_seat, facing)


def facts_of_table(table: Table) -> HandFacts | None:
    """:func:`hand_facts` of the table's live hand (replayed, cached), None between hands."""
    hand = table.current_hand
    if hand is None or hand.status != Hand.Status.LIVE:
        return None
    state, _last_index, _info = hand_replay(hand)
    return hand_facts(state)


def _dealer_outcome(table: Table, state: HandState, procedure: str, answers: list[str]) -> Outcome:
    profile = house_profile(table)
    try:
        node = walk(profile, procedure, answers, hand_facts(state))
    except ProcedureError as exc:
        raise ServiceError("invalid", str(exc)) from None
    if not isinstance(node, Outcome):
        raise ServiceError("invalid", f"the procedure asks more: {node.question_en}")
    if not node.dealer_finishes:
        raise ServiceError("floor_decides", "the house rules leave this to the floor: call the floor")
    return node


def _record(procedure: str, answers: list[str], node: Outcome) -> dict[str, Any]:
    return {
        "procedure": procedure,
        "answers": list(answers),
        "by": "dealer",
        "summary_en": node.summary_en,
        "summary_de": node.summary_de,
        "instructions_en": node.instructions_en,
        "instructions_de": node.instructions_de,
        "citations": [c.to_dict() for c in node.citations],
    }


def finish_procedure(
    table_id: int,
    procedure: str,
    answers: list[str],
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
) -> StepOutcome:
    """The dealer finishes a guided procedure at the table.

    ``procedure``: a key of ``poker.floor.guided`` (``exposed_card``, ``misdeal``); ``answers``: the
    option keys the dealer tapped, without the questions the hand answers (is the flop out, how
    many actions: :func:`hand_facts`). The outcome must be one the house rules let the dealer
    finish: a misdeal is recorded as a ``misdeal`` correction by the dealer (every chip goes back,
    the hand is dealt again), a replaced exposed card as a ``note`` of type ``procedure``; both
    carry the summary and the rules cited.

    Errors: ``not_found``, ``stale``, ``no_hand``, ``invalid`` (an unknown procedure or answer, or
    a question still open), ``floor_decides`` (the outcome is the floor's: call the floor),
    ``misdeal_not_allowed``; nothing changes on error.
    """
    with table_step(table_id, expected_seq, client_id) as step:
        if dup := repeated_outcome(step):
            return dup
        table, hand, state, last_index, info = live_replay(step)
        node = _dealer_outcome(table, state, procedure, answers)
        record = _record(procedure, answers, node)
        if not any(c.get("type") == "misdeal" for c in node.corrections):
            event = append_event(
                step, hand, last_index + 1, "note", {"type": "procedure", **record}, actor, client_id, state, info
            )
            step.publish(broadcast_on_commit, table, hand, event)
            return StepOutcome(table.id, table.seq)
    outcome, _indices = apply_corrections(table_id, [{"type": "misdeal", **record}], ruling_id=None, actor=actor)
    return outcome
