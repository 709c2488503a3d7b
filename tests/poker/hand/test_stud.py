"""Seven Card Stud: the house rules the engine applies (poker/hand/stud*.py).

- 000 Allgemein 8: the odd chip of a split pot goes to the winner with the
  highest card, suits counting; a pot is split only down to the ante.
- 000 Aktionen 3: split limit, three raises; with an open pair on fourth
  street the opener may bet the lower limit and, after a raise by the lower
  limit, raise by the upper limit.
- bring-in by the lowest up card, suits clubs < diamonds < hearts < spades.
- 004 #66: a player who picks up his up cards in turn has a dead hand.
- the community card when the stub runs out on seventh street.
"""

from __future__ import annotations

import pytest

from poker.hand import (
    EngineError,
    HandSpec,
    HandState,
    Rules,
    SeatSpec,
    StudSpec,
    StudState,
    hand_strength,
    load_spec,
    start_hand,
)
from poker.hand.cards import RANKS, SUITS
from poker.hand.stud_spec import best_showing_position, showing_rank


def make(n: int = 3, stacks: int | list[int] = 1000, **kw) -> StudState:
    values = stacks if isinstance(stacks, list) else [stacks] * n
    kw.setdefault("ante", 1)
    kw.setdefault("bring_in", 2)
    kw.setdefault("small_bet", 10)
    seats = tuple(SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(values))
    return StudState.start(StudSpec(seats=seats, **kw))


def deal(state: StudState, cards: dict[int, str], **extra) -> StudState:
    return state.apply({"type": "deal", "cards": cards, **extra})


def act(state: StudState, kind: str, seat: int, to: int | None = None) -> StudState:
    action = {"type": kind, "seat": seat}
    if to is not None:
        action["to"] = to
    return state.apply(action)


# ------------------------------------------------------------------ bring-in
def test_lowest_door_card_brings_in_clubs_lowest_suit():
    state = deal(make(4), {1: "AsKs2s", 2: "QhQd2h", 3: "JhJd2c", 4: "Tc9c2d"})
    legal = state.legal()
    assert state.to_act_seat == 3  # 2c: clubs are the lowest suit
    assert legal.bring_in == 2 and not legal.can_fold and legal.call_amount is None
    assert legal.min_raise_to == legal.max_raise_to == 10  # or complete to the small bet
    with pytest.raises(EngineError) as err:
        act(state, "fold", 3)
    assert err.value.code == "bad_action"


def test_ace_is_high_for_the_bring_in():
    state = deal(make(2), {1: "KsKdAc", 2: "QhQd3s"})
    assert state.to_act_seat == 2


def test_bring_in_then_completion_then_raise_by_the_small_bet():
    state = deal(make(3), {1: "AsKs2c", 2: "QhQd9h", 3: "JhJdKd"})
    state = act(state, "bring_in", 1)
    assert state.bets == (2, 0, 0)
    legal = state.legal()
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (2, 10, 10)
    state = act(state, "complete", 2, 10)
    assert state.legal().min_raise_to == state.legal().max_raise_to == 20
    with pytest.raises(EngineError) as err:
        act(state, "raise", 3, 30)
    assert err.value.code == "above_limit"


def test_unknown_door_card_needs_the_dealer_to_name_the_bring_in():
    state = make(3)
    with pytest.raises(EngineError) as err:
        deal(state, {1: "AsKs??", 2: "QhQd9h", 3: "JhJdKd"})
    assert err.value.code == "bad_cards"
    assert deal(state, {1: "AsKs??", 2: "QhQd9h"}, opener=2).to_act_seat == 2
    with pytest.raises(EngineError) as err:
        deal(state, {1: "AsKs2c", 2: "QhQd9h", 3: "JhJdKd"}, opener=2)
    assert err.value.code == "bad_action"  # the cards say seat 1


# ------------------------------------------------------- who acts first later
def third_street_called(state: StudState, cards: dict[int, str]) -> StudState:
    state = deal(state, cards)
    state = act(state, "bring_in", state.to_act_seat)
    while state.phase == "betting":
        state = act(state, "call", state.to_act_seat)
    return state


