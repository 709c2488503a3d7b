"""What a player's physical action means, under a house-rule profile (no Django here).

Given the betting situation and what the dealer saw (chips by denomination, a
declared word and whether it came before the chips touched the table, a
declared amount, one forward motion or several), :func:`interpret` returns a
:class:`Ruling`: the action that stands, the amount it stands at, chips the
player still owes (``complete_to``/``to_add``) or gets back (``change``), an
explanation in German and English, and the citations of every rule applied.

All amounts are chips as ints. Amounts named ``*_to`` and ``amount`` are the
player's *total* in front on this betting round (blinds he posted included);
``to_call``, ``placed``, ``to_add`` and ``change`` are chips moved by this
action. The JSON shapes are documented in ``docs/interpret.md``;
:func:`interpret_json` is the JSON entry point used by ``manage.py interpret``;
the data types and the JSON reading live in :mod:`poker.floor.interpret_data`.

Sources: 000 Aktionen 2-5 and Allgemein 8; 001 6.17-6.20, 6.28; 002 #3-#14;
003 "Einsätze und Annoncen", "All-In", "Ausserordentliche ..."; 004 #40-#57;
TDA 2024 Rules 40-57. Which rule applies is read from the profile
(``poker.houserules``), never hard-coded per rulebook.
"""

from __future__ import annotations

from typing import Any

from poker.floor.common import ProcedureError
from poker.floor.interpret_data import (
    ACTIONS,
    LIMITS,
    STREETS,
    WORDS,
    InterpretError,
    Observation,
    Ruling,
    Situation,
    parse,
)
from poker.floor.out_of_turn import out_of_turn_verdict
from poker.hand.limits import (
    bet_unit_for,
    fixed_limit_bet,
    max_raise_to,
    min_raise_to,
    pot_limit_max_to,
    round_to_unit,
    unit_bounds,
)
from poker.houserules import Citation, HouseRules, cite, get_profile
from poker.i18n import _N, translate

__all__ = [
    "Situation",
    "Observation",
    "Ruling",
    "InterpretError",
    "interpret",
    "interpret_json",
    "parse",
    "raise_bounds",
    "STREETS",
    "ACTIONS",
    "WORDS",
    "LIMITS",
]


def _en(n: int) -> str:
    """A chip amount in English: ``1,500``."""
    return f"{n:,}"


def _de(n: int) -> str:
    """A chip amount in German: ``1.500``."""
    return f"{n:,}".replace(",", ".")


class _Ctx:
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


def _raw_min_to(p: HouseRules, s: Situation) -> int:
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
    low = min(full, _raw_min_to(profile, s))
    pot_to = pot_limit_max_to(s.current_bet, s.in_front, s.pot) if s.limit == "pot_limit" else None
    high = max_raise_to(s.limit, low, full, pot_to)
    return unit_bounds(low, high, full, _unit(profile, s))


def _max_to(p: HouseRules, s: Situation) -> int:
    """Largest legal total: the whole stack, the pot-limit maximum or the split-limit bet."""
    return raise_bounds(p, s)[1]


def _round_to_unit(ctx: _Ctx, total: int) -> int:
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


def _unclear_amount(ctx: _Ctx, said: int, minimum: int) -> int:
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


# --------------------------------------------------------------------------- entry point
def interpret(profile: HouseRules, s: Situation, o: Observation) -> Ruling:
    """Rule on what the player did. See the module docstring and docs/interpret.md.

    Raises InterpretError when the observation contradicts the situation
    (more chips than the stack, an unknown word, ...).
    """
    _check(s, o)
    ctx = _Ctx(profile, s, o)
    word = WORDS[o.declared.strip().lower()] if o.declared else None
    placed = o.placed

    if not s.in_turn:
        outcome = _out_of_turn(ctx, word)
        if outcome is not None:
            return outcome

    verbal_first = word is not None and (o.declared_before_chips or placed == 0)
    if word is not None and not verbal_first:
        ctx.say(
            _N(
                '"%(declared)s" was said only after the chips touched the table; the first action, the chips, '
                "defines the action."
            ),
            "verbal_vs_chips",
            declared=o.declared,
        )
    if word is not None and verbal_first:
        return _verbal(ctx, word)
    if placed == 0:
        raise InterpretError("nothing_observed", "Neither chips nor a declared word: nothing to interpret.")
    return _silent(ctx)


