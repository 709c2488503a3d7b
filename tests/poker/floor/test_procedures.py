"""Floor procedures (poker/floor/procedures.py): what a floorman would rule, per rulebook.

Each test names the rulebook section it checks. Pure Python: no database.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from poker.floor import procedures as P
from poker.houserules import PROFILES, get_profile

DATA = Path(__file__).resolve().parents[3] / "rules" / "rulebooks"

MUNOT, CASH, WYN, BET, NLHE, TDA = (
    get_profile(s) for s in ("munotpoker", "casino-cash", "wynental", "betting-rules", "nlhe", "tda-2024")
)


def labels(citations):
    return {c.label for c in citations}


def ev(index, payload, kind="action"):
    return {"index": index, "kind": kind, "payload": payload}


START = ev(0, {"type": "start", "button": 1}, kind="start")


# --------------------------------------------------------------------------- out of turn
def test_004_53_oot_call_binds_when_the_skipped_player_checks_and_is_released_when_he_raises():
    held = {"type": "call", "seat": 5}
    binding = P.resolve_out_of_turn(MUNOT, held, [{"type": "check", "seat": 3}])
    assert binding.status == "binding" and binding.action == {"type": "call", "seat": 5}
    assert "004 #53" in labels(binding.citations)
    released = P.resolve_out_of_turn(MUNOT, held, [{"type": "raise", "seat": 3, "to": 600}])
    assert released.status == "released" and released.action is None
    assert released.changed_by == ("raise",) and released.restrictions == ()


def test_002_8_an_intervening_call_releases_and_an_oot_call_never_becomes_a_raise():
    """002 #8: binding only without an intervening bet, call or raise; 000 Aktionen 2: a call is no change."""
    held = {"type": "call", "seat": 5}
    r002 = P.resolve_out_of_turn(BET, held, ["call"])
    assert r002.status == "released" and r002.restrictions == ("may_not_raise",)
    assert {"002 #8"} <= labels(r002.citations)
    r000 = P.resolve_out_of_turn(CASH, held, ["call"])
    assert r000.status == "binding" and r000.action == held
    assert labels(r000.citations) == {"000 Aktionen 2"}


def test_002_8_oot_check_then_a_bet_leaves_call_or_fold_only_but_004_53_gives_all_options():
    held = {"type": "check", "seat": 7}
    assert P.resolve_out_of_turn(BET, held, ["bet"]).restrictions == ("may_not_raise",)
    assert P.resolve_out_of_turn(MUNOT, held, ["bet"]).restrictions == ()
    # no change: the check binds in both
    assert P.resolve_out_of_turn(BET, held, ["check"]).action == {"type": "check", "seat": 7}


def test_003_oot_fold_is_binding_even_after_a_raise():
    r = P.resolve_out_of_turn(NLHE, {"type": "fold", "seat": 2}, ["raise"])
    assert r.status == "binding" and r.action == {"type": "fold", "seat": 2}


def test_003_oot_bet_binds_but_its_chips_are_taken_back_until_his_turn():
    r = P.resolve_out_of_turn(NLHE, {"type": "bet", "seat": 2, "to": 400}, ["check"])
    assert r.action == {"type": "bet", "seat": 2, "to": 400}
    assert "zurückgenommen" in r.explanation_de


def test_004_55_binding_call_with_nothing_to_call_is_a_check_and_a_bet_of_the_stack_is_all_in():
    snapshot = {"players": [], "legal": {"call_amount": 0, "max_raise_to": 900}}
    assert P.resolve_out_of_turn(MUNOT, {"type": "call", "seat": 4}, ["check"], snapshot).action == {
        "type": "check",
        "seat": 4,
    }
    allin = P.resolve_out_of_turn(MUNOT, {"type": "bet", "seat": 4, "to": 900}, ["check"], {"max_raise_to": 900})
    assert allin.action == {"type": "all_in", "seat": 4}
    check_facing = P.resolve_out_of_turn(MUNOT, {"type": "check", "seat": 4}, [], {"call_amount": 200})
    assert check_facing.status == "released" and check_facing.restrictions == ("may_not_raise",)
    assert "004 #55" in labels(check_facing.citations)


