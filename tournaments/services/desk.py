"""The director's desk: manual control of the floor, every step audited.

For tables without a tablet, or when the floor overrules one: record a bust
(:func:`desk_bust`), add or remove chips with a reason (:func:`desk_chips`),
move a player by hand (:func:`desk_move`), break a table by hand
(:func:`desk_break`), and undo any of them (:func:`desk_undo`).  The seat
changes live in :mod:`.desk_seats`, the shared checks in :mod:`.desk_base`;
this module offers them all, with the moves' confirmations (:mod:`.desk_moves`).

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

from tables import services as table_services
from tables.models import Seat, Table
from tables.writepath import ServiceError, WriteStep
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentEvent, TournamentTable
from tournaments.services.busts import after_busts, finish_if_won, step_hand_for_hand
from tournaments.services.delta import changed
from tournaments.services.desk_base import (
    CHIP_REASONS,
    CHIP_RULES,
    DESK_KINDS,
    H4H_FIELDS,
    chips_de,
    chips_en,
    cite_rule,
    count_h4h_hand,
    require_running,
    seated_entry,
)
from tournaments.services.desk_moves import confirm_at_table, floor_moves, pending_moves, table_moves
from tournaments.services.desk_seats import desk_break, desk_hand_played, desk_move, desk_seat, waiting_for_seat
from tournaments.services.moves import confirm_move, execute_moves, undo_move_in
from tournaments.services.places import next_bust_order, refresh_places
from tournaments.services.reading import engine_rules
from tournaments.services.writes import record_event, set_seat, tournament_step

__all__ = [
    "CHIP_REASONS",
    "DESK_KINDS",
    "confirm_at_table",
    "confirm_move",
    "desk_break",
    "desk_bust",
    "desk_chips",
    "desk_hand_played",
    "desk_log",
    "desk_move",
    "desk_seat",
    "desk_state",
    "desk_undo",
    "floor_moves",
    "pending_moves",
    "table_moves",
    "waiting_for_seat",
]

_REASON_TEXT = {
    "penalty": ("penalty", "Strafe"),
    "found_chips": ("found chips", "gefundene Chips"),
    "dq": ("disqualification", "Disqualifikation"),
    "correction": ("correction", "Korrektur"),
}


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
        set_seat(tt.table_id, seat.number, player_id=None)  # he leaves the felt at once
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
        changed(entries=[entry.id], finishes=[f.id])
        rows[-1]["finish"] = f.id
    if h4h_round is None:
        refresh_places(t)  # placed from the bust order (tournaments.services.places)
    else:
        # 004 #77: the hand of this round is played at these tables; 004 #79: the
        # round's busts -- desk and tablets alike -- share once every table has played it.
        for tt in {tt.number: tt for _e, tt, _s, _st in busts}.values():
            count_h4h_hand(t, tt)
        step_hand_for_hand(t, rules)
    rule = ""
    for r, f in zip(rows, Finish.objects.filter(pk__in=[r["finish"] for r in rows]).order_by("id"), strict=True):
        r.update(place=f.place, place_worst=f.place_worst, prize=f.prize)
        rule = f.rule
    return rows, rule


def _after_desk_busts(step: WriteStep[Tournament], kind: str, payload: dict[str, Any], actor) -> int:
    """Record ``kind``; the winner when one player is left, else the floor
    reacts (waitlist, balancing: :func:`after_busts`).  Returns the seq."""
    rules = engine_rules(step.row)
    won = finish_if_won(step, rules, None, (kind, payload, actor, H4H_FIELDS))
    if won:
        return won
    after_busts(step, rules, True, kind, payload, actor, H4H_FIELDS)
    return step.row.seq


def _credit_winner(t: Tournament, group: list, won_by: int | None) -> dict[str, Any] | None:
    """Give the chips the busted players' seats held (``group`` as
    :func:`_bust_group` takes it) to ``won_by``, a seated entry at their
    table not in a live hand; ``None`` without a winner.  Returns ``{"entry",
    "player", "table", "seat", "chips", "stack_before", "stack_after"}``.
    Errors: ``invalid`` (busted himself, another table), those of
    :func:`seated_entry`."""
    if won_by is None:
        return None
    if won_by in {e.id for e, _tt, _seat, _st in group}:
        raise ServiceError("invalid", _("The winner of the chips cannot be a player who is out."))
    entry, tt, seat = seated_entry(t, won_by)
    if any(g_tt.number != tt.number for _e, g_tt, _s, _st in group):
        raise ServiceError(
            "invalid",
            _("%(player)s sits at table %(table)s: the chips go to a player at the table of the bust.")
            % {"player": entry.player.name, "table": tt.number},
        )
    chips = sum(g_seat.stack for _e, _tt, g_seat, _st in group)
    table_services.set_seat(tt.table_id, seat.number, player_id=entry.player_id, stack=seat.stack + chips)
    changed(tables=[tt.table_id])
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
    with tournament_step(tournament_id) as step:
        t = step.row
        require_running(t)
        group = []
        for entry_id, stack in busts:
            entry, tt, seat = seated_entry(t, entry_id)
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
            "text_en": f"Bust recorded at the desk: {names}{cite_rule(rule)}{won_en}{wait_en}",
            "text_de": f"Ausscheiden am Pult erfasst: {names}{cite_rule(rule)}{won_de}{wait_de if waiting else ''}",
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
    with tournament_step(tournament_id) as step:
        t = step.row
        require_running(t)
        entry, tt, seat = seated_entry(t, entry_id)
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
                f"{entry.player.name} disqualified: {chips_en(before)} chips out of play, place {rows[0]['place']}{cite_rule(rule)}"
            )
            payload["text_de"] = (
                f"{entry.player.name} disqualifiziert: {chips_de(before)} Chips aus dem Spiel, Platz {rows[0]['place']}"
                f"{cite_rule(rule)}"
            )
            payload["seq"] = _after_desk_busts(step, "desk_chips", payload, actor)
        else:
            table_services.set_seat(tt.table_id, seat.number, player_id=entry.player_id, stack=before + delta)
            changed(tables=[tt.table_id])
            payload["text_en"] = (
                f"{entry.player.name} {chips_en(delta, '+')} chips ({en}): {chips_en(before)} → {chips_en(after)}{cite_rule(rule)}"
            )
            payload["text_de"] = (
                f"{entry.player.name} {chips_de(delta, '+')} Chips ({de}): {chips_de(before)} → {chips_de(after)}{cite_rule(rule)}"
            )
            payload["seq"] = record_event(step, "desk_chips", payload, actor)
    if reason == "dq":
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
        changed(entries=[entry.id], finishes_removed=[r["finish"]])
        set_seat(tts[r["table"]].table_id, r["seat"], player_id=entry.player_id, stack=r["stack"], absent=r["absent"])


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
    with tournament_step(tournament_id) as step:
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
                entry, tt, seat = seated_entry(t, won["entry"])
                if (tt.number, seat.number) != (won["table"], won["seat"]) or seat.stack < won["chips"]:
                    raise ServiceError(
                        "invalid", _("%(player)s has played since: his chips changed") % {"player": won["player"]}
                    )
                table_services.set_seat(
                    tt.table_id, seat.number, player_id=entry.player_id, stack=seat.stack - won["chips"]
                )
                changed(tables=[tt.table_id])
            _unbust(t, p["busts"])
        elif ev.kind == "desk_chips":
            entry, tt, seat = seated_entry(t, p["entry"])
            if (tt.number, seat.number) != (p["table"], p["seat"]):
                raise ServiceError("invalid", _("%(player)s has changed seats") % {"player": p["player"]})
            if seat.stack - p["amount"] < 0:
                raise ServiceError("invalid", _("%(player)s has too few chips left") % {"player": p["player"]})
            table_services.set_seat(tt.table_id, seat.number, player_id=entry.player_id, stack=seat.stack - p["amount"])
            changed(tables=[tt.table_id])
        elif ev.kind == "desk_seat":
            entry, tt, seat = seated_entry(t, p["entry"])
            if (tt.number, seat.number) != (p["table"], p["seat"]):
                raise ServiceError("invalid", _("%(player)s has changed seats") % {"player": p["player"]})
            if seat.stack != p["stack"]:
                raise ServiceError(
                    "invalid", _("%(player)s has played since: his chips changed") % {"player": p["player"]}
                )
            set_seat(tt.table_id, seat.number, player_id=None)
            entry.status = Entry.Status.WAITLISTED
            entry.wait_hands = 0
            entry.save(update_fields=["status", "wait_hands"])
            changed(entries=[entry.id])
        elif ev.kind == "desk_move":
            undo_move_in(step, Instruction.objects.select_related("entry__player").get(pk=p["instruction"]), actor)
        elif ev.kind == "desk_break":
            tt = TournamentTable.objects.select_related("table").get(tournament=t, number=p["table"])
            tt.broken = False
            tt.save(update_fields=["broken"])
            changed(tables=[tt.table_id])
            if tt.table.status != Table.Status.OPEN:
                table_services.set_table_status(tt.table_id, Table.Status.OPEN)
            for i in Instruction.objects.filter(pk__in=p["instructions"]).select_related("entry__player"):
                if i.status in ("pending", "moving", "done") and not Instruction.objects.filter(undoes=i).exists():
                    undo_move_in(step, i, actor, record=False)
        payload = {
            "undoes": seq,
            "kind": ev.kind,
            "text_en": f"Undone: {p.get('text_en', ev.kind)}",
            "text_de": f"Rückgängig: {p.get('text_de', ev.kind)}",
            "note": note,
        }
        payload["seq"] = record_event(step, "desk_undone", payload, actor)
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
            "actor": e.actor.get_username() if e.actor is not None else "",
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
