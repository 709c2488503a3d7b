"""Pure-Python hand engine for pokerfloor: No-Limit Hold'em, Pot-Limit
Omaha and split-limit Hold'em (``HandSpec.game``), with straddles, bomb
pots, flips, double boards, run it twice and chip units (``formats``);
Seven Card Stud, razz and stud eight-or-better, fixed limit (``StudSpec``).
One state machine, :class:`HandState`, plays them all: the game is a value
(:mod:`.variants`); ``StudState`` is the same class.

Standard library and pokerkit (hand evaluation, PHH files) only. No Django
here: the services and consumers build on this.

Typical use::

    spec = HandSpec.standard(seats, button=5, small_blind=50, big_blind=100)
    state = HandState.start(spec)
    state = state.apply(Raise(seat=3, to=300))  # or its dict: {"type": "raise", "seat": 3, "to": 300}

Actions are frozen typed records (:mod:`.records`); their dicts are read at the boundary
(:func:`parse_action`) and ``state.history`` holds the records (``record.to_dict()``: the dict).
"""

from .betting import StudLegal
from .errors import ERROR_CODES, EngineError
from .evaluation import evaluate_showdown, hand_strength
from .pots import Award, Pot
from .records import ActionRecord, ActionType, Raise, parse_action
from .rules import Rules
from .seats import SeatSpec
from .spec import GAMES, HandSpec
from .state import STREETS, AnySpec, AnyState, HandState, Legal, StudState, start_hand
from .straddles import Straddle
from .stud_spec import StudSpec, load_spec
from .variants import VARIANTS, Variant

__all__ = [
    "Rules",
    "SeatSpec",
    "HandSpec",
    "HandState",
    "EngineError",
    "ERROR_CODES",
    "Pot",
    "Award",
    "Legal",
    "evaluate_showdown",
    "hand_strength",
    "STREETS",
    "GAMES",
    "Straddle",
    "StudSpec",
    "StudState",
    "StudLegal",
    "start_hand",
    "AnySpec",
    "AnyState",
    "load_spec",
    "Variant",
    "VARIANTS",
    "ActionRecord",
    "ActionType",
    "Raise",
    "parse_action",
]