def test_best_hand_showing_acts_first_tie_to_the_player_dealt_first():
    state = third_street_called(make(3), {1: "AsKs9c", 2: "QhQd8c", 3: "JhJd9h"})
    state = deal(state, {1: "5d", 2: "7c", 3: "5s"})  # 9-5 and 9-5 tie, 8-7 lower
    assert state.to_act_seat == 1
    assert best_showing_position([("9h", "5s"), ("9c", "5d")]) == 0
    assert showing_rank(("3c", "3d")) > showing_rank(("As", "Ks"))  # a pair beats ace-king
    assert showing_rank(("As", "Ks", "Qs", "Js")) < showing_rank(("2c", "2d", "3h", "4s"))  # no flushes


# ------------------------------------------------------------- open pair
def test_open_pair_on_fourth_street_000_aktionen_3():
    state = third_street_called(make(3), {1: "AsKs2c", 2: "QhQd9h", 3: "JhJdKd"})
    state = deal(state, {1: "2d", 2: "Th", 3: "Qs"})  # seat 1 shows a pair of deuces
    assert state.open_pair and state.to_act_seat == 1
    legal = state.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (10, 20)  # lower or upper limit
    with pytest.raises(EngineError):
        act(state, "bet", 1, 15)
    # the rulebook's case: opened at the lower limit, raised by the lower limit,
    # the opener raises by the upper limit
    state = act(state, "bet", 1, 10)
    state = act(state, "raise", 2, 20)
    state = act(state, "call", 3)
    legal = state.legal()
    assert state.to_act_seat == 1 and (legal.min_raise_to, legal.max_raise_to) == (30, 40)
    state = act(state, "raise", 1, 40)
    legal = state.legal()
    assert legal.min_raise_to == legal.max_raise_to == 60  # after a big raise only big raises


def test_no_open_pair_only_the_small_bet_on_fourth_street():
    state = third_street_called(make(3), {1: "AsKs2c", 2: "QhQd9h", 3: "JhJdKd"})
    state = deal(state, {1: "3d", 2: "Th", 3: "Qs"})
    assert not state.open_pair
    legal = state.legal()
    assert legal.min_raise_to == legal.max_raise_to == 10
    with pytest.raises(EngineError) as err:
        act(state, "bet", state.to_act_seat, 20)
    assert err.value.code == "above_limit"


def test_big_bet_from_fifth_street():
    state = third_street_called(make(2), {1: "AsKs2c", 2: "QhQd9h"})
    state = deal(state, {1: "3d", 2: "Th"})
    state = act(state, "check", 2)
    state = act(state, "check", 1)
    state = deal(state, {1: "4d", 2: "Tc"})
    assert state.legal().min_raise_to == state.legal().max_raise_to == 20


def test_cap_three_raises_lifted_with_two_players_000_aktionen_3():
    def raise_round(rules: Rules) -> StudState:
        state = third_street_called(make(3, rules=rules), {1: "AsKs2c", 2: "QhQd9h", 3: "JhJdKd"})
        state = deal(state, {1: "3d", 2: "Th", 3: "Qs"})
        return state

    state = raise_round(Rules())
    order = [state.to_act_seat]
    state = act(state, "bet", order[0], 10)
    for to in (20, 30, 40):
        state = act(state, "raise", state.to_act_seat, to)
    assert state.legal().raise_blocked_by == "raise_cap"  # three players: capped
    state = raise_round(Rules())
    first = state.to_act_seat
    state = act(state, "bet", first, 10)
    state = act(state, "fold", state.to_act_seat)  # two players left before the cap
    for to in (20, 30, 40, 50, 60):
        state = act(state, "raise", state.to_act_seat, to)
    assert state.legal().can_bet_or_raise


# ------------------------------------------------------------- 004 #66
def test_picking_up_the_up_cards_in_turn_kills_the_hand_004_66():
    state = deal(make(3), {1: "AsKs2c", 2: "QhQd9h", 3: "JhJdKd"})
    state = act(state, "bring_in", 1)
    state = act(state, "complete", 2, 10)
    assert state.to_act_seat == 3
    state = state.apply({"type": "kill", "seat": 3, "reason": "up cards picked up (004 #66)"})
    assert state.folded == (False, False, True)
    assert state.to_act_seat == 1 and state.legal().call_amount == 8
    state = act(state, "fold", 1)
    assert state.is_complete
    assert state.final_stacks == (997, 1004, 999)  # seat 2 wins the antes and the bring-in


# ------------------------------------------------------------- odd chip
def play_to_showdown(state: StudState, streets: list[dict[int, str]]) -> StudState:
    for cards in streets:
        state = deal(state, cards)
        while state.phase == "betting":
            legal = state.legal()
            if legal.bring_in is not None:
                state = act(state, "bring_in", state.to_act_seat)
            else:
                state = act(state, "call" if legal.call_amount else "check", state.to_act_seat)
    return state


