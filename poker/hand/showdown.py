"""Closing a betting round, the showdown, awards and the floor's rulings.

Part of :class:`~poker.hand.state.HandState` (a mixin: these methods run on
the state and read its fields): the uncalled bet goes back and the bets are
collected (TDA; pokerkit), a hand won without showdown (003 "Der
Showdown"), the showdown order (003 "Showdown Reihenfolge"), shows, mucks,
pots decided from the cards (:func:`~poker.hand.evaluation.evaluate_showdown`)
or awarded by the dealer (one or two boards:
:func:`~poker.hand.formats.award_shares`), and the floor's corrections
``kill`` (a dead hand) and ``floor_award`` (004 #1). The game (``spec.game_variant``) says
when the showdown comes (after its last street's betting), what phase waits for the next
street (``"board"`` or ``"deal"``) and how its pots are divided (a stud game's:
:mod:`.stud_showdown`).
"""

from __future__ import annotations

from typing import Self, cast

from .cards import UNKNOWN, is_known, parse_cards
from .core import with_flag
from .errors import EngineError
from .evaluation import evaluate_showdown
from .fields import HandFields
from .formats import award_shares
from .pots import Award, Pot, build_pots, split_amount
from .records import AwardPot, FloorAward, Kill, Show
from .spec import HandSpec

__all__ = ["Showdown"]