def test_an_all_in_in_between_counts_as_a_raise_unless_it_is_only_a_call():
    held = {"type": "call", "seat": 5}
    assert P.resolve_out_of_turn(MUNOT, held, [{"type": "all_in", "seat": 3}]).status == "released"
    assert P.resolve_out_of_turn(MUNOT, held, [{"type": "all_in", "seat": 3, "as": "call"}]).status == "binding"


@pytest.mark.parametrize(
    "held,intervening",
    [
        ({"type": "raise", "seat": 5}, []),  # no amount
        ({"type": "shout", "seat": 5}, []),
        ({"type": "call"}, []),
        ({"type": "call", "seat": 5}, ["dance"]),
        ({"type": "call", "seat": 5}, "check"),
    ],
)
def test_out_of_turn_rejects_bad_input(held, intervening):
    with pytest.raises(P.ProcedureError):
        P.resolve_out_of_turn(MUNOT, held, intervening)


# --------------------------------------------------------------------------- time
def test_004_29_clock_is_25_seconds_plus_a_5_second_countdown():
    c = P.clock_policy(MUNOT)
    assert (c.total_seconds, c.think_seconds, c.countdown_seconds, c.warning) == (30, 25, 5, "countdown")
    assert "004 #29" in labels(c.citations)


def test_001_6_13_clock_is_30_seconds_with_a_dealer_reminder_and_000_has_no_clock():
    c = P.clock_policy(WYN)
    assert (c.total_seconds, c.countdown_seconds, c.warning) == (30, 0, "dealer_reminder")
    assert "001 6.13" in labels(c.citations)
    none = P.clock_policy(CASH)
    assert none.total_seconds is None and "000 Allgemein 1" in labels(none.citations)


def test_004_29_time_up_is_dead_facing_a_bet_else_a_check_but_001_6_13_always_dead():
    assert P.time_expired(MUNOT, True, 3).action == {"type": "fold", "seat": 3}
    not_facing = P.time_expired(MUNOT, False, 3)
    assert not_facing.action == {"type": "check", "seat": 3} and not not_facing.dead
    dead = P.time_expired(WYN, False, 3)
    assert dead.action == {"type": "fold", "seat": 3} and dead.dead and "001 6.13" in labels(dead.citations)
    assert P.time_expired(CASH, True, 3).action is None
    with pytest.raises(P.ProcedureError):
        P.time_expired(MUNOT, True, "3")


# --------------------------------------------------------------------------- penalties
def test_penalty_ladders_004_71_000_strafen_4_001_6_37_differ():
    assert [o.kind for o in P.penalty_options(MUNOT)] == list(P.PENALTY_KINDS)
    cash = P.penalty_options(CASH)
    assert [o.kind for o in cash] == ["warning", "sit_out_hands", "disqualification"]
    assert cash[1].title_de.startswith("Zeitstrafe") and "000 Strafen 4" in labels(cash[0].citations)
    wyn = P.penalty_options(WYN)
    assert [o.kind for o in wyn] == ["sit_out_orbits", "disqualification"]
    assert wyn[0].unit == "orbits" and "001 6.37" in labels(wyn[0].citations)


def test_004_71_an_orbit_is_one_hand_per_player_dealt_in():
    assert P.hands_for_penalty("sit_out_orbits", 1, 9) == 9
    assert P.hands_for_penalty("sit_out_orbits", 5, 6) == 30
    assert P.hands_for_penalty("sit_out_hands", 3, 9) == 3
    assert P.hands_for_penalty("warning", 0, 9) == 0
    assert P.hands_for_penalty("disqualification", 0, 9) is None
    for bad in (("jail", 1, 9), ("sit_out_hands", 0, 9), ("sit_out_orbits", 1, 1)):
        with pytest.raises(P.ProcedureError):
            P.hands_for_penalty(*bad)


def test_004_71_sitting_out_player_is_dealt_in_posts_blinds_and_his_hand_is_killed():
    r = P.sit_out_rule(MUNOT)
    assert r.dealt_in and r.blinds_and_antes_posted and r.hand_killed
    assert "004 #71" in labels(r.citations)
    assert "001 6.37" in labels(P.sit_out_rule(WYN).citations)
    assert "000 Allgemein 6" in labels(P.sit_out_rule(CASH).citations)


