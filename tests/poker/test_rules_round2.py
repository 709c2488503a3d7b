"""House rules the app did not model before: each test names the rulebook section it reproduces.

- 004 #54: pot limit, a short all-in before the flop counts as if it matched the blind;
- 001 6.10: when the big blind busts the button stays and there is no small blind;
- 003 "Ausserordentliche und ordentliche Handlungen der Spieler": absent players (blinds at the
  minimum, "Auto All-In");
- 000 Allgemein 9: a misdeal noticed after two active actions voids only the faulty hand;
- 002 #15-#17 and 004 #62: hidden chips at an all-in;
- 004 #59 and #60: premature declarations, counting a stack.
"""

from __future__ import annotations

import pytest

from poker.floor.procedures import (
    ProcedureError,
    absent_player,
    hidden_chips_ruling,
    premature_declaration,
    procedures_for,
    stack_count,
    suggest_rulings,
    walk,
)
from poker.hand import HandSpec, HandState, Rules, SeatSpec
from poker.houserules import PROFILES, Citation, get_profile


def _start(stacks, profile: str, sb: int, bb: int, game: str = "plo") -> HandState:
    """Seats 1..n clockwise, button on the last seat, engine rules of the house profile."""
    seats = [SeatSpec(i + 1, f"p{i + 1}", s) for i, s in enumerate(stacks)]
    rules = Rules.from_house_rules(get_profile(profile))
    return HandState.start(HandSpec.standard(seats, len(stacks), sb, bb, game=game, rules=rules))


# --------------------------------------------------------------------------- 004 #54
def test_004_54_pot_limit_short_all_in_preflop_pot_raise_is_5000():
    """004 #54: "Blind 1'000/1'000, Spieler geht mit 800 all in, Pot-Raise ist dennoch 5'000
    und nicht 4'400" -- under the MunotPoker profile every table gets 5,000."""
    s = _start([10_000, 10_000, 800, 10_000], "munotpoker", 1000, 1000)
    s = s.apply({"type": "all_in", "seat": 3})
    assert s.to_act_seat == 4
    assert s.legal().max_raise_to == 5000


@pytest.mark.parametrize("slug", ["tda-2024", "wynental", "betting-rules", "nlhe"])
def test_004_54_other_profiles_count_the_real_chips_4800(slug):
    """The other rulebooks are silent on a short all-in in pot limit: pokerkit's reading, the real
    chips (1,000 + 1,000 + 800, the call of 1,000, plus the call) -- a pot raise to 4,800."""
    s = _start([10_000, 10_000, 800, 10_000], slug, 1000, 1000).apply({"type": "all_in", "seat": 3})
    assert s.legal().max_raise_to == 4800


def test_004_54_casino_counts_the_real_chips_on_its_bet_unit():
    """000 is silent too (the real chips), and every bet is divisible by the small blind
    (000 Allgemein 8): 4,800 comes down to 4,000 at blinds 1,000/1,000."""
    s = _start([10_000, 10_000, 800, 10_000], "casino-cash", 1000, 1000).apply({"type": "all_in", "seat": 3})
    assert s.legal().max_raise_to == 4000


def test_004_54_from_the_flop_the_real_pot_counts():
    s = _start([10_000, 10_000, 800, 10_000], "munotpoker", 1000, 1000).apply({"type": "all_in", "seat": 3})
    s = s.apply({"type": "call", "seat": 4}).apply({"type": "check", "seat": 1}).apply({"type": "check", "seat": 2})
    s = s.deal_board("2c7d9h")
    assert s.legal().max_raise_to == s.total_pot == 3800


def test_004_54_the_profile_parameter_and_its_citation():
    assert get_profile("munotpoker").pot_limit_preflop_all_in == "counted_full"
    assert Citation.parse("004 #54") in get_profile("munotpoker").citations("pot_limit_preflop_all_in")
    assert {p.slug for p in PROFILES.values() if p.pot_limit_preflop_all_in == "counted_full"} == {"munotpoker"}
    assert Rules.from_house_rules(get_profile("004")).pot_limit_preflop_all_in == "counted_full"
    assert Rules.from_house_rules(get_profile("000")).pot_limit_preflop_all_in == "actual"


