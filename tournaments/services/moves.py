"""Seating moves: breaking and balancing plans become pending move
instructions; moves are made between hands, confirmed by the tablets (or
the director), undone, or planned again on the director's button.

A move instruction's ``status``: ``pending`` (issued; the player still sits
at the source table, which deals no hand until he has left), ``moving``
(his seat changed between hands; he is dealt in at neither table until
the arrival is confirmed, 004 #33), ``done`` (confirmed by both tablets or
by the director), ``cancelled``.  Each confirmation is a
``move_confirmed`` event (who, when, which side)."""

from __future__ import annotations

import time

from django.db import connection
from django.db.models import CharField, Exists, OuterRef
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from poker import tournament as eng
from tables import services as table_services
from tables.models import Hand, Seat, Table
from tables.services import SeatChange
from tables.writepath import ServiceError
from tournaments.models import Entry, Instruction, Tournament, TournamentEvent, TournamentTable
from tournaments.services.delta import changed
from tournaments.services.reading import clock_of, draw_rng, engine_rules, floor_counts, floor_state
from tournaments.services.writes import (
    busted_seats_sql,
    clear_busted_seats,
    instruct,
    push_instruction,
    record_event,
    set_seats_at,
    tournament_step,
)

__all__ = [
    "IN_TRANSIT",
    "confirm_move",
    "confirmations",
    "execute_moves",
    "plan_moves",
    "rebalance",
    "undo_move",
    "undo_move_in",
]


def plan_moves(t: Tournament, rules: eng.TournamentRules, actor=None) -> None:
    """Plan breaking (001 Balancing / 004 #10, final table 001 / 004 #78) or
    else balancing (001 Balancing / 004 #11) on the floor with pending moves
    applied, and record each move as a pending instruction."""
    reg_open = clock_of(t).state(time.time()).late_registration_open and rules.late_entry != "none"
    # most busts leave nothing to break or balance: known from the tables' counts, without the seat maps
    if not any(eng.moves_due(counts, rules, reg_open) for counts in floor_counts(t)):
        return
    floor, tts = floor_state(t)
    if len(floor) <= 1:
        return
    plan = eng.plan_breaks(floor, rules, draw_rng(t), registration_open=reg_open)
    if plan.broken_tables:
        for number in plan.broken_tables:
            tt = tts[number]
            tt.broken = True
            tt.save(update_fields=["broken"])
            changed(tables=[tt.table_id])
            instruct(
                t,
                "break_table",
                f"Table {number} breaks: players take new seats by draw ({plan.rules[0]})",
                f"Tisch {number} wird aufgelöst: neue Plätze per Los ({plan.rules[0]})",
                rule=str(plan.rules[0]),
                tables={number},
                actor=actor,
            )
        if plan.final_table is not None:
            final = tts[plan.final_table]
            if plan.final_table_button is not None:
                final.first_button = plan.final_table_button
                final.positions = {}
                final.save(update_fields=["first_button", "positions"])
                changed(tables=[final.table_id])
        _move_instructions(
            t, [m for m in plan.moves if (m.from_table, m.from_seat) != (m.to_table, m.to_seat)], tts, actor
        )
        return
    balance = eng.plan_balancing(floor, rules, draw_rng(t))
    _move_instructions(t, list(balance.moves), tts, actor)


def _move_instructions(t: Tournament, moves: list[eng.Move], tts: dict[int, TournamentTable], actor) -> None:
    """Record ``moves`` as pending move instructions (one statement, the
    entries read in one query) and push each to its two tablets.  The text
    and ``rule`` cite the rule as the screens write it (``004 #11``)."""
    if not moves:
        return
    entries = Entry.objects.filter(tournament=t, pk__in=[m.player for m in moves]).select_related("player").in_bulk()
    table_ids = {n: tt.table_id for n, tt in tts.items()}
    by = actor if actor is not None and actor.is_authenticated else None
    made = []
    for m in moves:
        name = entries[m.player].player.name
        wait_en = f", sits out {m.hands_to_wait} hand(s) until the button" if m.waits_for_button else ""
        wait_de = f", setzt {m.hands_to_wait} Hand/Hände bis zum Button aus" if m.waits_for_button else ""
        made.append(
            Instruction(
                tournament=t,
                kind="move",
                status="pending",
                entry=entries[m.player],
                from_table=m.from_table,
                from_seat=m.from_seat,
                to_table=m.to_table,
                to_seat=m.to_seat,
                text_en=f"Move {name}: table {m.from_table} seat {m.from_seat} → table {m.to_table} seat {m.to_seat}"
                f"{wait_en} ({m.rule})",
                text_de=f"{name} umsetzen: Tisch {m.from_table} Platz {m.from_seat} → Tisch {m.to_table} "
                f"Platz {m.to_seat}{wait_de} ({m.rule})",
                rule=str(m.rule),
                stack=m.hands_to_wait,
                actor=by,
            )
        )
    Instruction.objects.bulk_create(made)  # each pushed below, which names it for the delta
    for i in made:
        push_instruction(t, i, table_ids=table_ids)


