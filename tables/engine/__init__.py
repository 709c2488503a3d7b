"""Pure-Python No-Limit Hold'em hand engine for pokerfloor.

Standard library only (pokerkit's hand evaluator is imported lazily at the
showdown). No Django here: the services and consumers build on this.

Typical use::

    spec = HandSpec.standard(seats, button=5, small_blind=50, big_blind=100)
    state = HandState.start(spec)
    state = state.apply({"type": "raise", "seat": 3, "to": 300})
"""

from .errors import ERROR_CODES, EngineError
from .evaluation import evaluate_showdown, hand_strength
from .pots import Award, Pot
from .rules import Rules
from .spec import HandSpec, SeatSpec
from .state import STREETS, HandState, Legal

__all__ = [
    "Rules", "SeatSpec", "HandSpec", "HandState", "EngineError", "ERROR_CODES",
    "Pot", "Award", "Legal", "evaluate_showdown", "hand_strength", "STREETS",
]
