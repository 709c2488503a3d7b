"""Game variants and special formats of the hand engine.

One focused test per rule, named after the rulebook section it follows:
000 = casino cash-game rules (Einsätze 2, Aktionen 1/3/8, Allgemein 8/14),
003 = NLHE rules ("All-In"), 004 #54 = pot limit.
"""

from __future__ import annotations

import dataclasses
import json
import warnings

import pytest

from poker.hand import EngineError, HandSpec, HandState, Rules, SeatSpec
from poker.hand.evaluation import best_hand_description
from poker.hand.formats import Straddle, can_straddles, plan_straddles, round_to_unit, split_between_boards
from poker.hand.phh import export_phh, load_phh, replay


def seats(*stacks):
    return [SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(stacks)]


def start(stacks, sb=50, bb=100, button=None, **kw):
    """Seats 1..n clockwise, button on the last seat unless given."""
    return HandState.start(HandSpec.standard(seats(*stacks), button or len(stacks), sb, bb, **kw))


def play(state, *actions):
    for a in actions:
        state = state.apply(a)
    return state


def act(kind, seat=None, **kw):
    d = {"type": kind, **kw}
    if seat is not None:
        d["seat"] = seat
    return d


def code_of(state, action):
    with pytest.raises(EngineError) as info:
        state.apply(action)
    return info.value.code


def check_down(state):
    while state.phase == "betting":
        legal = state.legal()
        state = state.apply(act("call" if legal.call_amount else "check", state.to_act_seat))
    return state


# ------------------------------------------------------------------ spec
def test_game_defaults_to_nlhe_and_old_constructor_calls_still_work():
    spec = HandSpec(tuple(seats(1000, 1000)), (50, 100), 0, 100)
    assert spec.game == "nlhe" and spec.hole_count == 2 and spec.bet_unit == 1
    assert HandSpec.standard(seats(1000, 1000), 2, 50, 100).game == "nlhe"
    with pytest.raises(EngineError) as info:
        HandSpec.standard(seats(1000, 1000), 2, 50, 100, game="razz")
    assert info.value.code == "bad_spec"


@pytest.mark.parametrize(
    "kw",
    [
        {"game": "plo"},
        {"game": "limit_holdem", "big_bet": 200},
        {"bomb_pot": 300, "boards": 2, "run_it_twice_min_pot": 5000},
        {"straddles": [Straddle("live", 3), Straddle("live", 4)]},
    ],
)
def test_spec_json_round_trip_keeps_variant_fields(kw):
    rules = Rules(bet_unit="small_blind", bet_unit_big_blind_stakes=((2, 5),), limit_raise_cap=None)
    spec = HandSpec.standard(seats(1000, 900, 800, 700, 600), 5, 50, 100, rules=rules, **kw)
    again = HandSpec.from_dict(json.loads(json.dumps(spec.to_dict())))
    assert again == spec
    # tables/services.py stores the rules with dataclasses.asdict and reads
    # them back with Rules(**...): the new Rules fields survive JSON too.
    assert Rules(**json.loads(json.dumps(dataclasses.asdict(rules)))) == rules


# ------------------------------------------------------------ pot-limit Omaha
def test_plo_deals_four_hole_cards():
    s = start([1000] * 3, game="plo")
    assert code_of(s, act("hole", 1, cards="AsKs")) == "bad_cards"
    s = s.deal_hole(1, "AsKsQdJd").deal_hole(2, "")
    assert s.hole_cards[0] == ("As", "Ks", "Qd", "Jd") and s.hole_cards[1] is None


def test_plo_max_raise_is_the_pot_after_the_call_004_54():
    s = start([10000] * 4, game="plo")
    legal = s.legal()  # under the gun: pot 150 + call 100 = 250 on top of 100
    assert (legal.min_raise_to, legal.max_raise_to) == (200, 350)
    assert code_of(s, act("raise", 3, to=351)) == "above_limit"
    s = s.bet_or_raise(3, 350)
    legal = s.legal()  # button: pot 500 + call 350 = 850 on top of 350
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (350, 600, 1200)
    s = check_down(s.call(4))
    s = s.deal_board("2c7d9h")
    # Flop: nobody bet yet, the pot (4 x 350 + ... ) is the largest bet.
    assert s.legal().max_raise_to == s.total_pot == 50 + 100 + 350 + 350 + 300 + 250


