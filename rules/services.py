"""Floor calls, rulings and penalties.

Every mutation is one function in ``transaction.atomic()`` that locks the
table row first (the same lock as the dealer's actions: one writer per
table), and broadcasts after the commit to the table's group (the tablet)
and the floor group (every floor dashboard).

Broadcast messages (JSON text, see docs/protocol.md):

- ``{"type": "floor_call", "call": {...}}`` when a call is raised, answered,
  ruled or cancelled (``call.status`` says which);
- ``{"type": "ruling", "ruling": {...}}`` when a ruling is made; the hand's
  corrected snapshot follows as the usual ``update``.
"""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction
from django.utils import timezone

from poker.floor import procedures, suggestions
from poker.floor.interpret import InterpretError, interpret_json
from poker.houserules import Citation, get_profile
from rules.citations import citation_url
from rules.models import FloorCall, Penalty, Rule, Rulebook, Ruling, number_slug
from tables import services as table_services
from tables.models import Hand, Player, Seat, Table
from tables.services import FLOOR_GROUP, ServiceError, send_on_commit, table_group

__all__ = [
    "raise_floor_call",
    "answer_floor_call",
    "cancel_floor_call",
    "make_ruling",
    "floor_call_dict",
    "ruling_dict",
    "suggestions_for",
    "call_needs",
    "supply_call_fact",
    "open_calls",
]


def _send_on_commit(table_id: int, payload: dict[str, Any]) -> None:
    """Broadcast a floor message to the table's tablet and every floor dashboard after the commit."""
    send_on_commit([table_group(table_id), FLOOR_GROUP], payload)


def floor_call_dict(call: FloorCall) -> dict[str, Any]:
    """JSON shape of a floor call for the dashboards and the tablet."""
    state = (call.context.get("table") or {}).get("hand") or {}
    snapshot = state.get("state") or {}
    return {
        "id": call.id,
        "table_id": call.table_id,
        "table": call.context.get("table", {}).get("table", {}).get("name"),
        "hand_number": state.get("number"),
        "seat": call.seat,
        "reason": call.reason,
        "reason_label": str(call.get_reason_display()),
        "note": call.note,
        "status": call.status,
        "raised_by": call.raised_by.username if call.raised_by is not None else None,
        "raised_at": call.raised_at.isoformat() if call.raised_at else None,
        "answered_by": call.answered_by.username if call.answered_by is not None else None,
        "to_act_seat": snapshot.get("to_act_seat"),
        "total_pot": snapshot.get("total_pot"),
        "url": call.get_absolute_url(),
    }


def ruling_dict(ruling: Ruling) -> dict[str, Any]:
    """JSON shape of a ruling (tablet banner, floor dashboard)."""
    return {
        "id": ruling.id,
        "table_id": ruling.table_id,
        "floor_call": ruling.floor_call_id,
        "decision": ruling.decision,
        "decision_de": ruling.decision_de,
        "citations": [dict(c, url=citation_url(c)) for c in ruling.citations],
        "corrections": ruling.corrections,
        "event_indices": ruling.event_indices,
        "made_by": ruling.made_by.username if ruling.made_by is not None else None,
        "made_at": ruling.made_at.isoformat() if ruling.made_at else None,
        "url": ruling.get_absolute_url(),
    }


def open_calls(table_id: int | None = None) -> list[dict[str, Any]]:
    """Floor calls not yet ruled or cancelled, oldest first: of table ``table_id``, or of every table."""
    calls = FloorCall.objects.filter(status__in=[FloorCall.Status.OPEN, FloorCall.Status.ANSWERED])
    if table_id is not None:
        calls = calls.filter(table_id=table_id)
    return [floor_call_dict(c) for c in calls.select_related("raised_by", "answered_by").order_by("raised_at")]


