"""Message schemas at the edge: every websocket message and JSON body is typed and bounded here.

One schema per socket and endpoint, as pydantic v2 tagged unions (discriminated by ``type`` or ``op``):
a message is parsed once, at the edge, before any service sees it.  The consumers and views call
:func:`parse`; a bad message raises :class:`MessageError` (code ``invalid``, the offending field named),
the socket stays open and nothing changes.  ``docs/protocol.md``'s message reference is generated from
these schemas (``manage.py protocol_doc``; ``tests/test_protocol_doc.py`` fails when it is out of date).

Why pydantic rather than Django forms: the messages are nested JSON (an action inside a message, lists of
seats, a format object), discriminated by a tag; pydantic validates nested tagged unions in one pass,
rejects bools and floats where ints are meant (strict mode), and gives a JSON schema to document from.

The building blocks (``Seat``, ``Chips``, ``ClientId``, ``Text`` ...) are shared by the room and
tournament schemas (``room/schemas.py``, ``tournaments/schemas.py``).
"""

from __future__ import annotations

import json
import math
import threading
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)

#: Deepest nesting of arrays and objects a message may have (checked before ``json.loads``).
MAX_DEPTH = 12
#: Longest message accepted, in characters.
MAX_CHARS = 64 * 1024
#: Highest id, seq or chip amount accepted (PostgreSQL bigint).
MAX_BIGINT = 2**63 - 1


class MessageError(Exception):
    """A message that does not fit its schema: ``code`` is always ``"invalid"``, ``field`` the dotted path
    of the first offending field (``""`` for the message as a whole), ``message`` a human sentence."""

    code = "invalid"

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, Any]:
        """JSON form sent to clients: ``{"code": "invalid", "message", "field"}``."""
        return {"code": self.code, "message": self.message, "field": self.field}


def _clean_text(value: str) -> str:
    """Refuse text PostgreSQL cannot store or a client cannot show: NUL and lone surrogates."""
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode (no lone surrogates)") from None
    return value


#: The validator of every free text of a message: no NUL, no lone surrogate (``Annotated[str, ..., CLEAN_TEXT]``).
CLEAN_TEXT = AfterValidator(_clean_text)


def text(max_length: int, *, min_length: int = 0) -> Any:
    """A bounded string type free of NUL and lone surrogates (``Annotated[str, ...]``), for a field built at
    run time; a module-level alias spells it out (``Annotated[str, StringConstraints(...), CLEAN_TEXT]``) so
    that type checkers read it as a type."""
    return Annotated[str, StringConstraints(min_length=min_length, max_length=max_length), CLEAN_TEXT]


Text = Annotated[str, StringConstraints(min_length=0, max_length=500), CLEAN_TEXT]
Name = Annotated[str, StringConstraints(min_length=1, max_length=80), CLEAN_TEXT]
ClientId = Annotated[str, StringConstraints(min_length=1, max_length=64), CLEAN_TEXT]
#: A short word of a message (a declaration, a procedure step's answer).
Word = Annotated[str, StringConstraints(min_length=0, max_length=40), CLEAN_TEXT]
Cards = Annotated[str, StringConstraints(max_length=64, pattern=r"^[0-9A-Za-z?, ]*$")]
Id = Annotated[StrictInt, Field(ge=1, le=MAX_BIGINT)]
Seq = Annotated[StrictInt, Field(ge=0, le=MAX_BIGINT)]
Chips = Annotated[StrictInt, Field(ge=0, le=MAX_BIGINT)]
#: A table seat number (tables have at most 10 seats; a seat beyond the table's size is refused by the service).
Seat = Annotated[StrictInt, Field(ge=1, le=10)]
Seats = Annotated[list[Seat], Field(max_length=10)]


class Message(BaseModel):
    """Base of every message: unknown keys are ignored, known keys are strictly typed."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


# --------------------------------------------------------------------------- dealer actions
class _SeatAction(Message):
    seat: Seat


class Fold(_SeatAction):
    """The player at ``seat`` folds."""

    type: Literal["fold"]


class Check(_SeatAction):
    """The player at ``seat`` checks."""

    type: Literal["check"]


class Call(_SeatAction):
    """The player at ``seat`` calls (all-in for less when short)."""

    type: Literal["call"]


class AllIn(_SeatAction):
    """The player at ``seat`` moves all in."""

    type: Literal["all_in"]


class Bet(_SeatAction):
    """A bet to ``to`` chips in front of the player on this street."""

    type: Literal["bet"]
    to: Chips


class Raise(_SeatAction):
    """A raise to ``to`` chips in front of the player on this street."""

    type: Literal["raise"]
    to: Chips


class Hole(_SeatAction):
    """Hole cards of ``seat`` (optional; unknown cards may be left out)."""

    type: Literal["hole"]
    cards: Cards | None = None


class Board(Message):
    """The next street's cards (``""`` just advances); ``board`` names board 1 or 2 of a double board."""

    type: Literal["board"]
    cards: Cards | None = None
    board: Annotated[StrictInt, Field(ge=1, le=2)] | None = None


