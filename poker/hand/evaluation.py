"""Showdown evaluation: which hand wins which pot.

Hand strength comes from pokerkit's hand evaluators
(``pokerkit.StandardHighHand``; ``pokerkit.OmahaHoldemHand`` in Omaha):
:func:`hand_strength` and :func:`best_hand_description` return them.
:func:`evaluate_showdown` reads a hand through its public queries only
(:class:`ShowdownView`, which :class:`~poker.hand.state.HandState` is) and
compares hands with :func:`strength_key`, a plain tuple ordered exactly
like pokerkit's hands (checked against pokerkit on random hands in
tests/poker/hand/test_strength_key.py): pokerkit's ``from_game`` builds
and looks up all 21 five-card hands of seven cards (about 2.5 ms per
player), which was 40 % of the engine's time replaying the PHH corpus;
the key takes about 10 us.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Protocol

from pokerkit import Hand, OmahaHoldemHand, StandardHighHand

from .cards import is_known
from .pots import Award, Pot, split_amount, split_between_boards

__all__ = ["hand_strength", "strength_key", "evaluate_showdown", "best_hand_description", "ShowdownView"]


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


def hand_strength(hole: tuple[str, ...], board: tuple[str, ...], game: str = "nlhe") -> object:
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
    return _best_hand(tuple(hole), tuple(board), game)


#: Rank character -> value (2 .. 14, the ace high).
_RANK_VALUE = {r: v for v, r in enumerate("23456789TJQKA", start=2)}
#: The straights as rank sets, best first (the wheel A-2-3-4-5 last, five high).
_STRAIGHTS = tuple((high, frozenset(range(high - 4, high + 1))) for high in range(14, 5, -1)) + (
    (5, frozenset((14, 2, 3, 4, 5))),
)
_KEY_CACHE: dict[tuple[tuple[str, ...], tuple[str, ...], str], tuple[int, ...]] = {}


def _straight_high(ranks: set[int] | frozenset[int]) -> int:
    """Highest card of the best straight in ``ranks`` (the wheel: 5), or 0."""
    for high, needed in _STRAIGHTS:
        if needed <= ranks:
            return high
    return 0


def _high_key(cards: Sequence[str]) -> tuple[int, ...]:
    """Key of the best five-card high hand of ``cards`` (five or more known cards).

    ``(category, tie-breaking rank values ...)``; category 8 straight flush,
    7 four of a kind, 6 full house, 5 flush, 4 straight, 3 three of a kind,
    2 two pair, 1 one pair, 0 high card; keys compare as the hands do.
    """
    counts: dict[int, int] = {}
    suits: dict[str, list[int]] = {}
    for card in cards:
        value = _RANK_VALUE[card[0]]
        counts[value] = counts.get(value, 0) + 1
        suits.setdefault(card[1], []).append(value)
    flush: tuple[int, ...] = ()
    for values in suits.values():
        if len(values) >= 5:
            high = _straight_high(set(values))
            if high:
                return (8, high)
            flush = max(flush, tuple(sorted(values, reverse=True)[:5]))
    # rank values by (count, value), best first: quads, then trips, pairs, singles
    order = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    first = counts[order[0]]
    if first >= 4:
        return (7, order[0], max(v for v in order if v != order[0]))
    if first == 3 and len(order) > 1 and counts[order[1]] >= 2:
        return (6, order[0], max(v for v in order[1:] if counts[v] >= 2))
    if flush:
        return (5, *flush)
    high = _straight_high(set(counts))
    if high:
        return (4, high)
    if first == 3:
        return (3, order[0], *sorted(order[1:], reverse=True)[:2])
    if first == 2 and counts[order[1]] == 2:
        return (2, order[0], order[1], max(order[2:]))
    if first == 2:
        return (1, order[0], *sorted(order[1:], reverse=True)[:3])
    return (0, *sorted(order, reverse=True)[:5])


def strength_key(hole: tuple[str, ...], board: tuple[str, ...], game: str = "nlhe") -> tuple[int, ...]:
    """A tuple ordered like :func:`hand_strength` (greater = better, equal =
    split), computed without pokerkit; for known cards only.

    Hold'em: the best five of hole and board cards. Omaha (``"plo"``):
    exactly two hole cards and three board cards, the best of every choice.
    Keys are cached per (hole, board, game): a showdown asks again for the
    same hand after each show or muck.
    """
    cache_key = (hole, board, game)
    key = _KEY_CACHE.get(cache_key)
    if key is None:
        if game == "plo":
            key = max(_high_key(two + three) for two in combinations(hole, 2) for three in combinations(board, 3))
        else:
            key = _high_key(hole + board)
        if len(_KEY_CACHE) > 50_000:
            _KEY_CACHE.clear()
        _KEY_CACHE[cache_key] = key
    return key


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
    strength: dict[tuple[int, int], tuple[int, ...]] = {}
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
                        strength[b, p] = strength_key(cards, boards[b], game)
                best = max(strength[b, p] for p in contenders)
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
