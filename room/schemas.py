"""Message schemas of the cash floor: the floor's room actions (``POST /room/<slug>/act/``) and the room
and lobby sockets.  Built from the shared blocks of :mod:`tables.schemas` (strict ints, bounded text);
a bad body is refused with ``invalid`` and the field named, and changes nothing."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt, StringConstraints, TypeAdapter

from tables.schemas import CLEAN_TEXT, MAX_BIGINT, Chips, Id, Message, Seat, SnapshotRequest

Label = Annotated[str, StringConstraints(min_length=0, max_length=80), CLEAN_TEXT]
Username = Annotated[str, StringConstraints(min_length=1, max_length=150), CLEAN_TEXT]


class WaitlistAdd(Message):
    """Put a player on the waitlist of game ``game_id``: the player record ``player_id`` (picked in the
    autocomplete), else ``name`` (a known name, or a new player made under it)."""

    op: Literal["waitlist_add"]
    game_id: Id
    player_id: Id | None = None
    name: Label = ""
    source: Literal["walk_in", "phone_in"] = "walk_in"


class WaitlistRemove(Message):
    """Take waitlist entry ``entry_id`` off its list."""

    op: Literal["waitlist_remove"]
    entry_id: Id


class CallNext(Message):
    """Call the next players on the list of ``game_id`` for its open seats."""

    op: Literal["call"]
    game_id: Id


class Accept(Message):
    """A called player accepts the seat offered by call ``call_id``."""

    op: Literal["accept"]
    call_id: Id


class Decline(Message):
    """A called player declines call ``call_id``."""

    op: Literal["decline"]
    call_id: Id


class Sweep(Message):
    """Record the no-shows of calls that ran out (000 Allgemein 15)."""

    op: Literal["sweep"]


class SeatFromList(Message):
    """Seat waitlist entry ``entry_id`` at ``table_id``, ``seat``."""

    op: Literal["seat"]
    entry_id: Id
    table_id: Id
    seat: Seat


class BuyIn(Message):
    """Buy-in (``buy_in``) or add-on (``add_on``) of ``amount`` chips for the player at ``table_id``/``seat``."""

    op: Literal["buy_in", "add_on"]
    table_id: Id
    seat: Seat
    amount: Chips


class Leave(Message):
    """The player at ``table_id``/``seat`` leaves the table."""

    op: Literal["leave"]
    table_id: Id
    seat: Seat


class Move(Message):
    """Move a player from one seat to another (same or other table)."""

    op: Literal["move"]
    from_table_id: Id
    from_seat: Seat
    to_table_id: Id
    to_seat: Seat


class Absent(Message):
    """Mark the player at ``table_id``/``seat`` away (``absent`` true) or back."""

    op: Literal["absent"]
    table_id: Id
    seat: Seat
    absent: StrictBool = False


class TableOpen(Message):
    """Open (``open`` true) or close table ``table_id``."""

    op: Literal["table_open"]
    table_id: Id
    open: StrictBool = False


class AssignDealer(Message):
    """Assign the dealer ``username`` to ``table_id`` (null: no dealer)."""

    op: Literal["dealer"]
    table_id: Id
    username: Username | None = None


class ChangeRequest(Message):
    """The player at ``table_id``/``seat`` asks for a seat at ``to_table_id``."""

    op: Literal["change_request"]
    table_id: Id
    seat: Seat
    to_table_id: Id


class ChangeApprove(Message):
    """Approve table change ``change_id`` into ``seat``."""

    op: Literal["change_approve"]
    change_id: Id
    seat: Seat


class ChangeRefuse(Message):
    """Refuse table change ``change_id``."""

    op: Literal["change_refuse"]
    change_id: Id


class Display(Message):
    """Create a lobby display link (``label`` names the screen)."""

    op: Literal["display"]
    label: Label = ""


class DisplayRevoke(Message):
    """Revoke lobby display link ``display_id`` (managers only): its open screens close, its page answers 404."""

    op: Literal["display_revoke"]
    display_id: Id


class Settings(Message):
    """Room settings (managers only): waitlist call countdown in seconds, what the lobby screen shows, and the
    lists on the players' phones (issue 29): players seated for a game to count as running, remote entries at
    most, the arrival window after "On my way" and what "Need more time" adds (seconds), what a remote no-show
    does (``down`` by ``no_show_places`` places, or ``off`` the list)."""

    op: Literal["settings"]
    call_seconds: Annotated[StrictInt, Field(ge=10, le=3600)] | None = None
    lobby_names: Literal["full", "initials"] | None = None
    lobby_stacks: StrictBool | None = None
    running_min_players: Annotated[StrictInt, Field(ge=2, le=10)] | None = None
    remote_cap: Annotated[StrictInt, Field(ge=0, le=1000)] | None = None
    arrival_seconds: Annotated[StrictInt, Field(ge=60, le=7200)] | None = None
    more_time_seconds: Annotated[StrictInt, Field(ge=60, le=3600)] | None = None
    remote_no_show: Literal["down", "off"] | None = None
    no_show_places: Annotated[StrictInt, Field(ge=1, le=50)] | None = None


#: The room and lobby sockets accept one message: a snapshot request.
RoomSocketMessage = TypeAdapter(Annotated[SnapshotRequest, Field(discriminator="type")])

__all__ = ["RoomSocketMessage", "MAX_BIGINT"]
