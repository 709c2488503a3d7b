"""The hand state machine: immutable states, actions as plain dicts.

Positions are indexes into ``HandSpec.seats`` (0 = small blind ... last =
button; heads-up 0 = big blind, 1 = button). Actions name players by TABLE
seat number. All chip amounts are ints; "to" amounts are a player's total bet
on the current street.

:class:`HandState` is one object made of parts, one module each:

- :mod:`.betting` (:class:`~poker.hand.betting.BettingRound`): the queue of
  players to act, legal actions (:class:`Legal`), minimum raise, amounts to
  call, and the betting actions;
- :mod:`.dealing` (:class:`~poker.hand.dealing.Dealing`): streets, hole
  cards, the board, a second board (:class:`~poker.hand.formats.TwoBoards`)
  and run it twice;
- :mod:`.showdown` (:class:`~poker.hand.showdown.Showdown`): closing a
  round, the showdown, awards and the floor's rulings;
- :mod:`.actions` (:class:`~poker.hand.actions.ActionHelpers`): one method
  per action, pokerkit style;
- this module: the fields, the start of a hand, :meth:`HandState.apply`,
  the queries and :meth:`HandState.to_dict`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from .actions import ActionHelpers
from .betting import BettingRound, Legal
from .dealing import BOARD_CARDS, STREETS, Dealing
from .errors import EngineError
from .fields import HandFields
from .formats import TwoBoards
from .showdown import Showdown
from .spec import HandSpec

__all__ = ["HandState", "Legal", "STREETS", "BOARD_CARDS"]


class AllInFlags(tuple):
    """Tuple of per-position all-in flags that is also callable as the
    ``all_in`` action: ``state.all_in(seat)`` == ``state.go_all_in(seat)``."""

    _state: HandState

    def __new__(cls, flags: tuple[bool, ...], state: HandState):
        obj = super().__new__(cls, flags)
        obj._state = state
        return obj

    def __call__(self, seat: int) -> HandState:
        """Apply ``{"type": "all_in", "seat": seat}`` to the owning state."""
        return self._state.go_all_in(seat)


_SLOTS = HandFields.__slots__  # the fields, declared in .fields


class HandState(BettingRound, Dealing, Showdown, ActionHelpers):
    """One moment of a hand. Immutable: :meth:`apply` returns a new state.

    Create with :meth:`HandState.start`. Queries are properties (``street``,
    ``phase``, ``to_act``, ``stacks``, ``bets``, ``pots`` ...); changes are
    action dicts passed to :meth:`apply` (or the per-action helpers such as
    :meth:`call`). Refused actions raise :class:`EngineError` and leave the
    state as it was.
    """

    __slots__ = ()

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("Use HandState.start(spec) to create a hand.")

    @classmethod
    def start(cls, spec: HandSpec) -> HandState:
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
        s._two = TwoBoards() if spec.boards == 2 else None
        # 004 #54: preflop a blind posted short counts in full for the pot limit.
        s._pl_credit = (
            sum(spec.nominal_blind(i) - bets[i] for i in range(n) if spec.nominal_blind(i) > bets[i])
            if spec._pl_credit_on
            else 0
        )
        opener = (max(range(n), key=lambda i: (bets[i] if spec.nominal_blind(i) > 0 else 0, i)) + 1) % n
        # A live straddle is a blind raise: the next raise must be at least
        # the largest forced bet (Rules.straddle_min_raise == "straddle").
        raise_inc = top_blind if spec.rules.straddle_min_raise == "straddle" else 0
        s._begin_round(opener, raise_inc)
        return s

    def _copy(self) -> HandState:
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
        new._two = self._two
        new._pl_credit = self._pl_credit
        return new

    _HANDLERS: ClassVar[dict[str, Callable[[HandState, dict], HandState]]] = {
        "fold": BettingRound._do_fold,
        "check": BettingRound._do_check,
        "call": BettingRound._do_call,
        "bet": BettingRound._do_raise,
        "raise": BettingRound._do_raise,
        "all_in": BettingRound._do_all_in,
        "hole": Dealing._do_hole,
        "board": Dealing._do_board,
        "run_it_twice": Dealing._do_run_it_twice,
        "show": Showdown._do_show,
        "muck": Showdown._do_muck,
        "award": Showdown._do_award,
        "kill": Showdown._do_kill,
        "floor_award": Showdown._do_floor_award,
    }

    def apply(self, action: dict) -> HandState:
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
        handler = self._HANDLERS.get(action.get("type", ""))
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
    def all_in(self) -> AllInFlags:
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
        two = self._two
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
                "hole_cards": None if (hole := self._hole[i]) is None else "".join(hole),
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
            "board2": None if two is None else list(two.board2),
            "next_board": self.next_board,
            "run_twice_pots": None if two is None or two.run_twice is None else sorted(two.run_twice),
            "game": spec.game,
            "players": players,
            "pots": [
                {
                    "amount": p.amount,
                    "eligible": list(p.eligible),
                    "eligible_seats": [spec.seat_of(i) for i in p.eligible],
                }
                for p in self.pots
            ],
            "total_pot": self.total_pot,
            "showdown_order": list(order),
            "showdown_order_seats": [spec.seat_of(i) for i in order],
            "awards": [
                {"pot": a.pot_index, "position": a.position, "seat": a.seat, "amount": a.amount} for a in self._awards
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
