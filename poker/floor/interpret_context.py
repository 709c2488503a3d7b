"""What a floor ruling is worked out with (:class:`RulingContext`: the sentences and citations
it collects) and the amounts it is measured against (the smallest and largest legal totals, the
bet unit). Standard library only; see :mod:`poker.floor.interpret`."""

from __future__ import annotations

from typing import Any

from poker.floor.interpret_data import (
    STREETS,
    Observation,
    Ruling,
    Situation,
)
from poker.hand.limits import (
    bet_unit_for,
    fixed_limit_bet,
    max_raise_to,
    min_raise_to,
    pot_limit_max_to,
    round_to_unit,
    unit_bounds,
)
from poker.houserules import Citation, HouseRules, cite
from poker.i18n import _N, translate

__all__ = ["RulingContext", "max_to", "raise_bounds", "raw_min_to", "round_to_table_unit", "unclear_amount"]


def _en(n: int) -> str:
    """A chip amount in English: ``1,500``."""
    return f"{n:,}"


def _de(n: int) -> str:
    """A chip amount in German: ``1.500``."""
    return f"{n:,}".replace(",", ".")


class RulingContext:
    """Collects explanation sentences and citations while a ruling is worked out."""

    def __init__(self, profile: HouseRules, s: Situation, o: Observation):
        self.p, self.s, self.o = profile, s, o
        self.de: list[str] = []
        self.en: list[str] = []
        self.cites: list[Citation] = []
        self.restrictions: list[str] = []

    def say(self, msgid: str, *params: str, **values: object) -> None:
        """Add the sentence ``msgid`` in German and English, its ``%(name)s`` placeholders
        filled from ``values`` (ints written with the language's thousands separator),
        and the citations of the house-rule ``params``."""
        for lang, texts, number in (("de", self.de, _de), ("en", self.en, _en)):
            filled: dict[str, Any] = {
                k: number(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in values.items()
            }
            texts.append(translate(msgid, lang, **filled))
        for name in params:
            for c in cite(self.p, name):
                if c not in self.cites:
                    self.cites.append(c)

    def done(self, action: str, amount: int, **kw) -> Ruling:
        """The :class:`Ruling` of ``action`` to the total ``amount`` (chips) with the sentences and
        citations collected; ``to_add``, ``change``, ``complete_to`` and ``all_in`` are worked out
        from the situation unless given in ``kw``."""
        s, o = self.s, self.o
        placed = o.placed
        in_front_after = s.in_front + placed
        change = kw.pop("change", None)
        complete_to = kw.pop("complete_to", None)
        if change is None:
            change = max(0, in_front_after - amount) if action != "none" else placed
        to_add = max(0, amount - in_front_after) if action != "none" else 0
        if to_add and complete_to is None:
            complete_to = amount
        if to_add == 0 and complete_to is not None and complete_to <= in_front_after:
            complete_to = None
        all_in = kw.pop(
            "all_in", action != "none" and action != "fold" and amount >= s.in_front + s.stack and s.stack > 0
        )
        if action not in ("fold", "none") and kw.get("min_raise_to") is None:
            kw["min_raise_to"] = raise_bounds(self.p, s)[0]
        if all_in:
            kw.setdefault("all_in_as", action if action not in ("all_in", "all-in") else None)
            action = "all-in"  # the output word (ACTIONS); the engine's is "all_in"
        return Ruling(
            action=action,
            amount=amount,
            profile=self.p.slug,
            complete_to=complete_to,
            to_add=to_add,
            change=change,
            all_in=all_in,
            restrictions=list(self.restrictions),
            explanation_de=" ".join(self.de),
            explanation_en=" ".join(self.en),
            citations=list(self.cites),
            **kw,
        )


def raw_min_to(p: HouseRules, s: Situation) -> int:
    """Smallest legal total for a bet (no bet yet) or a raise, before the all-in cap
    (the engine's :func:`poker.hand.limits.min_raise_to`; nobody bet yet: no last raise)."""
    bet = s.current_bet
    return min_raise_to(
        bet,
        s.last_raise if bet else 0,
        s.big_blind,
        p.min_raise,
        s.limit,
        fixed_limit_bet(STREETS.index(s.street), s.big_blind, s.big_bet),
    )


def _unit(p: HouseRules, s: Situation) -> int:
    """The chip unit every bet must be divisible by (000 Allgemein 8), or 1."""
    return bet_unit_for(p.bet_unit, s.small_blind, s.big_blind, p.bet_unit_big_blind_stakes)


def raise_bounds(profile: HouseRules, s: Situation) -> tuple[int, int]:
    """``(min_to, max_to)``: the smallest and largest legal bet or raise "to" amount of the
    player in ``s`` under ``profile``, the same numbers as the engine's ``Legal.min_raise_to``
    and ``max_raise_to`` (both computed by :mod:`poker.hand.limits`).

    The minimum is capped by the player's stack (an all-in for less, 003 "All-In"), the
    maximum is the all-in (no limit), the pot after the call (pot limit, 004 #54) or one
    bet (split limit, 000 Einsätze 2); both are moved onto the chip unit (000 Allgemein 8).
    The opponents' stacks are not part of a :class:`Situation`, so they cap nothing here.
    """
    full = s.in_front + s.stack
    low = min(full, raw_min_to(profile, s))
    pot_to = pot_limit_max_to(s.current_bet, s.in_front, s.pot) if s.limit == "pot_limit" else None
    high = max_raise_to(s.limit, low, full, pot_to)
    return unit_bounds(low, high, full, _unit(profile, s))


def max_to(p: HouseRules, s: Situation) -> int:
    """Largest legal total: the whole stack, the pot-limit maximum or the split-limit bet."""
    return raise_bounds(p, s)[1]


def round_to_table_unit(ctx: RulingContext, total: int) -> int:
    """``total`` (chips) rounded to the table's bet unit (000 Allgemein 8), capped at the stack;
    says so in ``ctx`` when the amount changed."""
    unit = _unit(ctx.p, ctx.s)
    total, extra = round_to_unit(total, unit, ctx.s.in_front + ctx.s.stack)
    if extra:
        ctx.say(
            _N("Bets must be divisible by %(unit)s; the excess of %(extra)s is returned to the player."),
            "bet_unit",
            "bet_unit_big_blind_stakes" if unit == ctx.s.big_blind else "bet_unit",
            unit=unit,
            extra=extra,
        )
    return total


def unclear_amount(ctx: RulingContext, said: int, minimum: int) -> int:
    """004 #57 / TDA 57: a number that cannot be meant literally ("ich setze 5")
    is the highest reasonable amount (said x 10^k) not above the pot before the bet."""
    s = ctx.s
    candidates = [said * 10**k for k in range(0, 10)]
    reasonable = [c for c in candidates if c >= minimum]
    within = [c for c in reasonable if c <= max(s.pot, 0)]
    chosen = max(within) if within else min(reasonable)
    ctx.say(
        _N(
            'Saying "%(said)s" is unclear (below the minimum); it is ruled the highest reasonable amount not above '
            "the pot (%(pot)s): %(chosen)s."
        ),
        "unclear_amount",
        said=str(said),
        pot=s.pot,
        chosen=chosen,
    )
    return chosen
