"""Differential test of the game variants against pokerkit 0.7.7.

Pot-Limit Omaha (``PotLimitOmahaHoldem``, 004 #54 pot limit) and split-limit
Hold'em (``FixedLimitTexasHoldem``, 000 Einsätze 2 / Aktionen 3) are played
on seeded random tables, action by action in both engines: the player to
act, the call amount, the minimum and maximum raise-to must agree at every
step, and the final stacks at the end. Same automations and the same
documented differences as the NLHE differential
(``test_differential_pokerkit``): pokerkit burns a side pot nobody left can
win, and merges pots before splitting them (odd chips).

``Rules.pokerkit()`` is used for the exact comparison: in split limit it
reads the cap as four raises on top of the big blind and never lifts it
heads-up (our default follows 000 Aktionen 3; see test_variants.py).
ENGINE_VARIANT_DIFF_HANDS (default 300) hands per game.
"""

from __future__ import annotations

import os
import random
import warnings

from pokerkit import (
    BoardDealing,
    FixedLimitTexasHoldem,
    HoleDealing,
    Mode,
    PotLimitOmahaHoldem,
)

from poker.hand import HandSpec, HandState, Rules, SeatSpec, hand_strength
from poker.hand.pots import build_pots, split_amount

from .test_differential_pokerkit import AUTOMATIONS, choose, our_legal, pk_legal, random_setup

HANDS = int(os.environ.get("ENGINE_VARIANT_DIFF_HANDS", "300"))
SEED = 20241121


def pokerkit_style_final(state: HandState) -> tuple[int, ...]:
    """pokerkit's showdown (losing hands killed, pots rebuilt and merged,
    then split) recomputed from our state, game-aware."""
    game = state.spec.game
    before = list(state.final_stacks)
    for award in state.awards:
        before[award.position] -= award.amount
    strength = {
        p: hand_strength(state.hole_cards[p], state.board, game) for p in range(len(before)) if not state.folded[p]
    }
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


def create(game: str, setup: dict):
    n = setup["n"]
    if game == "plo":
        return PotLimitOmahaHoldem.create_state(
            AUTOMATIONS,
            setup["trimming"],
            setup["antes"],
            setup["blinds"],
            setup["min_bet"],
            setup["stacks"],
            n,
            mode=Mode.CASH_GAME,
        )
    return FixedLimitTexasHoldem.create_state(
        AUTOMATIONS,
        setup["trimming"],
        setup["antes"],
        setup["blinds"],
        setup["min_bet"],
        2 * setup["min_bet"],
        setup["stacks"],
        n,
        mode=Mode.CASH_GAME,
    )


def play_hand(game: str, rng: random.Random, setup: dict, stats: dict) -> None:
    n = setup["n"]
    pk = create(game, setup)
    spec = HandSpec(
        seats=tuple(SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(setup["stacks"])),
        blinds_or_straddles=setup["blinds"],
        antes=setup["antes"],
        min_bet=setup["min_bet"],
        ante_trimming=setup["trimming"],
        rules=Rules.pokerkit(),
        game=game,
        big_bet=2 * setup["min_bet"] if game == "limit_holdem" else None,
    )
    state = HandState.start(spec)
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
            assert ours == theirs, (game, setup, state.history, ours, theirs)
            legal = state.legal()
            if not legal.can_bet_or_raise and legal.raise_blocked_by == "raise_cap":
                stats["capped"] += 1
            kind, to = choose(rng, legal)
            seat = state.to_act_seat
            if kind == "fold":
                pk.fold()
                state = state.fold(seat)
            elif kind == "cc":
                pk.check_or_call()
                state = state.apply({"type": "call" if legal.call_amount else "check", "seat": seat})
            else:
                pk.complete_bet_or_raise_to(to)
                state = state.bet_or_raise(seat, to)
                stats["pot_sized"] += game == "plo" and to == legal.max_raise_to > legal.min_raise_to
        elif state.phase == "board":
            board = [repr(c) for op in pk.operations if isinstance(op, BoardDealing) for c in op.cards]
            have = len(state.board)
            state = state.deal_board("".join(board[have : have + state.board_cards_due]))
        else:
            raise AssertionError(f"unexpected phase {state.phase}: {state.history}")
    assert not pk.status
    burned = sum(setup["stacks"]) - sum(pk.stacks)
    if burned:
        extra = [a - b for a, b in zip(state.final_stacks, pk.stacks)]
        assert min(extra) >= 0 and sum(extra) == burned, (setup, state.history)
        stats["pokerkit_burned"] += 1
    elif state.final_stacks != tuple(pk.stacks):
        assert pokerkit_style_final(state) == tuple(pk.stacks), (setup, state.history, state.final_stacks, pk.stacks)
        stats["odd_chip_merges"] += 1
    assert sum(state.final_stacks) == sum(setup["stacks"])
    stats["hands"] += 1
    stats["showdowns"] += state.folded.count(False) > 1


def run(game: str, count: int, seed: int) -> dict:
    rng = random.Random(seed)
    stats = {"hands": 0, "showdowns": 0, "capped": 0, "pot_sized": 0, "odd_chip_merges": 0, "pokerkit_burned": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(count):
            random.seed(seed * 7919 + k)  # pokerkit shuffles with the global RNG
            play_hand(game, rng, random_setup(rng, allow_straddle=False), stats)
    return stats


def test_differential_pot_limit_omaha_004_54():
    stats = run("plo", HANDS, SEED)
    print("PLO:", stats)
    assert stats["hands"] == HANDS
    assert stats["showdowns"] > HANDS // 10
    assert stats["pot_sized"] > 0


def test_differential_split_limit_holdem_000_aktionen_3():
    stats = run("limit_holdem", HANDS, SEED + 1)
    print("FT:", stats)
    assert stats["hands"] == HANDS
    assert stats["showdowns"] > HANDS // 10
    assert stats["capped"] > 0
