"""The fast showdown key orders hands exactly as pokerkit's evaluators do
(rulebook 003 "Der Showdown": cards speak; equal hands split)."""

from __future__ import annotations

import random

import pytest

from poker.hand.cards import RANKS, SUITS
from poker.hand.evaluation import hand_strength, strength_key

DECK = [r + s for r in RANKS for s in SUITS]


def _pairs(game: str, hole_count: int, count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        cards = rng.sample(DECK, 5 + 2 * hole_count)
        board = tuple(cards[:5])
        a = tuple(cards[5 : 5 + hole_count])
        b = tuple(cards[5 + hole_count :])
        yield a, b, board


@pytest.mark.parametrize(("game", "hole_count", "count"), [("nlhe", 2, 1500), ("plo", 4, 150)])
def test_key_orders_two_hands_as_pokerkit(game, hole_count, count):
    for a, b, board in _pairs(game, hole_count, count, seed=7):
        theirs_a, theirs_b = hand_strength(a, board, game), hand_strength(b, board, game)
        ours_a, ours_b = strength_key(a, board, game), strength_key(b, board, game)
        assert (ours_a > ours_b, ours_a == ours_b) == (theirs_a > theirs_b, theirs_a == theirs_b), (a, b, board)


# every category, the wheel and the ace-high straight, ties by kickers
MADE = [
    ("AhKh", "QhJhTh2c3d"),  # royal flush
    ("5d4d", "3d2dAd9c9s"),  # steel wheel
    ("9c9d", "9h9s2c3d4h"),  # quads
    ("9c9d", "9h2s2c3d4h"),  # full house
    ("2c2d", "2h9s9c3d3h"),  # full house: deuces full of nines
    ("AcKc", "2c7c9cJs3h"),  # flush
    ("Ah2d", "3c4s5hKdQc"),  # wheel
    ("Ah2d", "3c4s5h6dQc"),  # six-high straight
    ("AhKd", "QcJsTh2d3c"),  # broadway
    ("7c7d", "7h2s9cJd3h"),  # trips
    ("7c2d", "7h2s9c9dAh"),  # two pair of three pairs
    ("7c8d", "7h2s9cJdAh"),  # one pair
    ("7c8d", "2h3s9cJdAh"),  # high card
]


def test_every_category_against_pokerkit():
    parsed = [(tuple(h[i : i + 2] for i in (0, 2)), tuple(b[i : i + 2] for i in range(0, 10, 2))) for h, b in MADE]
    for h1, b1 in parsed:
        for h2, b2 in parsed:
            ours = (strength_key(h1, b1) > strength_key(h2, b2), strength_key(h1, b1) == strength_key(h2, b2))
            theirs = (hand_strength(h1, b1) > hand_strength(h2, b2), hand_strength(h1, b1) == hand_strength(h2, b2))
            assert ours == theirs, (h1, b1, h2, b2)
