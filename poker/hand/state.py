"""The hand state machine: immutable states, actions as plain dicts.

Positions are indexes into ``HandSpec.seats`` (0 = small blind ... last =
button; heads-up 0 = big blind, 1 = button). Actions name players by TABLE
seat number. All chip amounts are ints; "to" amounts are a player's total bet
on the current street.

Betting model (the same queue model as pokerkit, so the two can be compared
action by action): at the start of a round the players to act are queued
clockwise from the opener (preflop: left of the largest blind or straddle;
postflop: first player left of the button), skipping players who folded, are
all-in, or have nobody left to bet against. A check, call or fold removes the
player from the queue; a bet or raise re-queues every other player who still
has chips. The round ends when the queue is empty or one player is left.
"""

from __future__ import annotations

from typing import NamedTuple

from . import formats
from .cards import UNKNOWN, is_known, parse_cards
from .errors import EngineError
from .evaluation import evaluate_showdown
from .pots import Award, Pot, build_pots, split_amount
from .spec import HandSpec

__all__ = ["HandState", "Legal", "STREETS"]

STREETS = ("preflop", "flop", "turn", "river")
#: Board cards dealt at the start of each street.
BOARD_CARDS = (0, 3, 1, 1)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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


class AllInFlags(tuple):
    """Tuple of per-position all-in flags that is also callable as the
    ``all_in`` action: ``state.all_in(seat)`` == ``state.go_all_in(seat)``."""

    def __new__(cls, flags: tuple[bool, ...], state: "HandState"):
        obj = super().__new__(cls, flags)
        obj._state = state
        return obj

    def __call__(self, seat: int) -> "HandState":
        """Apply ``{"type": "all_in", "seat": seat}`` to the owning state."""
        return self._state.go_all_in(seat)


_SLOTS = (
    "spec", "_stacks", "_bets", "_contrib", "_dead", "_folded", "_street", "_phase",
    "_actors", "_acted", "_raise_inc", "_allin_incs", "_reopen", "_aggressor",
    "_street_acted", "_sd_aggr", "_runout", "_board", "_hole", "_shown", "_mucked",
    "_pots_final", "_awards", "_history", "_final",
    # variants (games, special formats): see formats.py
    "_raises", "_uncapped", "_short_top", "_called_short", "_board2", "_rit", "_pl_credit",
)


