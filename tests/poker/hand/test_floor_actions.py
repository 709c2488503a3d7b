"""The two floor actions of the engine: a dead hand ("kill") and the floor
awarding the pot ("floor_award").  Used by rulings (rules app)."""

from __future__ import annotations

import pytest

from poker.hand import EngineError, HandSpec, HandState, SeatSpec


def table(stacks, button=None, sb=50, bb=100):
    seats = [SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(stacks)]
    return HandState.start(HandSpec.standard(seats, button or len(stacks), sb, bb))


def play(state, *actions):
    for a in actions:
        state = state.apply(a)
    return state


def test_kill_out_of_turn_removes_the_player_and_keeps_his_chips_in_the_pot():
    # seats 1..4, button 4: SB 1 (50), BB 2 (100), seat 3 under the gun.
    s = table([1000] * 4)
    assert s.to_act_seat == 3
    s = s.apply({"type": "kill", "seat": 1})  # the small blind's hand is dead (exposed, 004 #35)
    assert s.to_act_seat == 3 and s.total_pot == 150
    s = play(s, {"type": "call", "seat": 3}, {"type": "call", "seat": 4})
    assert s.to_act_seat == 2  # the killed small blind is skipped
    s = s.apply({"type": "check", "seat": 2})
    assert s.street == "preflop" and s.phase == "board" and s.total_pot == 350
    with pytest.raises(EngineError) as err:
        s.apply({"type": "kill", "seat": 1})
    assert err.value.code == "folded"


def test_kill_of_the_last_opponent_gives_the_pot_without_showdown():
    s = table([1000, 1000, 1000])
    s = play(s, {"type": "fold", "seat": 3}, {"type": "raise", "seat": 1, "to": 300})
    s = s.apply({"type": "kill", "seat": 1})
    assert s.is_complete
    # 004 #14: the dead hand loses what was called (100) and gets back the
    # part of its raise nobody called (200).
    assert s.final_stacks == (900, 1100, 1000)


def test_kill_of_the_player_to_act_acts_like_a_fold_and_closes_the_round():
    s = table([1000, 1000, 1000])
    s = play(s, {"type": "call", "seat": 3}, {"type": "call", "seat": 1})
    s = s.apply({"type": "kill", "seat": 2})
    assert s.phase == "board" and s.total_pot == 300


def test_kill_at_the_showdown_mucks_the_hand_and_the_last_live_hand_wins():
    s = table([1000, 1000])
    s = play(s, {"type": "call", "seat": 2}, {"type": "check", "seat": 1})
    for cards in ("2c3d4h", "9s", "Kd"):
        s = s.apply({"type": "board", "cards": cards})
        while s.phase == "betting":
            s = s.apply({"type": "check", "seat": s.to_act_seat})
    assert s.phase == "showdown"
    s = s.apply({"type": "kill", "seat": 1})
    assert s.is_complete and sorted(s.final_stacks) == [900, 1100]
    assert s.awards[0].seat == 2


def test_floor_award_gives_every_chip_including_current_bets_and_ends_the_hand():
    s = table([1000, 1000, 1000])
    s = play(s, {"type": "raise", "seat": 3, "to": 300}, {"type": "call", "seat": 1})
    s = s.apply({"type": "floor_award", "seats": [1]})
    assert s.is_complete
    assert s.final_stacks == (1400, 900, 700)
    assert [(a.seat, a.amount) for a in s.awards] == [(1, 700)]


def test_floor_award_split_gives_the_odd_chip_left_of_the_button():
    s = table([1000, 1000, 1000], sb=5, bb=10)
    s = play(s, {"type": "call", "seat": 3}, {"type": "call", "seat": 1}, {"type": "check", "seat": 2})
    s = s.apply({"type": "board", "cards": ""})
    s = s.apply({"type": "bet", "seat": 1, "to": 11})  # pot 41 now
    s = s.apply({"type": "floor_award", "seats": [3, 1]})
    by_seat = {a.seat: a.amount for a in s.awards}
    assert by_seat == {1: 21, 3: 20}  # seat 1 sits first left of the button (seat 3)


def test_floor_award_refuses_folded_seats_and_bad_lists():
    s = table([1000, 1000, 1000])
    s = s.apply({"type": "fold", "seat": 3})
    for bad, code in (([3], "bad_award"), ([], "bad_award"), ([1, 1], "bad_award"), ([7], "no_such_seat")):
        with pytest.raises(EngineError) as err:
            s.apply({"type": "floor_award", "seats": bad})
        assert err.value.code == code, bad


def test_floor_award_split_is_divided_only_down_to_the_chip_unit_000_allgemein_8():
    from poker.hand import Rules

    rules = Rules(bet_unit="small_blind", odd_chip_unit="small_blind")
    seats = [SeatSpec(i + 1, f"p{i + 1}", 1000) for i in range(3)]
    s = HandState.start(HandSpec.standard(seats, 3, 5, 10, rules=rules))
    s = play(s, {"type": "call", "seat": 3}, {"type": "call", "seat": 1}, {"type": "check", "seat": 2})
    s = s.apply({"type": "board", "cards": ""})
    s = s.apply({"type": "bet", "seat": 1, "to": 15})  # pot 45: halves of 22.5 are not whole 5-chips
    s = s.apply({"type": "floor_award", "seats": [3, 1]})
    by_seat = {a.seat: a.amount for a in s.awards}
    assert by_seat == {1: 25, 3: 20}  # the odd 5-chip unit to seat 1, first left of the button
