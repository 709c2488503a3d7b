"""Seven Card Stud: the end of a betting round, the showdown, awards and dead hands.

Part of :class:`~poker.hand.stud.StudState` (a mixin). The uncalled bet goes
back and the bets are collected; the pots the cards decide are awarded
(best five of seven, pokerkit's ``StandardHighHand`` through
:func:`~poker.hand.evaluation.hand_strength`; the odd chip of a split pot to
the highest card by suit, 000 Allgemein 8); the dealer awards the others;
the floor kills a hand (004 #66).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from pokerkit import EightOrBetterLowHand, Hand, RegularLowHand

from .cards import UNKNOWN, is_known, parse_cards
from .core import with_flag
from .errors import EngineError
from .evaluation import hand_strength
from .pots import Award, Pot, build_pots
from .stud_base import StudFields, split_stud
from .stud_spec import high_card_key

__all__ = ["StudShowdown"]


class StudShowdown(StudFields):
    """Closing a round, the showdown and the floor's ``kill`` of a stud hand."""

    __slots__ = ()

    def _end_round(self) -> None:
        """Return the uncalled bet, collect the bets (:meth:`~.core.CoreState._collect_bets`);
        then the hand is won, goes to the showdown, or waits for the next street."""
        if self._collect_bets():
            return
        if self._street == 4:
            self._phase = "showdown"
            self._pots_final = build_pots(self._contrib, self._dead, self._folded)
            self._settle()
        else:
            self._phase = "deal"

    # ------------------------------------------------------------- showdown
    def cards_of(self, position: int) -> tuple[str, ...]:
        """All cards of ``position`` in the order dealt (down, down, up ...,
        down), without the community card."""
        down, up = self._down[position], self._up[position]
        return down[:2] + up + down[2:]

    def _strength(self, position: int):
        return hand_strength(self.cards_of(position), self._community)

    def _odd_chip_to(self, winners: Sequence[int]) -> int | None:
        """The winner who gets the odd chip: the highest card by suit (000
        Allgemein 8), or the first in deal order (``odd_chip == "position"``);
        None when a winner's cards are unknown."""
        if self.spec.odd_chip == "position" or len(winners) == 1:
            return min(winners)
        if not all(is_known(self.cards_of(p)) for p in winners):
            return None
        return max(winners, key=lambda p: high_card_key(self.cards_of(p)))

    def _low(self, position: int, kind: str) -> Hand | None:
        """The ace-to-five low of ``position`` (pokerkit ``RegularLowHand``;
        ``kind == "eight"``: ``EightOrBetterLowHand``, None when no five
        different cards eight or lower); greater = better."""
        cls = EightOrBetterLowHand if kind == "eight" else RegularLowHand
        try:
            return cls.from_game("".join(self.cards_of(position)), "".join(self._community))
        except ValueError:
            return None

    def _winners(self, contenders: Sequence[int]) -> list[list[int]]:
        """The winners of each part of a pot, as the game (:class:`StudGame`)
        splits it: ``[high]`` (stud), ``[low]`` (razz), ``[high, low]``
        (stud eight-or-better with a qualifying low) or ``[high]`` (none)."""
        game = self.spec.stud_game
        parts = []
        if game.high:
            strength = {p: self._strength(p) for p in contenders}
            best = max(strength.values())
            parts.append([p for p in contenders if strength[p] == best])
        if game.low is not None:
            lows = {p: low for p in contenders if (low := self._low(p, game.low)) is not None}
            if lows:
                top = max(lows.values())
                parts.append([p for p in contenders if p in lows and lows[p] == top])
        return parts

    def _split(self, index: int, amount: int, parts: Sequence[Sequence[int]], unit: int) -> list[Award]:
        """Awards of pot ``index``: ``amount`` divided between ``parts``
        (the high part first takes the odd chips of the halves, as pokerkit
        divides), each part between its winners (:func:`split_stud`; the
        odd chip of the high part by :meth:`_odd_chip_to`, of a low part to
        the first winner in deal order). One award per winner."""
        share, rest = divmod(amount // unit, len(parts))
        won: dict[int, int] = {}
        for k, winners in enumerate(parts):
            part = (share + (rest if k == 0 else 0)) * unit + (amount % unit if k == 0 else 0)
            high = k == 0 and self.spec.stud_game.high
            for p, chips in split_stud(part, winners, unit, self._odd_chip_to(winners) if high else None):
                won[p] = won.get(p, 0) + chips
        return [Award(index, p, chips, self.spec.seat_of(p)) for p, chips in sorted(won.items())]

    def _settle(self) -> None:
        """Award the pots the cards decide (every contender's seven cards
        and the community card known); complete the hand when all are."""
        if self._phase != "showdown":
            return
        pots = self._pots_final
        assert pots is not None
        done = {a.pot_index for a in self._awards}
        awards = list(self._awards)
        unit = self.spec.split_unit
        own = 7 - len(self._community)  # the community card is every player's seventh
        for index, pot in enumerate(pots):
            if index in done:
                continue
            contenders = [p for p in pot.eligible if not self._mucked[p]]
            if len(contenders) > 1:
                if not all(len(self.cards_of(p)) == own and is_known(self.cards_of(p)) for p in contenders):
                    continue
                if self._community and not is_known(self._community):
                    continue
                parts = self._winners(contenders)
            else:
                parts = [contenders]
            awards.extend(self._split(index, pot.amount, parts, unit))
        self._awards = tuple(awards)
        self._pay_when_awarded()

    @property
    def _hands_may_show(self) -> bool:
        """The betting is over: the showdown or the end (the stud engine has no run-out phase)."""
        return self._phase in ("showdown", "complete")

    def _do_show(self, action: dict) -> Self:
        pos = self._shower_pos(action)
        current = self.cards_of(pos)
        text = action.get("cards")
        if text:
            cards = parse_cards(text, allow_unknown=False)
            if len(cards) != len(current):
                raise EngineError("bad_cards", f"{len(current)} cards expected, got {len(cards)}.")
            if any(c != UNKNOWN and c != d for c, d in zip(current, cards)):
                raise EngineError("bad_cards", f"Shown cards differ from the cards entered {''.join(current)}.")
            others = {c for p in range(len(self._stacks)) if p != pos for c in self.cards_of(p) if c != UNKNOWN} | set(
                self._community
            )
            if others.intersection(cards):
                raise EngineError("duplicate_card", "A shown card is already dealt elsewhere.")
        elif not is_known(current):
            raise EngineError("bad_cards", "The cards shown must be entered.")
        else:
            cards = current
        new = self._copy()
        down, up = list(self._down), list(self._up)
        k = len(self._up[pos])
        down[pos] = cards[:2] + cards[2 + k :]
        up[pos] = cards[2 : 2 + k]
        new._down, new._up = tuple(down), tuple(up)
        new._shown = with_flag(self._shown, pos)
        new._settle()
        return new

    def _do_award(self, action: dict) -> Self:
        """The dealer awards pot ``pot`` to ``winners`` (cards not entered);
        ``odd_chip`` names the winner with the highest card by suit when
        their cards are unknown and the pot does not split evenly (000
        Allgemein 8)."""
        index, pot, winners = self._award_target(action)
        first = self._odd_chip_to(winners)
        named = action.get("odd_chip")
        if named is not None:
            pos = self.spec.position_of(named)
            if pos not in winners:
                raise EngineError("bad_award", "The odd chip goes to one of the winners.")
            if first is not None and pos != first:
                raise EngineError(
                    "bad_award",
                    f"Seat {self.spec.seat_of(first)} holds the highest card and gets the odd chip (000 Allgemein 8).",
                )
            first = pos
        unit = self.spec.split_unit
        if first is None:
            if pot.amount // unit % len(winners) or pot.amount % unit:
                raise EngineError(
                    "bad_award",
                    "The pot does not split evenly: name the winner with the highest card by suit "
                    "(odd_chip, 000 Allgemein 8).",
                )
            first = min(winners)
        new = self._copy()
        new._awards = self._awards + tuple(
            Award(index, p, amount, self.spec.seat_of(p)) for p, amount in split_stud(pot.amount, winners, unit, first)
        )
        new._settle()
        return new

    def _do_kill(self, action: dict) -> Self:
        """Floor correction: the hand at ``seat`` is dead, whatever the turn
        (004 #66: a player who picks up his up cards when it is his turn;
        a correct fold turns the up cards over). The chips it put in stay in
        the pot (an uncalled bet goes back); at the showdown it is mucked.

        Raises EngineError ``hand_over``, ``no_such_seat``, ``folded``.
        """
        pos = self._dead_hand_position(action)
        new = self._copy()
        if self._phase == "showdown":
            assert self._pots_final is not None
            new._mucked = with_flag(self._mucked, pos)
            new._pots_final = tuple(
                Pot(pot.amount, tuple(p for p in pot.eligible if p != pos) or pot.eligible) for pot in self._pots_final
            )
            new._settle()
            return new
        # a bring-in still due falls to the next player in turn
        new._kill_before_showdown(pos)
        return new