class Show(_SeatAction):
    """``seat`` shows its cards at the showdown."""

    type: Literal["show"]
    cards: Cards | None = None


class Muck(_SeatAction):
    """``seat`` mucks at the showdown."""

    type: Literal["muck"]


class Award(Message):
    """Pot ``pot`` awarded by hand to ``winners`` (``winners2``: the second board's winners)."""

    type: Literal["award"]
    pot: Annotated[StrictInt, Field(ge=0, le=20)]
    winners: Seats
    winners2: Seats | None = None


class Deal(Message):
    """Seven Card Stud: the next street's cards by seat (``{"3": "AsKs7d"}``: third street two down cards
    and the door card, later one card; ``??`` unknown, a seat left out gets unknown cards), or ``community``
    (one card for everyone when the stub is short); ``opener`` names who brings in or acts first when an
    up card is unknown."""

    type: Literal["deal"]
    cards: (
        Annotated[dict[Annotated[str, StringConstraints(pattern=r"^[0-9]{1,2}$")], Cards], Field(max_length=10)] | None
    ) = None
    community: Cards | None = None
    opener: Seat | None = None


class BringIn(_SeatAction):
    """Seven Card Stud: the player at ``seat`` brings in (third street)."""

    type: Literal["bring_in"]


class Complete(_SeatAction):
    """Seven Card Stud: the bring-in completed to ``to`` (the small bet)."""

    type: Literal["complete"]
    to: Chips


#: What a dealer may record.  Engine-internal corrections (``kill``, ``floor_award``, ``run_it_twice`` as an
#: action) are never in this union: they reach the engine only through a floor ruling.
DealerAction = Annotated[
    Fold | Check | Call | AllIn | Bet | Raise | Hole | Board | Show | Muck | Award | Deal | BringIn | Complete,
    Field(discriminator="type"),
]
#: The betting actions a player can take out of turn (000 Aktionen 2, 002 #8, 004 #53).
BettingAction = Annotated[Fold | Check | Call | AllIn | Bet | Raise, Field(discriminator="type")]


# --------------------------------------------------------------------------- dealer socket
class _Mutation(Message):
    client_id: ClientId | None = None
    expected_seq: Seq | None = None


class ActionMessage(_Mutation):
    """Apply one action to the live hand."""

    type: Literal["action"]
    action: DealerAction


class StartHand(_Mutation):
    """Start the next hand; ``spec`` replays a recorded hand, ``format`` picks a special format
    (bomb pot, flip, double board, straddles; checked by the service)."""

    type: Literal["start_hand"]
    spec: dict[str, Any] | None = None
    format: dict[str, Any] | None = None


class OutOfTurn(_Mutation):
    """A betting action of a seat that is not to act, held until its turn."""

    type: Literal["out_of_turn"]
    action: BettingAction


class CallTime(_Mutation):
    """Time is called on the seat to act."""

    type: Literal["call_time"]
    seat: Seat


class TimeExpired(_Mutation):
    """The clock's deadline passed (the tablet's countdown): apply the profile's effect now rather than at
    the worker's next look; recorded by nobody (the server checks its own deadline)."""

    type: Literal["time_expired"]


FLOOR_CALL_REASONS = (
    "out_of_turn",
    "chip_action",
    "misdeal",
    "exposed_card",
    "premature_board",
    "time",
    "dispute",
    "other",
)


class FloorCallMessage(_Mutation):
    """Call the floor to the table."""

    type: Literal["floor_call"]
    reason: Literal[
        "out_of_turn", "chip_action", "misdeal", "exposed_card", "premature_board", "time", "dispute", "other"
    ]
    seat: Seat | None = None
    note: Text = ""
    details: dict[str, Any] | None = None


#: A chip denomination as the tablet sends it in ``observed.chips`` (a key of a JSON object: digits).
Denomination = Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]{0,17}$")]
#: How many chips of one denomination.
ChipCount = Annotated[StrictInt, Field(ge=0, le=10_000)]


