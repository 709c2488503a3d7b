"""Showdown evaluation: which hand wins which pot.

Hand strength comes from two libraries: the ranking from phevaluator (the
PokerHandEvaluator's perfect-hash tables in C, ``evaluate_cards`` for the
best five of five to seven cards, ``evaluate_omaha_cards`` for exactly two
hole and three board cards: about 20 microseconds a hand), and the words
for a hand ("Two pair (...)") from pokerkit's evaluators
(``pokerkit.StandardHighHand``, ``pokerkit.OmahaHoldemHand``), which rank
the same way but take about 2.5 ms a hand.  The differential tests against
pokerkit (tests/poker/hand/test_differential_*.py) check that both agree.
:func:`evaluate_showdown` reads a hand through its public queries only
(:class:`ShowdownView`, which :class:`~poker.hand.state.HandState` is).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Protocol

from phevaluator import Card, evaluate_cards, evaluate_omaha_cards
from phevaluator.evaluator import evaluate_7cards
from pokerkit import Hand, OmahaHoldemHand, StandardHighHand

from .cards import is_known
from .pots import Award, Pot, split_amount, split_between_boards

__all__ = ["hand_rank", "hand_strength", "Strength", "evaluate_showdown", "best_hand_description", "ShowdownView"]


class ShowdownView(Protocol):
    """What :func:`evaluate_showdown` reads of a hand (the public queries of
    :class:`~poker.hand.state.HandState`)."""

    @property
    def phase(self) -> str: ...
    @property
    def pots(self) -> tuple[Pot, ...]: ...
    @property
    def awards(self) -> tuple[Award, ...]: ...
    @property
    def spec(self): ...  # a HandSpec: game, split_unit, seat_of
    @property
    def boards(self) -> tuple[tuple[str, ...], ...]: ...
    @property
    def hole_cards(self) -> Sequence[tuple[str, ...] | None]: ...
    @property
    def mucked(self) -> tuple[bool, ...]: ...
    def boards_of_pot(self, index: int) -> tuple[int, ...]: ...


def _best_hand(hole: tuple[str, ...], board: tuple[str, ...], game: str = "nlhe") -> Hand:
    # Omaha: exactly two hole cards and three board cards.
    cls = OmahaHoldemHand if game == "plo" else StandardHighHand
    return cls.from_game("".join(hole), "".join(board))


#: phevaluator's id of each card: the evaluator takes ids as they are (a card string it parses
#: per call); anything else is passed on for phevaluator to read or refuse.
_CARD_IDS = {rank + suit: Card.to_id(rank + suit) for rank in "23456789TJQKA" for suit in "cdhs"}


def hand_rank(hole: Sequence[str], board: Sequence[str], game: str = "nlhe") -> int:
    """The rank of the best five-card hand: 1 (a royal flush) to 7,462
    (seven high), smaller is better, equal ranks split (phevaluator).

    Args:
        hole: the player's cards, e.g. ``("As", "Ks")`` (four in Omaha; up to
            seven in stud, with ``board`` the community card or empty).
        board: the board cards; five in Omaha.
        game: ``"plo"``: exactly two hole and three board cards; otherwise
            the best five of all the cards (five to seven of them).

    Raises:
        ValueError: a card phevaluator does not read, or a count it cannot rank.
    """
    ids = _CARD_IDS.get
    if game == "plo":
        return evaluate_omaha_cards(*[ids(c, c) for c in board], *[ids(c, c) for c in hole])
    if len(hole) == 2 and len(board) == 5:
        # hold'em's showdown: phevaluator's seven-card entry point (evaluate_cards picks it by the count)
        a, b = hole
        c, d, e, f, g = board
        return evaluate_7cards(ids(a, a), ids(b, b), ids(c, c), ids(d, d), ids(e, e), ids(f, f), ids(g, g))
    return evaluate_cards(*[ids(c, c) for c in hole], *[ids(c, c) for c in board])


@functools.total_ordering
class Strength:
    """A comparable hand strength (greater = better, equal = split) whose
    ``str()`` describes the hand in pokerkit's words."""

    __slots__ = ("rank", "_cards")

    def __init__(self, rank: int, hole: tuple[str, ...], board: tuple[str, ...], game: str) -> None:
        self.rank = rank
        self._cards = (hole, board, game)

    def __lt__(self, other: Strength) -> bool:
        return self.rank > other.rank

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Strength) and self.rank == other.rank

    def __hash__(self) -> int:
        return hash(self.rank)

    def __str__(self) -> str:
        return str(_best_hand(*self._cards))

    def __repr__(self) -> str:
        return f"<Strength {self.rank} {self}>"


