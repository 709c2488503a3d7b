"""The in-place hand state (poker/hand/inplace.py) against the immutable one (issue 27, replay speed).

The PHH replay changes one :class:`InPlaceState` instead of copying the state per action; the
action handlers are the immutable engine's, run with ``new`` being the state itself. These tests
drive both side by side and compare every field after every action: a handler that reads a field
of the old state after writing the new one's (e.g. the minimum raise-to after a call moved the
bets) gives a different state here.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from poker.hand import EngineError, HandSpec, HandState, Rules, SeatSpec
from poker.hand.inplace import InPlaceState
from poker.hand.phh import load_phh, replay, translate_action
from poker.hand.phh_replay import replay_in_place

from .test_differential_pokerkit import random_setup

PHH_ROOT = Path(__file__).resolve().parents[3].parent / "shared" / "phh"
FILES = sorted(PHH_ROOT.rglob("*.phh"))
SLOTS = tuple(s for cls in HandState.__mro__ for s in getattr(cls, "__slots__", ()) if s != "_history")
RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]

#: Profiles whose handlers take the paths a short all-in, the pot-limit credit and the limit cap use.
PROFILES = {
    "default": Rules(),
    "pokerkit": Rules.pokerkit(),
    "strict": Rules(
        min_raise="double_previous",
        short_all_in_caller_may_reraise=False,
        pot_limit_preflop_all_in="counted_full",
        min_raise_cap="effective_stack",
        limit_cap_lifted_heads_up=True,
    ),
}


def differences(fast: HandState, slow: HandState) -> list[str]:
    """The fields (and JSON snapshot) in which two states differ (an in-place state logs its
    history apart until frozen: its action count is left out)."""
    diff = [name for name in SLOTS if getattr(fast, name) != getattr(slow, name)]
    fast_json, slow_json = fast.to_dict(), slow.to_dict()
    if isinstance(fast, InPlaceState):
        del fast_json["actions"], slow_json["actions"]
    if fast_json != slow_json:
        diff.append("to_dict")
    return diff


def immutable_replay(hand, spec, seats):
    """The corpus hand replayed one immutable state after the other (what replay did before)."""
    state = HandState.start(spec)
    before = None
    for text in hand.actions:
        action = translate_action(state, text, seats)
        if action is None:
            continue
        new = state.apply(action)
        if not state.is_complete:
            before = state
        state = new
    return state, before


@pytest.mark.parametrize("profile", ["default", "pokerkit"])
def test_every_corpus_hand_reaches_the_immutable_replays_state(profile):
    rules = PROFILES[profile]
    fell_back = 0
    for path in FILES:
        hand = load_phh(path.read_text(encoding="utf-8"))
        spec, seats = hand.spec(rules), hand.seat_numbers()
        fast = replay_in_place(hand, spec, seats)
        try:
            slow, before = immutable_replay(hand, spec, seats)
        except EngineError:
            assert fast is None, path  # a refused line: the fast path hands the hand back
            fell_back += 1
            continue
        assert fast is not None, path
        state, phase_before, bets_before = fast
        assert type(state) is HandState  # frozen: an ordinary immutable state
        assert differences(state, slow) == [], path
        assert state.history == slow.history
        assert (phase_before, bets_before) == ((before.phase, before.bets) if before else (None, ()))
    assert len(FILES) == 200
    assert fell_back <= 2  # the WSOP 2019 record (skipped fold) and what pokerkit's profile refuses


def random_hand_both_ways(rng: random.Random, game: str, rules: Rules) -> int:
    """One random hand played on an immutable state and an in-place state at once; returns the
    number of actions compared. Fails at the first action after which they differ."""
    setup = random_setup(rng)
    n = setup["n"]
    big_bet = None
    if game == "limit_holdem":
        big_bet = 2 * setup["min_bet"]
    spec = HandSpec(
        seats=tuple(SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(setup["stacks"])),
        blinds_or_straddles=setup["blinds"],
        antes=setup["antes"],
        min_bet=setup["min_bet"],
        ante_trimming=setup["trimming"],
        rules=rules,
        game=game,
        big_bet=big_bet,
    )
    slow = HandState.start(spec)
    fast = InPlaceState.begin(spec)
    deck = DECK[:]
    rng.shuffle(deck)
    per_hole = 4 if game == "plo" else 2
    actions = [{"type": "hole", "seat": i + 1, "cards": "".join(deck.pop() for _ in range(per_hole))} for i in range(n)]
    steps = 0
    while True:
        for action in actions:
            slow = slow.apply(action)
            fast.step(dict(action))
            steps += 1
            assert differences(fast, slow) == [], (game, action, steps)
        if slow.phase == "betting":
            legal = slow.legal()
            seat = legal.seat
            r = rng.random()
            if legal.call_amount and r < 0.3:
                actions = [{"type": "fold", "seat": seat}]
            elif legal.can_bet_or_raise and r > 0.55:
                low, high = legal.min_raise_to, legal.max_raise_to
                assert low is not None and high is not None
                to = rng.choice((low, high, rng.randint(low, high)))
                if spec.bet_unit != 1 and to != high:
                    to -= to % spec.bet_unit
                    to = max(to, low)
                everything = slow.stacks[legal.position] + slow.bets[legal.position]
                kind = "all_in" if to == everything and rng.random() < 0.5 else "raise"
                actions = [{"type": kind, "seat": seat, "to": to}]
            else:
                actions = [{"type": "call" if legal.call_amount else "check", "seat": seat}]
        elif slow.phase == "board":
            count = slow.board_cards_due
            actions = [{"type": "board", "cards": "".join(deck.pop() for _ in range(count))}]
        elif slow.phase == "showdown":
            order = slow.showdown_order
            shower = next(p for p in order if not slow.shown[p] and not slow.mucked[p])
            actions = [{"type": "show", "seat": spec.seat_of(shower)}]
        else:
            break
    frozen = fast.freeze()
    assert differences(frozen, slow) == []
    assert frozen.history == slow.history
    return steps


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("game", ["nlhe", "plo", "limit_holdem"])
def test_random_hands_in_place_equal_immutable_after_every_action(profile, game):
    rng = random.Random(f"inplace-{profile}-{game}")
    steps = sum(random_hand_both_ways(rng, game, PROFILES[profile]) for _ in range(60))
    assert steps > 60 * 8


def test_a_refused_line_is_reported_as_by_the_immutable_replay():
    """The fast path gives up at a refused line; the result names the line and keeps the state
    before it, as before (here the record skips a player's turn)."""
    text = "\n".join(
        [
            "variant = 'NT'",
            "antes = [0, 0, 0]",
            "blinds_or_straddles = [1, 2, 0]",
            "min_bet = 2",
            "starting_stacks = [100, 100, 100]",
            "actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 7h2c', 'p1 cc', 'p3 f']",
            "finishing_stacks = [100, 100, 100]",
        ]
    )
    hand = load_phh(text)
    assert replay_in_place(hand, hand.spec(), hand.seat_numbers()) is None
    result = replay(hand)
    assert not result.ok and result.error_code == "not_your_turn"
    assert result.error.endswith("at action 3 'p1 cc'")
    assert type(result.state) is HandState
    assert len(result.state.history) == 3 and result.state.to_act_seat == 3


SHOWN_UNKNOWN = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 7c8c", "p3 f", "p1 cbr 100", "p2 cc",
  "d db 2c3d4h", "d db 7s", "d db 9c", "p1 sm ????", "p2 sm QhQd",
]
finishing_stacks = [0, 200, 100]
"""


def test_a_show_without_cards_of_a_player_whose_cards_are_known_changes_nothing_in_place():
    """``p1 sm ????`` while p1's cards were dealt known: neither a show nor a muck (PHH) -- the check
    that it could be a show must not show his cards on the in-place state (the immutable replay
    throws that state away)."""
    hand = load_phh(SHOWN_UNKNOWN)
    spec, seats = hand.spec(Rules()), hand.seat_numbers()
    fast = replay_in_place(hand, spec, seats)
    slow, _before = immutable_replay(hand, spec, seats)
    assert fast is not None
    assert differences(fast[0], slow) == []
    assert replay(hand).ok


OPENING = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [{deals}, "p3 f", "p1 cc", "p2 cc"]
"""


