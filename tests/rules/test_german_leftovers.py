"""German without leftovers (issue 24, what a dealer and a floor person expect): the floor's suggested
rulings name the action in German ("Zeit abgelaufen: Passen", not "fold"), English keeps its words."""

from __future__ import annotations

import re

import pytest

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


@pytest.mark.django_db(transaction=True)
def test_the_german_call_page_cites_the_tda_in_german(client, dealer, floorman, rulebooks):
    from rules import services as floor
    from tables import services

    table = services.create_table("Table 9", small_blind=1, big_blind=2, dealer=dealer, rules_profile="tda-2024")
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300)]:
        services.seat_player(table.id, seat, name, stack)
    services.start_hand(table.id)
    call = floor.raise_floor_call(table.id, "dispute", seat=1, actor=dealer)
    client.force_login(floorman)
    english = client.get(f"/rules/calls/{call.id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client.get(f"/rules/calls/{call.id}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "TDA 2024 Rule 1" in english
    assert "TDA 2024 Regel 1" in german
    shown = re.sub(r"<[^>]*>", " ", german)  # the page's text (the form's values keep the rule's key)
    assert "TDA 2024 Rule" not in shown
    assert german.count('value="tda-2024|TDA 2024 Rule 1"') == 1  # offered once to tick
