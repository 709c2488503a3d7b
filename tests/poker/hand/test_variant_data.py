"""The games as data (poker/hand/variants.py): one Variant a game, read by the one HandState
(issue 25: stud is no second engine)."""

from __future__ import annotations

import pytest

from poker.hand import VARIANTS, EngineError, HandSpec, HandState, SeatSpec, StudSpec, StudState, start_hand
from poker.hand.spec import GAMES, HOLE_CARDS, STRUCTURE
from poker.hand.stud_spec import STUD_GAMES

SEATS = [SeatSpec(1, "a", 1000), SeatSpec(2, "b", 1000), SeatSpec(3, "c", 1000)]


def test_every_game_is_one_row_of_variants():
    assert set(VARIANTS) == set(GAMES) | set(STUD_GAMES)
    assert HOLE_CARDS == {"nlhe": 2, "plo": 4, "limit_holdem": 2}
    assert STRUCTURE == {"nlhe": "no_limit", "plo": "pot_limit", "limit_holdem": "fixed_limit"}
    stud = VARIANTS["stud"]
    assert stud.hole_cards == 7 and stud.up_indexes() == (2, 3, 4, 5)
    assert stud.street_names == ("third", "fourth", "fifth", "sixth", "seventh")
    assert [s.big_bet for s in VARIANTS["limit_holdem"].streets] == [False, False, True, True]
    assert (VARIANTS["razz"].low, VARIANTS["stud8"].low, VARIANTS["stud"].low) == ("any", "eight", None)


@pytest.mark.parametrize("game", GAMES)
def test_a_flop_game_reads_its_variant(game):
    big_bet = 200 if game == "limit_holdem" else None
    spec = HandSpec.standard(SEATS, button=3, small_blind=50, big_blind=100, game=game, big_bet=big_bet)
    assert spec.game_variant is VARIANTS[game]
    state = start_hand(spec)
    assert type(state) is HandState and state.street == "preflop"
    with pytest.raises(EngineError) as err:
        state.apply({"type": "deal", "cards": {}})
    assert err.value.code == "bad_action"  # a stud game's action


@pytest.mark.parametrize("variant", sorted(STUD_GAMES))
def test_a_stud_game_is_the_same_state_class(variant):
    spec = StudSpec.standard(SEATS, dealer=3, ante=5, bring_in=10, small_bet=20, big_bet=40)
    spec = StudSpec.from_dict(spec.to_dict() | {"variant": variant})
    assert spec.game_variant is VARIANTS[variant]
    assert [spec.bet_size(k) for k in range(5)] == [20, 20, 40, 40, 40]
    state = start_hand(spec)
    assert StudState is HandState and type(state) is HandState
    assert (state.street, state.phase, state.next_street) == ("ante", "deal", "third")
    for action in ({"type": "hole", "seat": 1, "cards": "AsKs"}, {"type": "board", "cards": ""}):
        with pytest.raises(EngineError) as err:
            state.apply(action)
        assert err.value.code == "bad_action"  # a flop game's action
    state = state.apply({"type": "deal", "cards": {1: "2c3cKc", 2: "4d5dKs", 3: "6h7h3h"}})
    assert state.hole_cards[0] == ("2c", "3c", "Kc") and state.up_cards[0] == ("Kc",)
    assert state.down_cards[0] == ("2c", "3c")
    assert state.to_dict()["players"][0]["up_cards"] == ["Kc"]
