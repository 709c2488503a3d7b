"""The chip-action interpreter and the hand engine agree on the minimum raise-to and
the maximum "to" amount: both compute them with :mod:`poker.hand.limits`.

A grid of situations (no limit, pot limit, split limit; the minimum-raise rules
"last_full_raise" (TDA 43) and "double_previous" (002 #4); with and without the chip
unit of 000 Allgemein 8; short all-ins, 003 "All-In") is played in the engine; the
situation of the player to act is then given to the interpreter, and
``interpret.raise_bounds`` must equal ``Legal.min_raise_to`` / ``max_raise_to``.
"""

from __future__ import annotations

import pytest

from poker.floor.interpret import Situation, interpret_json, raise_bounds
from poker.hand import HandSpec, HandState, Rules, SeatSpec
from poker.hand.limits import fixed_limit_bet, min_raise_to, pot_limit_max_to, round_to_unit
from poker.houserules import get_profile, with_overrides

STREETS = ("preflop", "flop", "turn", "river")
GAMES = {"nlhe": "no_limit", "plo": "pot_limit", "limit_holdem": "split_limit"}
#: A short stack for the button (seat 4, second to act preflop) whose all-in is less than a
#: full raise after seat 3's raise (chips at blinds 50/100; scaled to the blinds).
SHORT = {"nlhe": 550, "plo": 500, "limit_holdem": 250}
DEEP = 10_000

# Each scenario: (name, button short?, actions). Actions: "call", "check", "allin",
# ("to", x) = bet/raise to x (at blinds 50/100, scaled to the blinds) clamped to the legal
# bounds, "board" = deal the next street. Seats: 1 small blind, 2 big blind, 3 under the gun, 4 button.
SCENARIOS = [
    ("preflop facing the blinds", False, []),
    ("preflop facing a raise", False, [("to", 400)]),
    ("preflop facing a raise and a re-raise", False, [("to", 400), ("to", 1000)]),
    ("preflop short all-in after a raise", True, [("to", 400), "allin"]),
    ("preflop short all-in, then a call", True, [("to", 400), "allin", "call"]),
    ("preflop short stack to act facing a raise", True, [("to", 400)]),
    ("flop first to act", False, ["call", "call", "call", "check", "board"]),
    ("flop facing a bet", False, ["call", "call", "call", "check", "board", ("to", 150)]),
    ("flop facing a bet and a raise", False, ["call", "call", "call", "check", "board", ("to", 150), ("to", 500)]),
    (
        "turn facing a bet",
        False,
        ["call", "call", "call", "check", "board", "check", "check", "check", "check", "board", ("to", 300)],
    ),
    (
        "river first to act",
        False,
        ["call", "call", "call", "check", "board"] + ["check"] * 4 + ["board"] + ["check"] * 4 + ["board"],
    ),
]


