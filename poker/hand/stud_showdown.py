"""The stud games' showdown: how a pot is divided.

Part of :class:`~poker.hand.state.HandState` (a mixin), read when the game
(``spec.game_variant``) has a bring-in: the pots the cards decide are awarded
(best five of seven, pokerkit's ``StandardHighHand`` through
:func:`~poker.hand.evaluation.hand_strength`; the ace-to-five low of razz and
the eight-or-better low of stud8 as the variant says; the odd chip of a split
pot to the highest card by suit, 000 Allgemein 8); the dealer awards the
others. The end of a round, shows, mucks and dead hands are the one state's
(:mod:`.showdown`, :mod:`.core`). Sources: 000 Allgemein 8 (the odd chip to
the highest card by suit, pots split down to the ante).
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerkit import EightOrBetterLowHand, Hand, RegularLowHand

from .cards import is_known
from .errors import EngineError
from .evaluation import hand_strength
from .fields import HandFields
from .pots import Award
from .records import AwardPot
from .stud_spec import StudSpec, high_card_key

__all__ = ["StudShowdown", "split_stud"]


def split_stud(amount: int, winners: Sequence[int], unit: int, first: int | None = None) -> list[tuple[int, int]]:
    """Split a pot between winners.

    Args:
        amount: chips in the pot; winners: positions; unit: the pot is split
            down to this many chips (000 Allgemein 8).
        first: the winner who gets the odd units (000 Allgemein 8: the
            highest card by suit); default the first winner in deal order.

    Returns:
        ``[(position, chips), ...]`` in position order.
    """
    ordered = sorted(winners)
    lucky = ordered[0] if first is None else first
    units, rest = divmod(amount, unit)
    share, odd = divmod(units, len(ordered))
    return [(p, share * unit + ((odd * unit + rest) if p == lucky else 0)) for p in ordered]


class StudShowdown(HandFields):
    """The division of a stud game's pots (a part of the one hand state)."""

    __slots__ = ()

    @property
    def _stud_spec(self) -> StudSpec:
        spec = self.spec
        assert isinstance(spec, StudSpec)  # read only in a stud game
        return spec

    def cards_of(self, position: int) -> tuple[str, ...]:
        """All cards of ``position`` in the order dealt (a stud game: down, down, up ...,
        down), without the board (stud's community card)."""
        return self._hole[position] or ()

    def _strength(self, position: int):
        return hand_strength(self.cards_of(position), self._board)

    def _odd_chip_to(self, winners: Sequence[int]) -> int | None:
        """The winner who gets the odd chip: the highest card by suit (000
        Allgemein 8), or the first in deal order (``odd_chip == "position"``);
        None when a winner's cards are unknown."""
        if self._stud_spec.odd_chip == "position" or len(winners) == 1:
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
            return cls.from_game("".join(self.cards_of(position)), "".join(self._board))
        except ValueError:
            return None

    def _winners(self, contenders: Sequence[int]) -> list[list[int]]:
        """The winners of each part of a pot, as the game (:class:`StudGame`)
        splits it: ``[high]`` (stud), ``[low]`` (razz), ``[high, low]``
        (stud eight-or-better with a qualifying low) or ``[high]`` (none)."""
        game = self.spec.game_variant
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
            high = k == 0 and self.spec.game_variant.high
            for p, chips in split_stud(part, winners, unit, self._odd_chip_to(winners) if high else None):
                won[p] = won.get(p, 0) + chips
        return [Award(index, p, chips, self.spec.seat_of(p)) for p, chips in sorted(won.items())]

    def _stud_awards(self) -> list[Award]:
        """The awards of the pots the cards decide now (every contender's seven cards and the
        community card known; a pot with one contender is his), for :meth:`_settle`."""
        pots = self._pots_final
        assert pots is not None
        done = {a.pot_index for a in self._awards}
        awards: list[Award] = []
        unit = self.spec.split_unit
        own = self.spec._hole_count - len(self._board)  # the community card is every player's seventh
        for index, pot in enumerate(pots):
            if index in done:
                continue
            contenders = [p for p in pot.eligible if not self._mucked[p]]
            if len(contenders) > 1:
                if not all(len(self.cards_of(p)) == own and is_known(self.cards_of(p)) for p in contenders):
                    continue
                if self._board and not is_known(self._board):
                    continue
                parts = self._winners(contenders)
            else:
                parts = [contenders]
            awards.extend(self._split(index, pot.amount, parts, unit))
        return awards

    def _check_stud_award(self, action: AwardPot) -> tuple[Award, ...]:
        """The check of a stud game's ``award`` action (:class:`~.records.AwardPot`): the dealer
        awards pot ``pot`` to ``winners`` (cards not entered); ``odd_chip`` names the winner
        with the highest card by suit when their cards are unknown and the pot does not split
        evenly (000 Allgemein 8). Returns the awards it adds (the state's ``_do_award`` adds
        them). Raises EngineError ``hand_over``, ``wrong_phase``, ``bad_award``,
        ``no_such_seat``."""
        index, pot, winners = self._award_target(action)
        first = self._odd_chip_to(winners)
        named = action.odd_chip
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
        return tuple(
            Award(index, p, amount, self.spec.seat_of(p)) for p, amount in split_stud(pot.amount, winners, unit, first)
        )
