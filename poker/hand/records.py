"""Actions as frozen typed records: what the engine applies, checks and keeps in its history.

At the engine's boundary (the tablet's JSON, PHH files, the events a table stores) an action is a
plain dict such as ``{"type": "raise", "seat": 3, "to": 400}``. Inside the engine it is one of the
records below: a frozen slotted dataclass per shape, its kind an :class:`ActionType`.
:func:`parse_action` reads a dict into its record once (checking what the dict holds);
``record.to_dict()`` gives the dict back, with the keys the engine has always written, so stored
events and histories read as before. :meth:`~poker.hand.state.HandState.apply`, ``verify`` and
``can`` take a record or a dict (parsed first); the history holds the records.

The shapes (S: a table seat number; chips are ints; cards are strings as
:func:`~poker.hand.cards.parse_cards` reads them, ``"??"`` a card not entered):

================ =========================== ==================================================
type             record                      dict
================ =========================== ==================================================
fold             ``Fold(S)``                 ``{"type": "fold", "seat": S}``
check            ``Check(S)``                ``{"type": "check", "seat": S}``
call             ``Call(S)``                 ``{"type": "call", "seat": S}``
all_in           ``AllIn(S)``                ``{"type": "all_in", "seat": S}``
bring_in         ``BringIn(S)``              ``{"type": "bring_in", "seat": S}`` (stud)
bet              ``Bet(S, to)``              ``{"type": "bet", "seat": S, "to": N}``
raise            ``Raise(S, to)``            ``{"type": "raise", "seat": S, "to": N}``
complete         ``Complete(S, to)``         ``{"type": "complete", "seat": S, "to": N}`` (stud)
hole             ``Hole(S, cards)``          ``{"type": "hole", "seat": S, "cards": "AsKs"}``
board            ``Board(cards, board)``     ``{"type": "board", "board": 2, "cards": "Jc3d5c"}``
deal             ``Deal(cards, community,    ``{"type": "deal", "cards": {S: "AsKs7h"},
                 opener)``                   "community": "9d", "opener": S}`` (stud)
show             ``Show(S, cards)``          ``{"type": "show", "seat": S, "cards": "AsKs"}``
muck             ``Muck(S)``                 ``{"type": "muck", "seat": S}``
award            ``AwardPot(pot, winners,    ``{"type": "award", "pot": i, "winners2": [S, ..],
                 winners2, odd_chip)``       "winners": [S, ..], "odd_chip": S}``
kill             ``Kill(S, reason)``         ``{"type": "kill", "seat": S, "reason": ".."}``
floor_award      ``FloorAward(seats)``       ``{"type": "floor_award", "seats": [S, ..]}``
run_it_twice     ``RunItTwice(agreed, pots,  ``{"type": "run_it_twice", "pots": [i, ..],
                 floor)``                    "agreed": [S, ..], "floor": bool}``
================ =========================== ==================================================

``to`` is a player's total bet on the current street (chips). An optional field that is None is
left out of the dict (``board``, the cards of a show, ``winners2``, ``odd_chip``, a deal's
``cards``, ``community`` and ``opener``, a kill's ``reason``, ``pots``: every pot). Lists are
tuples in a record and lists in its dict; a deal's seats are ints (JSON writes them as strings:
``"3"`` reads as 3). Keys the engine does not read (an event's ``out_of_turn``, ``cause``,
``citations`` ...) stay in the stored event and are not part of the record.

Errors: a record checks the types of its fields when it is made (``Raise(3, "lots")``, and so
:func:`parse_action` of such a dict), never what the hand allows, and raises
:class:`~poker.hand.errors.EngineError` with the code the engine gives that field: ``bad_action``
(not a dict, an unknown type, a ``to`` that is no whole number of chips -- a whole float such as
``400.0`` is taken as 400 --, ``pots`` or ``agreed`` that are no lists), ``no_such_seat`` (a seat
that is no int), ``bad_cards`` (cards that are no string), ``bad_award`` (a pot index that is no
int, winners or seats that are no list), ``wrong_phase`` (a board number that is no int). A
malformed dict is so refused before the hand is looked at (where the state could have refused it
for another reason first, say ``hand_over``). What depends on the hand (a seat dealt in, the turn,
a pot that exists, the number of cards, winners listed twice) is the state's check, run by
``apply``, ``verify`` and ``can`` alike. (The PHH replay's loop, :mod:`.phh_inplace`, builds its
records without the checks of their ``__init__``: its values are of the right types already.)
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias

from .checks import is_int
from .errors import EngineError

__all__ = [
    "ActionType",
    "ActionRecord",
    "Action",
    "SeatAction",
    "Fold",
    "Check",
    "Call",
    "AllIn",
    "BringIn",
    "Muck",
    "Wager",
    "Bet",
    "Raise",
    "Complete",
    "SeatCards",
    "Hole",
    "Board",
    "Deal",
    "Show",
    "AwardPot",
    "Kill",
    "FloorAward",
    "RunItTwice",
    "BETTING_TYPES",
    "parse_action",
]


class ActionType(StrEnum):
    """The kind of an action: its ``"type"`` in a dict (a ``str``: ``ActionType.FOLD == "fold"``)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    COMPLETE = "complete"
    ALL_IN = "all_in"
    BRING_IN = "bring_in"
    HOLE = "hole"
    BOARD = "board"
    DEAL = "deal"
    SHOW = "show"
    MUCK = "muck"
    AWARD = "award"
    KILL = "kill"
    FLOOR_AWARD = "floor_award"
    RUN_IT_TWICE = "run_it_twice"


