"""The base of the one hand state: the fields of chips and turns, the action dispatch, the
turn, the end of a betting round, the showdown's awards and dead hands.

:class:`CoreState` is the base of :class:`~poker.hand.state.HandState` (through
:class:`~poker.hand.fields.HandFields`, the fields of cards and of the betting rules), which
plays every game: the game is a value (``spec.game_variant``, :mod:`.variants`). This module
reads per position the stacks, the bets of the street, the chips collected, the dead antes,
folds, shows and mucks; the queue of players to act; the pots fixed at the showdown and their
awards. Positions index ``spec.seats``; chips are ints.

Sources: the uncalled bet goes back (TDA; pokerkit; 004 #14), a pot won without showdown
(003 "Der Showdown"), a dead hand (004 #66, 003 "Miss-Deal", 000 Allgemein 6).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .errors import EngineError
from .pots import Award, Pot, build_pots
from .records import ActionRecord, AwardPot, Kill, SeatAction, parse_action

if TYPE_CHECKING:
    from .spec import HandSpec
    from .stud_spec import StudSpec

__all__ = ["CoreState", "with_flag"]


def with_flag(flags: tuple[bool, ...], position: int) -> tuple[bool, ...]:
    """``flags`` with ``flags[position]`` set (a fold, a show, a muck)."""
    out = list(flags)
    out[position] = True
    return tuple(out)


class CoreState:
    """Fields and behaviour of a hand state that do not depend on the variant."""

    __slots__ = (
        "spec",
        "_stacks",
        "_bets",
        "_contrib",
        "_dead",
        "_folded",
        "_street",
        "_phase",
        "_actors",
        "_acted",
        "_raise_inc",
        "_raises",
        "_uncapped",
        "_aggressor",
        "_street_acted",
        "_sd_aggr",
        "_shown",
        "_mucked",
        "_pots_final",
        "_awards",
        "_history",
        "_final",
    )

    spec: HandSpec | StudSpec
    _stacks: tuple[int, ...]  # chips behind per position
    _bets: tuple[int, ...]  # chips in front on the current street
    _contrib: tuple[int, ...]  # chips already collected into the pots
    _dead: tuple[int, ...]  # dead antes per position
    _folded: tuple[bool, ...]
    _street: int  # index of the street (the variant's list)
    _phase: str  # "betting", "board"/"deal", "showdown" or "complete"
    _actors: tuple[int, ...]  # positions still to act, next first
    _acted: frozenset[int]
    _raise_inc: int
    _raises: int  # bets and raises this round (the limit games' cap)
    _uncapped: bool  # the cap is lifted (heads-up)
    _aggressor: int | None
    _street_acted: bool
    _sd_aggr: int | None  # last aggressor of the last round with action
    _shown: tuple[bool, ...]
    _mucked: tuple[bool, ...]
    _pots_final: tuple[Pot, ...] | None  # fixed from the showdown (or a win without showdown) on
    _awards: tuple[Award, ...]
    _history: tuple[ActionRecord, ...]
    _final: tuple[int, ...] | None

    #: action type -> the method that applies its record to a copy (each variant's table).
    _HANDLERS: ClassVar[dict[str, Callable[[Any, Any], Any]]] = {}
    #: action type -> the check its handler runs first (raises EngineError; builds no state).
    _CHECKS: ClassVar[dict[str, Callable[[Any, Any], Any]]] = {}

    if TYPE_CHECKING:
        # Implemented by each variant.
        @property
        def _hands_may_show(self) -> bool: ...
        def _copy(self) -> Self: ...
        def _end_round(self) -> None: ...
        def _settle(self) -> None: ...

    @classmethod
    def _new_hand(
        cls, spec: Any, stacks: tuple[int, ...], bets: tuple[int, ...], contrib: tuple[int, ...], dead: tuple[int, ...]
    ) -> Self:
        """A state of a hand just started (no action yet): ``stacks`` behind, ``bets`` in front,
        ``contrib`` collected (antes), ``dead`` antes, per position; nobody folded, shown or
        mucked, no round under way, no pot fixed. The variant sets its own fields and starts."""
        n = len(stacks)
        s = object.__new__(cls)
        s.spec = spec
        s._stacks, s._bets, s._contrib, s._dead = stacks, bets, contrib, dead
        s._folded = s._shown = s._mucked = (False,) * n
        s._street = 0
        s._actors = ()
        s._acted = frozenset()
        s._raise_inc = s._raises = 0
        s._uncapped = s._street_acted = False
        s._aggressor = s._sd_aggr = None
        s._pots_final = s._final = None
        s._awards = s._history = ()
        return s

    # ---------------------------------------------------------------- actions
    def apply(self, action: ActionRecord | dict) -> Self:
        """Apply one action and return the NEW state (this one is unchanged); ``history`` gains
        its record.

        Args:
            action: an action record (:mod:`.records`), or its dict, read once by
                :func:`~.records.parse_action`. The actions are listed in :mod:`.state`; a game
                takes those of its variant (``spec.game_variant.actions``): the others are
                unknown to it.

        Raises:
            EngineError with a specific code (see ``errors.ERROR_CODES``): ``bad_action`` for an
            action the game does not take or a malformed dict (:func:`~.records.parse_action`),
            else the code of the action's check.
        """
        if not isinstance(action, ActionRecord):
            action = parse_action(action, self.spec.game_variant.actions)
        kind = action.type
        if kind not in self.spec.game_variant.actions:
            raise EngineError("bad_action", f"Unknown action type {kind.value!r}.")
        new = self._HANDLERS[kind](self, action)
        new._history = self._history + (action,)
        return new

    def verify(self, action: ActionRecord | dict) -> None:
        """Raise :class:`EngineError` if ``action`` (a record or its dict, as :meth:`apply` takes)
        is not legal now; else return None.

        Every action is checked by the very check its handler runs before it changes anything
        (:attr:`_CHECKS`, the same error as :meth:`apply` would raise): no next state is built."""
        if not isinstance(action, ActionRecord):
            action = parse_action(action, self.spec.game_variant.actions)
        kind = action.type
        if kind not in self.spec.game_variant.actions:
            raise EngineError("bad_action", f"Unknown action type {kind.value!r}.")
        self._CHECKS[kind](self, action)

    def can(self, action: ActionRecord | dict) -> bool:
        """Return True when ``action`` is legal now (:meth:`verify`)."""
        try:
            self.verify(action)
        except EngineError:
            return False
        return True

    def _turn(self, action: SeatAction) -> int:
        """Validate a betting action's seat and turn; return its position."""
        phase = self._phase
        if phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        seat = action.seat
        # spec.position_of inline for its common case (a seat dealt in): every betting action asks
        pos = self.spec._seat_pos.get(seat)
        if pos is None:
            pos = self.spec.position_of(seat)  # EngineError("no_such_seat")
        if phase != "betting":
            raise EngineError("not_betting_round", f"No betting action is pending (phase {phase}).")
        if pos != self._actors[0]:
            raise EngineError(
                "not_your_turn",
                f"Seat {self.spec.seat_of(pos)} cannot act: seat {self.spec.seat_of(self._actors[0])} is to act.",
            )
        return pos

    # ------------------------------------------------------- end of a round
    def _collect_bets(self) -> bool:
        """Close the betting round (mutates a fresh state): the uncalled part of the largest bet
        goes back (nobody can win more of a bet than the second largest bet matched), the bets
        are collected. When one player is left that player wins the whole pot without showing
        and the hand is complete: returns True; else False."""
        n = len(self._stacks)
        self._actors = ()
        if self._street_acted:
            self._sd_aggr = self._aggressor
        folded = self._folded
        alone = folded.count(False) == 1
        if not alone and not any(self._bets):
            return False  # checked around: nothing goes back, nothing is collected
        stacks, bets = list(self._stacks), list(self._bets)
        cutoff = sorted(bets)[-2]
        if alone:
            winner = folded.index(False)
            stacks[winner] += bets[winner]
            bets[winner] = 0
        top = max(bets)
        if top > cutoff:
            # only the largest bet can be above the second largest: its unmatched part goes back
            i = bets.index(top)
            stacks[i] += top - cutoff
            bets[i] = cutoff
        contrib = list(map(add, self._contrib, bets))
        self._bets = (0,) * n
        self._contrib = tuple(contrib)
        if alone:
            total = sum(contrib)
            self._pots_final = (Pot(total, (winner,)),)
            self._awards = (Award(0, winner, total, self.spec.seat_of(winner)),)
            stacks[winner] += total
            self._stacks = tuple(stacks)
            self._final = self._stacks
            self._phase = "complete"
            return True
        self._stacks = tuple(stacks)
        return False

    def _round_over_after_fold(self) -> bool:
        """After a fold out of turn (a dead hand): nobody is left to act, one player is left, or
        the one left to act has matched the largest bet of the players in the hand."""
        actors, bets, folded = self._actors, self._bets, self._folded
        return (
            not actors
            or folded.count(False) <= 1
            or (len(actors) == 1 and bets[actors[0]] >= max(b for b, f in zip(bets, folded) if not f))
        )

    def _kill_before_showdown(self, pos: int) -> None:
        """The hand at ``pos`` is dead before the showdown (mutates a fresh state): folded out of
        turn, out of the queue; the round or the hand ends when that leaves nobody to act."""
        self._folded = with_flag(self._folded, pos)
        betting = self._phase == "betting"
        self._actors = tuple(p for p in self._actors if p != pos)
        if (betting and self._round_over_after_fold()) or (not betting and self._folded.count(False) <= 1):
            self._end_round()

    # --------------------------------------------------------------- showdown
    def _showdown_pos(self, action: SeatAction) -> int:
        """The position of a ``show`` or ``muck`` action's seat: not folded, the betting over
        (the variant's :attr:`_hands_may_show`). Raises EngineError ``folded``, ``wrong_phase``."""
        pos = self.spec.position_of(action.seat)
        if self._folded[pos]:
            raise EngineError("folded", f"Seat {action.seat} has folded.")
        if not self._hands_may_show:
            raise EngineError("wrong_phase", "Hands are shown only once the betting is over.")
        return pos

    def _shower_pos(self, action: SeatAction) -> int:
        """The position of a ``show`` action's seat (:meth:`_showdown_pos`), not mucked yet."""
        pos = self._showdown_pos(action)
        if self._mucked[pos]:
            raise EngineError("wrong_phase", f"Seat {action.seat} already mucked.")
        return pos

    def _check_muck(self, action: SeatAction) -> int:
        """The check of a ``muck``: its position (a hand mucked already, or after the end, is
        mucked again: nothing changes). Raises EngineError ``no_such_seat``, ``folded``,
        ``wrong_phase``, ``sole_contender``."""
        pos = self._showdown_pos(action)
        if self._phase != "complete" and not self._mucked[pos]:
            if self._phase != "showdown":
                raise EngineError("wrong_phase", "A hand can be mucked only at the showdown.")
            self._refuse_sole_contender(pos, action.seat)
        return pos

    def _do_muck(self, action: SeatAction) -> Self:
        """:class:`~.records.Muck` at the showdown (checked by :meth:`_check_muck`)."""
        pos = self._check_muck(action)
        new = self._copy()
        new._mucked = with_flag(self._mucked, pos)
        new._settle()
        return new

    def _seat_json(self, position: int) -> dict:
        """What every variant's snapshot says of a player: ``position``, ``seat``, ``player``,
        ``starting_stack``, ``stack``, ``bet``, ``folded``."""
        seat = self.spec.seats[position]
        return {
            "position": position,
            "seat": seat.seat,
            "player": seat.player,
            "starting_stack": seat.stack,
            "stack": self._stacks[position],
            "bet": self._bets[position],
            "folded": self._folded[position],
        }

    def _pots_json(self) -> list[dict]:
        """The pots (:attr:`pots`) as JSON: ``[{"amount", "eligible", "eligible_seats"}]``."""
        seats = self.spec.seats
        return [
            {"amount": p.amount, "eligible": list(p.eligible), "eligible_seats": [seats[i].seat for i in p.eligible]}
            for p in self.pots
        ]

    def _awards_json(self) -> list[dict]:
        """The awards as JSON: ``[{"pot", "position", "seat", "amount"}]``."""
        return [{"pot": a.pot_index, "position": a.position, "seat": a.seat, "amount": a.amount} for a in self._awards]

    def _pay_when_awarded(self) -> None:
        """Complete the hand when every fixed pot is awarded: the awards go onto the stacks
        (mutates a fresh state)."""
        assert self._pots_final is not None  # fixed on entering the showdown
        if len({a.pot_index for a in self._awards}) == len(self._pots_final):
            stacks = list(self._stacks)
            for award in self._awards:
                stacks[award.position] += award.amount
            self._stacks = tuple(stacks)
            self._final = self._stacks
            self._phase = "complete"

    def _refuse_sole_contender(self, pos: int, seat: Any) -> None:
        """A player at the showdown may not muck as the last contender of an open pot (that
        player wins it). Raises EngineError("sole_contender")."""
        done = {a.pot_index for a in self._awards}
        assert self._pots_final is not None  # fixed on entering the showdown
        for index, pot in enumerate(self._pots_final):
            if index in done or pos not in pot.eligible:
                continue
            if not any(p != pos and not self._mucked[p] for p in pot.eligible):
                raise EngineError("sole_contender", f"Seat {seat} is the last contender for pot {index} and wins it.")

    def _award_target(self, action: AwardPot) -> tuple[int, Pot, list[int]]:
        """``(index, pot, winners)`` of an :class:`~.records.AwardPot`: an open pot at the
        showdown and its contenders as positions.

        Raises EngineError ``hand_over``, ``wrong_phase``, ``bad_award``, ``no_such_seat``."""
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        if self._phase != "showdown":
            raise EngineError("wrong_phase", "Pots are awarded at the showdown.")
        index = action.pot
        pots = self._pots_final
        assert pots is not None  # fixed on entering the showdown
        if not 0 <= index < len(pots):
            raise EngineError("bad_award", f"There is no pot {index!r} (pots 0..{len(pots) - 1}).")
        if any(a.pot_index == index for a in self._awards):
            raise EngineError("bad_award", f"Pot {index} is already awarded.")
        seats = action.winners
        if not seats:
            raise EngineError("bad_award", "winners must be a non-empty list of seat numbers.")
        winners = [self.spec.position_of(s) for s in seats]
        if len(set(winners)) != len(winners):
            raise EngineError("bad_award", "A winner is listed twice.")
        pot = pots[index]
        for p in winners:
            if p not in pot.eligible or self._mucked[p]:
                raise EngineError("bad_award", f"Seat {self.spec.seat_of(p)} is not a contender for pot {index}.")
        return index, pot, winners

    def _dead_hand_position(self, action: Kill) -> int:
        """The position of a ``kill`` action's seat (a floor correction: the hand is dead): the
        check of :class:`~.records.Kill`.

        Raises EngineError ``hand_over``, ``no_such_seat``, ``folded``."""
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        pos = self.spec.position_of(action.seat)
        if self._folded[pos] or self._mucked[pos]:
            raise EngineError("folded", f"Seat {action.seat}'s hand is already dead.")
        return pos

    # ---------------------------------------------------------------- queries
    @property
    def phase(self) -> str:
        """``"betting"`` (a player is to act); the dealer deals the next street: ``"board"``
        (flop games; cards optional) or ``"deal"`` (stud games: the variant's ``deal_phase``); ``"showdown"`` (waiting for shows,
        mucks or awards) or ``"complete"``."""
        return self._phase

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
        """Per position, whether the player folded (or the hand is dead)."""
        return self._folded

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
    def history(self) -> tuple[ActionRecord, ...]:
        """The actions applied, as records (:mod:`.records`; ``record.to_dict()`` is its dict)."""
        return self._history

    @property
    def is_complete(self) -> bool:
        """True when every pot is awarded."""
        return self._phase == "complete"

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
        pending = [c + (b if b < cutoff else cutoff) for c, b in zip(self._contrib, bets)]
        return build_pots(pending, self._dead, self._folded)

    @property
    def total_pot(self) -> int:
        """All chips in the middle including current bets (chips)."""
        if self._final is not None:
            assert self._pots_final is not None  # fixed whenever the hand is complete
            return sum(p.amount for p in self._pots_final)
        return sum(self._contrib) + sum(self._bets)

    @property
    def awards(self) -> tuple[Award, ...]:
        """Pot awards made so far (several per pot when split)."""
        return self._awards
