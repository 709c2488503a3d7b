"""Actions are frozen typed records inside the engine (issue 25, :mod:`poker.hand.records`): a dict
reads into its record and back unchanged, a malformed dict is refused with the engine's codes, and
checking any action (``verify``/``can``) runs its check alone: no next state is built, and it
refuses exactly what ``apply`` refuses."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from poker.hand import EngineError, HandSpec, HandState, Rules, SeatSpec, StudSpec
from poker.hand.cards import RANKS, SUITS
from poker.hand.inplace import InPlaceState
from poker.hand.records import (
    ActionRecord,
    ActionType,
    AwardPot,
    Board,
    Check,
    Deal,
    FloorAward,
    Fold,
    Hole,
    Kill,
    Muck,
    Raise,
    RunItTwice,
    Show,
    parse_action,
)

DECK = [r + s for r in RANKS for s in SUITS]

#: Every shape the engine writes, each action type at least once (the dicts of today's JSON).
CANONICAL = [
    {"type": "fold", "seat": 3},
    {"type": "check", "seat": 3},
    {"type": "call", "seat": 3},
    {"type": "all_in", "seat": 3},
    {"type": "bring_in", "seat": 3},
    {"type": "muck", "seat": 3},
    {"type": "bet", "seat": 3, "to": 200},
    {"type": "raise", "seat": 3, "to": 400},
    {"type": "complete", "seat": 3, "to": 20},
    {"type": "hole", "seat": 3, "cards": "AsKs"},
    {"type": "hole", "seat": 3, "cards": "????"},
    {"type": "board", "cards": "Jc3d5c"},
    {"type": "board", "cards": ""},
    {"type": "board", "board": 2, "cards": "Jc3d5c"},
    {"type": "deal", "cards": {1: "AsKs7h", 2: "????Qd"}},
    {"type": "deal", "cards": {1: "Qc"}, "opener": 1},
    {"type": "deal", "community": "9d"},
    {"type": "show", "seat": 3, "cards": "AsKs"},
    {"type": "show", "seat": 3},
    {"type": "award", "pot": 0, "winners": [1, 2]},
    {"type": "award", "pot": 1, "winners2": [3], "winners": [1]},
    {"type": "award", "pot": 0, "winners": [1, 2], "odd_chip": 2},
    {"type": "kill", "seat": 3},
    {"type": "kill", "seat": 3, "reason": "mucked (PHH)"},
    {"type": "floor_award", "seats": [1, 3]},
    {"type": "run_it_twice", "pots": [0, 1], "agreed": [1, 2], "floor": True},
    {"type": "run_it_twice", "agreed": [1, 2], "floor": False},
]


def test_every_action_type_has_a_canonical_dict():
    assert {d["type"] for d in CANONICAL} == set(ActionType)
    assert set(HandState._HANDLERS) == set(ActionType) == set(HandState._CHECKS)


@pytest.mark.parametrize("data", CANONICAL, ids=lambda d: d["type"])
def test_a_dict_reads_into_its_record_and_back_unchanged(data):
    record = parse_action(data)
    assert isinstance(record, ActionRecord) and record.type == data["type"]
    assert record.to_dict() == data
    assert json.dumps(record.to_dict()) == json.dumps(data)  # the same bytes, keys in the same order
    assert parse_action(record.to_dict()) == record and parse_action(record) is record
    assert type(record.to_dict()["type"]) is str  # a plain string, not the enum member
    # a frozen, slotted dataclass: no instance dict, no change after it is made, a dict key
    assert dataclasses.is_dataclass(record) and not hasattr(record, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, dataclasses.fields(record)[0].name, 9)
    assert {record: 1}[parse_action(data)] == 1


def test_json_from_the_tablet_reads_the_same():
    # JSON writes a deal's seats as strings; the record holds ints and writes the same JSON back
    data = json.loads('{"type": "deal", "cards": {"1": "AsKs7h", "2": "????Qd"}, "opener": 2}')
    record = parse_action(data)
    assert record == Deal(((1, "AsKs7h"), (2, "????Qd")), None, 2)
    assert json.loads(json.dumps(record.to_dict())) == data
    # a whole float is taken as an int (as the engine always did); keys it does not read stay out
    assert parse_action({"type": "raise", "seat": 3, "to": 400.0, "out_of_turn": 4}) == Raise(3, 400)
    assert parse_action({"type": "award", "pot": 0, "winners": [1]}) == AwardPot(0, (1,))


#: (dict, code): a field of the wrong type, refused with the code the engine gives that field.
MALFORMED = [
    (["fold", 3], "bad_action"),
    ({"type": "dance", "seat": 3}, "bad_action"),
    ({"seat": 3}, "bad_action"),
    ({"type": ["fold"], "seat": 3}, "bad_action"),
    ({"type": "raise", "seat": 3, "to": "lots"}, "bad_action"),
    ({"type": "raise", "seat": 3, "to": 300.5}, "bad_action"),
    ({"type": "bet", "seat": 3, "to": True}, "bad_action"),
    ({"type": "bet", "seat": 3}, "bad_action"),
    ({"type": "call", "seat": "3"}, "no_such_seat"),
    ({"type": "fold"}, "no_such_seat"),
    ({"type": "check", "seat": True}, "no_such_seat"),
    ({"type": "hole", "seat": 1, "cards": 5}, "bad_cards"),
    ({"type": "show", "seat": 1, "cards": ["As", "Ks"]}, "bad_cards"),
    ({"type": "board", "cards": 123}, "bad_cards"),
    ({"type": "board", "board": "2", "cards": ""}, "wrong_phase"),
    ({"type": "deal", "cards": "AsKs7h"}, "bad_cards"),
    ({"type": "deal", "cards": {"x": "AsKs7h"}}, "no_such_seat"),
    ({"type": "award", "pot": "0", "winners": [1]}, "bad_award"),
    ({"type": "award", "pot": 0, "winners": 1}, "bad_award"),
    ({"type": "award", "pot": 0, "winners": ["1"]}, "no_such_seat"),
    ({"type": "award", "pot": 0, "winners": [1], "odd_chip": "1"}, "no_such_seat"),
    ({"type": "floor_award", "seats": "13"}, "bad_award"),
    ({"type": "kill", "seat": None}, "no_such_seat"),
    ({"type": "run_it_twice", "agreed": 1}, "bad_action"),
    ({"type": "run_it_twice", "agreed": [1, 2], "pots": "0"}, "bad_action"),
    ({"type": "run_it_twice", "agreed": [1, 2], "pots": [0, "1"]}, "bad_action"),
]


@pytest.mark.parametrize("data, code", MALFORMED, ids=[f"{c}-{i}" for i, (_, c) in enumerate(MALFORMED)])
def test_a_malformed_dict_is_refused_with_the_engines_code(data, code):
    with pytest.raises(EngineError) as parsed:
        parse_action(data)
    assert parsed.value.code == code and parsed.value.message
    seats = [SeatSpec(i, f"p{i}", 1000) for i in (1, 2, 3)]
    if isinstance(data, dict) and data.get("type") in ("deal", "bring_in", "complete"):
        state = HandState.start(StudSpec.standard(seats, dealer=1, ante=5, bring_in=10, small_bet=20))
    else:
        state = HandState.start(HandSpec.standard(seats, 3, 50, 100))
    for run in (state.apply, state.verify):
        with pytest.raises(EngineError) as refused:
            run(data)
        assert (refused.value.code, refused.value.message) == (parsed.value.code, parsed.value.message)
    assert not state.can(data)


def test_the_messages_of_todays_checks_are_kept():
    state = HandState.start(HandSpec.standard([SeatSpec(i, f"p{i}", 1000) for i in (1, 2, 3)], 3, 50, 100))
    for data, message in (
        ("x", "An action must be a dict, got str."),
        ({"type": "dance"}, "Unknown action type 'dance'."),
        ({"seat": 3}, "Unknown action type None."),
        ({"type": "deal", "cards": 5}, "Unknown action type 'deal'."),  # a stud game's action: its fields unread
        ({"type": "raise", "seat": 3, "to": "lots"}, "'to' must be an integer amount of chips, got 'lots'."),
        ({"type": "call", "seat": "3"}, "No player dealt in at seat '3'."),
    ):
        with pytest.raises(EngineError) as refused:
            state.apply(data)
        assert refused.value.message == message


def test_records_check_their_fields_when_made():
    assert Raise(3, 400.0) == Raise(3, 400) and type(Raise(3, 400.0).to) is int
    assert AwardPot(0, [1, 2]).winners == (1, 2)  # a list becomes a tuple (hashable)
    assert Hole(1, 0).cards is None  # a false value: no cards entered
    for make, code in (
        (lambda: Raise(3, "lots"), "bad_action"),
        (lambda: Fold("3"), "no_such_seat"),
        (lambda: Show(1, 5), "bad_cards"),
        (lambda: FloorAward(3), "bad_award"),
    ):
        with pytest.raises(EngineError) as refused:
            make()
        assert refused.value.code == code


# ------------------------------------------------------------- verify builds no state
def _no_copy(state):
    raise AssertionError("verify/can built a state")


def _refusal(run, action: ActionRecord) -> str | None:
    """The code of the EngineError ``run(action)`` raises, or None."""
    try:
        run(action)
    except EngineError as exc:
        return exc.code
    return None


def _verdicts(state: HandState, candidates: list[ActionRecord], monkeypatch) -> list[str | None]:
    """What ``verify`` says of each candidate with ``_copy`` (every handler's new state) refused,
    checked against ``can`` and against what ``apply`` does."""
    with monkeypatch.context() as patched:
        patched.setattr(HandState, "_copy", _no_copy)
        verdicts = [_refusal(state.verify, action) for action in candidates]
        assert [state.can(action) for action in candidates] == [code is None for code in verdicts]
    applied = [_refusal(state.apply, action) for action in candidates]
    assert applied == verdicts, [(a, v, w) for a, v, w in zip(candidates, verdicts, applied) if v != w]
    return verdicts


def _flop_candidates(state: HandState, rng: random.Random) -> list[ActionRecord]:
    seats = [s.seat for s in state.spec.seats] + [9]
    used = {c for cards in state.hole_cards for c in cards or ()} | set(state.board)
    free = [c for c in DECK if c not in used]
    rng.shuffle(free)
    out: list[ActionRecord] = [Board(""), Board("".join(free[:3])), Board("".join(free[:1])), Board("AsAs")]
    out += [Board("".join(free[: state.board_cards_due]), board) for board in (1, 2)]
    for seat in seats:
        pos = state.spec.position_of(seat) if seat != 9 else None
        held = state.hole_cards[pos] if pos is not None else None
        out += [Show(seat), Show(seat, "".join(free[:2])), Show(seat, "????"), Muck(seat), Kill(seat)]
        if held is not None:
            out.append(Show(seat, "".join(held)))
        out += [Hole(seat, "".join(free[2:4])), Hole(seat, "".join(state.board[:2]) or None), Hole(seat, "As")]
        out += [FloorAward((seat,)), FloorAward((seat, seat))]
    for pot in (0, 1, 5):
        out += [AwardPot(pot, (seat,)) for seat in seats] + [AwardPot(pot, ()), AwardPot(pot, (1, 2), (2,))]
    out += [RunItTwice((1, 2)), RunItTwice(tuple(seats[:-1]), None, True), RunItTwice((1, 2), (0, 0)), RunItTwice(())]
    return out + [Check(seats[0]), Raise(seats[0], 10_000)]


@pytest.mark.parametrize("boards, min_pot", [(1, None), (1, 0), (2, None)])
def test_verify_of_any_flop_action_builds_no_state_and_says_what_apply_does(boards, min_pot, monkeypatch):
    rng = random.Random(f"verify-{boards}-{min_pot}")
    checked = set()
    for _ in range(12):
        n = rng.randint(2, 4)
        seats = [SeatSpec(i + 1, f"p{i + 1}", rng.choice([100, 400, 1000])) for i in range(n)]
        rules = Rules(allow_hole_cards_unknown=rng.random() < 0.5)
        spec = HandSpec.standard(seats, n, 25, 50, rules=rules, boards=boards, run_it_twice_min_pot=min_pot)
        state = HandState.start(spec)
        deck = DECK[:]
        rng.shuffle(deck)
        for seat in seats:
            if rng.random() < 0.7:
                state = state.deal_hole(seat.seat, deck.pop() + deck.pop())
        while True:
            candidates = _flop_candidates(state, rng)
            verdicts = _verdicts(state, candidates, monkeypatch)
            checked |= {(a.type, v is None) for a, v in zip(candidates, verdicts)}
            legal = [a for a, v in zip(candidates, verdicts) if v is None and not isinstance(a, FloorAward | Kill)]
            if state.phase == "complete" or not legal and state.phase != "betting":
                break
            if state.phase == "betting":
                options = state.legal()
                r = rng.random()
                if options.call_amount and r < 0.15:
                    state = state.fold(options.seat)
                elif r > 0.75 and state.can_all_in(options.seat):
                    state = state.go_all_in(options.seat)  # (a run-out: run it twice)
                else:
                    state = state.call(options.seat) if options.call_amount else state.check(options.seat)
            else:
                state = state.apply(rng.choice(legal))
    for kind in ("show", "muck", "board", "hole", "award", "kill", "floor_award"):
        assert (kind, True) in checked and (kind, False) in checked, kind
    if min_pot == 0:
        assert ("run_it_twice", True) in checked


def test_verify_of_a_stud_deal_builds_no_state(monkeypatch):
    seats = [SeatSpec(i + 1, f"p{i + 1}", 500) for i in range(3)]
    state = HandState.start(StudSpec.standard(seats, dealer=1, ante=5, bring_in=10, small_bet=20))
    candidates: list[ActionRecord] = [
        Deal(((1, "AsKs7h"), (2, "2c3c4c"), (3, "5d6d8d"))),
        Deal(((1, "AsKs7h"), (2, "AsKs7h"))),
        Deal(((1, "AsKs"),)),
        Deal(((1, "????7h"), (2, "????7d"), (3, "????7c")), None, 2),
        Deal(((1, "????7h"), (2, "????7d"), (3, "????7c")), None, 1),
        Deal(((1, "????7h"), (2, "????7d"), (3, "????7c"))),
        Deal(((1, "??????"), (2, "????7d"), (3, "????7c"))),
        Deal(None, "9d"),
        Deal(((9, "AsKs7h"),)),
    ]
    assert _verdicts(state, candidates, monkeypatch) == [
        None,
        "duplicate_card",
        "bad_cards",
        "bad_action",  # the cards showing name seat 3 to bring in (7c), not seat 2
        "bad_action",
        None,
        "bad_cards",  # an up card unknown: the opener must be named
        "bad_cards",
        "no_such_seat",
    ]


def test_an_in_place_state_checks_on_itself_without_freezing(monkeypatch):
    spec = HandSpec.standard([SeatSpec(i, f"p{i}", 1000) for i in (1, 2, 3)], 3, 50, 100)
    state = InPlaceState.begin(spec)
    state.step(Hole(1, "AsKs"))
    monkeypatch.setattr(InPlaceState, "freeze", _no_copy)
    assert not state.can(Show(1)) and state.can(Hole(2, "QdQc")) and not state.can(Hole(2, "AsQc"))
    with pytest.raises(EngineError) as refused:
        state.verify({"type": "show", "seat": 1})
    assert refused.value.code == "wrong_phase"
    assert state.history == () and state.phase == "betting"