def raise_floor_call(
    table_id: int,
    reason: str,
    *,
    seat: int | None = None,
    note: str = "",
    details: dict[str, Any] | None = None,
    actor=None,
) -> FloorCall:
    """The dealer calls the floor: a :class:`FloorCall` with the hand's
    context frozen now (table snapshot: stacks, pots, player to act; the
    event log), broadcast to every floor dashboard at once.

    ``reason``: one of :class:`FloorCall.Reason`; ``seat``: the seat
    concerned (optional); ``details``: reason-specific input (for
    ``chip_action`` the interpreter's ``observed`` dict).
    Errors: ``not_found``, ``invalid`` (a seat beyond the table's seats, text
    with NUL characters or lone surrogates).
    """
    if reason not in FloorCall.Reason.values:
        raise ServiceError("invalid", f"reason must be one of {', '.join(FloorCall.Reason.values)}")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 1):
        raise ServiceError("invalid", "seat must be a seat number")
    if not isinstance(note, str) or len(note) > 500:
        raise ServiceError("invalid", "note must be text of at most 500 characters")
    if details is not None and not isinstance(details, dict):
        raise ServiceError("invalid", "details must be an object")
    _check_text(note, "note")
    _check_json(details, "details")
    with transaction.atomic():
        table = table_services.lock_table(table_id)
        if seat is not None and seat > table.max_seats:
            raise ServiceError("invalid", f"seat must be a seat of the table (1 to {table.max_seats})")
        hand = table.current_hand
        snapshot = table_services.table_snapshot(table, hand=hand)
        events = table_services.hand_events(hand) if hand is not None else []
        call = FloorCall.objects.create(
            table=table,
            hand=hand,
            seat=seat,
            reason=reason,
            note=note.strip(),
            details=details or {},
            context={"table": snapshot, "events": events},
            raised_by=actor if _is_user(actor) else None,
        )
        _send_on_commit(table.id, {"type": "floor_call", "call": floor_call_dict(call)})
        return call


#: Deepest nesting of the free-form JSON (details, corrections) a call or ruling stores.
MAX_JSON_DEPTH = 12


def _check_text(value: str, name: str) -> None:
    """``ServiceError('invalid')`` for text PostgreSQL cannot store: NUL characters and lone surrogates."""
    if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        raise ServiceError("invalid", f"{name} must be text without NUL characters or lone surrogates")