def _check(s: Situation, o: Observation) -> None:
    if s.street not in STREETS:
        raise InterpretError("bad_situation", f"street must be one of {', '.join(STREETS)}")
    if s.limit not in LIMITS:
        raise InterpretError("bad_situation", f"limit must be one of {', '.join(LIMITS)} (or split_limit)")
    for name in ("small_blind", "big_blind", "to_call", "last_raise", "in_front", "stack", "pot"):
        v = getattr(s, name)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise InterpretError("bad_situation", f"situation.{name} must be a non-negative integer")
    if s.big_blind <= 0:
        raise InterpretError("bad_situation", "situation.big_blind must be positive")
    for d, n in o.chips.items():
        if not (isinstance(d, int) and isinstance(n, int)) or isinstance(n, bool) or d <= 0 or n < 0:
            raise InterpretError("bad_observation", "chips must map positive integer denominations to counts")
    if o.placed > s.stack:
        raise InterpretError("bad_observation", f"{o.placed} chips placed but the player has only {s.stack} behind")
    if o.declared is not None and o.declared.strip().lower() not in WORDS:
        raise InterpretError(
            "bad_observation", f"unknown declared word {o.declared!r}; known: {', '.join(sorted(set(WORDS)))}"
        )
    if o.declared_amount is not None and (not isinstance(o.declared_amount, int) or o.declared_amount <= 0):
        raise InterpretError("bad_observation", "declared_amount must be a positive integer")
    if o.amount_kind not in ("to", "by"):
        raise InterpretError("bad_observation", "amount_kind must be 'to' or 'by'")
    if not isinstance(o.motions, int) or o.motions < 1:
        raise InterpretError("bad_observation", "motions must be an integer >= 1")


# --------------------------------------------------------------------------- out of turn
def _out_of_turn(ctx: _Ctx, word: str | None) -> Ruling | None:
    s, p = ctx.s, ctx.p
    if word == "fold":
        ctx.say(_N("A fold out of turn is binding."), "out_of_turn_changed_by")
        return ctx.done("fold", s.in_front)
    words = [WORDS.get(str(a).lower(), str(a).lower()) for a in s.intervening_actions]
    try:
        verdict = out_of_turn_verdict(p, word or "bet", words)
    except ProcedureError as exc:
        raise InterpretError("bad_situation", str(exc)) from None
    changed = list(verdict.changed)
    if not verdict.binding:
        options = ["fold", "call", "raise"] if s.to_call else ["check", "bet"]
        if verdict.may_not_raise:
            # 002 #8: a check or call out of turn never becomes a bet or raise, even once released.
            options = [o for o in options if o not in ("bet", "raise")]
            ctx.restrictions.append("no_raise" if word == "call" else "no_bet_or_raise")
            ctx.say(
                _N(
                    "The out-of-turn action is not binding because the action changed after it (%(changed)s). The "
                    "chips go back, but a player who checked or called out of turn may not bet or raise."
                ),
                "out_of_turn_changed_by",
                "out_of_turn_check_restricts",
                changed=", ".join(changed),
            )
            return ctx.done("none", s.in_front, binding=False, options=options)
        ctx.say(
            _N(
                "The out-of-turn action is not binding because the action changed after it (%(changed)s). The chips go back; the player has all options."
            ),
            "out_of_turn_changed_by",
            changed=", ".join(changed),
        )
        return ctx.done("none", s.in_front, binding=False, options=options)
    ctx.say(
        _N(
            "Out of turn, but the action has not changed (check, call and fold do not change it): "
            "the action is binding."
        )
        if "call" not in p.out_of_turn_changed_by
        else _N("Out of turn, but no bet, call or raise followed: the action is binding."),
        "out_of_turn_changed_by",
    )
    if verdict.may_not_raise:
        ctx.restrictions.append("no_raise" if word == "call" else "no_bet_or_raise")
        ctx.say(
            _N(
                "A player who checked out of turn may not bet or raise later; a call out of turn can never become a "
                "raise."
            ),
            "out_of_turn_check_restricts",
        )
    return None


