"""The guided procedures the dealer finishes at the table, and the questions the tablet never asks
(issue 24, "What a dealer and a floor person expect"): an exposed card and a misdeal before
substantial action end at the table as each rulebook says (000 Allgemein 9, 001 6.25, 003
"Miss-Deal", 004 #35); is the flop out and how many actions were taken are read from the hand."""

from __future__ import annotations

import pytest

from poker.floor.procedures import HandFacts, Outcome, Step, for_hand, get_procedure, procedures_for, walk
from poker.houserules import PROFILES, get_profile

PREFLOP = HandFacts("preflop", ())


def _labels(outcome: Outcome) -> list[str]:
    return [c.label for c in outcome.citations]


@pytest.mark.parametrize(
    ("slug", "answers", "cited"),
    [
        ("munotpoker", ["two_exposed"], "004 #35"),
        ("nlhe", ["two_exposed"], "003 Miss-Deal"),
        ("casino-cash", ["exposed"], "000 Allgemein 9"),
        ("tda-2024", ["two_exposed"], "TDA 2024 Rule 35"),
    ],
)
def test_a_misdeal_before_any_action_is_finished_by_the_dealer(slug, answers, cited):
    outcome = walk(get_profile(slug), "misdeal", answers, PREFLOP)
    assert isinstance(outcome, Outcome)
    assert outcome.dealer_finishes
    assert {"type": "misdeal"} in outcome.corrections
    assert cited in _labels(outcome)


@pytest.mark.parametrize(
    ("slug", "cited"),
    [("munotpoker", "004 #35"), ("nlhe", "003 Miss-Deal"), ("wynental", "001 6.25"), ("tda-2024", "TDA 2024 Rule 35")],
)
def test_one_card_exposed_by_the_dealer_is_replaced_at_the_table(slug, cited):
    outcome = walk(get_profile(slug), "exposed_card", ["deal", "one"], PREFLOP)
    assert isinstance(outcome, Outcome) and outcome.dealer_finishes
    assert outcome.corrections == ()
    assert "replaced" in outcome.summary_en and cited in _labels(outcome)


def test_000_an_exposed_first_card_is_a_misdeal_the_croupier_declares():
    outcome = walk(get_profile("casino-cash"), "exposed_card", ["deal", "one"], PREFLOP)
    assert outcome.dealer_finishes and {"type": "misdeal"} in outcome.corrections
    assert "000 Allgemein 9" in _labels(outcome)


def test_001_a_card_exposed_later_becomes_the_burn_card_at_the_table():
    outcome = walk(get_profile("wynental"), "exposed_card", ["deck"], HandFacts("flop", ("check",)))
    assert outcome.dealer_finishes and "001 6.25" in _labels(outcome)


@pytest.mark.parametrize("slug", sorted(PROFILES))
def test_what_the_floor_decides_still_goes_to_the_floor(slug):
    profile = get_profile(slug)
    # "Something else" is the floor's discretion in every rulebook
    assert not walk(profile, "misdeal", ["other"], PREFLOP).dealer_finishes
    # a player who exposes his own card may be penalised: the floor's
    first = walk(profile, "exposed_card", ["player"], PREFLOP)
    assert isinstance(first, Step) or not first.dealer_finishes
    if profile.rulebook == "wynental":
        return  # 001 knows no misdeal: its only cause, an exposed card, is replaced (001 6.25)
    # after substantial action the misdeal is too late: the hand is played on or a hand killed by the floor
    late = walk(
        profile,
        "misdeal",
        [walk(profile, "misdeal", [], PREFLOP).options[0].key],
        HandFacts("preflop", ("call", "call", "fold")),
    )
    assert isinstance(late, Outcome)
    assert not late.dealer_finishes
    assert {"type": "misdeal"} not in late.corrections


def test_001_has_no_misdeal_of_its_own_the_dealer_calls_the_floorman():
    outcome = walk(get_profile("wynental"), "exposed_card", ["player"], PREFLOP)
    assert not outcome.dealer_finishes


# ---------------------------------------------------------------- the questions the hand answers