@pytest.mark.parametrize(
    ("deals", "error"),
    [
        # the opening deal read at once up to its first line that is not plain, the rest line by line
        ('"d dh p1 AsKs", "d dh p2 ????", "d dh p3 7h2c", "d dh p2 QdQc"', None),  # p2 dealt after unknown
        ('"d dh p1 AsKs", "d dh p2 QdQc", "d dh p1 7h2c", "d dh p3 8h8c"', None),  # p1 dealt again
        ('"d dh p1 As??", "d dh p2 QdQc", "d dh p3 7h2c"', None),  # one card unknown
        ('"d dh p1 AsKs", "d dh p2 QdAs", "d dh p3 7h2c"', "duplicate_card"),
        ('"d dh p1 AsKs", "d dh p2 Qd", "d dh p3 7h2c"', "bad_cards"),
        ('"d dh p1 AsKs", "d dh p2 QdXx", "d dh p3 7h2c"', "bad_cards"),
        ('"d dh p1 AsKs", "d dh p9 QdQc", "d dh p3 7h2c"', "bad_action"),
    ],
)
def test_the_opening_deal_read_at_once_is_the_deal_line_by_line(deals, error):
    hand = load_phh(OPENING.format(deals=deals))
    spec, seats = hand.spec(Rules()), hand.seat_numbers()
    fast = replay_in_place(hand, spec, seats)
    try:
        slow, before = immutable_replay(hand, spec, seats)
    except EngineError as exc:
        assert fast is None and exc.code == error
        assert replay(hand).error_code == error
        return
    assert error is None and fast is not None
    assert differences(fast[0], slow) == []
    assert fast[0].history == slow.history
    assert fast[1:] == (before.phase, before.bets)
