"""A hand's events in words, for the pages that show a hand (the hand page, the floor call page).

``event_text({"index": 2, "kind": "action", "payload": {"type": "raise", "seat": 3, "to": 60}}, names)``
is ``"Ben (3) raises to 60"`` in English and ``"Ben (3) erhöht auf 60"`` in German (Django's active
language). Every event the engine and the services append has words of its own (``tests/rules/test_words_events.py``
walks one of each kind in both languages):

- ``start``; ``action`` with the engine's types (hold'em: fold, check, call, bet, raise, all_in, hole,
  board, run_it_twice, show, muck, award, kill, floor_award; Seven Card Stud: deal, bring_in,
  complete), a time expiry (``cause: "time"``, 004 #29, 001 6.13) and a held out-of-turn action made
  binding (``out_of_turn``, 000 Aktionen 2, 002 #8, 004 #53);
- ``out_of_turn`` (an action held for its turn), ``note`` (``out_of_turn_released``; ``procedure``: a
  guided procedure the dealer finished at the table, with its summary and citations), ``clock``
  (``time_called``);
- ``correction`` in the vocabulary of :mod:`poker.hand.corrections` (void, undo, replace, adjust,
  return_action, kill, award, misdeal, penalty).

A correction names the action it points at by its words and street ("Void: Ben (3) raises to 60
on the flop"), never by an event number. :func:`events_in_words` also marks what no longer stands
(voided, taken back, replaced or adjusted, held for its turn), read from the replay's fold of the
corrections (:func:`poker.hand.corrections.effective_actions`).

``rules.handwords`` re-exports this module for the floor pages.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from poker.hand import corrections as engine_corrections
from poker.rulebooks import Citation

__all__ = [
    "names_of",
    "seat_name",
    "action_text",
    "event_text",
    "correction_text",
    "events_in_words",
    "phase_text",
    "street_text",
]

#: Hold'em streets by the number of boards dealt before an action.
HOLDEM_STREETS = ("preflop", "flop", "turn", "river")
#: Seven Card Stud streets by the number of deals before an action (0: the antes).
STUD_STREETS = ("ante", "third", "fourth", "fifth", "sixth", "seventh")


def names_of(spec: dict[str, Any] | None) -> dict[int, str]:
    """``{seat: player name}`` of the players dealt into a hand (its stored ``spec``)."""
    seats = (spec or {}).get("seats") or []
    return {s["seat"]: s.get("player", "") for s in seats if isinstance(s, dict) and "seat" in s}


def seat_name(seat: Any, names: dict[int, str] | None = None) -> str:
    """``"Ben (3)"`` (``"Seat 3"`` when the name is unknown)."""
    name = (names or {}).get(seat) if isinstance(seat, int) else None
    if name:
        return _("%(name)s (%(seat)s)") % {"seat": seat, "name": name}
    return _("Seat %(seat)s") % {"seat": seat}


def _seats(seats: Any, names: dict[int, str] | None) -> str:
    if not isinstance(seats, (list, tuple)):
        return seat_name(seats, names)
    return ", ".join(seat_name(s, names) for s in seats)


def _words(value: Any) -> str:
    return str(value or "").replace("_", " ")


def street_text(street: str | None) -> str:
    """When an action was taken, to follow it: ``"preflop"``, ``"on the flop"``, ``"on third street"``
    (``""`` when unknown)."""
    words = {
        "preflop": _("preflop"),
        "flop": _("on the flop"),
        "turn": _("on the turn"),
        "river": _("on the river"),
        "ante": _("before the deal"),
        "third": _("on third street"),
        "fourth": _("on fourth street"),
        "fifth": _("on fifth street"),
        "sixth": _("on sixth street"),
        "seventh": _("on seventh street"),
    }
    return words.get(street or "", "")


def _cards(cards: Any) -> str:
    """``"AsKs"`` -> ``"As Ks"``; unknown cards (``"????"``) -> ``""``; a stud deal's ``{seat: cards}`` -> ``""``."""
    if not isinstance(cards, str) or not cards or set(cards) <= {"?"}:
        return ""
    return " ".join(cards[i : i + 2] for i in range(0, len(cards), 2))


