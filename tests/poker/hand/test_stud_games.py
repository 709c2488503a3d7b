"""Razz and stud eight-or-better as data of the one stud engine (issue 27 finding 6,
issue 25 "one engine"): who brings in, who acts first, who wins which half."""

from __future__ import annotations

import pytest

from poker.hand import SeatSpec
from poker.hand.stud import StudState
from poker.hand.stud_spec import StudSpec


def _spec(variant: str, n: int = 3) -> StudSpec:
    return StudSpec(
        seats=tuple(SeatSpec(i + 1, f"p{i + 1}", 1000) for i in range(n)),
        ante=5,
        bring_in=10,
        small_bet=20,
        big_bet=40,
        odd_chip="position",
        variant=variant,
    )


def _check_down(state: StudState) -> StudState:
    while state.phase == "betting":
        seat = state.to_act_seat
        state = state.apply({"type": "call" if state.legal().call_amount else "check", "seat": seat})
    return state


def test_in_razz_the_highest_door_card_brings_in_and_the_lowest_hand_showing_acts_first():
    state = StudState.start(_spec("razz"))
    state = state.apply({"type": "deal", "cards": {1: "2c3cKc", 2: "4d5dKs", 3: "6h7h2h"}})
    assert state.to_act_seat == 2  # two kings: the king of spades brings in (ace low, spades highest)
    stud = StudState.start(_spec("stud")).apply({"type": "deal", "cards": {1: "2c3cKc", 2: "4d5dKs", 3: "6h7h2h"}})
    assert stud.to_act_seat == 3  # Seven Card Stud: the lowest card, the deuce
    state = state.apply({"type": "bring_in", "seat": 2})
    state = _check_down(state)
    state = state.apply({"type": "deal", "cards": {1: "Qd", 2: "Ah", 3: "9s"}})
    assert state.to_act_seat == 3  # showing 2-9, the lowest hand (K-Q, and K-A with the ace low, are king-high)


@pytest.mark.parametrize(
    ("seat2", "split"),
    [("2c3d7h", True), ("2c3d9h", False)],  # 7-5-4-3-2 is a low; 9-5-4-3-2 is not eight or better
)
def test_stud_eight_or_better_splits_the_pot_or_the_high_hand_scoops(seat2, split):
    cards = [
        {1: "AsKsQs", 2: seat2, 3: "KdKhTc"},
        {1: "Js", 2: "4d", 3: "8c"},
        {1: "Ts", 2: "5h", 3: "9d"},
        {1: "2d", 2: "Jc", 3: "Jd"},
        {1: "3s", 2: "Qc", 3: "4c"},
    ]
    state = StudState.start(_spec("stud8"))
    for street in cards:
        state = state.apply({"type": "deal", "cards": street})
        if street is cards[0]:
            state = state.apply({"type": "bring_in", "seat": state.to_act_seat})
        state = _check_down(state)
    assert state.is_complete
    won = {a.seat: a.amount for a in state.awards}
    pot = state.total_pot
    # seat 1's royal flush wins the high half; seat 2's seven-low the low half, the odd chip to the high half
    assert won == ({1: pot - pot // 2, 2: pot // 2} if split else {1: pot})