def _check_json(value: Any, name: str, depth: int = 0) -> None:
    """``ServiceError('invalid')`` for JSON a ``jsonb`` column refuses or a client cannot read: text with NUL
    or lone surrogates (keys too), NaN or infinite numbers, nesting deeper than :data:`MAX_JSON_DEPTH`."""
    if depth > MAX_JSON_DEPTH:
        raise ServiceError("invalid", f"{name} is nested too deep")
    if isinstance(value, str):
        _check_text(value, name)
    elif isinstance(value, float) and not math.isfinite(value):
        raise ServiceError("invalid", f"{name} must hold finite numbers")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(str(key), name)
            _check_json(item, name, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _check_json(item, name, depth + 1)


def _is_seat_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 2**31 - 1


def _is_user(actor) -> bool:
    return actor is not None and getattr(actor, "is_authenticated", False)


def _lock_call(call_id: int) -> tuple[FloorCall, Table]:
    call = FloorCall.objects.filter(pk=call_id).first()
    if call is None:
        raise ServiceError("not_found", f"no floor call {call_id}")
    table = table_services.lock_table(call.table_id)
    call = (
        FloorCall.objects.select_for_update(no_key=True, of=("self",))
        .select_related("raised_by", "answered_by")
        .get(pk=call_id)
    )
    return call, table


def answer_floor_call(call_id: int, *, actor) -> FloorCall:
    """A floorman takes the call ("on my way"); every dashboard and the
    tablet see who.  Errors: ``not_found``, ``closed``."""
    with transaction.atomic():
        call, table = _lock_call(call_id)
        if call.status not in (FloorCall.Status.OPEN, FloorCall.Status.ANSWERED):
            raise ServiceError("closed", "this floor call is closed")
        call.status = FloorCall.Status.ANSWERED
        call.answered_by = actor if _is_user(actor) else None
        call.answered_at = timezone.now()
        call.save(update_fields=["status", "answered_by", "answered_at"])
        _send_on_commit(table.id, {"type": "floor_call", "call": floor_call_dict(call)})
        return call


def cancel_floor_call(call_id: int, *, actor) -> FloorCall:
    """The call is withdrawn (resolved at the table).  Errors: ``not_found``, ``closed``."""
    with transaction.atomic():
        call, table = _lock_call(call_id)
        if call.status not in (FloorCall.Status.OPEN, FloorCall.Status.ANSWERED):
            raise ServiceError("closed", "this floor call is closed")
        call.status = FloorCall.Status.CANCELLED
        call.save(update_fields=["status"])
        _send_on_commit(table.id, {"type": "floor_call", "call": floor_call_dict(call)})
        return call


def _call_input(call: FloorCall, table: Table) -> dict[str, Any]:
    """The ``call`` dict of :func:`poker.floor.procedures.suggest_rulings` for the
    hand as it is now (play may have gone on since the call)."""
    hand = table.current_hand if table.current_hand_id == call.hand_id else call.hand
    snapshot = hand.snapshot if hand is not None else None
    events = table_services.hand_events(hand) if hand is not None else []
    data: dict[str, Any] = {"reason": call.reason, "snapshot": snapshot, "events": events, "seat": call.seat}
    observed = call.details.get("observed") if call.details else None
    if call.reason == FloorCall.Reason.CHIP_ACTION and observed and snapshot and snapshot.get("legal"):
        situation = situation_for(table, snapshot)
        if situation is not None:
            data["interpretation"] = {"situation": situation, "observed": observed}
    if call.details.get("held_action"):
        data["held_action"] = call.details["held_action"]
    return data


def situation_for(table: Table, snapshot: dict[str, Any]) -> dict[str, Any] | None:
    """The interpreter's ``situation`` (docs/interpret.md) for the player to
    act in a hand snapshot, or None when nobody is to act."""
    legal = snapshot.get("legal")
    seat = snapshot.get("to_act_seat")
    if not legal or seat is None:
        return None
    player = next(p for p in snapshot["players"] if p["seat"] == seat)
    bets = [p["bet"] for p in snapshot["players"]]
    top = max(bets)
    only_blinds = snapshot["street"] == "preflop" and top <= max(table.big_blind, table.straddle or 0)
    raise_min = legal.get("min_raise_to") or 0
    return {
        "street": snapshot["street"],
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "to_call": legal.get("call_amount") or 0,
        "last_raise": max(raise_min - top, table.big_blind) if raise_min else table.big_blind,
        "in_front": player["bet"],
        "stack": player["stack"],
        "pot": snapshot["total_pot"],
        "only_blinds": only_blinds,
        "heads_up": sum(1 for p in snapshot["players"] if not p["folded"]) == 2,
    }


def suggestions_for(call: FloorCall) -> list[dict[str, Any]]:
    """Suggested rulings for a floor call, best first, as JSON dicts
    (:class:`poker.floor.procedures.Suggestion`), each citation with its URL.  Empty while the call
    lacks a fact (:func:`call_needs`) or cannot be read by the procedures: an input error is never
    offered as a ruling."""
    table = Table.objects.select_related("current_hand").get(pk=call.table_id)
    profile = get_profile(table.rules_profile)
    data = _call_input(call, table)
    if suggestions.missing_facts(data):
        return []  # the call page asks for the missing fact first (call_needs); never offered as a ruling
    try:
        found = procedures.suggest_rulings(profile, data)
    except procedures.ProcedureError:
        return []  # a call the procedures cannot read: the floor corrects by hand
    result = []
    for suggestion in found:
        data = suggestion.to_dict()
        data["citations"] = [dict(c, url=citation_url(c)) for c in data["citations"]]
        result.append(data)
    return result


def call_needs(call: FloorCall) -> list[str]:
    """The facts the floor must supply before rulings are suggested for ``call``
    (:func:`poker.floor.suggestions.missing_facts`): ``["seat"]`` or ``[]``; ``[]`` for a closed call."""
    if call.status not in (FloorCall.Status.OPEN, FloorCall.Status.ANSWERED):
        return []
    table = Table.objects.select_related("current_hand").get(pk=call.table_id)
    return list(suggestions.missing_facts(_call_input(call, table)))


def reason_citations(call: FloorCall) -> list[dict[str, Any]]:
    """The citations the call page offers to tick for a call of this reason, in the table's rulebook
    (:func:`poker.floor.suggestions.reason_citations`): ``[{"rulebook", "section", "label", "url"}]``."""
    table = Table.objects.only("rules_profile").get(pk=call.table_id)
    cites = suggestions.reason_citations(get_profile(table.rules_profile), call.reason)
    return [{**{k: c.to_dict().get(k) for k in ("rulebook", "section", "label")}, "url": citation_url(c.to_dict())}
            for c in cites]  # fmt: skip


def supply_call_fact(call_id: int, *, seat: Any, actor=None) -> FloorCall:
    """The floor supplies the fact a call lacked (:func:`call_needs`): ``seat``, the seat concerned
    (for an out-of-turn call the skipped player, 000 Aktionen 2, 002 #8, 004 #53), a seat dealt into
    the call's hand.  Broadcast like any change of the call.  Errors (``ServiceError``, messages for
    the floor): ``not_found``, ``closed``, ``invalid`` (not a seat of the hand); nothing changes on error."""
    from django.utils.translation import gettext as _t

    with transaction.atomic():
        call, table = _lock_call(call_id)
        if call.status not in (FloorCall.Status.OPEN, FloorCall.Status.ANSWERED):
            raise ServiceError("closed", _t("This call is closed."))
        players = (((call.context.get("table") or {}).get("hand") or {}).get("state") or {}).get("players") or []
        seats = {p.get("seat") for p in players} or set(range(1, table.max_seats + 1))
        if not _is_seat_number(seat) or seat not in seats:
            raise ServiceError("invalid", _t("Pick a seat of the hand."))
        call.seat = seat
        call.save(update_fields=["seat"])
        _send_on_commit(table.id, {"type": "floor_call", "call": floor_call_dict(call)})
        return call


def _rules_for(citations: list[dict[str, Any]]) -> list[Rule]:
    rules = []
    books = {b.slug: b for b in Rulebook.objects.all()}
    for c in citations:
        book = books.get(str(c.get("rulebook")))
        if book is None:
            continue
        rule = Rule.objects.filter(rulebook=book, slug=number_slug(str(c.get("section", "")))).first()
        if rule is not None:
            rules.append(rule)
    return rules


def _clean_citations(citations: Any) -> list[dict[str, Any]]:
    if citations is None:
        return []
    if not isinstance(citations, list):
        raise ServiceError("invalid", "citations must be a list")
    clean = []
    for c in citations:
        if not isinstance(c, dict) or not c.get("rulebook") or not c.get("section"):
            raise ServiceError("invalid", "a citation needs rulebook and section")
        book, section = str(c["rulebook"]).strip(), str(c["section"]).strip()
        clean.append(
            {"rulebook": book, "section": section, "label": str(c.get("label") or Citation(book, section).label)}
        )
    return clean


def make_ruling(
    table_id: int,
    *,
    decision: str,
    decision_de: str = "",
    citations: list | None = None,
    corrections: list | None = None,
    floor_call_id: int | None = None,
    suggestion_key: str = "",
    actor=None,
) -> Ruling:
    """Record a floor ruling and apply its corrections to the hand.

    Args:
        table_id: the table ruled on.
        decision / decision_de: what the floor decided, in words.
        citations: ``[{"rulebook", "section", "label"}]`` (from a suggestion
            or picked by the floorman).
        corrections: correction dicts (:mod:`poker.hand.corrections`);
            ``penalty`` items also create :class:`Penalty` rows
            (000 Strafen 4, 001 6.37, 004 #71): ``{"type": "penalty",
            "seat": S, "kind": ..., "count": n}``; an orbit is one hand per
            player dealt in (004 #71).  A disqualified player's hand is killed
            and his chips are removed before the next deal.
        floor_call_id: the call answered (it becomes ``ruled``).

    Returns the :class:`Ruling`.  Errors: ``invalid``, ``not_found``,
    ``closed`` (the call was already ruled), and the correction errors of
    :func:`tables.services.apply_corrections`; nothing changes on error.
    """
    if not isinstance(decision, str) or not decision.strip():
        raise ServiceError("invalid", "write the decision")
    corrections = corrections or []
    if not isinstance(corrections, list) or not all(isinstance(c, dict) for c in corrections):
        raise ServiceError("invalid", "corrections must be a list of objects")
    for item in corrections:
        if item.get("seat") is not None and not _is_seat_number(item["seat"]):
            raise ServiceError("invalid", "a correction's seat must be a seat number")
    _check_text(decision, "the decision")
    _check_text(decision_de or "", "the decision")
    _check_text(suggestion_key or "", "the suggestion")
    _check_json(corrections, "corrections")
    _check_json(citations, "citations")
    citations = _clean_citations(citations)
    with transaction.atomic():
        table = table_services.lock_table(table_id)
        call = None
        if floor_call_id is not None:
            call = FloorCall.objects.select_for_update(no_key=True).filter(pk=floor_call_id, table=table).first()
            if call is None:
                raise ServiceError("not_found", f"no floor call {floor_call_id} at this table")
            if call.status in (FloorCall.Status.RULED, FloorCall.Status.CANCELLED):
                raise ServiceError("closed", "this floor call is closed")
        hand = table.current_hand
        ruling = Ruling.objects.create(
            floor_call=call,
            table=table,
            hand=hand,
            suggestion_key=suggestion_key[:80],
            decision=decision.strip(),
            decision_de=(decision_de or "").strip(),
            citations=citations,
            corrections=corrections,
            made_by=actor if _is_user(actor) else None,
        )
        ruling.rules.set(_rules_for(citations))
        hand_items, penalties = _split_penalties(table, hand, corrections)
        indices: list[int] = []
        if hand_items:
            _, indices = table_services.apply_corrections(table.id, hand_items, ruling_id=ruling.id, actor=actor)
        players = set()
        for item, seat in penalties:
            players.add(seat.player_id)
            _give_penalty(ruling, table, seat, item)
        if call is not None and call.seat:
            seat = table.seats.filter(number=call.seat, player__isnull=False).first()
            if seat is not None:
                players.add(seat.player_id)
        for item in corrections:
            if item.get("seat"):
                seat = table.seats.filter(number=item["seat"], player__isnull=False).first()
                if seat is not None:
                    players.add(seat.player_id)
        ruling.players.set(list(players))
        ruling.event_indices = indices
        ruling.save(update_fields=["event_indices"])
        if call is not None:
            call.status = FloorCall.Status.RULED
            if call.answered_by_id is None and _is_user(actor):
                call.answered_by = actor
                call.answered_at = timezone.now()
            call.save(update_fields=["status", "answered_by", "answered_at"])
            _send_on_commit(table.id, {"type": "floor_call", "call": floor_call_dict(call)})
        _send_on_commit(table.id, {"type": "ruling", "ruling": ruling_dict(ruling)})
        if not hand_items:
            table_services.commit_table_change(table)
        return ruling


def _split_penalties(table: Table, hand: Hand | None, corrections: list[dict]) -> tuple[list[dict], list]:
    """Hand corrections to apply, and the penalties with their seats.  A
    penalty is also noted on the live hand; a disqualified player's live
    hand is killed."""
    hand_items: list[dict] = []
    penalties = []
    live = hand is not None and hand.status == Hand.Status.LIVE
    in_hand = {p["seat"]: p for p in (hand.snapshot.get("players", []) if hand is not None else [])}
    for item in corrections:
        if item.get("type") != "penalty":
            hand_items.append(item)
            continue
        kind = item.get("kind")
        if kind not in Penalty.Kind.values:
            raise ServiceError("invalid", f"penalty kind must be one of {', '.join(Penalty.Kind.values)}")
        number = item.get("seat")
        seat = (
            table.seats.filter(number=number, player__isnull=False).select_related("player").first()
            if isinstance(number, int) and not isinstance(number, bool)
            else None
        )
        if seat is None:
            raise ServiceError("invalid", f"no player in seat {item.get('seat')}")
        penalties.append((item, seat))
        if hand is not None and hand.status != Hand.Status.MISDEAL:
            hand_items.append(item)
        player = in_hand.get(seat.number)
        if kind == "disqualification" and live and player and not player["folded"]:
            hand_items.append({"type": "kill", "seat": seat.number})
    return hand_items, penalties


def _give_penalty(ruling: Ruling, table: Table, seat: Seat, item: dict) -> Penalty:
    kind = item["kind"]
    count = item.get("count") or 0
    players = sum(1 for s in table.seats.all() if s.player_id and s.stack > 0 and not s.sitting_out)
    try:
        hands = procedures.hands_for_penalty(kind, count, max(players, 2))
    except procedures.ProcedureError as exc:
        raise ServiceError("invalid", str(exc)) from None
    return Penalty.objects.create(
        player=seat.occupant, ruling=ruling, table=table, kind=kind, count=count, hands_total=hands
    )


def player_history(player: Player) -> dict[str, Any]:
    """A player's rulings and penalties, newest first (for the floor)."""
    return {
        "rulings": list(player.rulings.select_related("table").order_by("-made_at")),
        "penalties": list(player.penalties.select_related("table", "ruling").order_by("-created_at")),
    }


def interpret_for_table(table_id: int, observed: dict[str, Any]) -> dict[str, Any]:
    """The tablet's "chips" entry: what the player to act physically did,
    read by the table's house rules (:func:`poker.floor.interpret.interpret_json`)
    before the dealer confirms it.  Changes nothing.

    ``observed``: the interpreter's ``observed`` dict (chips by denomination,
    declared word and amount, motions; docs/interpret.md).  Returns its
    output plus ``"seat"``, ``"situation"`` and ``"engine_action"`` (the
    engine action dict to send if the dealer confirms, or None when nothing
    stands).  Errors: ``not_found``, ``no_hand``, ``invalid`` (with the
    interpreter's code and message).
    """
    if not isinstance(observed, dict):
        raise ServiceError("invalid", "observed must be an object")
    table = Table.objects.select_related("current_hand").filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", f"no table {table_id}")
    hand = table.current_hand
    snapshot = hand.snapshot if hand is not None and hand.status == Hand.Status.LIVE else None
    situation = situation_for(table, snapshot) if snapshot else None
    if situation is None or snapshot is None:
        raise ServiceError("no_hand", "nobody is to act")
    try:
        result = interpret_json(table.rules_profile, {"situation": situation, "observed": observed})
    except InterpretError as exc:
        raise ServiceError("invalid", str(exc), interpret_error=exc.code) from None
    if "error" in result:
        raise ServiceError("invalid", result.get("message", "cannot read this"), interpret_error=result["error"])
    seat = snapshot["to_act_seat"]
    act = result.get("action")
    if act in (None, "none"):
        engine_action = None
    elif act == "all-in":
        engine_action = {"type": "all_in", "seat": seat}
    elif act in ("bet", "raise"):
        engine_action = {"type": act, "seat": seat, "to": result["amount"]}
    else:
        engine_action = {"type": act, "seat": seat}
    result["citations"] = [dict(c, url=citation_url(c)) for c in result.get("citations", [])]
    return dict(result, seat=seat, situation=situation, engine_action=engine_action)