@pytest.mark.parametrize("slug", sorted(PROFILES))
@pytest.mark.parametrize(
    "facts",
    [PREFLOP, HandFacts("preflop", ("fold", "call")), HandFacts("flop", ("call", "check")), HandFacts("third", ())],
)
def test_no_step_asks_what_the_hand_knows(slug, facts):
    for proc in procedures_for(get_profile(slug)):
        pruned = for_hand(proc, facts)
        for step in pruned.steps.values():
            assert step.question_en not in (
                "Is the flop already out?",
                "Which actions have been taken since the deal (blinds not counted)?",
            ), (slug, proc.key)
            for option in step.options:
                if isinstance(option.next, str):
                    assert option.next in pruned.steps  # nothing leads to a dropped question


def test_before_the_tablet_knew_the_hand_the_dealer_was_asked_about_the_flop():
    # without the hand's facts the flop question still comes (the floor pages, between hands)
    step = walk(get_profile("munotpoker"), "misdeal", ["two_exposed"])
    assert isinstance(step, Step) and step.question_en == "Is the flop already out?"


@pytest.mark.parametrize(
    ("actions", "misdeal"),
    [
        ((), True),
        (("fold",), True),
        (("fold", "fold"), True),  # two folds are not substantial action (004 #36)
        (("fold", "call"), False),
        (("fold", "fold", "fold"), False),
    ],
)
def test_004_the_actions_taken_decide_the_misdeal(actions, misdeal):
    outcome = walk(get_profile("munotpoker"), "misdeal", ["two_exposed"], HandFacts("preflop", actions))
    assert isinstance(outcome, Outcome)
    assert ({"type": "misdeal"} in outcome.corrections) is misdeal
    assert outcome.dealer_finishes is misdeal


def test_000_two_active_actions_end_the_misdeal_and_the_flop_too():
    profile = get_profile("casino-cash")
    two_folds = walk(profile, "misdeal", ["extra_cards"], HandFacts("preflop", ("fold", "fold")))
    assert {"type": "misdeal"} not in two_folds.corrections  # 000: any two active actions
    after_flop = walk(profile, "misdeal", ["extra_cards"], HandFacts("flop", ()))
    assert {"type": "misdeal"} not in after_flop.corrections  # "nach dem Flop nicht mehr"


def test_the_pruned_tree_serialises_with_dealer_finishes():
    data = for_hand(get_procedure(get_profile("nlhe"), "misdeal"), PREFLOP).to_dict()
    nxt = next(o["next"] for o in data["steps"]["cause"]["options"] if o["key"] == "two_exposed")
    assert nxt["kind"] == "outcome" and nxt["dealer_finishes"] is True


# ---------------------------------------------------------------- 004 #60: whose turn it is is the tablet's


def test_stack_count_asks_only_who_asks():
    proc = for_hand(get_procedure(get_profile("munotpoker"), "stack_count"), HandFacts("flop", (), 7, True))
    questions = [s.question_en for s in proc.steps.values()]
    assert questions == ["Who asks for the count?"]
    assert "Is it the player's turn to act?" not in questions
    assert "Does the asking player face an all-in bet?" not in questions


@pytest.mark.parametrize(("facing", "exact"), [(True, True), (False, False)])
def test_stack_count_the_player_to_act_gets_an_exact_count_only_facing_an_all_in(facing, exact):
    profile = get_profile("munotpoker")
    facts = HandFacts("turn", ("bet", "all-in"), 3, facing)
    to_act = walk(profile, "stack_count", ["to_act"], facts)
    other = walk(profile, "stack_count", ["other"], facts)
    full = walk(profile, "stack_count", ["yes", "yes"])  # 004 #60: facing an all-in, his turn
    estimate = walk(profile, "stack_count", ["no"])
    assert (to_act == full) is exact and (to_act == estimate) is not exact
    assert other == estimate


def test_stack_count_question_in_german():
    step = for_hand(get_procedure(get_profile("munotpoker"), "stack_count"), HandFacts("flop", (), 7, True)).steps[
        "who"
    ]
    assert step.question_de == "Wer verlangt die Zählung?"
    assert [o.label_de for o in step.options] == ["Der Spieler, der an der Reihe ist", "Ein anderer Spieler"]