# --------------------------------------------------------------------------- 003 absent players
def test_003_auto_all_in_an_absent_player_set_all_in_is_not_folded_and_can_win_the_main_pot():
    """003 "Ausserordentliche und ordentliche Handlungen der Spieler": "Ein nicht anwesender Spieler
    der 'Auto All-In' gesetzt ist, gilt nicht als gepasst und kann beim Showdown mit dem besten
    Blatt den Main Pot gewinnen." """
    ruling = absent_player(get_profile("nlhe"), stack=150, blind=200, seat=4)
    assert (ruling.posted, ruling.all_in, ruling.hand_dead, ruling.contests) == (150, True, False, "main_pot")
    assert ruling.citations == (Citation.parse("003 Ausserordentliche und ordentliche Handlungen der Spieler"),)
    assert ruling.to_dict()["seat"] == 4


def test_003_blinds_of_an_absent_player_are_posted_by_the_dealer_at_the_minimum():
    """003: "Die Blinds werden vom Dealer aus dem Table Stake des nicht anwesenden Spielers in Höhe
    des Minimums erbracht"; absent at the second hole card he counts as folded, blinds included."""
    ruling = absent_player(get_profile("nlhe"), stack=5000, blind=200)
    assert (ruling.posted, ruling.all_in, ruling.hand_dead, ruling.contests) == (200, False, True, "nothing")
    assert absent_player(get_profile("nlhe"), stack=5000).posted == 0  # no blind owed: nothing posted


@pytest.mark.parametrize(
    "slug,label", [("casino-cash", "000 Allgemein 6"), ("wynental", "001 Sitzverteilung"), ("munotpoker", "004 #30")]
)
def test_absent_all_in_player_is_dead_where_the_rulebook_has_no_auto_all_in(slug, label):
    ruling = absent_player(get_profile(slug), stack=150, blind=200, ante=200)
    assert ruling.posted == 150 and ruling.all_in and ruling.hand_dead and ruling.contests == "nothing"
    assert Citation.parse(label) in ruling.citations


def test_absent_player_refuses_bad_amounts():
    with pytest.raises(ProcedureError) as exc:
        absent_player(get_profile("nlhe"), stack=-1, blind=2)
    assert exc.value.code == "bad_call"


# --------------------------------------------------------------------------- 000 Allgemein 9
def _outcome(profile, procedure, answers):
    node = walk(profile, procedure, answers)
    assert node.to_dict()["kind"] == "outcome"
    return node


def test_000_allgemein_9_misdeal_after_two_active_actions_voids_the_faulty_hand_and_play_goes_on():
    """000 Allgemein 9: "Falls schon zwei oder mehr aktive Handlungen ... getätigt wurden, bis der
    Fehler bemerkt wird, wird die fehlerhafte Hand für ungültig erklärt und das Spiel regulär
    fortgesetzt." """
    casino = get_profile("casino-cash")
    assert casino.misdeal_too_late == "faulty_hand_void"
    early = _outcome(casino, "misdeal", ["extra_cards", "no", "one"])
    assert early.corrections == ({"type": "misdeal"},)
    late = _outcome(casino, "misdeal", ["extra_cards", "no", "two_no_chips"])  # two folds are two actions
    assert late.corrections == ({"type": "kill", "seat": None},)
    assert Citation.parse("000 Allgemein 9") in late.citations
    # "Ein Spiel kann nach dem Flop nicht mehr für ungültig erklärt werden": never a misdeal after the flop.
    assert _outcome(casino, "misdeal", ["seat_skipped", "yes"]).corrections == ({"type": "kill", "seat": None},)
    # The exposed-card procedure follows the same rule (000 Allgemein 9 c).
    assert _outcome(casino, "exposed_card", ["deal", "one", "no", "three_or_more"]).corrections == (
        {"type": "kill", "seat": None},
    )


