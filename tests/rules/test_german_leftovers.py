"""German without leftovers (issue 24, what a dealer and a floor person expect): the floor's suggested
rulings name the action in German ("Zeit abgelaufen: Passen", not "fold"), English keeps its words."""

from __future__ import annotations

import re

from poker.floor import procedures as P
from poker.houserules import get_profile

MUNOT, WYN = get_profile("munotpoker"), get_profile("wynental")
START = {"index": 0, "kind": "hand_started", "payload": {}}
ENGLISH_ACTIONS = re.compile(r"\b(fold|check|call|bet|raise|all-in)\b", re.IGNORECASE)


def ev(index, payload, kind="action"):
    return {"index": index, "kind": kind, "payload": payload}


def call(reason, events, seat=None, **kw):
    return dict({"reason": reason, "snapshot": None, "events": events, "seat": seat}, **kw)


def test_a_time_call_names_the_fold_and_the_check_in_german():
    facing = P.suggest_rulings(WYN, call("time", [START], snapshot={"to_act_seat": 6, "legal": {"call_amount": 50}}))
    assert (facing[0].title_en, facing[0].title_de) == ("Time is up: fold", "Zeit abgelaufen: Passen")
    free = P.suggest_rulings(MUNOT, call("time", [START], snapshot={"to_act_seat": 6, "legal": {"call_amount": 0}}))
    assert (free[0].title_en, free[0].title_de) == ("Time is up: check", "Zeit abgelaufen: Checken")


def test_a_chip_action_ruling_names_the_raise_in_german():
    data = {
        "situation": {"street": "preflop", "blinds": [50, 100], "to_call": 100, "stack": 5000},
        "observed": {"chips": {"500": 1}},
    }
    ruling = P.suggest_rulings(
        MUNOT, call("chip_action", [START, ev(1, {"type": "call", "seat": 5})], 5, interpretation=data)
    )
    assert ruling[0].key == "replace"
    assert ruling[0].title_en == "The action stands as raise"
    assert ruling[0].title_de == "Die Aktion gilt als Erhöhen"
    for suggestion in ruling:
        assert not ENGLISH_ACTIONS.search(suggestion.title_de), suggestion.title_de
