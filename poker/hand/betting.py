"""Betting: whose turn it is, the legal actions, minimum raise, amounts to call.

Part of :class:`~poker.hand.state.HandState` (a mixin: these methods run on
the state and read its fields). Betting model (the same queue model as
pokerkit, so the two can be compared action by action): at the start of a
round the players to act are queued clockwise from the opener (preflop:
left of the largest blind or straddle; postflop: first player left of the
button), skipping players who folded, are all-in, or have nobody left to
bet against. A check, call or fold removes the player from the queue; a bet
or raise re-queues every other player who still has chips. The round ends
when the queue is empty or one player is left (``Showdown._end_round``).

The stud games (``spec.game_variant.forced == "bring_in"``) bet through the same methods: the
round opens with the bring-in (the player to act brings in or completes to the small bet, and
may not fold, check or call first), a raise is one more bet at the fixed limit (the big one once
an open pair opened with it, 000 Aktionen 3), a short all-in reopens as pokerkit reads it (000
Aktionen 5); :class:`StudLegal` reports the bring-in.

Sources: TDA and rulebook 002 #3-#4 (minimum bet and raise), 003 "All-In"
(a short all-in does not reopen the betting), 004 #54 (pot limit), 000
Einsätze 2 / Aktionen 3 (split limit and its cap), 000 Einsätze 4 (live
posts), 000 Allgemein 8 (chip units), 000 Allgemein 14 (bomb pot, flip: no
betting before the flop / at all).
"""

from __future__ import annotations

from itertools import compress
from operator import add, not_
from typing import NamedTuple, Self

from .errors import EngineError
from .fields import HandFields
from .formats import limit_message
from .limits import max_raise_to, min_raise_to, pot_limit_max_to, unit_bounds
from .records import SeatAction, Wager

__all__ = ["Legal", "StudLegal", "BettingRound"]

_NOBODY: frozenset[int] = frozenset()

#: ``_FROM[n][p]``: the positions of ``n`` players clockwise from ``p`` (``p`` first);
#: ``_AFTER[n][p]``: the others clockwise after ``p`` (the orders the queue is built in, made once)
_FROM = [[(*range(p, n), *range(p)) for p in range(n)] for n in range(24)]
_AFTER = [[(*range(p + 1, n), *range(p)) for p in range(n)] for n in range(24)]


def _clockwise_from(n: int, first: int) -> tuple[int, ...]:
    return _FROM[n][first] if n < 24 else (*range(first, n), *range(first))


def _clockwise_after(n: int, pos: int) -> tuple[int, ...]:
    return _AFTER[n][pos] if n < 24 else (*range(pos + 1, n), *range(pos))


class Legal(NamedTuple):
    """What the player to act may do.

    Fields:
        seat: table seat number of the player to act.
        position: position index of that player.
        can_fold: always True for the player to act (a fold when a check is
            possible is allowed and binding).
        can_check: True when there is nothing to call.
        call_amount: chips the player adds to call (0 when checking; less
            than the bet when calling all-in).
        min_raise_to: smallest legal bet/raise "to" amount (total on this
            street; may be an all-in for less), or None when no raise is
            allowed.
        max_raise_to: largest legal "to" amount (the all-in), or None.
        can_bet_or_raise: whether a bet or raise is allowed at all.
        raise_blocked_by: when no raise is allowed, the EngineError code a
            raise would get (``"betting_closed"``, ``"above_stack"``,
            ``"nobody_to_raise"``), else None.
    """

    seat: int
    position: int
    can_fold: bool
    can_check: bool
    call_amount: int
    min_raise_to: int | None
    max_raise_to: int | None
    can_bet_or_raise: bool
    raise_blocked_by: str | None = None

    def to_dict(self) -> dict:
        """JSON-serialisable dict of the fields."""
        return self._asdict()


class StudLegal(NamedTuple):
    """What the player to act may do in a stud game: the fields of :class:`Legal` and
    ``bring_in``, the chips of the bring-in while it is due (the player brings in or completes
    to ``min_raise_to``; ``can_fold`` is False and ``call_amount`` None then), else None. The
    completion, bet or raise amounts are fixed (equal, except with an open pair on fourth
    street, 000 Aktionen 3: the small or the big bet)."""

    seat: int
    position: int
    can_fold: bool
    can_check: bool
    call_amount: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    can_bet_or_raise: bool
    bring_in: int | None
    raise_blocked_by: str | None = None

    def to_dict(self) -> dict:
        """The fields by name, JSON-serialisable (``bring_in`` and ``call_amount`` None when not due)."""
        return self._asdict()


