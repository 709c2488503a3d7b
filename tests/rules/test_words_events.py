"""Every hand event in words, in English and German (issue 24, finding 4): the hand page and the floor
pages never show a raw event name (``Out_of_turn_released``, ``time_called``, ``Bring_in``, ``undo``)
nor an empty row, and a correction names the action it points at, never "event 10"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from poker.hand import corrections
from poker.hand.state import HandState
from poker.hand.stud import StudState
from rules import handwords

NAMES = {1: "Anna", 2: "Ben", 3: "Clara"}

#: One event of every kind the engine and the services append.
SAMPLES: list[dict] = [
    {"index": 0, "kind": "start", "payload": {"type": "start", "button": 1}},
    {"index": 1, "kind": "action", "payload": {"type": "kill", "seat": 4, "reason": "absent"}},
    {"index": 2, "kind": "action", "payload": {"type": "kill", "seat": 5, "reason": "penalty"}},
    {"index": 3, "kind": "action", "payload": {"type": "hole", "seat": 2, "cards": "AsKs"}},
    {"index": 4, "kind": "action", "payload": {"type": "fold", "seat": 1}},
    {"index": 5, "kind": "action", "payload": {"type": "check", "seat": 1}},
    {"index": 6, "kind": "action", "payload": {"type": "call", "seat": 2}},
    {"index": 7, "kind": "action", "payload": {"type": "bet", "seat": 2, "to": 40}},
    {"index": 8, "kind": "action", "payload": {"type": "raise", "seat": 2, "to": 340}},
    {"index": 9, "kind": "action", "payload": {"type": "all_in", "seat": 2}},
    {"index": 10, "kind": "action", "payload": {"type": "board", "cards": ""}},
    {"index": 11, "kind": "action", "payload": {"type": "run_it_twice", "agreed": [1, 2], "pots": [0]}},
    {"index": 12, "kind": "action", "payload": {"type": "show", "seat": 2, "cards": "AsKs"}},
    {"index": 13, "kind": "action", "payload": {"type": "muck", "seat": 1}},
    {"index": 14, "kind": "action", "payload": {"type": "award", "pot": 0, "winners": [2]}},
    {"index": 15, "kind": "action", "payload": {"type": "kill", "seat": 3}},
    {"index": 16, "kind": "action", "payload": {"type": "floor_award", "seats": [2]}},
    {"index": 17, "kind": "action", "payload": {"type": "deal", "cards": {"1": "AsKsQs"}}},
    {"index": 18, "kind": "action", "payload": {"type": "bring_in", "seat": 3}},
    {"index": 19, "kind": "action", "payload": {"type": "complete", "seat": 1, "to": 20}},
    {"index": 20, "kind": "action", "payload": {"type": "fold", "seat": 1, "cause": "time"}},
    {"index": 21, "kind": "out_of_turn", "payload": {"action": {"type": "raise", "seat": 3, "to": 60}}},
    {"index": 22, "kind": "action", "payload": {"type": "call", "seat": 3, "out_of_turn": 21}},
    {"index": 23, "kind": "note", "payload": {"type": "out_of_turn_released", "of": 21, "seat": 3}},
    {"index": 24, "kind": "clock", "payload": {"type": "time_called", "seat": 2, "seconds": 30}},
    {"index": 25, "kind": "correction", "payload": {"type": "void", "index": 4, "ruling": 1}},
    {"index": 26, "kind": "correction", "payload": {"type": "undo", "index": 5, "seat": 1, "action": {}}},
    {
        "index": 27,
        "kind": "correction",
        "payload": {"type": "replace", "index": 9, "action": {"type": "call", "seat": 2}, "ruling": 1},
    },
    {"index": 28, "kind": "correction", "payload": {"type": "adjust", "index": 8, "to": 300, "ruling": 1}},
    {"index": 29, "kind": "correction", "payload": {"type": "return_action", "index": 6, "held": [7], "ruling": 1}},
    {"index": 30, "kind": "correction", "payload": {"type": "kill", "seat": 3, "ruling": 1}},
    {"index": 31, "kind": "correction", "payload": {"type": "award", "seats": [2], "ruling": 1}},
    {"index": 32, "kind": "correction", "payload": {"type": "misdeal", "ruling": 1}},
    {"index": 33, "kind": "correction", "payload": {"type": "penalty", "seat": 3, "kind": "warning", "ruling": 1}},
]

ROOT = Path(__file__).resolve().parents[2]
RAW = re.compile(r"\b[A-Za-z]+_[a-z_]+\b|\bevent \d|\bEreignis \d")


def _appended_kinds() -> set[str]:
    """The event kinds the services append (``append_event(step, hand, index, "<kind>", ...)``)."""
    kinds = set()
    for path in (ROOT / "tables" / "services").glob("*.py"):
        kinds |= set(re.findall(r'append_event\(\s*step,\s*hand,\s*[^,]+,\s*"([a-z_]+)"', path.read_text()))
    return kinds


def test_the_samples_cover_every_kind_the_engine_and_services_append():
    kinds = {e["kind"] for e in SAMPLES}
    assert _appended_kinds() <= kinds, "a new event kind needs its words and a sample here"
    actions = {e["payload"]["type"] for e in SAMPLES if e["kind"] == "action"}
    assert set(HandState._HANDLERS) | set(StudState._HANDLERS) <= actions
    fixes = {e["payload"]["type"] for e in SAMPLES if e["kind"] == "correction"}
    assert set(corrections.CORRECTION_TYPES) <= fixes


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: f"{e['kind']}-{e['payload'].get('type', 'held')}")
def test_every_event_has_words_in_both_languages(event):
    by_index = {e["index"]: e for e in SAMPLES}
    texts = {}
    for lang in ("en", "de"):
        with translation.override(lang):
            texts[lang] = handwords.event_text(event, NAMES, by_index)
    for lang, text in texts.items():
        assert text.strip(), f"no words ({lang})"
        assert not RAW.search(text), f"raw name or event number in {lang}: {text!r}"
        kind = event["payload"].get("type") or event["kind"]
        assert text.strip().lower() != kind.replace("_", " "), f"only the raw name in {lang}: {text!r}"
    assert texts["de"] != texts["en"], f"not translated: {texts['en']!r}"
    word = (event["payload"].get("type") or event["kind"]).replace("_", " ")
    if word not in ("board", "run it twice", "all in"):  # German keeps these poker words
        assert not re.search(rf"\b{word}\b", texts["de"], re.IGNORECASE), f"English left in: {texts['de']!r}"


def test_a_correction_names_the_action_and_its_street_not_an_event_number():
    events = [
        {"index": 0, "kind": "start", "payload": {"type": "start", "button": 1}},
        {"index": 1, "kind": "action", "payload": {"type": "call", "seat": 1}},
        {"index": 2, "kind": "action", "payload": {"type": "check", "seat": 2}},
        {"index": 3, "kind": "action", "payload": {"type": "board", "cards": "Jc3d5c"}},
        {"index": 4, "kind": "action", "payload": {"type": "raise", "seat": 2, "to": 340}},
        {"index": 5, "kind": "correction", "payload": {"type": "void", "index": 4, "ruling": 1}},
    ]
    rows = {r["index"]: r for r in handwords.events_in_words(events, NAMES)}
    assert rows[5]["text"] == "Floor: Void: Ben (2) raises to 340 on the flop"
    assert rows[4]["street"] == "flop" and rows[1]["street"] == "preflop"
    with translation.override("de"):
        rows = {r["index"]: r for r in handwords.events_in_words(events, NAMES)}
    assert rows[5]["text"] == "Floor: Streichen: Ben (2) erhöht auf 340 am Flop"


def test_voided_replaced_held_and_taken_back_events_are_marked():
    events = [
        {"index": 0, "kind": "start", "payload": {"type": "start", "button": 1}},
        {"index": 1, "kind": "action", "payload": {"type": "fold", "seat": 3}},
        {"index": 2, "kind": "action", "payload": {"type": "all_in", "seat": 1}},
        {"index": 3, "kind": "action", "payload": {"type": "call", "seat": 2}},
        {"index": 4, "kind": "out_of_turn", "payload": {"action": {"type": "fold", "seat": 1}}},
        {"index": 5, "kind": "correction", "payload": {"type": "void", "index": 1, "ruling": 1}},
        {"index": 6, "kind": "correction", "payload": {"type": "replace", "index": 2, "ruling": 1,
                                                        "action": {"type": "raise", "seat": 1, "to": 40}}},
        {"index": 7, "kind": "correction", "payload": {"type": "undo", "index": 3, "seat": 2,
                                                        "action": {"type": "call", "seat": 2}}},
    ]  # fmt: skip
    rows = {r["index"]: r for r in handwords.events_in_words(events, NAMES)}
    assert rows[1]["status"] == "voided" and rows[1]["status_text"] == "voided"
    assert rows[2]["status"] == "replaced" and rows[2]["now"] == "Anna (1) raises to 40"
    assert rows[3]["status"] == "undone"
    assert rows[4]["status"] == "held" and rows[4]["text"] == "Out of turn: Anna (1) folds (held for its turn)"
    assert rows[7]["text"] == "Taken back by the dealer: Ben (2) calls preflop"