def _chips_by_denomination(value: Any) -> Any:
    """``observed.chips`` given as a list (``[1000, 500]`` or ``[{"value": 1000, "count": 2}]``) as the
    object form ``{"1000": 1, "500": 1}``; anything else is left to the object's type."""
    if not isinstance(value, list):
        return value
    if len(value) > 200:
        raise ValueError("at most 200 entries")
    out: dict[str, int] = {}
    for entry in value:
        if isinstance(entry, dict) and set(entry) <= {"value", "count"}:
            denomination, count = entry.get("value"), entry.get("count", 1)
        else:
            denomination, count = entry, 1
        if any(isinstance(n, bool) or not isinstance(n, int) for n in (denomination, count)):
            raise ValueError("must list chip denominations (whole numbers) or {value, count} objects")
        assert isinstance(denomination, int) and isinstance(count, int)  # checked just above
        if not (1 <= denomination <= MAX_BIGINT and 0 <= count <= 10_000):
            raise ValueError("a denomination is a positive whole number, a count 0 to 10000")
        out[str(denomination)] = out.get(str(denomination), 0) + count
    return out


class Observed(Message):
    """What the dealer saw, as the chip-action interpreter reads it (docs/interpret.md ``observed``).

    ``chips``: denomination -> count (``{"1000": 1, "500": 2}``), or a list of denominations
    (``[1000, 500, 500]``) or of ``{"value", "count"}`` objects; ``declared``: the word said (English or
    German, the interpreter names an unknown one), ``declared_amount`` a total said with it (``amount_kind``
    "to") or an increment ("by"); ``motions``: forward motions used (2+: a string bet);
    ``first_motion``: chips in the first of them."""

    chips: (
        Annotated[dict[Denomination, ChipCount], Field(max_length=20), BeforeValidator(_chips_by_denomination)] | None
    ) = None
    declared: Word | None = None
    declared_before_chips: StrictBool = True
    declared_amount: Chips | None = None
    amount_kind: Literal["to", "by"] = "to"
    motions: Annotated[StrictInt, Field(ge=1, le=20)] = 1
    first_motion: Chips | None = None


class Interpret(_Mutation):
    """Ask the house rules what a player's chips mean (docs/interpret.md); changes nothing."""

    type: Literal["interpret"]
    observed: Observed


class RunItTwice(_Mutation):
    """The players in ``agreed`` run the rest of the board twice (000 Aktionen 8)."""

    type: Literal["run_it_twice"]
    agreed: Seats
    pots: Annotated[list[Annotated[StrictInt, Field(ge=0, le=20)]], Field(max_length=20)] | None = None
    floor: StrictBool = False


class Undo(_Mutation):
    """Take back the action recorded as event ``index`` (default: the last betting action); refused once the
    profile says it stands (``poker.hand.undo``: the next player acted, a card was dealt)."""

    type: Literal["undo"]
    index: Annotated[StrictInt, Field(ge=0, le=100_000)] | None = None


class UndoOptions(_Mutation):
    """Ask for the hand's last actions and whether each can be taken back; changes nothing."""

    type: Literal["undo_options"]


class FinishProcedure(_Mutation):
    """The dealer finishes a guided procedure at the table, as the house rules let him (an exposed
    card replaced, a misdeal before substantial action; ``tables.services.procedures``): the
    procedure's key and the option keys tapped, without the questions the hand answers."""

    type: Literal["procedure"]
    procedure: Literal["exposed_card", "misdeal", "premature_board"]
    answers: Annotated[list[Word], Field(max_length=10)]


class SnapshotRequest(Message):
    """Ask for a fresh snapshot (floor socket: of one table when ``table_id`` is given)."""

    type: Literal["snapshot"]
    table_id: Id | None = None


# The tablet's adapter, ``DealerMessage``, is built from the table of its messages and their handlers:
# ``tables.tablet_messages``.


# --------------------------------------------------------------------------- floor socket
#: The floor dashboard only asks for snapshots: a clock that runs out is the server's (``pokerfloor.worker``),
#: never a dashboard's report (issue 24: one that opened after the deadline recorded the fold as its user's).
class WatchRequest(Message):
    """The floor dashboard's tables drawn in detail (tiles in view, the tile opened from the map): their
    updates come whole, the other tables' as summaries (``tables.floor_summary``); each table newly in the
    list gets its ``snapshot`` at once. Replaces the previous list; ``[]`` watches none."""

    type: Literal["watch"]
    table_ids: Annotated[list[Id], Field(max_length=100)]


