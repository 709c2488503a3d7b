"""Guided step-by-step procedures for the dealer tablet: premature and irregular boards,
exposed cards, misdeals (000 Allgemein 9, 001 6.25, 003 "Miss-Deal"/"Burn Cards",
004 #35-#39, TDA 35-39). Standard library only.

The shapes live in :mod:`.procedure_model`, the misdeal and exposed-card procedures in
:mod:`.misdeal`, the premature board in :mod:`.premature`; here are the smaller procedures
(hidden chips, premature declaration, stack count), the registry and :func:`walk`."""

from __future__ import annotations

from typing import Any

from poker.houserules import HouseRules
from poker.i18n import _N, both

from .common import ProcedureError
from .declarations import premature_declaration, stack_count
from .hidden_chips import hidden_chips_ruling
from .misdeal import exposed_outcome, exposed_procedure, misdeal_procedure
from .premature import premature_procedure
from .procedure_model import (
    FACTS,
    HandFacts,
    Option,
    Outcome,
    Procedure,
    Step,
    answer_from_facts,
    dealer_may_finish,
)

__all__ = [
    "FACTS",
    "HandFacts",
    "Option",
    "Outcome",
    "Procedure",
    "Step",
    "answer_from_facts",
    "dealer_may_finish",
    "exposed_outcome",
    "for_hand",
    "get_procedure",
    "procedures_for",
    "walk",
]


def for_hand(procedure: Procedure, facts: HandFacts) -> Procedure:
    """``procedure`` with every question the hand answers taken out: an option that leads to
    such a step leads straight to where the hand's answer goes (is the flop out, how many
    actions were taken: the tablet knows both). The steps left are the dealer's questions."""

    def resolve(nxt: Any) -> Any:
        seen = 0
        while isinstance(nxt, str) and seen < 20:
            step = procedure.steps[nxt]
            key = answer_from_facts(step, facts)
            if key is None:
                return nxt
            nxt = next(o.next for o in step.options if o.key == key)
            seen += 1
        return nxt

    if procedure.key == "stack_count":
        return _stack_count_for_hand(procedure, facts)
    steps: dict[str, Step] = {}
    for key, step in procedure.steps.items():
        if step.fact:
            continue
        options = tuple(Option(o.key, o.label_en, o.label_de, resolve(o.next)) for o in step.options)
        steps[key] = Step(step.key, step.question_en, step.question_de, options)
    return Procedure(procedure.key, procedure.title_en, procedure.title_de, procedure.first, steps)


def _ruling_outcome(ruling: Any) -> Outcome:
    """An outcome that says what a pure ruling says (its explanation and citations)."""
    return Outcome(ruling.explanation_en, ruling.explanation_de, "", "", (), tuple(ruling.citations))


def _hidden_chips_procedure(profile: HouseRules) -> Procedure | None:
    """Hidden chips at an all-in (002 #15-#17, 004 #62 with #49): only where the rulebook has
    the rule (``hidden_chips_at_all_in``); the chip amounts are :func:`hidden_chips_ruling`'s."""
    if profile.hidden_chips_at_all_in is None:
        return None

    def outcome(wins: bool, counted: bool = False) -> Outcome:
        return _ruling_outcome(
            hidden_chips_ruling(
                profile,
                declared=2,
                hidden=1,
                opponent_stack=4,
                all_in_player_wins=wins,
                floor_counts_hidden=counted,
            )
        )

    steps = {
        "won": Step(
            "won",
            *both(_N("Did the all-in player win the pot?")),
            (Option("yes", *both(_N("Yes")), outcome(True)), Option("no", *both(_N("No")), outcome(False))),
        )
    }
    first = "won"
    if profile.hidden_chips_at_all_in == "floor_decides_forfeited":
        steps["counted"] = Step(
            "counted",
            *both(_N("Does the floor count the hidden chips as part of the all-in?")),
            (Option("yes", *both(_N("Yes")), outcome(True, True)), Option("no", *both(_N("No")), "won")),
        )
        first = "counted"
    return Procedure("hidden_chips", *both(_N("Hidden chips at an all-in")), first, steps)


def _premature_declaration_procedure(profile: HouseRules) -> Procedure | None:
    """004 #59: a conditional statement, or "call" before the bettor named his amount."""
    if profile.rulebook != "munotpoker":
        return None
    step = Step(
        "what",
        *both(_N("What did the player declare?")),
        (
            Option(
                "conditional",
                *both(_N("A conditional statement ('if you bet, I raise')")),
                _ruling_outcome(premature_declaration(profile, "conditional")),
            ),
            Option(
                "call_before_amount",
                *both(_N("'Call' before the bettor named the amount")),
                _ruling_outcome(premature_declaration(profile, "call_before_amount")),
            ),
        ),
    )
    return Procedure("premature_declaration", *both(_N("Premature declaration")), "what", {"what": step})