def _kill_text(action: dict[str, Any], who: str) -> str:
    reason = action.get("reason")
    if reason == "absent":
        return _("%(who)s: hand dead, the player is away from the table") % {"who": who}
    if reason == "penalty":
        return _("%(who)s: hand dead, the player sits out a penalty") % {"who": who}
    return _("%(who)s: hand dead") % {"who": who}


def _base_action_text(action: dict[str, Any], names: dict[int, str] | None) -> str:
    kind = action.get("type")
    who = seat_name(action.get("seat"), names) if action.get("seat") is not None else ""
    params = {"who": who, "to": action.get("to"), "cards": _cards(action.get("cards"))}
    simple = {
        "fold": _("%(who)s folds"),
        "check": _("%(who)s checks"),
        "call": _("%(who)s calls"),
        "bet": _("%(who)s bets %(to)s"),
        "raise": _("%(who)s raises to %(to)s"),
        "all_in": _("%(who)s goes all-in"),
        "muck": _("%(who)s mucks"),
        "bring_in": _("%(who)s brings in"),
        "complete": _("%(who)s completes to %(to)s"),
    }
    if kind in simple:
        return simple[kind] % params
    if kind == "hole":
        return _("%(who)s is dealt %(cards)s") % params if params["cards"] else _("%(who)s is dealt cards") % params
    if kind == "board":
        return _("Board: %(cards)s") % params if params["cards"] else _("The next board cards are dealt")
    if kind == "deal":
        return _("The next street is dealt")
    if kind == "show":
        return _("%(who)s shows %(cards)s") % params if params["cards"] else _("%(who)s shows") % params
    if kind == "award":
        return _("Pot %(pot)s goes to %(seats)s") % {
            "pot": (action.get("pot") or 0) + 1,
            "seats": _seats(action.get("winners"), names),
        }
    if kind == "kill":
        return _kill_text(action, who)
    if kind == "floor_award":
        return _("The floor gives the pot to %(seats)s") % {"seats": _seats(action.get("seats"), names)}
    if kind == "run_it_twice":
        return _("Run it twice, agreed by %(seats)s") % {"seats": _seats(action.get("agreed") or [], names)}
    if kind == "start":
        return _("Hand starts, button on seat %(seat)s") % {"seat": action.get("button")}
    if kind == "time_called":
        return _("Time called on %(who)s") % params
    if kind == "time_expired":
        return _("Time ran out for %(who)s") % params
    text = _words(kind)
    return f"{who}: {text}" if who else text.capitalize()


def action_text(action: dict[str, Any], names: dict[int, str] | None = None) -> str:
    """One engine action in words: ``"Ben (3) raises to 60"``, ``"Board: Jc 3d 5c"``; a time expiry
    says so (``"Ben (3) folds: time ran out"``), a held out-of-turn action made binding too."""
    text = _base_action_text(action, names)
    if action.get("cause") == "time":
        return _("%(action)s: time ran out") % {"action": text}
    if action.get("out_of_turn") is not None:
        return _("%(action)s (the action taken out of turn stands)") % {"action": text}
    return text


def _target(index: Any, names: dict[int, str] | None, events: dict | None, fallback: dict | None = None) -> str:
    """The action an event index points at, in words with its street: ``"Ben (3) raises to 60 on the flop"``."""
    event = (events or {}).get(index)
    action = None
    if event is not None and event.get("kind") == "action":
        action = event.get("payload") or {}
    elif event is not None and event.get("kind") == "out_of_turn":
        action = (event.get("payload") or {}).get("action") or {}
    elif fallback:
        action = fallback
    if not action:
        return _("an earlier action")
    text = action_text(action, names)
    when = street_text((event or {}).get("street"))
    return f"{text} {when}" if when else text