#: Statuses of a move whose player is on his way: not dealt in at either table (004 #33).
IN_TRANSIT = ("pending", "moving")


def confirmations(i: Instruction) -> set[str]:
    """The sides that confirmed move ``i``: ``"from"`` (the source tablet saw
    him leave), ``"to"`` (the destination tablet saw him arrive),
    ``"director"`` (the director confirmed the arrival for both)."""
    return set(
        TournamentEvent.objects.filter(
            tournament_id=i.tournament_id, kind="move_confirmed", payload__instruction=i.id
        ).values_list("payload__side", flat=True)
    )


def _arrival_confirmed(sides: set[str]) -> bool:
    """A move's arrival is confirmed by the director, or by both tablets (004 #33)."""
    return "director" in sides or {"from", "to"} <= sides


def _confirmed_ids(t: Tournament, instructions: list[Instruction]) -> set[int]:
    """The ids among ``instructions`` whose arrival is confirmed already
    (:func:`_arrival_confirmed`), in one query."""
    if not instructions:
        return set()
    sides: dict[int, set[str]] = {}
    for instruction, side in TournamentEvent.objects.filter(
        tournament=t, kind="move_confirmed", payload__instruction__in=[i.id for i in instructions]
    ).values_list("payload__instruction", "payload__side"):
        sides.setdefault(int(instruction), set()).add(side)
    return {k for k, v in sides.items() if _arrival_confirmed(v)}


def confirm_move(instruction_id: int, side: str, *, actor=None) -> Instruction:
    """A tablet (``side`` ``"from"`` or ``"to"``) or the director
    (``"director"``) confirms that the player of move ``instruction_id``
    left / arrived.  The move is ``done`` once both tablets or the director
    confirmed and his seat has changed; until then he is dealt in at
    neither table (004 #33: a player must not dodge the blinds by taking his
    time between tables -- nor be dealt in twice).  A confirmation of a move
    not yet made is kept; the director's makes the move if its source table
    is between hands.  Confirming twice changes nothing.
    Errors: ``not_found``, ``invalid`` (not a move, cancelled or done, or an unknown side)."""
    if side not in ("from", "to", "director"):
        raise ServiceError("invalid", _("unknown side %(side)s") % {"side": side})
    i = Instruction.objects.filter(pk=instruction_id, kind="move").select_related("entry__player").first()
    if i is None:
        raise ServiceError("not_found", _("no move %(instruction_id)s") % {"instruction_id": instruction_id})
    with tournament_step(i.tournament_id) as step:
        t = step.row
        i.refresh_from_db()
        if i.status not in IN_TRANSIT:
            raise ServiceError("invalid", _("this move is no longer waiting for a confirmation"))
        sides = confirmations(i)
        if side not in sides:
            sides.add(side)
            if i.status == "moving" and _arrival_confirmed(sides):
                i.status = "done"
                i.save(update_fields=["status"])
                changed(instructions=[i.id])
            name = i.entry.player.name if i.entry is not None else ""
            record_event(  # after the status: the snapshot sent with the event shows it
                step,
                "move_confirmed",
                {"instruction": i.id, "side": side, "player": name, "rule": "004 #33"},
                actor,
            )
            push_instruction(t, i)
    if i.status == "pending" and side == "director":
        execute_moves(i.tournament_id, actor=actor)
        i.refresh_from_db()
    return i


def _tables_due(tournament_id: int) -> tuple[set[int], bool]:
    """The tables :func:`execute_moves` has to lock (no lock taken here):
    those of pending moves (source and destination), those where a busted
    player still sits (:func:`writes.busted_seats`), broken tables still
    open -- and whether a busted player still sits (else his seats need not
    be read again).  Empty: nothing to do.  One statement: this runs after
    every bust, and most leave nothing to do."""
    sql = (
        # kind 0: tables of pending moves, and broken tables still open
        f"SELECT 0, tt.table_id FROM {TournamentTable._meta.db_table} tt WHERE tt.tournament_id = %(t)s AND "
        f"(tt.number IN (SELECT unnest(ARRAY[i.from_table, i.to_table]) FROM {Instruction._meta.db_table} i "
        f"WHERE i.tournament_id = %(t)s AND i.kind = 'move' AND i.status = 'pending' AND i.from_table > 0) "
        f"OR (tt.broken AND EXISTS (SELECT 1 FROM {Table._meta.db_table} tb WHERE tb.id = tt.table_id "
        f"AND tb.status = %(open)s))) "
        # kind 1: the tables of the seats busted players still hold (writes.busted_seats)
        f"UNION ALL SELECT 1, b.table_id FROM ({busted_seats_sql()}) b"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, {"t": tournament_id, "open": Table.Status.OPEN.value})
        rows = cursor.fetchall()
    return {table_id for _kind, table_id in rows}, any(kind == 1 for kind, _table_id in rows)


