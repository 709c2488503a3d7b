"""Deals at the final table: chip chop and ICM (Malmuth-Harville).

Pure Python.  Stacks are chips (positive ints), prizes and amounts are int
currency units, shares are exact :class:`~fractions.Fraction` values, never
float.

Rulebook: neither 001 nor 004 regulates a deal among the players left; 004
#79 ("Preisanspruch") only names a "Bubble-Deal" agreed by the players
("die Preissumme inkl. eines durch die Spieler vereinbarten 'Bubble-Deals'").
A deal is therefore the players' agreement; the director's tool computes
the two usual proposals and records the one agreed.

* Chip chop (:func:`chip_chop`): the prize money still to be paid is split
  in proportion to the stacks.
* ICM (:func:`icm_equities`), the Malmuth-Harville model: a player finishes
  first with probability ``stack / total``; given the players already
  placed, each remaining player takes the next place with probability
  ``stack / (stacks of the remaining players)``.  A player's equity is the
  sum over places of ``P(place) * prize(place)``.  Computed exactly over
  the subsets of players (``2**n * n`` steps), so up to
  :data:`MAX_ICM_PLAYERS` players.

Rounding (:func:`round_shares`): every share is rounded down to a multiple
of ``unit``; the units left over go one at a time to the players with the
largest rounded-off part (ties: larger stack, then the order given); a rest
smaller than one unit (when the pool is not a multiple of ``unit``) goes to
the largest stack.  The amounts add up to the pool exactly and each differs
from the exact share by less than one unit (plus that sub-unit rest).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

MAX_ICM_PLAYERS = 10
"""ICM is exact and fast up to this many players (1024 subsets)."""

METHODS = ("chip_chop", "icm")
"""The deal methods of :func:`deal`."""


def _check_stacks(stacks: Sequence[int]) -> None:
    if len(stacks) < 2:
        raise ValueError("a deal needs at least two players")
    if any(not isinstance(s, int) or isinstance(s, bool) or s <= 0 for s in stacks):
        raise ValueError("every stack must be a positive whole number of chips")


def _check_money(amounts: Sequence[int], what: str) -> None:
    if any(not isinstance(a, int) or isinstance(a, bool) or a < 0 for a in amounts):
        raise ValueError(f"{what} must be whole amounts of 0 or more")


def chip_chop(stacks: Sequence[int], pool: int) -> list[Fraction]:
    """Exact shares of ``pool`` in proportion to ``stacks``.

    * ``stacks`` -- chips of each player (positive ints, at least two);
    * ``pool`` -- the prize money still to be paid (int currency units).

    Returns one :class:`Fraction` per player, summing to ``pool``.  A short
    stack may get less than the lowest prize still open (chip chop ignores
    the pay jumps); ICM does not.  Raises ``ValueError`` for bad input.
    """
    _check_stacks(stacks)
    _check_money([pool], "the pool")
    total = sum(stacks)
    return [Fraction(pool * s, total) for s in stacks]


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Malmuth-Harville equities of the players, exactly.

    * ``stacks`` -- chips of each player (positive ints, 2 to
      :data:`MAX_ICM_PLAYERS`);
    * ``prizes`` -- the prizes still open, first place first (ints); fewer
      prizes than players means the last places pay 0; more is an error.

    Returns one :class:`Fraction` per player; they sum to ``sum(prizes)``.
    Example: stacks 5000/3000/2000 and prizes 50/30/20 give 38.39/32.75/28.86.
    Raises ``ValueError`` for bad input.
    """
    _check_stacks(stacks)
    _check_money(prizes, "prizes")
    n = len(stacks)
    if n > MAX_ICM_PLAYERS:
        raise ValueError(f"ICM is computed for at most {MAX_ICM_PLAYERS} players, not {n}")
    if len(prizes) > n:
        raise ValueError("more prizes than players")
    paid = list(prizes) + [0] * (n - len(prizes))
    total = sum(stacks)
    equities = [Fraction(0)] * n
    # probability[mask]: the players of ``mask`` hold the top places (any order)
    probability: dict[int, Fraction] = {0: Fraction(1)}
    for size in range(n):
        prize = paid[size]
        following: dict[int, Fraction] = {}
        for mask, p in probability.items():
            left = total - sum(stacks[i] for i in range(n) if mask >> i & 1)
            for i in range(n):
                if mask >> i & 1:
                    continue
                q = p * Fraction(stacks[i], left)
                equities[i] += q * prize
                following[mask | 1 << i] = following.get(mask | 1 << i, Fraction(0)) + q
        probability = following
    return equities


