"""Value types shared by seating, balancing and breaking.

Pure Python.  A tournament floor is a sequence of :class:`TableState`
values; planners never mutate them, they return :class:`Move` records that
:func:`apply_moves` turns into the next floor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .buttons import Positions
from .rules import Citation, PlayerId


@dataclass(frozen=True, slots=True)
class TableState:
    """One tournament table.

    * ``number`` -- table number (int).
    * ``seats`` -- occupied seats only: seat number (``1..max_seats``) ->
      player id.
    * ``max_seats`` -- seats at the table.
    * ``positions`` -- button/blinds of the last hand played here, or
      ``None`` before the first hand.  Planners use it to know who is due
      for the big blind and which seats are "worst".
    * ``first_button`` -- the seat the first hand's button goes to (004 #75:
      seat 1; 001 "Dealerbutton": the drawn seat), or ``None`` when not
      known.  Read only while ``positions`` is ``None``: before the first
      hand the planners know its button and blinds from it.
    """

    number: int
    seats: Mapping[int, PlayerId]
    max_seats: int
    positions: Positions | None = None
    first_button: int | None = None

    @property
    def player_count(self) -> int:
        """Number of occupied seats."""
        return len(self.seats)

    def free_seats(self) -> list[int]:
        """Empty seat numbers, ascending."""
        return [s for s in range(1, self.max_seats + 1) if s not in self.seats]


@dataclass(frozen=True, slots=True)
class Move:
    """A player changes seat.

    * ``player`` moves from ``(from_table, from_seat)`` to
      ``(to_table, to_seat)``.
    * ``rule`` -- the citation of the rule that caused the move, e.g.
      ``cite("004 #11")``.
    * ``waits_for_button`` -- the player takes the seat but is not dealt in
      until the button reaches him (001 Tischauflösung); ``hands_to_wait``
      is how many hands he sits out (0 when dealt in at once).
    * ``reason`` -- one line for the floor screen.
    """

    player: PlayerId
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    rule: Citation
    waits_for_button: bool = False
    hands_to_wait: int = 0
    reason: str = ""


def validate_tables(tables: Iterable[TableState]) -> None:
    """Check the floor is consistent.

    Raises ``ValueError`` when a table number repeats, a seat is outside
    ``1..max_seats``, or a player is seated twice.
    """
    seen_tables: set[int] = set()
    seen_players: dict[PlayerId, tuple[int, int]] = {}
    for table in tables:
        if table.number in seen_tables:
            raise ValueError(f"table {table.number} appears twice")
        seen_tables.add(table.number)
        for seat, player in table.seats.items():
            if not 1 <= seat <= table.max_seats:
                raise ValueError(f"table {table.number}: seat {seat} outside 1..{table.max_seats}")
            if player in seen_players:
                raise ValueError(f"player {player!r} seated twice: {seen_players[player]} and {(table.number, seat)}")
            seen_players[player] = (table.number, seat)


def apply_moves(
    tables: Sequence[TableState],
    moves: Iterable[Move],
    broken: Iterable[int] = (),
    resize: Mapping[int, int] | None = None,
) -> list[TableState]:
    """Return the floor after ``moves``; tables in ``broken`` are removed.

    ``resize`` maps a table number to a new ``max_seats`` (the final table).
    Positions of the remaining tables are kept (they are the last hand
    played there).  Raises ``ValueError`` when a move does not start from
    the seat the player holds, lands on an occupied seat, or a broken table
    still has players.
    """
    moves = list(moves)
    broken = set(broken)
    if not moves and not broken and not resize:
        return list(tables)
    index = {t.number: t for t in tables}
    copies: dict[int, dict[int, PlayerId]] = {}

    def seats(number: int) -> dict[int, PlayerId]:
        if number not in copies:
            if number not in index:
                raise ValueError(f"no table {number}")
            copies[number] = dict(index[number].seats)
        return copies[number]

    for m in moves:
        src = seats(m.from_table)
        if src.get(m.from_seat) != m.player:
            raise ValueError(f"{m.player!r} is not at table {m.from_table} seat {m.from_seat}")
        del src[m.from_seat]
    for m in moves:
        dst = seats(m.to_table)
        if m.to_seat in dst:
            raise ValueError(f"table {m.to_table} seat {m.to_seat} is taken")
        dst[m.to_seat] = m.player
    resize = resize or {}
    for number in broken:
        left = copies.get(number, index[number].seats if number in index else {})
        if left:
            raise ValueError(f"broken table {number} still seats {sorted(left)}")
    changed = {}
    for number in copies.keys() | resize.keys():
        if number in index and number not in broken:
            t = index[number]
            changed[number] = TableState(
                number, copies.get(number, t.seats), resize.get(number, t.max_seats), t.positions, t.first_button
            )
    if not broken:
        return [changed.get(t.number, t) for t in tables] if changed else list(tables)
    return [changed.get(t.number, t) for t in tables if t.number not in broken]
