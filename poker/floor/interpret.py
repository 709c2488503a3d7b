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

from poker.floor.common import ProcedureError
from poker.floor.interpret_chips import bet_outcome, raise_allowed_split, raise_outcome, silent_chips
from poker.floor.interpret_context import RulingContext, max_to, raise_bounds, unclear_amount
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
from poker.houserules import HouseRules, get_profile
from poker.i18n import _N

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


# --------------------------------------------------------------------------- entry point
def interpret(profile: HouseRules, s: Situation, o: Observation) -> Ruling:
    """Rule on what the player did. See the module docstring and docs/interpret.md.

    Raises InterpretError when the observation contradicts the situation
    (more chips than the stack, an unknown word, ...).
    """
    _check(s, o)
    ctx = RulingContext(profile, s, o)
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
    return silent_chips(ctx)


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
def _out_of_turn(ctx: RulingContext, word: str | None) -> Ruling | None:
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
def _verbal(ctx: RulingContext, word: str) -> Ruling:
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
        return raise_outcome(ctx, full, declared=True, all_in=True)

    # bet / raise / pot
    no_bet = bet == 0
    if no_bet and word == "raise":
        ctx.say(_N('With no bet yet, "raise" is a bet (at least the minimum bet).'), "raise_without_bet_is")
    if not no_bet and word == "bet":
        ctx.say(_N('"Bet" facing a bet is treated as a raise.'), "verbal_binding")
    minimum = raise_bounds(p, s)[0]
    if s.limit == "fixed_limit" and not no_bet and not raise_allowed_split(ctx):
        return ctx.done("call", min(bet, full))

    if word == "pot":
        if s.limit == "pot_limit":
            target = max_to(p, s)
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
            said = unclear_amount(ctx, said, s.big_blind if no_bet else max(minimum - bet, s.big_blind))
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
    if s.limit == "pot_limit" and target > max_to(p, s):
        target = max_to(p, s)
        ctx.say(_N("In pot-limit at most %(target)s."), "oversized_chip_raise_no_amount", target=target)
    if no_bet:
        return bet_outcome(ctx, target, declared=True)
    return raise_outcome(ctx, target, declared=True)


def interpret_json(profile_slug: str, data: dict) -> dict:
    """JSON in, JSON out: ``interpret(get_profile(profile_slug), *parse(data)).to_dict()``.

    Raises KeyError for an unknown profile and InterpretError for malformed input.
    """
    profile = get_profile(profile_slug)
    situation, observation = parse(data)
    return interpret(profile, situation, observation).to_dict()
