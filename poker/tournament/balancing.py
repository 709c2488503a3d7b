"""Balancing: move players from long tables to short ones.

Pure Python.

* 001 "Balancing": "An jedem Tisch spielt ... immer dieselbe Anzahl Personen
  (Abweichungen von maximal einer Person). Freie Sitzplätze werden
  gleichmässig und fair aufgefüllt. Die Auswahl von welchem Tisch der
  Spieler genommen wird entscheidet die Turnierleitung."  001 says nothing
  about which player or seat: the plan proposes the player due for the big
  blind next at the fullest table (so nobody escapes a big blind by moving)
  and a seat drawn at random among the free seats of the shortest table.
* 004 #11: from a difference of two players, "der Spieler, der als nächstes
  im Bigblind sitzen würde" moves from a long table to a short table "und
  erhält da die 'schlechteste' Position. Der Smallblind kann niemals besetzt
  werden vom neuen Spieler."  Worst position = the free seat that posts the
  big blind soonest (the big blind itself if possible), never the seat that
  would post the small blind next hand.

Both rulebooks act at a difference of two and leave every table within one
player of every other.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .buttons import Positions, draw_button, first_hand_positions, hands_until_button, next_positions
from .model import Move, TableState
from .rules import Citation, PlayerId, TournamentRules


@dataclass(frozen=True)
class BalancePlan:
    """Moves that balance the floor.

    * ``moves`` -- in the order they should be made.
    * ``spread_before`` / ``spread_after`` -- fullest minus shortest table.
    * ``rule`` -- ``cite("001 Balancing")`` or ``cite("004 #11")``.
    """

    moves: tuple[Move, ...]
    spread_before: int
    spread_after: int
    rule: Citation


class _Floor:
    """Working copy of the seat maps, copied lazily per table."""

    def __init__(self, tables: Sequence[TableState]):
        self.tables = {t.number: t for t in tables}
        self._seats: dict[int, dict[int, PlayerId]] = {}
        self.arrivals: dict[int, set[int]] = {}
        self.waiting: dict[int, set[int]] = {}

    def seats(self, number: int) -> dict[int, PlayerId]:
        seats = self._seats.get(number)
        if seats is None:
            seats = self._seats[number] = dict(self.tables[number].seats)
        return seats


def upcoming_positions(table: TableState, occupied: Collection[int], rules: TournamentRules) -> Positions | None:
    """Button and blinds of the next hand at ``table`` with ``occupied`` seats.

    After a hand: :func:`~poker.tournament.buttons.next_positions` from the
    table's last-hand ``positions``.  Before the first hand: the first
    hand's positions around ``table.first_button`` (004 #75: seat 1, and
    with seat 1 empty the next occupied seat, as 004 #32 allows no dead
    button; 001 "Dealerbutton": the drawn seat while it is occupied).
    ``None`` when fewer than two seats are occupied or the first button is
    not known (001 with the drawn seat empty: it is drawn again).
    """
    if len(occupied) < 2:
        return None
    if table.positions is not None:
        return next_positions(table.positions, occupied, rules)
    button = table.first_button
    if button is None:
        return None
    if button not in occupied:
        if rules.initial_button != "seat_one":
            return None
        button = draw_button(occupied, rules)[0]
    return first_hand_positions(button, occupied, rules)


def player_due_for_big_blind(table: TableState, seats: dict[int, PlayerId], rules: TournamentRules) -> int:
    """Seat of the player who would post the big blind in the next hand
    (004 #11: "der Spieler, der als nächstes im Bigblind sitzen würde").

    Uses the table's last-hand ``positions`` and the current ``seats``;
    before the table's first hand the first hand's big blind
    (:func:`upcoming_positions`: its button on ``first_button``, 004 #75),
    never the player on the first button.  With no position known (or
    fewer than two players) the lowest occupied seat.
    """
    nxt = upcoming_positions(table, seats.keys(), rules)
    return min(seats) if nxt is None else nxt.big_blind


def worst_position_seat(
    table: TableState,
    seats: dict[int, PlayerId],
    rules: TournamentRules,
    newcomers: Collection[int] = frozenset(),
    waiting: Collection[int] = frozenset(),
) -> tuple[int | None, bool]:
    """Free seat that posts the big blind soonest, never the small blind (004 #11).

    ``newcomers`` -- seats already given to movers at this table in the same
    plan; a seat that would push one of them into the small blind is
    refused too.  ``waiting`` -- seats of movers who wait for the button;
    they hold their seat but do not count for the blinds.

    Returns ``(seat, ok)``.  ``ok`` is false when every free seat would be
    the small blind next hand; ``seat`` is then the first free seat and the
    mover should wait for the button.  ``seat`` is ``None`` on a full table.
    Before the table's first hand the seats are ranked on the first hand's
    positions (:func:`upcoming_positions`, button on ``first_button``, 004
    #75), so a mover takes the first hand's big blind or the seat nearest
    after it, not the first button nor the first small blind; with no
    position known the lowest free seat is returned.
    """
    free = [s for s in range(1, table.max_seats + 1) if s not in seats]
    if not free:
        return None, False
    if len(seats) < 2 or upcoming_positions(table, seats.keys(), rules) is None:
        return free[0], True
    best: tuple[int, int] | None = None
    for s in free:
        occupied = sorted([*(x for x in seats if x not in waiting), s])
        nxt = upcoming_positions(table, occupied, rules)
        if nxt is None:
            continue
        first_hand = table.positions is None  # nobody has posted here yet: the other newcomers are no concern
        if (
            s == nxt.small_blind
            or (not first_hand and nxt.small_blind in newcomers)
            or (nxt.heads_up and s == nxt.button)
        ):
            continue
        rank = (occupied.index(s) - occupied.index(nxt.big_blind)) % len(occupied)
        if best is None or rank < best[0]:
            best = (rank, s)
    if best is None:
        # before the table's first hand nobody waits for the button: every player there is dealt in (004 #8)
        return free[0], table.positions is None
    return best[1], True


def plan_balancing(
    tables: Sequence[TableState], rules: TournamentRules, rng: random.Random | None = None
) -> BalancePlan:
    """Plan the moves that bring every table within one player of the others.

    * ``tables`` -- the floor (broken tables already removed); each table's
      ``positions`` is its last hand.
    * ``rng`` -- seat draw under 001 (a system-seeded ``random.Random`` when
      omitted); unused under 004.

    Nothing moves while the spread is below ``rules.balance_at_difference``.
    Otherwise one player at a time moves from the fullest table (ties: lowest
    table number -- 001 leaves the choice to the tournament director, who may
    reorder the plan) to the shortest (ties: lowest number), until the spread
    is at most one.  Under 004, if every free seat of every shortest table
    would be the small blind, the mover takes the first free seat and
    ``waits_for_button``.

    Returns a :class:`BalancePlan`.  Runs in O(moves x seats x log tables).
    """
    rule = rules.cite("balancing")
    if not tables:
        return BalancePlan((), 0, 0, rule)
    counts = {t.number: len(t.seats) for t in tables}
    spread = max(counts.values()) - min(counts.values())
    if spread < rules.balance_at_difference:
        return BalancePlan((), spread, spread, rule)
    rng = rng or random.Random()
    floor = _Floor(tables)
    high = [(-c, n) for n, c in counts.items()]
    low = [(c, n) for n, c in counts.items()]
    heapq.heapify(high)
    heapq.heapify(low)
    moves: list[Move] = []

    def top(heap, sign):
        while True:
            key, number = heap[0]
            if sign * key == counts[number]:
                return number
            heapq.heappop(heap)

    while True:
        src = top(high, -1)
        dst = top(low, 1)
        if counts[src] - counts[dst] < 2:
            break
        src_table = floor.tables[src]
        src_seats = floor.seats(src)
        from_seat = player_due_for_big_blind(src_table, src_seats, rules)
        player = src_seats[from_seat]
        waits, hands = False, 0
        if rules.balancing == "big_blind_to_worst_position":
            # Any table as short as ``dst`` will do; take the first with a
            # seat that is not the small blind.
            to_seat, chosen = None, dst
            seat, ok = worst_position_seat(
                floor.tables[dst], floor.seats(dst), rules, floor.arrivals.get(dst, ()), floor.waiting.get(dst, ())
            )
            if ok:
                to_seat = seat
            candidates = () if ok else sorted(n for n, c in counts.items() if c == counts[dst] and n != dst)
            for number in candidates:
                seat, ok = worst_position_seat(
                    floor.tables[number],
                    floor.seats(number),
                    rules,
                    floor.arrivals.get(number, ()),
                    floor.waiting.get(number, ()),
                )
                if ok:
                    to_seat, chosen = seat, number
                    break
            if to_seat is None:
                to_seat, _ = worst_position_seat(floor.tables[dst], floor.seats(dst), rules)
                assert to_seat is not None  # dst is the shortest table, at least two below src: a seat is free
                waits = True
                dst_table, waiting = floor.tables[dst], floor.waiting.get(dst, set())
                counted = [x for x in floor.seats(dst) if x not in waiting] + [to_seat]
                if dst_table.positions is not None:
                    hands = hands_until_button(to_seat, dst_table.positions, counted, rules)
                elif (first := upcoming_positions(dst_table, counted, rules)) is not None:
                    hands = hands_until_button(to_seat, first, counted, rules, upcoming=first)
            dst = chosen
            reason = "player due for the big blind moves to the worst position (never the small blind)"
        else:
            dst_seats = floor.seats(dst)
            free = [s for s in range(1, floor.tables[dst].max_seats + 1) if s not in dst_seats]
            to_seat = rng.choice(free)
            reason = "tables kept within one player; free seat drawn at random"
        del src_seats[from_seat]
        floor.seats(dst)[to_seat] = player
        floor.arrivals.setdefault(dst, set()).add(to_seat)
        if waits:
            floor.waiting.setdefault(dst, set()).add(to_seat)
        counts[src] -= 1
        counts[dst] += 1
        heapq.heappush(high, (-counts[src], src))
        heapq.heappush(low, (counts[src], src))
        heapq.heappush(high, (-counts[dst], dst))
        heapq.heappush(low, (counts[dst], dst))
        moves.append(
            Move(player, src, from_seat, dst, to_seat, rule, waits_for_button=waits, hands_to_wait=hands, reason=reason)
        )
    return BalancePlan(tuple(moves), spread, max(counts.values()) - min(counts.values()), rule)