def test_plo_short_stack_pot_raise_capped_by_the_stack():
    s = start([10000, 10000, 300, 10000], game="plo")
    assert s.legal().max_raise_to == 300  # the all-in is below the pot


def test_plo_showdown_uses_exactly_two_hole_cards():
    s = start([1000, 1000], game="plo", sb=50, bb=100, button=2)
    s = s.deal_hole(1, "Th3c4d5s").deal_hole(2, "2d2s9s8s")
    s = check_down(s)
    for cards in ("AhKhQh", "Jh", "2c"):
        s = check_down(s.deal_board(cards))
    # In Hold'em p1 would hold a royal flush; in Omaha p2's trips win.
    assert best_hand_description(s.hole_cards[0], s.board, "plo").startswith("High card")
    assert s.is_complete and s.final_stacks == (900, 1100)


# ------------------------------------------------------------ split limit
def limit_table(stacks, **kw):
    return start(stacks, sb=50, bb=100, game="limit_holdem", **kw)


def test_split_limit_small_bet_then_big_bet_000_einsaetze_2():
    s = limit_table([5000] * 3)
    assert s.spec.big_bet == 200
    legal = s.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (200, 200)
    assert code_of(s, act("raise", 3, to=300)) == "above_limit"
    s = check_down(s)
    s = s.deal_board("2c7d9h")
    assert (s.legal().min_raise_to, s.legal().max_raise_to) == (100, 100)
    s = check_down(s).deal_board("Tc")
    assert (s.legal().min_raise_to, s.legal().max_raise_to) == (200, 200)
    s = s.bet_or_raise(1, 200)
    assert (s.legal().min_raise_to, s.legal().max_raise_to) == (400, 400)


def test_split_limit_a_bet_and_three_raises_000_aktionen_3():
    s = limit_table([5000] * 4)
    # Preflop the big blind is the bet: raises to 200, 300, 400, then capped.
    s = play(s, act("raise", 3, to=200), act("raise", 4, to=300), act("raise", 1, to=400))
    legal = s.legal()
    assert not legal.can_bet_or_raise and legal.raise_blocked_by == "raise_cap"
    assert code_of(s, act("raise", 2, to=500)) == "raise_cap"
    s = check_down(s).deal_board("2c7d9h")
    s = play(s, act("bet", 1, to=100), act("raise", 2, to=200), act("raise", 3, to=300), act("raise", 4, to=400))
    assert s.legal().raise_blocked_by == "raise_cap"


def test_split_limit_cap_lifted_when_two_players_left_000_aktionen_3():
    s = limit_table([5000] * 4)
    s = play(s, act("raise", 3, to=200), act("fold", 4), act("fold", 1), act("raise", 2, to=300))
    # Only two players are left before the third raise: no cap any more.
    s = play(s, act("raise", 3, to=400), act("raise", 2, to=500), act("raise", 3, to=600))
    assert s.legal().can_bet_or_raise and s.legal().min_raise_to == 700
    # With the house rule off (pokerkit's reading) the cap stays.
    t = limit_table([5000] * 4, rules=Rules(limit_cap_lifted_heads_up=False))
    t = play(
        t, act("raise", 3, to=200), act("fold", 4), act("fold", 1), act("raise", 2, to=300), act("raise", 3, to=400)
    )
    assert t.legal().raise_blocked_by == "raise_cap"


def test_split_limit_cap_reached_with_three_players_stays_after_a_fold():
    s = limit_table([5000] * 4)
    s = play(s, act("raise", 3, to=200), act("raise", 4, to=300), act("raise", 1, to=400), act("fold", 2))
    s = play(s, act("call", 3), act("fold", 4))
    assert s.phase == "board"
    s = limit_table([5000] * 3)
    s = play(s, act("raise", 3, to=200), act("raise", 1, to=300), act("raise", 2, to=400), act("fold", 3))
    assert s.legal().raise_blocked_by == "raise_cap"


def test_split_limit_short_all_in():
    s = limit_table([5000, 5000, 150, 5000])
    legal = s.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (150, 150)  # all-in for less than a raise
    s = s.all_in(3)
    legal = s.legal()  # the button completes a full raise on top of 150
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (150, 250, 250)