# --------------------------------------------------------------------------- declared first
def _verbal(ctx: _Ctx, word: str) -> Ruling:
    s, p, o = ctx.s, ctx.p, ctx.o
    placed, bet, full = o.placed, s.current_bet, s.in_front + s.stack
    ctx.say(
        _N('Declared "%(declared)s" before any chips: the declaration is binding.'),
        "verbal_binding",
        declared=o.declared,
    )

    if word == "fold":
        return ctx.done("fold", s.in_front)

    if word == "check":
        if s.to_call == 0:
            return ctx.done("check", s.in_front)
        if placed >= s.to_call:
            ctx.say(
                _N('"Check" facing a bet: the player may only call or fold; the stack covers the call.'),
                "check_facing_bet_allows",
            )
            return ctx.done("call", bet)
        ctx.say(
            _N('"Check" facing a bet is invalid: the player may call or fold, but no longer raise.'),
            "check_facing_bet_allows",
        )
        ctx.restrictions.append("no_raise")
        return ctx.done("none", s.in_front, options=["call", "fold"])

    if word == "call":
        if s.to_call == 0:
            ctx.say(_N('With no bet to call, "call" is a check.'), "call_without_bet_is")
            return ctx.done("check", s.in_front)
        amount = min(bet, full)
        if placed < amount - s.in_front:
            ctx.say(
                _N("The declared call is binding: the player must complete it to %(amount)s."),
                "verbal_binding",
                amount=amount,
            )
        elif placed > amount - s.in_front:
            ctx.say(_N("Call: %(change)s is returned as change."), change=placed - (amount - s.in_front))
        return ctx.done("call", amount)

    if word == "all_in":
        return _raise_outcome(ctx, full, declared=True, all_in=True)

    # bet / raise / pot
    no_bet = bet == 0
    if no_bet and word == "raise":
        ctx.say(_N('With no bet yet, "raise" is a bet (at least the minimum bet).'), "raise_without_bet_is")
    if not no_bet and word == "bet":
        ctx.say(_N('"Bet" facing a bet is treated as a raise.'), "verbal_binding")
    minimum = raise_bounds(p, s)[0]
    if s.limit == "fixed_limit" and not no_bet and not _raise_allowed_split(ctx):
        return ctx.done("call", min(bet, full))

    if word == "pot":
        if s.limit == "pot_limit":
            target = _max_to(p, s)
            ctx.say(_N('"Pot" in pot-limit: the maximum, to %(target)s.'), target=target)
        else:
            target = minimum
            ctx.say(
                _N('"Pot" is not a valid declaration in no-limit; the player must make at least the minimum.'),
                "pot_declared_in_no_limit",
            )
    elif o.declared_amount is not None:
        said = o.declared_amount
        if said < s.big_blind and p.unclear_amount == "highest_reasonable_up_to_pot":
            said = _unclear_amount(ctx, said, s.big_blind if no_bet else max(minimum - bet, s.big_blind))
        if o.amount_kind == "by" and not no_bet:
            target = bet + said
        else:
            target = said
            if not no_bet:
                ctx.say(_N("A stated amount is the total: raise to %(said)s."), "declared_raise_amount", said=said)
    elif placed > 0:
        target = s.in_front + placed
        if o.chip_count == 1 and placed > max(s.to_call, 0) and not no_bet:
            target = s.in_front + placed
            ctx.say(
                _N('Oversized chip with "raise" and no amount: a raise to the chip\'s full value (%(target)s).'),
                "oversized_chip_raise_no_amount",
                target=target,
            )
        elif o.motions > 1:
            ctx.say(
                _N("After the declaration the chips may be put out in more than one motion."),
                "verbal_allows_several_motions",
            )
    else:
        target = minimum
        ctx.say(
            _N("No amount stated: the player must state it; at least %(minimum)s."), "verbal_binding", minimum=minimum
        )
    target = min(target, full)
    if s.limit == "pot_limit" and target > _max_to(p, s):
        target = _max_to(p, s)
        ctx.say(_N("In pot-limit at most %(target)s."), "oversized_chip_raise_no_amount", target=target)
    if no_bet:
        return _bet_outcome(ctx, target, declared=True)
    return _raise_outcome(ctx, target, declared=True)