# --------------------------------------------------------------------------- guided procedures
def test_premature_turn_004_39_set_aside_but_001_6_25_it_becomes_the_burn_card():
    m = P.walk(MUNOT, "premature_board", ["turn"])
    assert isinstance(m, P.Outcome) and "river as the turn" in m.instructions_en
    assert labels(m.citations) == {"004 #39"}
    w = P.walk(WYN, "premature_board", ["turn"])
    assert "burn card" in w.summary_en and labels(w.citations) == {"001 6.25"}


def test_four_card_flop_004_39_random_burn_but_003_redress_first():
    m = P.walk(MUNOT, "premature_board", ["four_card_flop"])
    assert "at random" in m.instructions_en
    step = P.walk(NLHE, "premature_board", ["four_card_flop"])
    assert isinstance(step, P.Step) and step.key == "redress"
    assert "003 Burn Cards" in labels(P.walk(NLHE, "premature_board", ["four_card_flop", "yes"]).citations)


def test_003_burn_card_errors_are_only_offered_under_003():
    keys = {o.key for o in P.walk(NLHE, "premature_board", []).options}
    assert {"no_burn", "extra_burn", "burn_early"} <= keys
    assert "no_burn" not in {o.key for o in P.walk(MUNOT, "premature_board", []).options}


def test_one_exposed_hole_card_000_allgemein_9_misdeal_001_6_25_replace_004_35_replace():
    # 000: misdeal while fewer than two actions
    assert P.walk(CASH, "exposed_card", ["deal", "one", "no", "one"]).corrections == ({"type": "misdeal"},)
    # 000 Allgemein 9: after two active actions the faulty hand is void, play goes on
    assert P.walk(CASH, "exposed_card", ["deal", "one", "no", "two_no_chips"]).corrections == (
        {"type": "kill", "seat": None},
    )
    # 001: never a misdeal, the card becomes the burn card
    w = P.walk(WYN, "exposed_card", ["deal", "two_or_more"])
    assert w.corrections == () and "burn card" in w.instructions_en
    # 004: one is replaced, two are a misdeal until substantial action (#36)
    assert P.walk(MUNOT, "exposed_card", ["deal", "one"]).corrections == ()
    assert P.walk(MUNOT, "exposed_card", ["deal", "two_or_more", "no", "two_no_chips"]).corrections == (
        {"type": "misdeal"},
    )


def test_misdeal_deadline_004_36_two_folds_are_not_substantial_but_000_allgemein_9_two_actions_are():
    assert P.walk(MUNOT, "misdeal", ["boxed", "no", "two_no_chips"]).corrections == ({"type": "misdeal"},)
    assert P.walk(MUNOT, "misdeal", ["boxed", "no", "two_with_chips"]).corrections == ()
    assert P.walk(CASH, "misdeal", ["extra_cards", "no", "two_no_chips"]).corrections == (
        {"type": "kill", "seat": None},
    )
    # 000: never a misdeal after the flop, whatever the actions (the faulty hand is void)
    late = P.walk(CASH, "misdeal", ["extra_cards", "yes"])
    assert isinstance(late, P.Outcome) and late.corrections == ({"type": "kill", "seat": None},)


def test_misdeal_causes_follow_the_rulebook():
    causes = {
        b: {o.key for o in P.walk(p, "misdeal", []).options} for b, p in (("003", NLHE), ("004", MUNOT), ("000", CASH))
    }
    assert "not_shuffled" in causes["003"] and "not_shuffled" not in causes["004"]
    assert "button_short" in causes["004"] and "button_short" not in causes["000"]
    assert "004 #37" in labels(P.walk(MUNOT, "misdeal", ["button_short"]).citations)


def test_walk_rejects_unknown_procedures_and_answers():
    with pytest.raises(P.ProcedureError) as e:
        P.walk(MUNOT, "earthquake", [])
    assert e.value.code == "unknown_procedure"
    with pytest.raises(P.ProcedureError):
        P.walk(MUNOT, "premature_board", ["fifth_street"])
    with pytest.raises(P.ProcedureError):
        P.walk(MUNOT, "premature_board", ["turn", "again"])


# --------------------------------------------------------------------------- suggestions
EVENTS = [
    START,
    ev(1, {"type": "fold", "seat": 3}),
    ev(2, {"type": "call", "seat": 4}),
    ev(3, {"type": "raise", "seat": 5, "to": 600}),
]