# ------------------------------------------------------------------ PHH
def _play_random_phh_hand(game):
    s = start([2000, 1500, 3000], game=game)
    hole = {"plo": ("AsKsQdJd", "2c3c4c5c", "9h9d8h8d"), "limit_holdem": ("AsKs", "2c3c", "9h9d")}[game]
    for seat, cards in enumerate(hole, 1):
        s = s.deal_hole(seat, cards)
    s = s.bet_or_raise(3, s.legal().max_raise_to)
    s = s.call(1)
    s = s.fold(2)
    for cards in ("Ah7d2s", "Kd", "6c"):
        s = s.deal_board(cards)
        if s.phase == "betting":
            s = s.bet_or_raise(s.to_act_seat, s.legal().max_raise_to)
            s = s.call(s.to_act_seat)
    return s


@pytest.mark.parametrize("game, code", [("plo", "PO"), ("limit_holdem", "FT")])
def test_phh_export_import_of_variants_and_pokerkit_agrees(game, code):
    import pokerkit

    s = _play_random_phh_hand(game)
    assert s.is_complete
    text = export_phh(s.spec, s.history)
    hand = load_phh(text)
    assert hand.variant == code and hand.spec() == s.spec
    if code == "FT":
        assert "small_bet = 100" in text and "big_bet = 200" in text and "min_bet" not in text
    result = replay(hand)
    assert result.ok and result.actual == s.final_stacks
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, last = pokerkit.HandHistory.loads(text)
    assert tuple(last.stacks) == s.final_stacks


# --------------------------------------------------------------- chip unit
def unit_rules():
    return Rules(bet_unit="small_blind", bet_unit_big_blind_stakes=((2, 5),), odd_chip_unit="small_blind")


def test_bets_divisible_by_the_small_blind_000_allgemein_8():
    s = start([1000] * 3, sb=5, bb=10, rules=unit_rules())
    assert s.spec.bet_unit == 5
    assert code_of(s, act("raise", 3, to=27)) == "bad_chip_unit"
    assert s.can_bet_or_raise(3, 25)
    assert round_to_unit(s.spec, 27) == (25, 2)


def test_at_2_5_the_unit_is_the_big_blind_000_allgemein_8():
    s = start([1000] * 3, sb=2, bb=5, rules=unit_rules())
    assert s.spec.bet_unit == 5 and s.spec.split_unit == 2
    assert code_of(s, act("raise", 3, to=12)) == "bad_chip_unit"
    assert s.legal().min_raise_to == 10


def test_all_in_of_an_odd_stack_is_allowed_and_bounds_are_rounded():
    s = start([1000, 1000, 33], sb=5, bb=10, rules=unit_rules())
    assert s.legal().max_raise_to == 33
    s = s.all_in(3)
    legal = s.legal()
    assert legal.min_raise_to % 5 == 0 and legal.min_raise_to >= 56


def test_split_pot_only_down_to_the_small_blind_000_allgemein_8():
    s = start([1000, 1000, 1000], sb=5, bb=10, rules=unit_rules(), ante=1)
    s = s.deal_hole(1, "AsKd").deal_hole(2, "AcKh").deal_hole(3, "2c3d")
    s = check_down(s.fold(3))
    for cards in ("QsJd7c", "2h", "4h"):
        s = check_down(s.deal_board(cards))
    # Pot 23 (antes 3 + 2 x 10) = 4 units of 5 + 3 chips: 2 units each, the
    # 3 chips below a unit to seat 1, first left of the button (one chip
    # with the default unit: 12 / 11).
    assert s.final_stacks == (999 - 10 + 13, 999 - 10 + 10, 999)
    assert sum(s.final_stacks) == 3000


def test_default_rules_have_no_chip_unit():
    s = start([1000] * 3, sb=5, bb=10)
    assert s.spec.bet_unit == 1 and s.can_bet_or_raise(3, 27)


# ---------------------------------------------------------------- straddles
def test_live_straddle_and_re_straddle_000_aktionen_1():
    s = start([5000] * 6, straddles=[Straddle("live", 3), Straddle("live", 4)])
    assert s.spec.blinds_or_straddles[:4] == (50, 100, 200, 400)
    assert s.to_act_seat == 5 and s.legal().call_amount == 400
    assert s.spec.straddles == (("live", 3, 200), ("live", 4, 400))


