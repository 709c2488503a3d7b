"""Issue 27, findings 1-5: real online hand files the PHH reader must take.

1. ``pN sm ????``: a player shows without his cards being recorded (all-in
   run-outs of online histories write it on every street);
2. the winnings check after a show that follows a hand won uncontested;
3. posts (a negative ``blinds_or_straddles`` value, pokerkit's "post bet");
4. (the command's result lines, tests/tables/test_replay_phh_findings.py);
5. recorded winnings that are all zero are said to be missing, not a rake.

The hands are small PHH texts written for these tests in the shape of the
HandHQ online histories (unknown hole cards but the hero's, ``winnings``).
"""

from __future__ import annotations

import warnings

import pokerkit
import pytest

from poker.hand.phh import export_phh, load_phh, replay

# Villain p2 all-in preflop for 2,000 against the hero p3 (AhKh); neither
# shows his cards on any street (``sm ????``), p2 collected the pot.
RUNOUT_UNKNOWN = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [25, 50, 0]
min_bet = 50
starting_stacks = [5000, 2000, 3000]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 AhKh", "p3 cbr 3000", "p1 f", "p2 cc",
  "p2 sm ????", "p3 sm ????", "d db 2c7d9s", "p2 sm ????", "p3 sm ????", "d db Qc",
  "p2 sm ????", "p3 sm ????", "d db 3s", "p2 sm ????", "p3 sm ????"]
winnings = [0, 4025, 0]
"""

# The same all-in, the run-out shows unknown, then both show at the end:
# p2's eights beat ace-king; the record has finishing stacks only.
RUNOUT_THEN_SHOWN = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [25, 50, 0]
min_bet = 50
starting_stacks = [5000, 2000, 3000]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 AhKh", "p3 cbr 3000", "p1 f", "p2 cc",
  "p2 sm ????", "p3 sm ????", "d db 2c7d9s", "p2 sm ????", "p3 sm ????", "d db Qc",
  "p2 sm ????", "p3 sm ????", "d db 3s", "p2 sm 8c8d", "p3 sm AhKh"]
finishing_stacks = [4975, 4025, 1000]
"""


def pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, last = pokerkit.HandHistory.loads(text)
    return list(last.stacks)


def test_finding_1_a_show_of_unknown_cards_on_every_street_replays_to_the_recorded_winnings():
    result = replay(RUNOUT_UNKNOWN)
    assert result.ok, result.error
    assert result.actual == (4975, 4025, 1000)
    assert result.checked == ("winnings",)
    # who won is not in the cards: the pot went as the recorded winnings say, and the result says so
    assert result.unchecked == ("who won pot 0: hole cards unknown, awarded as the recorded winnings say",)
    # the hero's known cards stay his (a show of "????" hides, it does not muck)
    assert result.state.hole_cards[2] == ("Ah", "Kh") and not result.state.mucked[2]


def test_finding_1_unknown_shows_then_real_shows_decide_the_pot_as_pokerkit_does():
    result = replay(RUNOUT_THEN_SHOWN)
    assert result.ok, result.error
    assert result.actual == (4975, 4025, 1000) == tuple(pokerkit_stacks(RUNOUT_THEN_SHOWN))
    assert result.state.shown[1] and result.state.hole_cards[1] == ("8c", "8d")


def test_finding_1_a_show_of_unknown_cards_is_still_checked_like_a_show():
    # a show before the betting is over is refused with the engine's code, unknown cards or not
    early = RUNOUT_UNKNOWN.replace('"p1 f", "p2 cc",', '"p2 sm ????", "p1 f", "p2 cc",')
    result = replay(early)
    assert not result.ok and result.error_code == "wrong_phase", result.error
    # and a folded player cannot show
    folded = RUNOUT_UNKNOWN.replace('"p2 sm ????", "p3 sm ????", "d db 2c7d9s"', '"p1 sm ????", "d db 2c7d9s"')
    result = replay(folded)
    assert not result.ok and result.error_code == "folded", result.error


def test_finding_1_a_partly_known_show_completes_from_the_entered_cards():
    text = RUNOUT_THEN_SHOWN.replace('"p3 sm AhKh"', '"p3 sm Ah??"')
    result = replay(text)
    assert result.ok, result.error
    assert result.state.shown[2] and result.state.hole_cards[2] == ("Ah", "Kh")


