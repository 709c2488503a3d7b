"""Closing a betting round, the showdown, awards and the floor's rulings.

Part of :class:`~poker.hand.state.HandState` (a mixin: these methods run on
the state and read its fields): the uncalled bet goes back and the bets are
collected (TDA; pokerkit), a hand won without showdown (003 "Der
Showdown"), the showdown order (003 "Showdown Reihenfolge"), shows, mucks,
pots decided from the cards (:func:`~poker.hand.evaluation.evaluate_showdown`)
or awarded by the dealer (one or two boards:
:func:`~poker.hand.formats.award_shares`), and the floor's corrections
``kill`` (a dead hand) and ``floor_award`` (004 #1).
"""

from __future__ import annotations

from typing import Self, TypeGuard

from .cards import UNKNOWN, is_known, parse_cards
from .errors import EngineError
from .evaluation import evaluate_showdown
from .fields import HandFields
from .formats import award_shares
from .pots import Award, Pot, build_pots, split_amount

__all__ = ["Showdown"]


def _is_int(value) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class Showdown(HandFields):
    """The showdown part of :class:`~poker.hand.state.HandState`: the end of
    a betting round, the ``show``, ``muck`` and ``award`` actions, the
    floor's ``kill`` and ``floor_award``, and the pot queries."""

    __slots__ = ()

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
        assert self._pots_final is not None  # fixed on entering the showdown
        if len({a.pot_index for a in self._awards}) == len(self._pots_final):
            stacks = list(self._stacks)
            for award in self._awards:
                stacks[award.position] += award.amount
            self._stacks = tuple(stacks)
            self._final = self._stacks
            self._phase = "complete"

    def _showdown_pos(self, action: dict) -> int:
        pos = self.spec.position_of(action.get("seat"))
        if self._folded[pos]:
            raise EngineError("folded", f"Seat {action.get('seat')} has folded.")
        if self._phase in ("betting", "board") and not (self._phase == "board" and self._runout):
            raise EngineError("wrong_phase", "Hands are shown only once the betting is over.")
        return pos

    def _do_show(self, action: dict) -> Self:
        pos = self._showdown_pos(action)
        if self._mucked[pos]:
            raise EngineError("wrong_phase", f"Seat {action.get('seat')} already mucked.")
        text = action.get("cards")
        current = self._hole[pos]
        if text:
            cards = parse_cards(text, allow_unknown=False)
            if len(cards) != self.spec._hole_count:
                raise EngineError("bad_cards", f"{self.spec._hole_count} hole cards expected, got {len(cards)}.")
            if current is not None and any(c != UNKNOWN and c != d for c, d in zip(current, cards)):
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

    def _do_muck(self, action: dict) -> Self:
        pos = self._showdown_pos(action)
        if self._phase == "complete" or self._mucked[pos]:
            new = self._copy()
        else:
            if self._phase != "showdown":
                raise EngineError("wrong_phase", "A hand can be mucked only at the showdown.")
            done = {a.pot_index for a in self._awards}
            assert self._pots_final is not None  # fixed on entering the showdown
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

    def _do_award(self, action: dict) -> Self:
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        if self._phase != "showdown":
            raise EngineError("wrong_phase", "Pots are awarded at the showdown.")
        index = action.get("pot")
        pots = self._pots_final
        assert pots is not None  # fixed on entering the showdown
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
                raise EngineError("bad_award", f"Seat {self.spec.seat_of(p)} is not a contender for pot {index}.")
        if not self.spec.rules.allow_hole_cards_unknown:
            raise EngineError("bad_award", "House rules require the cards to be entered; show the hands instead.")
        new = self._copy()
        new._awards = self._awards + tuple(
            Award(index, p, amount, self.spec.seat_of(p))
            for p, amount in award_shares(
                self.spec,
                index,
                pot,
                len(self.boards_of_pot(index)),
                winners,
                self._mucked,
                action,
            )
        )
        new._settle()
        return new

    def _do_kill(self, action: dict) -> Self:
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
            assert self._pots_final is not None  # fixed on entering the showdown
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

    def _do_floor_award(self, action: dict) -> Self:
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
            assert self._pots_final is not None  # fixed whenever the hand is complete
            return sum(p.amount for p in self._pots_final)
        return sum(self._contrib) + sum(self._bets)

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
