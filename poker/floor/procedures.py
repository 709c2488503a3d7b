"""Floor procedures under a house-rule profile (standard library only: no Django here).

What the floor app computes when somebody calls the floor:

- :func:`suggest_rulings`: ranked :class:`Suggestion` s (with corrections in the
  correction vocabulary of ``poker/hand/corrections.py``) for a floor call;
- :func:`resolve_out_of_turn`: what a held out-of-turn action becomes when the
  player's turn comes (000 Aktionen 2, 001 6.19, 002 #8, 003 "Ausserordentliche
  und ordentliche Handlungen der Spieler", 004 #53, TDA 53);
- :func:`clock_policy` and :func:`time_expired`: "time" called on a player
  (001 6.13, 004 #29, TDA 29);
- :func:`procedures_for` and :func:`walk`: guided step-by-step procedures for
  the dealer tablet (premature and irregular boards, exposed cards, misdeals;
  000 Allgemein 9, 001 6.25, 003 "Miss-Deal"/"Burn Cards", 004 #35-#39);
- :func:`penalty_options`, :func:`hands_for_penalty` and
  :func:`sit_out_rule`: penalties (000 Strafen 1-4, 001 6.37, 004 #71, TDA 71);
- :func:`absent_player`: an absent player's blinds and hand (000 Allgemein 6, 001
  Sitzverteilung / 6.14, 003 "Ausserordentliche und ordentliche Handlungen der Spieler"
  with its "Auto All-In", 004 #30, TDA 30);
- :func:`hidden_chips_ruling`: chips hidden at an all-in (002 #15-#17, 004 #62);
- :func:`premature_declaration` and :func:`stack_count`: 004 #59 and #60.

Which rule applies is read from the profile's parameters (``poker.houserules``),
so a table plays by whichever rulebook it is configured with; texts that only
one rulebook has are chosen by ``profile.rulebook``. Every result carries
English and German text and the :class:`~poker.rulebooks.Citation` s of the
rules applied. Chips are ints. Shapes are documented in ``docs/procedures.md``.

This module re-exports the public names; the code lives by subject in
``poker/floor/``: ``common.py`` (errors, citations, :class:`Suggestion`, event log),
``out_of_turn.py``, ``clock.py``, ``penalties.py``, ``guided.py`` (premature board,
exposed card, misdeal, hidden chips, premature declaration, stack count), ``absent.py``,
``hidden_chips.py``, ``declarations.py`` and ``suggestions.py``.

Correction vocabulary (dicts, applied by ``poker.hand.corrections``)::

    {"type": "void", "index": i}
    {"type": "replace", "index": i, "action": {...}}
    {"type": "adjust", "index": i, "to": N}
    {"type": "return_action", "index": i, "held": [j, ...]}
    {"type": "kill", "seat": S}
    {"type": "award", "seats": [S, ...]}
    {"type": "misdeal"}
    {"type": "penalty", "seat": S, "kind": "warning"|"sit_out_hands"|"sit_out_orbits"|"disqualification", "count": n}

In the guided procedures (which know no seat) a correction may carry
``"seat": None``: the tablet fills in the seat concerned.
"""

from __future__ import annotations

from .absent import AbsentRuling, absent_player
from .clock import ClockPolicy, TimeExpiry, clock_policy, time_expired
from .common import BETTING, PENALTY_KINDS, REASONS, ProcedureError, Suggestion
from .declarations import DeclarationRuling, StackCount, premature_declaration, stack_count
from .guided import (
    HandFacts,
    Option,
    Outcome,
    Procedure,
    Step,
    dealer_may_finish,
    for_hand,
    get_procedure,
    procedures_for,
    walk,
)
from .hidden_chips import HiddenChipsRuling, hidden_chips_ruling
from .out_of_turn import OutOfTurnResult, out_of_turn_verdict, resolve_out_of_turn
from .penalties import PenaltyOption, SitOutRule, hands_for_penalty, penalty_options, sit_out_rule
from .suggestions import suggest_rulings

__all__ = [
    "ProcedureError",
    "Suggestion",
    "OutOfTurnResult",
    "ClockPolicy",
    "TimeExpiry",
    "Procedure",
    "Step",
    "Option",
    "Outcome",
    "PenaltyOption",
    "SitOutRule",
    "REASONS",
    "BETTING",
    "PENALTY_KINDS",
    "suggest_rulings",
    "resolve_out_of_turn",
    "out_of_turn_verdict",
    "clock_policy",
    "time_expired",
    "procedures_for",
    "get_procedure",
    "walk",
    "HandFacts",
    "for_hand",
    "dealer_may_finish",
    "penalty_options",
    "hands_for_penalty",
    "sit_out_rule",
    "AbsentRuling",
    "absent_player",
    "HiddenChipsRuling",
    "hidden_chips_ruling",
    "DeclarationRuling",
    "StackCount",
    "premature_declaration",
    "stack_count",
]
