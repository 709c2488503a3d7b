"""A PHH hand's spec made the fast way (``HandSpec._plain``, issue 27 replay speed) is the spec the
ordinary constructor makes, its derived values included; what is not plain goes the ordinary way and
is refused as before."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from poker.hand import EngineError, HandSpec, Rules, SeatSpec
from poker.hand.phh import VARIANTS, load_phh

PHH_ROOT = Path(__file__).resolve().parents[3].parent / "shared" / "phh"
FILES = sorted(PHH_ROOT.rglob("*.phh"))


def ordinary_spec(hand, rules: Rules | None = None) -> HandSpec:
    names, seats = hand.names_and_seats()
    return HandSpec(
        seats=tuple(map(SeatSpec, seats, names, hand.starting_stacks)),
        blinds_or_straddles=hand.blinds_or_straddles,
        antes=hand.antes,
        min_bet=hand.min_bet,
        ante_trimming=hand.ante_trimming_status,
        rules=Rules() if rules is None else rules,
        game=VARIANTS[hand.variant],
    )


@pytest.mark.parametrize("rules", [None, Rules.pokerkit()])
def test_every_corpus_hands_spec_is_the_ordinary_one(rules):
    plain = 0
    for path in FILES:
        hand = load_phh(path.read_text(encoding="utf-8"))
        fast, slow = hand.spec(rules), ordinary_spec(hand, rules)
        assert fast == slow, path
        assert vars(fast) == vars(slow), path  # the derived values too
        names, seats = hand.names_and_seats()
        made = HandSpec.from_plain_phh(
            seats,
            names,
            hand.starting_stacks,
            hand.blinds_or_straddles,
            hand.antes,
            hand.min_bet,
            hand.ante_trimming_status,
            Rules() if rules is None else rules,
            VARIANTS[hand.variant],
        )
        plain += made is not None
    assert plain == len(FILES) == 200


def test_a_spec_that_is_not_plain_is_refused_as_before():
    hand = load_phh(FILES[0].read_text(encoding="utf-8"))
    n = hand.player_count
    cases = {
        "A table seat number appears twice": {"seats": (1,) * n},
        "stack must be a positive int": {"starting_stacks": (0,) * n},
        "min_bet must be a positive int": {"min_bet": 0},
        "antes must be non-negative integer chips": {"antes": (-1,) * n},
    }
    for message, change in cases.items():
        bad = dataclasses.replace(hand, **change)
        names, seats = bad.names_and_seats()
        args = (bad.blinds_or_straddles, bad.antes, bad.min_bet, False, Rules(), "nlhe")
        assert HandSpec.from_plain_phh(seats, names, bad.starting_stacks, *args) is None
        with pytest.raises(EngineError, match=message):
            bad.spec()


def test_a_hand_with_an_exported_field_goes_the_ordinary_way():
    hand = load_phh(FILES[0].read_text(encoding="utf-8"))
    spec = dataclasses.replace(hand, extra={**hand.extra, "_button_seat": 9}).spec()
    assert spec.button_seat == 9
    assert dataclasses.replace(spec, button_seat=None) == hand.spec()