def execute_moves(tournament_id: int, *, actor=None) -> int:
    """Make every pending move whose source table is between hands: the
    player leaves with his stack and takes the new seat (during a hand there
    he waits for the next one).  The move is then ``moving`` until the
    tablets or the director confirm it (``done`` at once when they already
    have).  Broken tables left empty are closed.  Returns the number of
    moves made.

    Only the tables concerned are locked (:func:`_tables_due`; nothing when
    there is nothing to do); a move issued meanwhile between other tables
    is made by the call that follows its own step.  The seats of a table
    change in one step (``tables.services.set_seats``: one lock, one
    snapshot to its tablet), the busted players' first; a move into a seat
    that a later move of the same round empties is made after it."""
    due, busted_seated = _tables_due(tournament_id)
    if not due:
        return 0
    done = 0
    with tournament_step(tournament_id, with_tables=due) as step:
        t = step.row
        table_of: dict[int, int] = {}  # table number -> Table id
        broken: set[int] = set()  # Table ids
        for number, table_id, is_broken in TournamentTable.objects.filter(tournament=t).values_list(
            "number", "table_id", "broken"
        ):
            table_of[number] = table_id
            if is_broken:
                broken.add(table_id)
        confirmed_any = Exists(  # a tablet or the director confirmed it before it was made (read in this statement)
            TournamentEvent.objects.filter(tournament_id=t.id, kind="move_confirmed")
            .annotate(instruction=KeyTextTransform("instruction", "payload"))
            .filter(instruction=Cast(OuterRef("id"), output_field=CharField()))
        )
        pending: list[Instruction] = [
            i
            for i in Instruction.objects.filter(tournament=t, kind="move", status="pending")
            .exclude(from_table=0)
            .annotate(confirmed_any=confirmed_any)
            .select_related("entry__player")
            .order_by("id")
            if table_of[i.seat_move().from_table] in due and table_of[i.seat_move().to_table] in due
        ]
        involved = {table_of[n] for i in pending for n in (i.seat_move().from_table, i.seat_move().to_table)}
        live = set(Table.objects.filter(pk__in=due, current_hand__status=Hand.Status.LIVE).values_list("id", flat=True))
        if busted_seated:  # busted players leave their seats first (a mover may take the seat)
            clear_busted_seats(t)
        seats: dict[tuple[int, int], tuple[int | None, int, bool]] = {
            (table_id, number): (player_id, stack, absent)
            for table_id, number, player_id, stack, absent in Seat.objects.filter(table_id__in=involved).values_list(
                "table_id", "number", "player_id", "stack", "absent"
            )
        }
        changes: dict[int, list[SeatChange]] = {}
        made: list[Instruction] = []
        waiting = [i for i in pending if table_of[i.seat_move().from_table] not in live]
        progress = True
        while waiting and progress:  # a seat emptied by a later move is taken in the next round
            progress, later = False, []
            for i in waiting:
                m = i.seat_move()
                src, dst = table_of[m.from_table], table_of[m.to_table]
                holder = seats.get((src, m.from_seat))
                if holder is None or holder[0] != m.player_id:
                    i.status = "cancelled"
                    i.save(update_fields=["status"])
                    push_instruction(t, i, table_ids=table_of)
                    continue
                if (dst, m.to_seat) in seats and seats[(dst, m.to_seat)][0] is not None:
                    later.append(i)  # the seat is still held by a player who moves away later
                    continue
                _player, stack, absent = holder  # an absent player stays absent at his new seat
                seats[(src, m.from_seat)] = (None, 0, False)
                seats[(dst, m.to_seat)] = holder
                changes.setdefault(src, []).append(SeatChange(m.from_seat, None))
                changes.setdefault(dst, []).append(SeatChange(m.to_seat, m.player_id, stack, absent))
                made.append(i)
                progress = True
            waiting = later
        set_seats_at(changes)  # every table of the round in one step
        # confirmed_any: the annotation of the query above (django-stubs cannot see it through the list)
        confirmed = _confirmed_ids(t, [i for i in made if i.confirmed_any])  # type: ignore[attr-defined]  # no statement when none was
        waits: dict[int, list[int]] = {}
        for i in made:
            if i.stack:  # hands to wait for the button (001 Tischauflösung)
                waits.setdefault(i.stack, []).append(i.seat_move().entry.id)
            i.status = "done" if i.id in confirmed else "moving"
        for hands, entry_ids in waits.items():
            Entry.objects.filter(pk__in=entry_ids).update(wait_hands=hands)
            changed(entries=entry_ids)
        Instruction.objects.bulk_update(made, ["status"])  # each pushed below, which names it for the delta
        for i in made:
            push_instruction(t, i, table_ids=table_of)
            done += 1
        broken_open = Table.objects.filter(
            pk__in=list(broken & due),
            status=Table.Status.OPEN,
        ).exclude(pk__in=live)
        for table_id in broken_open.values_list("id", flat=True):
            if not Seat.objects.filter(table_id=table_id, player__isnull=False).exists():
                table_services.set_table_status(table_id, Table.Status.CLOSED)
                changed(tables=[table_id])
        if done:  # which moves: the audit trail names them (with the actor, or the system and its cause)
            record_event(step, "moves_made", {"moves": done, "instructions": [i.id for i in made]}, actor)
    return done


