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
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _t

from poker.floor import procedures
from poker.floor.interpret import InterpretError, interpret_json
from poker.houserules import TDA, Citation, get_profile
from poker.rulebooks import HOUSE
from rules import handwords
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
    "open_calls",
    "citation_url",
]


def _send_on_commit(table_id: int, payload: dict[str, Any]) -> None:
    """Broadcast a floor message to the table's tablet and every floor dashboard after the commit."""
    send_on_commit([table_group(table_id), FLOOR_GROUP], payload)


def citation_url(citation: dict[str, Any]) -> str | None:
    """The permalink of a cited rule (``/rules/<rulebook>/<rule>/``; the TDA rules are shipped as
    summaries: ``/rules/tda-2024/tda-2024-rule-44/``), or None for the house settings (no rulebook)."""
    if not citation.get("rulebook") or citation.get("rulebook") == HOUSE or not citation.get("section"):
        return None
    return f"/rules/{citation['rulebook']}/{number_slug(str(citation['section']))}/"


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
        "raised_by": call.raised_by.username if call.raised_by_id else None,
        "raised_at": call.raised_at.isoformat() if call.raised_at else None,
        "answered_by": call.answered_by.username if call.answered_by_id else None,
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
        "made_by": ruling.made_by.username if ruling.made_by_id else None,
        "made_at": ruling.made_at.isoformat() if ruling.made_at else None,
        "url": ruling.get_absolute_url(),
    }


