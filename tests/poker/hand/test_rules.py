"""One focused test per rule of the hand engine."""

from __future__ import annotations

import json

import pytest

from poker.hand import EngineError, HandSpec, HandState, Rules, SeatSpec, evaluate_showdown


def table(stacks, button=None, sb=50, bb=100, **kw):
    """Seats 1..n clockwise with the given stacks; button default = last seat."""
    seats = [SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(stacks)]
    return HandState.start(HandSpec.standard(seats, button or len(stacks), sb, bb, **kw))


def play(state, *actions):
    for a in actions:
        state = state.apply(a)
    return state


def A(kind, seat=None, **kw):
    d = {"type": kind, **kw}
    if seat is not None:
        d["seat"] = seat
    return d


def check_round(state):
    """Everyone still to act checks or calls."""
    while state.phase == "betting":
        legal = state.legal()
        state = state.apply(A("call" if legal.call_amount else "check", state.to_act_seat))
    return state


def test_button_small_blind_big_blind_posting():
    s = table([1000] * 4, button=2)
    assert [x.seat for x in s.spec.seats] == [3, 4, 1, 2]  # SB left of the button
    assert s.bets == (50, 100, 0, 0) and s.stacks == (950, 900, 1000, 1000)
    assert s.to_act_seat == 1  # under the gun
    assert s.street == "preflop" and s.phase == "betting"


def test_dead_button_first_occupied_seat_is_small_blind():
    seats = [SeatSpec(1, "a", 500), SeatSpec(4, "b", 500), SeatSpec(8, "c", 500)]
    spec = HandSpec.standard(seats, button=3, small_blind=5, big_blind=10)
    assert [x.seat for x in spec.seats] == [4, 8, 1]


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_postflop():
    s = table([1000, 1000], button=1)
    assert [x.seat for x in s.spec.seats] == [2, 1]  # position 0 = big blind
    assert s.bets == (100, 50)
    assert s.to_act_seat == 1  # button/small blind first preflop
    s = play(s, A("call", 1), A("check", 2), A("board", cards="2c3d4h"))
    assert s.to_act_seat == 2  # big blind first postflop, button last
    s = play(s, A("check", 2))
    assert s.to_act_seat == 1


def test_antes():
    s = table([1000, 1000, 30], ante=10)
    assert s.contributions == (10, 10, 10)
    assert s.stacks == (940, 890, 20)
    short = table([1000, 1000, 5], ante=10)
    assert short.contributions == (10, 10, 5) and short.stacks[2] == 0 and short.all_in[2]


def test_big_blind_ante():
    s = table([1000, 1000, 1000, 1000], big_blind_ante=100)
    assert s.spec.antes == (0, 100, 0, 0)
    assert s.contributions == (0, 100, 0, 0) and s.stacks == (950, 800, 1000, 1000)
    # TDA: the ante is posted before the blind; a short big blind still posts it.
    short = table([1000, 150, 1000], big_blind_ante=100)
    assert short.contributions[1] == 100 and short.bets[1] == 50 and short.stacks[1] == 0
    # The ante is dead money: everyone folds to the big blind, who wins it all.
    s = play(s, A("fold", 3), A("fold", 4), A("fold", 1))
    assert s.final_stacks == (950, 1050, 1000, 1000)


def test_live_straddle_acts_last_preflop_and_sets_min_raise():
    s = table([2000] * 5, straddle=200)
    assert s.bets == (50, 100, 200, 0, 0)
    assert s.to_act_seat == 4  # left of the straddle
    assert s.legal().call_amount == 200 and s.legal().min_raise_to == 400
    s = play(s, A("call", 4), A("call", 5), A("call", 1), A("call", 2))
    assert s.to_act_seat == 3  # the straddler acts last and has the option
    assert s.legal().can_check and s.legal().min_raise_to == 400


def test_bets_and_raises_are_to_amounts():
    s = table([1000] * 3)
    s = s.bet_or_raise(3, 300)
    assert s.bets == (50, 100, 300) and s.stacks[2] == 700
    s = s.apply(A("bet", 1, to=800))  # "bet" and "raise" both mean "to"
    assert s.bets[0] == 800 and s.stacks[0] == 200


def test_minimum_bet_is_one_big_blind():
    s = check_round(table([1000] * 3))
    s = s.deal_board("2c3d4h")
    assert s.legal().min_raise_to == 100
    with pytest.raises(EngineError) as e:
        s.bet_or_raise(1, 99)
    assert e.value.code == "below_minimum_bet"
    assert s.bet_or_raise(1, 100).bets[0] == 100


