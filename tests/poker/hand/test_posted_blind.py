"""The big blind posted after a seat change is a live post (000 Einsätze 4).

000 Einsätze 4 "Blinds": "Entfernt sich ein Spielteilnehmer durch einen
Platzwechsel um zwei oder mehr (mit aktiven Spielteilnehmern besetzten)
Plätze im Uhrzeigersinn vom Button weg, muss er das Big Blind bringen. In
Pot Limit-Varianten zählt das nachgebrachte Blind zum Pot."

Unlike a straddle the post does not move the preflop action (under the gun
acts first), does not raise the amount to call, and the poster has the
option to check when the action comes back to him unraised.

Table used below unless said otherwise: six players, seats 1-6, button
seat 6: seat 1 small blind 50, seat 2 big blind 100, seat 3 under the gun,
seat 5 (UTG+2) posts the big blind it owes.
"""

from __future__ import annotations

import dataclasses

import pytest

from poker.hand import EngineError, HandSpec, HandState, SeatSpec
from poker.hand.phh import export_phh, load_phh, replay


def seats(*stacks):
    return [SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(stacks)]


def spec_with_posts(stacks=(1000,) * 6, posts=((5, 100),), **kw):
    spec = HandSpec.standard(seats(*stacks), len(stacks), 50, 100, **kw)
    return dataclasses.replace(spec, posts=posts)


def start(**kw):
    return HandState.start(spec_with_posts(**kw))


def bad_spec(**kw):
    with pytest.raises(EngineError) as info:
        spec_with_posts(**kw)
    assert info.value.code == "bad_spec"
    return info.value.message


def test_einsaetze_4_post_keeps_under_the_gun_first_and_the_big_blind_to_call():
    s = start()
    assert s.bets == (50, 100, 0, 0, 100, 0)
    assert s.stacks[4] == 900  # the post is taken from the stack like a blind
    legal = s.legal()
    assert (legal.seat, legal.call_amount, legal.min_raise_to) == (3, 100, 200)
    order = []
    for _ in range(6):
        order.append(s.to_act_seat)
        s = s.call(s.to_act_seat) if s.legal().call_amount else s.check(s.to_act_seat)
    assert order == [3, 4, 5, 6, 1, 2]  # the poster acts in his turn, the big blind last
    assert s.phase == "board" and s.total_pot == 600


def test_einsaetze_4_a_straddle_would_move_the_action_the_post_does_not():
    straddled = HandState.start(HandSpec.standard(seats(*(1000,) * 6), 6, 50, 100, straddle=200))
    assert (straddled.to_act_seat, straddled.legal().call_amount) == (4, 200)
    posted = start(posts=((3, 100),))  # under the gun himself owes the big blind
    legal = posted.legal()
    assert (legal.seat, legal.can_check, legal.call_amount, legal.min_raise_to) == (3, True, 0, 200)


def test_einsaetze_4_poster_has_the_option_to_check_when_unraised():
    s = start().call(3).call(4)
    legal = s.legal()
    assert legal.seat == 5 and legal.can_check and legal.call_amount == 0
    assert legal.can_bet_or_raise and legal.min_raise_to == 200
    s = s.check(5).fold(6).call(1).check(2)
    assert s.phase == "board" and s.total_pot == 500
    # or he raises his option: the post counts as his first 100
    r = start().call(3).call(4).bet_or_raise(5, 300)
    assert r.stacks[4] == 700 and r.bets[4] == 300


def test_einsaetze_4_after_a_raise_the_poster_calls_only_the_difference():
    s = start().bet_or_raise(3, 300).fold(4)
    legal = s.legal()
    assert legal.seat == 5 and legal.call_amount == 200
    s = s.call(5)
    assert s.bets[4] == 300 and s.stacks[4] == 700


def test_einsaetze_4_folded_post_stays_in_the_pot():
    s = start().fold(3).fold(4).fold(5).fold(6).fold(1)
    assert s.is_complete
    assert s.final_stacks == (950, 1150, 1000, 1000, 900, 1000)  # the big blind wins blinds and post