def _stack_count_procedure(profile: HouseRules) -> Procedure | None:
    """004 #60: an exact count of a stack only for a player facing an all-in whose turn it is."""
    if profile.rulebook != "munotpoker":
        return None
    estimate = _ruling_outcome(stack_count(profile, facing_all_in=False, to_act=False))
    steps = {
        "facing": Step(
            "facing",
            *both(_N("Does the asking player face an all-in bet?")),
            (Option("yes", *both(_N("Yes")), "turn"), Option("no", *both(_N("No")), estimate)),
        ),
        "turn": Step(
            "turn",
            *both(_N("Is it the player's turn to act?")),
            (
                Option("yes", *both(_N("Yes")), _ruling_outcome(stack_count(profile, facing_all_in=True, to_act=True))),
                Option("no", *both(_N("No")), estimate),
            ),
        ),
    }
    return Procedure("stack_count", *both(_N("Counting a stack")), "facing", steps)


def _stack_count_for_hand(procedure: Procedure, facts: HandFacts) -> Procedure:
    """004 #60 with the hand known: whose turn it is and whether that player faces an all-in are the
    tablet's; the one question left is who asks (the player to act, or another player)."""
    facing, turn = procedure.steps["facing"], procedure.steps["turn"]
    estimate = next(o.next for o in facing.options if o.key == "no")
    exact = next(o.next for o in turn.options if o.key == "yes")
    options: tuple = ()
    if facts.to_act_seat is not None:
        options = (Option("to_act", *both(_N("The player to act")), exact if facts.facing_all_in else estimate),)
    step = Step(
        "who",
        *both(_N("Who asks for the count?")),
        options + (Option("other", *both(_N("Another player")), estimate),),
    )
    return Procedure(procedure.key, procedure.title_en, procedure.title_de, "who", {"who": step})


_BUILDERS: dict[str, Any] = {
    "premature_board": premature_procedure,
    "exposed_card": exposed_procedure,
    "misdeal": misdeal_procedure,
    "hidden_chips": _hidden_chips_procedure,
    "premature_declaration": _premature_declaration_procedure,
    "stack_count": _stack_count_procedure,
}


def procedures_for(profile: HouseRules) -> list[Procedure]:
    """The guided procedures of ``profile``: ``premature_board`` (003 Miss-Deal /
    Burn Cards, 004 #39, 001 6.25), ``exposed_card`` (000 Allgemein 9/Aktionen 10,
    001 6.25/6.32, 003 Miss-Deal, 004 #35/#68) and ``misdeal`` (000 Allgemein 9,
    003 Miss-Deal, 004 #35-#37), built for the profile's rulebook; where the rulebook
    has the rule also ``hidden_chips`` (002 #15-#17, 004 #62), ``premature_declaration``
    (004 #59) and ``stack_count`` (004 #60)."""
    return [p for build in _BUILDERS.values() if (p := build(profile)) is not None]


def get_procedure(profile: HouseRules, key: str) -> Procedure:
    """One procedure by key; raises ProcedureError("unknown_procedure") for an unknown key or
    one this profile's rulebook does not have."""
    build = _BUILDERS.get(key)
    proc = build(profile) if build is not None else None
    if proc is None:
        known = ", ".join(p.key for p in procedures_for(profile))
        raise ProcedureError("unknown_procedure", f"unknown procedure {key!r}; known: {known}")
    return proc


def walk(profile: HouseRules, procedure_key: str, answers: list[str], facts: HandFacts | None = None) -> Step | Outcome:
    """Follow ``answers`` (option keys, in order) from the first step; with ``facts`` the questions
    the hand answers are not asked (:func:`for_hand`).

    Returns the next :class:`Step` to ask, or the :class:`Outcome` reached
    (answers beyond an outcome are an error). Raises ProcedureError
    ("unknown_procedure" | "bad_answer").
    """
    proc = get_procedure(profile, procedure_key)
    if facts is not None:
        proc = for_hand(proc, facts)
    if not isinstance(answers, (list, tuple)):
        raise ProcedureError("bad_answer", "answers must be a list of option keys")
    node: Step | Outcome = proc.steps[proc.first]
    for n, answer in enumerate(answers):
        if isinstance(node, Outcome):
            raise ProcedureError("bad_answer", f"answer {n + 1} ({answer!r}) comes after the outcome")
        option = next((o for o in node.options if o.key == answer), None)
        if option is None:
            raise ProcedureError(
                "bad_answer",
                f"step {node.key!r} has no option {answer!r}; options: {', '.join(o.key for o in node.options)}",
            )
        node = proc.steps[option.next] if isinstance(option.next, str) else option.next
    return node