FloorMessage = TypeAdapter(Annotated[SnapshotRequest | WatchRequest, Field(discriminator="type")])


# --------------------------------------------------------------------------- parsing
def check_depth(raw: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`MessageError` when ``raw`` nests arrays/objects deeper than ``max_depth``.

    A linear scan that skips string contents, so a hostile ``[[[[...`` never reaches the recursive
    JSON decoder.  A text with no more opening brackets than ``max_depth`` (every dealer's action) cannot
    nest deeper and is not scanned: two counts in C instead of a Python loop over each character."""
    if raw.count("[") + raw.count("{") <= max_depth:
        return
    depth = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                raise MessageError(f"nested deeper than {max_depth} levels")
        elif ch in "]}":
            depth -= 1


class _NonFinite(ValueError):
    """``Infinity``, ``NaN`` or a number beyond a float (``1e999``) in a JSON text."""


def _refuse_constant(name: str) -> Any:
    raise _NonFinite(name)


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _NonFinite(literal)
    return value


_decoders = threading.local()


def _decoder() -> json.JSONDecoder:
    """This thread's decoder of :func:`load_json`, made once: ``json.loads`` with hooks builds a new
    decoder and scanner at every call (every dealer action).  One per thread: the C scanner keeps a
    memo of keys while it runs, and the hooks are Python calls another thread could run between."""
    decoder = getattr(_decoders, "decoder", None)
    if decoder is None:
        decoder = _decoders.decoder = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
    return decoder


def load_json(raw: str | bytes | None) -> Any:
    """Decode one JSON message, bounded in size and depth: the one JSON decoder of every socket and
    endpoint.  Raises :class:`MessageError`.

    Python's ``json.loads`` reads ``Infinity``, ``-Infinity`` and ``NaN`` (not JSON) and turns ``1e999``
    into an infinite float; none of them is a chip count, a seat or anything else a message may carry,
    and PostgreSQL's JSON cannot store them, so they are refused here, wherever they appear (issue 24)."""
    if raw is None:
        raise MessageError("a text frame with a JSON object is expected")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise MessageError("not UTF-8") from None
    if len(raw) > MAX_CHARS:
        raise MessageError(f"longer than {MAX_CHARS} characters")
    check_depth(raw)
    try:
        return _decoder().decode(raw)
    except _NonFinite as exc:
        raise MessageError(f"numbers must be finite ({exc} is not accepted)") from None
    except (ValueError, RecursionError):
        raise MessageError("not valid JSON") from None


def _first_error(exc: ValidationError, data: Any) -> MessageError:
    err = exc.errors(include_url=False)[0]
    # A tagged union puts its tag in the location (("action", "raise", "to") for {"action": {"type":
    # "raise", "to": ...}}): walk the data and keep only the parts that are real keys or indices.
    parts, node, tag_seen = [], data, False
    for part in err.get("loc", ()):
        if part == "[key]":  # a dict's key is the offending part: its path already ends with the key
            continue
        if isinstance(node, dict) and not tag_seen and node.get("type", node.get("op")) == part:
            tag_seen = True
        elif isinstance(node, dict) and part in node:
            parts.append(str(part))
            node, tag_seen = node[part], False
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            parts.append(str(part))
            node, tag_seen = node[part], False
        else:
            parts.append(str(part))
            node = None
    field = ".".join(parts)
    return MessageError(f"{field or 'message'}: {err.get('msg', 'invalid')}", field)


def validate(adapter: TypeAdapter, data: Any) -> Any:
    """Validate already-decoded ``data`` against ``adapter``; returns the message model.

    Raises :class:`MessageError` naming the first bad field."""
    if not isinstance(data, dict):
        raise MessageError("a JSON object is expected")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise _first_error(exc, data) from None


def parse(adapter: TypeAdapter, raw: str | bytes | None) -> Any:
    """Decode and validate one message: ``parse(DealerMessage, text)`` -> a message model.

    Raises :class:`MessageError` (code ``invalid``) for anything malformed, oversized, too deep, of an
    unknown ``type`` or with a badly typed or out-of-range field."""
    return validate(adapter, load_json(raw))


def dump(model: BaseModel) -> dict[str, Any]:
    """The message as a plain dict (without defaults a client did not send)."""
    return model.model_dump(exclude_unset=True)
