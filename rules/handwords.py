"""A hand's events and a ruling's corrections in words, for the floor pages.

``event_text({"index": 2, "kind": "action", "payload": {"type": "raise", "seat": 3, "to": 60}}, names)``
is ``"Seat 3 (Ben) raises to 60"`` in English and ``"Platz 3 (Ben) erhöht auf 60"`` in German (Django's
active language). Events use the vocabulary of ``tables.models.HandEvent`` (kinds ``start``,
``action``, ``out_of_turn``, ``note``, ``clock``, ``correction``); corrections that of
:mod:`poker.hand.corrections`. Anything unknown is shown by its words (``"time_expired"`` ->
``"time expired"``), never as raw data.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

__all__ = ["seat_name", "action_text", "event_text", "correction_text", "events_in_words", "phase_text"]


def seat_name(seat: Any, names: dict[int, str] | None = None) -> str:
    """``"Seat 3 (Ben)"`` (``"Seat 3"`` when the name is unknown)."""
    name = (names or {}).get(seat) if isinstance(seat, int) else None
    if name:
        return _("Seat %(seat)s (%(name)s)") % {"seat": seat, "name": name}
    return _("Seat %(seat)s") % {"seat": seat}


def _seats(seats: Any, names: dict[int, str] | None) -> str:
    if not isinstance(seats, (list, tuple)):
        return str(seats)
    return ", ".join(seat_name(s, names) for s in seats)


def _words(value: Any) -> str:
    return str(value or "").replace("_", " ")


def action_text(action: dict[str, Any], names: dict[int, str] | None = None) -> str:
    """One engine action in words: ``"Seat 3 (Ben) raises to 60"``, ``"Board: Jc 3d 5c"``."""
    kind = action.get("type")
    who = seat_name(action.get("seat"), names) if action.get("seat") is not None else ""
    params = {"who": who, "to": action.get("to"), "cards": _cards(action.get("cards"))}
    if kind == "fold":
        return _("%(who)s folds") % params
    if kind == "check":
        return _("%(who)s checks") % params
    if kind == "call":
        return _("%(who)s calls") % params
    if kind == "bet":
        return _("%(who)s bets %(to)s") % params
    if kind == "raise":
        return _("%(who)s raises to %(to)s") % params
    if kind == "all_in":
        return _("%(who)s goes all-in") % params
    if kind == "hole":
        return _("%(who)s is dealt %(cards)s") % params if params["cards"] else _("%(who)s is dealt cards") % params
    if kind == "board":
        return _("Board: %(cards)s") % params if params["cards"] else _("The next board cards are dealt")
    if kind == "show":
        return _("%(who)s shows %(cards)s") % params if params["cards"] else _("%(who)s shows") % params
    if kind == "muck":
        return _("%(who)s mucks") % params
    if kind == "award":
        return _("Pot %(pot)s goes to %(seats)s") % {
            "pot": (action.get("pot") or 0) + 1,
            "seats": _seats(action.get("winners"), names),
        }
    if kind == "kill":
        return _("%(who)s: hand killed") % params
    if kind == "floor_award":
        return _("The floor gives the pot to %(seats)s") % {"seats": _seats(action.get("seats"), names)}
    if kind == "run_it_twice":
        return _("Run it twice")
    if kind == "start":
        return _("Hand starts, button on seat %(seat)s") % {"seat": action.get("button")}
    if kind == "time_called":
        return _("Time called on %(who)s") % params
    if kind == "time_expired":
        return _("Time ran out for %(who)s") % params
    text = _words(kind)
    return f"{who}: {text}" if who else text.capitalize()


def _cards(cards: Any) -> str:
    """``"AsKs"`` -> ``"As Ks"``; unknown cards (``"????"``) -> ``""``."""
    if not isinstance(cards, str) or not cards or set(cards) <= {"?"}:
        return ""
    return " ".join(cards[i : i + 2] for i in range(0, len(cards), 2))


def correction_text(payload: dict[str, Any], names: dict[int, str] | None = None, events: dict | None = None) -> str:
    """A floor correction in words: ``"Event 2 (Seat 7 raises to 6) replaced: Seat 7 calls"``.

    ``events``: ``{index: event dict}`` of the hand, to name the action a correction points at."""
    ctype = payload.get("type")
    index = payload.get("index")
    target = ""
    if index is not None:
        event = (events or {}).get(index)
        target = _("event %(index)s") % {"index": index}
        if event is not None and event.get("kind") == "action":
            target = _("event %(index)s (%(action)s)") % {
                "index": index,
                "action": action_text(event.get("payload") or {}, names),
            }
    if ctype == "void":
        return _("Void %(target)s") % {"target": target}
    if ctype == "replace":
        return _("Replace %(target)s with: %(action)s") % {
            "target": target,
            "action": action_text(payload.get("action") or {}, names),
        }
    if ctype == "adjust":
        return _("Adjust %(target)s to %(to)s") % {"target": target, "to": payload.get("to")}
    if ctype == "return_action":
        held = payload.get("held") or []
        return ngettext(
            "Return the action: void %(target)s and hold %(count)s later action for its turn",
            "Return the action: void %(target)s and hold %(count)s later actions for their turn",
            len(held),
        ) % {"target": target, "count": len(held)}
    if ctype == "kill":
        return _("Kill the hand of %(who)s") % {"who": seat_name(payload.get("seat"), names)}
    if ctype == "award":
        return _("Award the pot to %(seats)s") % {"seats": _seats(payload.get("seats"), names)}
    if ctype == "misdeal":
        return _("Misdeal: every chip goes back, the hand is dealt again")
    if ctype == "penalty":
        return _("Penalty for %(who)s: %(kind)s") % {
            "who": seat_name(payload.get("seat"), names),
            "kind": _words(payload.get("kind")),
        }
    return _words(ctype).capitalize()


def event_text(event: dict[str, Any], names: dict[int, str] | None = None, events: dict | None = None) -> str:
    """One hand event (``tables.services.hand_events`` shape) in words."""
    kind = event.get("kind")
    payload = event.get("payload") or {}
    if kind == "correction":
        return _("Floor: %(correction)s") % {"correction": correction_text(payload, names, events)}
    if kind == "out_of_turn":
        return _("Out of turn: %(action)s (held)") % {"action": action_text(payload.get("action") or {}, names)}
    if kind == "note" and payload.get("type") == "out_of_turn_released":
        return _("The out-of-turn action of event %(index)s is released") % {"index": payload.get("of")}
    return action_text(payload, names)


def events_in_words(events: list[dict[str, Any]], names: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """The events with a ``text`` key added (the list is copied, the dicts too)."""
    by_index = {e.get("index"): e for e in events}
    return [dict(e, text=event_text(e, names, by_index)) for e in events]


def phase_text(state: dict[str, Any] | None) -> str:
    """Where a hand stands, in words: ``"Flop, betting"``, ``"Hand complete"``, ``"Misdeal"``."""
    if not state:
        return ""
    if state.get("misdeal"):
        return _("Misdeal")
    if state.get("phase") == "complete":
        return _("Hand complete")
    streets = {"preflop": _("Preflop"), "flop": _("Flop"), "turn": _("Turn"), "river": _("River")}
    phases = {"betting": _("betting"), "board": _("deal the board"), "showdown": _("showdown")}
    street = streets.get(state.get("street"), _words(state.get("street")).capitalize())
    phase = phases.get(state.get("phase"), _words(state.get("phase")))
    return f"{street}, {phase}"