def test_minimum_raise_is_last_full_raise():
    s = table([5000] * 4)
    assert s.legal().min_raise_to == 200
    s = s.bet_or_raise(3, 350)  # raise of 250
    assert s.legal().min_raise_to == 600
    with pytest.raises(EngineError) as e:
        s.bet_or_raise(4, 599)
    assert e.value.code == "below_minimum_raise"
    s = s.bet_or_raise(4, 600)
    assert s.legal().min_raise_to == 850


def test_all_in_for_less():
    s = table([1000, 1000, 150])
    legal = s.legal()
    assert legal.min_raise_to == 150 and legal.max_raise_to == 150  # all-in below a full raise
    s = s.all_in(3)
    assert s.bets[2] == 150 and s.all_in[2]
    # Short all-in is not a full raise: next minimum raise is 150 + 100.
    assert s.legal().call_amount == 100 and s.legal().min_raise_to == 250
    caller = table([1000, 1000, 60]).call(3)
    assert caller.bets[2] == 60 and caller.all_in[2]


def test_short_all_in_does_not_reopen_betting():
    # p1 bets 100, p2 calls, p3 all-in 150 (short), back to p1 and p2.
    s = check_round(table([1000, 1000, 250]))
    s = play(s, A("board", cards="2c3d4h"), A("bet", 1, to=100), A("call", 2), A("all_in", 3))
    legal = s.legal()
    assert legal.seat == 1 and legal.call_amount == 50
    assert not legal.can_bet_or_raise and legal.raise_blocked_by == "betting_closed"
    with pytest.raises(EngineError) as e:
        s.bet_or_raise(1, 400)
    assert e.value.code == "betting_closed"
    # Preflop too: a limper facing a short all-in raise may only call (TDA).
    limp = (A("call", 3), A("all_in", 4), A("call", 1), A("call", 2))
    s = play(table([1000, 1000, 1000, 150]), *limp)
    assert s.to_act_seat == 3 and s.legal().raise_blocked_by == "betting_closed"
    # pokerkit 0.6.5 lets the limper re-raise here (documented difference).
    pk = play(table([1000, 1000, 1000, 150], rules=Rules.pokerkit()), *limp)
    assert pk.to_act_seat == 3 and pk.legal().can_bet_or_raise


def test_short_all_ins_adding_up_to_a_full_raise_reopen_betting():
    s = check_round(table([1000, 1000, 1000, 250, 310]))
    s = s.deal_board("2c3d4h")
    s = play(s, A("bet", 1, to=100), A("call", 2), A("call", 3), A("all_in", 4), A("all_in", 5))
    # 100 -> 150 -> 210: 110 more than p1 faced, a full raise in total.
    assert s.to_act_seat == 1 and s.legal().can_bet_or_raise
    s = play(s, A("call", 1))
    assert s.legal().can_bet_or_raise  # p2 too
    # p1 and p2 last acted at 100 and face 210: reopened. p4 called the
    # first short all-in (150) and faces only 60 more: closed for p4.
    s = check_round(table([1000, 1000, 250, 1000, 310]))
    s = s.deal_board("2c3d4h")
    s = play(s, A("bet", 1, to=100), A("call", 2), A("all_in", 3), A("call", 4), A("all_in", 5))
    assert s.to_act_seat == 1 and s.legal().can_bet_or_raise
    s = s.call(1)
    assert s.to_act_seat == 2 and s.legal().can_bet_or_raise
    s = s.call(2)
    assert s.to_act_seat == 4 and s.legal().raise_blocked_by == "betting_closed"


def test_uncalled_bet_returned():
    s = check_round(table([1000, 1000, 1000]))
    s = play(s, A("board", cards="2c3d4h"), A("bet", 1, to=500), A("fold", 2), A("fold", 3))
    assert s.phase == "complete" and s.final_stacks == (1200, 900, 900)
    # Called all-in for less: the excess goes back at the end of the round.
    s = play(table([1000, 400, 1000]), A("all_in", 3), A("fold", 1), A("call", 2))
    assert s.stacks[2] == 600 and s.contributions == (50, 400, 400)


def test_main_and_side_pots_three_way_all_in():
    s = table([100, 300, 1000], sb=5, bb=10)
    s = play(s, A("all_in", 3), A("call", 1), A("call", 2))
    assert [tuple(p) for p in s.pots] == [(300, (0, 1, 2)), (400, (1, 2))]
    assert s.stacks == (0, 0, 700)  # 700 uncalled returned
    s = play(
        s,
        A("hole", 1, cards="AsAh"),
        A("hole", 2, cards="KsKh"),
        A("hole", 3, cards="QsQh"),
        A("board", cards="2c7d9h"),
        A("board", cards="Js"),
        A("board", cards="3c"),
    )
    assert s.phase == "complete" and s.final_stacks == (300, 400, 700)