class HandState:
    """One moment of a hand. Immutable: :meth:`apply` returns a new state.

    Create with :meth:`HandState.start`. Queries are properties (``street``,
    ``phase``, ``to_act``, ``stacks``, ``bets``, ``pots`` ...); changes are
    action dicts passed to :meth:`apply` (or the per-action helpers such as
    :meth:`call`). Refused actions raise :class:`EngineError` and leave the
    state as it was.
    """

    __slots__ = _SLOTS

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("Use HandState.start(spec) to create a hand.")

    # ================================================================ start
    @classmethod
    def start(cls, spec: HandSpec) -> "HandState":
        """Start a hand: post antes, then blinds and straddle; street "preflop".

        Args:
            spec: the :class:`HandSpec`.

        Returns:
            The state with the first player to act (or, if everyone is
            already all-in, waiting for the board).

        Posting (pokerkit and TDA): each player posts the ante first, capped
        by the stack; antes are collected at once (with
        ``spec.ante_trimming`` the part of the largest ante above the second
        largest goes back). Then blinds and straddle, capped by what is
        left. Preflop action starts left of the largest blind or straddle.
        Then the live posts (``spec.posts``, 000 Einsätze 4), capped by what
        is left: they are in the poster's bet but change neither the opener
        nor the amount to call, and the poster keeps his option to check.

        Raises:
            EngineError("bad_spec") if ``spec`` is not a HandSpec.
        """
        if not isinstance(spec, HandSpec):
            raise EngineError("bad_spec", "HandState.start needs a HandSpec.")
        n = len(spec.seats)
        stacks = [seat.stack for seat in spec.seats]
        antes = [spec.posted_ante(i) for i in range(n)]
        contrib = [0] * n
        dead = [0] * n
        if any(antes):
            posted = list(antes)
            for i in range(n):
                stacks[i] -= antes[i]
            if spec.ante_trimming:
                cutoff = sorted(posted)[-2]
                for i in range(n):
                    if posted[i] > cutoff:
                        stacks[i] += posted[i] - cutoff
                        posted[i] = cutoff
            else:
                dead = list(antes)
            contrib = posted
        forced = spec.bomb_pot or spec.flip
        if forced:
            # 000 Allgemein 14: every player posts the agreed amount (live
            # chips: a short stack makes a side pot).
            for i in range(n):
                posted_forced = min(forced, stacks[i])
                stacks[i] -= posted_forced
                contrib[i] += posted_forced
        bets = [spec.posted_blind(i) for i in range(n)]
        for i in range(n):
            stacks[i] -= bets[i]
        top_blind = max(bets)
        if spec._posts:
            # 000 Einsätze 4: the big blind owed after a seat change is a live
            # post, taken like a blind (capped by the stack) but it neither
            # moves the opener nor raises the amount to call.
            for i, amount in spec._posts:
                post = min(amount, stacks[i])
                stacks[i] -= post
                bets[i] += post

        s = object.__new__(cls)
        s.spec = spec
        s._stacks = tuple(stacks)
        s._bets = tuple(bets)
        s._contrib = tuple(contrib)
        s._dead = tuple(dead)
        s._folded = (False,) * n
        s._street = 0
        s._phase = "betting"
        s._sd_aggr = None
        s._runout = bool(spec.flip)  # a flip has no betting at all
        s._board = ()
        s._hole = (None,) * n
        s._shown = (False,) * n
        s._mucked = (False,) * n
        s._pots_final = None
        s._awards = ()
        s._history = ()
        s._final = None
        s._board2 = () if spec.boards == 2 else None
        s._rit = None
        # 004 #54: preflop a blind posted short counts in full for the pot limit.
        s._pl_credit = sum(
            spec.nominal_blind(i) - bets[i] for i in range(n) if spec.nominal_blind(i) > bets[i]
        ) if spec._pl_credit_on else 0
        opener = (max(range(n), key=lambda i: (bets[i] if spec.nominal_blind(i) > 0 else 0, i)) + 1) % n
        # A live straddle is a blind raise: the next raise must be at least
        # the largest forced bet (Rules.straddle_min_raise == "straddle").
        raise_inc = top_blind if spec.rules.straddle_min_raise == "straddle" else 0
        s._begin_round(opener, raise_inc)
        return s

    # ============================================================== internals
    def _copy(self) -> "HandState":
        new = object.__new__(HandState)
        new.spec = self.spec
        new._stacks = self._stacks
        new._bets = self._bets
        new._contrib = self._contrib
        new._dead = self._dead
        new._folded = self._folded
        new._street = self._street
        new._phase = self._phase
        new._actors = self._actors
        new._acted = self._acted
        new._raise_inc = self._raise_inc
        new._allin_incs = self._allin_incs
        new._reopen = self._reopen
        new._aggressor = self._aggressor
        new._street_acted = self._street_acted
        new._sd_aggr = self._sd_aggr
        new._runout = self._runout
        new._board = self._board
        new._hole = self._hole
        new._shown = self._shown
        new._mucked = self._mucked
        new._pots_final = self._pots_final
        new._awards = self._awards
        new._history = self._history
        new._final = self._final
        new._raises = self._raises
        new._uncapped = self._uncapped
        new._short_top = self._short_top
        new._called_short = self._called_short
        new._board2 = self._board2
        new._rit = self._rit
        new._pl_credit = self._pl_credit
        return new

    def _second_total(self) -> int:
        totals = sorted(b + s for b, s, f in zip(self._bets, self._stacks, self._folded) if not f)
        return totals[-2] if len(totals) > 1 else 0

    def _begin_round(self, opener: int, raise_inc: int) -> None:
        """Queue the players to act from ``opener`` (mutates a fresh state)."""
        n = len(self._stacks)
        stacks, bets, folded = self._stacks, self._bets, self._folded
        second = self._second_total()
        actors = []
        for k in range(n):
            i = (opener + k) % n
            if folded[i] or not stacks[i] or min(stacks[i], second - bets[i]) <= 0:
                continue
            actors.append(i)
        spec = self.spec
        if self._street < spec._betting_from:
            actors = []  # bomb pot preflop, flip: no betting (000 Allgemein 14)
        # Split limit: preflop the big blind is the bet and a straddle a raise
        # (pokerkit's reading, limit_blind_counts_as_bet=False: neither counts).
        # A live post (000 Einsätze 4) is neither a bet nor a raise.
        blind_bets = bets if not spec._posts or self._street else self._blind_bets(bets)
        self._raises = (
            1 + sum(1 for b in blind_bets[2:] if b)
            if self._street == 0 and spec.rules.limit_blind_counts_as_bet and any(blind_bets) else 0
        )
        self._uncapped = False
        self._short_top = False
        self._called_short = frozenset()
        self._actors = tuple(actors)
        self._acted = frozenset()
        self._raise_inc = raise_inc
        self._allin_incs = ()
        self._reopen = (None,) * n
        self._aggressor = None
        self._street_acted = False
        self._phase = "betting"
        if (
            not actors
            or folded.count(False) <= 1
            or (len(actors) == 1 and bets[actors[0]] >= max(bets))
        ):
            self._end_round()

    def _blind_bets(self, bets: tuple[int, ...]) -> list[int]:
        """``bets`` without the live posts (000 Einsätze 4)."""
        blind_bets = list(bets)
        for i, _ in self.spec._posts:
            blind_bets[i] = 0
        return blind_bets

    def _end_round(self) -> None:
        """Close the betting round: return the uncalled bet, collect the bets,
        then finish the hand, go to showdown or wait for the board."""
        n = len(self._stacks)
        self._actors = ()
        if self._street_acted:
            self._sd_aggr = self._aggressor
        folded = self._folded
        stacks = list(self._stacks)
        bets = list(self._bets)
        contrib = list(self._contrib)
        # Uncalled bet returned (TDA; pokerkit): nobody can win more of a bet
        # than the second largest bet matched.
        cutoff = sorted(bets)[-2]
        active = [i for i in range(n) if not folded[i]]
        if len(active) == 1:
            winner = active[0]
            stacks[winner] += bets[winner]
            bets[winner] = 0
        for i in range(n):
            if bets[i] > cutoff:
                stacks[i] += bets[i] - cutoff
                bets[i] = cutoff
            contrib[i] += bets[i]
        self._bets = (0,) * n
        self._contrib = tuple(contrib)
        if len(active) == 1:
            # Pot won without showdown (rulebook 003 "Der Showdown": the last
            # player in the hand gets the pot without showing).
            winner = active[0]
            total = sum(contrib)
            self._pots_final = (Pot(total, (winner,)),)
            self._awards = (Award(0, winner, total, self.spec.seat_of(winner)),)
            stacks[winner] += total
            self._stacks = tuple(stacks)
            self._final = self._stacks
            self._phase = "complete"
            return
        self._stacks = tuple(stacks)
        if sum(1 for i in active if stacks[i]) <= 1:
            self._runout = True
        if self._street == 3:
            self._enter_showdown()
        else:
            self._phase = "board"

    def _enter_showdown(self) -> None:
        self._phase = "showdown"
        self._pots_final = build_pots(self._contrib, self._dead, self._folded)
        self._settle()

    def _settle(self) -> None:
        """Add the awards that can be decided now; complete the hand when
        every pot is awarded."""
        if self._phase != "showdown":
            return
        new = evaluate_showdown(self)
        if new:
            self._awards = self._awards + new
        if len({a.pot_index for a in self._awards}) == len(self._pots_final):
            stacks = list(self._stacks)
            for award in self._awards:
                stacks[award.position] += award.amount
            self._stacks = tuple(stacks)
            self._final = self._stacks
            self._phase = "complete"

    def _min_to_raw(self) -> int:
        """Minimum raise-to before capping by the stacks."""
        top = max(self._bets)
        spec = self.spec
        if spec._structure == "fixed_limit":
            # 000 Einsätze 2 / Aktionen 3: small bet preflop and flop, big
            # bet turn and river.
            return top + spec.bet_size(self._street)
        min_bet = spec.min_bet
        if spec.rules.min_raise == "double_previous":
            # Rulebook 002 #4: at least double the previous raise (BB 100,
            # bet 100, raise to 200 -> next raise to at least 400).
            return max(2 * top, top + min_bet)
        # TDA: at least the last full bet or raise, never less than one
        # minimum bet (the big blind).
        return top + max(self._raise_inc, min_bet)

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
        if self.spec.rules.short_all_in_reopens == "pokerkit":
            closed = (
                self._allin_incs
                and sum(self._allin_incs) < self._raise_inc
                and pos in self._acted
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
        for i in range(len(bets)):
            if i != pos and not self._folded[i] and stacks[i] + bets[i] > top:
                return None
        return ("nobody_to_raise", "Every opponent is all-in; the player can only call or fold.")

    def _raise_bounds(self, pos: int) -> tuple[int, int]:
        bet, stack = self._bets[pos], self._stacks[pos]
        effective = min(stack, max(0, self._second_total() - bet))
        low, high = min(effective + bet, self._min_to_raw()), stack + bet
        spec = self.spec
        structure = spec._structure
        if structure != "no_limit":
            if structure == "fixed_limit":
                high = low
            else:
                # Pot limit (004 #54): at most the pot after the call,
                # i.e. 2 x the highest bet - own bet + all chips in the middle.
                pot_to = 2 * max(self._bets) - bet + sum(self._contrib) + sum(self._bets)
                if self._street == 0:
                    pot_to += self._pl_credit
                high = min(high, max(low, pot_to))
        unit = spec._bet_unit
        if unit != 1:
            # 000 Allgemein 8: amounts divisible by the unit (an all-in may not be).
            total = stack + bet
            if low != total and low % unit:
                low = min(total, low + unit - low % unit)
            if high != total and high % unit:
                high = max(low, high - high % unit)
        return low, high

    def _turn(self, action: dict) -> int:
        """Validate a betting action's seat and turn; return its position."""
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        pos = self.spec.position_of(action.get("seat"))
        if self._phase != "betting":
            raise EngineError("not_betting_round", f"No betting action is pending (phase {self._phase}).")
        if pos != self._actors[0]:
            raise EngineError(
                "not_your_turn",
                f"Seat {self.spec.seat_of(pos)} cannot act: seat {self.spec.seat_of(self._actors[0])} is to act.",
            )
        return pos

    def _after_passive(self, new: "HandState", pos: int, amount: int) -> None:
        """Check or call ``amount`` chips by ``pos`` on ``new``."""
        top = max(self._bets)
        if amount:
            stacks = list(new._stacks)
            bets = list(new._bets)
            stacks[pos] -= amount
            bets[pos] += amount
            new._stacks = tuple(stacks)
            new._bets = tuple(bets)
        if self._reopen[pos] is not None or top:
            reopen = list(new._reopen)
            reopen[pos] = self._min_to_raw() if top else None
            new._reopen = tuple(reopen)
        new._acted = self._acted | {pos}
        new._actors = self._actors[1:]
        new._street_acted = True
        if amount and self._short_top:
            new._called_short = self._called_short | {pos}
        if amount and self.spec._pl_credit_on and self._street == 0 and amount == self._stacks[pos]:
            # 004 #54: an all-in call for less counts in full preflop.
            new._pl_credit = self._pl_credit + top - self._bets[pos] - amount
        if not new._actors:
            new._end_round()

    # ============================================================== actions
    def _do_fold(self, action: dict) -> "HandState":
        pos = self._turn(action)
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

    def _do_check(self, action: dict) -> "HandState":
        pos = self._turn(action)
        if min(self._stacks[pos], max(self._bets) - self._bets[pos]):
            raise EngineError("cannot_check", "The player faces a bet and cannot check.")
        new = self._copy()
        self._after_passive(new, pos, 0)
        return new

    def _do_call(self, action: dict) -> "HandState":
        pos = self._turn(action)
        amount = min(self._stacks[pos], max(self._bets) - self._bets[pos])
        if not amount:
            raise EngineError("nothing_to_call", "There is nothing to call; the player can check.")
        new = self._copy()
        self._after_passive(new, pos, amount)
        return new

    def _do_raise(self, action: dict) -> "HandState":
        pos = self._turn(action)
        to = action.get("to")
        if isinstance(to, float) and to.is_integer():
            to = int(to)
        if not _is_int(to):
            raise EngineError("bad_action", f"'to' must be an integer amount of chips, got {to!r}.")
        return self._raise_to(pos, to)

    def _raise_to(self, pos: int, to: int) -> "HandState":
        block = self._raise_block(pos)
        if block is not None:
            raise EngineError(*block)
        low, high = self._raise_bounds(pos)
        top = max(self._bets)
        if to > high:
            if high < self._stacks[pos] + self._bets[pos]:
                raise EngineError("above_limit", formats.limit_message(self.spec, low, high))
            raise EngineError("above_stack", f"{to} is more than the player has: the all-in is to {high}.")
        if to < low:
            if top == 0:
                raise EngineError("below_minimum_bet", f"The minimum bet is {low} (TDA; rulebook 002 #3).")
            raise EngineError("below_minimum_raise", f"The minimum raise is to {low}.")
        unit = self.spec._bet_unit
        if unit != 1 and to % unit and to != high:
            raise EngineError(
                "bad_chip_unit",
                f"{to} is not divisible by {unit}: every bet must be a multiple of {unit} (000 Allgemein 8).",
            )
        new = self._copy()
        stacks = list(self._stacks)
        bets = list(self._bets)
        stacks[pos] -= to - bets[pos]
        bets[pos] = to
        new._stacks = tuple(stacks)
        new._bets = tuple(bets)
        n = len(bets)
        folded = self._folded
        new._actors = tuple(
            i for i in ((pos + k) % n for k in range(1, n)) if not folded[i] and stacks[i]
        )
        increment = to - top
        if self.spec.rules.short_all_in_reopens == "pokerkit":
            new._acted = frozenset((pos,)) if increment >= self._raise_inc else self._acted | {pos}
            new._allin_incs = self._allin_incs + (increment,) if not stacks[pos] else ()
        else:
            new._acted = self._acted | {pos}
        new._raise_inc = max(self._raise_inc, increment)
        new._raises = self._raises + 1
        rules = self.spec.rules
        if (
            self.spec._structure == "fixed_limit" and rules.limit_cap_lifted_heads_up
            and rules.limit_raise_cap is not None and self._raises < rules.limit_raise_cap + 1
            and folded.count(False) == 2
        ):
            new._uncapped = True  # 000 Aktionen 3: only two players left before the cap
        if not rules.short_all_in_caller_may_reraise:
            new._short_top = not stacks[pos] and to < self._min_to_raw()
        reopen = list(self._reopen)
        reopen[pos] = new._min_to_raw()
        new._reopen = tuple(reopen)
        new._aggressor = pos
        new._street_acted = True
        return new

    def _do_all_in(self, action: dict) -> "HandState":
        pos = self._turn(action)
        stack, bet = self._stacks[pos], self._bets[pos]
        if stack + bet <= max(self._bets):
            new = self._copy()
            self._after_passive(new, pos, stack)
            return new
        return self._raise_to(pos, stack + bet)

    def _known_elsewhere(self, skip_hole: int | None = None, skip_board: bool = False) -> set[str]:
        cards = set() if skip_board else set(self._board)
        if self._board2 and not skip_board:
            cards.update(self._board2)
        for i, hole in enumerate(self._hole):
            if hole is not None and i != skip_hole:
                cards.update(hole)
        cards.discard(UNKNOWN)
        return cards

    def _do_hole(self, action: dict) -> "HandState":
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        pos = self.spec.position_of(action.get("seat"))
        count = self.spec._hole_count
        cards = parse_cards(action.get("cards") or UNKNOWN * count)
        if len(cards) != count:
            raise EngineError("bad_cards", f"{count} hole cards expected, got {len(cards)}.")
        clash = self._known_elsewhere(skip_hole=pos).intersection(cards)
        if clash:
            raise EngineError("duplicate_card", f"{', '.join(sorted(clash))} already dealt.")
        new = self._copy()
        hole = list(self._hole)
        hole[pos] = None if set(cards) == {UNKNOWN} else cards
        new._hole = tuple(hole)
        new._settle()
        return new

    def _do_board(self, action: dict) -> "HandState":
        if self._board2 is not None:
            return formats.deal_board(self, action)  # double board / run twice
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        if self._phase != "board":
            raise EngineError("wrong_phase", f"No board cards are due (phase {self._phase}).")
        street = self._street + 1
        count = BOARD_CARDS[street]
        cards = parse_cards(action.get("cards") or "")
        if not cards:
            cards = (UNKNOWN,) * count
        if len(cards) != count:
            raise EngineError("bad_cards", f"The {STREETS[street]} is {count} card(s), got {len(cards)}.")
        clash = self._known_elsewhere().intersection(cards)
        if clash:
            raise EngineError("duplicate_card", f"{', '.join(sorted(clash))} already dealt.")
        new = self._copy()
        new._board = self._board + cards
        new._street = street
        new._begin_round(0, 0)
        return new

    def _do_run_it_twice(self, action: dict) -> "HandState":
        return formats.run_it_twice(self, action)  # 000 Aktionen 8

    def _showdown_pos(self, action: dict) -> int:
        pos = self.spec.position_of(action.get("seat"))
        if self._folded[pos]:
            raise EngineError("folded", f"Seat {action.get('seat')} has folded.")
        if self._phase in ("betting", "board") and not (self._phase == "board" and self._runout):
            raise EngineError("wrong_phase", "Hands are shown only once the betting is over.")
        return pos

    def _do_show(self, action: dict) -> "HandState":
        pos = self._showdown_pos(action)
        if self._mucked[pos]:
            raise EngineError("wrong_phase", f"Seat {action.get('seat')} already mucked.")
        text = action.get("cards")
        current = self._hole[pos]
        if text:
            cards = parse_cards(text, allow_unknown=False)
            if len(cards) != self.spec._hole_count:
                raise EngineError("bad_cards", f"{self.spec._hole_count} hole cards expected, got {len(cards)}.")
            if current is not None and any(
                c != UNKNOWN and c != d for c, d in zip(current, cards)
            ):
                raise EngineError(
                    "bad_cards",
                    f"Shown cards {''.join(cards)} differ from the cards entered {''.join(current)}.",
                )
            clash = self._known_elsewhere(skip_hole=pos).intersection(cards)
            if clash:
                raise EngineError("duplicate_card", f"{', '.join(sorted(clash))} already dealt.")
        else:
            if not is_known(current):
                raise EngineError("bad_cards", "The cards shown must be entered.")
            cards = current
        new = self._copy()
        hole = list(self._hole)
        hole[pos] = cards
        new._hole = tuple(hole)
        shown = list(self._shown)
        shown[pos] = True
        new._shown = tuple(shown)
        new._settle()
        return new

    def _do_muck(self, action: dict) -> "HandState":
        pos = self._showdown_pos(action)
        if self._phase == "complete" or self._mucked[pos]:
            new = self._copy()
        else:
            if self._phase != "showdown":
                raise EngineError("wrong_phase", "A hand can be mucked only at the showdown.")
            done = {a.pot_index for a in self._awards}
            for index, pot in enumerate(self._pots_final):
                if index in done or pos not in pot.eligible:
                    continue
                if not any(p != pos and not self._mucked[p] for p in pot.eligible):
                    raise EngineError(
                        "sole_contender",
                        f"Seat {action.get('seat')} is the last contender for pot {index} and wins it.",
                    )
            new = self._copy()
        mucked = list(self._mucked)
        mucked[pos] = True
        new._mucked = tuple(mucked)
        new._settle()
        return new

    def _do_award(self, action: dict) -> "HandState":
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        if self._phase != "showdown":
            raise EngineError("wrong_phase", "Pots are awarded at the showdown.")
        index = action.get("pot")
        pots = self._pots_final
        if not _is_int(index) or not 0 <= index < len(pots):
            raise EngineError("bad_award", f"There is no pot {index!r} (pots 0..{len(pots) - 1}).")
        if any(a.pot_index == index for a in self._awards):
            raise EngineError("bad_award", f"Pot {index} is already awarded.")
        seats = action.get("winners")
        if isinstance(seats, (int, str)) or not seats:
            raise EngineError("bad_award", "winners must be a non-empty list of seat numbers.")
        winners = [self.spec.position_of(s) for s in seats]
        if len(set(winners)) != len(winners):
            raise EngineError("bad_award", "A winner is listed twice.")
        pot = pots[index]
        for p in winners:
            if p not in pot.eligible or self._mucked[p]:
                raise EngineError(
                    "bad_award", f"Seat {self.spec.seat_of(p)} is not a contender for pot {index}."
                )
        if not self.spec.rules.allow_hole_cards_unknown:
            raise EngineError("bad_award", "House rules require the cards to be entered; show the hands instead.")
        new = self._copy()
        new._awards = self._awards + tuple(
            Award(index, p, amount, self.spec.seat_of(p)) for p, amount in formats.award_shares(self, index, winners, action)
        )
        new._settle()
        return new

    def _do_kill(self, action: dict) -> "HandState":
        """Floor correction: the hand at ``seat`` is dead, whatever the turn.

        A dead hand (rulebook 003 "Miss-Deal" fouled hands, 001 6.25 and
        004 #35 exposed cards, 000 Allgemein 6 absent player, 004 #71
        penalty: "cards dealt and killed") is folded out of turn: the chips
        it put in stay in the pot except a bet or raise nobody called, which
        goes back (004 #14); it leaves the betting queue, and when one player
        is left that player wins.  At the showdown it is mucked.

        Raises EngineError ``hand_over``, ``no_such_seat``, ``folded``.
        """
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        pos = self.spec.position_of(action.get("seat"))
        if self._folded[pos] or self._mucked[pos]:
            raise EngineError("folded", f"Seat {action.get('seat')}'s hand is already dead.")
        new = self._copy()
        if self._phase == "showdown":
            mucked = list(self._mucked)
            mucked[pos] = True
            new._mucked = tuple(mucked)
            live = [p for p in range(len(mucked)) if not mucked[p] and not self._folded[p]]
            if len(live) == 1:
                # The last live hand wins every pot still open.
                new._awards = self._awards + tuple(
                    Award(i, live[0], pot.amount, self.spec.seat_of(live[0]))
                    for i, pot in enumerate(self._pots_final)
                    if not any(a.pot_index == i for a in self._awards)
                )
            else:
                pots = []
                for pot in self._pots_final:
                    eligible = tuple(p for p in pot.eligible if p != pos) or pot.eligible
                    pots.append(Pot(pot.amount, eligible))
                new._pots_final = tuple(pots)
            new._settle()
            return new
        folded = list(self._folded)
        folded[pos] = True
        new._folded = tuple(folded)
        new._actors = tuple(p for p in self._actors if p != pos)
        if self._phase == "betting":
            actors, bets = new._actors, new._bets
            if (
                not actors
                or folded.count(False) <= 1
                or (len(actors) == 1 and bets[actors[0]] >= max(b for b, f in zip(bets, folded) if not f))
            ):
                new._end_round()
        elif folded.count(False) <= 1:
            new._end_round()
        return new

    def _do_floor_award(self, action: dict) -> "HandState":
        """Floor correction: the whole pot (every bet included) goes to
        ``seats`` now and the hand is over, e.g. after a ruling that the
        other hands are dead or a dispute settled by the floor (004 #1, the
        floor's decision is final).  Split equally, the odd chip by
        :func:`split_amount` (left of the button, 003 "Odd-Chips").

        Raises EngineError ``hand_over``, ``bad_award`` (no seats, repeated,
        not dealt in or folded).
        """
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        seats = action.get("seats")
        if isinstance(seats, (int, str)) or not seats:
            raise EngineError("bad_award", "seats must be a non-empty list of seat numbers.")
        winners = [self.spec.position_of(s) for s in seats]
        if len(set(winners)) != len(winners):
            raise EngineError("bad_award", "A seat is listed twice.")
        for p in winners:
            if self._folded[p]:
                raise EngineError("bad_award", f"Seat {self.spec.seat_of(p)} has folded.")
        new = self._copy()
        contrib = tuple(c + b for c, b in zip(self._contrib, self._bets))
        new._contrib = contrib
        new._bets = (0,) * len(contrib)
        new._actors = ()
        total = sum(contrib)
        already = sum(a.amount for a in self._awards)
        pot = Pot(total - already, tuple(sorted(winners)))
        awarded = sorted({a.pot_index for a in self._awards})
        kept = tuple(self._pots_final[i] for i in awarded)
        renumber = {old: k for k, old in enumerate(awarded)}
        new._pots_final = kept + (pot,)
        index = len(kept)
        new._awards = tuple(a._replace(pot_index=renumber[a.pot_index]) for a in self._awards) + tuple(
            Award(index, p, amount, self.spec.seat_of(p))
            for p, amount in split_amount(pot.amount, winners, self.spec.split_unit)
        )
        # Awards already decided at the showdown are paid with the new one.
        stacks = list(self._stacks)
        for award in new._awards:
            stacks[award.position] += award.amount
        new._stacks = tuple(stacks)
        new._final = new._stacks
        new._phase = "complete"
        return new

    _HANDLERS = {
        "fold": _do_fold,
        "check": _do_check,
        "call": _do_call,
        "bet": _do_raise,
        "raise": _do_raise,
        "all_in": _do_all_in,
        "hole": _do_hole,
        "board": _do_board,
        "run_it_twice": _do_run_it_twice,
        "show": _do_show,
        "muck": _do_muck,
        "award": _do_award,
        "kill": _do_kill,
        "floor_award": _do_floor_award,
    }

    # ============================================================ public API
    def apply(self, action: dict) -> "HandState":
        """Apply one action and return the NEW state (this one is unchanged).

        Args:
            action: a JSON-able dict, one of
                ``{"type": "fold"|"check"|"call"|"all_in", "seat": S}``,
                ``{"type": "bet"|"raise", "seat": S, "to": N}`` (either word
                means bet/raise to N chips in front on this street),
                ``{"type": "hole", "seat": S, "cards": "AsKs"}`` ("????" =
                unknown), ``{"type": "board", "cards": "Jc3d5c"}`` ("" =
                advance without entering cards),
                ``{"type": "show", "seat": S, "cards": "AsKs"}`` (cards may
                be omitted when already entered), ``{"type": "muck", "seat": S}``,
                ``{"type": "award", "pot": i, "winners": [S, ...]}``.
                S is a table seat number.

        Returns:
            The new HandState; ``history`` gains a copy of ``action``.

        Raises:
            EngineError with a specific code (see ``errors.ERROR_CODES``).
        """
        if not isinstance(action, dict):
            raise EngineError("bad_action", f"An action must be a dict, got {type(action).__name__}.")
        handler = self._HANDLERS.get(action.get("type"))
        if handler is None:
            raise EngineError("bad_action", f"Unknown action type {action.get('type')!r}.")
        new = handler(self, action)
        new._history = self._history + (dict(action),)
        return new

    def verify(self, action: dict) -> None:
        """Raise :class:`EngineError` if ``action`` is not legal now; else return None."""
        self.apply(action)

    def can(self, action: dict) -> bool:
        """Return True when ``action`` is legal now."""
        try:
            self.apply(action)
        except EngineError:
            return False
        return True

    # per-action helpers (pokerkit style) --------------------------------
    def fold(self, seat: int) -> "HandState":
        """Fold for ``seat``; returns the new state."""
        return self.apply({"type": "fold", "seat": seat})

    def check(self, seat: int) -> "HandState":
        """Check for ``seat``; returns the new state."""
        return self.apply({"type": "check", "seat": seat})

    def call(self, seat: int) -> "HandState":
        """Call for ``seat`` (all-in for less if short); returns the new state."""
        return self.apply({"type": "call", "seat": seat})

    def bet_or_raise(self, seat: int, to: int) -> "HandState":
        """Bet or raise ``seat`` to ``to`` chips in front on this street."""
        return self.apply({"type": "raise", "seat": seat, "to": to})

    def go_all_in(self, seat: int) -> "HandState":
        """Bet, raise or call with the whole stack of ``seat``.

        Also reachable as ``state.all_in(seat)`` (see :attr:`all_in`)."""
        return self.apply({"type": "all_in", "seat": seat})

    def deal_hole(self, seat: int, cards: str) -> "HandState":
        """Enter the hole cards of ``seat`` (e.g. ``"AsKs"``, ``"????"``)."""
        return self.apply({"type": "hole", "seat": seat, "cards": cards})

    def deal_board(self, cards: str = "") -> "HandState":
        """Deal the next street's board cards (``""`` = not entered)."""
        return self.apply({"type": "board", "cards": cards})

    def show(self, seat: int, cards: str | None = None) -> "HandState":
        """``seat`` shows its hand (cards optional when already entered)."""
        action = {"type": "show", "seat": seat}
        if cards is not None:
            action["cards"] = cards
        return self.apply(action)

    def muck(self, seat: int) -> "HandState":
        """``seat`` mucks at the showdown and gives up its claim to the pots."""
        return self.apply({"type": "muck", "seat": seat})

    def award(self, pot: int, winners: list[int]) -> "HandState":
        """Award pot ``pot`` to the table seats ``winners`` (split equally)."""
        return self.apply({"type": "award", "pot": pot, "winners": list(winners)})

    def verify_fold(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may fold now."""
        self.fold(seat)

    def can_fold(self, seat: int) -> bool:
        """Whether ``seat`` may fold now."""
        return self.can({"type": "fold", "seat": seat})

    def verify_check(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may check now."""
        self.check(seat)

    def can_check(self, seat: int) -> bool:
        """Whether ``seat`` may check now."""
        return self.can({"type": "check", "seat": seat})

    def verify_call(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may call now."""
        self.call(seat)

    def can_call(self, seat: int) -> bool:
        """Whether ``seat`` may call now."""
        return self.can({"type": "call", "seat": seat})

    def verify_bet_or_raise(self, seat: int, to: int) -> None:
        """Raise EngineError unless ``seat`` may bet/raise to ``to`` now."""
        self.bet_or_raise(seat, to)

    def can_bet_or_raise(self, seat: int, to: int) -> bool:
        """Whether ``seat`` may bet/raise to ``to`` now."""
        return self.can({"type": "raise", "seat": seat, "to": to})

    def verify_all_in(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may go all-in now."""
        self.all_in(seat)

    def can_all_in(self, seat: int) -> bool:
        """Whether ``seat`` may go all-in now."""
        return self.can({"type": "all_in", "seat": seat})

    def verify_deal_board(self, cards: str = "") -> None:
        """Raise EngineError unless these board cards may be dealt now."""
        self.deal_board(cards)

    def can_deal_board(self, cards: str = "") -> bool:
        """Whether these board cards may be dealt now."""
        return self.can({"type": "board", "cards": cards})

    def run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> "HandState":
        """The players ``agreed`` (seats) run the rest of the board twice for
        ``pots`` (default all; 000 Aktionen 8); see :func:`formats.run_it_twice`."""
        action = {"type": "run_it_twice", "agreed": list(agreed), "floor": floor}
        if pots is not None:
            action["pots"] = list(pots)
        return self.apply(action)

    def verify_run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> None:
        """Raise EngineError unless the hand may be run twice now."""
        self.run_it_twice(agreed, pots, floor)

    def can_run_it_twice(self, agreed: list[int], pots: list[int] | None = None, floor: bool = False) -> bool:
        """Whether the hand may be run twice now."""
        try:
            self.run_it_twice(agreed, pots, floor)
        except EngineError:
            return False
        return True

    def verify_show(self, seat: int, cards: str | None = None) -> None:
        """Raise EngineError unless ``seat`` may show now."""
        self.show(seat, cards)

    def can_show(self, seat: int, cards: str | None = None) -> bool:
        """Whether ``seat`` may show now."""
        action = {"type": "show", "seat": seat}
        if cards is not None:
            action["cards"] = cards
        return self.can(action)

    def verify_muck(self, seat: int) -> None:
        """Raise EngineError unless ``seat`` may muck now."""
        self.muck(seat)

    def can_muck(self, seat: int) -> bool:
        """Whether ``seat`` may muck now."""
        return self.can({"type": "muck", "seat": seat})

    def verify_award(self, pot: int, winners: list[int]) -> None:
        """Raise EngineError unless this award is allowed now."""
        self.award(pot, winners)

    def can_award(self, pot: int, winners: list[int]) -> bool:
        """Whether this award is allowed now."""
        return self.can({"type": "award", "pot": pot, "winners": list(winners)})

    # ============================================================== queries
    @property
    def phase(self) -> str:
        """``"betting"`` (a player is to act), ``"board"`` (the dealer deals
        the next street; cards optional), ``"showdown"`` (waiting for shows,
        mucks or awards) or ``"complete"``."""
        return self._phase

    @property
    def street(self) -> str:
        """``"preflop"``, ``"flop"``, ``"turn"``, ``"river"`` (in phase
        "board": the street just finished), ``"showdown"`` or ``"complete"``."""
        if self._phase in ("showdown", "complete"):
            return self._phase
        return STREETS[self._street]

    @property
    def next_street(self) -> str | None:
        """In phase "board": the street whose cards are due, else None."""
        if self._board2 is not None and self._phase == "board":
            return STREETS[formats.board_due(self)[1]]
        return STREETS[self._street + 1] if self._phase == "board" else None

    @property
    def board_cards_due(self) -> int:
        """Number of board cards the next ``board`` action deals (0 if none due)."""
        if self._board2 is not None and self._phase == "board":
            return formats.board_due(self)[2]
        return BOARD_CARDS[self._street + 1] if self._phase == "board" else 0

    @property
    def next_board(self) -> int | None:
        """In phase "board": 1 or 2, the board the next ``board`` action
        deals (always 1 in a one-board hand), else None."""
        if self._phase != "board":
            return None
        return formats.board_due(self)[0] if self._board2 is not None else 1

    @property
    def boards(self) -> tuple[tuple[str, ...], ...]:
        """``(board,)``, or ``(board, board2)`` in a double-board hand or
        once the players agreed to run it twice."""
        return (self._board,) if self._board2 is None else (self._board, self._board2)

    @property
    def run_twice_pots(self) -> frozenset | None:
        """Indexes of the pots the players agreed to run twice, or None."""
        return self._rit

    def boards_of_pot(self, index: int) -> tuple[int, ...]:
        """Board indexes (0, 1) pot ``index`` is played on: both in a
        double-board hand (000 Allgemein 14) or for a pot run twice (000
        Aktionen 8), else ``(0,)``."""
        if self._board2 is None or (self._rit is not None and index not in self._rit):
            return (0,)
        return (0, 1)

    @property
    def to_act(self) -> int | None:
        """Position of the player to act, or None when no betting action is pending."""
        return self._actors[0] if self._phase == "betting" else None

    @property
    def to_act_seat(self) -> int | None:
        """Table seat number of the player to act, or None."""
        return self.spec.seats[self._actors[0]].seat if self._phase == "betting" else None

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind per position (after completion: the final stacks)."""
        return self._stacks

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips in front per position on the current street."""
        return self._bets

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per position, whether the player folded."""
        return self._folded

    @property
    def all_in(self) -> "AllInFlags":
        """Per position, whether the player (not folded) has no chips behind
        (a tuple of bools; all False once the hand is complete).

        The interface also names a pokerkit-style action method ``all_in``;
        the tuple is therefore callable: ``state.all_in(seat)`` is
        :meth:`go_all_in`.
        """
        if self._phase == "complete":
            flags = (False,) * len(self._stacks)
        else:
            flags = tuple(not s and not f for s, f in zip(self._stacks, self._folded))
        return AllInFlags(flags, self)

    @property
    def mucked(self) -> tuple[bool, ...]:
        """Per position, whether the player mucked at the showdown."""
        return self._mucked

    @property
    def shown(self) -> tuple[bool, ...]:
        """Per position, whether the player showed at the showdown."""
        return self._shown

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips per position already collected into the pots (antes included)."""
        return self._contrib

    @property
    def dead_antes(self) -> tuple[int, ...]:
        """Per position, antes that are dead money in the main pot (ante
        trimming off); zeros when antes count as ordinary contributions."""
        return self._dead

    @property
    def pots(self) -> tuple[Pot, ...]:
        """Main pot first, then side pots.

        During a betting round the current bets are included as the pots
        would be if the round closed now: the part of the largest bet that
        nobody has matched yet is left out (it would be returned). From the
        showdown on the pots are fixed and ``award`` indexes refer to them.
        After a win without showdown there is a single pot.
        """
        if self._pots_final is not None:
            return self._pots_final
        bets = self._bets
        cutoff = sorted(bets)[-2]
        pending = tuple(c + min(b, cutoff) for c, b in zip(self._contrib, bets))
        return build_pots(pending, self._dead, self._folded)

    @property
    def total_pot(self) -> int:
        """All chips in the middle including current bets (chips)."""
        if self._final is not None:
            return sum(p.amount for p in self._pots_final)
        return sum(self._contrib) + sum(self._bets)

    @property
    def board(self) -> tuple[str, ...]:
        """Board cards dealt, e.g. ``("Jc", "3d", "5c")``; ``"??"`` marks a
        card the dealer did not enter."""
        return self._board

    @property
    def hole_cards(self) -> tuple[tuple[str, ...] | None, ...]:
        """Per position, the two hole cards (``"??"`` for an unknown one) or
        None when not entered."""
        return self._hole

    @property
    def betting_over(self) -> bool:
        """True when no more betting can happen in this hand (all-in run-out,
        showdown or completion)."""
        return self._phase in ("showdown", "complete") or (self._phase == "board" and self._runout)

    @property
    def showdown_order(self) -> tuple[int, ...]:
        """Positions in the order they show, once the betting is over.

        Rulebook 003 "Showdown Reihenfolge" / TDA: the last bettor or raiser
        of the last betting round with action shows first; if everyone
        checked, the first active player left of the button
        (Rules.showdown_no_bet); then clockwise. Empty while betting goes on
        and after a win without showdown.
        """
        if not self.betting_over or self._folded.count(False) <= 1:
            return ()
        n = len(self._folded)
        start = self._sd_aggr if self._sd_aggr is not None else 0
        return tuple(i for i in ((start + k) % n for k in range(n)) if not self._folded[i])

    @property
    def awards(self) -> tuple[Award, ...]:
        """Pot awards made so far (several per pot when split)."""
        return self._awards

    @property
    def final_stacks(self) -> tuple[int, ...] | None:
        """Stacks per position when the hand is complete, else None."""
        return self._final

    @property
    def history(self) -> tuple[dict, ...]:
        """The actions applied, as given."""
        return self._history

    @property
    def is_complete(self) -> bool:
        """True when every pot is awarded."""
        return self._phase == "complete"

    def legal(self) -> Legal:
        """Options of the player to act.

        Returns:
            :class:`Legal`.

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
        return Legal(
            self.spec.seats[pos].seat, pos, True, call == 0, call, low, high,
            block is None, None if block is None else block[0],
        )

    def to_dict(self) -> dict:
        """JSON-serialisable snapshot for clients.

        Keys: ``street``, ``phase``, ``next_street``, ``to_act_seat``,
        ``to_act``, ``legal`` (dict or None), ``board``, ``players`` (one dict
        per position: position, seat, player, stack, bet, folded, all_in,
        hole_cards, shown, mucked), ``pots`` (``[{"amount", "eligible_seats",
        "eligible"}]``), ``total_pot``, ``showdown_order_seats``,
        ``showdown_order``, ``awards`` (``[{"pot", "seat", "position",
        "amount"}]``), ``final_stacks`` (list or None), ``button_seat``,
        ``actions`` (number of actions applied).
        """
        spec = self.spec
        all_in = self.all_in
        players = [
            {
                "position": i,
                "seat": seat.seat,
                "player": seat.player,
                "starting_stack": seat.stack,
                "stack": self._stacks[i],
                "bet": self._bets[i],
                "folded": self._folded[i],
                "all_in": all_in[i],
                "hole_cards": None if self._hole[i] is None else "".join(self._hole[i]),
                "shown": self._shown[i],
                "mucked": self._mucked[i],
            }
            for i, seat in enumerate(spec.seats)
        ]
        order = self.showdown_order
        return {
            "street": self.street,
            "phase": self._phase,
            "next_street": self.next_street,
            "to_act": self.to_act,
            "to_act_seat": self.to_act_seat,
            "legal": self.legal().to_dict() if self._phase == "betting" else None,
            "board": list(self._board),
            "board2": None if self._board2 is None else list(self._board2),
            "next_board": self.next_board,
            "run_twice_pots": None if self._rit is None else sorted(self._rit),
            "game": spec.game,
            "players": players,
            "pots": [
                {"amount": p.amount, "eligible": list(p.eligible),
                 "eligible_seats": [spec.seat_of(i) for i in p.eligible]}
                for p in self.pots
            ],
            "total_pot": self.total_pot,
            "showdown_order": list(order),
            "showdown_order_seats": [spec.seat_of(i) for i in order],
            "awards": [
                {"pot": a.pot_index, "position": a.position, "seat": a.seat, "amount": a.amount}
                for a in self._awards
            ],
            "final_stacks": None if self._final is None else list(self._final),
            "button_seat": spec.button_seat,
            "actions": len(self._history),
        }

    def __repr__(self) -> str:
        return (
            f"<HandState {self.street}/{self._phase} to_act={self.to_act_seat} "
            f"stacks={self._stacks} bets={self._bets} board={''.join(self._board)}>"
        )
