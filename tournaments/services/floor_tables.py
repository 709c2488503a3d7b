"""The tournament's tables on the floor: the director opens a table for late
entries (issue 23 #4), assigns a dealer login to a tournament table as to a
cash table (#7), and a table's displayed stakes follow the level in play
(#8).

Rules applied:

* 004 #8 / #7: a late entry draws a free seat at random, full stack; 004
  #73: the waitlist is worked off in its order as places open.
* Balancing of the opened table: 004 #11 (from a difference of two the
  player due for the big blind moves to the worst position) or 001
  Balancing ("Freie Sitzplätze werden gleichmässig und fair aufgefüllt",
  tables within one player).
* First button of the opened table: 004 #75 (seat 1); 001 "Dealerbutton"
  (drawn at the first hand among the players there).
* Stakes: a new level applies from the next hand (001 Neues Limit, 004 #23);
  big blind ante (004 #81).
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from poker import tournament as eng
from poker.tournament.clock import level_for_hand
from tables import services as table_services
from tables.access import DEALER, roles_of
from tables.models import Table
from tables.writepath import ServiceError, WriteStep
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.services.delta import changed
from tournaments.services.moves import execute_moves, plan_moves
from tournaments.services.reading import clock_of, engine_rules, parse_structure
from tournaments.services.waitlist import fill_waitlist_locked
from tournaments.services.writes import clear_busted_seats, record_event, tournament_step

__all__ = ["add_table", "assign_dealer", "current_level", "follow_level", "stakes_of", "open_table_for_waitlist"]


def stakes_of(level: eng.Level) -> dict[str, int]:
    """The ``tables.Table`` stake fields for ``level`` (chips, ints):
    ``{"small_blind", "big_blind", "ante", "big_blind_ante"}`` -- a big blind
    ante (004 #81) in ``big_blind_ante``, an ante every player posts in
    ``ante``."""
    return {
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante if level.ante_kind == "ante" else 0,
        "big_blind_ante": level.ante if level.ante_kind == "big_blind_ante" else 0,
    }


def current_level(t: Tournament, now: float | None = None) -> eng.Level:
    """The level the next hand plays (001 Neues Limit, 004 #23: a hand
    started on a break plays the next level): the clock's, or the first
    level before the clock starts or after the last one."""
    rules = engine_rules(t)
    if t.clock_started_at is not None:
        try:
            return level_for_hand(clock_of(t), time.time() if now is None else now, rules).level
        except eng.ClockError:
            pass
    structure = parse_structure(t.structure)
    return next(p for p in structure.periods if isinstance(p, eng.Level))


def follow_level(table: Table, level: eng.Level) -> bool:
    """Make ``table``'s displayed stakes (tablet header, floor tile) those of
    ``level`` (:func:`stakes_of`), in the row and on ``table``.  The caller
    holds the table (a hand starting there broadcasts the snapshot).
    Returns whether anything changed."""
    stakes = stakes_of(level)
    if all(getattr(table, k) == v for k, v in stakes.items()):
        return False
    Table.objects.filter(pk=table.pk).update(**stakes)
    for k, v in stakes.items():
        setattr(table, k, v)
    return True


def _open_table(t: Tournament, rules: eng.TournamentRules, number: int | None, seats: int | None) -> TournamentTable:
    """Create table ``number`` (None: the next number never used in the
    tournament) with ``seats`` seats (None: the tournament's), the stakes of
    the level in play and its first button (004 #75 seat 1; 001: drawn at
    its first hand).  Errors: ``invalid`` in the director's words."""
    used = set(TournamentTable.objects.filter(tournament=t).values_list("number", flat=True))
    if number is None:
        number = max(used, default=0) + 1
    if number < 1:
        raise ServiceError("invalid", _("Table number: enter a number from 1."))
    if number in used:
        raise ServiceError("invalid", _("Table %(n)s exists already in this tournament.") % {"n": number})
    seats = seats or t.max_seats
    if not 2 <= seats <= t.max_seats:
        raise ServiceError(
            "invalid", _("Seats: a table of this tournament seats 2 to %(n)s players.") % {"n": t.max_seats}
        )
    table = table_services.create_table(
        f"{t.name[:40]} #{t.id} T{number}",
        **stakes_of(current_level(t)),
        max_seats=seats,
        rules_profile=t.rulebook,
    )
    first_button = 1 if rules.initial_button == "seat_one" else None
    tt = TournamentTable.objects.create(tournament=t, table=table, number=number, first_button=first_button)
    changed(tables=[table.id])
    return tt


def _seat_and_balance(t: Tournament, rules: eng.TournamentRules, actor) -> list[dict]:
    """Seat the waiting entries (004 #73 order; 004 #8 seat draw: the new
    table is the shortest) and plan the moves that balance the new table
    (004 #11 / 001 Balancing).  Returns the seated rows of
    :func:`~tournaments.services.waitlist.fill_waitlist_locked`."""
    clear_busted_seats(t)
    seated = fill_waitlist_locked(t, rules, manual=True)
    plan_moves(t, rules, actor)
    return seated


def add_table(tournament_id: int, *, number: int | None = None, seats: int | None = None, actor=None) -> dict[str, Any]:
    """The director opens a table in a running tournament: ``number`` (None:
    the next free number), ``seats`` (None: the tournament's seats per
    table; 2 to that).  Players waiting for a seat take it (004 #73 order,
    seat drawn at random, full stack, 004 #8), then the floor is balanced as
    the rulebook says (004 #11: the player due for the big blind moves to
    the worst position; 001 Balancing: within one player).  Returns the
    ``table_added`` event's payload (``table``, ``seats``, ``seated``,
    ``rule``, ``seq``).  Errors: ``not_found``, ``not_started``, ``invalid``
    (number in use, bad size)."""
    with tournament_step(tournament_id) as step:
        t = step.row
        if t.status != Tournament.Status.RUNNING:
            raise ServiceError("not_started", _("Tables are added while the tournament runs."))
        rules = engine_rules(t)
        tt = _open_table(t, rules, number, seats)
        seated = _seat_and_balance(t, rules, actor)
        payload = {
            "table": tt.number,
            "seats": tt.table.max_seats,
            "seated": seated,
            "rule": str(rules.cite("balancing")),
        }
        payload["seq"] = record_event(step, "table_added", payload, actor)
    execute_moves(tournament_id, actor=actor)
    return payload


def open_table_for_waitlist(step: WriteStep[Tournament], rules: eng.TournamentRules, actor) -> list[dict]:
    """Inside ``step`` (the director's "Seat the waitlist"): players still wait, no seat is free, late registration
    is open and the field has room (``capacity``): open the next table
    (:func:`add_table`'s rules) and seat them.  Returns the seated rows (empty
    when no table was opened)."""
    t = step.row
    waiting = Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED).exists()
    if not waiting or rules.late_entry == "none" or not clock_of(t).state(time.time()).late_registration_open:
        return []
    if t.capacity and Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() >= t.capacity:
        return []
    tt = _open_table(t, rules, None, None)
    seated = _seat_and_balance(t, rules, actor)
    record_event(
        step,
        "table_added",
        {"table": tt.number, "seats": tt.table.max_seats, "seated": seated, "rule": str(rules.cite("balancing"))},
        actor,
    )
    return seated


def assign_dealer(tournament_id: int, table_number: int, username: str, *, actor=None) -> dict[str, Any]:
    """The floor assigns the dealer login ``username`` (a user of the
    ``dealer`` group; empty: nobody) to the tournament's table
    ``table_number``, as to a cash table: that dealer deals there with his
    own login (``tables.access.can_deal``).  Returns the ``dealer`` event's
    payload (``table``, ``dealer``, ``seq``).  Errors: ``not_found`` (no such
    table or user), ``invalid`` (not a dealer)."""
    username = (username or "").strip()
    dealer = None
    if username:
        dealer = get_user_model().objects.filter(username=username, is_active=True).first()
        if dealer is None:
            raise ServiceError("not_found", _("No user “%(username)s”.") % {"username": username})
        if DEALER not in roles_of(dealer):
            raise ServiceError("invalid", _("%(username)s is not a dealer.") % {"username": username})
    with tournament_step(tournament_id) as step:
        t = step.row
        tt = TournamentTable.objects.filter(tournament=t, number=table_number, broken=False).first()
        if tt is None:
            raise ServiceError("not_found", _("no table %(table)s") % {"table": table_number})
        table = table_services.lock_table(tt.table_id)
        table.dealer = dealer
        table_services.commit_table_change(table, ("dealer",))
        payload = {"table": tt.number, "dealer": dealer.username if dealer else None}
        payload["seq"] = record_event(step, "dealer", payload, actor)
    return payload
