"""Streets and dealing: hole cards, the board (one or two), run it twice.

Part of :class:`~poker.hand.state.HandState` (a mixin: these methods run on
the state and read its fields). The dealer enters cards or leaves them
unknown (``"??"``); a card already out elsewhere is refused. A second board
(double board, 000 Allgemein 14; run it twice, 000 Aktionen 8) is the
state's :class:`~poker.hand.formats.TwoBoards` part, called with plain
values.
"""

from __future__ import annotations

from itertools import chain
from typing import Self, cast

from .cards import UNKNOWN, parse_cards
from .errors import EngineError
from .fields import HandFields
from .formats import TwoBoards, check_run_it_twice
from .records import Board, Hole, RunItTwice
from .spec import HandSpec
from .variants import VARIANTS

__all__ = ["STREETS", "BOARD_CARDS", "Dealing"]

#: The streets of the flop games (:data:`.variants.VARIANTS`).
STREETS = VARIANTS["nlhe"].street_names
#: Board cards dealt at the start of each street.
BOARD_CARDS = tuple(street.board for street in VARIANTS["nlhe"].streets)


class Dealing(HandFields):
    """The dealing part of :class:`~poker.hand.state.HandState`: the
    ``hole``, ``board`` and ``run_it_twice`` actions and the board queries."""

    __slots__ = ()

    def _known_elsewhere(self, skip_hole: int | None = None, skip_board: bool = False) -> set[str]:
        cards = set() if skip_board else set(self._board)
        if self._two is not None and not skip_board:
            cards.update(self._two.board2)
        for i, hole in enumerate(self._hole):
            if hole is not None and i != skip_hole:
                cards.update(hole)
        cards.discard(UNKNOWN)
        return cards

    def _dealt_elsewhere(self, cards: tuple[str, ...], skip_hole: int | None = None, skip_board: bool = False) -> bool:
        """Whether a known card of ``cards`` is out elsewhere (the test of :meth:`_known_elsewhere`
        without building the set: a deal checks it on every card)."""
        known = set(cards)
        known.discard(UNKNOWN)
        if not known:
            return False
        if not skip_board:
            if not known.isdisjoint(self._board):
                return True
            if self._two is not None and not known.isdisjoint(self._two.board2):
                return True
        holes = self._hole
        if skip_hole is not None and holes[skip_hole] is not None:
            holes = holes[:skip_hole] + holes[skip_hole + 1 :]
        # one pass over the other hands' cards in C (no hand: None, skipped by the filter)
        return not known.isdisjoint(chain.from_iterable(filter(None, holes)))

    # Each action is its check (``_check_*``: what the action changes, or EngineError) and its
    # change of the state (``_do_*``); ``can``/``verify`` run the check alone.
    def _check_hole(self, action: Hole) -> tuple[int, tuple[str, ...]]:
        """The check of :class:`~.records.Hole`: ``(position, cards)``, the cards the hand's
        number (unknown when not entered) and out nowhere else. Raises EngineError
        ``hand_over``, ``no_such_seat``, ``bad_cards``, ``duplicate_card``."""
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        spec = self.spec
        seat = action.seat
        # spec.position_of inline for its common case (a seat dealt in), as in CoreState._turn
        pos = spec._seat_pos.get(seat)
        if pos is None:
            pos = spec.position_of(seat)  # EngineError("no_such_seat")
        count = spec._hole_count
        cards = parse_cards(action.cards or UNKNOWN * count)
        if len(cards) != count:
            raise EngineError("bad_cards", f"{count} hole cards expected, got {len(cards)}.")
        if self._dealt_elsewhere(cards, skip_hole=pos):
            clash = self._known_elsewhere(skip_hole=pos).intersection(cards)
            raise EngineError("duplicate_card", f"{', '.join(sorted(clash))} already dealt.")
        return pos, cards

    def _do_hole(self, action: Hole) -> Self:
        pos, cards = self._check_hole(action)
        new = self._copy()
        hole = list(self._hole)
        hole[pos] = None if cards.count(UNKNOWN) == len(cards) else cards
        new._hole = tuple(hole)
        if new._phase == "showdown":  # (the cards may decide a pot: _settle)
            new._settle()
        return new

    def _check_board(self, action: Board) -> tuple[tuple[str, ...], TwoBoards | None, int, str]:
        """The check of :class:`~.records.Board`: ``(board1, two_boards, street, then)`` as
        :meth:`TwoBoards.deal` gives them (one board: ``then`` is ``"betting"``). Raises
        EngineError ``hand_over``, ``wrong_phase``, ``bad_cards``, ``duplicate_card``."""
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        if self._phase != "board":
            raise EngineError("wrong_phase", f"No board cards are due (phase {self._phase}).")
        if self._two is not None:
            return self._two.deal(self._board, self._street, action.cards, action.board, self._known_elsewhere())
        street = self._street + 1
        count = BOARD_CARDS[street]
        cards = parse_cards(action.cards or "")
        if not cards:
            cards = (UNKNOWN,) * count
        if len(cards) != count:
            raise EngineError("bad_cards", f"The {STREETS[street]} is {count} card(s), got {len(cards)}.")
        if self._dealt_elsewhere(cards):
            clash = self._known_elsewhere().intersection(cards)
            raise EngineError("duplicate_card", f"{', '.join(sorted(clash))} already dealt.")
        return self._board + cards, None, street, "betting"

    def _do_board(self, action: Board) -> Self:
        board1, two, street, then = self._check_board(action)
        new = self._copy()
        new._board = board1
        if two is not None:  # a double-board hand or a hand run twice
            new._two = two
        if then == "betting":
            new._street = street
            new._begin_round(0, 0)
        elif then == "showdown":
            new._street = street
            new._enter_showdown()
        return new

    def _check_run_it_twice(self, action: RunItTwice) -> list[int]:
        """The check of :class:`~.records.RunItTwice` (000 Aktionen 8): the pots to run twice,
        by :func:`~poker.hand.formats.check_run_it_twice` (which names its errors)."""
        return check_run_it_twice(
            cast(HandSpec, self.spec),  # a flop game's (the stud games take no run_it_twice)
            self._phase,
            self._runout,
            self._two,
            self.pots,
            self.total_pot,
            action.agreed,
            action.pots,
            action.floor,
        )

    def _do_run_it_twice(self, action: RunItTwice) -> Self:
        """000 Aktionen 8; the checks are :meth:`_check_run_it_twice`."""
        chosen = self._check_run_it_twice(action)
        new = self._copy()
        new._two = TwoBoards.agreed(self._board, chosen)
        return new

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
    def boards(self) -> tuple[tuple[str, ...], ...]:
        """``(board,)``, or ``(board, board2)`` in a double-board hand or
        once the players agreed to run it twice."""
        return (self._board,) if self._two is None else (self._board, self._two.board2)

    @property
    def next_street(self) -> str | None:
        """In phase "board" (a stud game: "deal"): the street whose cards are due, else None."""
        variant = self.spec.game_variant
        if self._phase != variant.deal_phase:
            return None
        if self._two is not None:
            return STREETS[self._two.due(self._board, self._street)[1]]
        return variant.street_names[self._street + 1]

    @property
    def board_cards_due(self) -> int:
        """Number of board cards the next ``board`` action deals (0 if none due)."""
        if self._phase != "board":
            return 0
        if self._two is not None:
            return self._two.due(self._board, self._street)[2]
        return BOARD_CARDS[self._street + 1]

    @property
    def next_board(self) -> int | None:
        """In phase "board": 1 or 2, the board the next ``board`` action
        deals (always 1 in a one-board hand), else None."""
        if self._phase != "board":
            return None
        return self._two.due(self._board, self._street)[0] if self._two is not None else 1

    @property
    def run_twice_pots(self) -> frozenset | None:
        """Indexes of the pots the players agreed to run twice, or None."""
        return None if self._two is None else self._two.run_twice

    def boards_of_pot(self, index: int) -> tuple[int, ...]:
        """Board indexes (0, 1) pot ``index`` is played on: both in a
        double-board hand (000 Allgemein 14) or for a pot run twice (000
        Aktionen 8), else ``(0,)``."""
        return (0,) if self._two is None else self._two.boards_of_pot(index)
