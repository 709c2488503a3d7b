"""The director's desk: manual control of the floor, every step audited.

For tables without a tablet, or when the floor overrules one: record a bust
(:func:`desk_bust`), add or remove chips with a reason (:func:`desk_chips`),
move a player by hand (:func:`desk_move`), break a table by hand
(:func:`desk_break`), and undo any of them (:func:`desk_undo`).

Each is one write step and one :class:`~tournaments.models.TournamentEvent`
of a ``DESK_KINDS`` kind whose payload holds the audit trail -- ``text_en``
/ ``text_de`` (what happened), ``note`` (why, as the director typed it),
``rule`` (the citation applied, ``""`` where no rule applies) -- and what an
undo needs; the event's ``actor`` and ``at`` say who and when.  An undo is
a new ``desk_undone`` event (``payload["undoes"]`` = the seq undone); an
event is undone at most once.

Errors raise ``ServiceError`` and change nothing: ``not_found``,
``invalid``, ``hand_in_progress`` (the player's table is playing a hand),
``not_started``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from poker import tournament as eng
from poker.tournament.buttons import hands_until_button, is_between
from tables import services as table_services
from tables.models import Hand, Seat, Table
from tables.writepath import ServiceError, WriteStep
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentEvent, TournamentTable
from tournaments.services.busts import _after_busts, _finish_if_won, _step_hand_for_hand
from tournaments.services.desk_moves import (  # noqa: F401  (desk offers them)
    confirm_at_table,
    floor_moves,
    pending_moves,
    table_moves,
)
from tournaments.services.moves import _undo_move, confirm_move, execute_moves  # noqa: F401  (confirm_move: desk offers it)
from tournaments.services.places import next_bust_order, refresh_places
from tournaments.services.reading import _floor, _rng, engine_rules
from tournaments.services.writes import _clear_busted_seats, _instruct, _record, _seat_of, _set_seat, _step, _take_seat

DESK_KINDS = ("desk_bust", "desk_chips", "desk_move", "desk_break", "desk_seat")
CHIP_REASONS = ("penalty", "found_chips", "dq", "correction")

#: The rule a chip change applies, by rulebook and reason (``""``: a plain correction cites none).
#: 001 6.37 / 004 #71: penalties, and a disqualified player's chips leave play;
#: 004 #64: found chips may be taken out of play; 001 6.11: chips not kept visible are taken out.
CHIP_RULES = {
    "wynental": {"penalty": "001 6.37", "dq": "001 6.37", "found_chips": "001 6.11", "correction": ""},
    "munotpoker": {"penalty": "004 #71", "dq": "004 #71", "found_chips": "004 #64", "correction": ""},
}

_REASON_TEXT = {
    "penalty": ("penalty", "Strafe"),
    "found_chips": ("found chips", "gefundene Chips"),
    "dq": ("disqualification", "Disqualifikation"),
    "correction": ("correction", "Korrektur"),
}


def _en(n: int, sign: str = "") -> str:
    """Chips in the English log text: ``1,000`` (``sign="+"``: ``+1,000`` / ``-1,000``), as the pages show them."""
    return f"{n:{sign},}"


def _de(n: int, sign: str = "") -> str:
    """Chips in the German log text: ``1.000`` (``sign="+"``: ``+1.000``), as the German pages show them."""
    return f"{n:{sign},}".replace(",", ".")


def _cite(rule: str) -> str:
    """``"004 #64"`` -> ``" (004 #64)"``; ``"001 6.37"`` -> ``" (001 6.37)"``; ``""`` -> ``""``."""
    if not rule:
        return ""
    book, _sep, section = rule.partition(" ")
    return f" ({book} #{section})" if section.isdigit() else f" ({rule})"


def _running(t: Tournament) -> None:
    if t.status != Tournament.Status.RUNNING:
        raise ServiceError("not_started", _("the tournament is not running"))


def _live_seats(table_id: int) -> set[int]:
    """Seats dealt in the live hand of a table (empty between hands)."""
    table = Table.objects.select_related("current_hand").get(pk=table_id)
    hand = table.current_hand
    if hand is None or hand.status != Hand.Status.LIVE:
        return set()
    return {int(s["seat"]) for s in hand.spec.get("seats", [])}


def _seated_entry(t: Tournament, entry_id: int) -> tuple[Entry, TournamentTable, Seat]:
    """A seated entry of ``t`` with its table and seat, not in a live hand."""
    entry = Entry.objects.filter(pk=entry_id, tournament=t).select_related("player").first()
    if entry is None:
        raise ServiceError("not_found", _("no entry %(entry_id)s") % {"entry_id": entry_id})
    where = _seat_of(t, entry.player_id) if entry.status == Entry.Status.SEATED else None
    if where is None:
        raise ServiceError("invalid", _("%(player)s is not seated") % {"player": entry.player.name})
    tt, number = where
    if number in _live_seats(tt.table_id):
        raise ServiceError(
            "hand_in_progress",
            _("%(player)s is playing a hand at table %(table)s: wait for its end")
            % {"player": entry.player.name, "table": tt.number},
        )
    return entry, tt, Seat.objects.get(table_id=tt.table_id, number=number)


# ------------------------------------------------------------------ busts


def _bust_group(
    t: Tournament, busts: list[tuple[Entry, TournamentTable, Seat, int]]
) -> tuple[list[dict[str, Any]], str]:
    """Bust ``(entry, table, seat, stack at the start of the hand)`` together:
    each player leaves his seat at once, is busted and placed with the
    others (001 Ende des Turniers / 003 Ausscheiden mehrerer Spieler: the
    higher stack at the start of the hand finishes better; 004 #79: after
    hand-for-hand is announced they share the places and prizes).  Returns
    the busts as payload rows and the rule applied."""
    rules = engine_rules(t)
    players_before = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count()
    if len(busts) >= players_before:
        raise ServiceError("invalid", _("at least one player must remain"))
    h4h_round = t.hands_played_h4h if t.hand_for_hand else None
    order = next_bust_order(t, h4h_round)
    rows = []
    for entry, tt, seat, stack_at_start in busts:
        rows.append(
            {
                "entry": entry.id,
                "player": entry.player.name,
                "table": tt.number,
                "seat": seat.number,
                "stack": seat.stack,
                "absent": seat.absent,
                "stack_at_start": stack_at_start,
            }
        )
        _set_seat(tt.table_id, seat.number, player_id=None)  # he leaves the felt at once
        entry.status = Entry.Status.BUSTED
        entry.rebuy_pending = False
        entry.save(update_fields=["status", "rebuy_pending"])
        f = Finish.objects.create(
            tournament=t,
            entry=entry,
            stack_at_start=stack_at_start,
            players_before=players_before,
            h4h_round=h4h_round,
            bust_order=order,
        )
        rows[-1]["finish"] = f.id
    if h4h_round is None:
        refresh_places(t)  # placed from the bust order (tournaments.services.places)
    else:
        # 004 #77: the hand of this round is played at these tables; 004 #79: the
        # round's busts -- desk and tablets alike -- share once every table has played it.
        for tt in {tt.number: tt for _e, tt, _s, _st in busts}.values():
            _count_h4h_hand(t, tt)
        _step_hand_for_hand(t, rules)
    rule = ""
    for r, f in zip(rows, Finish.objects.filter(pk__in=[r["finish"] for r in rows]).order_by("id"), strict=True):
        r.update(place=f.place, place_worst=f.place_worst, prize=f.prize)
        rule = f.rule
    return rows, rule


def _count_h4h_hand(t: Tournament, tt: TournamentTable) -> None:
    """Count the hand-for-hand hand of the running round as played at
    ``tt`` (once per round: a table whose tablet counted it already, or that
    was counted before, stays as it is)."""
    tt.refresh_from_db(fields=["h4h_hands"])
    if tt.h4h_hands <= t.hands_played_h4h:
        tt.h4h_hands = t.hands_played_h4h + 1
        tt.save(update_fields=["h4h_hands"])


#: Tournament fields a hand-for-hand round that completes changes (the clock steps, 004 #77).
_H4H_FIELDS = ("hand_for_hand", "hands_played_h4h", "clock_offset")


def _after_desk_busts(step: WriteStep[Tournament], kind: str, payload: dict[str, Any], actor) -> int:
    """Record ``kind``; the winner when one player is left, else the floor
    reacts (waitlist, balancing: :func:`_after_busts`).  Returns the seq."""
    rules = engine_rules(step.row)
    won = _finish_if_won(step, rules, None, (kind, payload, actor, _H4H_FIELDS))
    if won:
        return won
    _after_busts(step, rules, True, kind, payload, actor, _H4H_FIELDS)
    return step.row.seq


def _credit_winner(t: Tournament, group: list, won_by: int | None) -> dict[str, Any] | None:
    """Give the chips the busted players' seats held (``group`` as
    :func:`_bust_group` takes it) to ``won_by``, a seated entry at their
    table not in a live hand; ``None`` without a winner.  Returns ``{"entry",
    "player", "table", "seat", "chips", "stack_before", "stack_after"}``.
    Errors: ``invalid`` (busted himself, another table), those of
    :func:`_seated_entry`."""
    if won_by is None:
        return None
    if won_by in {e.id for e, _tt, _seat, _st in group}:
        raise ServiceError("invalid", _("The winner of the chips cannot be a player who is out."))
    entry, tt, seat = _seated_entry(t, won_by)
    if any(g_tt.number != tt.number for _e, g_tt, _s, _st in group):
        raise ServiceError(
            "invalid",
            _("%(player)s sits at table %(table)s: the chips go to a player at the table of the bust.")
            % {"player": entry.player.name, "table": tt.number},
        )
    chips = sum(g_seat.stack for _e, _tt, g_seat, _st in group)
    table_services.set_seat(tt.table_id, seat.number, player_id=entry.player_id, stack=seat.stack + chips)
    return {
        "entry": entry.id,
        "player": entry.player.name,
        "table": tt.number,
        "seat": seat.number,
        "chips": chips,
        "stack_before": seat.stack,
        "stack_after": seat.stack + chips,
    }


def desk_bust(
    tournament_id: int,
    busts: list[tuple[int, int | None]],
    *,
    won_by: int | None = None,
    note: str = "",
    actor=None,
) -> dict[str, Any]:
    """Record at the desk the players busted in one hand at a table with no
    tablet (or missed by it).

    In hand-for-hand (004 #77) the bust belongs to the running round: the
    hand counts as this round's hand at the player's table (a table with no
    tablet has played it), and the players are placed together with every
    bust of the round -- at the desk or on a tablet -- once every table has
    played it, sharing places and prizes (004 #79: "Spieler, welche nun
    innerhalb einer Hand ausscheiden sind gleichwertig zu behandeln");
    until then ``place`` is ``None``.

    ``busts`` -- ``(entry id, stack at the start of the hand or None)``; the
    stack defaults to the chips his seat holds.  Several players out in the
    same hand are placed by that stack (001 Ende des Turniers: "derjenige
    besser klassiert, welcher vor dem Ausscheiden den höheren Chipstack
    hatte"; 003 Ausscheiden mehrerer Spieler); under 004 after hand-for-hand
    was announced they share places and prizes (004 #79).  The players leave
    their seats at once; the floor then balances.

    ``won_by`` -- the entry who won their chips, at the same table: the
    chips their seats held are added to his stack, so the chips in play
    still add up (``payload["won_by"]``).  Without him the chips leave the
    seats uncredited and the table is marked for a recount
    (``payload["recount"]`` = ``[table numbers]``; the chip-count page says
    so until the table is counted, :func:`~tournaments.services.chipcounts.chip_stats`).

    Returns the event payload (``busts`` with ``place``, ``place_worst``,
    ``prize``; ``rule``; ``won_by`` or ``recount``; ``seq``).  Errors:
    ``not_found``, ``invalid`` (no busts, an entry twice, not seated, nobody
    left, a winner who is out or at another table), ``hand_in_progress``,
    ``not_started``.
    """
    if not busts:
        raise ServiceError("invalid", _("name at least one busted player"))
    if len({e for e, _s in busts}) != len(busts):
        raise ServiceError("invalid", _("a player is named twice"))
    with _step(tournament_id) as step:
        t = step.row
        _running(t)
        group = []
        for entry_id, stack in busts:
            entry, tt, seat = _seated_entry(t, entry_id)
            group.append((entry, tt, seat, seat.stack if stack is None else stack))
        credit = _credit_winner(t, group, won_by)
        recount = [] if credit else sorted({tt.number for _e, tt, seat, _st in group if seat.stack})
        rows, rule = _bust_group(t, group)
        names = ", ".join(f"{r['player']} ({r['place']}.)" if r["place"] else r["player"] for r in rows)
        if credit:
            won_en = (
                f"; {credit['player']} won {credit['chips']} chips: {credit['stack_before']} → {credit['stack_after']}"
            )
            won_de = f"; {credit['player']} gewinnt {credit['chips']} Chips: {credit['stack_before']} → {credit['stack_after']}"
        elif recount:
            tables = ", ".join(str(n) for n in recount)
            won_en = f"; chips not credited: recount table {tables}"
            won_de = f"; Chips nicht gutgeschrieben: Tisch {tables} nachzählen"
        else:
            won_en = won_de = ""
        waiting = any(r["place"] is None for r in rows)
        wait_en = "; placed with the round's other busts once every table has played it (004 #79)" if waiting else ""
        wait_de = "; platziert mit den anderen Ausscheidenden der Runde, sobald jeder Tisch sie gespielt hat (004 #79)"
        payload = {
            "busts": rows,
            "rule": rule or ("004 #79" if waiting else ""),
            "hand_for_hand": t.hand_for_hand,
            "text_en": f"Bust recorded at the desk: {names}{_cite(rule)}{won_en}{wait_en}",
            "text_de": f"Ausscheiden am Pult erfasst: {names}{_cite(rule)}{won_de}{wait_de if waiting else ''}",
            "note": note,
            "won_by": credit,
            "recount": recount,
        }
        payload["seq"] = _after_desk_busts(step, "desk_bust", payload, actor)
    execute_moves(tournament_id, actor=actor)
    return payload


# ------------------------------------------------------------------ chips


def desk_chips(
    tournament_id: int, entry_id: int, amount: int, reason: str, *, note: str = "", actor=None
) -> dict[str, Any]:
    """Add (``amount`` > 0) or remove (< 0) chips of a seated player, between
    his hands, for ``reason``:

    * ``penalty`` -- chips taken as a penalty (001 6.37, 004 #71);
    * ``found_chips`` -- chips found on the floor or off a stack are taken
      out of play, even if they can likely be assigned (004 #64; 001 6.11:
      chips not kept visible are taken out of the tournament);
    * ``dq`` -- disqualification: all his chips leave play and he is out
      (001 6.37 "werden die Chips eingezogen und der Spieler aus dem Turnier
      ausgeschlossen", 004 #71); ``amount`` is ignored; he is placed as a
      bust of his stack;
    * ``correction`` -- a miscount put right (no rule).

    Returns the event payload (``stack_before``, ``stack_after``, ``rule``,
    ``seq``).  Errors: ``not_found``, ``invalid`` (unknown reason, no
    change, a stack below zero, a reason without a note for a correction),
    ``hand_in_progress``, ``not_started``.
    """
    if reason not in CHIP_REASONS:
        raise ServiceError("invalid", _("unknown reason %(reason)s") % {"reason": reason})
    if reason != "dq" and amount == 0:
        raise ServiceError("invalid", _("enter the chips to add or remove"))
    with _step(tournament_id) as step:
        t = step.row
        _running(t)
        entry, tt, seat = _seated_entry(t, entry_id)
        rule = CHIP_RULES[t.rulebook][reason]
        before = seat.stack
        delta = -before if reason == "dq" else amount
        if before + delta < 0:
            raise ServiceError(
                "invalid", _("%(player)s has only %(stack)s chips") % {"player": entry.player.name, "stack": before}
            )
        en, de = _REASON_TEXT[reason]
        after = before + delta
        payload: dict[str, Any] = {
            "entry": entry.id,
            "player": entry.player.name,
            "table": tt.number,
            "seat": seat.number,
            "reason": reason,
            "amount": delta,
            "stack_before": before,
            "stack_after": before + delta,
            "rule": rule,
            "note": note,
        }
        if reason == "dq":
            rows, place_rule = _bust_group(t, [(entry, tt, seat, before)])
            payload["busts"] = rows
            payload["text_en"] = (
                f"{entry.player.name} disqualified: {_en(before)} chips out of play, place {rows[0]['place']}{_cite(rule)}"
            )
            payload["text_de"] = (
                f"{entry.player.name} disqualifiziert: {_de(before)} Chips aus dem Spiel, Platz {rows[0]['place']}"
                f"{_cite(rule)}"
            )
            payload["seq"] = _after_desk_busts(step, "desk_chips", payload, actor)
        else:
            table_services.set_seat(tt.table_id, seat.number, player_id=entry.player_id, stack=before + delta)
            payload["text_en"] = (
                f"{entry.player.name} {_en(delta, '+')} chips ({en}): {_en(before)} → {_en(after)}{_cite(rule)}"
            )
            payload["text_de"] = (
                f"{entry.player.name} {_de(delta, '+')} Chips ({de}): {_de(before)} → {_de(after)}{_cite(rule)}"
            )
            payload["seq"] = _record(step, "desk_chips", payload, actor)
    if reason == "dq":
        execute_moves(tournament_id, actor=actor)
    return payload


# ------------------------------------------------------------------ moves and breaks


def _free_seat(t: Tournament, tt: TournamentTable, seat: int) -> None:
    if tt.broken:
        raise ServiceError("invalid", _("table %(table)s has been broken") % {"table": tt.number})
    if not 1 <= seat <= tt.table.max_seats:
        raise ServiceError("invalid", _("table %(table)s has no seat %(seat)s") % {"table": tt.number, "seat": seat})
    taken = Seat.objects.filter(table_id=tt.table_id, number=seat, player__isnull=False).exists()
    coming = Instruction.objects.filter(
        tournament=t, kind="move", status="pending", to_table=tt.number, to_seat=seat
    ).exists()
    if taken or coming:
        raise ServiceError(
            "invalid", _("seat %(seat)s at table %(table)s is taken") % {"seat": seat, "table": tt.number}
        )


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
    with _step(tournament_id) as step:
        t = step.row
        _running(t)
        entry = Entry.objects.filter(pk=entry_id, tournament=t).select_related("player").first()
        if entry is None:
            raise ServiceError("not_found", _("no entry %(entry_id)s") % {"entry_id": entry_id})
        where = _seat_of(t, entry.player_id) if entry.status == Entry.Status.SEATED else None
        if where is None:
            raise ServiceError("invalid", _("%(player)s is not seated") % {"player": entry.player.name})
        if Instruction.objects.filter(tournament=t, kind="move", entry=entry, status__in=("pending", "moving")):
            raise ServiceError("invalid", _("%(player)s is already changing seats") % {"player": entry.player.name})
        src, from_seat = where
        dst = TournamentTable.objects.filter(tournament=t, number=to_table).select_related("table").first()
        if dst is None:
            raise ServiceError("not_found", _("no table %(table)s") % {"table": to_table})
        _free_seat(t, dst, to_seat)
        name = entry.player.name
        i = _instruct(
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
        payload["seq"] = _record(step, "desk_move", payload, actor)
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
    with _step(tournament_id) as step:
        t = step.row
        _running(t)
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
        _clear_busted_seats(t)
        _free_seat(t, dst, to_seat)
        rules = engine_rules(t)
        wait = 0
        state = next((ts for ts in _floor(t)[0] if ts.number == to_table), None)
        if state is not None and state.positions is not None and state.player_count >= 2:
            nxt = eng.next_positions(state.positions, state.seats.keys(), rules)
            if nxt.button != nxt.small_blind and is_between(to_seat, nxt.button, nxt.small_blind):
                wait = hands_until_button(to_seat, state.positions, [*state.seats, to_seat], rules)
        _take_seat(t, dst.table_id, to_seat, entry.player_id, t.starting_stack)
        entry.status = Entry.Status.SEATED
        entry.wait_hands = wait
        entry.save(update_fields=["status", "wait_hands"])
        name = entry.player.name
        rule = "004 #8" if t.rulebook == "munotpoker" else ""
        wait_en = ", waits for the button" if wait else ""
        wait_de = ", wartet auf den Button" if wait else ""
        text_en = f"{name} seated by hand: table {to_table} seat {to_seat}, {_en(t.starting_stack)} chips{wait_en}{_cite(rule)}"
        text_de = f"{name} von Hand gesetzt: Tisch {to_table} Platz {to_seat}, {_de(t.starting_stack)} Chips{wait_de}{_cite(rule)}"
        _instruct(
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
        payload["seq"] = _record(step, "desk_seat", payload, actor)
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
    with _step(tournament_id) as step:
        t = step.row
        _running(t)
        if not t.hand_for_hand:
            raise ServiceError("invalid", _("hand-for-hand is not on"))
        tt = TournamentTable.objects.filter(tournament=t, number=table_number, broken=False).first()
        if tt is None:
            raise ServiceError("not_found", _("no open table %(table)s") % {"table": table_number})
        if _live_seats(tt.table_id):
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
        _count_h4h_hand(t, tt)
        for e in Entry.objects.filter(
            tournament=t, status=Entry.Status.SEATED, wait_hands__gt=0, player__seats__table_id=tt.table_id
        ):
            e.wait_hands -= 1
            e.save(update_fields=["wait_hands"])
        _step_hand_for_hand(t, engine_rules(t))
        payload = {
            "table": tt.number,
            "round": round_no,
            "rule": "004 #77",
            "text_en": f"Table {tt.number} played hand-for-hand hand {round_no + 1} (no tablet) (004 #77)",
            "text_de": f"Tisch {tt.number} hat Hand-für-Hand-Hand {round_no + 1} gespielt (ohne Tablet) (004 #77)",
            "note": note,
        }
        payload["seq"] = _record(step, "desk_hand_played", payload, actor, _H4H_FIELDS)
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
    with _step(tournament_id) as step:
        t = step.row
        _running(t)
        rules = engine_rules(t)
        floor, tts = _floor(t)
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
        rng = _rng(t)
        movers = sorted(leaving.seats.items())
        rng.shuffle(movers)
        for seats in free.values():
            rng.shuffle(seats)
        rule = rules.cite("breaking")
        rule_text = str(rule)
        tt = tts[table_number]
        tt.broken = True
        tt.save(update_fields=["broken"])
        _instruct(
            t,
            "break_table",
            f"Table {table_number} breaks (director): players take new seats by draw{_cite(rule_text)}",
            f"Tisch {table_number} wird aufgelöst (Turnierleitung): neue Plätze per Los{_cite(rule_text)}",
            rule=rule_text,
            tables={table_number},
            actor=actor,
        )
        names = dict(Entry.objects.filter(tournament=t).values_list("id", "player__name"))
        made = []
        for from_seat, entry_id in movers:
            to_table = min((n for n in free if free[n]), key=lambda n: (counts[n], n))
            to_seat = free[to_table].pop()
            counts[to_table] += 1
            name = names[entry_id]
            i = _instruct(
                t,
                "move",
                f"Move {name}: table {table_number} seat {from_seat} → table {to_table} seat {to_seat}"
                f"{_cite(rule_text)}",
                f"{name} umsetzen: Tisch {table_number} Platz {from_seat} → Tisch {to_table} Platz {to_seat}"
                f"{_cite(rule_text)}",
                entry=Entry.objects.get(pk=entry_id),
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
            "text_en": f"Table {table_number} broken at the desk: {len(made)} player(s) move{_cite(rule_text)}",
            "text_de": f"Tisch {table_number} am Pult aufgelöst: {len(made)} Spieler umsetzen{_cite(rule_text)}",
            "note": note,
        }
        payload["seq"] = _record(step, "desk_break", payload, actor)
    execute_moves(tournament_id, actor=actor)
    return payload


# ------------------------------------------------------------------ undo


def _undone(t: Tournament, seq: int) -> bool:
    return TournamentEvent.objects.filter(tournament=t, kind="desk_undone", payload__undoes=seq).exists()


def _unbust(t: Tournament, rows: list[dict[str, Any]]) -> None:
    """Put busted players back into their seats with their chips, their finishes removed."""
    if t.status != Tournament.Status.RUNNING:
        raise ServiceError("invalid", _("the tournament has finished"))
    ids = [r["finish"] for r in rows]
    if Finish.objects.filter(tournament=t, id__gt=max(ids)).exists():
        raise ServiceError("invalid", _("later busts were recorded: undo them first"))
    tts = {tt.number: tt for tt in TournamentTable.objects.filter(tournament=t)}
    for r in rows:
        tt = tts[r["table"]]
        if tt.broken or Seat.objects.filter(table_id=tt.table_id, number=r["seat"], player__isnull=False).exists():
            raise ServiceError(
                "invalid",
                _("seat %(seat)s at table %(table)s is taken or closed") % {"seat": r["seat"], "table": r["table"]},
            )
    for r in rows:
        Finish.objects.filter(pk=r["finish"]).delete()
        entry = Entry.objects.get(pk=r["entry"])
        entry.status = Entry.Status.SEATED
        entry.save(update_fields=["status"])
        _set_seat(tts[r["table"]].table_id, r["seat"], player_id=entry.player_id, stack=r["stack"], absent=r["absent"])


def desk_undo(tournament_id: int, seq: int, *, note: str = "", actor=None) -> dict[str, Any]:
    """Undo the desk event at ``seq`` (a new ``desk_undone`` event; the
    original stays in the trail):

    * a bust or a disqualification: the players sit down again at their
      seats with their chips and their finishes are removed -- only while no
      later bust was recorded and the tournament runs;
    * a chip change: the chips are given back / taken again (between hands,
      the player still in that seat);
    * a move: cancelled while pending, else moved back (:func:`undo_move`);
    * a break: the table opens again; its moves are cancelled or reversed.

    Returns the undo's payload.  Errors: ``not_found``, ``invalid`` (not a
    desk event, undone already, or the floor has changed so that it cannot
    be undone: the reason is named), ``hand_in_progress``."""
    with _step(tournament_id) as step:
        t = step.row
        ev = TournamentEvent.objects.filter(tournament=t, seq=seq).first()
        if ev is None or ev.kind not in DESK_KINDS:
            raise ServiceError("not_found", _("no desk entry %(seq)s") % {"seq": seq})
        if _undone(t, seq):
            raise ServiceError("invalid", _("this entry was undone already"))
        p = ev.payload
        if ev.kind == "desk_bust" or (ev.kind == "desk_chips" and p["reason"] == "dq"):
            if p.get("won_by"):  # the chips credited to the winner go back to the players put back
                won = p["won_by"]
                entry, tt, seat = _seated_entry(t, won["entry"])
                if (tt.number, seat.number) != (won["table"], won["seat"]) or seat.stack < won["chips"]:
                    raise ServiceError(
                        "invalid", _("%(player)s has played since: his chips changed") % {"player": won["player"]}
                    )
                table_services.set_seat(
                    tt.table_id, seat.number, player_id=entry.player_id, stack=seat.stack - won["chips"]
                )
            _unbust(t, p["busts"])
        elif ev.kind == "desk_chips":
            entry, tt, seat = _seated_entry(t, p["entry"])
            if (tt.number, seat.number) != (p["table"], p["seat"]):
                raise ServiceError("invalid", _("%(player)s has changed seats") % {"player": p["player"]})
            if seat.stack - p["amount"] < 0:
                raise ServiceError("invalid", _("%(player)s has too few chips left") % {"player": p["player"]})
            table_services.set_seat(tt.table_id, seat.number, player_id=entry.player_id, stack=seat.stack - p["amount"])
        elif ev.kind == "desk_seat":
            entry, tt, seat = _seated_entry(t, p["entry"])
            if (tt.number, seat.number) != (p["table"], p["seat"]):
                raise ServiceError("invalid", _("%(player)s has changed seats") % {"player": p["player"]})
            if seat.stack != p["stack"]:
                raise ServiceError(
                    "invalid", _("%(player)s has played since: his chips changed") % {"player": p["player"]}
                )
            _set_seat(tt.table_id, seat.number, player_id=None)
            entry.status = Entry.Status.WAITLISTED
            entry.wait_hands = 0
            entry.save(update_fields=["status", "wait_hands"])
        elif ev.kind == "desk_move":
            _undo_move(step, Instruction.objects.select_related("entry__player").get(pk=p["instruction"]), actor)
        elif ev.kind == "desk_break":
            tt = TournamentTable.objects.select_related("table").get(tournament=t, number=p["table"])
            tt.broken = False
            tt.save(update_fields=["broken"])
            if tt.table.status != Table.Status.OPEN:
                table_services.set_table_status(tt.table_id, Table.Status.OPEN)
            for i in Instruction.objects.filter(pk__in=p["instructions"]).select_related("entry__player"):
                if i.status in ("pending", "moving", "done") and not Instruction.objects.filter(undoes=i).exists():
                    _undo_move(step, i, actor, record=False)
        payload = {
            "undoes": seq,
            "kind": ev.kind,
            "text_en": f"Undone: {p.get('text_en', ev.kind)}",
            "text_de": f"Rückgängig: {p.get('text_de', ev.kind)}",
            "note": note,
        }
        payload["seq"] = _record(step, "desk_undone", payload, actor)
    execute_moves(tournament_id, actor=actor)
    return payload


def desk_log(t: Tournament, limit: int = 30) -> list[dict[str, Any]]:
    """The desk's audit trail, newest first: ``{"seq", "kind", "at" (ISO),
    "actor" (username or ""), "text_en", "text_de", "note", "rule",
    "undone" (bool), "can_undo"}`` for desk events and their undos."""
    events = list(
        TournamentEvent.objects.filter(tournament=t, kind__in=(*DESK_KINDS, "desk_undone", "desk_hand_played"))
        .select_related("actor")
        .order_by("-seq")[:limit]
    )
    undone = {e.payload.get("undoes") for e in events if e.kind == "desk_undone"}
    return [
        {
            "seq": e.seq,
            "kind": e.kind,
            "at": e.at.isoformat(),
            "actor": e.actor.get_username() if e.actor_id else "",
            "text_en": e.payload.get("text_en", e.kind),
            "text_de": e.payload.get("text_de", e.kind),
            "note": e.payload.get("note", ""),
            "rule": e.payload.get("rule", ""),
            "undone": e.seq in undone,
            "can_undo": e.kind in DESK_KINDS and e.seq not in undone,
        }
        for e in events
    ]


def desk_state(tournament_id: int) -> dict[str, Any]:
    """What the director's desk shows beside the snapshot: ``{"seq", "log"
    (:func:`desk_log`), "moves" (:func:`pending_moves`)}``.  Errors:
    ``not_found``."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise ServiceError("not_found", _("no tournament %(tournament_id)s") % {"tournament_id": tournament_id})
    return {"seq": t.seq, "log": desk_log(t), "moves": pending_moves(t)}
