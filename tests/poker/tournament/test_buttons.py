"""Button and blinds: dead button (001 6.10) vs no dead button (004 #32),
heads-up (001 Heads up, 004 #34), first button (001 Dealerbutton, 004 #75)."""

import random

import pytest

from poker.rulebooks import cite
from poker.tournament.buttons import Positions, draw_button, first_hand_positions, next_positions
from poker.tournament.rules import MUNOT, WYNENTAL


def test_wynental_6_10_big_blind_busts_no_small_blind_and_button_stays():
    """001 6.10: "dass der Button nicht weitergeht und zweimal an derselben Position bleibt
    (wenn der Big Blind ausscheidet). In der folgenden Spielrunde gibt es ausnahmsweise keinen
    Small Blind." -- the specific rule wins over the general "Dealerbutton" paragraph."""
    prev = Positions(button=1, small_blind=2, big_blind=3)
    hand2 = next_positions(prev, [1, 2, 4, 5], WYNENTAL)  # seat 3 (the big blind) busted
    # The button stays on seat 1, seat 2 posts no small blind, seat 4 posts the big blind.
    assert (hand2.button, hand2.small_blind, hand2.big_blind) == (1, 2, 4)
    assert hand2.dead_small_blind and not hand2.dead_button and hand2.last_to_act == 1
    assert hand2.rules == (cite("001 6.10"),)
    hand3 = next_positions(hand2, [1, 2, 4, 5], WYNENTAL)
    # Then on as usual: the button to seat 2, the small blind to the last big blind.
    assert (hand3.button, hand3.small_blind, hand3.big_blind) == (2, 4, 5)
    assert not hand3.dead_button and not hand3.dead_small_blind
    assert hand3.rule == cite("001 Dealerbutton")


def test_tda_32_big_blind_busts_the_button_moves_on_to_the_small_blind():
    """Without 001 6.10 (TDA 32 dead button) the button goes to last hand's small blind."""
    from dataclasses import replace

    from poker.houserules import get_profile

    tda_like = replace(WYNENTAL, rulebook="tda-2024")
    assert get_profile("tda-2024").button_rule == "dead_button" and tda_like.house.slug == "tda-2024"
    prev = Positions(button=1, small_blind=2, big_blind=3)
    hand2 = next_positions(prev, [1, 2, 4, 5], tda_like)
    assert (hand2.button, hand2.small_blind, hand2.big_blind) == (2, 3, 4)
    assert hand2.dead_small_blind and not hand2.dead_button


def test_wynental_dealerbutton_small_blind_busts_dead_button():
    """001 Dealerbutton: the button goes to last hand's small blind -- here
    an empty seat, so the button is dead; the big blind still moves on."""
    prev = Positions(button=1, small_blind=2, big_blind=3)
    nxt = next_positions(prev, [1, 3, 4, 5], WYNENTAL)
    assert (nxt.button, nxt.small_blind, nxt.big_blind) == (2, 3, 4)
    assert nxt.dead_button and nxt.last_to_act == 1 and nxt.rule == cite("001 Dealerbutton")


def test_munot_32_no_dead_button_button_moves_to_next_player():
    """004 #32: "kann es keinen sogenannten toten Button geben"."""
    prev = Positions(button=1, small_blind=2, big_blind=3)
    nxt = next_positions(prev, [1, 3, 4, 5], MUNOT)  # small blind (seat 2) busted
    assert (nxt.button, nxt.small_blind, nxt.big_blind) == (3, 4, 5)
    assert not nxt.dead_button and nxt.rule == cite("004 #32")
    nxt = next_positions(prev, [1, 2, 4, 5], MUNOT)  # big blind (seat 3) busted
    assert (nxt.button, nxt.small_blind, nxt.big_blind) == (2, 4, 5)


def test_wynental_heads_up_button_posts_small_blind():
    """001 Heads up: "bezahlt der Spieler, der den Dealer-Button hat, den Small Blind"."""
    prev = Positions(button=1, small_blind=4, big_blind=6)
    nxt = next_positions(prev, [4, 6], WYNENTAL)  # seat 1 busted: heads-up
    assert nxt.heads_up and nxt.button == nxt.small_blind == 6 and nxt.big_blind == 4
    assert nxt.rule == cite("001 Heads up")


def test_munot_34_heads_up_nobody_posts_big_blind_twice():
    """004 #34: the previous big blind does not post it again, "auch wenn der
    vorherige Small-Blind jetzt zum Button würde"."""
    prev = Positions(button=1, small_blind=2, big_blind=3)
    nxt = next_positions(prev, [2, 3], MUNOT)  # button busted
    assert nxt.big_blind == 2 and nxt.button == nxt.small_blind == 3
    assert nxt.rule == cite("004 #34")
    again = next_positions(nxt, [2, 3], MUNOT)
    assert again.big_blind == 3 and again.button == 2


def test_wynental_dealerbutton_first_button_by_draw():
    """001 Dealerbutton: "In der ersten Runde wird der Dealer mittels Platzkarte bestimmt"."""
    seats = [2, 4, 5, 9]
    drawn = {draw_button(seats, WYNENTAL, random.Random(i))[0] for i in range(40)}
    assert drawn == set(seats)
    with pytest.raises(ValueError):
        draw_button(seats, WYNENTAL)


def test_munot_75_first_button_on_seat_one():
    """004 #75: "immer auf Platz 1 der Tische und wird nie ausgelost"."""
    assert draw_button([1, 3, 7], MUNOT) == (1, cite("004 #75"))
    pos = first_hand_positions(1, [1, 3, 7], MUNOT)
    assert (pos.button, pos.small_blind, pos.big_blind) == (1, 3, 7)
    assert first_hand_positions(3, [3, 7], MUNOT).small_blind == 3  # heads-up


@pytest.mark.parametrize("rules", [WYNENTAL, MUNOT], ids=["wynental", "munot"])
def test_property_random_busts_keep_positions_valid(rules):
    """Over random bust sequences: the big blind is always a player, blinds
    differ, and under dead button the big blind never skips a player."""
    for seed in range(200):
        rng = random.Random(seed)
        occupied = sorted(rng.sample(range(1, 11), rng.randint(3, 10)))
        pos = first_hand_positions(rng.choice(occupied), occupied, rules)
        while len(occupied) > 2:
            if rng.random() < 0.4:
                occupied.remove(rng.choice(occupied))
            before = pos
            pos = next_positions(pos, occupied, rules)
            assert pos.big_blind in occupied
            assert pos.big_blind != pos.small_blind
            if pos.heads_up:
                assert pos.button == pos.small_blind and pos.button in occupied
                assert pos.big_blind != before.big_blind or before.big_blind not in occupied
            elif rules.button_mode == "moving_button":
                assert pos.button in occupied and pos.small_blind in occupied and not pos.dead_button
            else:
                later = [s for s in occupied if s > before.big_blind] or occupied
                assert pos.big_blind == later[0]  # the big blind moves one player forward
                assert pos.dead_button == (pos.button not in occupied)