#: The betting actions (a player's turn): each is checked by the turn first.
BETTING_TYPES = frozenset(
    {
        ActionType.FOLD,
        ActionType.CHECK,
        ActionType.CALL,
        ActionType.BET,
        ActionType.RAISE,
        ActionType.COMPLETE,
        ActionType.ALL_IN,
        ActionType.BRING_IN,
    }
)


# ------------------------------------------------------------ field checks
_set = object.__setattr__  # (a frozen record's own checks normalise a field: 400.0 -> 400, a list -> a tuple)


def _seat(value: Any) -> int:
    """A seat field: an int (not a bool). Raises EngineError("no_such_seat") as
    :meth:`~poker.hand.seats.SeatIndex.position_of` does for anything else."""
    if type(value) is int or is_int(value):
        return value
    raise EngineError("no_such_seat", f"No player dealt in at seat {value!r}.")


def _cards(value: Any) -> str | None:
    """A cards field: a string, or None (a value that is false, as ``0``: no cards entered).
    Raises EngineError("bad_cards") for anything else, as :func:`.cards.parse_cards`."""
    if value is None or isinstance(value, str):
        return value
    if not value:
        return None
    raise EngineError("bad_cards", f"Cards must be a string like 'AsKs', not {value!r}.")


def _seats(value: Any, code: str, message: str) -> tuple[int, ...]:
    """A list of seats (a list or a tuple; whether it may be empty is the state's check)."""
    if not isinstance(value, (list, tuple)):
        raise EngineError(code, message)
    return tuple(map(_seat, value))


def _chips_to(value: Any) -> int:
    """A ``to`` amount: an int, or a whole float taken as an int. Raises EngineError("bad_action")
    for anything else (a bool, a string, 12.5)."""
    if type(value) is int:
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not is_int(value):
        raise EngineError("bad_action", f"'to' must be an integer amount of chips, got {value!r}.")
    return value


# ------------------------------------------------------------------ records
@dataclass(frozen=True, slots=True)
class ActionRecord:
    """The base of every action record: its :class:`ActionType` is the class's ``type``."""

    type: ClassVar[ActionType]

    def to_dict(self) -> dict[str, Any]:
        """The action as the engine's boundary writes it (see the module's table)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class SeatAction(ActionRecord):
    """An action of one player, named by his table seat ``seat``."""

    seat: int

    def __post_init__(self) -> None:
        if type(self.seat) is not int:
            _seat(self.seat)

    def to_dict(self) -> dict[str, Any]:
        """``{"type": ..., "seat": S}``."""
        return {"type": self.type.value, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Fold(SeatAction):
    """The player folds (a fold when a check is possible is allowed and binding)."""

    type: ClassVar[ActionType] = ActionType.FOLD


@dataclass(frozen=True, slots=True)
class Check(SeatAction):
    """The player checks (nothing to call)."""

    type: ClassVar[ActionType] = ActionType.CHECK


@dataclass(frozen=True, slots=True)
class Call(SeatAction):
    """The player calls (all-in for less when short)."""

    type: ClassVar[ActionType] = ActionType.CALL


@dataclass(frozen=True, slots=True)
class AllIn(SeatAction):
    """The player bets, raises or calls with his whole stack."""

    type: ClassVar[ActionType] = ActionType.ALL_IN


@dataclass(frozen=True, slots=True)
class BringIn(SeatAction):
    """A stud game's third street: the lowest up card brings in (capped by the stack)."""

    type: ClassVar[ActionType] = ActionType.BRING_IN


