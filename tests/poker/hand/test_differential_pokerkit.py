"""Differential test: our engine against pokerkit on random hands.

At every step both engines must agree on the player to act and on the legal
options (fold, call amount, minimum and maximum raise-to), and at the end on
the final stacks. Hands are seeded; the count is ENGINE_DIFF_HANDS (default
2000) for the exact comparison with ``Rules.pokerkit()``; a second pass with
the default (TDA) rules runs ENGINE_DIFF_HANDS // 8 hands without straddles
and allows exactly one documented difference: after a short all-in we refuse a
re-raise that pokerkit 0.6.5 allows (``betting_closed``).

Chips nobody can win: when every player who put chips into a side pot
folded without facing a bet, pokerkit burns that pot; we give it to the
players still in with the largest contribution. The test checks that this is
the only difference in such hands.

Odd chips: we split every pot on its own (TDA, rulebook 003). pokerkit first
removes the hands that win nothing and then merges neighbouring pots that
have the same remaining players, so a merged pot can have a different odd
chip. When the final stacks differ, the test recomputes pokerkit's merged
split from our own state (``pokerkit_style_final``) and requires it to equal
pokerkit's stacks exactly, and our stacks to differ only by odd chips.
"""

from __future__ import annotations

import os
import random
import warnings

import pytest

pokerkit = pytest.importorskip("pokerkit")
from pokerkit import Automation, BoardDealing, HoleDealing, Mode, NoLimitTexasHoldem  # noqa: E402

from poker.hand import HandSpec, HandState, Rules, SeatSpec, hand_strength  # noqa: E402
from poker.hand.pots import build_pots, split_amount  # noqa: E402

