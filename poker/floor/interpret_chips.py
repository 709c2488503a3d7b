"""The rulings on chips put out: a bet, a raise (declared or not, with the split-limit raise
cap), silent chips and an undercall (000 Aktionen 2-5, 001 6.17-6.20, 002 #3-#14, 003
"Einsätze", 004 #40-#52, TDA 40-52). Standard library only; see :mod:`poker.floor.interpret`."""

from __future__ import annotations

from poker.floor.interpret_context import RulingContext, raise_bounds, raw_min_to, round_to_table_unit
from poker.floor.interpret_data import (
    Ruling,
)
from poker.i18n import _N

__all__ = ["bet_outcome", "raise_allowed_split", "raise_outcome", "silent_chips", "undercall"]


def raise_allowed_split(ctx: RulingContext) -> bool:
    """Whether a split-limit raise is still allowed (the raise cap, lifted heads-up); says why in ``ctx``."""
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
def bet_outcome(ctx: RulingContext, target: int, declared: bool) -> Ruling:
    """Rule on a bet to ``target`` (total chips) where nobody has bet yet, declared or silent."""
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
    target = round_to_table_unit(ctx, target)
    ctx.say(_N("Bet of %(target)s."), target=target)
    return ctx.done("bet", target, full_raise=True, min_raise_to=minimum)


# --------------------------------------------------------------------------- raises
def raise_outcome(ctx: RulingContext, target: int, declared: bool, all_in: bool = False) -> Ruling:
    """Rule on a raise to ``target`` (total), declared or silent."""
    s, p = ctx.s, ctx.p
    bet, full = s.current_bet, s.in_front + s.stack
    minimum = raise_bounds(p, s)[0]
    raw_minimum = raw_min_to(p, s)
    if bet == 0:
        return bet_outcome(ctx, target, declared)
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
        target = round_to_table_unit(ctx, target)
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
def silent_chips(ctx: RulingContext) -> Ruling:
    """Rule on chips put out without a word (one oversized chip, several chips, a call amount)."""
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
                return bet_outcome(ctx, min(s.big_blind, full), declared=False)
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
            return bet_outcome(ctx, s.in_front + first if first else min(s.big_blind, full), declared=False)
        if o.chip_count == 1 and placed > s.big_blind:
            ctx.say(
                _N(
                    "A single larger chip opening the betting without a declaration: a bet of the chip's full value "
                    "(%(placed)s)."
                ),
                "oversized_chip_opening_bet",
                placed=placed,
            )
        return bet_outcome(ctx, s.in_front + placed, declared=False)

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
        return undercall(ctx)

    # More than a call was put out silently.
    if s.limit == "fixed_limit" and not raise_allowed_split(ctx):
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
            return raise_outcome(ctx, min(target, full), declared=False)
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
    return raise_outcome(ctx, s.in_front + placed, declared=False, all_in=whole_stack)


def undercall(ctx: RulingContext) -> Ruling:
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