def correction_text(payload: dict[str, Any], names: dict[int, str] | None = None, events: dict | None = None) -> str:
    """A floor correction in words: ``"Replace “Ben (7) raises to 6 preflop” with: Ben (7) calls"``.

    ``events``: ``{index: event dict}`` of the hand (with ``street`` from :func:`events_in_words` when
    known), to name the action a correction points at."""
    ctype = payload.get("type")
    index = payload.get("index")
    target = _target(index, names, events, payload.get("action") if ctype == "undo" else None)
    if ctype == "void":
        return _("Void: %(target)s") % {"target": target}
    if ctype == "undo":
        return _("Taken back by the dealer: %(target)s") % {"target": target}
    if ctype == "replace":
        return _("Replace “%(target)s” with: %(action)s") % {
            "target": target,
            "action": action_text(payload.get("action") or {}, names),
        }
    if ctype == "adjust":
        return _("Adjust “%(target)s” to %(to)s") % {"target": target, "to": payload.get("to")}
    if ctype == "return_action":
        held = payload.get("held") or []
        return ngettext(
            "Return the action: void “%(target)s” and hold %(count)s later action for its turn",
            "Return the action: void “%(target)s” and hold %(count)s later actions for their turn",
            len(held),
        ) % {"target": target, "count": len(held)}
    if ctype == "kill":
        return _("Kill the hand of %(who)s") % {"who": seat_name(payload.get("seat"), names)}
    if ctype == "award":
        return _("Award the pot to %(seats)s") % {"seats": _seats(payload.get("seats"), names)}
    if ctype == "misdeal":
        return _("Misdeal: every chip goes back and the hand is dealt again")
    if ctype == "penalty":
        kinds = {
            "warning": _("warning"),
            "sit_out_hands": _("sit out hands"),
            "sit_out_orbits": _("sit out orbits"),
            "disqualification": _("disqualification"),
        }
        return _("Penalty for %(who)s: %(kind)s") % {
            "who": seat_name(payload.get("seat"), names),
            "kind": kinds.get(str(payload.get("kind")), _words(payload.get("kind"))),
        }
    return _words(ctype).capitalize()


def _rules_cited(payload: dict[str, Any]) -> str:
    """`` (004 #35)``: the rules a dealer's procedure followed, in the page's language ("TDA 2024
    Regel 35" in German), or "" when none is cited."""
    labels = []
    for c in payload.get("citations") or []:
        if not isinstance(c, dict):
            continue
        if c.get("rulebook") and c.get("section"):
            labels.append(Citation(str(c["rulebook"]), str(c["section"])).label_in(get_language() or "en"))
        elif c.get("label"):
            labels.append(str(c["label"]))
    return f" ({', '.join(labels)})" if labels else ""


def event_text(event: dict[str, Any], names: dict[int, str] | None = None, events: dict | None = None) -> str:
    """One hand event (``tables.services.hand_events`` shape) in words."""
    kind = event.get("kind")
    payload = event.get("payload") or {}
    if kind == "correction":
        if payload.get("type") == "undo":
            return correction_text(payload, names, events)
        if payload.get("by") == "dealer":  # a misdeal the house rules let the dealer declare (issue 24)
            return _("Dealer, by the house rules: %(correction)s") % {
                "correction": correction_text(payload, names, events)
            } + _rules_cited(payload)
        return _("Floor: %(correction)s") % {"correction": correction_text(payload, names, events)}
    if kind == "out_of_turn":
        return _("Out of turn: %(action)s (held for its turn)") % {
            "action": action_text(payload.get("action") or {}, names)
        }
    if kind == "note" and payload.get("type") == "out_of_turn_released":
        held = (events or {}).get(payload.get("of")) or {}
        action = (held.get("payload") or {}).get("action") if held.get("kind") == "out_of_turn" else None
        if action:
            return _("The out-of-turn action “%(action)s” does not stand: the action changed") % {
                "action": action_text(action, names)
            }
        return _("%(who)s: the out-of-turn action does not stand") % {"who": seat_name(payload.get("seat"), names)}
    if kind == "note" and payload.get("type") == "procedure":  # finished at the table (issue 24)
        summary = payload.get("summary_de") if get_language().startswith("de") else payload.get("summary_en")
        return _("Dealer, by the house rules: %(summary)s") % {
            "summary": summary or payload.get("summary_en") or ""
        } + _rules_cited(payload)
    if kind == "clock" and payload.get("type") == "time_called":
        return _("Time called on %(who)s: %(seconds)s seconds") % {
            "who": seat_name(payload.get("seat"), names),
            "seconds": payload.get("seconds"),
        }
    if kind == "start":
        return _("Hand starts, button on seat %(seat)s") % {"seat": payload.get("button")}
    return action_text(payload, names)


