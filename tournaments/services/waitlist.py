"""Late entries and the waitlist: places free, places kept for an immediate
re-entry (004 #72), the order of the list (004 #73) and the seat draw of a
late entrant (004 #8)."""

from __future__ import annotations

import time

from django.db.models import Count, F, Max
from django.utils.translation import gettext as _

from poker import tournament as eng
from poker.tournament.buttons import hands_until_button
from tables.writepath import ServiceError, WriteStep
from tournaments.models import Entry, Finish, Instruction, Tournament
from tournaments.services.delta import changed
from tournaments.services.reading import clock_of, draw_rng, engine_rules, floor_state
from tournaments.services.writes import clear_busted_seats, instruct, record_event, take_seat, tournament_step

__all__ = [
    "fill_waitlist",
    "fill_waitlist_locked",
    "late_entry",
    "promote_waitlist",
    "re_entry_holds",
    "seat_waitlist",
]


def late_entry(step: WriteStep[Tournament], entry: Entry, actor) -> None:
    """A late registration, re-entry or surrender's new entry (created
    waitlisted) in the step's tournament: allowed only while the clock's late registration is open
    and the rulebook has it; the waitlist is then worked off in its order
    (priority re-entries first, 004 #72; then by time, 004 #73), so the new
    entry is seated at once only when a place is free for it."""
    t = step.row
    if t.status != Tournament.Status.RUNNING:
        raise ServiceError("closed", _("the tournament is not running"))
    rules = engine_rules(t)
    if rules.late_entry == "none":
        raise ServiceError("not_allowed", _("001 Re-buy/Add-on: no late registration or re-entry in this rulebook"))
    if not clock_of(t).state(time.time()).late_registration_open:
        raise ServiceError("closed", _("late registration is closed"))
    clear_busted_seats(t)  # a re-entering player leaves his old seat first
    seated = {s["entry"]: s for s in fill_waitlist_locked(t, rules, fresh=entry.id)}
    record_event(
        step,
        "late_entry",
        {"entry": entry.id, "player": entry.player.name, "priority": entry.priority, "seated": seated.get(entry.id)},
        actor,
    )


def re_entry_holds(t: Tournament) -> set[int]:
    """Busted entries whose player may still re-enter *at once* (004 #72):
    no hand has been dealt since at the table where he busted (that table
    still shows his last hand and is not broken), he has a re-entry left and
    has not re-entered, and late registration is open.  A place is kept for
    each of them: the waitlist does not take it (two queries)."""
    if t.rulebook != "munotpoker" or not t.re_entries_allowed or t.status != Tournament.Status.RUNNING:
        return set()
    if not clock_of(t).state(time.time()).late_registration_open:
        return set()
    rows = list(
        Finish.objects.filter(
            tournament=t,
            entry__status=Entry.Status.BUSTED,
            hand__isnull=False,
            hand__table__current_hand=F("hand"),
            hand__table__tournament_table__broken=False,
        ).values_list("entry_id", "entry__player_id", "entry__number")
    )
    if not rows:
        return set()
    counts = {
        p: (n, top)
        for p, n, top in Entry.objects.filter(tournament=t, player_id__in=[r[1] for r in rows])
        .values("player_id")
        .annotate(n=Count("id"), top=Max("number"))
        .values_list("player_id", "n", "top")
    }
    return {
        entry_id
        for entry_id, player_id, number in rows
        if counts[player_id][1] == number and counts[player_id][0] - 1 < t.re_entries_allowed
    }


def _places_free(t: Tournament, floor: list[eng.TableState]) -> int:
    """Places a waiting player could take now: free seats on the floor
    (pending moves applied), within the tournament's ``capacity``."""
    free = sum(ts.max_seats - len(ts.seats) for ts in floor)
    if t.capacity:
        free = min(free, t.capacity - Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count())
    return max(free, 0)


def fill_waitlist_locked(
    t: Tournament, rules: eng.TournamentRules, *, manual: bool = False, fresh: int | None = None
) -> list[dict]:
    """Seat waiting entries while places are free (inside the caller's lock).

    Order: priority re-entries made at once (004 #72), then by time of
    registration (004 #73); the first who cannot be seated stops the line.
    Places kept for busted players who may still re-enter at once
    (:func:`re_entry_holds`) are not given to the others unless
    ``manual`` (the director's button).  Each seat is drawn at random
    among the free seats of the shortest tables (004 #8 with #7; between the
    small blind and the button he waits for the button), and the
    instruction goes to that table's tablet (``fresh``: the entry just
    registered, whose instruction says "late entry" rather than "from the
    waitlist").  Returns ``{"entry", "table", "seat", "waits", "rule"}`` for
    each seated entry.
    """
    waiting = list(
        Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED)
        .select_related("player")
        .order_by("-priority", "created_at", "id")
    )
    if not waiting or rules.late_entry == "none":
        return []
    floor, _unused = floor_state(t)
    free = _places_free(t, floor)
    held = 0 if manual else len(re_entry_holds(t))
    seated = []
    for entry in waiting:
        if free - (0 if entry.priority else held) <= 0:
            break
        where = _seat_late(t, entry, rules, waitlist=entry.id != fresh)
        if where is None:
            break
        free -= 1
        seated.append({"entry": entry.id, **where})
    return seated


