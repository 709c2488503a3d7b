"""The players dealt in: :class:`SeatSpec`, and what every game's spec does with its seats.

A spec (:class:`~poker.hand.spec.HandSpec` for the flop games, :class:`~poker.hand.stud_spec.StudSpec`
for stud) holds its players as a tuple of :class:`SeatSpec` in position order and a map from table seat
number to position (``_seat_pos``); :class:`SeatIndex` reads that map for both, so the two games share
one lookup and one error."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .checks import is_int
from .errors import EngineError

__all__ = ["SeatIndex", "SeatSpec", "per_position", "plain_seats", "seat_specs"]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One player dealt in.

    Fields:
        seat: table seat number (1..10 at a normal table; any distinct int).
        player: player id or name (str).
        stack: chips in front of the player at the start of the hand (int > 0).
    """

    seat: int
    player: str
    stack: int


_NEW = object.__new__
_SET_SEAT, _SET_PLAYER, _SET_STACK = (SeatSpec.__dict__[name].__set__ for name in ("seat", "player", "stack"))


def seat_specs(seats: Sequence[int], players: Sequence[str], stacks: Sequence[int]) -> tuple[SeatSpec, ...]:
    """``tuple(map(SeatSpec, seats, players, stacks))`` built faster (the PHH replay builds the seats
    of a spec per hand): the same frozen :class:`SeatSpec` objects, their slots set directly instead
    of through the frozen ``__init__``'s ``object.__setattr__``. Nothing is checked here (as in
    ``SeatSpec`` itself: the spec checks its seats). The shortest sequence ends it."""
    specs = []
    for seat, player, stack in zip(seats, players, stacks):
        spec = _NEW(SeatSpec)
        _SET_SEAT(spec, seat)
        _SET_PLAYER(spec, player)
        _SET_STACK(spec, stack)
        specs.append(spec)
    return tuple(specs)


def plain_seats(seats: tuple[SeatSpec, ...]) -> bool:
    """Every seat a :class:`SeatSpec` whose seat number and stack are ints, every stack positive
    (the common case, tested in one loop; the spec's seat by seat checks name the first that is not)."""
    for s in seats:
        if type(s) is not SeatSpec or type(s.seat) is not int or type(s.stack) is not int or s.stack <= 0:
            return False
    return True


def per_position(raw, n: int, name: str) -> tuple[int, ...]:
    """PHH ``clean_values`` (blinds or straddles, antes): an int is used for every one of the ``n``
    positions, a shorter sequence is padded with zeros. Raises EngineError("bad_spec") for more
    entries than positions or anything but non-negative integer chips (``name`` says which field)."""
    if type(raw) is tuple and len(raw) == n:
        values = raw  # the common case: one int per position (checked below)
    elif is_int(raw):
        values = (raw,) * n
    else:
        values = tuple(raw)
        if len(values) > n:
            raise EngineError("bad_spec", f"{name} has {len(values)} entries for {n} players.")
        values = values + (0,) * (n - len(values))
    if values and set(map(type, values)) == {int} and min(values) >= 0:
        return values  # the common case, tested in C
    for v in values:
        if not (type(v) is int or is_int(v)) or v < 0:
            raise EngineError("bad_spec", f"{name} must be non-negative integer chips, got {v!r}.")
    return values


class SeatIndex:
    """Seat number <-> position of a spec's players, for every game's spec (a mixin without fields:
    the spec has ``seats``, a tuple of :class:`SeatSpec` in position order, and ``_seat_pos``, table
    seat number -> position, set by its constructor)."""

    __slots__ = ()
    seats: tuple[SeatSpec, ...]
    _seat_pos: dict[int, int]

    def position_of(self, seat) -> int:
        """Return the position index of a table seat number.

        Raises EngineError("no_such_seat") when nobody at that seat is dealt in.
        """
        if type(seat) is int or is_int(seat):
            pos = self._seat_pos.get(seat)
            if pos is not None:
                return pos
        raise EngineError("no_such_seat", f"No player dealt in at seat {seat!r}.")

    def seat_of(self, position: int) -> int:
        """Return the table seat number of a position index."""
        return self.seats[position].seat