def test_000_allgemein_9_the_floor_call_suggests_voiding_the_faulty_hand():
    events = [
        {"index": 1, "kind": "action", "payload": {"type": "fold", "seat": 4}},
        {"index": 2, "kind": "action", "payload": {"type": "call", "seat": 5}},
    ]
    call = {"reason": "misdeal", "snapshot": None, "events": events, "seat": 6}
    first = suggest_rulings(get_profile("casino-cash"), call)[0]
    assert first.key == "void_faulty_hand" and first.corrections == ({"type": "kill", "seat": 6},)
    assert Citation.parse("000 Allgemein 9") in first.citations
    # Before two active actions it is still a misdeal.
    one = suggest_rulings(get_profile("casino-cash"), dict(call, events=events[:1]))[0]
    assert one.key == "misdeal"
    # Under 004 #35 the hand is simply played on once substantial action occurred.
    assert [s.key for s in suggest_rulings(get_profile("munotpoker"), call)] == ["play_on"]


# --------------------------------------------------------------------------- hidden chips
def _hidden(slug, **kw):
    return hidden_chips_ruling(get_profile(slug), **kw)


def test_002_16_hidden_chips_all_in_player_wins_only_21000_or_loses_all_23000():
    """002 #16: A all-in with 21,000 hides two 1,000 chips, B calls with 100,000. "Wenn Spieler A
    den Pot gewinnt, erhält er nur 21.000 in Chips. Verliert er die Hand, erhält sein Gegner den
    gesamten Stack, also 23.000." """
    wins = _hidden("betting-rules", declared=21_000, hidden=2_000, opponent_stack=100_000, all_in_player_wins=True)
    assert (wins.won, wins.all_in_player_after, wins.opponent_after) == (21_000, 44_000, 79_000)
    loses = _hidden("betting-rules", declared=21_000, hidden=2_000, opponent_stack=100_000, all_in_player_wins=False)
    assert (loses.won, loses.all_in_player_after, loses.opponent_after) == (23_000, 0, 123_000)
    assert loses.all_in_player_out and Citation.parse("002 #16") in loses.citations


def test_002_17_exception_the_caller_wins_all_his_55000_and_doubles():
    """002 #17: A all-in with 50,000 hides a 10,000 chip, B calls with 55,000. A wins: only
    50,000; A loses: "erhält sein Gegner die gesamten 55.000 und verdoppelt"."""
    wins = _hidden("betting-rules", declared=50_000, hidden=10_000, opponent_stack=55_000, all_in_player_wins=True)
    assert (wins.won, wins.opponent_after) == (50_000, 5_000)
    loses = _hidden("betting-rules", declared=50_000, hidden=10_000, opponent_stack=55_000, all_in_player_wins=False)
    assert (loses.won, loses.opponent_after, loses.all_in_player_after) == (55_000, 110_000, 5_000)
    assert not loses.all_in_player_out


def test_004_62_hidden_chip_not_counted_is_not_paid_and_a_losing_player_is_out():
    """004 #62: all-in with 10,000, a forgotten 5,000 chip; not counted by the floor: "a) diesen
    Chip nicht ausbezahlt bekommen wenn er gewinnt und b) nicht mit dem Chip als regulär
    verbleibendem Stack weiterspielen wenn er verliert. Der Spieler ist ausgeschieden und der
    Floorman kann den vergessenen Chip nach Ermessen dem Gewinner der Hand zusprechen." """
    wins = _hidden("munotpoker", declared=10_000, hidden=5_000, opponent_stack=40_000, all_in_player_wins=True)
    assert (wins.won, wins.opponent_after) == (10_000, 30_000)
    loses = _hidden("munotpoker", declared=10_000, hidden=5_000, opponent_stack=40_000, all_in_player_wins=False)
    assert (loses.won, loses.floor_may_award, loses.all_in_player_after) == (10_000, 5_000, 0)
    assert loses.all_in_player_out and Citation.parse("004 #62") in loses.citations
    # The floor counts it (004 #49): an ordinary all-in for 15,000.
    counted = _hidden(
        "munotpoker",
        declared=10_000,
        hidden=5_000,
        opponent_stack=40_000,
        all_in_player_wins=True,
        floor_counts_hidden=True,
    )
    assert counted.won == 15_000 and counted.floor_may_award == 0