def round_shares(shares: Sequence[Fraction], stacks: Sequence[int], unit: int = 1) -> list[int]:
    """Exact shares as int amounts, multiples of ``unit``, same total.

    * ``shares`` -- exact shares (their sum must be a whole number: the pool);
    * ``stacks`` -- the players' chips, for ties and the sub-unit rest;
    * ``unit`` -- the smallest cash unit paid (positive int).

    Rounds down to ``unit``; the whole units left go one each to the largest
    rounded-off parts (ties: larger stack, then the order given); a rest
    below one unit goes to the largest stack (first of equal ones).  Raises
    ``ValueError`` for a non-whole total, a bad unit or mismatched lengths.
    """
    if unit <= 0:
        raise ValueError("the unit must be positive")
    if len(shares) != len(stacks):
        raise ValueError("one share per stack")
    total = sum(shares, Fraction(0))
    if total.denominator != 1 or total < 0:
        raise ValueError("the shares must add up to a whole amount")
    pool = int(total)
    amounts = [int(s // unit) * unit for s in shares]
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - amounts[i]), -stacks[i], i))
    left = pool - sum(amounts)
    for i in order:
        if left < unit:
            break
        amounts[i] += unit
        left -= unit
    if left:
        leader = min(range(len(stacks)), key=lambda i: (-stacks[i], i))
        amounts[leader] += left
    return amounts


@dataclass(frozen=True)
class Deal:
    """A proposed deal.

    * ``method`` -- ``"chip_chop"`` or ``"icm"``;
    * ``stacks``, ``prizes`` -- the input (prizes: those still open, 1st first);
    * ``shares`` -- exact shares (Fractions), ``amounts`` -- the int amounts
      paid (multiples of ``unit`` except the sub-unit rest, see
      :func:`round_shares`); ``sum(amounts) == sum(prizes)``.
    """

    method: str
    stacks: tuple[int, ...]
    prizes: tuple[int, ...]
    unit: int
    shares: tuple[Fraction, ...]
    amounts: tuple[int, ...]

    @property
    def pool(self) -> int:
        """The prize money shared by the deal."""
        return sum(self.prizes)


def deal(method: str, stacks: Sequence[int], prizes: Sequence[int], unit: int = 1) -> Deal:
    """Compute a deal among the players left.

    * ``method`` -- one of :data:`METHODS`;
    * ``stacks`` -- chips of each player; ``prizes`` -- prizes still open,
      first place first (at most one per player); ``unit`` -- cash unit.

    Returns a :class:`Deal`.  Raises ``ValueError`` for an unknown method or
    bad input (see :func:`chip_chop`, :func:`icm_equities`).
    """
    if method not in METHODS:
        raise ValueError(f"unknown deal method {method!r}")
    _check_stacks(stacks)
    _check_money(prizes, "prizes")
    if len(prizes) > len(stacks):
        raise ValueError("more prizes than players")
    if method == "icm":
        shares = icm_equities(stacks, prizes)
    else:
        shares = chip_chop(stacks, sum(prizes))
    amounts = round_shares(shares, stacks, unit)
    return Deal(method, tuple(stacks), tuple(prizes), unit, tuple(shares), tuple(amounts))
