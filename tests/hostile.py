"""Hypothesis strategies for hostile input: messages of every type of every socket and JSON endpoint, valid
or with one field broken (wrong type, bool or float for an int, huge or negative ints, lists and objects for
scalars, NUL and lone surrogates, over-long strings, deep nesting, unknown types, missing fields) or with
extra fields.

A message is drawn as ``(data, invalid)``: ``data`` is the JSON-able message (or a ``Raw`` frame), ``invalid``
tells whether the edge schema must refuse it.  ``CURRENT`` stands for the current ``seq`` of the thing the
message is sent to (filled in at send time, so that valid messages really apply).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

CURRENT = "\x00CURRENT-SEQ\x00"


@dataclass(frozen=True)
class Raw:
    """A frame sent as it is (not JSON-encoded by the test)."""

    text: str


# --------------------------------------------------------------------------- values
SAFE_TEXT = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=12)
HOSTILE_STRINGS = st.sampled_from(["a\x00b", "\x00", "\ud800", "x\udfffy", "é" * 40, "'; DROP TABLE x; --", ""])
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    SAFE_TEXT,
    HOSTILE_STRINGS,
)
#: Free-form JSON objects (format, spec, details, observed): valid for the schema, hostile for the service.
JUNK_DICT = st.dictionaries(
    st.one_of(SAFE_TEXT, HOSTILE_STRINGS, st.sampled_from(["type", "seat", "to", "kind", "seats", "amount"])),
    st.recursive(
        JSON_SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(SAFE_TEXT, inner, max_size=3),
        max_leaves=6,
    ),
    max_size=4,
)

BAD_INT = [True, False, 5.0, 1.5, 1e300, "5", [1], {"a": 1}, 2**64, -(2**64), 10**30]


#: kind -> (valid values strategy, values that must be refused)
def kinds(ids: list[int]) -> dict[str, tuple[st.SearchStrategy, list]]:
    id_values = st.sampled_from(ids) if ids else st.integers(1, 10)
    return {
        "seat": (st.integers(1, 10), [*BAD_INT, 0, -1, 11, 32768]),
        "id": (st.one_of(id_values, st.integers(1, 2**63 - 1)), [*BAD_INT, 0, -1]),
        "seq": (st.one_of(st.just(CURRENT), st.integers(0, 2**63 - 1)), [*BAD_INT, -1]),
        "chips": (st.one_of(st.integers(0, 1000), st.integers(0, 2**63 - 1)), [*BAD_INT, -1]),
        "client_id": (
            st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=64),
            [5, True, [1], {"a": 1}, "", "a\x00b", "\ud800", "x" * 65],
        ),
        "text500": (SAFE_TEXT, [5, True, [1], {"a": 1}, "a\x00b", "\ud800", "x" * 501]),
        "name": (SAFE_TEXT.filter(bool), [5, True, [1], {"a": 1}, "", "a\x00b", "\ud800", "x" * 81]),
        "label": (SAFE_TEXT, [5, True, [1], "a\x00b", "\ud800", "x" * 81]),
        "bool": (st.booleans(), [1, 0, "true", 1.0, [True], {"a": 1}]),
        "cards": (st.sampled_from(["", "AsKd", "Ah Kh Qh", "??", "2c3c"]), [5, True, [1], "\x00", "A$", "x" * 65]),
        "board12": (st.sampled_from([1, 2]), [True, 0, 3, 1.0, "1"]),
        "pot": (st.integers(0, 3), [True, -1, 21, 1.0, "0", [0]]),
        "seats": (st.lists(st.integers(1, 10), max_size=4), [5, True, "1", [True], [0], [1.0], [[1]], [11], [1] * 11]),
        "pots": (st.lists(st.integers(0, 3), max_size=3), [5, [True], [-1], [21], "0"]),
        "amounts": (st.lists(st.integers(0, 10_000), max_size=5), [5, [True], [-1], [1.5], ["1"]]),
        "dict": (JUNK_DICT, [5, True, "x", [1], 1.5]),
        "seconds": (st.integers(-100, 100), [True, 1.0, 86_401, -86_401, 10**12, "5"]),
        "level": (st.integers(1, 5), [True, 0, 1001, 1.0, "2"]),
        "callsec": (st.integers(10, 3600), [True, 9, 3601, 10**10, 60.0, "60"]),
        "tabno": (st.integers(1, 3), [True, 0, 10_001, 1.0, "1"]),
        "race": (st.integers(1, 1000), [True, 0, 10**10, 1.0, "5"]),
        "chipcards": (st.just({"A": ["As"]}), [5, {"A": "As"}, {"A": ["ZZ"]}, {"\x00": ["As"]}, {"A": [5]}]),
        # what the dealer saw for the chip interpreter (docs/interpret.md), typed at the edge
        "observed": (
            st.fixed_dictionaries(
                {},
                optional={
                    "chips": st.one_of(
                        st.dictionaries(st.sampled_from(["5", "25", "100", "1000"]), st.integers(0, 20), max_size=3),
                        st.lists(st.sampled_from([5, 25, 100, 1000]), max_size=4),
                    ),
                    "declared": st.sampled_from([None, "call", "raise", "erhöhe", "all-in"]),
                    "declared_before_chips": st.booleans(),
                    "declared_amount": st.one_of(st.none(), st.integers(0, 10_000)),
                    "motions": st.integers(1, 3),
                },
            ),
            [
                5,
                "x",
                [1],
                {"chips": [float("inf")]},
                {"chips": {"5": float("nan")}},
                {"chips": [-float("inf")]},
                {"chips": {"5": 1.5}},
                {"chips": [1e300]},
                {"chips": "x"},
                {"chips": {"five": 1}},
                {"declared": 5},
                {"declared": "a\x00b"},
                {"declared_amount": 1.5},
                {"motions": "2"},
                {"amount_kind": "over"},
            ],
        ),
    }


def lit(*values: str) -> tuple[st.SearchStrategy, list]:
    return st.sampled_from(values), [5, True, "explode", "\x00", "\ud800", [values[0]]]


# --------------------------------------------------------------------------- message specs
# A spec: tag key ("type"/"op"/None), {tag value: [(field, kind, required)]}; kind may be ("nested", spec).
MUT = [("client_id", "client_id", False), ("expected_seq", "seq", False)]
SEAT = [("seat", "seat", True)]
_BETTING = {
    "fold": SEAT,
    "check": SEAT,
    "call": SEAT,
    "all_in": SEAT,
    "bet": [*SEAT, ("to", "chips", True)],
    "raise": [*SEAT, ("to", "chips", True)],
}
BETTING = ("type", _BETTING, ["kill", "floor_award", "run_it_twice", "hole", "explode"])
DEALER_ACTION = (
    "type",
    {
        **_BETTING,
        "hole": [*SEAT, ("cards", "cards", False)],
        "show": [*SEAT, ("cards", "cards", False)],
        "muck": SEAT,
        "board": [("cards", "cards", False), ("board", "board12", False)],
        "award": [("pot", "pot", True), ("winners", "seats", True), ("winners2", "seats", False)],
    },
    # engine-internal corrections never reach the engine from a dealer
    ["kill", "floor_award", "run_it_twice", "void", "adjust", "misdeal", "explode"],
)
REASONS = ("out_of_turn", "chip_action", "misdeal", "exposed_card", "premature_board", "time", "dispute", "other")
DEALER = (
    "type",
    {
        "action": [*MUT, ("action", ("nested", DEALER_ACTION), True)],
        "start_hand": [*MUT, ("format", "dict", False), ("spec", "dict", False)],
        "out_of_turn": [*MUT, ("action", ("nested", BETTING), True)],
        "call_time": [*MUT, *SEAT],
        "time_expired": MUT,
        "floor_call": [
            *MUT,
            ("reason", ("lit", REASONS), True),
            ("seat", "seat", False),
            ("note", "text500", False),
            ("details", "dict", False),
        ],
        "interpret": [*MUT, ("observed", "observed", True)],
        "run_it_twice": [*MUT, ("agreed", "seats", True), ("pots", "pots", False), ("floor", "bool", False)],
        "snapshot": [("table_id", "id", False)],
    },
    ["explode", "kill", "floor_award", "ack", "update", "batch"],
)
FLOOR = (
    "type",
    {
        "snapshot": [("table_id", "id", False)],
    },
    ["explode", "action", "start_hand", "call_time", "time_expired"],
)
SNAPSHOT_ONLY = ("type", {"snapshot": [("table_id", "id", False)]}, ["explode", "action", "time_expired", "op"])
ROOM_ACT = (
    "op",
    {
        "waitlist_add": [
            ("game_id", "id", True),
            ("name", "label", False),
            ("source", ("lit", ("walk_in", "phone_in")), False),
        ],
        "waitlist_remove": [("entry_id", "id", True)],
        "call": [("game_id", "id", True)],
        "accept": [("call_id", "id", True)],
        "decline": [("call_id", "id", True)],
        "sweep": [],
        "seat": [("entry_id", "id", True), ("table_id", "id", True), *SEAT],
        "buy_in": [("table_id", "id", True), *SEAT, ("amount", "chips", True)],
        "add_on": [("table_id", "id", True), *SEAT, ("amount", "chips", True)],
        "leave": [("table_id", "id", True), *SEAT],
        "move": [
            ("from_table_id", "id", True),
            ("from_seat", "seat", True),
            ("to_table_id", "id", True),
            ("to_seat", "seat", True),
        ],
        "absent": [("table_id", "id", True), *SEAT, ("absent", "bool", False)],
        "table_open": [("table_id", "id", True), ("open", "bool", False)],
        "dealer": [("table_id", "id", True), ("username", ("lit", ("dealer", "floor", "nobody")), False)],
        "change_request": [("table_id", "id", True), *SEAT, ("to_table_id", "id", True)],
        "change_approve": [("change_id", "id", True), *SEAT],
        "change_refuse": [("change_id", "id", True)],
        "display": [("label", "label", False)],
        "settings": [
            ("call_seconds", "callsec", False),
            ("lobby_names", ("lit", ("full", "initials")), False),
            ("lobby_stacks", "bool", False),
        ],
    },
    ["explode", "kill", "create_room"],
)
DIRECTOR = (
    "op",
    {
        "register": [("player", "name", True), ("reserve", "bool", False)],
        **{op: [("entry", "id", True)] for op in ("check_in", "re_enter", "surrender", "no_rebuy")},
        "rebuy": [("entry", "id", True), ("add_on", "bool", False)],
        **{op: [] for op in ("seat_waitlist", "start", "rebalance", "execute_moves")},
        "clock": [
            (
                "clock",
                ("lit", ("start", "pause", "resume", "adjust", "jump", "hand_for_hand", "leave_hand_for_hand")),
                True,
            ),
            ("seconds", "seconds", False),
            ("level", "level", False),
        ],
        "undo_move": [("instruction", "id", True)],
        "chip_race": [
            ("table", "tabno", True),
            ("removed", "race", True),
            ("new", "race", True),
            ("cards", "chipcards", False),
        ],
        "payouts": [("amounts", "amounts", False)],
    },
    ["explode", "delete", "bust"],
)
ABSENT = (None, {None: [*SEAT, ("absent", "bool", True)]}, [])


@st.composite
def _valid(draw, spec, kind_map) -> dict:
    tag_key, types, _unknown = spec
    tag = draw(st.sampled_from(sorted(types, key=str)))
    data: dict[str, Any] = {} if tag_key is None else {tag_key: tag}
    for field, kind, required in types[tag]:
        if required or draw(st.booleans()):
            data[field] = draw(_value(kind, kind_map))
    return data


def _value(kind, kind_map) -> st.SearchStrategy:
    if isinstance(kind, tuple) and kind[0] == "nested":
        return _valid(kind[1], kind_map)
    if isinstance(kind, tuple) and kind[0] == "lit":
        return lit(*kind[1])[0]
    return kind_map[kind][0]


def _bad_values(kind, kind_map) -> list:
    if isinstance(kind, tuple) and kind[0] == "nested":
        return [5, "fold", [], None, True]
    if isinstance(kind, tuple) and kind[0] == "lit":
        return lit(*kind[1])[1]
    return kind_map[kind][1]


def _fields(spec, data: dict) -> list[tuple[list[str], Any, bool]]:
    """(path, kind, required) of every field present or possible in ``data`` (nested ones too)."""
    tag_key, types, _ = spec
    out = []
    for field, kind, required in types[data.get(tag_key) if tag_key else None]:
        out.append(([field], kind, required))
        if isinstance(kind, tuple) and kind[0] == "nested" and isinstance(data.get(field), dict):
            out += [([field, *p], k, r) for p, k, r in _fields(kind[1], data[field])]
    return out


def _set(data: dict, path: list[str], value: Any, delete: bool = False) -> None:
    for part in path[:-1]:
        data = data[part]
    if delete:
        data.pop(path[-1], None)
    else:
        data[path[-1]] = value


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


RAW_FRAMES = [
    "",
    "not json",
    "[1, 2]",
    "null",
    "5",
    '"x"',
    "{",
    '{"type": "snapshot"',
    "[" * 1000 + "]" * 1000,
    '{"type": ' + "[" * 5000,
    '{"a": ' * 2000 + "1" + "}" * 2000,
    "{" + '"x": 1,' * 20000 + '"type": "snapshot"}',
    '{"type": "\\ud800"}',
    '{"type": "snapshot", "table_id": 1e999}',
    '{"type": "snapshot", "table_id": NaN}',
    # non-finite numbers anywhere, even where a free-form object or an unknown key is allowed
    '{"type": "snapshot", "x": Infinity}',
    '{"type": "snapshot", "op": "sweep", "x": [NaN]}',
    '{"type": "interpret", "op": "sweep", "observed": {"chips": [Infinity]}}',
    '{"type": "floor_call", "op": "sweep", "reason": "other", "details": {"x": -Infinity}}',
    '{"type": "start_hand", "op": "sweep", "format": {"kind": 1e999}}',
    '{"op": "sweep", "op": "explode"}',
]


@st.composite
def messages(draw, spec, ids: list[int] | None = None) -> tuple[Any, bool]:
    """One message of ``spec``: ``(data, invalid)``."""
    kind_map = kinds(ids or [])
    data = draw(_valid(spec, kind_map))
    tag_key, types, unknown = spec
    how = draw(
        st.sampled_from(
            ["valid", "valid", "extra", "mutate", "mutate", "mutate", "missing", "unknown", "raw", "deep", "not_object"]
        )
    )
    if how == "valid":
        return data, False
    if how == "extra":
        data[draw(st.sampled_from(["zzz", "\x00", "\ud800", "actor", "role"]))] = draw(JSON_SCALARS)
        return data, False
    if how == "mutate":
        fields = _fields(spec, data)
        if fields:
            path, kind, _ = draw(st.sampled_from(fields))
            try:
                _set(data, path, draw(st.sampled_from(_bad_values(kind, kind_map))))
                return data, True
            except (KeyError, TypeError):
                pass
        how = "unknown"
    if how == "missing":
        required = [(p, k) for p, k, r in _fields(spec, data) if r]
        if required:
            path, _ = draw(st.sampled_from(required))
            _set(data, path, None, delete=True)
            return data, True
        how = "unknown"
    if how == "unknown" and tag_key is not None:
        data[tag_key] = draw(st.sampled_from([*unknown, 5, None, True, [tag_key], "\x00", "\ud800"]))
        return data, True
    if how == "deep":
        key = draw(st.sampled_from([f for f, _, _ in types[data.get(tag_key) if tag_key else None]] or ["x"]))
        data[key] = _deep(draw(st.sampled_from([13, 50, 1000])))
        return data, True
    if how == "not_object":
        return draw(st.sampled_from([[data], 5, "x", None, True])), True
    return Raw(draw(st.sampled_from(RAW_FRAMES))), True


def encode(data: Any, seq: int) -> str:
    """The frame text of a drawn message, ``CURRENT`` replaced by ``seq``."""
    if isinstance(data, Raw):
        return data.text
    text = json.dumps(data)
    return text.replace(json.dumps(CURRENT), str(seq))