def open_calls() -> list[dict[str, Any]]:
    """Floor calls not yet ruled or cancelled, oldest first."""
    calls = (
        FloorCall.objects.filter(status__in=[FloorCall.Status.OPEN, FloorCall.Status.ANSWERED])
        .select_related("raised_by", "answered_by")
        .order_by("raised_at")
    )
    return [floor_call_dict(c) for c in calls]


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
    (:class:`poker.floor.procedures.Suggestion`), each citation with its URL."""
    table = Table.objects.select_related("current_hand").get(pk=call.table_id)
    profile = get_profile(table.rules_profile)
    try:
        found = procedures.suggest_rulings(profile, _call_input(call, table))
    except procedures.ProcedureError as exc:
        return [
            {
                "key": "error",
                "title_en": str(exc),
                "title_de": str(exc),
                "explanation_en": "",
                "explanation_de": "",
                "corrections": [],
                "citations": [],
            }
        ]
    result = []
    for suggestion in found:
        data = suggestion.to_dict()
        data["citations"] = [dict(c, url=citation_url(c)) for c in data["citations"]]
        result.append(data)
    return result


def _rules_for(citations: list[dict[str, Any]]) -> list[Rule]:
    rules = []
    books = {b.slug: b for b in Rulebook.objects.all()}
    for c in citations:
        book = books.get(c.get("rulebook"))
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
        seat = table.seats.filter(number=item.get("seat"), player__isnull=False).first()
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
        player_id=seat.player_id, ruling=ruling, table=table, kind=kind, count=count, hands_total=hands
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
    if situation is None:
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


# --------------------------------------------------------------------------- point-and-click corrections

#: The betting actions a correction may point at or put in place.
BETTING_WORDS = ("fold", "check", "call", "bet", "raise", "all_in")

#: The correction types the floor call page offers (``penalty`` goes through a suggestion).
PAGE_CORRECTIONS = ("void", "replace", "adjust", "return_action", "kill", "award", "misdeal")


def correctable_hand(call: FloorCall) -> Hand | None:
    """The hand a correction on this call would change: the call's hand while it is still the table's
    current hand and not misdealt (a correction always goes to the current hand,
    :func:`tables.services.apply_corrections`), else None."""
    if call.hand_id is None:
        return None
    table = Table.objects.select_related("current_hand").get(pk=call.table_id)
    hand = table.current_hand
    if hand is None or hand.id != call.hand_id or hand.status == Hand.Status.MISDEAL:
        return None
    return hand


def seat_names(hand: Hand | None) -> dict[int, str]:
    """``{seat: player name}`` of the players dealt into the hand."""
    if hand is None:
        return {}
    return {s["seat"]: s["player"] for s in (hand.spec.get("seats") or []) if isinstance(s, dict) and "seat" in s}


def _event_rows(hand: Hand) -> list[tuple[int, str, dict]]:
    return list(hand.events.order_by("index").values_list("index", "kind", "payload"))


def _alternatives(legal: dict[str, Any] | None, facing_chips: bool) -> list[dict[str, Any]]:
    """What the player could legally have done (``legal``: the engine's ``Legal.to_dict()`` just
    before his action; ``facing_chips``: somebody has chips in front on this street, blinds
    included, so more chips are a raise, not a bet): ``[{"type", "amount"?, "min"?, "max"?}]``; a
    bet or raise carries its bounds (the amount is picked on the keypad)."""
    if not legal:
        return []
    out: list[dict[str, Any]] = [{"type": "fold"}]
    if legal.get("can_check"):
        out.append({"type": "check"})
    else:
        out.append({"type": "call", "amount": legal.get("call_amount")})
    if legal.get("can_bet_or_raise") and legal.get("min_raise_to"):
        word = "raise" if facing_chips else "bet"
        out.append({"type": word, "min": legal["min_raise_to"], "max": legal.get("max_raise_to")})
    out.append({"type": "all_in", "amount": legal.get("max_raise_to")})
    return out


def correction_options(call: FloorCall) -> dict[str, Any] | None:
    """What the floor can point at on the call page, or None when the call's hand can no longer be
    corrected (:func:`correctable_hand`).

    Returns ``{"hand_id", "actions": [{"index", "seat", "player", "type", "to", "text", "street",
    "alternatives": [...], "later": [indices of the later standing betting actions]}],
    "seats": [{"seat", "player", "folded"}], "misdeal_possible": bool}``; ``actions`` are the
    betting actions that stand, in order, each with the legal alternatives at its moment
    (:func:`_alternatives`, replayed with :mod:`poker.hand.corrections`)."""
    from poker.hand import EngineError, HandState
    from poker.hand import corrections as engine_corrections

    hand = correctable_hand(call)
    if hand is None:
        return None
    names = seat_names(hand)
    rows = _event_rows(hand)
    try:
        effective, _voided, _held, _misdeal = engine_corrections.effective_actions(rows)
        state = HandState.start(table_services.spec_from_dict(hand.spec))
    except (engine_corrections.CorrectionError, ServiceError, EngineError):
        return None
    by_index = {i: {"index": i, "kind": k, "payload": p} for i, k, p in rows}
    actions: list[dict[str, Any]] = []
    for index, action in effective:
        if action.get("type") in BETTING_WORDS and action.get("seat") is not None:
            legal = state.legal().to_dict() if state.phase == "betting" else None
            actions.append(
                {
                    "index": index,
                    "seat": action["seat"],
                    "player": names.get(action["seat"], ""),
                    "type": action["type"],
                    "to": action.get("to"),
                    "street": state.street,
                    "text": handwords.event_text(by_index[index], names, by_index)
                    if index in by_index and by_index[index]["kind"] == "action"
                    else handwords.action_text(action, names),
                    "alternatives": [a for a in _alternatives(legal, any(state.bets)) if a["type"] != action["type"]],
                }
            )
        try:
            state = state.apply(action)
        except EngineError:
            break
    for k, item in enumerate(actions):
        item["later"] = [
            {"index": a["index"], "text": a["text"]} for a in actions[k + 1 :] if a["street"] == item["street"]
        ]
    snapshot = hand.snapshot or {}
    players = snapshot.get("players") or []
    return {
        "hand_id": hand.id,
        "actions": actions,
        "seats": [{"seat": p["seat"], "player": p.get("player", ""), "folded": p.get("folded")} for p in players],
        "misdeal_possible": bool(snapshot.get("misdeal_possible", True)),
    }


def _int_field(data, name: str, label: str, *, required: bool = True) -> int | None:
    raw = str(data.get(name) or "").strip()
    if not raw:
        if required:
            raise ServiceError("invalid", _t("Pick %(what)s.") % {"what": label})
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise ServiceError("invalid", _t("%(what)s must be a whole number.") % {"what": label})
    return int(raw)


def _int_list(data, name: str, label: str) -> list[int]:
    values = data.getlist(name) if hasattr(data, "getlist") else list(data.get(name) or [])
    out = []
    for raw in values:
        raw = str(raw).strip()
        if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
            raise ServiceError("invalid", _t("%(what)s must be whole numbers.") % {"what": label})
        out.append(int(raw))
    return out


def correction_from_form(call: FloorCall, data) -> dict[str, Any]:
    """The correction dict (:mod:`poker.hand.corrections`) the floor picked on the call page.

    ``data`` (a QueryDict or dict): ``ctype`` (one of :data:`PAGE_CORRECTIONS`), ``index`` (the
    picked action's event index), ``action`` (for ``replace``: fold/check/call/bet/raise/all_in),
    ``amount`` (the keypad: ``to`` of a bet, raise or adjustment), ``held`` (for
    ``return_action``: later event indices), ``seat`` (``kill``), ``seats`` (``award``).  The
    seat of a replacement is the picked action's seat (never taken from the form).
    Errors: ``ServiceError('invalid')`` with a message for the floor; ``no_hand`` when the hand can
    no longer be corrected."""
    options = correction_options(call)
    if options is None:
        raise ServiceError("no_hand", _t("The hand of this call can no longer be corrected."))
    ctype = str(data.get("ctype") or "").strip()
    if ctype not in PAGE_CORRECTIONS:
        raise ServiceError("invalid", _t("Pick what the floor corrects."))
    picked = None
    if ctype in ("void", "replace", "adjust", "return_action"):
        index = _int_field(data, "index", _t("the action to correct"))
        picked = next((a for a in options["actions"] if a["index"] == index), None)
        if picked is None:
            raise ServiceError("invalid", _t("Event %(index)s is not an action that stands.") % {"index": index})
    if ctype == "void":
        return {"type": "void", "index": picked["index"]}
    if ctype == "replace":
        word = str(data.get("action") or "").strip()
        allowed = {a["type"]: a for a in picked["alternatives"]}
        if word not in allowed:
            raise ServiceError("invalid", _t("Pick the action that stands instead."))
        action: dict[str, Any] = {"type": word, "seat": picked["seat"]}
        if word in ("bet", "raise"):
            to = _int_field(data, "amount", _t("the amount"))
            low, high = allowed[word]["min"], allowed[word]["max"]
            if to < low or (high is not None and to > high):
                raise ServiceError(
                    "invalid", _t("The amount must be between %(min)s and %(max)s.") % {"min": low, "max": high}
                )
            action["to"] = to
        return {"type": "replace", "index": picked["index"], "action": action}
    if ctype == "adjust":
        if picked["type"] not in ("bet", "raise"):
            raise ServiceError("invalid", _t("Only a bet or a raise can be adjusted."))
        to = _int_field(data, "amount", _t("the amount"))
        if to <= 0:
            raise ServiceError("invalid", _t("The amount must be more than 0."))
        return {"type": "adjust", "index": picked["index"], "to": to}
    if ctype == "return_action":
        later = {a["index"] for a in picked["later"]}
        held = _int_list(data, "held", _t("the later actions"))
        if not set(held) <= later:
            raise ServiceError("invalid", _t("Only later actions of the same betting round can be held."))
        return {"type": "return_action", "index": picked["index"], "held": sorted(set(held))}
    seats_in = {s["seat"] for s in options["seats"]}
    if ctype == "kill":
        seat = _int_field(data, "seat", _t("the seat"))
        if seat not in seats_in:
            raise ServiceError("invalid", _t("Seat %(seat)s is not in the hand.") % {"seat": seat})
        return {"type": "kill", "seat": seat}
    if ctype == "award":
        seats = sorted(set(_int_list(data, "seats", _t("the seats"))))
        if not seats or not set(seats) <= seats_in:
            raise ServiceError("invalid", _t("Pick the seats that get the pot."))
        return {"type": "award", "seats": seats}
    if not options["misdeal_possible"]:
        raise ServiceError("invalid", _t("Substantial action has taken place: a misdeal can no longer be declared."))
    return {"type": "misdeal"}


def preview_correction(call: FloorCall, item: dict[str, Any]) -> dict[str, Any]:
    """The hand as it would stand after the correction ``item``, computed by replaying its events with the
    correction added (:func:`poker.hand.corrections.replay`); changes nothing.

    Returns ``{"ok": True, "state": engine snapshot + "voided", "events": the standing events in words
    (``[{"index", "text", "voided"}]``), "text": the correction in words}`` or ``{"ok": False, "error":
    message}`` when the correction cannot stand (a later recorded action would become illegal: the
    message names it)."""
    from poker.hand import corrections as engine_corrections

    hand = correctable_hand(call)
    if hand is None:
        return {"ok": False, "error": _t("The hand of this call can no longer be corrected.")}
    rows = _event_rows(hand)
    names = seat_names(hand)
    by_index = {i: {"index": i, "kind": k, "payload": p} for i, k, p in rows}
    text = handwords.correction_text(item, names, by_index)
    added = (rows[-1][0] + 1 if rows else 0, "correction", dict(item, ruling=None))
    try:
        result = engine_corrections.replay(table_services.spec_from_dict(hand.spec), [*rows, added])
    except engine_corrections.CorrectionError as exc:
        return {"ok": False, "error": exc.message, "text": text}
    state = result.state.to_dict()
    state["voided"] = sorted(result.voided)
    state["misdeal"] = result.misdeal
    standing = dict(result.effective)
    events = []
    for i, kind, _payload in rows:
        if kind not in ("action", "out_of_turn"):
            continue
        row = {
            "index": i,
            "text": handwords.event_text(by_index[i], names, by_index),
            "voided": i in result.voided and i not in result.held,
            "held": i in result.held,
        }
        now = standing.get(i)
        if now is not None and now.get("corrected_by") is not None:
            row["now"] = handwords.action_text(now, names)
        events.append(row)
    for i, action in result.effective:
        if i not in by_index:
            events.append({"index": i, "text": handwords.action_text(action, names), "new": True})
    return {"ok": True, "state": state, "events": events, "text": text}


def correction_decision(call: FloorCall, item: dict[str, Any]) -> tuple[str, str]:
    """The decision text of a point-and-click correction, in English and in German."""
    hand = call.hand
    names = seat_names(hand)
    by_index = {i: {"index": i, "kind": k, "payload": p} for i, k, p in _event_rows(hand)} if hand else {}
    with translation.override("en"):
        en = handwords.correction_text(item, names, by_index)
    with translation.override("de"):
        de = handwords.correction_text(item, names, by_index)
    return en + ".", de + "."


# --------------------------------------------------------------------------- citations typed by the floor


def parse_citation(text: str, *, check_rule: bool = True) -> dict[str, str]:
    """A citation typed by the floor, as ``{"rulebook", "section", "label"}``.

    Accepted: the written label (``"004 #35"``, ``"000 Aktionen 4"``, ``"TDA 2024 Rule 1"``) or
    ``rulebook:section`` with the rulebook's slug, prefix or seed name (``"munotpoker:#53"``,
    ``"004:53"``, ``"tda-2024:1"`` -> ``TDA 2024 Rule 1``).  A bare number is a 004 rule number
    (``#53``) for munotpoker and a rule number for TDA.  Raises ``ServiceError('invalid')`` for an
    unknown rulebook or an empty section, and (``check_rule``, one query) when the rulebook is loaded
    but has no such rule."""
    from poker.rulebooks import rulebook as find_rulebook

    line = (text or "").strip()
    if not line:
        raise ServiceError("invalid", _t("Write a citation, e.g. 004 #35."))
    try:
        if ":" in line:
            book_name, _sep, section = line.partition(":")
            slug = find_rulebook(book_name).slug
            section = section.strip()
        else:
            citation = Citation.parse(line)
            slug, section = citation.rulebook, citation.section
    except (KeyError, ValueError):
        raise ServiceError(
            "invalid", _t("%(text)s is not a rule citation (write e.g. 004 #35 or tda-2024:35).") % {"text": line}
        ) from None
    if slug == TDA:
        digits = section.split()[-1] if section.split() else ""
        if digits.isdigit():
            section = f"TDA 2024 Rule {int(digits)}"
    elif slug == "munotpoker" and section.isdigit():
        section = f"#{int(section)}"
    if not section:
        raise ServiceError("invalid", _t("%(text)s names no section.") % {"text": line})
    if check_rule and not _rule_exists(slug, section):
        raise ServiceError("invalid", _t("There is no rule %(label)s.") % {"label": Citation(slug, section).label})
    return Citation(slug, section).to_dict()


def _rule_exists(slug: str, section: str) -> bool:
    """True when the rulebook ``slug`` has the rule ``section``, or is not loaded at all (then nothing
    can be checked)."""
    rows = list(
        Rulebook.objects.filter(slug=slug)
        .values_list("rules__slug", flat=True)
        .filter(rules__slug=number_slug(section))
    )
    return bool(rows) or not Rulebook.objects.filter(slug=slug).exists()


def parse_citations(lines: list[str]) -> list[dict[str, str]]:
    """:func:`parse_citation` of each non-empty line or comma-separated item, duplicates dropped."""
    out: list[dict[str, str]] = []
    for line in lines:
        for part in str(line).replace("\n", ",").split(","):
            if part.strip():
                c = parse_citation(part)
                if c not in out:
                    out.append(c)
    return out


# --------------------------------------------------------------------------- searching rulings

#: Floor jargon the rulebooks do not use, searched as the rulebooks' words (German floors say
#: "Overchip" for the oversized chip of 000 Aktionen 4, 001 6.20, 004 #44, TDA 44).
SEARCH_SYNONYMS = {
    "overchip": "oversized",
    "over-chip": "oversized",
    "overchips": "oversized",
    "missdeal": "misdeal",
    "fehlgabe": "misdeal",
}


def search_rulings(
    text: str = "",
    *,
    table: int | None = None,
    player: str = "",
    start=None,
    end=None,
):
    """Rulings matching the filters, newest first (a queryset).

    ``text`` finds a ruling by what it cites or says: a citation (``"004 #35"``, ``"tda-2024:35"``,
    ``"#35"``: every rulebook's rule 35), a word of a cited rule (``"misdeal"``, ``"Overchip"``:
    the rulebook full-text search, :func:`rules.views.search_rules`) or a part of the decision
    (English or German).  ``table``: table id; ``player``: part of a player's name; ``start`` /
    ``end``: dates (inclusive)."""
    from rules.views import search_rules

    qs = Ruling.objects.all()
    text = (text or "").strip()
    if text:
        match = Q(decision__icontains=text) | Q(decision_de__icontains=text)
        cited = None
        try:
            cited = parse_citation(text, check_rule=False)
        except ServiceError:
            cited = None
        if cited is not None:
            match |= Q(citations__contains=[{"rulebook": cited["rulebook"], "section": cited["section"]}])
        number = text if text.startswith("#") else None
        if number and number[1:].isdigit():
            match |= Q(citations__contains=[{"section": number}])
            match |= Q(citations__contains=[{"section": f"TDA 2024 Rule {int(number[1:])}"}])
        if cited is None:
            words = SEARCH_SYNONYMS.get(text.lower(), text)
            rule_ids = list(search_rules(words).values_list("pk", flat=True)[:200])
            if rule_ids:
                match |= Q(pk__in=Ruling.rules.through.objects.filter(rule_id__in=rule_ids).values("ruling_id"))
        qs = qs.filter(match)
    if table is not None:
        qs = qs.filter(table_id=table)
    if player:
        qs = qs.filter(pk__in=Ruling.players.through.objects.filter(player__name__icontains=player).values("ruling_id"))
    if start:
        qs = qs.filter(made_at__date__gte=start)
    if end:
        qs = qs.filter(made_at__date__lte=end)
    return qs.order_by("-made_at")


def ruling_view(ruling: Ruling) -> dict[str, Any]:
    """A ruling for its page: citations with their rules' summaries in the page's language, the
    corrections in words, the decision in the page's language."""
    german = (translation.get_language() or "en").startswith("de")
    hand = ruling.hand
    names = seat_names(hand) or {
        s.number: s.player.name for s in ruling.table.seats.select_related("player") if s.player_id is not None
    }
    by_index = {i: {"index": i, "kind": k, "payload": p} for i, k, p in _event_rows(hand)} if hand else {}
    rules = {(r.rulebook.slug, r.number): r for r in ruling.rules.select_related("rulebook")}
    citations = []
    for c in ruling.citations:
        rule = rules.get((c.get("rulebook"), c.get("section")))
        citations.append(
            dict(
                c,
                url=citation_url(c),
                title=rule.title_in(translation.get_language()) if rule else "",
                summary=rule.summary(translation.get_language()) if rule else "",
            )
        )
    return {
        "decision": (ruling.decision_de if german and ruling.decision_de else ruling.decision),
        "other_decision": (ruling.decision if german and ruling.decision_de else ruling.decision_de),
        "citations": citations,
        "corrections": [handwords.correction_text(c, names, by_index) for c in ruling.corrections],
    }
