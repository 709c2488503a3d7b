"""Message schemas of the tournament director's desk (``POST /tournaments/<id>/action/``), the tablet's
absent control (``POST /tournaments/tables/<id>/absent/``), its move confirmations
(``POST /tournaments/tables/<id>/moves/``) and the tournament sockets -- what clients send, and the
``delta`` the sockets send after a change (:class:`TournamentDelta`, :class:`TournamentPublicDelta`).

Built from the shared blocks of :mod:`tables.schemas`; a bad body is refused with ``invalid`` and the
field named, and changes nothing."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from django.utils import formats
from django.utils.translation import gettext as _
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from tables import schemas as tables_schemas
from tables.schemas import CLEAN_TEXT, Chips, Id, Message, MessageError, Seat, SnapshotRequest

PlayerName = Annotated[str, StringConstraints(min_length=1, max_length=80), CLEAN_TEXT]
#: A name box that may stay empty (then the picked player's id names the player).
PlayerLabel = Annotated[str, StringConstraints(min_length=0, max_length=80), CLEAN_TEXT]
#: Why the director did it, as typed at the desk (kept in the audit trail).
Note = Annotated[str, StringConstraints(min_length=0, max_length=200), CLEAN_TEXT]
#: A dealer login's user name (empty: no dealer).
Username = Annotated[str, StringConstraints(min_length=0, max_length=150), CLEAN_TEXT]
CardCode = Annotated[str, Field(pattern=r"^[2-9TJQKA][shdc]$")]


class Register(Message):
    """Register ``player`` by name, or the known player ``player_id`` (picked in the desk's search,
    ``GET /tournaments/<id>/players/?q=``); ``reserve``: reserve a place, 004 #73."""

    op: Literal["register"]
    player: PlayerLabel = ""
    player_id: Id | None = None
    reserve: StrictBool = False  # neither a name nor an ID: the service refuses (a player needs a name)


class EntryOp(Message):
    """An operation on one registration ``entry``: check in, re-enter, surrender, or decline a rebuy."""

    op: Literal["check_in", "re_enter", "surrender", "no_rebuy"]
    entry: Id


class CancelEntry(Message):
    """Take registration ``entry`` back and refund it: no entry, not in the prize pool, no place."""

    op: Literal["cancel"]
    entry: Id
    note: Note = ""


class RenameEntry(Message):
    """Put right the name of registration ``entry``'s player (``player``, spacing normalised)."""

    op: Literal["rename"]
    entry: Id
    player: PlayerName
    note: Note = ""


class Rebuy(Message):
    """Rebuy (or add-on with ``add_on``) for registration ``entry`` (004 #27)."""

    op: Literal["rebuy"]
    entry: Id
    add_on: StrictBool = False
    double: StrictBool = False  # a double rebuy: two at once, counted as two (where the event allows it)


class TournamentOp(Message):
    """A tournament-wide operation: seat the waitlist, start, rebalance, execute the pending moves."""

    op: Literal["seat_waitlist", "start", "rebalance", "execute_moves"]


