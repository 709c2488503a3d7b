"""Pure-Python tournament logic: clock, seating, balancing, breaking, chip
race, payouts, button movement.

No Django import anywhere in this package (tests check it).  Every
procedure is chosen by a :class:`~.rules.TournamentRules` profile
(``rules_for("wynental")`` for rulebook 001, ``rules_for("munotpoker")``, or
the old ``"munot"``, for 004) and every result names the rule it applied as a
citation (:class:`poker.rulebooks.Citation`, written as its label,
``cite("004 #11")``).
"""

from .balancing import BalancePlan, plan_balancing
from .breaking import BreakPlan, EntrySeat, apply_break_plan, entry_seats, moves_due, plan_breaks, tables_needed
from .buttons import Positions, draw_button, first_hand_positions, next_positions
from .chiprace import Card, ChipRaceEntry, ChipRaceResult, chip_race, exchange_found_chips, parse_card
from .clock import Break, Clock, ClockError, ClockState, Level, Structure, level_for_hand, validate_structure
from .model import Move, TableState, apply_moves, validate_tables
from .payouts import Bust, Eliminations, Finish, PayoutTable, payout_table, place_busts
from .rules import MUNOT, WYNENTAL, Citation, TournamentRules, UnsupportedByRulebook, rules_for
from .seating import LateSeat, SeatCard, SeatDraw, draw_seats, seat_late_entrant

__all__ = [
    "BalancePlan",
    "Break",
    "BreakPlan",
    "Bust",
    "Card",
    "ChipRaceEntry",
    "ChipRaceResult",
    "Citation",
    "Clock",
    "ClockError",
    "ClockState",
    "Eliminations",
    "EntrySeat",
    "entry_seats",
    "Finish",
    "LateSeat",
    "Level",
    "MUNOT",
    "Move",
    "PayoutTable",
    "Positions",
    "SeatCard",
    "SeatDraw",
    "Structure",
    "TableState",
    "TournamentRules",
    "UnsupportedByRulebook",
    "WYNENTAL",
    "apply_break_plan",
    "apply_moves",
    "chip_race",
    "draw_button",
    "draw_seats",
    "exchange_found_chips",
    "first_hand_positions",
    "level_for_hand",
    "moves_due",
    "next_positions",
    "parse_card",
    "payout_table",
    "place_busts",
    "plan_balancing",
    "plan_breaks",
    "rules_for",
    "seat_late_entrant",
    "tables_needed",
    "validate_structure",
    "validate_tables",
]
