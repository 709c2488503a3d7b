"""``can``/``verify`` of a betting action check it without building the next state, and say what
``apply`` would: random hold'em, Omaha, limit and stud hands, every betting action at every turn
(issue 25: checking an action does not apply it and throw it away)."""

from __future__ import annotations

import random

import pytest

from poker.hand import EngineError, HandSpec, HandState, Rules, SeatSpec, StudSpec
from poker.hand.cards import RANKS, SUITS

DECK = [r + s for r in RANKS for s in SUITS]


def _spec(game: str, rng: random.Random):
    seats = [SeatSpec(i + 1, f"p{i + 1}", rng.choice([150, 400, 1000, 2500])) for i in range(rng.randint(2, 6))]
    if game == "stud":
        return StudSpec.standard(seats, dealer=1, ante=5, bring_in=10, small_bet=20, rules=Rules.pokerkit())
    big_bet = 100 if game == "limit_holdem" else None
    return HandSpec.standard(seats, button=1, small_blind=25, big_blind=50, game=game, big_bet=big_bet)


def _deal(state: HandState, rng: random.Random) -> HandState:
    """The next street with cards drawn from what is left of the deck."""
    used = {c for cards in state.hole_cards for c in cards or ()} | set(state.board)
    deck = [c for c in DECK if c not in used]
    rng.shuffle(deck)
    if state.phase == "board":
        return state.apply({"type": "board", "cards": "".join(deck[: state.board_cards_due])})
    count = 3 if state.street_index < 0 else 1
    if state.community_due:
        return state.apply({"type": "deal", "community": deck[0]})
    cards = {s.seat: "".join(deck[k * count : (k + 1) * count]) for k, s in enumerate(state.spec.seats)}
    live = {s.seat: c for (p, s), c in zip(enumerate(state.spec.seats), cards.values()) if not state.folded[p]}
    return state.apply({"type": "deal", "cards": live})


def _candidates(state: HandState, seat: int) -> list[dict]:
    legal = state.legal()
    amounts = {0, 1, 10, 20, 40, 50, 99, 100, 150, 400, 1000}
    for value in (legal.min_raise_to, legal.max_raise_to):
        if value is not None:
            amounts |= {value - 1, value, value + 1}
    other = next(s.seat for s in state.spec.seats if s.seat != seat)
    actions = [
        {"type": kind, "seat": who} for kind in ("fold", "check", "call", "all_in", "bring_in") for who in (seat, other)
    ]
    actions += [
        {"type": kind, "seat": seat, "to": to} for kind in ("bet", "raise", "complete") for to in sorted(amounts)
    ]
    return actions + [{"type": "raise", "seat": seat, "to": "x"}, {"type": "fold", "seat": 99}]


def _no_copy(state: HandState) -> HandState:
    raise AssertionError("can/verify built a state")


def _applies(state: HandState, action: dict) -> str | None:
    try:
        state.apply(action)
    except EngineError as exc:
        return exc.code
    return None


@pytest.mark.parametrize("game", ["nlhe", "plo", "limit_holdem", "stud"])
def test_can_and_verify_say_what_apply_does_without_a_new_state(game, monkeypatch):
    rng = random.Random(f"can-{game}")
    for _ in range(40):
        state = HandState.start(_spec(game, rng))
        while state.phase != "complete":
            if state.phase in ("board", "deal"):
                state = _deal(state, rng)
                continue
            if state.phase == "showdown":
                break
            seat = state.to_act_seat
            candidates = _candidates(state, seat)
            original = HandState._copy
            monkeypatch.setattr(HandState, "_copy", _no_copy)
            verdicts = []
            for action in candidates:
                try:
                    state.verify(action)
                    verdicts.append((state.can(action), None))
                except EngineError as exc:
                    verdicts.append((state.can(action), exc.code))
            monkeypatch.setattr(HandState, "_copy", original)
            for action, (can, code) in zip(candidates, verdicts):
                assert code == _applies(state, action), (action, state.history)
                assert can == (code is None), action
            legal = [a for a, (can, _) in zip(candidates, verdicts) if can and a["seat"] == seat]
            state = state.apply(rng.choice(legal))
