"""The betting maths, as pure functions of plain values (standard library only).

The hand engine (:mod:`.betting`, :meth:`HandState.legal`) and the chip-action
interpreter (:mod:`poker.floor.interpret`) both call these, so the minimum
raise, the largest bet and the chip unit are written once. Every amount is
chips (int); ``*_to`` amounts are a player's total in front on this betting
round. Structures use the engine's words: ``"no_limit"``, ``"pot_limit"``,
``"fixed_limit"`` (split limit).

Sources: TDA 2024 Rules 40, 43 and rulebook 002 #3-#4 (minimum bet and
raise), 003 "All-In" (an all-in may be for less), 004 #54 (pot limit), 000
Einsätze 2 / Aktionen 3 (split limit: small bet preflop and flop, big bet
turn and river), 000 Allgemein 8 (bets divisible by the chip unit).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "STRUCTURES",
    "MIN_RAISE_RULES",
    "fixed_limit_bet",
    "min_raise_to",
    "pot_limit_max_to",
    "max_raise_to",
    "unit_bounds",
    "round_to_unit",
    "bet_unit_for",
]

#: Betting structures, in the engine's words.
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
#: Minimum-raise rules (``Rules.min_raise`` / ``HouseRules.min_raise``).
MIN_RAISE_RULES = ("last_full_raise", "double_previous")


def fixed_limit_bet(street: int, small_bet: int, big_bet: int | None = None) -> int:
    """Split limit: the fixed bet or raise increment on ``street`` (0 preflop
    ... 3 river): the small bet preflop and flop, the big bet turn and river;
    ``big_bet`` None means twice the small bet (000 Einsätze 2, Aktionen 3)."""
    if street < 2:
        return small_bet
    return 2 * small_bet if big_bet is None else big_bet


def min_raise_to(
    current_bet: int,
    last_full_raise: int,
    min_bet: int,
    min_raise: str = "last_full_raise",
    structure: str = "no_limit",
    fixed_bet: int | None = None,
) -> int:
    """Smallest legal bet or raise "to" amount, before capping by any stack.

    Args:
        current_bet: the highest total in front this round (0: nobody bet).
        last_full_raise: the largest full bet or raise increment this round
            (0 when nobody bet; preflop the engine counts the blinds as 0
            unless a live straddle sets the increment).
        min_bet: the minimum bet (the big blind).
        min_raise: ``"last_full_raise"`` (TDA 43: at least the largest
            previous bet or raise, never less than ``min_bet``) or
            ``"double_previous"`` (002 #4: at least double the bet:
            BB 100, raise to 200 -> next raise to at least 400).
        structure: one of :data:`STRUCTURES`.
        fixed_bet: ``"fixed_limit"`` only: the bet of this street
            (:func:`fixed_limit_bet`); a raise is exactly one more bet.

    Returns:
        The minimum "to" amount; an all-in for less may still be allowed
        (003 "All-In"), see :func:`unit_bounds` and ``Legal``.
    """
    if structure == "fixed_limit":
        return current_bet + (min_bet if fixed_bet is None else fixed_bet)
    if min_raise == "double_previous":
        return max(2 * current_bet, current_bet + min_bet)
    return current_bet + max(last_full_raise, min_bet)


def pot_limit_max_to(current_bet: int, in_front: int, pot: int) -> int:
    """Pot limit (004 #54): the largest raise-to, the pot after the call:
    ``current_bet + (pot + what the player must add to call)``, i.e.
    ``2 x current_bet - in_front + pot``, where ``pot`` is every chip in the
    middle, this round's bets in front included (plus, preflop, an all-in
    call for less counted in full when the house rule says so)."""
    return 2 * current_bet - in_front + pot


def max_raise_to(structure: str, low: int, all_in_to: int, pot_to: int | None = None) -> int:
    """Largest legal bet or raise "to" amount.

    Args:
        structure: one of :data:`STRUCTURES`.
        low: the minimum "to" amount already capped by the stacks.
        all_in_to: the player's total with the whole stack in.
        pot_to: ``"pot_limit"`` only: :func:`pot_limit_max_to`.

    Returns:
        No limit: the all-in. Split limit: ``low`` (one bet, no more).
        Pot limit: the pot size, never below ``low`` nor above the all-in.
    """
    if structure == "fixed_limit":
        return low
    if structure == "pot_limit" and pot_to is not None:
        return min(all_in_to, max(low, pot_to))
    return all_in_to


def unit_bounds(low: int, high: int, all_in_to: int, unit: int) -> tuple[int, int]:
    """``(low, high)`` moved onto the chip unit (000 Allgemein 8): the minimum
    rounded up, the maximum down; an all-in amount stays as it is."""
    if unit != 1:
        if low != all_in_to and low % unit:
            low = min(all_in_to, low + unit - low % unit)
        if high != all_in_to and high % unit:
            high = max(low, high - high % unit)
    return low, high


def round_to_unit(to: int, unit: int, all_in_to: int | None = None) -> tuple[int, int]:
    """Round a bet/raise-to down to the chip unit (000 Allgemein 8: "Eine
    eventuell entstandene Spitze erhält der Spielteilnehmer zurück").

    Returns ``(rounded_to, excess)``: the largest multiple of ``unit`` not
    above ``to`` and the chips handed back; an all-in (``to >= all_in_to``)
    is not rounded.
    """
    if unit <= 1 or (all_in_to is not None and to >= all_in_to):
        return to, 0
    excess = to % unit
    return to - excess, excess


def bet_unit_for(
    rule: str | None,
    small_blind: int,
    big_blind: int,
    big_blind_stakes: Iterable = (),
    ante: int = 0,
) -> int:
    """The chip unit every bet or raise-to must be divisible by (000 Allgemein 8).

    Args:
        rule: None (any whole chip: unit 1) or ``"small_blind"``.
        small_blind, big_blind: the stakes.
        big_blind_stakes: ``(small_blind, big_blind)`` pairs whose unit is
            the big blind (000 Allgemein 8: at 2/5 the unit is 5).
        ante: used when there is no small blind.

    Returns:
        1, the big blind, or the small blind (else the ante, else 1).
    """
    if rule is None or rule != "small_blind":
        return 1
    if (small_blind, big_blind) in {tuple(x) for x in big_blind_stakes}:
        return big_blind
    return small_blind or ante or 1
