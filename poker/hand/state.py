"""The hand state machine of every game: immutable states, actions as typed records.

One class, :class:`HandState`, plays hold'em, Omaha, split-limit hold'em, Seven Card Stud,
razz and stud eight-or-better: the game is a value, ``spec.game_variant`` (a
:class:`~poker.hand.variants.Variant`: its streets, forced bets, opener, betting structure and
showdown), read from the spec (a :class:`~poker.hand.spec.HandSpec` for the flop games, a
:class:`~poker.hand.stud_spec.StudSpec` for the stud games). ``StudState`` is the same class.

Positions are indexes into ``spec.seats`` (a flop game: 0 = small blind ... last = button;
heads-up 0 = big blind, 1 = button; a stud game: deal order). Actions name players by TABLE
seat number. All chip amounts are ints; "to" amounts are a player's total bet on the current
street. An action is a frozen record (:mod:`.records`: ``Raise(seat=3, to=400)``); its plain dict
(``{"type": "raise", "seat": 3, "to": 400}``, the JSON of the tablet and of stored events) is read
into its record once, by :meth:`HandState.apply` (:func:`~.records.parse_action`).

:class:`HandState` is one object made of parts, one module each:

- :mod:`.betting` (:class:`~poker.hand.betting.BettingRound`): the queue of
  players to act, legal actions (:class:`Legal`), minimum raise, amounts to
  call, and the betting actions;
- :mod:`.dealing` (:class:`~poker.hand.dealing.Dealing`): streets, hole
  cards, the board, a second board (:class:`~poker.hand.formats.TwoBoards`)
  and run it twice;
- :mod:`.showdown` (:class:`~poker.hand.showdown.Showdown`): closing a
  round, the showdown, awards and the floor's rulings;
- :mod:`.stud_deal` and :mod:`.stud_showdown`: what a game with a bring-in
  does its own way (a deal per street, who brings in and acts first, the
  division of a pot with a low half);
- :mod:`.actions` (:class:`~poker.hand.actions.ActionHelpers`): one method
  per action, pokerkit style;
- this module: the fields, the start of a hand, :meth:`HandState.apply`,
  the queries and :meth:`HandState.to_dict`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import sub
from typing import Any, ClassVar, Self

from .actions import ActionHelpers
from .betting import BettingRound, Legal
from .dealing import BOARD_CARDS, STREETS, Dealing
from .errors import EngineError
from .formats import TwoBoards
from .records import ActionType
from .showdown import Showdown
from .spec import HandSpec
from .stud_deal import StudDealing
from .stud_showdown import StudShowdown
from .stud_spec import StudSpec

__all__ = ["HandState", "StudState", "Legal", "STREETS", "BOARD_CARDS", "AnySpec", "AnyState", "start_hand"]

AnySpec = HandSpec | StudSpec
"""The spec of a hand of any game the engine deals (a flop game's or a stud game's)."""


class AllInFlags(tuple):
    """Tuple of per-position all-in flags that is also callable as the
    ``all_in`` action: ``state.all_in(seat)`` == ``state.go_all_in(seat)``."""

    _state: HandState

    def __new__(cls, flags: tuple[bool, ...], state: HandState):
        obj = super().__new__(cls, flags)
        obj._state = state
        return obj

    def __call__(self, seat: int) -> HandState:
        """Apply ``AllIn(seat)`` (``{"type": "all_in", "seat": seat}``) to the owning state."""
        return self._state.go_all_in(seat)


class HandState(BettingRound, Dealing, Showdown, StudDealing, StudShowdown, ActionHelpers):
    """One moment of a hand of any game. Immutable: :meth:`apply` returns a new state.

    Create with :meth:`HandState.start`. Queries are properties (``street``,
    ``phase``, ``to_act``, ``stacks``, ``bets``, ``pots`` ...); changes are
    action records (:mod:`.records`) or their dicts passed to :meth:`apply`
    (or the per-action helpers such as :meth:`call`). Refused actions raise
    :class:`EngineError` and leave the state as it was. ``history`` holds the
    records applied (``record.to_dict()`` is the dict).

    The actions :meth:`apply` takes in a flop game (as dicts; S is a table seat number):
    ``{"type": "fold"|"check"|"call"|"all_in", "seat": S}``,
    ``{"type": "bet"|"raise", "seat": S, "to": N}`` (either word means bet/raise
    to N chips in front on this street), ``{"type": "hole", "seat": S, "cards":
    "AsKs"}`` ("????" = unknown), ``{"type": "board", "cards": "Jc3d5c"}`` ("" =
    advance without entering cards), ``{"type": "show", "seat": S, "cards":
    "AsKs"}`` (cards may be omitted when already entered), ``{"type": "muck",
    "seat": S}``, ``{"type": "award", "pot": i, "winners": [S, ...]}``, and the
    floor's ``kill``, ``floor_award`` and ``run_it_twice``. A stud game takes
    ``{"type": "deal", "cards": {S: "..."}, "community": "..", "opener": S}``
    (:meth:`~.stud_deal.StudDealing._do_deal`), ``{"type": "bring_in", "seat": S}``,
    ``{"type": "complete"|"bet"|"raise", "seat": S, "to": N}``, the betting
    actions, ``show`` (all the player's cards in the order dealt), ``muck``,
    ``{"type": "award", "pot": i, "winners": [S, ...], "odd_chip": S}`` and
    ``kill``. A game refuses the others' actions (``bad_action``).
    """

    __slots__ = ()

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("Use HandState.start(spec) to create a hand.")

    @classmethod
    def _fresh(cls, spec: AnySpec, stacks: list[int], bets: list[int], contrib: list[int], dead: list[int]) -> Self:
        """A hand just started (:meth:`~.core.CoreState._new_hand`) with no card out: no hole
        cards, no board, no second board, no opener (the betting fields are the round's: its
        start sets them)."""
        n = len(stacks)
        s = cls._new_hand(spec, tuple(stacks), tuple(bets), tuple(contrib), tuple(dead))
        s._runout = False
        s._board = ()
        s._hole = (None,) * n
        s._two = None
        s._pl_credit = 0
        s._opener = None
        s._open_pair = False
        s._cards_out = 0
        return s

    @classmethod
    def start(cls, spec: AnySpec) -> Self:
        """Start a hand: post antes, then blinds and straddle; street "preflop". A stud game
        (a :class:`StudSpec`): every player antes (capped by the stack; dead money in the main
        pot) and the hand waits for the third-street ``deal`` (phase ``"deal"``, street
        ``"ante"``).

        Args:
            spec: the :class:`HandSpec` or :class:`StudSpec`.

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
            EngineError("bad_spec") if ``spec`` is neither a HandSpec nor a StudSpec.
        """
        if isinstance(spec, StudSpec):
            antes = [min(spec.ante, seat.stack) for seat in spec.seats]
            stacks = [seat.stack - a for seat, a in zip(spec.seats, antes)]
            s = cls._fresh(spec, stacks, [0] * len(antes), antes, antes)
            s._street = -1
            s._phase = "deal"
            s._hole = ((),) * len(antes)
            s._allin_incs, s._reopen, s._short_top, s._called_short = (), (None,) * len(antes), False, frozenset()
            return s
        if not isinstance(spec, HandSpec):
            raise EngineError("bad_spec", "HandState.start needs a HandSpec or a StudSpec.")
        n = len(spec.seats)
        starting = spec.starting_stacks
        stacks = list(starting)
        # spec.posted_ante, spec.nominal_blind and spec.posted_blind, each computed once
        owed_antes: tuple[int, ...]
        nominal: tuple[int, ...]
        if n == 2:
            owed_antes = (spec.antes[1], spec.antes[0])
            nominal = (spec.blinds_or_straddles[1], spec.blinds_or_straddles[0])
        else:
            owed_antes, nominal = spec.antes, spec.blinds_or_straddles
        contrib = [0] * n
        dead = [0] * n
        # (every stack is positive: an ante is posted exactly where one is owed)
        owes_ante = any(owed_antes)
        if owes_ante:
            antes = list(map(min, owed_antes, stacks))
            posted = list(antes)
            stacks = list(map(sub, stacks, antes))
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
        bets = list(map(min, nominal, map(sub, starting, antes) if owes_ante else starting))
        stacks = list(map(sub, stacks, bets))
        top_blind = max(bets)
        if spec._posts:
            # 000 Einsätze 4: the big blind owed after a seat change is a live
            # post, taken like a blind (capped by the stack) but it neither
            # moves the opener nor raises the amount to call.
            for i, amount in spec._posts:
                post = min(amount, stacks[i])
                stacks[i] -= post
                bets[i] += post

        s = cls._fresh(spec, stacks, bets, contrib, dead)
        s._phase = "betting"
        s._runout = bool(spec.flip)  # a flip has no betting at all
        s._two = TwoBoards() if spec.boards == 2 else None
        # 004 #54: preflop a blind posted short counts in full for the pot limit.
        s._pl_credit = sum(nominal[i] - bets[i] for i in range(n) if nominal[i] > bets[i]) if spec._pl_credit_on else 0
        # left of the largest blind or straddle (the last of equal ones)
        posted_blinds = [bet if owed > 0 else 0 for bet, owed in zip(bets, nominal)]
        top = max(posted_blinds)
        largest = n - 1 - posted_blinds[::-1].index(top)
        opener = (largest + 1) % n
        # A live straddle is a blind raise: the next raise must be at least
        # the largest forced bet (Rules.straddle_min_raise == "straddle").
        raise_inc = top_blind if spec.rules.straddle_min_raise == "straddle" else 0
        s._begin_round(opener, raise_inc)
        return s

    def _copy(self) -> Self:
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
        new._opener = self._opener
        new._open_pair = self._open_pair
        new._cards_out = self._cards_out
        return new  # type: ignore[return-value]  # a HandState (InPlaceState changes itself instead)

    #: Every game's actions (a game takes those of ``spec.game_variant.actions``): the handler
    #: of each action's record (its check, then its change of a copy of the state).
    _HANDLERS: ClassVar[dict[str, Callable[[Any, Any], Any]]] = {
        ActionType.DEAL: StudDealing._do_deal,
        ActionType.BRING_IN: StudDealing._do_bring_in,
        ActionType.COMPLETE: BettingRound._do_raise,
        ActionType.FOLD: BettingRound._do_fold,
        ActionType.CHECK: BettingRound._do_check,
        ActionType.CALL: BettingRound._do_call,
        ActionType.BET: BettingRound._do_raise,
        ActionType.RAISE: BettingRound._do_raise,
        ActionType.ALL_IN: BettingRound._do_all_in,
        ActionType.HOLE: Dealing._do_hole,
        ActionType.BOARD: Dealing._do_board,
        ActionType.RUN_IT_TWICE: Dealing._do_run_it_twice,
        ActionType.SHOW: Showdown._do_show,
        ActionType.MUCK: Showdown._do_muck,
        ActionType.AWARD: Showdown._do_award,
        ActionType.KILL: Showdown._do_kill,
        ActionType.FLOOR_AWARD: Showdown._do_floor_award,
    }

    #: The check each handler runs before it changes anything (``verify``/``can`` run it alone:
    #: the same EngineError, no state built).
    _CHECKS: ClassVar[dict[str, Callable[[Any, Any], Any]]] = {
        ActionType.DEAL: StudDealing._check_deal,
        ActionType.BRING_IN: StudDealing._check_bring_in,
        ActionType.FOLD: BettingRound._passive_turn,
        ActionType.CHECK: BettingRound._check_check,
        ActionType.CALL: BettingRound._check_call,
        ActionType.BET: BettingRound._check_raise,
        ActionType.RAISE: BettingRound._check_raise,
        ActionType.COMPLETE: BettingRound._check_raise,
        ActionType.ALL_IN: BettingRound._check_all_in,
        ActionType.HOLE: Dealing._check_hole,
        ActionType.BOARD: Dealing._check_board,
        ActionType.RUN_IT_TWICE: Dealing._check_run_it_twice,
        ActionType.SHOW: Showdown._check_show,
        ActionType.MUCK: Showdown._check_muck,
        ActionType.AWARD: Showdown._check_award,
        ActionType.KILL: Showdown._dead_hand_position,
        ActionType.FLOOR_AWARD: Showdown._check_floor_award,
    }

    @property
    def street(self) -> str:
        """``"preflop"``, ``"flop"``, ``"turn"``, ``"river"`` (a stud game: ``"third"`` ...
        ``"seventh"``; in phase "board"/"deal": the street just finished, ``"ante"`` before a
        stud game's third street), ``"showdown"`` or ``"complete"``."""
        if self._phase in ("showdown", "complete"):
            return self._phase
        street = self._street
        return self.spec.game_variant.street_names[street] if street >= 0 else "ante"

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

    def to_dict(self) -> dict:
        """JSON-serialisable snapshot for clients (a stud game's:
        :meth:`~.stud_deal.StudDealing._stud_dict`).

        Keys: ``street``, ``phase``, ``next_street``, ``to_act_seat``,
        ``to_act``, ``legal`` (dict or None), ``board``, ``players`` (one dict
        per position: position, seat, player, stack, bet, folded, all_in,
        hole_cards, shown, mucked), ``pots`` (``[{"amount", "eligible_seats",
        "eligible"}]``), ``total_pot``, ``showdown_order_seats``,
        ``showdown_order``, ``awards`` (``[{"pot", "seat", "position",
        "amount"}]``), ``final_stacks`` (list or None), ``button_seat``,
        ``actions`` (number of actions applied).
        """
        if self.spec._stud:
            return self._stud_dict()
        spec = self.spec
        assert isinstance(spec, HandSpec)
        two = self._two
        # Every dealer action serialises the whole state: the players are written in one pass, with the
        # keys and values of ``_seat_json`` and :attr:`all_in` (no chips behind and not folded; never
        # once the hand is complete), without building either.
        complete = self._phase == "complete"
        stacks, bets, folded, holes, shown, mucked = (
            self._stacks,
            self._bets,
            self._folded,
            self._hole,
            self._shown,
            self._mucked,
        )
        players = [
            {
                "position": i,
                "seat": seat.seat,
                "player": seat.player,
                "starting_stack": seat.stack,
                "stack": stacks[i],
                "bet": bets[i],
                "folded": folded[i],
                "all_in": not complete and not stacks[i] and not folded[i],
                "hole_cards": None if (hole := holes[i]) is None else "".join(hole),
                "shown": shown[i],
                "mucked": mucked[i],
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
            "pots": self._pots_json(),
            "total_pot": self.total_pot,
            "showdown_order": list(order),
            "showdown_order_seats": [spec.seat_of(i) for i in order],
            "awards": self._awards_json(),
            "final_stacks": None if self._final is None else list(self._final),
            "button_seat": spec.button_seat,
            "actions": len(self._history),
        }

    def __repr__(self) -> str:
        return (
            f"<HandState {self.street}/{self._phase} to_act={self.to_act_seat} "
            f"stacks={self._stacks} bets={self._bets} board={''.join(self._board)}>"
        )


#: The state of a stud game's hand: the one :class:`HandState` (a thin name kept for callers).
StudState = HandState
AnyState = HandState
"""The state of a hand of any game (the one :class:`HandState`)."""


def start_hand(spec: AnySpec) -> HandState:
    """Start a hand of any game: :meth:`HandState.start` (a :class:`HandSpec` or a
    :class:`StudSpec`). Raises EngineError("bad_spec") for anything else."""
    return HandState.start(spec)
