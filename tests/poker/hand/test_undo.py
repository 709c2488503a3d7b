"""The dealer takes back a wrong entry (poker.hand.undo; 000 Aktionen 2, 002 #5/#10, 004 #49/#52)."""

from __future__ import annotations

from poker.hand import HandSpec, SeatSpec
from poker.hand.corrections import replay
from poker.hand.undo import undo_decision, undo_history
from poker.houserules import get_profile, with_overrides

SPEC = HandSpec.standard([SeatSpec(i + 1, f"p{i + 1}", 1000) for i in range(4)], 4, 50, 100)


def events(*actions, start=1):
    """``(index, kind, payload)`` of a hand: the start event, then the actions (or given tuples)."""
    out = [(0, "start", {"type": "start", "button": 4})]
    for k, a in enumerate(actions, start=start):
        out.append(a if isinstance(a, tuple) else (k, "action", a))
    return out


def labels(decision):
    return [c.label for c in decision.citations]


def test_the_last_action_can_be_taken_back_citing_the_profile():
    ev = events({"type": "fold", "seat": 3})
    d = undo_decision(get_profile("munotpoker"), ev)
    assert d.allowed and d.index == 1 and d.action["seat"] == 3
    assert labels(d) == ["004 #49", "004 #52"]
    assert labels(undo_decision(get_profile("casino-cash"), ev)) == ["000 Aktionen 2"]
    assert labels(undo_decision(get_profile("betting-rules"), ev)) == ["002 #5", "002 #10"]


def test_replay_without_the_undone_fold_gives_the_turn_back():
    ev = events({"type": "fold", "seat": 3}, (2, "correction", {"type": "undo", "index": 1}))
    r = replay(SPEC, ev)
    assert r.state.to_act_seat == 3 and not r.state.folded[SPEC.position_of(3)]
    assert r.undone == [1] and r.voided == {1} and r.corrected


def test_refused_once_the_next_player_acted():
    ev = events({"type": "fold", "seat": 3}, {"type": "call", "seat": 4})
    d = undo_decision(get_profile("betting-rules"), ev, 1)
    assert not d.allowed and d.code == "next_player_acted" and "nobody" not in d.reason_en
    assert undo_decision(get_profile("betting-rules"), ev).index == 2  # the call is still the dealer's to take back


def test_refused_once_a_card_is_dealt():
    ev = events(
        {"type": "call", "seat": 3},
        {"type": "call", "seat": 4},
        {"type": "call", "seat": 1},
        {"type": "check", "seat": 2},
        {"type": "board", "cards": ""},
    )
    d = undo_decision(get_profile("tda-2024"), ev)
    assert not d.allowed and d.code == "card_dealt" and d.index == 4


def test_hole_cards_entered_later_do_not_stop_it():
    ev = events({"type": "fold", "seat": 3}, {"type": "hole", "seat": 1, "cards": "AsKs"})
    assert undo_decision(get_profile("tda-2024"), ev).allowed


def test_procedure_actions_and_kills_are_the_floors():
    ev = events({"type": "kill", "seat": 1, "reason": "absent"})
    assert undo_decision(get_profile("tda-2024"), ev).code == "nothing_to_undo"
    timed = events({"type": "fold", "seat": 3, "cause": "time"})
    assert undo_decision(get_profile("tda-2024"), timed).code == "not_undoable"
    assert undo_decision(get_profile("tda-2024"), timed, 7).code == "not_undoable"  # no such action


def test_a_profile_without_table_undo_refuses():
    profile = with_overrides(get_profile("tda-2024"), dealer_undo="none")
    d = undo_decision(profile, events({"type": "fold", "seat": 3}))
    assert not d.allowed and d.code == "undo_not_allowed" and d.reason_de


def test_history_lists_the_standing_actions_newest_first():
    ev = events(
        {"type": "fold", "seat": 3},
        (2, "correction", {"type": "undo", "index": 1}),
        {"type": "call", "seat": 3},
        {"type": "raise", "seat": 4, "to": 300},
        start=3,
    )
    ev = [(i, k, p) for i, (_, k, p) in enumerate(ev)]
    history = undo_history(get_profile("tda-2024"), ev)
    assert [(d.index, d.allowed, d.code) for d in history] == [(4, True, "ok"), (3, False, "next_player_acted")]
    assert history[0].to_dict()["citations"][0]["label"] == "TDA 2024 Rule 49"