class ClockOp(Message):
    """Operate the clock (``seconds`` for ``adjust``, 1-based ``level`` for ``jump``; 004 #77 hand-for-hand).

    ``seconds`` is read for ``adjust`` only and ``level`` for ``jump`` only: whatever else a page sends in
    them (an empty Level box) is dropped, so a clock button never fails on a field it does not use."""

    op: Literal["clock"]
    clock: Literal["start", "pause", "resume", "adjust", "jump", "hand_for_hand", "leave_hand_for_hand"]
    seconds: Annotated[StrictInt, Field(ge=-86_400, le=86_400)] = 0
    level: Annotated[StrictInt, Field(ge=1, le=1000)] | None = None

    @model_validator(mode="before")
    @classmethod
    def _only_the_fields_used(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            if data.get("clock") != "adjust":
                data.pop("seconds", None)
            if data.get("clock") != "jump":
                data.pop("level", None)
        return data


class UndoMove(Message):
    """Cancel the move instruction ``instruction``."""

    op: Literal["undo_move"]
    instruction: Id


class ChipRace(Message):
    """Color up ``removed`` chips into ``new`` chips at table ``table`` (001 Chip Race, 004 #24);
    ``again``: repeat a race already run there in this period, on purpose."""

    op: Literal["chip_race"]
    table: Annotated[StrictInt, Field(ge=1, le=10_000)]
    removed: Annotated[StrictInt, Field(ge=1, le=10**9)]
    new: Annotated[StrictInt, Field(ge=1, le=10**9)]
    cards: Annotated[dict[PlayerName, Annotated[list[CardCode], Field(max_length=60)]], Field(max_length=10)] | None = (
        None
    )
    again: StrictBool = False


class Payouts(Message):
    """The prize for each place, first place first (chips or cash units)."""

    op: Literal["payouts"]
    amounts: Annotated[list[Chips], Field(max_length=1000)] = []


TableNumber = Annotated[StrictInt, Field(ge=1, le=10_000)]


class DeskBustRow(Message):
    """One player out: registration ``entry`` and his stack at the start of the hand (default: his seat's chips)."""

    entry: Id
    stack_at_start: Chips | None = None


class DeskBust(Message):
    """Record at the desk the players out in one hand at a table without a tablet: placed by
    ``stack_at_start`` (001 Ende des Turniers, 003 Ausscheiden mehrerer Spieler), shared after
    hand-for-hand (004 #79)."""

    op: Literal["desk_bust"]
    busts: Annotated[list[DeskBustRow], Field(min_length=1, max_length=10)]
    won_by: Id | None = None  # who won their chips (same table); none: the table is marked for a recount
    note: Note = ""


class DeskChips(Message):
    """Add (``amount`` > 0) or remove (< 0) chips of registration ``entry`` for ``reason``: ``penalty``
    (001 6.37, 004 #71), ``found_chips`` (004 #64), ``dq`` (all chips out and the player out, 001 6.37,
    004 #71; ``amount`` ignored), ``correction``."""

    op: Literal["desk_chips"]
    entry: Id
    amount: Annotated[StrictInt, Field(ge=-(10**12), le=10**12)] = 0
    reason: Literal["penalty", "found_chips", "dq", "correction"]
    note: Note = ""


class DeskMove(Message):
    """Move registration ``entry`` by hand to ``table`` / ``seat`` (confirmed by the tablets, 004 #33)."""

    op: Literal["desk_move"]
    entry: Id
    table: TableNumber
    seat: Seat
    note: Note = ""


class DeskBreak(Message):
    """Break ``table`` by hand: its players draw the free seats of the other tables (004 #10, 001 Balancing)."""

    op: Literal["desk_break"]
    table: TableNumber
    note: Note = ""


class DeskHandPlayed(Message):
    """Hand-for-hand: ``table`` (no tablet) has played the round's hand without a bust (004 #77)."""

    op: Literal["desk_hand_played"]
    table: TableNumber
    note: Note = ""


class DeskUndo(Message):
    """Undo the desk entry recorded at tournament seq ``event``."""

    op: Literal["desk_undo"]
    event: Id
    note: Note = ""


class ConfirmMove(Message):
    """The director confirms that the player of move ``instruction`` arrived (for both tablets, 004 #33)."""

    op: Literal["confirm_move"]
    instruction: Id


class DeskAbsent(Message):
    """Mark the player at ``table`` / ``seat`` away (``absent`` true) or present (001 Sitzverteilung, 004 #30)."""

    op: Literal["absent"]
    table: TableNumber
    seat: Seat
    absent: StrictBool


class AssignDealer(Message):
    """Assign the dealer login ``username`` (a user of the ``dealer`` group) to ``table``; empty: nobody."""

    op: Literal["dealer"]
    table: TableNumber
    username: Username = ""


class AddTable(Message):
    """Open a table: ``number`` (none: the next free number) with ``seats`` seats (none: the
    tournament's); the service refuses a number in use or a size outside 2-10 in the user's words."""

    op: Literal["add_table"]
    number: Annotated[StrictInt, Field(ge=0, le=10_000)] | None = None
    seats: Annotated[StrictInt, Field(ge=0, le=100)] | None = None


class AbsentToggle(Message):
    """The tablet marks the player at ``seat`` away (``absent`` true) or back (001 Sitzverteilung, 004 #30)."""

    seat: Seat
    absent: StrictBool


AbsentBody = TypeAdapter(AbsentToggle)


class MoveConfirmation(Message):
    """The tablet confirms its side of move ``instruction``: the player left (source table) or arrived
    (destination table); he is dealt in at neither table until both confirmed (004 #33)."""

    instruction: Id


MoveConfirmBody = TypeAdapter(MoveConfirmation)

#: The tournament sockets (director page and lobby screen) accept one message: a snapshot request.
TournamentSocketMessage = TypeAdapter(Annotated[SnapshotRequest, Field(discriminator="type")])


# --------------------------------------------------------------------------- server -> client: the delta
class _Sent(BaseModel):
    """Base of what the server sends: every key known (a test fails on one more)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, populate_by_name=True)


class PublicHeader(_Sent):
    """The counters the TV shows, as in its snapshot: ``clock`` (timestamps, periods, the state at
    ``server_now``), players left, entries, average stack, prize pool, payouts by place, places paid,
    the bubble, and the chip leaders (player and stack) only while the director shows them."""

    seq: StrictInt
    id: StrictInt
    name: StrictStr
    rulebook: StrictStr
    status: StrictStr
    server_now: StrictFloat
    clock: dict[str, Any]
    players_left: StrictInt
    entries: StrictInt
    average_stack: StrictInt
    prize_pool: StrictInt
    payouts: list[StrictInt]
    places_paid: StrictInt
    bubble: StrictInt | None
    chip_leaders: list[dict[str, Any]]
    deal: list[dict[str, Any]] = []  # the recorded deal's players and amounts (player, amount, place)
    podium: list[dict[str, Any]] = []  # once finished: the final table by place (place, player, prize)
    rebuys: StrictInt = 0  # rebuys taken so far (the TV's count)
    add_ons: StrictInt = 0  # add-ons taken so far
    rebuys_allowed: StrictInt = 0  # rebuys each entry may take (0: none, the TV hides the count)
    add_ons_allowed: StrictInt = 0  # add-ons each entry may take


class DirectorHeader(PublicHeader):
    """The director snapshot's keys but its lists: the TV's counters plus the lobby token, the starting
    stack and the buy-in."""

    public_token: StrictStr
    starting_stack: StrictInt
    buy_in: StrictInt
    guarantee: StrictInt = 0  # the least prize pool (0: none)
    overlay: StrictInt = 0  # what the house adds to the buy-ins to pay the guarantee


class DeltaSeat(_Sent):
    """An occupied seat: player, stack, away flag, rebuy pending (004 #27), entry id, waits for the button."""

    seat: StrictInt
    player: StrictStr
    stack: StrictInt
    absent: StrictBool
    rebuy_pending: StrictBool
    entry: StrictInt | None
    waits: StrictBool


class DeltaTable(_Sent):
    """A table as in the director's snapshot, whole: its occupied seats, players, whether it is broken
    or has a hand live, its hand-for-hand count (004 #77)."""

    number: StrictInt
    table_id: StrictInt
    name: StrictStr
    broken: StrictBool
    seats: list[DeltaSeat]
    players: StrictInt
    max_seats: StrictInt
    live: StrictBool
    h4h_hands: StrictInt


class DeltaRegistration(_Sent):
    """A registration as in the snapshot, with ``can``: the entry operations the services accept now."""

    id: StrictInt
    player: StrictStr
    number: StrictInt
    status: StrictStr
    rebuy_pending: StrictBool
    priority: StrictBool
    late: StrictBool
    rebuys: StrictInt
    add_ons: StrictInt
    can: dict[str, StrictBool]


class DeltaFinish(_Sent):
    """A finish: place (to ``place_worst`` when shared, 004 #79; null while a hand-for-hand round is still
    played), prize, the rule applied."""

    id: StrictInt
    player: StrictStr
    place: StrictInt | None
    place_worst: StrictInt | None
    prize: StrictInt
    rule: StrictStr


class DeltaPlace(_Sent):
    """A table and seat of a move."""

    table: StrictInt | None
    seat: StrictInt | None


class DeltaInstruction(_Sent):
    """An instruction to the dealers, as the tablets get it."""

    type: Literal["instruction"]
    id: StrictInt
    kind: StrictStr
    text_en: StrictStr
    text_de: StrictStr
    player: StrictStr | None
    from_: DeltaPlace | None = Field(alias="from")
    to: DeltaPlace | None
    status: StrictStr
    rule: StrictStr
    cancelled: StrictBool
    at: StrictStr | None


class TournamentDelta(_Sent):
    """Director's socket, after every change of the tournament (seq ``seq``, the previous + 1): the
    ``header`` whole and, whole, each table, registration, instruction and finish that changed
    (``finishes_removed``: ids of finishes undone); ``kind`` names the event. Apply it to the snapshot
    held at ``seq - 1`` (replace by ``number`` / ``id``; instructions: the newest 40); on a gap ask
    for a ``snapshot``. Events that change what every row derives from (the start, the clock, the
    structure, the payouts, a name) and every event in hand-for-hand send ``update`` with the whole
    snapshot."""

    type: Literal["delta"]
    seq: StrictInt
    kind: StrictStr
    header: DirectorHeader
    tables: list[DeltaTable]
    registrations: list[DeltaRegistration]
    instructions: list[DeltaInstruction]
    finishes: list[DeltaFinish]
    finishes_removed: list[StrictInt]


class DrawSeat(_Sent):
    """A seat of the draw: player and seat."""

    player: StrictStr
    seat: StrictInt


class PublicTable(_Sent):
    """A changed table for the TV: players, whether broken (then it leaves the screen), and its seats
    of the seat draw (they replace the table's rows of the draw)."""

    number: StrictInt
    players: StrictInt
    broken: StrictBool
    draw: list[DrawSeat]


class TournamentPublicDelta(_Sent):
    """Lobby screen's socket (the TV), after every change: the public ``header`` and the changed tables'
    seat draw -- no stacks (unless chip leaders are shown), away flags, registrations, instructions or
    finishes. Applied and resynchronised as the director's ``delta``."""

    type: Literal["delta"]
    seq: StrictInt
    header: PublicHeader
    tables: list[PublicTable]


#: What the tournament sockets send after a change (besides ``snapshot`` / ``update``): documented in
#: docs/protocol.md and checked by tests/test_tournament_delta.py.
TournamentDeltaMessage = TypeAdapter(TournamentDelta)
TournamentPublicDeltaMessage = TypeAdapter(TournamentPublicDelta)


# --------------------------------------------------------------------------- the desk's words for bad input
def _field_labels() -> dict[str, str]:
    """What the desk calls each field of its messages (in the request's language)."""
    return {
        "level": _("Level"),
        "seconds": _("Seconds"),
        "seat": _("Seat"),
        "table": _("Table"),
        "entry": _("Player"),
        "player": _("Player name"),
        "amount": _("Chips"),
        "amounts": _("Payouts by place"),
        "reason": _("Reason"),
        "note": _("Why (note for the log)"),
        "busts": _("Players out"),
        "stack_at_start": _("Stack at the start of the hand"),
        "removed": _("Chip removed"),
        "new": _("New chip"),
        "cards": _("Cards"),
        "instruction": _("Move"),
        "event": _("Desk entry"),
        "absent": _("Away"),
        "reserve": _("Reservation"),
        "add_on": _("Add-on"),
        "again": _("Race again"),
        "clock": _("Clock"),
    }


def _field_name(parts: list[str]) -> str:
    """``["amounts", "1"]`` -> "Payouts by place, place 2"; ``["busts", "0", "stack_at_start"]`` ->
    "Stack at the start of the hand" (the last named part says what it is)."""
    labels = _field_labels()
    names = [p for p in parts if not p.isdigit()]
    if not names:
        return _("The request")
    label = labels.get(names[-1], names[-1])
    if parts[-1].isdigit() and names[-1] == "amounts":
        return _("%(field)s, place %(n)s") % {"field": label, "n": int(parts[-1]) + 1}
    return label


def human_message(exc: ValidationError, data: Any) -> MessageError:
    """A pydantic error of a desk message as a sentence a director reads (translated), never pydantic's
    English ("amounts.1: Input should be a valid integer"); ``field`` keeps the dotted path."""
    err = exc.errors(include_url=False)[0]
    path = tables_schemas._first_error(exc, data).field
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    parts = [p for p in path.split(".") if p]
    if kind in ("union_tag_invalid", "union_tag_not_found") or (kind == "literal_error" and parts == ["op"]):
        return MessageError(_("Unknown request."), path)
    field = _field_name(parts)

    def number(key: str) -> str:
        value = ctx.get(key)
        return formats.number_format(value, force_grouping=True) if isinstance(value, int) else str(value)

    if kind == "missing":
        text = _("%(field)s is missing.") % {"field": field}
    elif kind in ("int_type", "int_parsing", "int_from_float", "float_type"):
        text = _("%(field)s: enter a whole number.") % {"field": field}
    elif kind in ("greater_than_equal", "greater_than"):
        text = _("%(field)s: enter a whole number of at least %(min)s.") % {
            "field": field,
            "min": number("ge" if kind == "greater_than_equal" else "gt"),
        }
    elif kind in ("less_than_equal", "less_than"):
        text = _("%(field)s: enter at most %(max)s.") % {
            "field": field,
            "max": number("le" if kind == "less_than_equal" else "lt"),
        }
    elif kind == "string_too_short":
        text = _("%(field)s must not be empty.") % {"field": field}
    elif kind == "string_too_long":
        text = _("%(field)s: at most %(max)s characters.") % {"field": field, "max": number("max_length")}
    elif kind == "too_long":
        text = _("%(field)s: at most %(max)s entries.") % {"field": field, "max": number("max_length")}
    elif kind == "too_short":
        text = _("%(field)s: at least %(min)s entries.") % {"field": field, "min": number("min_length")}
    elif kind == "bool_type":
        text = _("%(field)s: yes or no.") % {"field": field}
    elif kind == "value_error":
        text = _("%(field)s contains characters that cannot be stored.") % {"field": field}
    elif kind == "literal_error":
        text = _("%(field)s: not one of the choices.") % {"field": field}
    else:
        text = _("%(field)s is not valid.") % {"field": field}
    return MessageError(text, path)


def parse_desk(adapter: TypeAdapter, raw: str | bytes | None) -> Any:
    """:func:`tables.schemas.parse` for the desk's pages: the same checks, but a refusal is a
    translated sentence (:func:`human_message`).  Raises ``MessageError`` (code ``invalid``)."""
    try:
        data = tables_schemas.load_json(raw)
    except MessageError:
        raise MessageError(_("The request could not be read: reload the page.")) from None
    if not isinstance(data, dict):
        raise MessageError(_("The request could not be read: reload the page."))
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise human_message(exc, data) from None