def test_showdown_order_last_aggressor_first():
    s = check_round(table([1000] * 4))
    s = check_round(s.deal_board("2c3d4h"))
    s = s.deal_board("5s")
    s = check_round(s)
    s = s.deal_board("9s")
    s = play(s, A("check", 1), A("bet", 2, to=100), A("raise", 3, to=300), A("call", 4), A("call", 1), A("call", 2))
    assert s.phase == "showdown"
    assert [s.spec.seat_of(p) for p in s.showdown_order] == [3, 4, 1, 2]


def test_showdown_order_nobody_bet_first_left_of_button():
    s = check_round(table([1000] * 4, button=4))
    for cards in ("2c3d4h", "5s", "9s"):
        s = check_round(s.deal_board(cards))
    assert s.phase == "showdown" and s.showdown_order == (0, 1, 2, 3)
    assert s.to_dict()["showdown_order_seats"] == [1, 2, 3, 4]


def test_hand_evaluation_from_entered_cards():
    s = check_round(table([1000] * 3))
    s = play(s, A("hole", 1, cards="AhKh"), A("hole", 2, cards="QcQd"), A("hole", 3, cards="7s2d"))
    for cards in ("Qh8h3c", "2h", "9s"):
        s = check_round(s.deal_board(cards))
    assert s.phase == "complete"  # flush beats three queens
    assert s.final_stacks == (1200, 900, 900)


def test_split_pot_odd_chip_to_first_winner_left_of_button():
    s = table([1000, 1000, 1000], sb=5, bb=10, button=3, ante=1)  # pot 3 + 30 = 33
    s = play(s, A("call", 3), A("call", 1), A("fold", 2))
    assert s.pots[0].amount == 33  # antes 3 + 10 + 10 + 10
    s = play(s, A("hole", 1, cards="AsKd"), A("hole", 3, cards="AdKs"))
    for cards in ("2c7d9h", "Js", "3c"):
        s = check_round(s.deal_board(cards))
    assert s.phase == "complete"
    # 33 chips split 16/16, the odd chip to seat 1 (first left of the button).
    assert s.final_stacks == (989 + 17, 989, 989 + 16)


def test_pot_won_without_showdown():
    s = play(table([1000] * 3), A("raise", 3, to=300), A("fold", 1), A("fold", 2))
    assert s.phase == "complete" and s.street == "complete"
    assert s.final_stacks == (950, 900, 1150)
    assert s.showdown_order == () and s.awards[0].seat == 3


def test_unknown_cards_pots_awarded_by_hand():
    s = table([100, 300, 1000], sb=5, bb=10)
    s = play(s, A("all_in", 3), A("call", 1), A("call", 2), A("board"), A("board"), A("board"))
    assert s.phase == "showdown" and s.board == ("??",) * 5
    assert evaluate_showdown(s) == ()
    s = s.award(1, [2])
    assert s.phase == "showdown"
    with pytest.raises(EngineError) as e:
        s.award(1, [3])
    assert e.value.code == "bad_award"
    s = s.award(0, [1, 3])  # split 300: 150 / 150
    assert s.phase == "complete" and s.final_stacks == (150, 400, 850)


def test_muck_leaves_single_contender_who_wins():
    s = check_round(table([1000, 1000]))
    for cards in ("2c3d4h", "5s", "9s"):
        s = check_round(s.deal_board(cards))
    assert s.phase == "showdown"
    s = s.muck(2)  # the button mucks, the big blind (position 0, seat 1) wins
    assert s.phase == "complete" and s.final_stacks == (1100, 900)


def test_double_previous_raise_rulebook_002_4_example():
    # 002 #4: BB 100, player 1 bets 100, player 2 raises to 200,
    # player 3 must raise to at least 400.
    s = table([5000] * 5, rules=Rules(min_raise="double_previous"))
    s = play(s, A("call", 3), A("raise", 4, to=200))
    assert s.to_act_seat == 5 and s.legal().min_raise_to == 400
    with pytest.raises(EngineError) as e:
        s.bet_or_raise(5, 300)
    assert e.value.code == "below_minimum_raise"
    assert s.bet_or_raise(5, 400).bets[4] == 400
    standard = play(table([5000] * 5), A("call", 3), A("raise", 4, to=200))
    assert standard.legal().min_raise_to == 300