def _raise_allowed_split(ctx: _Ctx) -> bool:
    s, p = ctx.s, ctx.p
    cap = p.split_limit_raise_cap
    if cap is None or (s.raises or 0) < cap:
        return True
    if s.heads_up and p.split_limit_cap_lifted_heads_up:
        ctx.say(_N("Only two players left: the number of raises is not capped."), "split_limit_cap_lifted_heads_up")
        return True
    ctx.say(
        _N("Split limit: the cap of %(cap)s raises per round is reached; this is a call."),
        "split_limit_raise_cap",
        cap=str(cap),
    )
    return False


# --------------------------------------------------------------------------- bets
def _bet_outcome(ctx: _Ctx, target: int, declared: bool) -> Ruling:
    s, p = ctx.s, ctx.p
    full = s.in_front + s.stack
    minimum = raise_bounds(p, s)[0]
    if target >= full:
        ctx.say(_N("The whole stack goes in: an all-in bet of %(full)s."), full=full)
        return ctx.done("bet", full, all_in=True, all_in_as="bet", full_raise=full >= minimum)
    if target < minimum:
        ctx.say(
            _N("A bet must be at least the big blind (%(big_blind)s); it is completed to %(minimum)s."),
            "min_bet",
            "short_bet",
            big_blind=s.big_blind,
            minimum=minimum,
        )
        target = minimum
    target = _round_to_unit(ctx, target)
    ctx.say(_N("Bet of %(target)s."), target=target)
    return ctx.done("bet", target, full_raise=True, min_raise_to=minimum)


# --------------------------------------------------------------------------- raises
def _raise_outcome(ctx: _Ctx, target: int, declared: bool, all_in: bool = False) -> Ruling:
    """Rule on a raise to ``target`` (total), declared or silent."""
    s, p = ctx.s, ctx.p
    bet, full = s.current_bet, s.in_front + s.stack
    minimum = raise_bounds(p, s)[0]
    raw_minimum = _raw_min_to(p, s)
    if bet == 0:
        return _bet_outcome(ctx, target, declared)
    if all_in or target >= full:
        target = full
        if target <= bet:
            ctx.say(_N("All-in for %(target)s: a call for less than (or exactly) the bet."), target=target)
            return ctx.done("call", target, all_in=True, all_in_as="call", min_raise_to=raw_minimum)
        if target >= raw_minimum:
            ctx.say(
                _N("All-in to %(target)s: a full raise (minimum %(raw_minimum)s); the betting is reopened."),
                "min_raise",
                target=target,
                raw_minimum=raw_minimum,
            )
            return ctx.done(
                "raise",
                target,
                all_in=True,
                all_in_as="raise",
                full_raise=True,
                reopens_betting=True,
                min_raise_to=raw_minimum,
            )
        ctx.say(
            _N(
                "All-in to %(target)s is less than a full raise (minimum %(raw_minimum)s): it does not reopen the "
                "betting for players who have already acted."
            ),
            "min_raise",
            "short_all_in_reopens",
            target=target,
            raw_minimum=raw_minimum,
        )
        if not p.short_all_in_caller_may_reraise:
            ctx.say(
                _N("A player who only calls this all-in may later only call or fold, even facing a raise."),
                "short_all_in_caller_may_reraise",
            )
        return ctx.done(
            "raise",
            target,
            all_in=True,
            all_in_as="incomplete_raise",
            full_raise=False,
            reopens_betting=False,
            min_raise_to=raw_minimum,
        )
    if target >= minimum:
        target = _round_to_unit(ctx, target)
        ctx.say(_N("Raise to %(target)s (minimum %(minimum)s)."), "min_raise", target=target, minimum=minimum)
        return ctx.done("raise", target, full_raise=True, reopens_betting=True, min_raise_to=minimum)
    # A raise short of the minimum.
    increment, needed = target - bet, minimum - bet
    if declared:
        if p.short_raise_declared == "fifty_percent_or_withdraw" and 2 * increment < needed:
            ctx.say(
                _N(
                    "Raise too small (under 50%% of the minimum raise of %(needed)s): the player may withdraw the "
                    "raise and just call (%(bet)s), or complete it to %(minimum)s."
                ),
                "short_raise_declared",
                "min_raise",
                needed=needed,
                bet=bet,
                minimum=minimum,
            )
            return ctx.done("call", bet, options=["raise"], min_raise_to=minimum)
        ctx.say(
            _N('"Raise" was declared with too little: it is a minimum raise, to %(minimum)s.'),
            "short_raise_declared",
            "min_raise",
            minimum=minimum,
        )
        return ctx.done(
            "raise", minimum, complete_to=minimum, full_raise=True, reopens_betting=True, min_raise_to=minimum
        )
    if p.short_raise_silent == "bet_plus_half":
        is_raise = 2 * target >= 3 * bet
        if is_raise:
            ctx.say(
                _N(
                    "The player put in the bet (%(bet)s) plus at least half of it (%(target)s): that announces a "
                    "raise, which must be completed to %(minimum)s."
                ),
                "short_raise_silent",
                "min_raise",
                bet=bet,
                target=target,
                minimum=minimum,
            )
        else:
            ctx.say(
                _N("Less than the bet plus half of it (%(bet_and_half)s): only a call."),
                "short_raise_silent",
                bet_and_half=bet + bet // 2,
            )
    else:
        is_raise = 2 * increment >= needed
        if is_raise:
            ctx.say(
                _N(
                    "Silently raised by %(increment)s, at least 50%% of the minimum raise of %(needed)s: a raise "
                    "that must be completed to %(minimum)s."
                ),
                "short_raise_silent",
                "min_raise",
                increment=increment,
                needed=needed,
                minimum=minimum,
            )
        else:
            ctx.say(
                _N("Silently only %(increment)s more, under 50%% of the minimum raise of %(needed)s: only a call."),
                "short_raise_silent",
                increment=increment,
                needed=needed,
            )
    if is_raise:
        return ctx.done(
            "raise", minimum, complete_to=minimum, full_raise=True, reopens_betting=True, min_raise_to=minimum
        )
    return ctx.done("call", bet, min_raise_to=minimum)