def undo_move(instruction_id: int, *, actor=None) -> Instruction:
    """Undo a move: a pending move is cancelled; a move made (``moving`` or
    ``done``) is reversed by a new pending move back to the old seat (the
    audit trail keeps both).  Errors: ``not_found``, ``invalid`` (not a
    move, undone already, or the player is no longer where the move put him
    or the old seat is taken)."""
    i = Instruction.objects.filter(pk=instruction_id).select_related("entry__player").first()
    if i is None:
        raise ServiceError("not_found", _("no instruction %(instruction_id)s") % {"instruction_id": instruction_id})
    with tournament_step(i.tournament_id) as step:
        back = undo_move_in(step, i, actor)
    execute_moves(i.tournament_id, actor=actor)
    return back


def undo_move_in(step, i: Instruction, actor, *, record: bool = True) -> Instruction:
    """:func:`undo_move` inside the caller's step (``record``: append the event)."""
    t = step.row
    i.refresh_from_db()
    if i.kind != "move" or not i.from_table or Instruction.objects.filter(undoes=i).exists():
        raise ServiceError("invalid", _("only a move is undone, once"))
    if i.status == "pending":
        i.status = "cancelled"
        i.save(update_fields=["status"])
        push_instruction(t, i)
        if record:
            record_event(step, "move_cancelled", {"instruction": i.id}, actor)
        return i
    if i.status not in ("moving", "done"):
        raise ServiceError("invalid", _("this move was cancelled"))
    m = i.seat_move()
    tts = {tt.number: tt for tt in TournamentTable.objects.filter(tournament=t)}
    if tts[m.from_table].broken:
        raise ServiceError("invalid", _("the old table has been broken"))
    if not Seat.objects.filter(table_id=tts[m.to_table].table_id, number=m.to_seat, player_id=m.player_id).exists():
        raise ServiceError("invalid", _("the player is no longer in that seat"))
    if Seat.objects.filter(table_id=tts[m.from_table].table_id, number=m.from_seat, player__isnull=False).exists():
        raise ServiceError("invalid", _("the old seat is taken"))
    if i.status == "moving":  # the reverse move replaces it: the player waits for that one
        i.status = "done"
        i.save(update_fields=["status"])
        push_instruction(t, i)
    name = m.entry.player.name
    back = instruct(
        t,
        "move",
        f"Undo: move {name} back: table {m.to_table} seat {m.to_seat} → table {m.from_table} seat {m.from_seat}",
        f"Rückgängig: {name} zurück: Tisch {m.to_table} Platz {m.to_seat} → Tisch {m.from_table} Platz {m.from_seat}",
        entry=m.entry,
        move=(m.to_table, m.to_seat, m.from_table, m.from_seat),
        status="pending",
        rule=i.rule,
        undoes=i,
        actor=actor,
    )
    if record:
        record_event(step, "move_undone", {"instruction": i.id, "reverse": back.id}, actor)
    return back


def rebalance(tournament_id: int, *, actor=None) -> int:
    """Plan breaking/balancing now (the director's button) and make the
    moves that can be made.  Returns the moves made."""
    with tournament_step(tournament_id) as step:
        t = step.row
        plan_moves(t, engine_rules(t), actor)
        record_event(step, "rebalance", {}, actor)
    return execute_moves(tournament_id, actor=actor)