STRAIGHTS = [
    {1: "AhKs9c", 2: "AsKd8c", 3: "2c3c4d"},
    {1: "Qd", 2: "Qh", 3: "7d"},
    {1: "Jc", 2: "Js", 3: "7s"},
    {1: "Td", 2: "Th", 3: "5s"},
    {1: "2h", 2: "3h", 3: "5h"},
]


def test_odd_chip_to_the_highest_card_by_suit_000_allgemein_8():
    # seats 1 and 2 both hold the ace-high straight; seat 2 holds the ace of spades
    state = play_to_showdown(make(3, ante=3, bring_in=2, small_bet=10), STRAIGHTS)
    assert state.is_complete and state.total_pot == 15  # 3 x 3 ante + 3 x 2 bring-in
    won = {a.seat: a.amount for a in state.awards}
    assert won == {1: 7, 2: 8}  # As beats Ah: seat 2 gets the odd chip though seat 1 sits first


def test_odd_chip_by_position_for_comparison_and_split_unit_ante():
    state = make(3, ante=3, bring_in=2, small_bet=10, odd_chip="position")
    state = play_to_showdown(state, STRAIGHTS)
    assert {a.seat: a.amount for a in state.awards} == {1: 8, 2: 7}
    # 000 Allgemein 8: a pot is split only down to the ante (3 chips): 15 = 2 x 6 + 3
    rules = Rules(odd_chip_unit="small_blind")
    state = play_to_showdown(make(3, ante=3, bring_in=2, small_bet=10, rules=rules), STRAIGHTS)
    assert {a.seat: a.amount for a in state.awards} == {1: 6, 2: 9}


def test_unknown_cards_award_names_the_odd_chip():
    # down cards not entered: the dealer awards the pot and names the highest card for the odd chip
    streets = [
        {1: "????2c", 2: "????9h", 3: "????Kd"},
        {1: "3d", 2: "Th", 3: "Js"},
        {1: "4d", 2: "Tc", 3: "Jd"},
        {1: "5d", 2: "6c", 3: "7d"},
        {},
    ]
    state = play_to_showdown(make(3, ante=3, bring_in=2, small_bet=10), streets)
    assert state.phase == "showdown" and state.total_pot == 15
    with pytest.raises(EngineError) as err:
        state.apply({"type": "award", "pot": 0, "winners": [1, 2]})
    assert err.value.code == "bad_award"
    done = state.apply({"type": "award", "pot": 0, "winners": [1, 2], "odd_chip": 2})
    assert done.is_complete and done.final_stacks == (995 + 7, 995 + 8, 995)


# ------------------------------------------------------------- community card
def full_deck() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


@pytest.mark.parametrize("players, community", [(8, True), (7, False), (6, False)])
def test_community_card_when_the_stub_runs_out(players, community):
    deck = full_deck()
    state = make(players)
    streets = []
    streets.append({p + 1: "".join(deck.pop() for _ in range(3)) for p in range(players)})
    for _ in range(3):
        deck.pop()  # burn
        streets.append({p + 1: deck.pop() for p in range(players)})
    state = play_to_showdown(state, streets)
    assert state.phase == "deal" and state.community_due is community
    if not community:
        # seven players: the stub holds one card per player, dealt without a burn
        state = deal(state, {p + 1: deck.pop() for p in range(players)})
        assert state.phase == "betting" and len(deck) == (0 if players == 7 else 7)
        return
    with pytest.raises(EngineError) as err:
        deal(state, {1: deck[-1]})
    assert err.value.code == "bad_cards"
    card = deck[0]
    state = state.apply({"type": "deal", "community": card})
    assert state.community == (card,) and state.to_dict()["community"] == [card]
    while state.phase == "betting":
        state = act(state, "check", state.to_act_seat)
    assert state.is_complete
    strength = [hand_strength(state.cards_of(p), (card,)) for p in range(players)]
    best = max(strength)
    assert {a.position for a in state.awards} == {p for p in range(players) if strength[p] == best}
    assert all(len(state.cards_of(p)) == 6 for p in range(players))


