"""Payout tables, places paid, bubble, and placing players who bust together.

Pure Python.  Money is int currency units, never float.

* Payout structure: neither rulebook gives one.  :func:`default_percentages`
  is a house default (editable: pass your own percentages or amounts).
* Several players out in one hand -- 001 "Ende des Turniers" (heading
  "Weiterer Spielablauf und Ende des Turnieres"): "Scheiden gleichzeitig zwei Spieler aus, ist derjenige besser
  klassiert, welcher vor dem Ausscheiden den höheren Chipstack hatte"; 003
  "Ausscheiden mehrerer Spieler": placed "anhand der Table Stakes, vor
  Beginn der Hand".  Equal stacks: neither text decides; they tie and share.
* 004 #79: after hand-for-hand is announced (or the bubble, at one table),
  "Spieler, welche nun innerhalb einer Hand ausscheiden sind gleichwertig zu
  behandeln ... die Preissumme inkl. eines ... 'Bubble-Deals' zu gleichen
  Teilen auf die ausgeschiedenen Spieler aufzuteilen".  Before that, 004
  gives no rule; the 003 stack rule (also TDA practice) applies.

Shares and the indivisible rest: a shared prize sum is split into equal
shares rounded down to ``unit``; the rest is handed out one ``unit`` at a
time to the tied players in order of their stack at the start of the hand
(largest first, then the order given); the last of them served may get
a part smaller than one unit.  Nothing is kept back.  Each :class:`Finish` records its ``extra``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from poker.rulebooks import cite

from .rules import Citation, PlayerId, TournamentRules

HOUSE_STRUCTURE = cite("house payout structure")
"""Citation for the default payout structure (not from a rulebook)."""


def _fraction(value) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (int, Decimal, str)):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value))
    raise TypeError(f"not a percentage: {value!r}")


def places_paid_by_default(entrants: int) -> int:
    """Places paid by the house default: 1 up to 5 entrants, 2 up to 10,
    3 up to 20, then 15 % of the field rounded up."""
    if entrants < 2:
        raise ValueError("a tournament needs at least two entrants")
    if entrants <= 5:
        return 1
    if entrants <= 10:
        return 2
    if entrants <= 20:
        return 3
    return -(-entrants * 15 // 100)


_SCALE = 10**12


def default_weights(entrants: int) -> list[int]:
    """Integer weights per place (1st first) of the house default structure.

    Small fields use fixed splits (100; 65/35; 50/30/20 per cent).  Larger
    fields pay 15 % with weight ``1/place + 1/places_paid`` (scaled to ints):
    1st gets about 40 % of the pool at 21 entrants and 11 % at 10,000, and
    the last place paid about 1.5 to 3 buy-ins.
    """
    paid = places_paid_by_default(entrants)
    if paid == 1:
        return [100]
    if paid == 2:
        return [65, 35]
    if paid == 3:
        return [50, 30, 20]
    flat = _SCALE // paid
    return [_SCALE // place + flat for place in range(1, paid + 1)]


def percentage_table(entrants: int) -> list[Decimal]:
    """The house standard curve as percentages by place (1st first).

    Places paid by :func:`places_paid_by_default` (about 15 % of the field,
    more for small fields), amounts by :func:`default_weights`: a curve
    falling like the big series' tables (1st about 25 % of the pool at 100
    entrants, the last place paid about 3 buy-ins).  Each percentage has two
    decimals; they add up to exactly 100 (the hundredths lost by rounding
    down go to the places with the largest rounded-off part, best place
    first on a tie).  Neither rulebook gives a payout structure; this is a
    house default the director may edit.  Raises ``ValueError`` for fewer
    than two entrants.
    """
    weights = default_weights(entrants)
    total = sum(weights)
    exact = [Fraction(10_000 * w, total) for w in weights]
    hundredths = [int(e) for e in exact]
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - hundredths[i]), i))
    for i in order[: 10_000 - sum(hundredths)]:
        hundredths[i] += 1
    return [Decimal(h) / 100 for h in hundredths]


def check_amounts(amounts: Sequence[int], prize_pool: int, entrants: int) -> None:
    """Check payouts edited by the director.

    * ``amounts`` -- prize by place, first place first (ints);
    * they must be whole amounts of 0 or more, add up to ``prize_pool``,
      pay no more places than ``entrants`` and not increase with the place.

    Raises ``ValueError`` naming the first problem (the place, for an
    increase); returns ``None`` when the amounts are good.
    """
    if any(not isinstance(a, int) or isinstance(a, bool) or a < 0 for a in amounts):
        raise ValueError("every prize must be a whole amount of 0 or more")
    if not amounts:
        raise ValueError("no place is paid")
    if len(amounts) > entrants:
        raise ValueError(f"{len(amounts)} places paid but only {entrants} entrants")
    for place, (better, worse) in enumerate(zip(amounts, amounts[1:]), start=2):
        if worse > better:
            raise ValueError(f"place {place} would get more than place {place - 1}")
    if sum(amounts) != prize_pool:
        raise ValueError(f"the prizes add up to {sum(amounts)}, not to the prize pool of {prize_pool}")


@dataclass(frozen=True)
class PayoutTable:
    """Prizes by place.

    * ``amounts[0]`` is first place; every amount is an int multiple of
      ``unit`` except that first place also takes the rounding rest.
    * ``places_paid`` -- ``len(amounts)``; ``bubble`` -- the place just out
      of the money (``None`` when every entrant is paid).
    """

    prize_pool: int
    entrants: int
    amounts: tuple[int, ...]
    unit: int
    rule: Citation

    @property
    def places_paid(self) -> int:
        """Number of places paid."""
        return len(self.amounts)

    @property
    def bubble(self) -> int | None:
        """The first place not paid, or ``None`` if all are paid."""
        return self.places_paid + 1 if self.places_paid < self.entrants else None

    def prize(self, place: int) -> int:
        """Prize for ``place`` (1-based); 0 outside the money."""
        return self.amounts[place - 1] if 1 <= place <= len(self.amounts) else 0


def payout_table(
    prize_pool: int,
    entrants: int,
    percentages: Sequence | None = None,
    amounts: Sequence[int] | None = None,
    unit: int = 1,
) -> PayoutTable:
    """Build a :class:`PayoutTable`.

    * ``prize_pool`` -- int currency units.
    * ``percentages`` -- per place, first place first; ints, Decimals,
      Fractions or strings (floats are converted by their decimal text);
      must sum to exactly 100.
    * ``amounts`` -- or the prizes themselves (ints); must sum to the pool.
    * neither -- the house default (:func:`default_weights`).
    * ``unit`` -- prizes are rounded down to a multiple of ``unit``; the
      rest goes to first place.

    Raises ``ValueError`` for a negative pool, both or bad ``percentages``
    and ``amounts``, more places than entrants, or increasing prizes.
    """
    if prize_pool < 0 or unit <= 0:
        raise ValueError("negative prize pool or non-positive unit")
    if percentages is not None and amounts is not None:
        raise ValueError("give percentages or amounts, not both")
    if amounts is not None:
        result = [int(a) for a in amounts]
        if any(a != b for a, b in zip(result, amounts)) or sum(result) != prize_pool or any(a < 0 for a in result):
            raise ValueError("amounts must be non-negative ints summing to the prize pool")
        rule = cite("house payout amounts")
    else:
        if percentages is not None:
            shares = [_fraction(p) for p in percentages]
            if sum(shares) != 100 or any(s < 0 for s in shares):
                raise ValueError(f"percentages must be non-negative and sum to 100, not {sum(shares)}")
            rule = cite("house payout percentages")
            result = [int(prize_pool * s / 100) // unit * unit for s in shares]
        else:
            weights = default_weights(entrants)
            total = sum(weights)
            rule = HOUSE_STRUCTURE
            result = [prize_pool * w // total // unit * unit for w in weights]
        if result:
            result[0] += prize_pool - sum(result)
    if len(result) > entrants:
        raise ValueError("more places paid than entrants")
    if any(a < b for a, b in zip(result, result[1:])):
        raise ValueError("prizes must not increase with the place")
    return PayoutTable(prize_pool, entrants, tuple(result), unit, rule)


@dataclass(frozen=True, slots=True)
class Bust:
    """A player out in the hand, with his stack at the start of that hand."""

    player: PlayerId
    stack_at_start: int


@dataclass(frozen=True, slots=True)
class Finish:
    """Where a busted player finished and what he is paid.

    * ``place`` -- best place of his group; ``places`` -- ``(best, worst)``
      the group covers (equal when not shared).
    * ``shared_with`` -- other players of the group (empty if none).
    * ``prize`` -- currency units paid to him, ``extra`` the part of it
      that is his piece of the indivisible rest.
    * ``rule`` -- citation applied.
    """

    player: PlayerId
    place: int
    places: tuple[int, int]
    shared_with: tuple[PlayerId, ...]
    prize: int
    extra: int
    rule: Citation


@dataclass(frozen=True)
class Eliminations:
    """Result of :func:`place_busts`: finishes (best place first) and players left."""

    finishes: tuple[Finish, ...]
    players_left: int
    rule: Citation

    def finish(self, player: PlayerId) -> Finish:
        """The finish of ``player``; raises ``KeyError`` if absent."""
        for f in self.finishes:
            if f.player == player:
                return f
        raise KeyError(player)


def place_busts(
    busts: Sequence[Bust],
    players_before_hand: int,
    rules: TournamentRules,
    payouts: PayoutTable | None = None,
    hand_for_hand: bool = False,
    bubble_deal: int = 0,
) -> Eliminations:
    """Place players who bust in the same hand and pay them.

    * ``busts`` -- the players out in this hand (one table, or all tables
      of a hand-for-hand hand), with their stacks at the start of the hand.
    * ``players_before_hand`` -- players left in the tournament before the
      hand; the busted take the last ``len(busts)`` of those places.
    * ``hand_for_hand`` -- hand-for-hand (or the bubble at one table) has
      been announced (004 #79).
    * ``bubble_deal`` -- an amount the players agreed for the bubble place;
      it joins the prize of whoever finishes there (004 #79).

    Raises ``ValueError`` for no busts, a player twice, or not leaving at
    least one player in the tournament.
    """
    k = len(busts)
    if k == 0:
        raise ValueError("no busted player")
    if len({b.player for b in busts}) != k:
        raise ValueError("a player busts twice")
    if k >= players_before_hand:
        raise ValueError("at least one player must remain")
    worst = players_before_hand
    best = worst - k + 1
    unit = payouts.unit if payouts else 1
    bubble = payouts.bubble if payouts else None

    def prize(place: int) -> int:
        amount = payouts.prize(place) if payouts else 0
        return amount + (bubble_deal if place == bubble else 0)

    by_stack = sorted(range(k), key=lambda i: (-busts[i].stack_at_start, i))
    if rules.simultaneous_busts == "share_after_hand_for_hand" and hand_for_hand:
        groups = [[busts[i] for i in by_stack]]
        rule = rules.cite("eliminations")
    else:
        groups = []
        for i in by_stack:
            if groups and groups[-1][0].stack_at_start == busts[i].stack_at_start:
                groups[-1].append(busts[i])
            else:
                groups.append([busts[i]])
        rule = (
            rules.cite("eliminations") if rules.simultaneous_busts == "by_stack" else rules.cite("eliminations_dealer")
        )
    finishes = []
    place = best
    for group in groups:
        first, last = place, place + len(group) - 1
        total = sum(prize(p) for p in range(first, last + 1))
        n = len(group)
        share = total // n // unit * unit
        rest = total - share * n
        names = tuple(b.player for b in group)
        for b in group:
            extra = min(unit, rest)
            rest -= extra
            finishes.append(
                Finish(
                    b.player, first, (first, last), tuple(x for x in names if x != b.player), share + extra, extra, rule
                )
            )
        place = last + 1
    return Eliminations(tuple(finishes), players_before_hand - k, rule)


def winner_finish(player: PlayerId, payouts: PayoutTable | None, rules: TournamentRules) -> Finish:
    """First place for the last player left (001: "Das Turnier endet, wenn
    nur noch ein Spieler übrig ist")."""
    return Finish(player, 1, (1, 1), (), payouts.prize(1) if payouts else 0, 0, rules.cite("eliminations"))