HANDS = int(os.environ.get("ENGINE_DIFF_HANDS", "2000"))
SEED = 20240601

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def random_setup(rng: random.Random, allow_straddle: bool = True) -> dict:
    """Random table: 2-9 players, blinds, antes / big blind ante, straddle,
    deep, short and tiny stacks (some below the blinds or the ante)."""
    n = rng.randint(2, 9)
    bb = rng.choice((2, 10, 100, 1000))
    sb = rng.choice((bb // 2, max(1, bb // 2), bb // 3 or 1, bb))
    blinds = [sb, bb] + [0] * (n - 2)
    if allow_straddle and n >= 3 and rng.random() < 0.2:
        blinds[2] = 2 * bb
    kind = rng.random()
    if kind < 0.45:
        antes = [0] * n
    elif kind < 0.75:
        antes = [rng.choice((1, max(1, bb // 10), max(1, bb // 4)))] * n
    else:
        antes = [0] * n
        antes[1] = rng.choice((bb, bb + bb // 2 or 1))
    stacks = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            stacks.append(rng.randint(20 * bb, 300 * bb))
        elif r < 0.75:
            stacks.append(rng.randint(3 * bb, 20 * bb))
        elif r < 0.9:
            stacks.append(rng.randint(bb, 3 * bb))
        else:
            stacks.append(rng.randint(1, bb + max(antes) + 1))
    return {
        "n": n,
        "blinds": tuple(blinds),
        "antes": tuple(antes),
        "min_bet": bb,
        "stacks": tuple(stacks),
        "trimming": rng.random() < 0.5,
    }


def pk_legal(pk):
    return (
        pk.actor_index,
        pk.checking_or_calling_amount,
        pk.min_completion_betting_or_raising_to_amount,
        pk.max_completion_betting_or_raising_to_amount,
    )


def our_legal(state: HandState):
    legal = state.legal()
    return (state.to_act, legal.call_amount, legal.min_raise_to, legal.max_raise_to)


def choose(rng: random.Random, legal) -> tuple[str, int | None]:
    """Random action among fold/check-call/min raise/random raise/all-in."""
    r = rng.random()
    # No folds when a check is possible: pokerkit 0.6.5 burns or asserts on
    # the pots such folds can leave (see test_rules for our handling).
    if legal.call_amount and r < 0.5:
        return "fold", None
    if legal.can_bet_or_raise and r > 0.6:
        low, high = legal.min_raise_to, legal.max_raise_to
        r2 = rng.random()
        if r2 < 0.45:
            return "raise", low
        if r2 < 0.8:
            return "raise", rng.randint(low, high)
        return "all_in", high
    return "cc", None


def pokerkit_style_final(state: HandState) -> tuple[int, ...]:
    """Final stacks with pokerkit 0.6.5's showdown: hands that win no pot
    are killed, the pots are rebuilt without them (neighbouring pots with
    the same players merge) and each is split, odd chips to the lowest
    position."""
    before = list(state.final_stacks)
    for award in state.awards:
        before[award.position] -= award.amount
    strength = {p: hand_strength(state.hole_cards[p], state.board) for p in range(len(before)) if not state.folded[p]}
    winners_of = []
    for pot in state.pots:
        best = max(strength[p] for p in pot.eligible)
        winners_of.append({p for p in pot.eligible if strength[p] == best})
    alive = set().union(*winners_of)
    out = [p not in alive for p in range(len(before))]
    for pot in build_pots(state.contributions, state.dead_antes, out):
        best = max(strength[p] for p in pot.eligible)
        for p, amount in split_amount(pot.amount, [p for p in pot.eligible if strength[p] == best]):
            before[p] += amount
    return tuple(before)


def play_hand(rng: random.Random, setup: dict, rules: Rules, exact: bool, stats: dict) -> None:
    n = setup["n"]
    pk = NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        setup["trimming"],
        setup["antes"],
        setup["blinds"],
        setup["min_bet"],
        setup["stacks"],
        n,
        mode=Mode.CASH_GAME,
    )
    spec = HandSpec(
        seats=tuple(SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(setup["stacks"])),
        blinds_or_straddles=setup["blinds"],
        antes=setup["antes"],
        min_bet=setup["min_bet"],
        ante_trimming=setup["trimming"],
        rules=rules,
    )
    state = HandState.start(spec)
    # Read the cards from pokerkit's operations (it mucks losing hands).
    hole = [""] * n
    for op in pk.operations:
        if isinstance(op, HoleDealing):
            hole[op.player_index] += "".join(map(repr, op.cards))
    for i in range(n):
        state = state.deal_hole(i + 1, hole[i])
    steps = 0
    while state.phase != "complete":
        steps += 1
        assert steps < 500, "hand does not end"
        if state.phase == "betting":
            ours, theirs = our_legal(state), pk_legal(pk)
            legal = state.legal()
            assert legal.can_fold and pk.can_fold()
            if exact or legal.can_bet_or_raise or theirs[2] is None:
                assert ours == theirs, (setup, state.history, ours, theirs)
            else:
                # The one documented difference with the TDA reading.
                assert ours[:2] == theirs[:2], (setup, state.history, ours, theirs)
                assert legal.raise_blocked_by == "betting_closed", (setup, state.history, legal)
                stats["closed"] += 1
            kind, to = choose(rng, legal)
            seat = state.to_act_seat
            if kind == "fold":
                pk.fold()
                state = state.fold(seat)
            elif kind == "cc":
                pk.check_or_call()
                state = state.apply({"type": "call" if legal.call_amount else "check", "seat": seat})
            elif kind == "raise":
                pk.complete_bet_or_raise_to(to)
                state = state.bet_or_raise(seat, to)
            else:
                pk.complete_bet_or_raise_to(to)
                state = state.all_in(seat)
        elif state.phase == "board":
            # pokerkit deals the board by itself and may already be betting.
            board = [repr(c) for op in pk.operations if isinstance(op, BoardDealing) for c in op.cards]
            have = len(state.board)
            assert len(board) >= have + state.board_cards_due
            state = state.deal_board("".join(board[have : have + state.board_cards_due]))
        else:
            raise AssertionError(f"unexpected phase {state.phase} with all cards known: {state.history}")
    assert not pk.status
    burned = sum(setup["stacks"]) - sum(pk.stacks)
    if burned:
        # pokerkit burns a side pot nobody left can win (everyone in it
        # folded without facing a bet); we give it to the remaining players
        # with the largest contribution (pots.build_pots). Everything else
        # must agree.
        extra = [a - b for a, b in zip(state.final_stacks, pk.stacks)]
        assert min(extra) >= 0 and sum(extra) == burned, (setup, state.history)
        assert all(not state.folded[p] for p, x in enumerate(extra) if x), (setup, state.history)
        stats["pokerkit_burned"] += 1
    elif state.final_stacks != tuple(pk.stacks):
        assert pokerkit_style_final(state) == tuple(pk.stacks), (setup, state.history, state.final_stacks, pk.stacks)
        diff = [abs(a - b) for a, b in zip(state.final_stacks, pk.stacks)]
        assert max(diff) < len(state.pots) * len(state.spec.seats), (setup, state.history)
        stats["odd_chip_merges"] += 1
    assert sum(state.final_stacks) == sum(setup["stacks"])
    stats["hands"] += 1
    stats["showdowns"] += state.folded.count(False) > 1
    stats["side_pots"] += len(state.pots) > 1


def run(count: int, seed: int, rules: Rules, exact: bool, allow_straddle: bool) -> dict:
    rng = random.Random(seed)
    stats = {"hands": 0, "showdowns": 0, "side_pots": 0, "closed": 0, "odd_chip_merges": 0, "pokerkit_burned": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(count):
            random.seed(seed * 7919 + k)  # pokerkit shuffles with the global RNG
            play_hand(rng, random_setup(rng, allow_straddle), rules, exact, stats)
    return stats


def test_differential_exact_pokerkit_rules():
    stats = run(HANDS, SEED, Rules.pokerkit(), exact=True, allow_straddle=True)
    print("exact pass:", stats)
    assert stats["hands"] == HANDS
    assert stats["showdowns"] > HANDS // 10
    assert stats["side_pots"] > HANDS // 20


def test_differential_default_tda_rules():
    count = max(1, HANDS // 8)
    stats = run(count, SEED + 1, Rules(), exact=False, allow_straddle=False)
    print("TDA pass:", stats)
    assert stats["hands"] == count