def call(reason, events=EVENTS, seat=None, **kw):
    return dict({"reason": reason, "snapshot": None, "events": events, "seat": seat}, **kw)


def test_004_53_skipped_player_after_substantial_action_dead_or_passive():
    s = P.suggest_rulings(MUNOT, call("out_of_turn", seat=3))
    # the wrongly recorded action was a fold: a dead hand is what the record already says
    assert [x.key for x in s] == ["passive_only", "play_on", "penalty"]
    assert s[0].corrections == ({"type": "return_action", "index": 1, "held": [2, 3]},)
    assert s[0].restrictions == ("may_not_raise",) and "004 #53" in labels(s[0].citations)
    assert s[-1].corrections == ({"type": "penalty", "seat": 4, "kind": "warning", "count": 0},)
    # a wrongly recorded call: the dead hand needs the call voided first
    called = [START, ev(1, {"type": "call", "seat": 3})] + EVENTS[2:]
    s = P.suggest_rulings(MUNOT, call("out_of_turn", events=called, seat=3))
    assert s[1].key == "kill"
    assert s[1].corrections == ({"type": "void", "index": 1}, {"type": "kill", "seat": 3})


def test_004_53_skipped_player_before_substantial_action_gets_the_action_back():
    events = EVENTS[:3]  # fold (the skipped seat, wrongly recorded), then one call
    s = P.suggest_rulings(MUNOT, call("out_of_turn", events=events, seat=3))
    assert s[0].key == "return_action"
    assert s[0].corrections == ({"type": "return_action", "index": 1, "held": [2]},)


def test_003_skipped_player_who_did_not_object_at_once_plays_on():
    s = P.suggest_rulings(NLHE, call("out_of_turn", seat=3))
    assert s[0].key == "play_on" and s[1].key == "return_action"


def test_001_6_37_oot_penalty_is_a_button_round():
    s = P.suggest_rulings(WYN, call("out_of_turn", seat=3))
    assert s[-1].corrections == ({"type": "penalty", "seat": 4, "kind": "sit_out_orbits", "count": 1},)


def test_oot_action_not_yet_recorded_is_held():
    s = P.suggest_rulings(BET, call("out_of_turn", held_action={"type": "check", "seat": 6}))
    assert s[0].key == "hold" and s[0].restrictions == ("may_not_raise",)


def test_misdeal_is_suggested_only_while_004_36_allows_it():
    two_folds = [START, ev(1, {"type": "fold", "seat": 3}), ev(2, {"type": "fold", "seat": 4})]
    s = P.suggest_rulings(MUNOT, call("misdeal", events=two_folds))
    assert s[0].corrections == ({"type": "misdeal"},) and s[1].key == "play_on"
    assert [x.key for x in P.suggest_rulings(MUNOT, call("misdeal"))] == ["play_on"]
    # 000 Allgemein 9: two folds are already two active actions: the faulty hand is void, play on
    assert [x.key for x in P.suggest_rulings(CASH, call("misdeal", events=two_folds))] == [
        "void_faulty_hand",
        "play_on",
    ]


def test_voided_actions_do_not_count_toward_substantial_action():
    events = EVENTS + [
        ev(4, {"type": "void", "index": 3}, kind="correction"),
        ev(5, {"type": "void", "index": 2}, kind="correction"),
    ]
    assert P.suggest_rulings(MUNOT, call("misdeal", events=events))[0].key == "misdeal"


def test_004_44_oversized_chip_facing_blinds_replaces_the_recorded_call_but_000_aktionen_4_keeps_it():
    events = [START, ev(1, {"type": "call", "seat": 5})]
    data = {
        "situation": {"street": "preflop", "blinds": [50, 100], "to_call": 100, "stack": 5000},
        "observed": {"chips": {"500": 1}},
    }
    m = P.suggest_rulings(MUNOT, call("chip_action", events=events, seat=5, interpretation=data))
    assert m[0].corrections == ({"type": "replace", "index": 1, "action": {"type": "raise", "seat": 5, "to": 500}},)
    assert "004 #44" in labels(m[0].citations) and m[-1].key == "play_on"
    c = P.suggest_rulings(CASH, call("chip_action", events=events, seat=5, interpretation=data))
    assert c[0].corrections == () and "000 Aktionen 4" in labels(c[0].citations)


