"""Point-and-click corrections on the floor call page: the hand's actions a
floorman may pick, the legal alternatives, the correction built from the
page's form, its preview (the hand replayed with it) and the decision text.
Applied by :func:`rules.services.make_ruling`.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _t

from rules import handwords
from rules.models import FloorCall
from tables import services as table_services
from tables.models import Hand, Table
from tables.services import ServiceError

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


def events_by_index(hand: Hand | None, rows: list[tuple[int, str, dict]] | None = None) -> dict[int, dict]:
    """``{index: event}`` of a hand with each event's street (:func:`tables.handwords.events_in_words`),
    for the words that name an action a correction points at."""
    if hand is None:
        return {}
    rows = _event_rows(hand) if rows is None else rows
    events = [{"index": i, "kind": k, "payload": p} for i, k, p in rows]
    return {e["index"]: e for e in handwords.events_in_words(events, seat_names(hand), hand.spec.get("game"))}


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
    if (
        legal.get("can_bet_or_raise")
        and legal.get("min_raise_to")
        and legal["min_raise_to"] != legal.get("max_raise_to")
    ):
        # (a raise whose least is the whole stack is the all-in below, offered once)
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
    from poker.hand import EngineError, start_hand
    from poker.hand import corrections as engine_corrections

    hand = correctable_hand(call)
    if hand is None:
        return None
    names = seat_names(hand)
    rows = _event_rows(hand)
    try:
        effective, _voided, _held, _misdeal = engine_corrections.effective_actions(rows)
        state = start_hand(table_services.spec_from_dict(hand.spec))
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


def _required_int(data, name: str, label: str) -> int:
    """``_int_field`` of a field the form must give: the whole number, or ``ServiceError("invalid")``."""
    value = _int_field(data, name, label)
    assert value is not None  # required: _int_field raised for an empty field
    return value


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
    picked: dict[str, Any] = {}  # the action corrected (void, replace, adjust, return_action)
    if ctype in ("void", "replace", "adjust", "return_action"):
        index = _int_field(data, "index", _t("the action to correct"))
        found = next((a for a in options["actions"] if a["index"] == index), None)
        if found is None:
            raise ServiceError("invalid", _t("Event %(index)s is not an action that stands.") % {"index": index})
        picked = found
    if ctype == "void":
        return {"type": "void", "index": picked["index"]}
    if ctype == "replace":
        word = str(data.get("action") or "").strip()
        allowed = {a["type"]: a for a in picked["alternatives"]}
        if word not in allowed:
            raise ServiceError("invalid", _t("Pick the action that stands instead."))
        action: dict[str, Any] = {"type": word, "seat": picked["seat"]}
        if word in ("bet", "raise"):
            to = _required_int(data, "amount", _t("the amount"))
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
        to = _required_int(data, "amount", _t("the amount"))
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
    by_index = events_by_index(hand, rows)
    text = handwords.correction_text(item, names, by_index)
    added = (rows[-1][0] + 1 if rows else 0, "correction", dict(item, ruling=None))
    try:
        result = engine_corrections.replay(table_services.spec_from_dict(hand.spec), [*rows, added])
    except engine_corrections.CorrectionError as exc:
        return {"ok": False, "error": conflict_text(hand, exc.code, exc.message), "text": text}
    state = result.state.to_dict()
    state["voided"] = sorted(result.voided)
    state["misdeal"] = result.misdeal
    if result.misdeal:
        state = _void_state(state)
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


def _void_state(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` (an engine snapshot) as a misdeal leaves the hand: void, every chip back in the stack
    it was dealt with, nothing in front, no pot, no board, nobody to act (001 6.25, 003 "Miss-Deal",
    004 #35; ``tables.services.floor`` marks the hand ``misdeal`` and the redeal keeps the button)."""
    players = [dict(p, stack=p["starting_stack"], bet=0, folded=False, all_in=False) for p in state.get("players", [])]
    return dict(
        state,
        players=players,
        pots=[],
        total_pot=0,
        board=[],
        board2=None if state.get("board2") is None else [],
        to_act=None,
        to_act_seat=None,
        legal=None,
        awards=[],
        substantial_action=False,
    )


def conflict_text(hand: Hand | None, code: str, message: str) -> str:
    """A correction the replay refuses, in words for the floor (never the engine's message): for a
    ``correction_conflict`` the later action that would no longer be legal, named by its words and
    street (the engine's message names its event index)."""
    import re

    found = re.search(r"as event (\d+)", message or "") if code == "correction_conflict" else None
    if found is None or hand is None:
        return _t("This correction cannot stand with the actions recorded after it.")
    event = events_by_index(hand).get(int(found.group(1)))
    if event is None:
        return _t("This correction cannot stand with the actions recorded after it.")
    when = handwords.street_text(event.get("street"))
    action = f"{event['text']} {when}" if when else event["text"]
    return _t("This correction cannot stand: “%(action)s” would no longer be legal. Correct or void it too.") % {
        "action": action
    }


def correction_decision(call: FloorCall, item: dict[str, Any]) -> tuple[str, str]:
    """The decision text of a point-and-click correction, in English and in German."""
    hand = call.hand
    names = seat_names(hand)
    by_index = events_by_index(hand)
    with translation.override("en"):
        en = handwords.correction_text(item, names, by_index)
    with translation.override("de"):
        de = handwords.correction_text(item, names, by_index)
    return en + ".", de + "."