@dataclass(frozen=True, slots=True)
class Muck(SeatAction):
    """The player mucks at the showdown and gives up his claim to the pots."""

    type: ClassVar[ActionType] = ActionType.MUCK


@dataclass(frozen=True, slots=True)
class Wager(SeatAction):
    """A bet, raise or completion of ``seat`` to ``to`` chips in front on this street (the
    player's total bet on the street; rulebook 002 #3-#4 for the minimum)."""

    to: int

    def __post_init__(self) -> None:
        SeatAction.__post_init__(self)
        if type(self.to) is not int:
            _set(self, "to", _chips_to(self.to))

    def to_dict(self) -> dict[str, Any]:
        """``{"type": ..., "seat": S, "to": N}``."""
        return {"type": self.type.value, "seat": self.seat, "to": self.to}


@dataclass(frozen=True, slots=True)
class Bet(Wager):
    """The first bet of a street (the engine takes ``bet`` and ``raise`` alike)."""

    type: ClassVar[ActionType] = ActionType.BET


@dataclass(frozen=True, slots=True)
class Raise(Wager):
    """A raise (the engine takes ``bet`` and ``raise`` alike)."""

    type: ClassVar[ActionType] = ActionType.RAISE


@dataclass(frozen=True, slots=True)
class Complete(Wager):
    """A stud game's completion of the bring-in to the small bet."""

    type: ClassVar[ActionType] = ActionType.COMPLETE


@dataclass(frozen=True, slots=True)
class SeatCards(SeatAction):
    """An action of one player with his ``cards`` (a string, or None: none given)."""

    cards: str | None = None

    def __post_init__(self) -> None:
        SeatAction.__post_init__(self)
        _set(self, "cards", _cards(self.cards))

    def to_dict(self) -> dict[str, Any]:
        """``{"type": ..., "seat": S, "cards": ".."}`` (no ``cards`` when None)."""
        out: dict[str, Any] = {"type": self.type.value, "seat": self.seat}
        if self.cards is not None:
            out["cards"] = self.cards
        return out


@dataclass(frozen=True, slots=True)
class Hole(SeatCards):
    """The dealer enters the hole cards of ``seat`` (``"????"`` or None: not entered)."""

    type: ClassVar[ActionType] = ActionType.HOLE


@dataclass(frozen=True, slots=True)
class Show(SeatCards):
    """``seat`` shows his hand: ``cards``, or None for the cards already entered."""

    type: ClassVar[ActionType] = ActionType.SHOW


@dataclass(frozen=True, slots=True)
class Kill(SeatAction):
    """The floor's correction: the hand of ``seat`` is dead (``reason``, a text, is for the
    record: 004 #66, 003 "Miss-Deal", 000 Allgemein 6)."""

    type: ClassVar[ActionType] = ActionType.KILL
    reason: str | None = None

    def __post_init__(self) -> None:
        SeatAction.__post_init__(self)
        if not isinstance(self.reason, str):
            _set(self, "reason", None)

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "kill", "seat": S, "reason": ".."}`` (no ``reason`` when None)."""
        out: dict[str, Any] = {"type": "kill", "seat": self.seat}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class Board(ActionRecord):
    """The next street's board cards (``""`` or None: not entered); ``board`` (1 or 2) names the
    board due in a hand with two boards (None: whichever is due; 000 Allgemein 14, 000
    Aktionen 8)."""

    type: ClassVar[ActionType] = ActionType.BOARD
    cards: str | None = None
    board: int | None = None

    def __post_init__(self) -> None:
        _set(self, "cards", _cards(self.cards))
        if self.board is not None and not is_int(self.board):
            raise EngineError("wrong_phase", f"There is no board {self.board!r} (1 or 2).")

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "board", "board": 2, "cards": ".."}`` (the None fields left out)."""
        out: dict[str, Any] = {"type": "board"}
        if self.board is not None:
            out["board"] = self.board
        if self.cards is not None:
            out["cards"] = self.cards
        return out


