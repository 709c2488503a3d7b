"""Main and side pots, and pot awards."""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub
from typing import NamedTuple

__all__ = ["Pot", "Award", "build_pots", "split_amount", "split_between_boards"]


class Pot(NamedTuple):
    """A main or side pot.

    Fields:
        amount: chips in the pot (int).
        eligible: positions (not folded) that can win it, ascending.
    """

    amount: int
    eligible: tuple[int, ...]


class Award(NamedTuple):
    """Chips from one pot pushed to one player.

    Fields:
        pot_index: index into ``HandState.pots`` (0 = main pot).
        position: position index of the winner.
        amount: chips won from that pot (int).
        seat: table seat number of the winner.
    """

    pot_index: int
    position: int
    amount: int
    seat: int


def build_pots(
    contributions: Sequence[int],
    dead: Sequence[int],
    folded: Sequence[bool],
) -> tuple[Pot, ...]:
    """Split the chips put in into a main pot and side pots.

    Args:
        contributions: chips each position put in over the hand (antes
            included), after uncalled bets were returned.
        dead: part of each contribution that is dead money (antes when
            ante trimming is off): it goes to the main pot and does not give
            a level of its own, so a short stack can win all the antes (TDA
            big blind ante; pokerkit).
        folded: per position, True when the player folded.

    Returns:
        Pots from the main pot (everyone not folded) to the last side pot.
        Consecutive levels with the same eligible players are merged, as in
        pokerkit. A level nobody still in the hand contributed to (cannot
        happen in a legal hand) is given to the players with the largest
        contribution still in.

    Algorithm (TDA/rulebook 003 "All-In / Side Pots"): for every distinct
    contribution level L, each player who put in at least L adds
    ``L - previous level`` to that pot; the eligible players are those not
    folded who put in at least L.
    """
    n = len(contributions)
    live = list(map(sub, contributions, dead))
    amount = sum(dead)
    still_in = [i for i in range(n) if not folded[i]]
    if still_in:
        # Nobody still in put in less than another (no all-in short of the others, nobody yet to call):
        # every level has the same players eligible, so the levels merge into ONE pot of all the chips
        # (the loop below gives the same; this is every pot of a hand without an all-in, at every action).
        top = live[still_in[0]]
        if all(live[i] == top for i in still_in) and max(live) <= top:
            total = amount + sum(live)
            return (Pot(total, tuple(still_in)),) if total else ()
    return pots_by_level(live, amount, folded)


def pots_by_level(live: list[int], amount: int, folded: Sequence[bool]) -> tuple[Pot, ...]:
    """:func:`build_pots` level by level (its algorithm, whatever the contributions): ``live`` is each
    position's contribution less its dead money, ``amount`` the dead money (chips)."""
    n = len(live)
    previous = 0
    pots: list[Pot] = []
    positions = range(n)
    for level in sorted(set(live)):
        step = level - previous
        if step:
            amount += step * len([c for c in live if c >= level])
        eligible = tuple([i for i in positions if live[i] >= level and not folded[i]])
        if not eligible:
            top = max((live[i] for i in range(n) if not folded[i]), default=None)
            eligible = tuple(i for i in range(n) if not folded[i] and live[i] == top)
        while pots and pots[-1].eligible == eligible:
            amount += pots.pop().amount
        if amount:
            pots.append(Pot(amount, eligible))
        amount = 0
        previous = level
    if amount and pots:  # only dead money and no level (cannot really happen)
        last = pots.pop()
        pots.append(Pot(last.amount + amount, last.eligible))
    return tuple(pots)


def split_amount(amount: int, winners: Sequence[int], unit: int = 1) -> list[tuple[int, int]]:
    """Split a pot between winners.

    Args:
        amount: chips in the pot.
        winners: winning positions (any order, no repeats).
        unit: the pot is divided only down to this many chips (000
            Allgemein 8: "Ein Pot wird nur bis zur Höhe des Small Blind bzw.
            des Ante geteilt"; ``HandSpec.split_unit``); default 1 chip.

    Returns:
        ``[(position, chips), ...]`` in position order. Every winner gets
        ``(amount // unit) // k`` units; the odd units and any chips below
        one unit go to the first winner clockwise from the button, i.e. the
        lowest position index (rulebook 003 "Pot Teilung / Odd-Chips": the
        winner nearer the button's left, never the button when another
        winner sits before it; 000 Allgemein 8 "am nächsten in der
        Setzreihenfolge zum Button"; TDA; pokerkit does the same).
    """
    ordered = sorted(winners)
    if unit == 1:
        share, odd = divmod(amount, len(ordered))
        return [(p, share + (odd if k == 0 else 0)) for k, p in enumerate(ordered)]
    units, rest = divmod(amount, unit)
    share, odd = divmod(units, len(ordered))
    return [(p, share * unit + ((odd * unit + rest) if k == 0 else 0)) for k, p in enumerate(ordered)]


def split_between_boards(
    amount: int, winners_by_board: Sequence[Sequence[int]], unit: int = 1
) -> list[tuple[int, int]]:
    """Halve a pot between two boards or two run-outs.

    Args:
        amount: chips in the pot.
        winners_by_board: winning positions on board 1 and on board 2.
        unit: split unit (``HandSpec.split_unit``).

    Returns:
        ``[(position, chips), ...]`` in position order, one entry per
        player. Each board gets half of the pot, divided down to ``unit``
        and split among its winners by :func:`split_amount`;
        the odd unit (and chips below a unit) goes to the winner in the
        worse position, the first clockwise from the button (000 Aktionen 8
        f; 000 Allgemein 8 for the double board).
    """
    units, rest = divmod(amount, unit)
    half, odd = divmod(units, 2)
    totals: dict[int, int] = {}
    for winners in winners_by_board:
        for position, chips in split_amount(half * unit, winners, unit):
            totals[position] = totals.get(position, 0) + chips
    first = min(p for winners in winners_by_board for p in winners)
    totals[first] = totals.get(first, 0) + odd * unit + rest
    return sorted(totals.items())