def _streets(events: list[dict[str, Any]], game: str | None) -> dict[Any, str]:
    """Event index -> the street it was recorded on (by the boards or stud deals recorded before it)."""
    stud = game == "stud"
    names = STUD_STREETS if stud else HOLDEM_STREETS
    dealt, out = 0, {}
    for e in events:
        out[e.get("index")] = names[min(dealt, len(names) - 1)]
        payload = e.get("payload") or {}
        if e.get("kind") == "action" and payload.get("type") == ("deal" if stud else "board"):
            dealt += 1
    return out


def events_in_words(
    events: list[dict[str, Any]], names: dict[int, str] | None = None, game: str | None = None
) -> list[dict[str, Any]]:
    """The events (``tables.services.hand_events`` shape) with words and what stands, each a copy with:

    ``text`` (:func:`event_text`), ``street`` (``"preflop"`` ... ``"river"``, stud ``"third"`` ...),
    ``street_label`` (``"Flop"``), ``when`` (``at`` as a datetime, shown in the room's time zone),
    ``status``: ``""`` (stands), ``"voided"`` (a floor correction voided it), ``"undone"`` (the
    dealer took it back), ``"held"`` (an out-of-turn action waiting for its turn), ``"replaced"``
    (a correction changed it; ``now`` is what stands instead) or ``"released"`` (a held action
    that did not stand); ``status_text`` says it in words. ``game``: ``"stud"`` for Seven Card Stud."""
    streets = _streets(events, game)
    by_index = {e.get("index"): dict(e, street=streets.get(e.get("index"))) for e in events}
    rows = [(e["index"], e["kind"], e.get("payload") or {}) for e in events]  # every stored event has both
    try:
        effective, voided, held, _misdeal = engine_corrections.effective_actions(rows)
    except engine_corrections.CorrectionError:
        effective, voided, held = [], set(), {}
    undone = {(p or {}).get("index") for _i, k, p in rows if k == "correction" and (p or {}).get("type") == "undo"}
    binding = {(p or {}).get("out_of_turn") for _i, k, p in rows if k == "action"}
    released = {(p or {}).get("of") for _i, k, p in rows if k == "note"}
    standing = dict(effective)
    labels = {
        "preflop": _("Preflop"),
        "flop": _("Flop"),
        "turn": _("Turn"),
        "river": _("River"),
        "ante": _("Antes"),
        "third": _("Third street"),
        "fourth": _("Fourth street"),
        "fifth": _("Fifth street"),
        "sixth": _("Sixth street"),
        "seventh": _("Seventh street"),
    }
    out = []
    for e in events:
        index, kind = e["index"], e.get("kind")
        row = dict(by_index[index], text=event_text(e, names, by_index))
        row["street_label"] = labels.get(row["street"], "")
        row["status"], row["status_text"], row["now"] = "", "", ""
        now = standing.get(index)
        if kind == "out_of_turn":
            if index in held:
                row["status"], row["status_text"] = "held", _("held for its turn")
            elif index in binding:
                row["status"], row["status_text"] = "binding", _("stands: recorded when its turn came")
            elif index in released:
                row["status"], row["status_text"] = "released", _("did not stand")
        elif kind == "action" and index in held:
            row["status"], row["status_text"] = "held", _("held for its turn")
        elif kind == "action" and index in undone:
            row["status"], row["status_text"] = "undone", _("taken back")
        elif kind == "action" and index in voided:
            row["status"], row["status_text"] = "voided", _("voided")
        elif now is not None and now.get("corrected_by") is not None:
            row["status"], row["status_text"] = "replaced", _("corrected")
            row["now"] = action_text({k: v for k, v in now.items() if k != "corrected_by"}, names)
        at = e.get("at")
        try:
            row["when"] = datetime.fromisoformat(at) if isinstance(at, str) else at
        except ValueError:
            row["when"] = None
        out.append(row)
    return out


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
    street = streets.get(str(state.get("street")), _words(state.get("street")).capitalize())
    phase = phases.get(str(state.get("phase")), _words(state.get("phase")))
    return f"{street}, {phase}"