# p4 raises to 25, everyone folds, p4 shows his bluff; online histories
# count the 10 chips of the raise that the big blind matched as collected.
SHOW_AFTER_FOLDS = """variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [5, 10, 0, 0]
min_bet = 10
starting_stacks = [500, 500, 500, 500]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 4d3c",
  "p3 f", "p4 cbr 25", "p1 f", "p2 f", "p4 sm 4d3c"]
winnings = [0, 0, 0, 25]
"""


def test_finding_2_a_show_after_an_uncontested_win_keeps_the_winnings_check_on_the_last_fold():
    result = replay(SHOW_AFTER_FOLDS)
    assert result.ok, result.error
    assert result.actual == (495, 490, 500, 515) == tuple(pokerkit_stacks(SHOW_AFTER_FOLDS))
    assert result.checked == ("winnings",)
    assert result.state.shown[3]
    # without the show the same hand was already right: the show changes nothing
    assert replay(SHOW_AFTER_FOLDS.replace(', "p4 sm 4d3c"', "")).ok


def post_hand(blinds: str, actions: str, extra: str = "") -> str:
    return (
        'variant = "NT"\nantes = [0, 0, 0, 0]\n'
        f"blinds_or_straddles = {blinds}\nmin_bet = 2\n"
        "starting_stacks = [100, 100, 100, 100]\n"
        f'actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", {actions}]\n{extra}'
    )


def test_finding_3_a_post_of_the_big_blind_is_a_live_post_as_pokerkit_reads_it():
    """pokerkit: a negative value is a "post bet", posted by a player who
    joins without waiting for the big blind (000 Einsaetze 4: the live post):
    it does not move the action, the poster may check his option."""
    text = post_hand(
        "[1, 2, 0, -2]",
        '"p3 cc", "p4 cc", "p1 cc", "p2 cc", "d db 2c7d9s", "p1 cbr 8", "p2 f", "p3 f", "p4 f"',
    )
    hand = load_phh(text)
    assert hand.spec().posts == ((4, 2),)
    result = replay(text)
    assert result.ok, result.error
    assert result.actual == (106, 98, 98, 98) == tuple(pokerkit_stacks(text))
    assert result.state.history[5].to_dict() == {"type": "check", "seat": 4}  # his option, unraised


def test_finding_3_a_post_above_the_big_blind_is_the_big_blind_live_and_the_rest_dead():
    """A returning player posts small and big blind (3 at 1/2): 2 live, 1
    dead in the pot; the others call the big blind, not 3 (pokerkit reads
    every chip of a post as live and would make them call 3)."""
    text = post_hand(
        "[1, 2, 0, -3]",
        '"p3 f", "p4 cc", "p1 cc", "p2 cc", "d db 2c7d9s", "p1 cbr 8", "p2 f", "p4 f"',
    )
    spec = load_phh(text).spec()
    assert spec.posts == ((4, 2),) and spec.antes == (0, 0, 0, 1)
    result = replay(text)
    assert result.ok, result.error
    # the pot: 2 + 2 + 2 live and the 1 dead chip
    assert result.actual == (105, 98, 100, 97)
    # the hand exports and imports back to the same spec and stacks
    again = replay(export_phh(result.state.spec, result.state.history))
    assert again.ok and again.actual == result.actual and again.state.spec == result.state.spec


def test_finding_3_a_post_that_cannot_be_taken_is_refused_with_a_code():
    # a post by a blind is not a post
    result = replay(post_hand("[-1, 2, 0, 0]", '"p3 f"'))
    assert not result.ok and result.error_code == "bad_spec"
    assert "post" in result.error and "p1" in result.error


def test_finding_5_winnings_that_are_all_zero_are_said_to_be_missing_not_a_rake():
    text = SHOW_AFTER_FOLDS.replace("winnings = [0, 0, 0, 25]", "winnings = [0, 0, 0, 0]")
    result = replay(text)
    assert not result.ok and result.error_code == "mismatch"
    assert "rake" not in result.error
    assert "all zero" in result.error and "who won" in result.error
    # a real rake is still named
    raked = replay(SHOW_AFTER_FOLDS.replace("winnings = [0, 0, 0, 25]", "winnings = [0, 0, 0, 24]"))
    assert not raked.ok and "rake" in raked.error


@pytest.mark.parametrize("text", [RUNOUT_UNKNOWN, RUNOUT_THEN_SHOWN, SHOW_AFTER_FOLDS])
def test_the_new_hands_export_and_import_back(text):
    result = replay(text)
    exported = export_phh(result.state.spec, result.state.history)
    again = replay(load_phh(exported))
    assert again.actual == result.actual
    assert again.state.awards == result.state.awards