# --------------------------------------------------------------------------- silent chips
def _silent(ctx: _Ctx) -> Ruling:
    s, p, o = ctx.s, ctx.p, ctx.o
    placed, bet, full = o.placed, s.current_bet, s.in_front + s.stack
    whole_stack = placed == s.stack

    if bet == 0:  # nothing to call: an opening bet
        if o.motions > 1 and not whole_stack:
            if p.string_bet_counts_as == "minimum_bet":
                ctx.say(
                    _N("Not put out in one motion (string bet): it counts only as the minimum bet (the big blind)."),
                    "string_bet_counts_as",
                )
                return _bet_outcome(ctx, min(s.big_blind, full), declared=False)
            first = o.first_motion if o.first_motion else 0
            if first:
                ctx.say(
                    _N("String bet: only the first motion counts (%(first)s)."), "string_bet_counts_as", first=first
                )
            else:
                ctx.say(
                    _N("String bet: only the first motion counts; not recorded, so the minimum bet."),
                    "string_bet_counts_as",
                )
            return _bet_outcome(ctx, s.in_front + first if first else min(s.big_blind, full), declared=False)
        if o.chip_count == 1 and placed > s.big_blind:
            ctx.say(
                _N(
                    "A single larger chip opening the betting without a declaration: a bet of the chip's full value "
                    "(%(placed)s)."
                ),
                "oversized_chip_opening_bet",
                placed=placed,
            )
        return _bet_outcome(ctx, s.in_front + placed, declared=False)

    call_total = min(bet, full)
    need = call_total - s.in_front
    if placed <= need:
        if placed == need:
            ctx.say(_N("Call of %(call_total)s."), call_total=call_total)
            return ctx.done(
                "call",
                call_total,
                all_in=whole_stack and full <= bet,
                all_in_as="call" if whole_stack and full <= bet else None,
            )
        return _undercall(ctx)

    # More than a call was put out silently.
    if s.limit == "fixed_limit" and not _raise_allowed_split(ctx):
        return ctx.done("call", call_total)
    if o.chip_count == 1:
        if s.only_blinds and p.oversized_chip_facing_blinds == "raise_to_chip_value":
            target = s.in_front + placed
            ctx.say(
                _N(
                    "Only the blinds are in and nothing was declared: the oversized chip is a raise to its full "
                    "value (%(target)s)."
                ),
                "oversized_chip_facing_blinds",
                target=target,
            )
            return _raise_outcome(ctx, min(target, full), declared=False)
        param = "oversized_chip_facing_blinds" if s.only_blinds else "oversized_chip_facing_bet"
        ctx.say(
            _N(
                'A single oversized chip without a prior "raise" declaration is a call of %(call_total)s; '
                "even though it is the player's last chip."
            )
            if whole_stack
            else _N('A single oversized chip without a prior "raise" declaration is a call of %(call_total)s.'),
            param,
            call_total=call_total,
        )
        return ctx.done("call", call_total, all_in=False)
    if not p.silent_raise_allowed:
        ctx.say(
            _N("A raise must be declared before the chips touch the table; without a declaration it is a call."),
            "silent_raise_allowed",
        )
        return ctx.done("call", call_total, all_in=False)
    if o.motions > 1:
        ctx.say(
            _N("The chips came in several motions (string raise): not a raise, only a call."), "string_raise_counts_as"
        )
        return ctx.done("call", call_total, all_in=False)
    smallest = min(d for d, n in o.chips.items() if n > 0)
    if placed - smallest < need:
        ctx.say(
            _N(
                "Multiple chips without a declaration: removing any one chip would leave less than the call "
                "(%(call_total)s), so it is a call."
            ),
            "multiple_chips",
            call_total=call_total,
        )
        return ctx.done("call", call_total, all_in=False)
    ctx.say(
        _N("Multiple chips: the call is covered even without one %(smallest)s chip, so the amount decides."),
        "multiple_chips",
        smallest=smallest,
    )
    return _raise_outcome(ctx, s.in_front + placed, declared=False, all_in=whole_stack)