def test_hidden_chips_without_a_house_rule_the_floor_decides():
    for slug in ("tda-2024", "casino-cash", "wynental", "nlhe"):
        with pytest.raises(ProcedureError) as exc:
            _hidden(slug, declared=1000, hidden=100, opponent_stack=5000, all_in_player_wins=True)
        assert exc.value.code == "not_regulated"
    with pytest.raises(ProcedureError) as exc:
        _hidden("betting-rules", declared=0, hidden=100, opponent_stack=5000, all_in_player_wins=True)
    assert exc.value.code == "bad_call"


def test_hidden_chips_procedure_on_the_tablet_002_and_004_only():
    keys = {slug: {p.key for p in procedures_for(p)} for slug, p in PROFILES.items()}
    assert "hidden_chips" in keys["betting-rules"] and "hidden_chips" in keys["munotpoker"]
    assert "hidden_chips" not in keys["casino-cash"] | keys["wynental"] | keys["nlhe"] | keys["tda-2024"]
    munot = get_profile("munotpoker")
    out = _outcome(munot, "hidden_chips", ["no", "no"])
    assert out.citations[0] == Citation.parse("004 #62") and "out" in out.summary_en
    assert _outcome(get_profile("002"), "hidden_chips", ["yes"]).citations[0] == Citation.parse("002 #15")
    with pytest.raises(ProcedureError):
        walk(get_profile("nlhe"), "hidden_chips", [])


# --------------------------------------------------------------------------- 004 #59, #60
def test_004_59_conditional_statement_may_be_binding_and_or_penalised():
    """004 #59: "wenn du setzen solltest, raise ich" -- "Der Floorman kann diese Aktion als
    strafbar und/oder als bindend deklarieren." """
    munot = get_profile("munotpoker")
    ruling = premature_declaration(munot, "conditional")
    assert ruling.options == ("binding", "penalty") and ruling.citations == (Citation.parse("004 #59"),)
    call = premature_declaration(munot, "call_before_amount")
    assert call.options == ("amount_by_floor", "must_call_any_bet")
    assert _outcome(munot, "premature_declaration", ["call_before_amount"]).summary_en == call.explanation_en
    with pytest.raises(ProcedureError) as exc:
        premature_declaration(get_profile("casino-cash"), "conditional")
    assert exc.value.code == "not_regulated"


def test_004_60_exact_count_only_facing_an_all_in_and_in_turn():
    """004 #60: "Die genaue Zählung kann nur verlangt werden, wenn es sich um einen All-in Bet
    handelt und der fragende Spieler an der Reihe ist." The all-in player need not answer; the
    dealer or the floor counts."""
    munot = get_profile("munotpoker")
    due = stack_count(munot, facing_all_in=True, to_act=True)
    assert due.exact_count and due.counted_by == "dealer_or_floor" and not due.all_in_player_must_answer
    assert not stack_count(munot, facing_all_in=True, to_act=False).exact_count
    assert not stack_count(munot, facing_all_in=False, to_act=True).exact_count
    assert Citation.parse("004 #60") in due.citations
    assert _outcome(munot, "stack_count", ["yes", "yes"]).summary_en == due.explanation_en
    assert _outcome(munot, "stack_count", ["yes", "no"]).summary_en != due.explanation_en
    assert {"premature_declaration", "stack_count"} <= {p.key for p in procedures_for(munot)}
    assert "stack_count" not in {p.key for p in procedures_for(get_profile("wynental"))}
