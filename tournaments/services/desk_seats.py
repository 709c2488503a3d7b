"""The desk's seat changes: move a player by hand (:func:`desk_move`), seat
a waiting player by hand (:func:`desk_seat`), break a table by hand
(:func:`desk_break`), and the hand-for-hand hand of a table without a
tablet (:func:`desk_hand_played`).  Each is one audited write step as in
:mod:`.desk`."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django.utils.translation import gettext as _

from poker import tournament as eng
from poker.tournament.buttons import hands_until_button, is_between
from tables.writepath import ServiceError
from tournaments.models import Entry, Instruction, TournamentTable
from tournaments.services.busts import step_hand_for_hand
from tournaments.services.delta import changed
from tournaments.services.desk_base import (
    H4H_FIELDS,
    chips_de,
    chips_en,
    cite_rule,
    count_h4h_hand,
    live_seats,
    require_free_seat,
    require_running,
)
from tournaments.services.moves import execute_moves
from tournaments.services.reading import draw_rng, engine_rules, floor_state
from tournaments.services.writes import clear_busted_seats, instruct, record_event, seat_of, take_seat, tournament_step

__all__ = ["desk_break", "desk_hand_played", "desk_move", "desk_seat", "waiting_for_seat"]


def desk_move(
    tournament_id: int, entry_id: int, to_table: int, to_seat: int, *, note: str = "", actor=None
) -> dict[str, Any]:
    """Move a seated player by hand to a free seat (a wrong seat put right,
    004 #7; a special need, 004 #9; or the director's call).  The move is an
    instruction like a balancing move: made between the source table's
    hands, confirmed by both tablets or the director, the player dealt in
    at neither table meanwhile (004 #33).  Returns the event payload
    (``instruction``, ``seq``).  Errors: ``not_found``, ``invalid`` (not
    seated, already moving, no such table or seat, seat taken),
    ``not_started``."""
    with tournament_step(tournament_id) as step:
        t = step.row
        require_running(t)
        entry = Entry.objects.filter(pk=entry_id, tournament=t).select_related("player").first()
        if entry is None:
            raise ServiceError("not_found", _("no entry %(entry_id)s") % {"entry_id": entry_id})
        where = seat_of(t, entry.player_id) if entry.status == Entry.Status.SEATED else None
        if where is None:
            raise ServiceError("invalid", _("%(player)s is not seated") % {"player": entry.player.name})
        if Instruction.objects.filter(tournament=t, kind="move", entry=entry, status__in=("pending", "moving")):
            raise ServiceError("invalid", _("%(player)s is already changing seats") % {"player": entry.player.name})
        src, from_seat = where
        dst = TournamentTable.objects.filter(tournament=t, number=to_table).select_related("table").first()
        if dst is None:
            raise ServiceError("not_found", _("no table %(table)s") % {"table": to_table})
        require_free_seat(t, dst, to_seat)
        name = entry.player.name
        i = instruct(
            t,
            "move",
            f"Move {name}: table {src.number} seat {from_seat} → table {to_table} seat {to_seat} (director)",
            f"{name} umsetzen: Tisch {src.number} Platz {from_seat} → Tisch {to_table} Platz {to_seat} (Turnierleitung)",
            entry=entry,
            move=(src.number, from_seat, to_table, to_seat),
            status="pending",
            actor=actor,
        )
        payload = {
            "instruction": i.id,
            "entry": entry.id,
            "player": name,
            "rule": "",
            "text_en": i.text_en,
            "text_de": i.text_de,
            "note": note,
        }
        payload["seq"] = record_event(step, "desk_move", payload, actor)
    execute_moves(tournament_id, actor=actor)
    return payload


def waiting_for_seat(tournament_id: int, entry_id: int) -> bool:
    """Whether entry ``entry_id`` of the tournament waits for a seat (waitlisted or registered, not seated)."""
    return Entry.objects.filter(
        pk=entry_id, tournament_id=tournament_id, status__in=(Entry.Status.WAITLISTED, Entry.Status.REGISTERED)
    ).exists()


def desk_seat(
    tournament_id: int, entry_id: int, to_table: int, to_seat: int, *, note: str = "", actor=None
) -> dict[str, Any]:
    """Seat a player who is not seated yet (a waitlisted late registration
    or re-entry) by hand at a free seat, with a full starting stack (004 #8:
    "mit vollem Stack"; 004 #73: the director may take him out of the
    waitlist's order -- the note says why).  A seat between the button and
    the small blind of the table's next hand waits for the button (004 #8:
    "erhält sofort Karten ausser er steigt zwischen Small Blind und Button
    ein").  The seat must be free and not held for a pending move.

    Returns the event payload (``entry``, ``table``, ``seat``, ``waits``
    (hands), ``rule``, ``seq``).  Errors: ``not_found``, ``invalid`` (the
    player is seated, busted or gone; no such table or seat; seat taken; the
    field is full), ``not_started``."""
    with tournament_step(tournament_id) as step:
        t = step.row
        require_running(t)
        entry = Entry.objects.filter(pk=entry_id, tournament=t).select_related("player").first()
        if entry is None:
            raise ServiceError("not_found", _("no entry %(entry_id)s") % {"entry_id": entry_id})
        if entry.status not in (Entry.Status.WAITLISTED, Entry.Status.REGISTERED):
            raise ServiceError(
                "invalid",
                _("%(player)s is not waiting for a seat: move a seated player instead") % {"player": entry.player.name},
            )
        if t.capacity and Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() >= t.capacity:
            raise ServiceError("invalid", _("the field is full (%(n)s players)") % {"n": t.capacity})
        dst = TournamentTable.objects.filter(tournament=t, number=to_table).select_related("table").first()
        if dst is None:
            raise ServiceError("not_found", _("no table %(table)s") % {"table": to_table})
        clear_busted_seats(t)
        require_free_seat(t, dst, to_seat)
        rules = engine_rules(t)
        wait = 0
        state = next((ts for ts in floor_state(t)[0] if ts.number == to_table), None)
        if state is not None and state.positions is not None and state.player_count >= 2:
            nxt = eng.next_positions(state.positions, state.seats.keys(), rules)
            if nxt.button != nxt.small_blind and is_between(to_seat, nxt.button, nxt.small_blind):
                wait = hands_until_button(to_seat, state.positions, [*state.seats, to_seat], rules)
        take_seat(t, dst.table_id, to_seat, entry.player_id, t.starting_stack)
        entry.status = Entry.Status.SEATED
        entry.wait_hands = wait
        entry.save(update_fields=["status", "wait_hands"])
        changed(entries=[entry.id])
        name = entry.player.name
        rule = "004 #8" if t.rulebook == "munotpoker" else ""
        wait_en = ", waits for the button" if wait else ""
        wait_de = ", wartet auf den Button" if wait else ""
        text_en = f"{name} seated by hand: table {to_table} seat {to_seat}, {chips_en(t.starting_stack)} chips{wait_en}{cite_rule(rule)}"
        text_de = f"{name} von Hand gesetzt: Tisch {to_table} Platz {to_seat}, {chips_de(t.starting_stack)} Chips{wait_de}{cite_rule(rule)}"
        instruct(
            t,
            "move",
            text_en,
            text_de,
            entry=entry,
            move=(0, 0, to_table, to_seat),
            rule=rule,
            stack=t.starting_stack,
            actor=actor,
        )
        payload = {
            "entry": entry.id,
            "player": name,
            "table": to_table,
            "seat": to_seat,
            "stack": t.starting_stack,
            "waits": wait,
            "rule": rule,
            "text_en": text_en,
            "text_de": text_de,
            "note": note,
        }
        payload["seq"] = record_event(step, "desk_seat", payload, actor)
    execute_moves(tournament_id, actor=actor)
    return payload


def desk_hand_played(tournament_id: int, table_number: int, *, note: str = "", actor=None) -> dict[str, Any]:
    """Hand-for-hand at a table with no tablet: the director records that
    the table has played the round's hand without a bust (a bust is entered
    with :func:`desk_bust`, which counts the hand itself).  Every table
    plays one hand per round (004 #77: "Hand für Hand"); once all have,
    the clock steps and the round's busts are placed together (004 #79).
    Players there waiting for the button count the hand down.

    Returns the event payload (``table``, ``round`` (0-based), ``rule``
    ``"004 #77"``, ``seq``).  Errors: ``not_found``, ``invalid`` (not in
    hand-for-hand, the table played this round's hand already),
    ``hand_in_progress`` (its tablet is dealing), ``not_started``."""
    with tournament_step(tournament_id) as step:
        t = step.row
        require_running(t)
        if not t.hand_for_hand:
            raise ServiceError("invalid", _("hand-for-hand is not on"))
        tt = TournamentTable.objects.filter(tournament=t, number=table_number, broken=False).first()
        if tt is None:
            raise ServiceError("not_found", _("no open table %(table)s") % {"table": table_number})
        if live_seats(tt.table_id):
            raise ServiceError(
                "hand_in_progress", _("table %(table)s is playing a hand: its tablet counts it") % {"table": tt.number}
            )
        if tt.h4h_hands > t.hands_played_h4h:
            raise ServiceError(
                "invalid",
                _("table %(table)s has played this round's hand: wait for the other tables (004 #77)")
                % {"table": tt.number},
            )
        round_no = t.hands_played_h4h
        count_h4h_hand(t, tt)
        for e in Entry.objects.filter(
            tournament=t, status=Entry.Status.SEATED, wait_hands__gt=0, player__seats__table_id=tt.table_id
        ):
            e.wait_hands -= 1
            e.save(update_fields=["wait_hands"])
            changed(entries=[e.id])
        step_hand_for_hand(t, engine_rules(t))
        payload = {
            "table": tt.number,
            "round": round_no,
            "rule": "004 #77",
            "text_en": f"Table {tt.number} played hand-for-hand hand {round_no + 1} (no tablet) (004 #77)",
            "text_de": f"Tisch {tt.number} hat Hand-für-Hand-Hand {round_no + 1} gespielt (ohne Tablet) (004 #77)",
            "note": note,
        }
        payload["seq"] = record_event(step, "desk_hand_played", payload, actor, H4H_FIELDS)
    return payload


def desk_break(tournament_id: int, table_number: int, *, note: str = "", actor=None) -> dict[str, Any]:
    """Break a table by hand: its players draw the free seats of the other
    tables (004 #10: "Der Floorman verteilt die vorher gemischten Seatcards
    der freien Turnierplätze"; 001 Balancing), the shortest tables filled
    first so they stay balanced.  Each is a move instruction (made between
    hands, confirmed by the tablets, 004 #33).  Returns the event payload
    (``instructions``, ``rule``, ``seq``).  Errors: ``not_found``,
    ``invalid`` (broken already, the last table, too few free seats),
    ``not_started``."""
    with tournament_step(tournament_id) as step:
        t = step.row
        require_running(t)
        rules = engine_rules(t)
        floor, tts = floor_state(t)
        if table_number not in tts:
            raise ServiceError("not_found", _("no open table %(table)s") % {"table": table_number})
        if len(tts) < 2:
            raise ServiceError("invalid", _("the last table cannot be broken"))
        states = {s.number: s for s in floor}
        leaving = states[table_number]
        free = {n: s.free_seats() for n, s in states.items() if n != table_number}
        counts = {n: s.player_count for n, s in states.items() if n != table_number}
        if sum(len(v) for v in free.values()) < leaving.player_count:
            raise ServiceError("invalid", _("the other tables have too few free seats"))
        rng = draw_rng(t)
        movers = sorted(leaving.seats.items())
        rng.shuffle(movers)
        for seats in free.values():
            rng.shuffle(seats)
        rule = rules.cite("breaking")
        rule_text = str(rule)
        tt = tts[table_number]
        tt.broken = True
        tt.save(update_fields=["broken"])
        changed(tables=[tt.table_id])
        instruct(
            t,
            "break_table",
            f"Table {table_number} breaks (director): players take new seats by draw{cite_rule(rule_text)}",
            f"Tisch {table_number} wird aufgelöst (Turnierleitung): neue Plätze per Los{cite_rule(rule_text)}",
            rule=rule_text,
            tables={table_number},
            actor=actor,
        )
        entries: dict[Hashable, Entry] = {  # by entry id, the engine's player id
            e.id: e for e in Entry.objects.filter(tournament=t, id__in=[m[1] for m in movers]).select_related("player")
        }
        made = []
        for from_seat, entry_id in movers:
            to_table = min((n for n in free if free[n]), key=lambda n: (counts[n], n))
            to_seat = free[to_table].pop()
            counts[to_table] += 1
            name = entries[entry_id].player.name
            i = instruct(
                t,
                "move",
                f"Move {name}: table {table_number} seat {from_seat} → table {to_table} seat {to_seat}"
                f"{cite_rule(rule_text)}",
                f"{name} umsetzen: Tisch {table_number} Platz {from_seat} → Tisch {to_table} Platz {to_seat}"
                f"{cite_rule(rule_text)}",
                entry=entries[entry_id],
                move=(table_number, from_seat, to_table, to_seat),
                status="pending",
                rule=rule_text,
                actor=actor,
            )
            made.append(i.id)
        payload = {
            "table": table_number,
            "instructions": made,
            "rule": rule_text,
            "text_en": f"Table {table_number} broken at the desk: {len(made)} player(s) move{cite_rule(rule_text)}",
            "text_de": f"Tisch {table_number} am Pult aufgelöst: {len(made)} Spieler umsetzen{cite_rule(rule_text)}",
            "note": note,
        }
        payload["seq"] = record_event(step, "desk_break", payload, actor)
    execute_moves(tournament_id, actor=actor)
    return payload