@dataclass(frozen=True, slots=True)
class Deal(ActionRecord):
    """A stud game's street: ``cards`` per seat ``((S, "AsKs7h"), ...)`` (a seat left out gets
    unknown cards; a seat written as digits, ``"3"``, is read as 3), or seventh street's
    ``community`` card; ``opener`` names who brings in or acts first when an up card is
    unknown."""

    type: ClassVar[ActionType] = ActionType.DEAL
    cards: tuple[tuple[int, str], ...] | None = None
    community: str | None = None
    opener: int | None = None

    def __post_init__(self) -> None:
        cards: Any = self.cards
        if cards is not None:
            pairs = cards.items() if isinstance(cards, dict) else cards
            _set(
                self,
                "cards",
                tuple(
                    (_seat(int(seat) if isinstance(seat, str) and seat.isdigit() else seat), _cards(text) or "")
                    for seat, text in pairs
                ),
            )
        _set(self, "community", _cards(self.community))
        if self.opener is not None:
            _seat(self.opener)

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "deal", "cards": {S: ".."}, "community": "..", "opener": S}`` (the None
        fields left out)."""
        out: dict[str, Any] = {"type": "deal"}
        if self.cards is not None:
            out["cards"] = dict(self.cards)
        if self.community is not None:
            out["community"] = self.community
        if self.opener is not None:
            out["opener"] = self.opener
        return out


@dataclass(frozen=True, slots=True)
class AwardPot(ActionRecord):
    """The dealer awards pot ``pot`` (0 = main pot) to the seats ``winners`` (split equally, 003
    "Odd-Chips"); ``winners2``: the winners on board 2 of a pot played on two boards (None: the
    same); ``odd_chip``: a stud game's winner with the highest card by suit (000 Allgemein 8)."""

    type: ClassVar[ActionType] = ActionType.AWARD
    pot: int
    winners: tuple[int, ...]
    winners2: tuple[int, ...] | None = None
    odd_chip: int | None = None

    def __post_init__(self) -> None:
        if not is_int(self.pot):
            raise EngineError("bad_award", f"There is no pot {self.pot!r}.")
        _set(self, "winners", _seats(self.winners, "bad_award", "winners must be a non-empty list of seat numbers."))
        if self.winners2 is not None:
            message = "winners2 must be a non-empty list of seat numbers."
            _set(self, "winners2", _seats(self.winners2, "bad_award", message))
        if self.odd_chip is not None:
            _seat(self.odd_chip)

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "award", "pot": i, "winners2": [..], "winners": [..], "odd_chip": S}`` (the
        None fields left out; ``winners2`` before ``winners``, as the PHH reader wrote them)."""
        out: dict[str, Any] = {"type": "award", "pot": self.pot}
        if self.winners2 is not None:
            out["winners2"] = list(self.winners2)
        out["winners"] = list(self.winners)
        if self.odd_chip is not None:
            out["odd_chip"] = self.odd_chip
        return out


@dataclass(frozen=True, slots=True)
class FloorAward(ActionRecord):
    """The floor's correction: the whole pot goes to ``seats`` now (004 #1)."""

    type: ClassVar[ActionType] = ActionType.FLOOR_AWARD
    seats: tuple[int, ...]

    def __post_init__(self) -> None:
        _set(self, "seats", _seats(self.seats, "bad_award", "seats must be a non-empty list of seat numbers."))

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "floor_award", "seats": [S, ...]}``."""
        return {"type": "floor_award", "seats": list(self.seats)}


@dataclass(frozen=True, slots=True)
class RunItTwice(ActionRecord):
    """The players ``agreed`` (seats) run the rest of the board twice for the pots ``pots``
    (None: every pot); ``floor``: the floor is present (000 Aktionen 8)."""

    type: ClassVar[ActionType] = ActionType.RUN_IT_TWICE
    agreed: tuple[int, ...]
    pots: tuple[int, ...] | None = None
    floor: bool = False

    def __post_init__(self) -> None:
        _set(self, "agreed", _seats(self.agreed, "bad_action", "agreed must be a list of seat numbers."))
        pots = self.pots
        if pots is not None:
            if not isinstance(pots, (list, tuple)) or not all(map(is_int, pots)):
                raise EngineError("bad_action", f"pots must list pot indexes once each, got {pots!r}.")
            _set(self, "pots", tuple(pots))
        _set(self, "floor", bool(self.floor))

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "run_it_twice", "pots": [i, ...], "agreed": [S, ...], "floor": bool}``
        (no ``pots`` when None)."""
        out: dict[str, Any] = {"type": "run_it_twice"}
        if self.pots is not None:
            out["pots"] = list(self.pots)
        out["agreed"] = list(self.agreed)
        out["floor"] = self.floor
        return out


