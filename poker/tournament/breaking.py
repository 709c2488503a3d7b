"""Breaking tables and forming the final table.

Pure Python.

Wynental, 001 "Balancing": "An Tischen, an denen 5 Plätze frei sind, wird
das Spiel gestoppt. Der Tisch wird aufgelöst oder durch einen Spieler
aufgefüllt. Sind nur noch 10 Spieler übrig, wird aus ihnen der Finaltisch
gebildet."  A table breaks only when it would otherwise have five free
seats: the floor keeps as many tables as can each hold at least
``max_seats - 4`` players; a stopped table that is not broken is filled by
balancing (:mod:`.balancing`).  001 "Tischauflösung": players from a broken
table "dürfen nur zwischen der UTG ... Position bis und mit dem Button
direkt einsteigen. Sollte er/sie auf die Blinds kommen überspringt er/sie
diese bis er/sie auf dem Button ist. So kann es maximal zu 2 ausgesetzten
Runden kommen."

MunotPoker, 004 #10: a table breaks only when "a) kein Spieler mehr ins
Turnier einsteigen kann und die verbleibende Spielerzahl nun auf einen Tisch
weniger verteilt werden könnte oder b) noch während der Einstiegsphase
bereits 2 Tische hätten aufgelöst werden sollen".  Its players get new seats
from "vorher gemischten Seatcards der freien Turnierplätze"; "Auf
Positionsnachteile ... kann keine Rücksicht genommen werden".  004 #78: the
final table is always played with 9.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .buttons import hands_until_button, is_between, next_positions
from .model import Move, TableState, apply_moves
from .rules import Citation, PlayerId, TournamentRules


@dataclass(frozen=True)
class TablesNeeded:
    """How many tables the floor should have, and why."""

    tables: int
    final_table: bool
    rule: Citation
    reason: str


@dataclass(frozen=True)
class BreakPlan:
    """Result of :func:`plan_breaks`.

    * ``broken_tables`` -- table numbers to close, in breaking order.
    * ``moves`` -- one per relocated player (under a 001 final-table redraw
      also the players who stay at the table but change seat).
    * ``final_table`` -- number of the final table when this plan forms it.
    * ``final_table_seats`` -- its seat count (001: 10, may exceed the
      normal ``max_seats``); apply with ``apply_moves(..., resize=...)``.
    * ``final_table_button`` -- button seat drawn for a redrawn final table.
    * ``stopped_tables`` -- 001: tables left with 5 or more free seats
      after the plan (they need filling by balancing, or nothing helps).
    * ``rules`` -- citations applied, main first.
    """

    broken_tables: tuple[int, ...]
    moves: tuple[Move, ...]
    final_table: int | None
    final_table_seats: int | None
    final_table_button: int | None
    stopped_tables: tuple[int, ...]
    rules: tuple[Citation, ...]
    reason: str

    @property
    def resize(self) -> dict[int, int]:
        """``{final_table: final_table_seats}`` for :func:`.model.apply_moves`."""
        if self.final_table is None or self.final_table_seats is None:
            return {}
        return {self.final_table: self.final_table_seats}


def tables_needed(
    players: int, current_tables: int, rules: TournamentRules, registration_open: bool = False
) -> TablesNeeded:
    """Number of tables to keep for ``players`` remaining.

    * Final table when ``players <= rules.final_table_size`` (001: 10,
      004 #78: 9).
    * 001: as many tables as each hold ``max_seats - stop_at_free_seats + 1``
      players (no table at 5 free seats), never more than now, never fewer
      than the seats require.
    * 004 #10 a) (registration closed): the fewest tables that seat everyone.
      004 #10 b) (registration open): break only when 2 tables are in
      excess, and then keep one spare table.  001 has no registration rule:
      ``registration_open`` is ignored there.

    Raises ``ValueError`` for negative counts.
    """
    if players < 0 or current_tables < 0:
        raise ValueError("negative count")
    by_seats = -(-players // rules.max_seats)
    if players <= rules.final_table_size:
        return TablesNeeded(
            min(1, current_tables), True, rules.cite("final_table"), f"{players} players left: final table"
        )
    by_seats = max(by_seats, 2)
    if rules.breaking == "free_seats":
        min_players = rules.max_seats - (rules.stop_at_free_seats or rules.max_seats) + 1
        keep = max(by_seats, players // max(min_players, 1))
        keep = min(keep, current_tables) if current_tables >= by_seats else by_seats
        return TablesNeeded(
            keep,
            False,
            rules.cite("breaking"),
            f"tables keep at least {min_players} players (stop at {rules.stop_at_free_seats} free seats)",
        )
    if registration_open:
        excess = current_tables - by_seats
        if excess >= (rules.registration_break_excess or 1):
            return TablesNeeded(
                by_seats + 1,
                False,
                rules.cite("breaking"),
                f"registration open and {excess} tables in excess: break, keep one spare (004 #10 b)",
            )
        return TablesNeeded(
            max(current_tables, by_seats),
            False,
            rules.cite("breaking"),
            "registration open: fewer than 2 tables in excess (004 #10 b)",
        )
    return TablesNeeded(
        by_seats, False, rules.cite("breaking"), "registration closed: players fit on one table fewer (004 #10 a)"
    )


def _stopped(counts: dict[int, int], capacity: dict[int, int], rules: TournamentRules) -> tuple[int, ...]:
    if rules.stop_at_free_seats is None:
        return ()
    return tuple(sorted(n for n, c in counts.items() if capacity[n] - c >= rules.stop_at_free_seats))


def moves_due(counts: Sequence[int], rules: TournamentRules, registration_open: bool = False) -> bool:
    """Whether a floor whose open tables seat ``counts`` players (one int per table, in any order) may
    need a move: a table to break (:func:`tables_needed` keeps fewer tables than there are: 001
    Balancing, 004 #10, the final table 001 / 004 #78) or tables to balance (the fullest and the
    shortest ``rules.balance_at_difference`` or more apart: 001 Balancing, 004 #11).

    False means :func:`plan_breaks` breaks nothing and :func:`plan_balancing` moves nobody on that
    floor, whatever its seats (tests/poker/tournament/test_moves_due.py holds both plans to it), so a
    caller may skip reading the seats after a bust that leaves nothing to do.  True only says that the
    plans are to be made.  Raises ``ValueError`` for a negative count.
    """
    if len(counts) <= 1:
        return False
    if tables_needed(sum(counts), len(counts), rules, registration_open).tables < len(counts):
        return True
    return max(counts) - min(counts) >= rules.balance_at_difference


def plan_breaks(
    tables: Sequence[TableState],
    rules: TournamentRules,
    rng: random.Random | None = None,
    registration_open: bool = False,
    break_order: Sequence[int] | None = None,
) -> BreakPlan:
    """Plan which tables break and where their players sit.

    * ``tables`` -- the floor; each table's ``positions`` is its last hand.
    * ``rng`` -- seat draw (a system-seeded ``random.Random`` when omitted).
    * ``registration_open`` -- late registration still open (004 #10 b).
    * ``break_order`` -- table numbers in the house's breaking order; by
      default the table with the fewest players breaks first, ties the
      highest number.  Neither rulebook fixes an order.

    Broken tables' players are shuffled and dealt the seat cards of free
    seats chosen so the remaining tables stay within one player of each
    other (fill the shortest first).  Under 001 the seat cards avoid seats
    strictly between the last hand's small and big blind when possible
    (there the wait for the button would exceed the "maximal 2 ausgesetzten
    Runden"), and every mover gets ``waits_for_button`` / ``hands_to_wait``
    from the target table's next hand.  Under 001 the final table is formed
    anew: all players draw seats at one table of ``final_table_seats``
    seats and a new button is drawn.

    Returns a :class:`BreakPlan`; raises ``ValueError`` if a table number in
    ``break_order`` is unknown or the tables left have too few free seats.  Runs in O(players moved x log tables).
    """
    rng = rng or random.Random()
    by_number = {}
    counts = {}
    for t in tables:
        by_number[t.number] = t
        counts[t.number] = len(t.seats)
    need = tables_needed(sum(counts.values()), len(tables), rules, registration_open)
    capacity = {t.number: t.max_seats for t in tables} if rules.stop_at_free_seats is not None else {}
    if need.tables >= len(tables):
        return BreakPlan(
            (), (), None, None, None, _stopped(counts, capacity, rules), (need.rule,), "no table breaks: " + need.reason
        )
    if break_order is not None:
        unknown = [n for n in break_order if n not in by_number]
        if unknown:
            raise ValueError(f"unknown tables in break_order: {unknown}")
        listed = set(break_order)
        rest = sorted((t.number for t in tables if t.number not in listed), key=lambda n: (counts[n], -n))
        order = list(break_order) + rest
    else:
        order = sorted(counts, key=lambda n: (counts[n], -n))
    broken = order[: len(tables) - need.tables]
    survivors = [by_number[n] for n in order[len(tables) - need.tables :]]
    cited = [need.rule]

    if need.final_table and rules.final_table_redraw:
        return _redraw_final_table(tables, survivors[0], broken, rules, rng, need)

    final_seats = {survivors[0].number: rules.final_table_seats} if need.final_table else {}
    movers: list[tuple[PlayerId, int, int]] = []
    for number in broken:
        movers.extend((p, number, s) for s, p in sorted(by_number[number].seats.items()))
    rng.shuffle(movers)
    seats_now: dict[int, set[int]] = {}
    # Fill the shortest survivor first (ties: lowest number); the seat on it is drawn.
    heap = [(counts[t.number], t.number) for t in survivors]
    heapq.heapify(heap)
    cards: list[tuple[int, int]] = []
    for _ in movers:
        count, number = heapq.heappop(heap)
        taken = seats_now.get(number)
        if taken is None:
            taken = seats_now[number] = set(by_number[number].seats)
        size = final_seats.get(number, by_number[number].max_seats)
        free = [s for s in range(1, size + 1) if s not in taken]
        if not free:
            raise ValueError("not enough free seats on the remaining tables")
        if rules.broken_table_entry_utg_to_button:
            pos = by_number[number].positions
            if pos is not None:
                good = [s for s in free if not is_between(s, pos.small_blind, pos.big_blind)]
                free = good or free
        seat = rng.choice(free)
        taken.add(seat)
        cards.append((number, seat))
        counts[number] = count + 1
        heapq.heappush(heap, (count + 1, number))
    rng.shuffle(cards)
    rule = rules.cite("breaking")
    moves = []
    for (player, from_table, from_seat), (to_table, to_seat) in zip(movers, cards):
        waits, hands = False, 0
        if rules.broken_table_entry_utg_to_button:
            waits, hands = _entry_wait(to_seat, by_number[to_table], seats_now[to_table], rules)
        moves.append(
            Move(
                player,
                from_table,
                from_seat,
                to_table,
                to_seat,
                rule,
                waits,
                hands,
                "table broken: new seat by random draw",
            )
        )
    if rules.broken_table_entry_utg_to_button:
        cited.append(rules.cite("broken_table_entry"))
    for number in broken:
        del counts[number]
    if capacity:
        capacity.update(final_seats)
    return BreakPlan(
        tuple(broken),
        tuple(moves),
        survivors[0].number if need.final_table else None,
        rules.final_table_seats if need.final_table else None,
        None,
        _stopped(counts, capacity, rules),
        tuple(cited),
        need.reason,
    )


@dataclass(frozen=True, slots=True)
class EntrySeat:
    """A free seat as seen by a player arriving from a broken table.

    ``direct`` -- dealt in at once (001: from UTG up to the button);
    otherwise he waits ``hands_to_wait`` hands for the button.
    """

    seat: int
    direct: bool
    hands_to_wait: int
    rule: Citation


def entry_seats(table: TableState, rules: TournamentRules) -> tuple[EntrySeat, ...]:
    """Seat constraints for one newcomer at ``table`` (001 Tischauflösung).

    For every free seat: may he enter directly, or how many hands does he sit
    out until the button reaches him.  Under a rulebook without the
    constraint (004 #10: "Auf Positionsnachteile ... kann keine Rücksicht
    genommen werden") every seat is direct.  With no hand played yet at the
    table every seat is direct.
    """
    occupied = set(table.seats)
    if not rules.broken_table_entry_utg_to_button:
        rule = rules.cite("breaking")
        return tuple(EntrySeat(s, True, 0, rule) for s in table.free_seats())
    rule = rules.cite("broken_table_entry")
    result = []
    for s in table.free_seats():
        waits, hands = _entry_wait(s, table, occupied | {s}, rules)
        result.append(EntrySeat(s, not waits, hands, rule))
    return tuple(result)


def _entry_wait(seat: int, table: TableState, occupied: set[int], rules: TournamentRules) -> tuple[bool, int]:
    """001 Tischauflösung: (waits_for_button, hands_to_wait) for a newcomer at ``seat``.

    Direct entry from under the gun up to and including the button of the
    next hand; otherwise the player skips the blinds until the button.
    """
    if table.positions is None or len(occupied) < 2:
        return False, 0
    nxt = next_positions(table.positions, occupied, rules)
    if nxt.heads_up:
        return False, 0
    if seat == nxt.button or is_between(seat, nxt.big_blind, nxt.button):
        return False, 0
    return True, hands_until_button(seat, table.positions, occupied, rules, upcoming=nxt)


def _redraw_final_table(
    tables: Sequence[TableState],
    final: TableState,
    broken: list[int],
    rules: TournamentRules,
    rng: random.Random,
    need: TablesNeeded,
) -> BreakPlan:
    """001 "Balancing": "wird aus ihnen der Finaltisch gebildet" -- all seats redrawn."""
    seats_count = rules.final_table_seats
    everyone = [(p, t.number, s) for t in tables for s, p in sorted(t.seats.items())]
    new_seats = rng.sample(range(1, seats_count + 1), len(everyone))
    rule = rules.cite("final_table")
    moves = tuple(
        Move(p, t, s, final.number, ns, rule, reason="final table formed: seats redrawn")
        for (p, t, s), ns in zip(everyone, new_seats)
    )
    button = rng.choice(new_seats) if new_seats else None
    return BreakPlan(
        tuple(broken), moves, final.number, seats_count, button, (), (rule, rules.cite("initial_button")), need.reason
    )


def apply_break_plan(tables: Sequence[TableState], plan: BreakPlan) -> list[TableState]:
    """Return the floor after ``plan``: moves made, broken tables removed.

    A redrawn final table (001) gets ``positions=None`` -- its first hand
    starts at ``plan.final_table_button``.  Raises ``ValueError`` as
    :func:`.model.apply_moves` does.
    """
    result = apply_moves(tables, plan.moves, plan.broken_tables, plan.resize)
    if plan.final_table_button is not None:
        result = [replace(t, positions=None) if t.number == plan.final_table else t for t in result]
    return result