def test_to_dict_shows_up_and_down_cards():
    state = deal(make(2), {1: "AsKs2c", 2: "QhQd9h"})
    data = state.to_dict()
    assert data["game"] == "stud" and data["street"] == "third" and data["opener_seat"] == 1
    assert data["players"][0]["up_cards"] == ["2c"] and data["players"][0]["down_cards"] == ["As", "Ks"]
    assert data["legal"]["bring_in"] == 2


def test_spec_limits_and_players():
    seats = tuple(SeatSpec(i + 1, f"p{i}", 100) for i in range(9))
    with pytest.raises(EngineError):
        StudSpec(seats=seats, ante=1, bring_in=2, small_bet=10)
    with pytest.raises(EngineError):
        StudSpec(seats=seats[:3], ante=1, bring_in=10, small_bet=10)
    spec = StudSpec(seats=seats[:3], ante=1, bring_in=2, small_bet=10)
    assert spec.big_bet == 20 and StudSpec.from_dict(spec.to_dict()) == spec


def test_standard_deals_from_the_left_of_the_dealer_and_stored_specs_load_by_game():
    seats = [SeatSpec(2, "b", 100), SeatSpec(4, "d", 100), SeatSpec(7, "g", 100)]
    spec = StudSpec.standard(seats, dealer=4, ante=1, bring_in=2, small_bet=10)
    assert [s.seat for s in spec.seats] == [7, 2, 4] and spec.dealer_seat == 4
    assert load_spec(spec.to_dict()) == spec
    assert isinstance(start_hand(spec), StudState)
    holdem = HandSpec.standard(seats, button=4, small_blind=1, big_blind=2)
    assert load_spec(holdem.to_dict()) == holdem
    assert isinstance(start_hand(holdem), HandState)


def test_random_hands_keep_every_chip_with_kills_all_ins_unknown_cards_and_big_bets():
    """Random play beyond what pokerkit can follow (the open pair's big bet,
    all-ins, dead hands 004 #66, cards not entered): every hand ends and no
    chip is lost or made."""
    import random

    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(2, 8)
        stacks = [rng.choice((rng.randint(1, 40), rng.randint(40, 400))) for _ in range(n)]
        state = make(n, stacks=stacks, ante=rng.choice((0, 1, 2)), bring_in=2, small_bet=10)
        deck = full_deck()
        rng.shuffle(deck)
        unknown = rng.random() < 0.3
        steps = 0
        while state.phase != "complete":
            steps += 1
            assert steps < 400
            if state.phase == "deal":
                live = [p for p in range(n) if not state.folded[p]]
                street = state.street_index + 1
                if state.community_due:
                    action = {"type": "deal", "community": deck.pop()}
                    if unknown:
                        action["opener"] = live[0] + 1
                    state = state.apply(action)
                    continue
                count = 3 if street == 0 else 1
                cards = {p + 1: "".join(deck.pop() for _ in range(count)) for p in live}
                action = {"type": "deal", "cards": cards}
                if unknown:
                    action["cards"] = {p + 1: "??" * count for p in live}
                    action["opener"] = live[0] + 1
                state = state.apply(action)
            elif state.phase == "betting":
                legal = state.legal()
                seat = state.to_act_seat
                r = rng.random()
                if r < 0.03:
                    state = state.apply({"type": "kill", "seat": seat, "reason": "004 #66"})
                elif legal.bring_in is not None:
                    state = act(state, "bring_in", seat)
                elif legal.call_amount and r < 0.25:
                    state = act(state, "fold", seat)
                elif legal.can_bet_or_raise and r > 0.6:
                    to = legal.max_raise_to if rng.random() < 0.5 else legal.min_raise_to
                    state = act(state, "raise", seat, to)
                elif r > 0.55 and state.can({"type": "all_in", "seat": seat}):
                    state = act(state, "all_in", seat)  # fixed limit: only when the chips fit the limit
                else:
                    state = act(state, "call" if legal.call_amount else "check", seat)
            else:
                if state.awards or unknown:
                    pot = next(i for i in range(len(state.pots)) if all(a.pot_index != i for a in state.awards))
                    contenders = [p for p in state.pots[pot].eligible if not state.mucked[p]]
                    winners = [state.spec.seat_of(p) for p in contenders[:2]]
                    action = {"type": "award", "pot": pot, "winners": winners}
                    if len(winners) > 1:
                        action["odd_chip"] = winners[0]
                    state = state.apply(action)
                else:
                    raise AssertionError(state.history)
        assert sum(state.final_stacks) == sum(stacks)