def test_einsaetze_4_a_short_stack_posts_all_in():
    s = start(stacks=(1000, 1000, 1000, 1000, 60, 1000))
    assert s.bets[4] == 60 and s.stacks[4] == 0 and s.all_in[4]
    assert s.to_act_seat == 3 and s.legal().call_amount == 100
    order = []
    while s.phase == "betting":
        order.append(s.to_act_seat)
        s = s.call(s.to_act_seat) if s.legal().call_amount else s.check(s.to_act_seat)
    assert 5 not in order  # all-in by the post: he is not asked to act
    assert [p.amount for p in s.pots] == [360, 200]  # main pot 6 x 60, side pot 5 x 40


def test_einsaetze_4_post_is_taken_after_the_ante():
    s = start(stacks=(1000, 1000, 1000, 1000, 60, 1000), ante=10)
    assert s.bets[4] == 50 and s.stacks[4] == 0


def test_einsaetze_4_pot_limit_counts_the_post_to_the_pot():
    plo = start(game="plo")
    # pot 50 + 100 + 100 (post) = 250; call 100 -> 350; raise to 100 + 350
    assert plo.legal().max_raise_to == 450
    plain = HandState.start(HandSpec.standard(seats(*(1000,) * 6), 6, 50, 100, game="plo"))
    assert plain.legal().max_raise_to == 350


def test_einsaetze_4_in_split_limit_the_post_is_not_a_raise():
    s = start(game="limit_holdem")  # cap: a bet (the big blind) and three raises
    s = s.bet_or_raise(3, 200).bet_or_raise(4, 300).bet_or_raise(5, 400)
    assert s.legal().raise_blocked_by == "raise_cap"


def test_einsaetze_4_posts_round_trip_and_older_dicts_load():
    spec = spec_with_posts(posts=((5, 100),))
    data = spec.to_dict()
    assert data["posts"] == [[5, 100]]
    assert HandSpec.from_dict(data) == spec
    plain = HandSpec.standard(seats(*(1000,) * 6), 6, 50, 100)
    assert "posts" not in plain.to_dict()  # specs without posts keep their stored form
    old = plain.to_dict()
    assert HandSpec.from_dict(old).posts == ()


@pytest.mark.parametrize(
    ("posts", "kw", "words"),
    [
        (((5, 0),), {}, "more than 0"),
        (((5, 200),), {}, "at most the big blind"),
        (((7, 100),), {}, "nobody is dealt in"),
        (((1, 100),), {}, "blind or straddle"),
        (((2, 100),), {}, "blind or straddle"),
        (((3, 100),), {"straddle": 200}, "blind or straddle"),
        (((5, 100), (5, 50)), {}, "twice"),
        (((5, "100"),), {}, "as ints"),
        ((5,), {}, "(seat, chips)"),
    ],
)
def test_einsaetze_4_invalid_posts_are_refused(posts, kw, words):
    assert words in bad_spec(posts=posts, **kw)


def test_einsaetze_4_no_post_in_a_bomb_pot():
    assert "bomb pot" in bad_spec(bomb_pot=100)


def test_einsaetze_4_phh_export_writes_posts_as_a_user_field_and_replays():
    s = start()
    for seat in (3, 4):
        s = s.call(seat)
    s = s.check(5).fold(6).fold(1).check(2)
    for cards in ("2c3d4h", "9s", "Td"):
        s = s.deal_board(cards)
        while s.phase == "betting":
            s = s.check(s.to_act_seat)
    text = export_phh(s.spec, s.history)
    assert "_posts = [[5, 100]]" in text
    assert "blinds_or_straddles = [50, 100, 0, 0, 0, 0]" in text
    hand = load_phh(text)
    assert hand.spec() == s.spec
    assert replay(hand).state.to_dict() == s.to_dict()
