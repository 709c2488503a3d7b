"""Message schemas of the tournament director's desk (``POST /tournaments/<id>/action/``), the tablet's
absent control (``POST /tournaments/tables/<id>/absent/``), its move confirmations
(``POST /tournaments/tables/<id>/moves/``) and the tournament sockets -- what clients send, and the
``delta`` the sockets send after a change (:class:`TournamentDelta`, :class:`TournamentPublicDelta`).

Built from the shared blocks of :mod:`tables.schemas`; a bad body is refused with ``invalid`` and the
field named, and changes nothing."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, TypeAdapter

from tables.schemas import Chips, Id, Message, Seat, SnapshotRequest, text

PlayerName = text(80, min_length=1)
CardCode = Annotated[str, Field(pattern=r"^[2-9TJQKA][shdc]$")]


class Register(Message):
    """Register ``player`` (``reserve``: reserve a place, 004 #73)."""

    op: Literal["register"]
    player: PlayerName
    reserve: StrictBool = False


class EntryOp(Message):
    """An operation on one registration ``entry``: check in, re-enter, surrender, or decline a rebuy."""

    op: Literal["check_in", "re_enter", "surrender", "no_rebuy"]
    entry: Id


class Rebuy(Message):
    """Rebuy (or add-on with ``add_on``) for registration ``entry`` (004 #27)."""

    op: Literal["rebuy"]
    entry: Id
    add_on: StrictBool = False


class TournamentOp(Message):
    """A tournament-wide operation: seat the waitlist, start, rebalance, execute the pending moves."""

    op: Literal["seat_waitlist", "start", "rebalance", "execute_moves"]


class ClockOp(Message):
    """Operate the clock (``seconds`` for ``adjust``, 1-based ``level`` for ``jump``; 004 #77 hand-for-hand)."""

    op: Literal["clock"]
    clock: Literal["start", "pause", "resume", "adjust", "jump", "hand_for_hand", "leave_hand_for_hand"]
    seconds: Annotated[StrictInt, Field(ge=-86_400, le=86_400)] = 0
    level: Annotated[StrictInt, Field(ge=1, le=1000)] | None = None


class UndoMove(Message):
    """Cancel the move instruction ``instruction``."""

    op: Literal["undo_move"]
    instruction: Id


class ChipRace(Message):
    """Color up ``removed`` chips into ``new`` chips at table ``table`` (001 Chip Race, 004 #24)."""

    op: Literal["chip_race"]
    table: Annotated[StrictInt, Field(ge=1, le=10_000)]
    removed: Annotated[StrictInt, Field(ge=1, le=10**9)]
    new: Annotated[StrictInt, Field(ge=1, le=10**9)]
    cards: Annotated[dict[PlayerName, Annotated[list[CardCode], Field(max_length=60)]], Field(max_length=10)] | None = (
        None
    )


class Payouts(Message):
    """The prize for each place, first place first (chips or cash units)."""

    op: Literal["payouts"]
    amounts: Annotated[list[Chips], Field(max_length=1000)] = []


TableNumber = Annotated[StrictInt, Field(ge=1, le=10_000)]
#: Why the director did it, as typed at the desk (kept in the audit trail).
Note = text(200)


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
    username: text(150) = ""


class AddTable(Message):
    """Open a table: ``number`` (none: the next free number) with ``seats`` seats (none: the
    tournament's); the service refuses a number in use or a size outside 2-10 in the user's words."""

    op: Literal["add_table"]
    number: Annotated[StrictInt, Field(ge=0, le=10_000)] | None = None
    seats: Annotated[StrictInt, Field(ge=0, le=100)] | None = None


DirectorAction = TypeAdapter(
    Annotated[
        Register
        | EntryOp
        | Rebuy
        | TournamentOp
        | ClockOp
        | UndoMove
        | ChipRace
        | Payouts
        | DeskBust
        | DeskChips
        | DeskMove
        | DeskBreak
        | DeskHandPlayed
        | DeskUndo
        | ConfirmMove
        | DeskAbsent
        | AssignDealer
        | AddTable,
        Field(discriminator="op"),
    ]
)


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


class DirectorHeader(PublicHeader):
    """The director snapshot's keys but its lists: the TV's counters plus the lobby token, the starting
    stack and the buy-in."""

    public_token: StrictStr
    starting_stack: StrictInt
    buy_in: StrictInt


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
    for a ``snapshot``. Events that change rows in bulk send ``update`` with the whole snapshot."""

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