def test_button_straddle_action_starts_left_of_the_button_000_aktionen_1():
    s = start([5000] * 5, straddles=[Straddle("button", 5)])
    assert s.spec.blinds_or_straddles == (50, 100, 0, 0, 200)
    assert s.to_act_seat == 1  # small blind acts first, the button last
    s = play(s, act("call", 1), act("call", 2), act("call", 3), act("call", 4))
    assert s.to_act_seat == 5 and s.legal().can_check


def test_mississippi_straddle_action_starts_left_of_it_000_aktionen_1():
    s = start([5000] * 6, straddles=[Straddle("mississippi", 5)])
    assert s.to_act_seat == 6
    s = play(s, act("fold", 6), act("fold", 1), act("fold", 2), act("fold", 3), act("fold", 4))
    assert s.is_complete


def test_live_straddle_takes_precedence_000_aktionen_1():
    plan = plan_straddles([1, 2, 3, 4, 5], 100, [Straddle("button", 5), Straddle("live", 3)], Rules())
    assert plan.applied == (("live", 3, 200),)
    assert [r.kind for r, _ in plan.dropped] == ["button"]
    s = start([5000] * 5, straddles=[Straddle("button", 5), Straddle("live", 3)])
    assert s.spec.blinds_or_straddles == (50, 100, 200, 0, 0)


@pytest.mark.parametrize(
    "requests",
    [
        [Straddle("live", 4)],  # not under the gun
        [Straddle("live", 3, 300)],  # not double the big blind
        [Straddle("button", 3)],  # not the button
        [Straddle("mississippi", 1)],  # a blind
        [Straddle("mississippi", 4), Straddle("button", 5)],
        [Straddle("sideways", 4)],
    ],
)
def test_straddles_out_of_the_rules_are_refused(requests):
    assert not can_straddles([1, 2, 3, 4, 5], 100, requests, Rules())
    with pytest.raises(EngineError) as info:
        HandSpec.standard(seats(*[5000] * 5), 5, 50, 100, straddles=requests)
    assert info.value.code == "bad_straddle"


def test_straddle_limit_from_the_house_rules():
    assert not can_straddles([1, 2, 3, 4, 5], 100, [Straddle("live", 3), Straddle("live", 4)], Rules(max_straddles=1))
    assert not can_straddles([1, 2], 100, [Straddle("live", 1)], Rules())


# ------------------------------------------------------- bomb pot and flip
def test_bomb_pot_starts_on_the_flop_000_allgemein_14():
    s = start([1000, 1000, 150], bomb_pot=200)
    assert s.phase == "board" and s.next_street == "flop"
    assert s.stacks == (800, 800, 0) and s.total_pot == 550
    assert [p.amount for p in s.pots] == [450, 100]  # the short stack's side pot
    s = s.deal_board("2c7d9h")
    assert s.to_act_seat == 1 and s.legal().min_raise_to == 100


def test_bomb_pot_has_no_blinds():
    with pytest.raises(EngineError):
        HandSpec(tuple(seats(1000, 1000)), (50, 100), 0, 100, bomb_pot=100)


def test_flip_deals_the_whole_board_without_betting_000_allgemein_14():
    s = start([1000, 1000, 1000], flip=100)
    s = s.deal_hole(1, "AsAd").deal_hole(2, "KsKd").deal_hole(3, "2c7d")
    for cards in ("Ah9c4d", "5s", "Jh"):
        assert s.phase == "board"
        s = s.deal_board(cards)
    assert s.is_complete and s.final_stacks == (1200, 900, 900)


# ----------------------------------------------------------- double board
def test_double_board_splits_each_pot_between_the_boards_000_allgemein_14():
    s = start([1000, 1000], button=2, boards=2)
    s = s.deal_hole(1, "AsAd").deal_hole(2, "KsKd")
    s = check_down(s)
    assert s.next_board == 1
    s = s.deal_board("2c7d9h")
    assert s.phase == "board" and s.next_board == 2 and s.board_cards_due == 3
    assert code_of(s, act("board", cards="2c8d8h")) == "duplicate_card"
    s = check_down(s.deal_board("Kh8c3s"))
    for cards in ("4d", "4c", "5h", "Jc"):
        s = check_down(s.deal_board(cards))
    assert s.boards == (("2c", "7d", "9h", "4d", "5h"), ("Kh", "8c", "3s", "4c", "Jc"))
    # Aces win board 1, kings (a set) win board 2: 100 each.
    assert s.is_complete and s.final_stacks == (1000, 1000)