def hand_strength(hole: tuple[str, ...], board: tuple[str, ...], game: str = "nlhe") -> Strength:
    """Return a comparable strength of the best five-card hand.

    Args:
        hole: the player's hole cards, e.g. ``("As", "Ks")`` (four in Omaha).
        board: the five board cards.
        game: ``HandSpec.game``; in ``"plo"`` the hand uses exactly two hole
            cards and three board cards (pokerkit ``OmahaHoldemHand``),
            otherwise the best five of the seven (``StandardHighHand``).

    Returns:
        An object ordered like poker hands (greater = better, equal = split).
        Its ``str()`` describes the hand (e.g. ``"One pair (AhAdQsJsTs)"``).
    """
    hole, board = tuple(hole), tuple(board)
    return Strength(hand_rank(hole, board, game), hole, board, game)


def best_hand_description(hole: tuple[str, ...], board: tuple[str, ...], game: str = "nlhe") -> str:
    """Return a readable description of the best hand, e.g. ``"Flush (...)"``."""
    return str(_best_hand(tuple(hole), tuple(board), game))


def evaluate_showdown(state: ShowdownView) -> tuple[Award, ...]:
    """Awards that can be decided now, for pots not yet awarded.

    Args:
        state: a hand in phase ``"showdown"`` (any other phase gives ``()``).

    Returns:
        New :class:`Award` entries (possibly several per pot for a split):
        a pot whose only remaining contender (eligible, not mucked) is one
        player goes to that player; a pot whose contenders all have known
        hole cards, with all board cards known, goes to the best hand
        (rulebook 003 "Der Showdown": cards speak; split pots share equally,
        odd chips to the first winner clockwise from the button,
        Rules.odd_chip, divided down to ``spec.split_unit``). With a double
        board or a pot run twice the pot is halved between the two boards
        (:func:`poker.hand.pots.split_between_boards`). Pots that need
        the dealer's decision are left out.
    """
    if state.phase != "showdown":
        return ()
    pots = state.pots
    done = {a.pot_index for a in state.awards}
    spec = state.spec
    boards = state.boards
    game = spec.game
    hole = state.hole_cards
    mucked = state.mucked
    seat_of = spec.seat_of
    unit = spec.split_unit
    awards: list[Award] = []
    strength: dict[tuple[int, int], int] = {}  # (board, position) -> rank, smaller is better
    for index, pot in enumerate(pots):
        if index in done:
            continue
        contenders = [p for p in pot.eligible if not mucked[p]]
        runs = state.boards_of_pot(index)
        if len(contenders) > 1:
            if not all(len(boards[b]) == 5 and is_known(boards[b]) for b in runs):
                continue
            if not all(is_known(hole[p]) for p in contenders):
                continue
            winners_by_board = []
            for b in runs:
                for p in contenders:
                    if (b, p) not in strength:
                        cards = hole[p]
                        assert cards is not None  # every contender's cards are known (checked above)
                        strength[b, p] = hand_rank(cards, boards[b], game)
                best = min(strength[b, p] for p in contenders)
                winners_by_board.append([p for p in contenders if strength[b, p] == best])
        else:
            winners_by_board = [contenders]
        if len(winners_by_board) == 1:
            shares = split_amount(pot.amount, winners_by_board[0], unit)
        else:
            shares = split_between_boards(pot.amount, winners_by_board, unit)
        for position, amount in shares:
            awards.append(Award(index, position, amount, seat_of(position)))
    return tuple(awards)