def _engine(game: str, rule: str, unit: bool, short: bool):
    sb, bb = (25, 50) if unit else (50, 100)
    stacks = [DEEP, DEEP, DEEP, SHORT[game] * bb // 100 if short else DEEP]
    seats = [SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(stacks)]
    rules = Rules(min_raise=rule, bet_unit="small_blind" if unit else None)
    return HandState.start(HandSpec.standard(seats, 4, sb, bb, rules=rules, game=game)), sb, bb


def _play(state, actions):
    """Play ``actions``; return the state and the largest raise increment of the street."""
    bb = state.spec.min_bet
    last = bb
    for a in actions:
        if a == "board":
            state = state.apply({"type": "board", "cards": ""})
            last = 0
            continue
        seat = state.to_act_seat
        top = max(state.bets)
        if a in ("call", "check"):
            state = state.apply({"type": a, "seat": seat})
            continue
        legal = state.legal()
        if a == "allin":
            to = state.stacks[state.to_act] + state.bets[state.to_act]
            state = state.apply({"type": "all_in", "seat": seat})
        else:
            to = min(max(a[1] * bb // 100, legal.min_raise_to), legal.max_raise_to)
            state = state.apply({"type": "raise" if top else "bet", "seat": seat, "to": to})
        last = max(last, to - top)
    return state, last


def _situation(state, sb, bb, last, limit):
    pos = state.to_act
    top = max(state.bets)
    return Situation(
        street=state.street,
        small_blind=sb,
        big_blind=bb,
        to_call=top - state.bets[pos],
        last_raise=last if top else 0,
        in_front=state.bets[pos],
        stack=state.stacks[pos],
        pot=sum(state.contributions) + sum(state.bets),
        limit=limit,
    )


@pytest.mark.parametrize("unit", [False, True], ids=["unit 1", "unit small blind"])
@pytest.mark.parametrize("rule", ["last_full_raise", "double_previous"])
@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("name,short,actions", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_interpreter_and_engine_agree_on_min_raise_to_and_max_to(game, rule, unit, name, short, actions):
    state, sb, bb = _engine(game, rule, unit, short)
    state, last = _play(state, actions)
    legal = state.legal()
    assert legal.can_bet_or_raise, name
    profile = with_overrides(
        get_profile("nlhe"), min_raise=rule, bet_unit="small_blind" if unit else None, bet_unit_big_blind_stakes=()
    )
    situation = _situation(state, sb, bb, last, GAMES[game])
    assert raise_bounds(profile, situation) == (legal.min_raise_to, legal.max_raise_to)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_ruling_reports_the_engine_minimum(game):
    """A silent call keeps the engine's minimum raise-to in ``min_raise_to`` of the JSON."""
    state, sb, bb = _engine(game, "last_full_raise", False, False)
    state, last = _play(state, [("to", 400)])
    legal = state.legal()
    s = _situation(state, sb, bb, last, GAMES[game])
    r = interpret_json(
        "nlhe",
        {
            "situation": {
                "street": s.street,
                "small_blind": sb,
                "big_blind": bb,
                "to_call": s.to_call,
                "last_raise": s.last_raise,
                "in_front": s.in_front,
                "stack": s.stack,
                "pot": s.pot,
                "limit": GAMES[game],
            },
            "observed": {"chips": {str(s.to_call): 1}},
        },
    )
    assert (r["action"], r["min_raise_to"]) == ("call", legal.min_raise_to)


def test_old_and_new_spellings_of_split_limit_are_the_same_situation():
    base = dict(street="flop", small_blind=50, big_blind=100, to_call=100, last_raise=100, stack=5000, pot=400)
    assert Situation(**base, limit="split_limit") == Situation(**base, limit="fixed_limit")
    r_old = interpret_json(
        "casino-cash", {"situation": dict(base, limit="split_limit"), "observed": {"declared": "raise"}}
    )
    r_new = interpret_json(
        "casino-cash", {"situation": dict(base, limit="fixed_limit"), "observed": {"declared": "raise"}}
    )
    assert r_old == r_new and (r_old["action"], r_old["amount"]) == ("raise", 200)


def test_all_in_words_are_accepted_and_reported_as_before():
    sit = dict(street="flop", small_blind=50, big_blind=100, to_call=0, stack=700, pot=300)
    for word in ("all-in", "all in", "all_in"):
        r = interpret_json("nlhe", {"situation": sit, "observed": {"declared": word}})
        assert (r["action"], r["amount"], r["all_in"], r["all_in_as"]) == ("all-in", 700, True, "bet")


def test_the_pure_functions_on_the_rulebook_examples():
    # 002 #4: BB 100, raise to 200 -> the next raise is to at least 400.
    assert min_raise_to(200, 100, 100, "double_previous") == 400
    # TDA 43: the same under "last full raise": to 300.
    assert min_raise_to(200, 100, 100, "last_full_raise") == 300
    # 000 Einsätze 2: split limit 50/100: a raise on the turn is one big bet (200).
    assert min_raise_to(200, 200, 100, structure="fixed_limit", fixed_bet=fixed_limit_bet(2, 100)) == 400
    # 004 #54: blinds 50/100, a raise to 300; the next player may raise to the pot after his call:
    # 300 + (450 + 300) = 1050.
    assert pot_limit_max_to(300, 0, 450) == 1050
    # 000 Allgemein 8: 27 at unit 5 -> 25, 2 back; an all-in is not rounded.
    assert round_to_unit(27, 5) == (25, 2) and round_to_unit(27, 5, all_in_to=27) == (27, 0)