def test_double_board_odd_chip_to_the_first_left_of_the_button():
    assert split_between_boards(101, [[1], [0]]) == [(0, 51), (1, 50)]
    assert split_between_boards(25, [[0, 1], [1]], unit=5) == [(0, 10), (1, 15)]


def test_double_board_phh_round_trip():
    s = start([1000, 1000], button=2, boards=2)
    s = s.deal_hole(1, "AsAd").deal_hole(2, "KsKd")
    s = check_down(s)
    for cards in ("2c7d9h", "Kh8c3s", "4d", "4c", "5h", "Jc"):
        s = check_down(s.deal_board(cards))
    text = export_phh(s.spec, s.history)
    assert "_boards = 2" in text and "# board 2 Kh8c3s" in text
    result = replay(text)
    assert result.ok and result.actual == s.final_stacks


# ----------------------------------------------------------- run it twice
def all_in_three_way(min_pot=1000):
    s = start([1000, 500, 1000], run_it_twice_min_pot=min_pot)
    s = s.deal_hole(1, "AsAd").deal_hole(2, "KsKd").deal_hole(3, "QsQd")
    return play(s, act("all_in", 3), act("call", 1), act("call", 2))


def test_run_it_twice_only_when_no_action_is_possible_000_aktionen_8_a():
    s = start([1000, 1000, 1000], run_it_twice_min_pot=0)
    assert code_of(s, act("run_it_twice", agreed=[1, 2, 3], floor=True)) == "run_twice_action_possible"


def test_run_it_twice_needs_every_player_the_pot_and_the_floor_000_aktionen_8():
    s = all_in_three_way()
    assert s.phase == "board" and [p.amount for p in s.pots] == [1500, 1000]
    assert code_of(s, act("run_it_twice", agreed=[1, 3], floor=True)) == "run_twice_not_agreed"
    assert code_of(s, act("run_it_twice", agreed=[1, 2, 3])) == "run_twice_floor_absent"
    assert (
        code_of(all_in_three_way(5000), act("run_it_twice", agreed=[1, 2, 3], floor=True)) == "run_twice_pot_too_small"
    )
    assert code_of(start([1000, 1000]), act("run_it_twice", agreed=[1, 2])) == "run_twice_not_offered"
    # Side pot only: the short stack is not asked, the floor is not needed.
    assert s.can_run_it_twice([1, 3], pots=[1])


def test_run_it_twice_halves_each_pot_odd_chip_to_the_worse_position_000_aktionen_8_f():
    s = start([1001, 1000], button=2, sb=50, bb=100, ante=1, run_it_twice_min_pot=500)
    s = s.deal_hole(1, "AsAd").deal_hole(2, "KsKd")
    s = play(s, act("all_in", 2), act("call", 1))
    assert s.total_pot == 2001 - 1  # seat 1's extra chip goes back
    s = s.run_it_twice([1, 2])
    for cards in ("2c7d9h", "4d", "5h"):  # run 1: aces
        assert s.next_board == 1
        s = s.deal_board(cards)
    assert s.next_board == 2 and s.next_street == "flop"
    for cards in ("Kh8c3s", "4c", "Jc"):  # run 2: kings
        s = s.deal_board(cards)
    assert s.is_complete
    # 2000 halved: 1000 each; seat 1 (left of the button) would get an odd chip.
    assert s.final_stacks == (1001, 1000)
    text = export_phh(s.spec, s.history)
    assert "# run_it_twice pots 0 agreed p1 p2" in text
    assert replay(text).actual == s.final_stacks


def test_run_it_twice_for_the_side_pot_only_keeps_the_main_pot_on_board_1():
    s = all_in_three_way(0)
    s = s.run_it_twice([1, 3], pots=[1])
    assert s.boards_of_pot(0) == (0,) and s.boards_of_pot(1) == (0, 1)
    for cards in ("2c7d9h", "4d", "5h", "Qh8c3s", "4c", "Jc"):
        s = s.deal_board(cards)
    # Main pot (1500): aces on board 1. Side pot (1000): aces board 1, queens board 2.
    assert s.final_stacks == (1500 + 500, 0, 500)


# ------------------------------------------------- 003 All-In: no re-raise
def short_all_in_then_raise(rules):
    s = start([5000, 5000, 5000, 150, 5000], rules=rules)
    # UTG (3) raises to... no: UTG calls 100, seat 4 all-in 150 (short), 5 calls 150,
    # blinds fold, UTG? -> the button raises later.
    return play(s, act("call", 3), act("all_in", 4), act("call", 5), act("fold", 1), act("raise", 2, to=400))