def test_chip_action_not_yet_recorded_gives_the_action_to_enter():
    data = {
        "situation": {"street": "preflop", "blinds": [50, 100], "to_call": 100, "stack": 5000},
        "observed": {"chips": {"500": 1}},
    }
    s = P.suggest_rulings(MUNOT, call("chip_action", events=[START], seat=5, interpretation=data))
    assert s[0].action == {"type": "raise", "seat": 5, "to": 500} and s[0].corrections == ()


def test_time_call_uses_the_snapshot_004_29():
    snap = {"to_act_seat": 6, "legal": {"call_amount": 0}}
    s = P.suggest_rulings(MUNOT, call("time", snapshot=snap))
    assert s[0].action == {"type": "check", "seat": 6}
    s = P.suggest_rulings(WYN, call("time", snapshot=snap))
    assert s[0].action == {"type": "fold", "seat": 6}


def test_000_aktionen_10_exposed_own_card_may_kill_but_004_68_keeps_the_hand_live():
    cash = P.suggest_rulings(CASH, call("exposed_card", seat=4, exposed_by="player"))
    assert "kill" in [x.key for x in cash]
    munot = P.suggest_rulings(MUNOT, call("exposed_card", seat=4, exposed_by="player"))
    assert "kill" not in [x.key for x in munot] and munot[0].key == "play_on"
    assert "004 #68" in labels(munot[0].citations)


def test_exposed_card_on_the_deal_001_6_25_is_never_a_misdeal():
    keys = [x.key for x in P.suggest_rulings(WYN, call("exposed_card", events=[START]))]
    assert keys == ["replace_card", "play_on"]
    keys = [x.key for x in P.suggest_rulings(CASH, call("exposed_card", events=[START]))]
    assert keys == ["misdeal", "play_on"]


def test_suggest_rulings_rejects_bad_calls():
    for bad in (
        {"reason": "weather"},
        {"reason": "misdeal", "events": "x"},
        {"reason": "out_of_turn", "events": []},
        "misdeal",
    ):
        with pytest.raises(P.ProcedureError):
            P.suggest_rulings(MUNOT, bad)


# --------------------------------------------------------------------------- data hygiene
def _shipped_rules():
    out = set()
    for path in DATA.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        out |= {(data["slug"], r["number"]) for r in data["rules"]}
    return out


def _all_citations(obj):
    if isinstance(obj, dict):
        if set(obj) >= {"rulebook", "section", "label"}:
            yield obj
        for v in obj.values():
            yield from _all_citations(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _all_citations(v)


def test_every_result_is_json_and_every_citation_resolves_to_a_shipped_rule():
    shipped = _shipped_rules()
    calls = [call(r, seat=3) for r in P.REASONS if r not in ("chip_action", "time")]
    calls += [call("time", seat=3), call("exposed_card", seat=3, exposed_by="player")]
    for profile in PROFILES.values():
        docs = [p.to_dict() for p in P.procedures_for(profile)]
        docs += [s.to_dict() for c in calls for s in P.suggest_rulings(profile, c)]
        docs += [
            P.clock_policy(profile).to_dict(),
            P.time_expired(profile, True, 1).to_dict(),
            P.sit_out_rule(profile).to_dict(),
        ] + [o.to_dict() for o in P.penalty_options(profile)]
        text = json.dumps(docs)
        for c in _all_citations(json.loads(text)):
            if c["rulebook"] == "tda-2024":
                assert 1 <= int(c["section"].rsplit(" ", 1)[1]) <= 71, c
            else:
                assert (c["rulebook"], c["section"]) in shipped, (profile.slug, c)
                assert c["rulebook"] == profile.rulebook, (profile.slug, c)


def test_procedures_import_without_django():
    code = (
        "import sys, poker.floor.procedures; "
        "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=str(DATA.parents[1])).returncode == 0


def test_no_result_cites_the_same_rule_twice():
    calls = [call(r, seat=3) for r in P.REASONS if r not in ("chip_action", "time")] + [call("time", seat=3)]
    for profile in PROFILES.values():
        for c in calls:
            for s in P.suggest_rulings(profile, c):
                assert len(set(s.citations)) == len(s.citations), (profile.slug, s.key, s.citations)
