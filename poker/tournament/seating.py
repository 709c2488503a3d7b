"""Random seat draw, first button, and late entrants.

Pure Python.  Rules:

* 001 "Sitzverteilung": every player draws a card with table and seat number
  right after registration.
* 004 #7: seats are assigned at random; 004 #8: late entrants are seated
  the same way and get cards at once unless they enter between the small
  blind and the button.
* First button: 001 "Dealerbutton" (by draw) vs 004 #75 (always seat 1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .buttons import Positions, draw_button, first_hand_positions, is_between, next_positions
from .model import TableState
from .rules import Citation, PlayerId, TournamentRules, UnsupportedByRulebook


@dataclass(frozen=True, slots=True)
class SeatCard:
    """A seat card: ``player`` sits at ``table``, ``seat``."""

    player: PlayerId
    table: int
    seat: int


@dataclass(frozen=True)
class SeatDraw:
    """Result of :func:`draw_seats`.

    * ``cards`` -- one :class:`SeatCard` per player, in the order the
      players were given (the order they drew).
    * ``tables`` -- the tables with their first-hand ``positions`` set.
    * ``rules`` -- citations applied: seat draw, then first button.
    """

    cards: tuple[SeatCard, ...]
    tables: tuple[TableState, ...]
    rules: tuple[Citation, ...]


def table_sizes(players: int, max_seats: int) -> list[int]:
    """Players per table for a balanced start: fewest tables, within one.

    ``table_sizes(10_000, 9)`` gives 1,112 tables: 1,104 of nine and 8 of
    eight.  Raises ``ValueError`` for ``players < 2`` or ``max_seats < 2``.
    """
    if players < 2:
        raise ValueError("a tournament needs at least two players")
    if max_seats < 2:
        raise ValueError("a table needs at least two seats")
    count = -(-players // max_seats)
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def draw_seats(
    players: Sequence[PlayerId], rules: TournamentRules, rng: random.Random, first_table: int = 1
) -> SeatDraw:
    """Draw a random seat for every player and place the first buttons.

    * ``players`` -- distinct player ids, in registration order.
    * ``rules.max_seats`` -- seats per table; tables are numbered from
      ``first_table`` and filled within one player of each other.
    * ``rng`` -- the only source of randomness (inject a seeded
      ``random.Random`` for reproducible draws).

    Which seats stay empty at a short table is random; under 004 seat 1 is
    never left empty, so the first button "immer auf Platz 1" (004 #75) is on
    a player and no button is dead (004 #32).  Under 001 the first button is
    drawn among the occupied seats ("mittels Platzkarte").

    A table left with a single player (only with tiny fields, e.g. three
    players on two-seat tables) gets ``positions=None``.

    Raises ``ValueError`` for duplicate players or fewer than two players.
    Runs in O(players).
    """
    if len(set(players)) != len(players):
        raise ValueError("duplicate player in the seat draw")
    sizes = table_sizes(len(players), rules.max_seats)
    rng.shuffle(sizes)
    cards: list[tuple[int, int]] = []
    all_seats = range(1, rules.max_seats + 1)
    keep_seat_one = rules.initial_button == "seat_one"
    for index, size in enumerate(sizes):
        number = first_table + index
        if size == rules.max_seats:
            seats = list(all_seats)
        elif keep_seat_one:
            seats = [1] + rng.sample(range(2, rules.max_seats + 1), size - 1)
        else:
            seats = rng.sample(all_seats, size)
        cards.extend((number, s) for s in seats)
    rng.shuffle(cards)
    seat_cards = tuple(SeatCard(p, t, s) for p, (t, s) in zip(players, cards))
    by_table: dict[int, dict[int, PlayerId]] = {first_table + i: {} for i in range(len(sizes))}
    for card in seat_cards:
        by_table[card.table][card.seat] = card.player
    tables = []
    for number, seated in by_table.items():
        positions = None
        if len(seated) >= 2:  # a lone player (tiny fields only) waits for balancing
            button, _ = draw_button(seated, rules, rng)
            positions = first_hand_positions(button, seated, rules)
        tables.append(TableState(number, seated, rules.max_seats, positions))
    return SeatDraw(seat_cards, tuple(tables), (rules.cite("seating"), rules.cite("initial_button")))


@dataclass(frozen=True, slots=True)
class LateSeat:
    """Where a late entrant sits and whether he is dealt in at once.

    ``waits_for_button`` is true when the seat lies between the button and
    the small blind of the next hand (004 #8); the player then gets cards
    when the button reaches him.
    """

    player: PlayerId
    table: int
    seat: int
    dealt_in: bool
    waits_for_button: bool
    rule: Citation


def seat_late_entrant(
    player: PlayerId, tables: Sequence[TableState], rules: TournamentRules, rng: random.Random
) -> LateSeat:
    """Seat a late registration or re-entry (004 #8, seat as in #7).

    A random free seat at a table with the fewest players (ties drawn at
    random), so tables stay balanced.  The player "erhält sofort Karten
    ausser er steigt zwischen Small Blind und Button ein": with the table's
    last-hand ``positions`` known, the next hand's button and small blind are
    computed without the entrant; a seat strictly between them waits for the
    button.

    Raises ``UnsupportedByRulebook`` for 001 (no late registration: 001
    "Re-buy/Add-on" allows none unless the Turnierreglement provides it),
    ``ValueError`` when the player is already seated or no seat is free.
    """
    if rules.late_entry == "none":
        raise UnsupportedByRulebook(f"rulebook {rules.rulebook!r} has no late-registration rule (001 Re-buy/Add-on)")
    if any(player in t.seats.values() for t in tables):
        raise ValueError(f"player {player!r} is already seated")
    open_tables = [t for t in tables if t.player_count < t.max_seats]
    if not open_tables:
        raise ValueError("no free seat: open a new table")
    fewest = min(t.player_count for t in open_tables)
    table = rng.choice([t for t in open_tables if t.player_count == fewest])
    seat = rng.choice(table.free_seats())
    waits = False
    if table.positions is not None and table.player_count >= 2:
        nxt: Positions = next_positions(table.positions, table.seats.keys(), rules)
        if nxt.button != nxt.small_blind and is_between(seat, nxt.button, nxt.small_blind):
            waits = True
    return LateSeat(player, table.number, seat, not waits, waits, rules.cite("late_entry"))