class BettingRound(HandFields):
    """The betting part of :class:`~poker.hand.state.HandState`: queueing
    the players to act, the bounds of a bet or raise, and the betting
    actions (fold, check, call, bet/raise, all-in)."""

    __slots__ = ()

    def _second_total(self) -> int:
        # bet + stack of each player who has not folded (in C: compress by the not-folded flags)
        totals = sorted(compress(map(add, self._bets, self._stacks), map(not_, self._folded)))
        return totals[-2] if len(totals) > 1 else 0

    def _begin_round(self, opener: int, raise_inc: int) -> None:
        """Queue the players to act from ``opener`` (mutates a fresh state)."""
        stacks, bets, folded = self._stacks, self._bets, self._folded
        n = len(stacks)
        spec = self.spec
        street = self._street
        if street < spec._betting_from:
            actors: tuple[int, ...] = ()  # bomb pot preflop, flip: no betting (000 Allgemein 14)
        elif any(bets):
            # (_second_total, inline: the second largest bet + stack of the players not folded)
            totals = sorted(
                compress(map(add, bets, stacks), map(not_, folded)) if True in folded else map(add, bets, stacks)
            )
            second = totals[-2] if len(totals) > 1 else 0
            # clockwise from the opener; (stack > 0 and second > bet: something left to bet against)
            actors = tuple([i for i in _clockwise_from(n, opener) if not folded[i] and stacks[i] and second > bets[i]])
        else:
            # no bet in front (a street after the first): the same queue, read without the sort --
            # the second largest stack is above 0 exactly when two players not folded have chips
            actors = tuple([i for i in _clockwise_from(n, opener) if not folded[i] and stacks[i]])
            if len(actors) < 2:
                actors = ()
        # Split limit: preflop the big blind is the bet and a straddle a raise
        # (pokerkit's reading, limit_blind_counts_as_bet=False: neither counts).
        # A live post (000 Einsätze 4) is neither a bet nor a raise.
        if street == 0 and spec.rules.limit_blind_counts_as_bet:
            blind_bets = self._blind_bets(bets) if spec._posts else bets
            self._raises = 1 + sum(map(bool, blind_bets[2:])) if any(blind_bets) else 0  # + the straddles
        else:
            self._raises = 0
        self._uncapped = False
        self._short_top = False
        self._called_short = _NOBODY
        self._actors = actors
        self._acted = _NOBODY
        self._raise_inc = raise_inc
        self._allin_incs = ()
        self._reopen = (None,) * n
        self._aggressor = None
        self._street_acted = False
        self._phase = "betting"
        if not actors or folded.count(False) <= 1 or (len(actors) == 1 and bets[actors[0]] >= max(bets)):
            self._end_round()

    def _blind_bets(self, bets: tuple[int, ...]) -> list[int]:
        """``bets`` without the live posts (000 Einsätze 4)."""
        blind_bets = list(bets)
        for i, _ in self.spec._posts:
            blind_bets[i] = 0
        return blind_bets

    def _min_to_raw(self) -> int:
        """Minimum raise-to before capping by the stacks (:func:`.limits.min_raise_to`; a stud
        game: the completion to the small bet, else one more bet, at least the largest so far)."""
        spec = self.spec
        if spec._min_raise_plain:
            # min_raise_to's no-limit and pot-limit reading of "last_full_raise", inline (asked
            # after every call and twice per raise)
            raise_inc, min_bet = self._raise_inc, spec.min_bet  # type: ignore[union-attr]  # a HandSpec's flag
            return max(self._bets) + (raise_inc if raise_inc > min_bet else min_bet)
        structure = spec._structure
        if spec._stud:
            step = max(self._raise_inc, spec.bet_size(self._street))
            return step if self._street == 0 and not self._raises else max(self._bets) + step
        return min_raise_to(
            max(self._bets),
            self._raise_inc,
            spec.min_bet,  # type: ignore[union-attr]  # a HandSpec here (a StudSpec returned above)
            spec.rules.min_raise,
            structure,
            spec.bet_size(self._street) if structure == "fixed_limit" else None,
        )

    def _raise_block(self, pos: int) -> tuple[str, str] | None:
        """Why ``pos`` may not bet or raise now, as (code, message), or None."""
        bets, stacks = self._bets, self._stacks
        top = max(bets)
        spec = self.spec
        if spec._structure == "fixed_limit":
            cap = spec.rules.limit_raise_cap
            if cap is not None and not self._uncapped and self._raises >= cap + 1:
                return (
                    "raise_cap",
                    f"The round is capped: a bet and {cap} raises (000 Aktionen 3); call or fold.",
                )
        if self._called_short and pos in self._called_short:
            return (
                "betting_closed",
                "This player called a short all-in and may now only call or fold (003 'All-In').",
            )
        if spec._pk_reopen:
            # pokerkit 0.7.7: no raise while the call is below the largest
            # increment, nor after a run of short all-ins for one who acted.
            closed = min(stacks[pos], top - bets[pos]) < self._raise_inc or (
                self._allin_incs and sum(self._allin_incs) < self._raise_inc and pos in self._acted
            )
        else:
            limit = self._reopen[pos]
            closed = limit is not None and top < limit
        if closed:
            return (
                "betting_closed",
                "A short all-in did not reopen the betting: this player already acted "
                "and may only call or fold (TDA; rulebook 003 'All-In').",
            )
        if stacks[pos] <= top - bets[pos]:
            return ("above_stack", "The stack only covers a call; the player can call all-in or fold.")
        folded = self._folded
        for i in range(len(bets)):
            if i != pos and not folded[i] and stacks[i] + bets[i] > top:
                return None
        return ("nobody_to_raise", "Every opponent is all-in; the player can only call or fold.")

    def _raise_bounds(self, pos: int) -> tuple[int, int]:
        """``(low, high)`` "to" amounts of a bet or raise by ``pos``: the
        minimum capped by the player's own stack (``Rules.min_raise_cap``:
        also by the opponents' under ``"effective_stack"``), the maximum
        by the structure, both on the chip unit (:mod:`.limits`)."""
        bet, stack = self._bets[pos], self._stacks[pos]
        all_in_to = stack + bet
        spec = self.spec
        if spec._structure == "no_limit" and spec._bet_unit == 1 and spec.rules.min_raise_cap == "own_stack":
            # the common case of the lines below: no limit, any whole chip, the player's own stack
            return min(all_in_to, self._min_to_raw()), all_in_to
        if spec.rules.min_raise_cap == "effective_stack" and not spec._stud:
            low = min(min(stack, max(0, self._second_total() - bet)) + bet, self._min_to_raw())
        else:
            low = min(all_in_to, self._min_to_raw())
        structure = spec._structure
        pot_to = None
        if structure == "pot_limit":
            pot = sum(self._contrib) + sum(self._bets) + (self._pl_credit if self._street == 0 else 0)
            pot_to = pot_limit_max_to(max(self._bets), bet, pot)
        high = max_raise_to(structure, low, all_in_to, pot_to)
        if self._open_pair:  # 000 Aktionen 3: the small or the big bet
            high = min(max(self._bets) + max(self._raise_inc, spec.big_bet or 0), all_in_to)
        return unit_bounds(low, high, all_in_to, spec._bet_unit)

    def _after_passive(self, new: Self, pos: int, amount: int) -> None:
        """Check or call ``amount`` chips by ``pos`` on ``new`` (which may be this state itself,
        changed in place: every field of ``self`` is read before ``new``'s is written)."""
        top = max(self._bets)
        bet, stack = self._bets[pos], self._stacks[pos]
        reopen_to = self._min_to_raw() if top else None
        if amount:
            stacks = list(new._stacks)
            bets = list(new._bets)
            stacks[pos] -= amount
            bets[pos] += amount
            new._stacks = tuple(stacks)
            new._bets = tuple(bets)
        if top or self._reopen[pos] is not None:
            reopen = list(new._reopen)
            reopen[pos] = reopen_to
            new._reopen = tuple(reopen)
        new._acted = self._acted | {pos}
        new._actors = self._actors[1:]
        new._street_acted = True
        if amount and self._short_top:
            new._called_short = self._called_short | {pos}
        if amount and self.spec._pl_credit_on and self._street == 0 and amount == stack:
            # 004 #54: an all-in call for less counts in full preflop.
            new._pl_credit = self._pl_credit + top - bet - amount
        if not new._actors:
            new._end_round()

    def _bring_in_due(self) -> bool:
        """A stud game's third street before anybody brought in or completed (a hand killed
        meanwhile passes the bring-in to the next player in turn)."""
        return self.spec._stud and self._street == 0 and not self._street_acted

    def _passive_turn(self, action: SeatAction) -> int:
        """:meth:`_turn` of a fold, check or call: refused while the bring-in is due."""
        pos = self._turn(action)
        if not self._street and not self._street_acted and self.spec._stud:  # (_bring_in_due)
            self._refuse_before_bring_in()
        return pos

    def _refuse_before_bring_in(self) -> None:
        spec = self.spec
        raise EngineError(
            "bad_action",
            f"The lowest up card brings in {spec.bring_in} or completes to {spec.small_bet}.",  # type: ignore[union-attr]  # a StudSpec
        )

    # Each betting action is its check (``_check_*``: the position and what the action puts in,
    # or EngineError) and its change of the state; ``can``/``verify`` run the check alone. The
    # actions are records (:mod:`.records`): a fold, check, call or all-in a SeatAction, a bet,
    # raise or completion a Wager (its ``to``: chips in front on this street).
    def _do_fold(self, action: SeatAction) -> Self:
        pos = self._turn(action)  # (the check of a fold: _passive_turn)
        if not self._street and not self._street_acted and self.spec._stud:
            self._refuse_before_bring_in()
        new = self._copy()
        folded = list(self._folded)
        folded[pos] = True
        new._folded = tuple(folded)
        new._acted = self._acted | {pos}
        new._actors = self._actors[1:]
        new._street_acted = True
        if not new._actors or folded.count(False) <= 1:
            new._end_round()
        return new

    def _check_check(self, action: SeatAction) -> int:
        pos = self._turn(action)
        if not self._street and not self._street_acted and self.spec._stud:
            self._refuse_before_bring_in()
        if min(self._stacks[pos], max(self._bets) - self._bets[pos]):
            raise EngineError("cannot_check", "The player faces a bet and cannot check.")
        return pos

    def _do_check(self, action: SeatAction) -> Self:
        pos = self._check_check(action)
        new = self._copy()
        self._after_passive(new, pos, 0)
        return new

    def _check_call(self, action: SeatAction) -> tuple[int, int]:
        pos = self._turn(action)
        if not self._street and not self._street_acted and self.spec._stud:
            self._refuse_before_bring_in()
        amount = min(self._stacks[pos], max(self._bets) - self._bets[pos])
        if not amount:
            raise EngineError("nothing_to_call", "There is nothing to call; the player can check.")
        return pos, amount

    def _do_call(self, action: SeatAction) -> Self:
        pos, amount = self._check_call(action)
        new = self._copy()
        self._after_passive(new, pos, amount)
        return new

    def _check_raise(self, action: Wager) -> None:
        self._raise_allowed(self._turn(action), action.to)

    def _do_raise(self, action: Wager) -> Self:
        pos = self._turn(action)  # (the check of a bet or raise: _check_raise)
        to = action.to
        self._raise_allowed(pos, to)
        return self._raised(pos, to)

    def _raise_allowed(self, pos: int, to: int) -> None:
        """Refuse a bet or raise of ``pos`` to ``to`` (EngineError ``raise_cap``,
        ``betting_closed``, ``above_stack``, ``nobody_to_raise``, ``above_limit``,
        ``below_minimum_bet``/``_raise``, ``bad_chip_unit``), else return None."""
        block = self._raise_block(pos)
        if block is not None:
            raise EngineError(*block)
        low, high = self._raise_bounds(pos)
        top = max(self._bets)
        if to > high:
            if high < self._stacks[pos] + self._bets[pos]:
                raise EngineError("above_limit", limit_message(self.spec, low, high))
            raise EngineError("above_stack", f"{to} is more than the player has: the all-in is to {high}.")
        if to < low:
            if top == 0:
                raise EngineError("below_minimum_bet", f"The minimum bet is {low} (TDA; rulebook 002 #3).")
            raise EngineError("below_minimum_raise", f"The minimum raise is to {low}.")
        if self._open_pair and low < to < high:
            raise EngineError(
                "below_minimum_raise" if top else "below_minimum_bet",
                f"With an open pair the bet or raise is to {low} or {high} (000 Aktionen 3).",
            )
        unit = self.spec._bet_unit
        if unit != 1 and to % unit and to != high:
            raise EngineError(
                "bad_chip_unit",
                f"{to} is not divisible by {unit}: every bet must be a multiple of {unit} (000 Allgemein 8).",
            )

    def _raised(self, pos: int, to: int) -> Self:
        """The state after ``pos`` bet or raised to ``to`` (checked by :meth:`_raise_allowed`)."""
        top = max(self._bets)
        rules = self.spec.rules
        # read before ``new`` changes: ``new`` may be this state itself (changed in place)
        raises = self._raises
        min_to_before = None if self.spec._caller_may_reraise else self._min_to_raw()
        new = self._copy()
        stacks = list(self._stacks)
        bets = list(self._bets)
        stacks[pos] -= to - bets[pos]
        bets[pos] = to
        new._stacks = tuple(stacks)
        new._bets = tuple(bets)
        n = len(bets)
        folded = self._folded
        new._actors = tuple([i for i in _clockwise_after(n, pos) if not folded[i] and stacks[i]])
        increment = to - top
        if self.spec._pk_reopen:
            new._acted = frozenset((pos,)) if increment >= self._raise_inc else self._acted | {pos}
            new._allin_incs = self._allin_incs + (increment,) if not stacks[pos] else ()
            if sum(new._allin_incs) >= max(self._raise_inc, increment):
                new._allin_incs = ()
        else:
            new._acted = self._acted | {pos}
        new._raise_inc = max(self._raise_inc, increment)
        new._raises = raises + 1
        if (
            self.spec._structure == "fixed_limit"
            and rules.limit_cap_lifted_heads_up
            and rules.limit_raise_cap is not None
            and raises < rules.limit_raise_cap + 1
            and folded.count(False) == 2
        ):
            new._uncapped = True  # 000 Aktionen 3: only two players left before the cap
        if min_to_before is not None:
            new._short_top = not stacks[pos] and to < min_to_before
        reopen = list(self._reopen)
        reopen[pos] = new._min_to_raw()
        new._reopen = tuple(reopen)
        new._aggressor = pos
        new._street_acted = True
        return new

    def _check_all_in(self, action: SeatAction) -> tuple[int, bool]:
        """The position and whether the all-in is a call (else a bet or raise, checked)."""
        pos = self._turn(action)
        to = self._stacks[pos] + self._bets[pos]
        if to <= max(self._bets):
            return pos, True
        self._raise_allowed(pos, to)
        return pos, False

    def _do_all_in(self, action: SeatAction) -> Self:
        pos, calls = self._check_all_in(action)
        if calls:
            new = self._copy()
            self._after_passive(new, pos, self._stacks[pos])
            return new
        return self._raised(pos, self._stacks[pos] + self._bets[pos])

    def legal(self) -> Legal | StudLegal:
        """Options of the player to act.

        Returns:
            :class:`Legal`, or :class:`StudLegal` in a stud game.

        Raises:
            EngineError("hand_over") when complete, EngineError
            ("not_betting_round") when no betting action is pending.
        """
        if self._phase != "betting":
            if self._phase == "complete":
                raise EngineError("hand_over", "The hand is over.")
            raise EngineError("not_betting_round", f"No betting action is pending (phase {self._phase}).")
        pos = self._actors[0]
        call = min(self._stacks[pos], max(self._bets) - self._bets[pos])
        block = self._raise_block(pos)
        low = high = None
        if block is None:
            low, high = self._raise_bounds(pos)
        if self.spec._stud:
            due = self._bring_in_due()
            return StudLegal(
                self.spec.seat_of(pos),
                pos,
                not due,
                not due and call == 0,
                None if due else call,
                low,
                high,
                block is None,
                min(self._stacks[pos], self.spec.bring_in) if due else None,  # type: ignore[union-attr]  # a StudSpec
                None if block is None else block[0],
            )
        return Legal(
            self.spec.seats[pos].seat,
            pos,
            True,
            call == 0,
            call,
            low,
            high,
            block is None,
            None if block is None else block[0],
        )