def _undercall(ctx: _Ctx) -> Ruling:
    """Fewer chips than the call, silently (not all-in)."""
    s, p, o = ctx.s, ctx.p, ctx.o
    bet = min(s.current_bet, s.in_front + s.stack)
    if p.undercall == "complete_or_fold":
        ctx.say(
            _N(
                "Incomplete call: the player must complete it to %(bet)s or forfeit the chips in and the pot (fold). A raise is no longer possible."
            ),
            "undercall",
            bet=bet,
        )
        ctx.restrictions.append("no_raise")
        return ctx.done("call", bet, options=["fold"])
    if p.undercall == "complete":
        if s.unaware_of_raise and not s.acted_after and 2 * o.placed < s.to_call:
            ctx.say(
                _N(
                    "The player missed the raise, nobody acted after that and the chips put in are under 50% of what was required: the player may take them back and reconsider."
                ),
                "undercall",
            )
            return ctx.done("call", bet, binding=False, options=["fold", "raise"])
        ctx.say(_N("A call that is too small must be completed to the correct amount (%(bet)s)."), "undercall", bet=bet)
        return ctx.done("call", bet)
    opening = s.facing_opening_bet
    if opening is None:
        opening = (s.raises or 0) == 0 and s.current_bet <= max(s.last_raise, s.big_blind)
    if s.heads_up or opening:
        ctx.say(
            _N("Incomplete call heads-up: the player must make a full call (%(bet)s).")
            if s.heads_up
            else _N("Incomplete call facing the opening bet: the player must make a full call (%(bet)s)."),
            "undercall",
            bet=bet,
        )
        return ctx.done("call", bet)
    ctx.say(
        _N(
            "Incomplete call (not heads-up, not facing the opening bet): the floor decides; normally a call of "
            "%(bet)s or a fold."
        ),
        "undercall",
        bet=bet,
    )
    return ctx.done("call", bet, floor=True, options=["fold"])


def interpret_json(profile_slug: str, data: dict) -> dict:
    """JSON in, JSON out: ``interpret(get_profile(profile_slug), *parse(data)).to_dict()``.

    Raises KeyError for an unknown profile and InterpretError for malformed input.
    """
    profile = get_profile(profile_slug)
    situation, observation = parse(data)
    return interpret(profile, situation, observation).to_dict()