ILLEGAL = [
    ("not_your_turn", lambda s: s, A("call", 1)),
    ("no_such_seat", lambda s: s, A("call", 9)),
    ("cannot_check", lambda s: s, A("check", 3)),
    ("nothing_to_call", lambda s: play(s, A("call", 3), A("call", 1)), A("call", 2)),
    ("below_minimum_raise", lambda s: s, A("raise", 3, to=150)),
    ("above_stack", lambda s: s, A("raise", 3, to=1001)),
    ("not_betting_round", lambda s: check_round(s), A("check", 1)),
    ("wrong_phase", lambda s: s, A("board", cards="2c3d4h")),
    ("bad_cards", lambda s: check_round(s), A("board", cards="2c3d")),
    ("bad_cards", lambda s: s, A("hole", 1, cards="XxYy")),
    ("duplicate_card", lambda s: play(s, A("hole", 1, cards="AsKs")), A("hole", 2, cards="AsQd")),
    ("duplicate_card", lambda s: play(check_round(s), A("hole", 1, cards="AsKs")), A("board", cards="As2c3c")),
    ("hand_over", lambda s: play(s, A("fold", 3), A("fold", 1)), A("call", 2)),
    ("bad_award", lambda s: s, A("award", pot=0, winners=[1])),
    ("bad_action", lambda s: s, A("dance", 3)),
    ("bad_action", lambda s: s, A("raise", 3, to="lots")),
    ("folded", lambda s: play(s, A("fold", 3)), A("show", 3, cards="AsKs")),
]


@pytest.mark.parametrize("code, setup, action", ILLEGAL, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(ILLEGAL)])
def test_illegal_action_refused_with_code_and_state_unchanged(code, setup, action):
    state = setup(table([1000] * 3))
    before = json.dumps(state.to_dict(), sort_keys=True)
    history = state.history
    with pytest.raises(EngineError) as e:
        state.apply(action)
    if code == "bad_award":
        assert e.value.code in ("wrong_phase", "bad_award")
    else:
        assert e.value.code == code, e.value.message
    assert e.value.message
    assert not state.can(action)
    assert json.dumps(state.to_dict(), sort_keys=True) == before and state.history == history


def test_bad_award_and_betting_closed_and_below_minimum_bet_codes():
    s = table([100, 300, 1000], sb=5, bb=10)
    s = play(s, A("all_in", 3), A("call", 1), A("call", 2), A("board"), A("board"), A("board"))
    for bad in (
        {"pot": 5, "winners": [1]},
        {"pot": 1, "winners": [1]},
        {"pot": 0, "winners": []},
        {"pot": 0, "winners": [1, 1]},
    ):
        with pytest.raises(EngineError) as e:
            s.apply({"type": "award", **bad})
        assert e.value.code == "bad_award"
    with pytest.raises(EngineError) as e:
        table([1000] * 3).muck(1)
    assert e.value.code == "wrong_phase"
    with pytest.raises(EngineError) as e:
        check_round(table([1000] * 3)).deal_board("2c3d4h").bet_or_raise(1, 50)
    assert e.value.code == "below_minimum_bet"


def test_to_dict_is_json_and_history_is_kept():
    s = play(table([1000] * 3), A("raise", 3, to=300))
    data = json.loads(json.dumps(s.to_dict()))
    assert data["to_act_seat"] == 1 and data["legal"]["call_amount"] == 250
    # The 200 nobody matched yet is left out of the pots.
    assert [p["amount"] for p in data["pots"]] == [150, 100]
    assert [a.to_dict() for a in s.history] == [{"type": "raise", "seat": 3, "to": 300}]


def test_chips_are_ints():
    with pytest.raises(EngineError) as e:
        table([1000.0, 1000])
    assert e.value.code == "bad_spec"
    with pytest.raises(EngineError):
        table([1000] * 3).bet_or_raise(3, 300.5)


def test_fold_when_check_possible_is_binding_and_no_chips_are_lost():
    # Two short all-ins preflop, the blinds raise and call, then both fold on
    # the flop without a bet: the side pot only they could win goes to the
    # remaining player with the largest contribution; nothing is burned
    # (pokerkit 0.6.5 burns it or fails an assertion).
    s = table([1000, 1000, 10, 6], sb=1, bb=2, button=4)
    s = play(
        s,
        A("all_in", 3),
        A("all_in", 4),
        A("raise", 1, to=60),
        A("call", 2),
        A("hole", 3, cards="6dAh"),
        A("hole", 4, cards="3c8c"),
        A("board", cards="3dAc6h"),
        A("fold", 1),
        A("fold", 2),
    )
    assert s.phase == "board" and s.betting_over
    s = play(s, A("board", cards="7s"), A("board", cards="Th"))
    assert s.phase == "complete"
    assert sum(s.final_stacks) == 2016
    assert s.final_stacks == (940, 940, 24 + 12 + 100, 0)
