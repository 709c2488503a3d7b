"""Button and blinds from hand to hand: dead button (001) vs no dead button (004).

Pure Python.  Seats are ints ``1..max_seats`` numbered clockwise; "next"
always means the next seat clockwise, wrapping from the highest seat to the
lowest.

Two modes, chosen by ``TournamentRules.button_mode``:

``"dead_button"`` -- TDA 32 and 001 "Dealerbutton".  The big blind moves one
player forward every hand, so nobody skips or repeats the big blind.  The
small blind is the previous big blind's seat; when that player has busted
there is no small blind.  The button goes to the previous small blind's seat
("bekommt ihn jeweils der Spieler, der in der letzten Runde den Small-Blind
leisten musste"); when that seat is empty the button is *dead*.

001 6.10 (house profile ``button_rule == "button_stays_no_small_blind"``) is
the specific rule for a busted big blind and wins over the general
"Dealerbutton" paragraph under the Wynental profile: "dass der Button nicht
weitergeht und zweimal an derselben Position bleibt (wenn der Big Blind
ausscheidet). In der folgenden Spielrunde gibt es ausnahmsweise keinen Small
Blind."  So when last hand's big blind has busted, the button stays on the
same seat, the player who posted the small blind is excused from it this hand
(``small_blind`` names his seat, ``dead_small_blind`` is true) and the next
player after the busted big blind posts the big blind.  The hand after that
goes on as usual: the button to that excused player, the small blind to the
last big blind.

``"moving_button"`` -- 004 #32: "In Turnieren kann es keinen sogenannten
toten Button geben".  The button moves to the next occupied seat, the small
blind and the big blind to the next two occupied seats after it.

Heads-up (two occupied seats), both modes -- 001 "Heads up", 003 "Heads-Up",
004 #34: the button posts the small blind, the other player the big blind.
The big blind goes to the player who did not post it in the previous hand,
so nobody posts the big blind twice in a row, "auch wenn der vorherige
Small-Blind jetzt zum Button würde" (004 #34).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .rules import Citation, TournamentRules, UnsupportedByRulebook


@dataclass(frozen=True, slots=True)
class Positions:
    """Button, small blind and big blind seats of one hand.

    * ``button`` -- seat of the button disc; an empty seat when
      ``dead_button`` is true.
    * ``small_blind`` -- seat of the small blind position; no small blind is
      posted when ``dead_small_blind`` is true (an empty seat, or under 001
      6.10 the seat of the player excused from it).  Heads-up it equals
      ``button``.
    * ``big_blind`` -- seat that posts the big blind (always occupied).
    * ``last_to_act`` -- occupied seat that acts last after the flop (the
      button, or the first occupied seat before a dead button).
    * ``rules`` -- citations of the rules applied, first the main one.
    """

    button: int
    small_blind: int
    big_blind: int
    dead_button: bool = False
    dead_small_blind: bool = False
    heads_up: bool = False
    last_to_act: int | None = None
    rules: tuple[Citation, ...] = ()

    @property
    def rule(self) -> Citation | None:
        """The main citation (first of ``rules``), or ``None``."""
        return self.rules[0] if self.rules else None


def _sorted_seats(occupied: Iterable[int]) -> list[int]:
    seats = sorted(set(occupied))
    return seats


def next_seat(seat: int, seats: Sequence[int]) -> int:
    """Next seat of the sorted ``seats`` strictly clockwise after ``seat``.

    ``seat`` itself need not be in ``seats``.  Raises ``ValueError`` when
    ``seats`` is empty.
    """
    if not seats:
        raise ValueError("no occupied seat")
    i = bisect_right(seats, seat)
    return seats[i] if i < len(seats) else seats[0]


def previous_seat(seat: int, seats: Sequence[int]) -> int:
    """Previous seat of the sorted ``seats`` strictly counter-clockwise of ``seat``."""
    if not seats:
        raise ValueError("no occupied seat")
    i = bisect_right(seats, seat - 1)  # first index with value >= seat
    return seats[i - 1] if i > 0 else seats[-1]


def is_between(seat: int, start: int, end: int) -> bool:
    """True when ``seat`` lies strictly clockwise after ``start`` and before ``end``.

    With ``start == end`` every other seat is between.
    """
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def draw_button(
    occupied: Iterable[int], rules: TournamentRules, rng: random.Random | None = None
) -> tuple[int, Citation]:
    """Seat of the first button at a table and the rule applied.

    * Wynental (001 "Dealerbutton"): drawn at random among the occupied
      seats ("mittels Platzkarte bestimmt"); ``rng`` is required.
    * MunotPoker (004 #75): seat 1, never drawn.  If seat 1 is empty (the
      seat draw of this package never leaves it empty under 004) the button
      goes to the next occupied seat, as 004 #32 allows no dead button.

    Raises ``ValueError`` when no seat is occupied or a needed ``rng`` is missing.
    """
    seats = _sorted_seats(occupied)
    if not seats:
        raise ValueError("no occupied seat")
    if rules.initial_button == "draw":
        if rng is None:
            raise ValueError("the button draw needs an rng")
        return rng.choice(seats), rules.cite("initial_button")
    seat = 1 if 1 in seats else next_seat(1, seats)
    return seat, rules.cite("initial_button")


def first_hand_positions(button: int, occupied: Iterable[int], rules: TournamentRules) -> Positions:
    """Positions of the first hand at a table, given the button seat.

    ``occupied`` must hold at least two seats including ``button``.  Raises
    ``ValueError`` otherwise.
    """
    seats = _sorted_seats(occupied)
    if len(seats) < 2:
        raise ValueError("a hand needs at least two players")
    if button not in seats:
        raise ValueError(f"button seat {button} is empty")
    if len(seats) == 2:
        other = next_seat(button, seats)
        return Positions(
            button,
            button,
            other,
            heads_up=True,
            last_to_act=button,
            rules=(rules.cite("initial_button"), rules.cite("heads_up")),
        )
    sb = next_seat(button, seats)
    bb = next_seat(sb, seats)
    return Positions(button, sb, bb, last_to_act=button, rules=(rules.cite("initial_button"),))


def _check_heads_up(rules: TournamentRules) -> None:
    """Heads-up, the small blind has the button and nobody posts the big blind twice in a
    row (house profile ``heads_up_button``, ``heads_up_no_double_big_blind``: 001 Heads up,
    004 #34, TDA 34); the only reading implemented, so a profile asking otherwise raises
    ``UnsupportedByRulebook``."""
    house = rules.house
    if house.heads_up_button != "small_blind_on_button" or not house.heads_up_no_double_big_blind:
        raise UnsupportedByRulebook(f"heads-up button rule of {house.slug!r} is not implemented")


def _button_stays(rules: TournamentRules) -> bool:
    """Whether the house profile keeps the button in place when the big blind busts
    (``button_rule == "button_stays_no_small_blind"``, 001 6.10)."""
    return rules.house.button_rule == "button_stays_no_small_blind"


def next_positions(previous: Positions, occupied: Iterable[int], rules: TournamentRules) -> Positions:
    """Positions of the next hand from the previous hand's and the occupied seats.

    ``previous`` -- positions of the last hand played at this table;
    ``occupied`` -- seats with a player for the next hand (busted players
    removed, new arrivals added).  Returns :class:`Positions` naming the rule
    applied (001 "Dealerbutton", 001 6.10 when the big blind busted, or 004 #32;
    heads-up 001 "Heads up" / 004 #34).  Raises ``ValueError`` with fewer than two occupied seats.
    """
    occupied_set = set(occupied)
    seats = sorted(occupied_set)
    if len(seats) < 2:
        raise ValueError("a hand needs at least two players")
    if len(seats) == 2:
        _check_heads_up(rules)
        bb = next_seat(previous.big_blind, seats)
        button = next_seat(bb, seats)
        return Positions(button, button, bb, heads_up=True, last_to_act=button, rules=(rules.cite("heads_up"),))
    if rules.button_mode == "dead_button" and _button_stays(rules) and previous.big_blind not in occupied_set:
        # 001 6.10: the big blind busted -- the button stays, no small blind this hand.
        button, sb = previous.button, previous.small_blind
        bb = next_seat(previous.big_blind, seats)
        if len({button, sb, bb}) == 3 and not is_between(bb, button, sb):
            dead_button = button not in occupied_set
            return Positions(
                button,
                sb,
                bb,
                dead_button=dead_button,
                dead_small_blind=True,
                last_to_act=button if not dead_button else previous_seat(button, seats),
                rules=(rules.cite("dead_button"),),
            )
    if rules.button_mode == "dead_button":
        bb = next_seat(previous.big_blind, seats)
        sb = previous.big_blind
        button = previous.small_blind
        if bb != sb and bb != button and sb != button and not is_between(bb, button, sb):
            dead_button = button not in occupied_set
            dead_sb = sb not in occupied_set
            if dead_button or dead_sb:
                last = button if not dead_button else previous_seat(button, seats)
                return Positions(
                    button,
                    sb,
                    bb,
                    dead_button=dead_button,
                    dead_small_blind=dead_sb,
                    last_to_act=last,
                    rules=(rules.cite("button"), rules.cite("dead_button")),
                )
            return Positions(button, sb, bb, last_to_act=button, rules=(rules.cite("button"),))
        # Degenerate history (e.g. a player seated inside the blinds while
        # the table shrank): fall through to a plain forward move.
    button = next_seat(previous.button, seats)
    sb = next_seat(button, seats)
    bb = next_seat(sb, seats)
    return Positions(button, sb, bb, last_to_act=button, rules=(rules.cite("button"),))


def hands_until_button(
    seat: int,
    previous: Positions,
    occupied: Iterable[int],
    rules: TournamentRules,
    limit: int = 32,
    upcoming: Positions | None = None,
) -> int:
    """How many hands are played before ``seat`` has the button.

    0 means ``seat`` has the button in the next hand.  ``seat`` must be in
    ``occupied``; the occupancy is assumed unchanged.  ``upcoming`` -- the
    next hand's positions if already computed.  Returns ``limit`` when the
    button does not reach the seat within ``limit`` hands.
    """
    seats = _sorted_seats(occupied)
    if upcoming is not None:
        if upcoming.button == seat:
            return 0
        pos, start = upcoming, 1
    else:
        pos, start = previous, 0
    for hands in range(start, limit):
        pos = next_positions(pos, seats, rules)
        if pos.button == seat:
            return hands
    return limit