Action: TypeAlias = (
    Fold
    | Check
    | Call
    | AllIn
    | BringIn
    | Muck
    | Bet
    | Raise
    | Complete
    | Hole
    | Board
    | Deal
    | Show
    | AwardPot
    | Kill
    | FloorAward
    | RunItTwice
)
"""Any action record (the base class at run time: :class:`ActionRecord`)."""


# ------------------------------------------------------------------- parsing
def _seat_action(cls: type[SeatAction]) -> Callable[[Any], ActionRecord]:
    return lambda d: cls(d.get("seat"))


def _wager(cls: type[Wager]) -> Callable[[Any], ActionRecord]:
    return lambda d: cls(d.get("seat"), d.get("to"))


def _parse_deal(d: Any) -> Deal:
    raw = d.get("cards")
    if raw is not None and not isinstance(raw, dict):
        if raw:
            raise EngineError("bad_cards", "cards must map seat numbers to card strings.")
        raw = None  # (a value that is false: no cards, as an empty map)
    return Deal(None if raw is None else tuple(raw.items()), d.get("community"), d.get("opener"))


#: action type -> the reader of its dict (keys the engine does not read are left out)
_PARSERS: dict[str, Callable[[Any], ActionRecord]] = {
    ActionType.FOLD: _seat_action(Fold),
    ActionType.CHECK: _seat_action(Check),
    ActionType.CALL: _seat_action(Call),
    ActionType.ALL_IN: _seat_action(AllIn),
    ActionType.BRING_IN: _seat_action(BringIn),
    ActionType.MUCK: _seat_action(Muck),
    ActionType.BET: _wager(Bet),
    ActionType.RAISE: _wager(Raise),
    ActionType.COMPLETE: _wager(Complete),
    ActionType.HOLE: lambda d: Hole(d.get("seat"), d.get("cards")),
    ActionType.SHOW: lambda d: Show(d.get("seat"), d.get("cards")),
    ActionType.BOARD: lambda d: Board(d.get("cards"), d.get("board")),
    ActionType.DEAL: _parse_deal,
    ActionType.AWARD: lambda d: AwardPot(d.get("pot"), d.get("winners") or (), d.get("winners2"), d.get("odd_chip")),
    ActionType.KILL: lambda d: Kill(d.get("seat"), d.get("reason")),
    ActionType.FLOOR_AWARD: lambda d: FloorAward(d.get("seats") or ()),
    ActionType.RUN_IT_TWICE: lambda d: RunItTwice(d.get("agreed") or (), d.get("pots"), d.get("floor")),
}


def parse_action(action: Any, types: Collection[str] = _PARSERS) -> ActionRecord:
    """The record of an action dict (a record is returned as it is).

    Args:
        action: ``{"type": ..., ...}`` as in the module's table (JSON from the tablet, a stored
            event, a PHH line read); keys the engine does not read are ignored.
        types: the action types to read (a game's, ``spec.game_variant.actions``); any other
            is unknown, before its fields are read. Default: every type.

    Returns:
        The record (:data:`Action`).

    Raises:
        EngineError: ``bad_action`` for a value that is not a dict or a type the engine does not
        know, else the code of a field of the wrong type (see the module docstring).
    """
    if isinstance(action, ActionRecord):
        return action
    if not isinstance(action, dict):
        raise EngineError("bad_action", f"An action must be a dict, got {type(action).__name__}.")
    kind = action.get("type", "")
    parse = _PARSERS.get(kind) if isinstance(kind, str) and kind in types else None
    if parse is None:
        raise EngineError("bad_action", f"Unknown action type {action.get('type')!r}.")
    return parse(action)
