"""The pots of a hand: the one-pot shortcut of ``build_pots`` gives what the level-by-level split gives.

Every dealer action writes the hand's pots; while nobody still in has put in less than another (no
all-in short of the others, nobody yet to call) ``build_pots`` returns the one pot without walking the
levels.  Main and side pots (rulebook 003 "All-In / Side Pots") must come out the same either way.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from poker.hand import HandSpec, HandState, SeatSpec
from poker.hand.pots import Pot, build_pots, pots_by_level

players = st.integers(min_value=2, max_value=10)


@st.composite
def contributions(draw):
    """Per position: chips put in (a few levels, so that equal contributions are common), dead money
    within them, folded or not."""
    n = draw(players)
    levels = draw(st.lists(st.integers(min_value=0, max_value=400), min_size=1, max_size=3))
    put_in = [draw(st.sampled_from(levels)) for _ in range(n)]
    dead = [draw(st.integers(min_value=0, max_value=min(c, 25))) for c in put_in]
    folded = [draw(st.booleans()) for _ in range(n)]
    return put_in, dead, folded


@settings(max_examples=400, deadline=None)
@given(contributions())
def test_the_one_pot_shortcut_splits_as_the_levels_do(case):
    put_in, dead, folded = case
    live = [c - d for c, d in zip(put_in, dead)]
    assert build_pots(put_in, dead, folded) == pots_by_level(live, sum(dead), folded)


def test_a_short_all_in_still_makes_a_side_pot():
    # Seat 3 is all-in for 100, two others put in 300: main pot 300 for all three, side pot 400 for two.
    assert build_pots([300, 300, 100], [0, 0, 0], [False, False, False]) == (
        Pot(300, (0, 1, 2)),
        Pot(400, (0, 1)),
    )


def test_everybody_level_is_one_pot_with_the_folded_players_chips():
    # The small blind folded his 50; the others are level at 100: one pot of 250 for the two still in.
    assert build_pots([50, 100, 100], [0, 0, 0], [True, False, False]) == (Pot(250, (1, 2)),)


def test_the_snapshot_shows_one_pot_once_the_round_is_level():
    seats = [SeatSpec(seat=i + 1, player=f"P{i}", stack=10_000) for i in range(4)]
    state = HandState.start(HandSpec.standard(seats, button=4, small_blind=50, big_blind=100))
    for action in ({"type": "call", "seat": 3}, {"type": "fold", "seat": 4}, {"type": "call", "seat": 1}):
        state = state.apply(action)
    state = state.apply({"type": "check", "seat": 2})
    view = state.to_dict()
    assert view["pots"] == [{"amount": 300, "eligible": [0, 1, 2], "eligible_seats": [1, 2, 3]}]
    assert view["total_pot"] == 300
    assert [p["all_in"] for p in view["players"]] == [False, False, False, False]