def test_caller_of_a_short_all_in_may_not_re_raise_003_all_in():
    s = short_all_in_then_raise(Rules(short_all_in_caller_may_reraise=False))
    assert s.to_act_seat == 3  # UTG had only limped: he may raise
    assert s.legal().can_bet_or_raise
    s = s.call(3)
    assert s.to_act_seat == 5
    legal = s.legal()
    assert not legal.can_bet_or_raise and legal.raise_blocked_by == "betting_closed"
    # TDA default: the full raise reopens the betting for him.
    t = short_all_in_then_raise(Rules()).call(3)
    assert t.legal().can_bet_or_raise


def test_flip_hands_can_be_shown_at_once():
    s = start([1000, 1000], button=2, flip=100)
    assert s.betting_over and s.showdown_order == (0, 1)


def test_split_limit_straddle_counts_as_a_raise():
    s = limit_table([5000] * 5, straddles=[Straddle("live", 3)])
    s = play(s, act("raise", 4, to=300), act("raise", 5, to=400))
    assert s.legal().raise_blocked_by == "raise_cap"


def test_double_board_dealer_award_names_the_winners_of_each_board():
    s = start([1000, 1000, 1000], boards=2)
    s = check_down(s)
    for _ in range(6):
        s = check_down(s.deal_board(""))
    assert s.phase == "showdown" and s.total_pot == 300
    assert code_of(s, act("award", pot=0, winners=[1], winners2=[4])) == "no_such_seat"
    s = s.apply(act("award", pot=0, winners=[1], winners2=[2, 3]))
    # Board 1: seat 1 gets 150; board 2: seats 2 and 3 share 150 (75 each).
    assert s.final_stacks == (1050, 975, 975)
    assert replay(export_phh(s.spec, s.history)).actual == s.final_stacks


@pytest.mark.parametrize(
    "kw",
    [
        {"bomb_pot": 200},
        {"flip": 100},
        {"straddles": [Straddle("mississippi", 4)]},
        {"rules": Rules(limit_raise_cap=None, bet_unit="small_blind"), "game": "limit_holdem"},
    ],
)
def test_phh_round_trip_of_special_formats(kw):
    s = start([1000, 1000, 1000, 1000], **kw)
    while not s.is_complete:
        s = check_down(s)
        if s.phase == "board":
            s = s.deal_board("")
        elif s.phase == "showdown":
            s = s.award(0, [s.spec.seat_of(s.pots[0].eligible[0])])
    hand = load_phh(export_phh(s.spec, s.history))
    assert hand.spec() == s.spec
    result = replay(hand)
    assert result.ok and result.actual == s.final_stacks


def test_house_rule_profiles_map_to_engine_rules():
    from poker.houserules import PROFILES, get_profile

    for profile in PROFILES.values():
        assert isinstance(Rules.from_house_rules(profile), Rules)
    nlhe = Rules.from_house_rules(get_profile("nlhe"))
    assert nlhe.short_all_in_caller_may_reraise is False  # 003 "All-In"
    casino = Rules.from_house_rules(get_profile("casino-cash"))
    assert (casino.bet_unit, casino.odd_chip_unit, casino.limit_raise_cap) == ("small_blind", "small_blind", 3)
    assert casino.bet_unit_big_blind_stakes == ((2, 5),)


def test_plo_preflop_short_all_in_counts_in_full_004_54():
    # 004 #54: "Blind 1'000/1'000, Spieler geht mit 800 all in, Pot-Raise ist
    # dennoch 5'000 und nicht 4'400".
    rules = Rules(pot_limit_preflop_all_in="counted_full")
    s = start([10000, 10000, 800, 10000], sb=1000, bb=1000, game="plo", rules=rules)
    s = s.all_in(3)
    assert s.legal().max_raise_to == 5000
    # pokerkit's reading counts the real chips: 1000 + 1000 + 800 + call 1000.
    t = start([10000, 10000, 800, 10000], sb=1000, bb=1000, game="plo").all_in(3)
    assert t.legal().max_raise_to == 4800
    # From the flop on the real pot counts.
    s = check_down(s.call(4)).deal_board("2c7d9h")
    assert s.legal().max_raise_to == s.total_pot == 3800