class Showdown(HandFields):
    """The showdown part of :class:`~poker.hand.state.HandState`: the end of
    a betting round, the ``show``, ``muck`` and ``award`` actions, the
    floor's ``kill`` and ``floor_award``, and the pot queries."""

    __slots__ = ()

    def _end_round(self) -> None:
        """Return the uncalled bet and collect the bets (:meth:`~.core.CoreState._collect_bets`),
        then finish the hand, go to showdown or wait for the next street (the game's phase)."""
        if self._collect_bets():
            return
        # at most one player not folded has chips behind
        behind = 0
        for stack, folded in zip(self._stacks, self._folded):
            if stack and not folded:
                behind += 1
        if behind <= 1:
            self._runout = True
        spec = self.spec
        if self._street == spec._last_street:
            self._enter_showdown()
        else:
            self._phase = spec.game_variant.deal_phase

    def _enter_showdown(self) -> None:
        self._phase = "showdown"
        self._pots_final = build_pots(self._contrib, self._dead, self._folded)
        self._settle()

    def _settle(self) -> None:
        """Add the awards that can be decided now; complete the hand when
        every pot is awarded."""
        if self._phase != "showdown":
            return
        new = self._stud_awards() if self.spec._stud else evaluate_showdown(self)
        if new:
            self._awards = self._awards + tuple(new)
        self._pay_when_awarded()

    @property
    def _hands_may_show(self) -> bool:
        """The betting is over: the showdown, the end, or an all-in run-out of the board (a stud
        game deals every street, all-in or not: its hands show at the showdown)."""
        return self.betting_over

    # Each action is its check (``_check_*``: what it changes, or EngineError) and its change of
    # the state (``_do_*``); ``can``/``verify`` run the check alone.
    def _check_show(self, action: Show) -> tuple[int, tuple[str, ...]]:
        """The check of :class:`~.records.Show`: ``(position, cards shown)``; the cards given
        must be the hand's number, agree with the cards entered and be out nowhere else; without
        cards the cards entered are shown. Raises EngineError ``no_such_seat``, ``folded``,
        ``wrong_phase`` (betting not over, mucked), ``bad_cards``, ``duplicate_card``."""
        pos = self._shower_pos(action)
        text = action.cards
        current = self._hole[pos]
        if text:
            cards = parse_cards(text, allow_unknown=False)
            count = self.spec._hole_count if current is None else len(current)  # (a stud hand: the cards dealt)
            if len(cards) != count:
                raise EngineError("bad_cards", f"{count} hole cards expected, got {len(cards)}.")
            if current is not None and any(c != UNKNOWN and c != d for c, d in zip(current, cards)):
                raise EngineError(
                    "bad_cards",
                    f"Shown cards {''.join(cards)} differ from the cards entered {''.join(current)}.",
                )
            if self._dealt_elsewhere(cards, skip_hole=pos):  # (the test without building the set)
                clash = self._known_elsewhere(skip_hole=pos).intersection(cards)
                raise EngineError("duplicate_card", f"{', '.join(sorted(clash))} already dealt.")
        else:
            if not is_known(current):
                raise EngineError("bad_cards", "The cards shown must be entered.")
            cards = current
        return pos, cards

    def _do_show(self, action: Show) -> Self:
        pos, cards = self._check_show(action)
        new = self._copy()
        hole = list(self._hole)
        hole[pos] = cards
        new._hole = tuple(hole)
        shown = list(self._shown)
        shown[pos] = True
        new._shown = tuple(shown)
        new._settle()
        return new

    def _check_award(self, action: AwardPot) -> tuple[Award, ...]:
        """The check of :class:`~.records.AwardPot`: the awards it adds (a flop game's pot split
        by :func:`~poker.hand.formats.award_shares` over its boards; a stud game's:
        :meth:`~.stud_showdown.StudShowdown._check_stud_award`). Raises EngineError
        ``hand_over``, ``wrong_phase``, ``bad_award``, ``no_such_seat``."""
        if self.spec._stud:
            return self._check_stud_award(action)
        index, pot, winners = self._award_target(action)
        if not self.spec.rules.allow_hole_cards_unknown:
            raise EngineError("bad_award", "House rules require the cards to be entered; show the hands instead.")
        return tuple(
            Award(index, p, amount, self.spec.seat_of(p))
            for p, amount in award_shares(
                cast(HandSpec, self.spec),  # a flop game's (a stud game's award returned above)
                index,
                pot,
                len(self.boards_of_pot(index)),
                winners,
                self._mucked,
                action.winners2,
            )
        )

    def _do_award(self, action: AwardPot) -> Self:
        awards = self._check_award(action)
        new = self._copy()
        new._awards = self._awards + awards
        new._settle()
        return new

    def _do_kill(self, action: Kill) -> Self:
        """Floor correction: the hand at ``seat`` is dead, whatever the turn.

        A dead hand (rulebook 003 "Miss-Deal" fouled hands, 001 6.25 and
        004 #35 exposed cards, 000 Allgemein 6 absent player, 004 #71
        penalty: "cards dealt and killed") is folded out of turn: the chips
        it put in stay in the pot except a bet or raise nobody called, which
        goes back (004 #14); it leaves the betting queue, and when one player
        is left that player wins.  At the showdown it is mucked.

        Raises EngineError ``hand_over``, ``no_such_seat``, ``folded``.
        """
        pos = self._dead_hand_position(action)
        new = self._copy()
        if self._phase == "showdown":
            assert self._pots_final is not None  # fixed on entering the showdown
            mucked = new._mucked = with_flag(self._mucked, pos)
            live = [p for p in range(len(mucked)) if not mucked[p] and not self._folded[p]]
            if len(live) == 1 and not self.spec._stud:
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
        new._kill_before_showdown(pos)
        return new

    def _check_floor_award(self, action: FloorAward) -> list[int]:
        """The check of :class:`~.records.FloorAward`: the winners' positions.

        Raises EngineError ``hand_over``, ``bad_award`` (no seats, repeated or folded),
        ``no_such_seat``."""
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        seats = action.seats
        if not seats:
            raise EngineError("bad_award", "seats must be a non-empty list of seat numbers.")
        winners = [self.spec.position_of(s) for s in seats]
        if len(set(winners)) != len(winners):
            raise EngineError("bad_award", "A seat is listed twice.")
        for p in winners:
            if self._folded[p]:
                raise EngineError("bad_award", f"Seat {self.spec.seat_of(p)} has folded.")
        return winners

    def _do_floor_award(self, action: FloorAward) -> Self:
        """Floor correction: the whole pot (every bet included) goes to
        ``seats`` now and the hand is over, e.g. after a ruling that the
        other hands are dead or a dispute settled by the floor (004 #1, the
        floor's decision is final).  Split equally, the odd chip by
        :func:`split_amount` (left of the button, 003 "Odd-Chips").

        Raises EngineError as :meth:`_check_floor_award`.
        """
        winners = self._check_floor_award(action)
        new = self._copy()
        contrib = tuple(c + b for c, b in zip(self._contrib, self._bets))
        new._contrib = contrib
        new._bets = (0,) * len(contrib)
        new._actors = ()
        total = sum(contrib)
        already = sum(a.amount for a in self._awards)
        pot = Pot(total - already, tuple(sorted(winners)))
        awarded = sorted({a.pot_index for a in self._awards})
        kept = tuple((self._pots_final or ())[i] for i in awarded)  # awards exist only once the pots are fixed
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
        (Rules.showdown_no_bet; a stud game: the player who acted first on
        the last street); then clockwise. Empty while betting goes on
        and after a win without showdown.
        """
        if not self.betting_over or self._folded.count(False) <= 1:
            return ()
        n = len(self._folded)
        start = self._sd_aggr if self._sd_aggr is not None else (self._opener or 0)
        return tuple(i for i in ((start + k) % n for k in range(n)) if not self._folded[i])