def _seat_late(t: Tournament, entry: Entry, rules: eng.TournamentRules, *, waitlist: bool = False) -> dict | None:
    """Draw a seat for a late entry (004 #8: as in #7, full stack; he waits
    for the button between the small blind and the button), seat him and
    instruct the table.  Returns ``{"table", "seat", "waits", "rule"}`` or
    None when no place is free."""
    floor, tts = floor_state(t)
    if t.capacity and Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() >= t.capacity:
        return None
    # a seat a player is still to leave by a pending move is not free yet
    leaving: dict[int, dict[int, str]] = {}
    for number, seat in Instruction.objects.filter(
        tournament=t, kind="move", status="pending", from_table__gt=0, from_seat__isnull=False
    ).values_list("from_table", "from_seat"):
        if number is not None and seat is not None:  # a move names both (the filter says so)
            leaving.setdefault(number, {})[seat] = f"leaving {number}/{seat}"
    floor = [
        eng.TableState(
            ts.number, {**leaving.get(ts.number, {}), **ts.seats}, ts.max_seats, ts.positions, ts.first_button
        )
        if ts.number in leaving
        else ts
        for ts in floor
    ]
    try:
        late = eng.seat_late_entrant(entry.id, floor, rules, draw_rng(t))
    except ValueError:
        return None
    tt = tts[late.table]
    wait = 0
    table_state = next(ts for ts in floor if ts.number == late.table)
    if late.waits_for_button and table_state.positions is not None:
        wait = hands_until_button(late.seat, table_state.positions, [*table_state.seats, late.seat], rules)
    take_seat(t, tt.table_id, late.seat, entry.player_id, t.starting_stack)
    entry.status = Entry.Status.SEATED
    entry.wait_hands = wait
    entry.save(update_fields=["status", "wait_hands"])
    changed(entries=[entry.id])
    if waitlist:
        how_en, how_de = "from the waitlist", "von der Warteliste"
    elif entry.number > 1:
        how_en, how_de = "re-entry", "Re-Entry"
    else:
        how_en, how_de = "late entry", "Späteinstieg"
    rule = f"{rules.cite('waitlist')}, {late.rule}" if waitlist else str(late.rule)
    text = (
        f"{entry.player.name}: {how_en}, table {late.table} seat {late.seat}"
        + (", waits for the button" if wait else "")
        + f" ({rule})"
    )
    text_de = (
        f"{entry.player.name}: {how_de}, Tisch {late.table} Platz {late.seat}"
        + (", wartet auf den Button" if wait else "")
        + f" ({rule})"
    )
    instruct(
        t, "move", text, text_de, entry=entry, move=(0, 0, late.table, late.seat), rule=rule, stack=t.starting_stack
    )
    return {"table": late.table, "seat": late.seat, "waits": bool(wait), "rule": rule}


def seat_waitlist(tournament_id: int, *, actor=None) -> list[int]:
    """The director's button (a manual fallback: the waitlist is also worked
    off by itself whenever a place opens, :func:`fill_waitlist`): seat
    waitlisted entries while seats are free, priority re-entries first (004
    #72), then in order of registration (004 #73); places kept for an
    immediate re-entry are given away too.  When players still wait with
    every seat taken, late registration open and room in the field, a new
    table is opened for them and balanced as the rulebook says
    (:func:`~tournaments.services.floor_tables.open_table_for_waitlist`:
    004 #8, #11; 001 Balancing).  Returns the seated entry ids.
    Errors: ``not_found``."""
    from tournaments.services.floor_tables import open_table_for_waitlist
    from tournaments.services.moves import execute_moves

    with tournament_step(tournament_id) as step:
        t = step.row
        clear_busted_seats(t)
        rules = engine_rules(t)
        seated = [s["entry"] for s in fill_waitlist_locked(t, rules, manual=True)]
        opened = [s["entry"] for s in open_table_for_waitlist(step, rules, actor)]
        record_event(step, "waitlist_seated", {"entries": seated + opened, "manual": True}, actor)
    if opened:
        execute_moves(tournament_id, actor=actor)
    return seated + opened


def fill_waitlist(tournament_id: int, *, actor=None) -> list[int]:
    """A place may have opened (a bust, a surrender, a hand dealt after a
    bust ends the re-entry priority): seat the first players of the waitlist
    in its order (004 #73, re-entries made at once first, 004 #72; see
    :func:`fill_waitlist_locked`).  Records an event only when somebody was
    seated.  Returns the seated entry ids.  Errors: ``not_found``."""
    with tournament_step(tournament_id) as step:
        t = step.row
        if t.status != Tournament.Status.RUNNING:
            return []
        clear_busted_seats(t)
        seated = fill_waitlist_locked(t, engine_rules(t))
        if seated:
            record_event(step, "waitlist_seated", {"entries": [s["entry"] for s in seated], "seats": seated}, actor)
    return [s["entry"] for s in seated]


def promote_waitlist(t: Tournament) -> list[int]:
    """At the start (004 #73): places released by lapsed reservations go to
    the waitlist in its order (``capacity``); those entries become
    registered and draw a seat.  Returns their ids."""
    waiting = list(Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED).order_by("created_at", "id"))
    if not waiting:
        return []
    if t.capacity:
        room = t.capacity - Entry.objects.filter(tournament=t, status=Entry.Status.REGISTERED).count()
        waiting = waiting[: max(room, 0)]
    ids = [e.id for e in waiting]
    Entry.objects.filter(pk__in=ids).update(status=Entry.Status.REGISTERED)
    changed(entries=ids)
    return ids
