"""Showdown evaluation: which hand wins which pot.

Hand strength comes from pokerkit's standard high-hand evaluator
(``pokerkit.StandardHighHand``), imported lazily so the rest of the engine
stays standard-library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import is_known
from .pots import Award, split_amount

if TYPE_CHECKING:  # pragma: no cover
    from .state import HandState

__all__ = ["hand_strength", "evaluate_showdown", "best_hand_description"]

_HAND_CLASS = None


def _hand_class():
    global _HAND_CLASS
    if _HAND_CLASS is None:
        from pokerkit import StandardHighHand  # lazy: only needed at showdown

        _HAND_CLASS = StandardHighHand
    return _HAND_CLASS


def _best_hand(hole: tuple[str, ...], board: tuple[str, ...]):
    return _hand_class().from_game("".join(hole), "".join(board))


def hand_strength(hole: tuple[str, ...], board: tuple[str, ...]) -> object:
    """Return a comparable strength of the best five-card hand.

    Args:
        hole: the player's two hole cards, e.g. ``("As", "Ks")``.
        board: the five board cards.

    Returns:
        An object ordered like poker hands (greater = better, equal = split).
        Its ``str()`` describes the hand (e.g. ``"One pair (AhAdQsJsTs)"``).
    """
    return _best_hand(tuple(hole), tuple(board))


def best_hand_description(hole: tuple[str, ...], board: tuple[str, ...]) -> str:
    """Return a readable description of the best hand, e.g. ``"Flush (...)"``."""
    return str(_best_hand(tuple(hole), tuple(board)))


def evaluate_showdown(state: "HandState") -> tuple[Award, ...]:
    """Awards that can be decided now, for pots not yet awarded.

    Args:
        state: a hand in phase ``"showdown"`` (any other phase gives ``()``).

    Returns:
        New :class:`Award` entries (possibly several per pot for a split):
        a pot whose only remaining contender (eligible, not mucked) is one
        player goes to that player; a pot whose contenders all have known
        hole cards, with all five board cards known, goes to the best hand
        (rulebook 003 "Der Showdown": cards speak; split pots share equally,
        odd chips to the first winner clockwise from the button,
        Rules.odd_chip). Pots that need the dealer's decision are left out.
    """
    if state.phase != "showdown":
        return ()
    pots = state.pots
    done = {a.pot_index for a in state.awards}
    board = state.board
    board_known = len(board) == 5 and is_known(board)
    hole = state.hole_cards
    mucked = state.mucked
    seat_of = state.spec.seat_of
    awards: list[Award] = []
    strength: dict[int, object] = {}
    for index, pot in enumerate(pots):
        if index in done:
            continue
        contenders = [p for p in pot.eligible if not mucked[p]]
        if len(contenders) > 1:
            if not board_known or not all(is_known(hole[p]) for p in contenders):
                continue
            for p in contenders:
                if p not in strength:
                    strength[p] = _best_hand(hole[p], board)
            best = max(strength[p] for p in contenders)
            winners = [p for p in contenders if strength[p] == best]
        else:
            winners = contenders
        for position, amount in split_amount(pot.amount, winners):
            awards.append(Award(index, position, amount, seat_of(position)))
    return tuple(awards)
