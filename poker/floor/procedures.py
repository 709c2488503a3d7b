"""Floor procedures under a house-rule profile (standard library only: no Django here).

What the floor app computes when somebody calls the floor:

- :func:`suggest_rulings`: ranked :class:`Suggestion` s (with corrections in the
  correction vocabulary of ``poker/hand/corrections.py``) for a floor call;
- :func:`resolve_out_of_turn`: what a held out-of-turn action becomes when the
  player's turn comes (000 Aktionen 2, 001 6.19, 002 #8, 003 "Ausserordentliche
  und ordentliche Handlungen der Spieler", 004 #53, TDA 53);
- :func:`clock_policy` and :func:`time_expired`: "time" called on a player
  (001 6.13, 004 #29, TDA 29);
- :func:`procedures_for` and :func:`walk`: guided step-by-step procedures for
  the dealer tablet (premature and irregular boards, exposed cards, misdeals;
  000 Allgemein 9, 001 6.25, 003 "Miss-Deal"/"Burn Cards", 004 #35-#39);
- :func:`penalty_options`, :func:`hands_for_penalty` and
  :func:`sit_out_rule`: penalties (000 Strafen 1-4, 001 6.37, 004 #71, TDA 71).

Which rule applies is read from the profile's parameters (``poker.houserules``),
so a table plays by whichever rulebook it is configured with; texts that only
one rulebook has are chosen by ``profile.rulebook``. Every result carries
English and German text and the :class:`~poker.houserules.Citation` s of the
rules applied. Chips are ints. Shapes are documented in ``docs/procedures.md``.

Correction vocabulary (dicts, applied by ``poker.hand.corrections``)::

    {"type": "void", "index": i}
    {"type": "replace", "index": i, "action": {...}}
    {"type": "adjust", "index": i, "to": N}
    {"type": "return_action", "index": i, "held": [j, ...]}
    {"type": "kill", "seat": S}
    {"type": "award", "seats": [S, ...]}
    {"type": "misdeal"}
    {"type": "penalty", "seat": S, "kind": "warning"|"sit_out_hands"|"sit_out_orbits"|"disqualification", "count": n}

In the guided procedures (which know no seat) a correction may carry
``"seat": None``: the tablet fills in the seat concerned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from poker.houserules import Citation, HouseRules, cite, is_substantial_action, misdeal_still_possible

__all__ = [
    "ProcedureError", "Suggestion", "OutOfTurnResult", "ClockPolicy", "TimeExpiry",
    "Procedure", "Step", "Option", "Outcome", "PenaltyOption", "SitOutRule",
    "REASONS", "BETTING", "PENALTY_KINDS",
    "suggest_rulings", "resolve_out_of_turn", "clock_policy", "time_expired",
    "procedures_for", "get_procedure", "walk", "penalty_options", "hands_for_penalty", "sit_out_rule",
]

#: Floor-call reasons understood by :func:`suggest_rulings`.
REASONS = ("out_of_turn", "chip_action", "misdeal", "exposed_card", "premature_board", "time", "dispute", "other")
#: Engine action types that are betting actions.
BETTING = ("fold", "check", "call", "bet", "raise", "all_in")
#: Penalty kinds, mildest first.
PENALTY_KINDS = ("warning", "sit_out_hands", "sit_out_orbits", "disqualification")


class ProcedureError(ValueError):
    """Bad input: ``code`` is a machine word (``"bad_call"``, ``"bad_action"``,
    ``"unknown_procedure"``, ``"bad_answer"``, ``"bad_penalty"``), the message
    says what is wrong. Nothing is changed when it is raised."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


# --------------------------------------------------------------------------- citations
_r = Citation.parse
"""``_r("004 #44")``: the citation written as its label (:func:`poker.rulebooks.cite`)."""


#: Rules that only some books have, by rulebook slug (None = the TDA base).
_BOOK_RULES: dict[str, dict[str | None, tuple[Citation, ...]]] = {
    "floor_discretion": {
        "casino-cash": (_r("000 Allgemein 1"),),
        "wynental": (_r("001 Floorman"),),
        "betting-rules": (_r("002 #5"),),
        "nlhe": (_r("003 Auslegung"),),
        "munotpoker": (_r("004 #1"),),
        None: (_r("TDA 2024 Rule 1"),),
    },
    "player_exposes": {
        "casino-cash": (_r("000 Aktionen 10"),),
        "wynental": (_r("001 6.32"), _r("001 6.37")),
        "nlhe": (_r("003 Hole Cards"),),
        "munotpoker": (_r("004 #68"),),
        None: (_r("TDA 2024 Rule 68"),),
    },
    "oot_penalty": {
        "casino-cash": (_r("000 Aktionen 2"), _r("000 Strafen 2")),
        "wynental": (_r("001 6.31"),),
        "betting-rules": (_r("002 #8"),),
        "munotpoker": (_r("004 #53"),),
        None: (_r("TDA 2024 Rule 53"),),
    },
    "misdeal_replay": {
        "munotpoker": (_r("004 #35"),),
        None: (_r("TDA 2024 Rule 35"),),
    },
    "button_short": {
        "munotpoker": (_r("004 #37"),),
        None: (_r("TDA 2024 Rule 37"),),
    },
    "disputes": {
        "casino-cash": (_r("000 Aktionen 9"), _r("000 Allgemein 1")),
        "nlhe": (_r("003 Einwände"),),
        "munotpoker": (_r("004 #22"), _r("004 #1")),
        "wynental": (_r("001 Floorman"),),
        None: (_r("TDA 2024 Rule 1"),),
    },
}


def _book(profile: HouseRules, topic: str) -> list[Citation]:
    """Citations of ``topic`` in the profile's own rulebook, else the TDA base."""
    table = _BOOK_RULES[topic]
    return list(table.get(profile.rulebook, table[None]))


def _cites(profile: HouseRules, *parameters: str, extra: list[Citation] | tuple = ()) -> tuple[Citation, ...]:
    out: list[Citation] = []
    for name in parameters:
        for c in cite(profile, name):
            if c not in out:
                out.append(c)
    for c in extra:
        if c not in out:
            out.append(c)
    return tuple(out)


def _merge(*groups) -> tuple[Citation, ...]:
    """The citations of several groups, in order, each once."""
    return tuple(dict.fromkeys(c for group in groups for c in group))


def _cdicts(citations) -> list[dict]:
    return [c.to_dict() for c in citations]


def _label(profile: HouseRules, *parameters: str) -> str:
    return ", ".join(c.label for c in _cites(profile, *parameters))


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Suggestion:
    """One ruling the floor may choose.

    Fields: ``key`` (stable machine word, e.g. ``"return_action"``,
    ``"play_on"``), ``title_en``/``title_de``, ``explanation_en``/``explanation_de``,
    ``corrections`` (tuple of correction dicts, concrete event indices and
    seats), ``citations`` (tuple of :class:`Citation`), ``action`` (an engine
    action the dealer enters next, when the ruling is an action not yet
    recorded, else None), ``restrictions`` (e.g. ``("may_not_raise",)`` for the
    seat concerned), ``procedure`` (key of a guided procedure to walk, or None).
    """

    key: str
    title_en: str
    title_de: str
    explanation_en: str
    explanation_de: str
    corrections: tuple = ()
    citations: tuple = ()
    action: dict | None = None
    restrictions: tuple = ()
    procedure: str | None = None

    def to_dict(self) -> dict:
        """JSON shape: the fields, ``citations`` as ``[{"rulebook", "section", "label"}]``."""
        return {
            "key": self.key, "title_en": self.title_en, "title_de": self.title_de,
            "explanation_en": self.explanation_en, "explanation_de": self.explanation_de,
            "corrections": [dict(c) for c in self.corrections], "citations": _cdicts(self.citations),
            "action": dict(self.action) if self.action else None, "restrictions": list(self.restrictions),
            "procedure": self.procedure,
        }


@dataclass(frozen=True)
class OutOfTurnResult:
    """What a held out-of-turn action becomes.

    ``status``: ``"binding"`` (apply ``action`` when the player's turn comes) or
    ``"released"`` (``action`` is None: chips back, the player acts again, within
    ``restrictions``). ``restrictions``: ``"may_not_raise"`` (no bet or raise
    later, 002 #8; a check facing a bet, 004 #55). ``changed_by``: the
    intervening actions that changed the action.
    """

    status: str
    action: dict | None
    restrictions: tuple = ()
    changed_by: tuple = ()
    explanation_en: str = ""
    explanation_de: str = ""
    citations: tuple = ()

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "status": self.status, "action": dict(self.action) if self.action else None,
            "restrictions": list(self.restrictions), "changed_by": list(self.changed_by),
            "explanation_en": self.explanation_en, "explanation_de": self.explanation_de,
            "citations": _cdicts(self.citations),
        }


@dataclass(frozen=True)
class ClockPolicy:
    """The clock once "time" is called.

    ``total_seconds``: seconds the player has in all (None: the rulebook has no
    clock; the floor decides); ``think_seconds`` + ``countdown_seconds`` =
    ``total_seconds`` (the final countdown, 0 when there is none);
    ``warning``: ``"countdown"`` (a counted final countdown, 004 #29) |
    ``"dealer_reminder"`` (the dealer reminds the player shortly before the
    end, 001 6.13) | None; ``expiry``: the profile's ``clock_expiry``.
    """

    total_seconds: int | None
    think_seconds: int | None
    countdown_seconds: int
    warning: str | None
    expiry: str | None
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "total_seconds": self.total_seconds, "think_seconds": self.think_seconds,
            "countdown_seconds": self.countdown_seconds, "warning": self.warning, "expiry": self.expiry,
            "explanation_en": self.explanation_en, "explanation_de": self.explanation_de,
            "citations": _cdicts(self.citations),
        }


@dataclass(frozen=True)
class TimeExpiry:
    """What happens when the clock runs out: ``action`` (engine action dict, or
    None when the floor decides), ``dead`` (the hand is dead)."""

    action: dict | None
    dead: bool
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "action": dict(self.action) if self.action else None, "dead": self.dead,
            "explanation_en": self.explanation_en, "explanation_de": self.explanation_de,
            "citations": _cdicts(self.citations),
        }


# --------------------------------------------------------------------------- events
def _betting_events(events: list[dict] | None) -> list[tuple[int, dict]]:
    """The betting actions that stand, ``[(index, action), ...]``, with the
    corrections already recorded folded in (void / return_action drop an
    action, replace / adjust change it). Board actions are kept as
    ``{"type": "board"}`` markers so that streets can be told apart."""
    if events is None:
        return []
    if not isinstance(events, list):
        raise ProcedureError("bad_call", "events must be a list of {index, kind, payload}")
    out: list[tuple[int, dict]] = []
    for ev in events:
        if not isinstance(ev, dict) or not isinstance(ev.get("payload"), dict):
            raise ProcedureError("bad_call", "every event needs 'index', 'kind' and a 'payload' object")
        index, kind, payload = ev.get("index"), ev.get("kind"), ev["payload"]
        if kind == "action" and (payload.get("type") in BETTING or payload.get("type") == "board"):
            out.append((index, dict(payload)))
        elif kind == "correction":
            ctype = payload.get("type")
            targets = [payload.get("index")] if ctype in ("void", "return_action") else []
            targets += list(payload.get("held", ())) if ctype == "return_action" else []
            out = [(i, a) for i, a in out if i not in targets]
            if ctype == "replace" and isinstance(payload.get("action"), dict):
                out = [(i, dict(payload["action"]) if i == payload.get("index") else a) for i, a in out]
            if ctype == "adjust":
                out = [(i, dict(a, to=payload.get("to")) if i == payload.get("index") else a) for i, a in out]
    return out


def _word(action_type: str) -> str:
    return "all-in" if action_type == "all_in" else action_type


def _street_actions(betting: list[tuple[int, dict]]) -> list[tuple[int, dict]]:
    """The betting actions of the current street (after the last board marker)."""
    last_board = max((k for k, (_, a) in enumerate(betting) if a.get("type") == "board"), default=-1)
    return [(i, a) for i, a in betting[last_board + 1:] if a.get("type") in BETTING]


def _preflop_words(betting: list[tuple[int, dict]]) -> list[str]:
    words = []
    for _, a in betting:
        if a.get("type") == "board":
            break
        words.append(_word(a["type"]))
    return words


def _street(call: dict, betting: list[tuple[int, dict]]) -> str:
    snap = call.get("snapshot") or {}
    if isinstance(snap, dict) and snap.get("street") in ("preflop", "flop", "turn", "river"):
        return snap["street"]
    boards = sum(1 for _, a in betting if a.get("type") == "board")
    return ("preflop", "flop", "turn", "river")[min(boards, 3)]


def _last_action_of(seat: int, betting: list[tuple[int, dict]]) -> tuple[int, dict] | None:
    for i, a in reversed(betting):
        if a.get("seat") == seat and a.get("type") in BETTING:
            return i, a
    return None


# --------------------------------------------------------------------------- out of turn
def _check_action(action: Any, what: str = "held_action") -> dict:
    if not isinstance(action, dict) or action.get("type") not in BETTING:
        raise ProcedureError("bad_action", f"{what} must be an engine betting action ({', '.join(BETTING)})")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_action", f"{what} needs an integer 'seat'")
    if action["type"] in ("bet", "raise"):
        to = action.get("to")
        if not isinstance(to, int) or isinstance(to, bool) or to <= 0:
            raise ProcedureError("bad_action", f"{what}: a {action['type']} needs a positive integer 'to'")
    return action


def _legal(situation: dict | None) -> dict:
    if situation is None:
        return {}
    if not isinstance(situation, dict):
        raise ProcedureError("bad_call", "situation must be a snapshot or its 'legal' dict")
    legal = situation.get("legal") if "players" in situation or "legal" in situation else situation
    return legal if isinstance(legal, dict) else {}


def _intervening_words(profile: HouseRules, intervening: list) -> tuple[list[str], list[str]]:
    """(all words, the words that change the action under ``profile``)."""
    if not isinstance(intervening, (list, tuple)):
        raise ProcedureError("bad_call", "intervening_actions must be a list of actions or words")
    words, changed = [], []
    changers = profile.out_of_turn_changed_by
    for item in intervening:
        if isinstance(item, dict):
            word = _word(str(item.get("type", "")))
            as_ = item.get("as")
        else:
            word, as_ = _word(str(item).strip().lower()), None
        if word not in ("fold", "check", "call", "bet", "raise", "all-in"):
            raise ProcedureError("bad_action", f"unknown intervening action {item!r}")
        words.append(word)
        if word == "all-in":
            # an all-in counts as what it amounts to; without that, as a raise (it
            # puts more chips in than the player faced)
            effective = as_ if as_ in ("call", "bet", "raise") else "raise"
            if effective in changers or (effective == "bet" and "raise" in changers):
                changed.append(word)
        elif word in changers:
            changed.append(word)
    return words, changed


def resolve_out_of_turn(profile: HouseRules, held_action: dict, intervening_actions: list,
                        situation: dict | None = None) -> OutOfTurnResult:
    """Resolve an out-of-turn action when the action reaches its player.

    Args:
        profile: the table's :class:`HouseRules`.
        held_action: the engine action the player took out of turn, e.g.
            ``{"type": "call", "seat": 5}``, ``{"type": "raise", "seat": 5, "to": 600}``.
        intervening_actions: what the players between the player in turn and
            him did since, in order: engine action dicts (an ``all_in`` may
            carry ``"as": "call"|"bet"|"raise"``) or words (``"check"``).
        situation: optional, the hand snapshot (``HandState.to_dict()``) or its
            ``legal`` dict when the action reaches him; used to make the
            binding action concrete (a call with nothing to call is a check,
            a bet/raise to his whole stack is an all-in, a check facing a bet).

    Returns:
        :class:`OutOfTurnResult`. A fold out of turn is always binding. Any other
        action is binding unless an intervening action is in
        ``profile.out_of_turn_changed_by`` (bet/raise: 000 Aktionen 2, 001 6.19,
        003, 004 #53, TDA 53; also call: 002 #8); then it is released and its
        chips go back. Under 002 #8 (``out_of_turn_check_restricts``) a check or
        call out of turn may never become a bet or raise.

    Raises:
        ProcedureError("bad_action" | "bad_call") for malformed input.
    """
    held = _check_action(held_action)
    _, changed = _intervening_words(profile, intervening_actions)
    legal = _legal(situation)
    kind, seat = held["type"], held["seat"]
    restrictions: list[str] = []
    en: list[str] = []
    de: list[str] = []
    params = ["out_of_turn_changed_by"]
    extra: list[Citation] = []

    if profile.out_of_turn_check_restricts and kind in ("check", "call"):
        restrictions.append("may_not_raise")
        params.append("out_of_turn_check_restricts")

    if kind == "fold":
        en.append("A fold out of turn is binding; the cards are not returned.")
        de.append("Ein Fold ausserhalb der Reihe ist bindend; die Karten gibt es nicht zurück.")
        return OutOfTurnResult("binding", {"type": "fold", "seat": seat}, (), tuple(changed), " ".join(en),
                               " ".join(de), _cites(profile, *params))

    if changed:
        names = ", ".join(changed)
        en.append(f"The action changed after the out-of-turn {kind} ({names}): it is not binding, "
                  "its chips go back and the player acts again with all his options.")
        de.append(f"Nach dem {kind} ausserhalb der Reihe hat sich die Situation verändert ({names}): "
                  "die Aktion ist nicht bindend, die Chips gehen zurück und der Spieler entscheidet neu.")
        if restrictions:
            en[-1] = en[-1].replace("with all his options", "but may not bet or raise")
            de[-1] = de[-1].replace("entscheidet neu", "entscheidet neu, darf aber weder setzen noch erhöhen")
            en.append("A player who checked or called out of turn may never turn it into a bet or raise.")
            de.append("Wer ausserhalb der Reihe checkt oder callt, darf später weder setzen noch erhöhen.")
        return OutOfTurnResult("released", None, tuple(restrictions), tuple(changed), " ".join(en), " ".join(de),
                               _cites(profile, *params))

    if "call" in profile.out_of_turn_changed_by:
        en.append("No bet, call or raise came in between: the out-of-turn action is binding.")
        de.append("Danach kam weder Einsatz, Call noch Raise: die Aktion ausserhalb der Reihe ist bindend.")
    else:
        en.append("The action has not changed (check, call and fold do not change it): "
                  "the out-of-turn action is binding.")
        de.append("Die Situation hat sich nicht verändert (Check, Call und Fold gelten nicht als Veränderung): "
                  "die Aktion ausserhalb der Reihe ist bindend.")
    if profile.rulebook == "nlhe":
        en.append("Chips bet out of turn are taken back until it is his turn (003).")
        de.append("Ausserhalb der Reihe gesetzte Chips werden zurückgenommen, bis er an der Reihe ist (003).")

    call_amount = legal.get("call_amount")
    action: dict = {"type": kind, "seat": seat}
    if kind in ("bet", "raise"):
        action["to"] = held["to"]
        max_to = legal.get("max_raise_to")
        if isinstance(max_to, int) and held["to"] >= max_to:
            action = {"type": "all_in", "seat": seat}
            en.append("The amount is his whole stack: all-in.")
            de.append("Der Betrag ist sein ganzer Stack: All-in.")
    elif kind == "call" and call_amount == 0:
        action = {"type": "check", "seat": seat}
        params.append("call_without_bet_is")
        en.append("There is nothing to call: the call stands as a check.")
        de.append("Es gibt nichts zu bezahlen: der Call gilt als Check.")
    elif kind == "check" and isinstance(call_amount, int) and call_amount > 0:
        params.append("check_facing_bet_allows")
        if "may_not_raise" not in restrictions:
            restrictions.append("may_not_raise")
        en.append("He checked facing a bet: he may only call or fold.")
        de.append("Er hat gegen einen Einsatz gecheckt: er darf nur callen oder folden.")
        return OutOfTurnResult("released", None, tuple(restrictions), (), " ".join(en), " ".join(de),
                               _cites(profile, *params, extra=extra))
    return OutOfTurnResult("binding", action, tuple(restrictions), (), " ".join(en), " ".join(de),
                           _cites(profile, *params, extra=extra))


# --------------------------------------------------------------------------- time
def clock_policy(profile: HouseRules) -> ClockPolicy:
    """The clock after "time" is called, from ``clock_seconds``,
    ``clock_countdown_seconds`` and ``clock_expiry``.

    004 #29 / TDA 29: 25 s + a 5 s countdown (total 30); 001 6.13: 30 s and the
    dealer reminds the player shortly before; 000 has no clock rule
    (``total_seconds`` None: the floor decides, 000 Allgemein 1).
    """
    total = profile.clock_seconds
    if total is None:
        return ClockPolicy(
            None, None, 0, None, None,
            "This rulebook has no clock rule: the floor sets the time at his discretion.",
            "Dieses Reglement kennt keine Uhr-Regel: der Floorman bestimmt die Zeit nach Ermessen.",
            _cites(profile, "clock_seconds", extra=_book(profile, "floor_discretion")),
        )
    countdown = profile.clock_countdown_seconds or 0
    think = total - countdown
    if countdown:
        en = f"After \"time\" the player has {think} seconds plus a {countdown}-second countdown ({total} s in all)."
        de = f"Nach „Time“ hat der Spieler {think} Sekunden plus {countdown} Sekunden Countdown ({total} s insgesamt)."
        warning = "countdown"
    else:
        en = f"After \"clock\" the player has {total} seconds; the dealer reminds him shortly before the end."
        de = f"Nach „Clock“ hat der Spieler {total} Sekunden; kurz vor Ablauf erinnert ihn der Dealer."
        warning = "dealer_reminder"
    return ClockPolicy(total, think, countdown, warning, profile.clock_expiry, en, de,
                       _cites(profile, "clock_seconds", "clock_countdown_seconds", "clock_expiry"))


def time_expired(profile: HouseRules, facing_bet: bool, seat: int) -> TimeExpiry:
    """The action when the clock on ``seat`` runs out.

    ``clock_expiry`` ``"dead"`` (001 6.13, TDA 29): the hand is dead, a fold even
    when he could check. ``"dead_if_facing_bet_else_check"`` (004 #29): dead
    (fold) facing a bet, else a check. None (000): no action, the floor decides.

    Raises ProcedureError("bad_action") if ``seat`` is not an int.
    """
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_action", "seat must be an integer")
    cites = _cites(profile, "clock_expiry")
    if profile.clock_expiry == "dead_if_facing_bet_else_check":
        if facing_bet:
            return TimeExpiry({"type": "fold", "seat": seat}, True,
                              "Time is up facing a bet: the hand is dead.",
                              "Zeit abgelaufen bei einem Einsatz: die Hand ist tot.", cites)
        return TimeExpiry({"type": "check", "seat": seat}, False,
                          "Time is up with no bet to call: the player checks.",
                          "Zeit abgelaufen ohne Einsatz: der Spieler checkt.", cites)
    if profile.clock_expiry == "dead":
        return TimeExpiry({"type": "fold", "seat": seat}, True,
                          "Time is up: the hand is declared dead and folded"
                          + ("" if facing_bet else ", even though he could have checked") + ".",
                          "Zeit abgelaufen: die Hand wird für tot erklärt und gefoldet"
                          + ("" if facing_bet else ", obwohl er hätte checken können") + ".", cites)
    return TimeExpiry(None, False,
                      "This rulebook has no clock rule: the floor decides what happens.",
                      "Dieses Reglement kennt keine Uhr-Regel: der Floorman entscheidet.",
                      _cites(profile, "clock_expiry", extra=_book(profile, "floor_discretion")))


# --------------------------------------------------------------------------- penalties
@dataclass(frozen=True)
class PenaltyOption:
    """One rung of the penalty ladder: ``kind`` (see :data:`PENALTY_KINDS`),
    ``title_en``/``title_de``, ``unit`` (``"hands"``, ``"orbits"`` or None: no
    count), ``citations``."""

    kind: str
    title_en: str
    title_de: str
    unit: str | None
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {"kind": self.kind, "title_en": self.title_en, "title_de": self.title_de, "unit": self.unit,
                "citations": _cdicts(self.citations)}


_PENALTY_TITLES = {
    "warning": ("Verbal warning", "Mündliche Verwarnung", None),
    "sit_out_hands": ("Sit out hands", "Hände aussetzen", "hands"),
    "sit_out_orbits": ("Sit out orbits", "Runden (Orbits) aussetzen", "orbits"),
    "disqualification": ("Disqualification", "Disqualifikation", None),
}
_PENALTY_TITLES_BOOK = {
    ("casino-cash", "sit_out_hands"): ("Time penalty (sit out hands)", "Zeitstrafe (Hände aussetzen)"),
    ("casino-cash", "disqualification"): ("Exclusion from the game", "Spielausschluss"),
    ("wynental", "sit_out_orbits"): ("Sit out button rounds", "Button-Runden aussetzen"),
}


def penalty_options(profile: HouseRules) -> list[PenaltyOption]:
    """The penalty ladder of ``profile`` (``penalty_kinds``), mildest first.

    004 #71 / TDA 71: warning, hands, orbits, disqualification; 000 Strafen 4:
    verbal warning, time penalty, exclusion; 001 6.37: from one button round
    up to disqualification (no warning rung).
    """
    cites = _cites(profile, "penalty_kinds")
    out = []
    for kind in PENALTY_KINDS:
        if kind not in profile.penalty_kinds:
            continue
        en, de, unit = _PENALTY_TITLES[kind]
        en, de = _PENALTY_TITLES_BOOK.get((profile.rulebook, kind), (en, de))
        out.append(PenaltyOption(kind, en, de, unit, cites))
    return out


def hands_for_penalty(kind: str, count: int, players_dealt_in: int) -> int | None:
    """How many hands a penalty lasts.

    ``"warning"`` -> 0; ``"sit_out_hands"`` -> ``count``; ``"sit_out_orbits"``
    -> ``count * players_dealt_in`` (an orbit is one hand for every player dealt
    in at the table when the penalty is given, the offender included: 004 #71,
    TDA 71); ``"disqualification"`` -> None (no end).

    Raises ProcedureError("bad_penalty") for an unknown kind, a count < 1 for a
    sit-out, or fewer than 2 players.
    """
    if kind not in PENALTY_KINDS:
        raise ProcedureError("bad_penalty", f"kind must be one of {', '.join(PENALTY_KINDS)}")
    if kind == "warning":
        return 0
    if kind == "disqualification":
        return None
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise ProcedureError("bad_penalty", "count must be an integer >= 1")
    if kind == "sit_out_hands":
        return count
    if not isinstance(players_dealt_in, int) or isinstance(players_dealt_in, bool) or players_dealt_in < 2:
        raise ProcedureError("bad_penalty", "players_dealt_in must be an integer >= 2")
    return count * players_dealt_in


@dataclass(frozen=True)
class SitOutRule:
    """How a player sitting out a penalty is treated: ``dealt_in`` (his seat
    gets cards), ``blinds_and_antes_posted``, ``hand_killed`` (before the
    betting round), ``leaves_table``; and ``disqualified_chips_removed``."""

    dealt_in: bool
    blinds_and_antes_posted: bool
    hand_killed: bool
    leaves_table: bool
    disqualified_chips_removed: bool
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "dealt_in": self.dealt_in, "blinds_and_antes_posted": self.blinds_and_antes_posted,
            "hand_killed": self.hand_killed, "leaves_table": self.leaves_table,
            "disqualified_chips_removed": self.disqualified_chips_removed,
            "explanation_en": self.explanation_en, "explanation_de": self.explanation_de,
            "citations": _cdicts(self.citations),
        }


def sit_out_rule(profile: HouseRules) -> SitOutRule:
    """Whether a player sitting out a penalty is dealt in, with blinds and antes
    posted and the hand killed (``penalty_sit_out``): 004 #71 (cards dealt and
    collected before the betting round, blinds and antes always posted), 001
    6.37 with 6.14 (he leaves the table; absent = dead hand), 000 Allgemein 6
    (absent: dealt in, blinds taken, hand invalid), TDA 71."""
    cites = _cites(profile, "penalty_sit_out")
    if profile.penalty_sit_out != "dealt_in_hand_killed":  # pragma: no cover - only value shipped
        raise ProcedureError("bad_penalty", f"unknown penalty_sit_out {profile.penalty_sit_out!r}")
    return SitOutRule(
        True, True, True, True, profile.rulebook != "casino-cash",
        "The player leaves the table. His seat is still dealt in and his blinds and antes are posted; "
        "his cards are collected before the betting round (the hand is dead). He can be blinded out.",
        "Der Spieler verlässt den Tisch. Sein Platz erhält weiter Karten, Blinds und Antes werden gesetzt; "
        "die Karten werden vor der Setzrunde eingezogen (die Hand ist tot). Er kann dadurch ausscheiden.",
        cites,
    )


def _first_penalty(profile: HouseRules, seat: int, topic_cites: list[Citation]) -> Suggestion:
    kind = next(k for k in PENALTY_KINDS if k in profile.penalty_kinds)
    count = 0 if kind in ("warning", "disqualification") else 1
    en, de, _ = _PENALTY_TITLES[kind]
    en, de = _PENALTY_TITLES_BOOK.get((profile.rulebook, kind), (en, de))
    return Suggestion(
        "penalty", f"Penalty for seat {seat}: {en.lower()}", f"Strafe für Platz {seat}: {de}",
        "The rule allows a penalty; this is the mildest rung of the house's ladder.",
        "Die Regel erlaubt eine Strafe; dies ist die mildeste Stufe der Hausregeln.",
        ({"type": "penalty", "seat": seat, "kind": kind, "count": count},),
        _cites(profile, "penalty_kinds", extra=topic_cites),
    )


# --------------------------------------------------------------------------- guided procedures
@dataclass(frozen=True)
class Outcome:
    """The end of a procedure: ``summary_en``/``summary_de``,
    ``instructions_en``/``instructions_de`` (what the dealer does with the
    cards), ``corrections`` (vocabulary above; ``"seat": None`` = the seat
    concerned), ``citations``."""

    summary_en: str
    summary_de: str
    instructions_en: str = ""
    instructions_de: str = ""
    corrections: tuple = ()
    citations: tuple = ()

    def to_dict(self) -> dict:
        """JSON shape: ``{"kind": "outcome", ...fields}``."""
        return {
            "kind": "outcome", "summary_en": self.summary_en, "summary_de": self.summary_de,
            "instructions_en": self.instructions_en, "instructions_de": self.instructions_de,
            "corrections": [dict(c) for c in self.corrections], "citations": _cdicts(self.citations),
        }


@dataclass(frozen=True)
class Option:
    """An answer to a step: ``key`` (what :func:`walk` takes), labels, and
    ``next``: a step key (str) or an :class:`Outcome`."""

    key: str
    label_en: str
    label_de: str
    next: Any

    def to_dict(self) -> dict:
        """JSON shape: ``next`` is ``{"step": key}`` or the outcome dict."""
        nxt = {"step": self.next} if isinstance(self.next, str) else self.next.to_dict()
        return {"key": self.key, "label_en": self.label_en, "label_de": self.label_de, "next": nxt}


@dataclass(frozen=True)
class Step:
    """A question with its :class:`Option` s."""

    key: str
    question_en: str
    question_de: str
    options: tuple

    def to_dict(self) -> dict:
        """JSON shape: ``{"kind": "step", "key", "question_en", "question_de", "options": [...]}``."""
        return {"kind": "step", "key": self.key, "question_en": self.question_en,
                "question_de": self.question_de, "options": [o.to_dict() for o in self.options]}


@dataclass(frozen=True)
class Procedure:
    """A guided procedure: ``key``, titles, ``first`` (the first step's key)
    and ``steps`` (key -> :class:`Step`)."""

    key: str
    title_en: str
    title_de: str
    first: str
    steps: dict

    def to_dict(self) -> dict:
        """JSON shape: ``{"key", "title_en", "title_de", "first", "steps": {key: step}}``."""
        return {"key": self.key, "title_en": self.title_en, "title_de": self.title_de, "first": self.first,
                "steps": {k: s.to_dict() for k, s in self.steps.items()}}


#: Representative action lists for the "actions so far" question.
_ACTION_ANSWERS = (
    ("none", "No action yet", "Noch keine Aktion", []),
    ("one", "One action", "Eine Aktion", ["fold"]),
    ("two_no_chips", "Two actions, both checks or folds", "Zwei Aktionen, nur Checks oder Folds", ["fold", "fold"]),
    ("two_with_chips", "Two actions, at least one with chips (call, bet, raise)",
     "Zwei Aktionen, mindestens eine mit Chips (Call, Bet, Raise)", ["fold", "call"]),
    ("three_or_more", "Three or more actions", "Drei oder mehr Aktionen", ["fold", "fold", "fold"]),
)


def _misdeal_outcome(profile: HouseRules, cause_cites: tuple) -> Outcome:
    cites = _cites(profile, "misdeal_until", extra=list(cause_cites) + _book(profile, "misdeal_replay"))
    return Outcome(
        "Misdeal: the hand is void, every chip goes back.",
        "Miss-Deal: die Hand ist ungültig, alle Einsätze gehen zurück.",
        "Collect all cards, reshuffle, and deal the same hand again with the same button and blinds.",
        "Alle Karten einziehen, neu mischen und dieselbe Hand mit gleichem Button und gleichen Blinds neu geben.",
        ({"type": "misdeal"},), cites,
    )


def _too_late_outcome(profile: HouseRules, cause_cites: tuple) -> Outcome:
    return Outcome(
        "Too late for a misdeal: the hand is played on.",
        "Für einen Miss-Deal ist es zu spät: die Hand wird weitergespielt.",
        "Play the hand on as dealt; the floor decides on any affected hand.",
        "Die Hand wird wie gegeben weitergespielt; über eine betroffene Hand entscheidet der Floorman.",
        (), _cites(profile, "substantial_action", "misdeal_until", "misdeal_after_flop", extra=cause_cites),
    )


def _actions_step(profile: HouseRules, key: str, cause_cites: tuple) -> Step:
    """"Which actions were taken?" -> misdeal or too late, per the profile's
    substantial-action rule (004 #36, 000 Allgemein 9)."""
    options = []
    seen: dict[bool, bool] = {}
    for akey, en, de, words in _ACTION_ANSWERS:
        ok = misdeal_still_possible(profile, words)
        seen[ok] = True
        options.append(Option(akey, en, de, _misdeal_outcome(profile, cause_cites) if ok
                              else _too_late_outcome(profile, cause_cites)))
    return Step(key, "Which actions have been taken since the deal (blinds not counted)?",
                "Welche Aktionen gab es seit dem Austeilen (Blinds nicht mitgezählt)?", tuple(options))


def _flop_step(profile: HouseRules, key: str, next_key: str, cause_cites: tuple) -> Step:
    if profile.misdeal_after_flop:
        later = next_key
    else:
        later = _too_late_outcome(profile, cause_cites)
    return Step(key, "Is the flop already out?", "Liegt der Flop bereits?", (
        Option("no", "No, still before the flop", "Nein, noch vor dem Flop", next_key),
        Option("yes", "Yes", "Ja", later),
    ))


# Misdeal causes per rulebook: (key, en, de, citation labels)
_MISDEAL_CAUSES: dict[str | None, tuple] = {
    "casino-cash": (
        ("extra_cards", "Two or more extra cards were dealt", "Zwei oder mehrere zusätzliche Karten ausgeteilt", ("000 Allgemein 9",)),
        ("seat_skipped", "A player received no cards", "Ein Spieler hat keine Karten erhalten", ("000 Allgemein 9",)),
        ("exposed", "The first or second card was exposed", "Die erste oder zweite Karte wurde aufgedeckt", ("000 Allgemein 9",)),
    ),
    "wynental": (
        ("exposed", "A card was exposed during the deal", "Beim Verteilen wurde eine Karte aufgedeckt", ("001 6.25",)),
    ),
    "nlhe": (
        ("not_shuffled", "The deck was not shuffled and/or cut", "Vor dem Austeilen nicht gemischt und/oder geschnitten", ("003 Miss-Deal",)),
        ("irregular_card", "A player got an irregular card that cannot be redressed",
         "Ein Spieler erhielt eine irreguläre Karte, nicht mehr zu redressieren", ("003 Miss-Deal",)),
        ("extra_cards", "A player got too many cards that cannot be redressed",
         "Ein Spieler erhielt zu viele Karten, nicht mehr zu redressieren", ("003 Miss-Deal",)),
        ("two_exposed", "More than one hole card dealt face up", "Mehr als eine Karte offen ausgeteilt", ("003 Miss-Deal",)),
        ("off_table", "A card was dealt off the table", "Eine Karte über die Tischkante geworfen", ("003 Miss-Deal",)),
        ("boxed", "Two or more face-up cards in the deck", "Zwei oder mehr offene Karten im Deck", ("003 Miss-Deal",)),
    ),
    "munotpoker": (
        ("off_table", "A card flew off the table", "Eine Karte flog vom Tisch", ("004 #35",)),
        ("boxed", "Two or more cards face up in the deck", "2 oder mehr Karten falsch herum im Stapel", ("004 #35",)),
        ("two_exposed", "A second card was dealt face up", "Die 2. Karte wurde offen gedealt", ("004 #35",)),
        ("wrong_first_card", "The first card went to the wrong seat", "Die erste Karte ging an den falschen Platz", ("004 #35",)),
        ("empty_seat", "Cards were dealt to a seat not in the hand", "Karten an einen Platz, der nicht in der Hand ist", ("004 #35",)),
        ("seat_skipped", "A player at his seat received no cards", "Ein Spieler am Platz erhielt keine Karten", ("004 #35",)),
    ),
    None: (
        ("boxed", "Two or more boxed cards on the initial deal", "Zwei oder mehr offene Karten im Deck", ()),
        ("wrong_first_card", "The first card went to the wrong seat", "Die erste Karte ging an den falschen Platz", ()),
        ("empty_seat", "Cards were dealt to a seat not entitled to a hand", "Karten an einen Platz ohne Anspruch", ()),
        ("seat_skipped", "A seat entitled to a hand was skipped", "Ein Platz mit Anspruch wurde übergangen", ()),
        ("two_exposed", "Two or more cards exposed by the dealer", "Zwei oder mehr Karten vom Dealer aufgedeckt", ()),
    ),
}


def _exposed_outcome(profile: HouseRules) -> Outcome | None:
    """One hole card exposed by the dealer, when it is not a misdeal."""
    cites = _cites(profile, "exposed_card_on_deal")
    if profile.exposed_card_on_deal == "misdeal":
        return None
    if profile.rulebook == "wynental":
        en = ("Put the exposed card face up in the middle, give the player a new card and finish the deal; "
              "the exposed card becomes the burn card.")
        de = ("Die offene Karte in die Mitte legen (für alle sichtbar), dem Spieler eine neue Karte geben und "
              "fertig austeilen; die offene Karte wird zur Burn Card.")
    elif profile.rulebook == "nlhe":
        en = ("Leave the exposed card with the player until everybody has his cards, then replace it with the "
              "next card of the deck; put the exposed card face up on the deck and use it as the first burn card.")
        de = ("Die offene Karte bleibt beim Spieler, bis alle ihre Karten haben; dann durch die nächste Karte "
              "ersetzen, die offene Karte offen auf das Deck legen und vor dem Flop als Burn Card verwenden.")
    else:
        en = ("Finish the deal, then replace the exposed card with the next card of the deck; the exposed card "
              "is shown and used as the first burn card. (At the button, the player may receive two consecutive cards.)")
        de = ("Fertig austeilen, dann die offene Karte durch die nächste Karte ersetzen; die offene Karte wird "
              "gezeigt und als erste Burn Card verwendet. (Am Button kann der Spieler zwei Karten nacheinander erhalten.)")
    return Outcome("Not a misdeal: the exposed card is replaced.", "Kein Miss-Deal: die offene Karte wird ersetzt.",
                   en, de, (), cites)


def _misdeal_procedure(profile: HouseRules) -> Procedure:
    book = profile.rulebook if profile.rulebook in _MISDEAL_CAUSES else None
    causes = _MISDEAL_CAUSES[book]
    steps: dict[str, Step] = {}
    options = []
    for key, en, de, sections in causes:
        cc = tuple(_r(s) for s in sections) if book else tuple(_cites(profile, "misdeal_until"))
        if key == "exposed" and profile.exposed_card_on_deal == "replace":
            options.append(Option(key, en, de, _exposed_outcome(profile)))
            continue
        step_key = f"actions_{key}"
        flop_key = f"flop_{key}"
        steps[step_key] = _actions_step(profile, step_key, cc)
        steps[flop_key] = _flop_step(profile, flop_key, step_key, cc)
        options.append(Option(key, en, de, flop_key))
    if book in ("munotpoker", None):
        options.append(Option(
            "button_short", "The button received too few cards", "Der Button hat zu wenig Karten erhalten",
            Outcome("Not a misdeal: the button gets his missing card, even after substantial action "
                    "(if he acted with too few cards unreported, his hand is dead).",
                    "Kein Miss-Deal: der Button erhält seine fehlende Karte, auch nach wesentlichen Aktionen "
                    "(hat er mit zu wenig Karten gehandelt, ohne es zu melden, ist seine Hand tot).",
                    "Give the button the next card.", "Dem Button die nächste Karte geben.",
                    (), tuple(_book(profile, "button_short")))))
    options.append(Option("other", "Something else", "Etwas anderes", Outcome(
        "Not a listed misdeal cause: the floor decides.", "Kein aufgeführter Miss-Deal-Grund: der Floorman entscheidet.",
        "", "", (), tuple(_book(profile, "floor_discretion")))))
    steps["cause"] = Step("cause", "What went wrong during the deal?", "Was ist beim Austeilen schiefgegangen?",
                          tuple(options))
    return Procedure("misdeal", "Misdeal", "Miss-Deal", "cause", steps)


def _exposed_procedure(profile: HouseRules) -> Procedure:
    cites = _cites(profile, "exposed_card_on_deal")
    steps: dict[str, Step] = {}
    replace = _exposed_outcome(profile)
    misdeal_flow_one = profile.exposed_card_on_deal == "misdeal"
    misdeal_flow_two = profile.exposed_card_on_deal in ("misdeal", "replace_one_misdeal_two")
    steps["actions"] = _actions_step(profile, "actions", cites)
    steps["flop"] = _flop_step(profile, "flop", "actions", cites)
    steps["how_many"] = Step("how_many", "How many hole cards did the dealer expose?",
                             "Wie viele Karten hat der Dealer offen ausgeteilt?", (
        Option("one", "One card", "Eine Karte", "flop" if misdeal_flow_one else replace),
        Option("two_or_more", "Two or more cards", "Zwei oder mehr Karten", "flop" if misdeal_flow_two else replace),
    ))
    pc = tuple(_book(profile, "player_exposes"))
    if profile.rulebook == "casino-cash":
        player = Step("deliberate", "Did he expose a card on purpose, to get a reaction, before he acted?",
                      "Hat er eine Karte absichtlich geöffnet, um eine Reaktion zu erhalten, bevor er gehandelt hat?", (
            Option("yes", "Yes", "Ja", Outcome(
                "The hand counts as folded.", "Die Hand gilt als gepasst.", "Collect the cards.", "Karten einziehen.",
                ({"type": "kill", "seat": None}, {"type": "penalty", "seat": None, "kind": "warning", "count": 0}), pc)),
            Option("no", "No", "Nein", Outcome(
                "The hand is passive; the floor may declare it dead in the interest of fairness, and show one - show all applies.",
                "Die Hand ist passiv; sie kann im Sinne der Fairness für ungültig erklärt werden; „show one – show all“.",
                "", "", (), pc)),
        ))
        steps["deliberate"] = player
        player_next: Any = "deliberate"
    else:
        player_next = Outcome(
            "The hand stays live; the player may be penalised (the penalty starts after the hand).",
            "Die Hand bleibt gültig; der Spieler kann bestraft werden (die Strafe beginnt nach der Hand).",
            "", "", (), pc)
    if profile.premature_board_card == "becomes_burn_card":
        board_next: Any = Outcome(
            "The card becomes the burn card.", "Die Karte wird zur Burn Card.",
            "Put the exposed card face up in the middle; it is the burn card of the next street.",
            "Die aufgedeckte Karte offen in die Mitte legen; sie ist die Burn Card der nächsten Setzrunde.",
            (), _cites(profile, "premature_board_card"))
    else:
        board_next = Outcome("Follow the premature board card procedure.",
                             "Verfahren für zu früh aufgedeckte Boardkarten anwenden.",
                             "Open the procedure \"premature_board\".", "Verfahren „premature_board“ öffnen.",
                             (), _cites(profile, "premature_board_card"))
    steps["when"] = Step("when", "Which card was exposed?", "Welche Karte wurde aufgedeckt?", (
        Option("deal", "A hole card, by the dealer during the deal", "Eine Hole Card, vom Dealer beim Austeilen", "how_many"),
        Option("deck", "A card from the deck, later in the hand", "Eine Karte vom Deck, später in der Hand", board_next),
        Option("player", "A player exposed his own card", "Ein Spieler hat seine eigene Karte gezeigt", player_next),
    ))
    return Procedure("exposed_card", "Exposed card", "Aufgedeckte Karte", "when", steps)


def _premature_procedure(profile: HouseRules) -> Procedure:
    cites = _cites(profile, "premature_board_card")
    fc = _cites(profile, "four_card_flop")
    if profile.premature_board_card == "becomes_burn_card":
        burn = Outcome("The prematurely exposed card becomes the burn card.",
                       "Die zu früh aufgedeckte Karte wird zur Burn Card.",
                       "Put the card face up in the middle; finish the betting round; it counts as the burn card, "
                       "the next card of the deck is dealt without another burn.",
                       "Die Karte offen in die Mitte legen; Setzrunde beenden; sie gilt als Burn Card, die nächste "
                       "Karte wird ohne weiteres Brennen ausgelegt.", (), cites)
        flop = turn = river = burn
    else:
        flop = Outcome(
            "Premature flop: the flop is dealt again.", "Zu früher Flop: der Flop wird neu gegeben.",
            "Finish the betting round. Put the flop cards back into the stub (the burn card stays a burn card, "
            "the discards stay out), reshuffle and cut, then deal a new flop without burning again.",
            "Setzrunde beenden. Die Flop-Karten zurück ins Deck (Burn Card und Discard bleiben draussen), neu mischen "
            "und schneiden, dann ohne erneutes Brennen einen neuen Flop geben.", (), cites)
        turn = Outcome(
            "Premature turn: the card is set aside and comes back into the deck for the river.",
            "Zu früher Turn: die Karte wird zur Seite gelegt und kommt für den River zurück ins Deck.",
            "Set the premature turn card aside face up and protect it. Finish the betting round, burn a card and "
            "deal the card that would have been the river as the turn. For the river, shuffle the set-aside card "
            "into the stub (without burns and discards), cut and deal the river without burning.",
            "Die zu frühe Turn-Karte offen zur Seite legen und schützen. Setzrunde beenden, eine Karte brennen und "
            "die eigentliche River-Karte als Turn auslegen. Für den River die zur Seite gelegte Karte ins Deck "
            "(ohne Burn Cards und Discard) mischen, schneiden und ohne Brennen den River geben.", (), cites)
        river = Outcome(
            "Premature river: the river is dealt again.", "Zu früher River: der River wird neu gegeben.",
            "Set the card aside; after the betting round shuffle it back into the stub (without burns and discards), "
            "cut and deal a new river without burning.",
            "Die Karte zur Seite legen; nach der Setzrunde zurück ins Deck (ohne Burn Cards und Discard) mischen, "
            "schneiden und ohne Brennen einen neuen River geben.", (), cites)
    if profile.four_card_flop == "redress":
        four = Step("redress", "Can the cards still be put back in their order (redressed)?",
                    "Können die Karten noch in der richtigen Reihenfolge zurückgelegt werden (redressieren)?", (
            Option("yes", "Yes", "Ja", Outcome(
                "Redress: the extra card goes back on the deck.", "Redressieren: die überzählige Karte kommt zurück aufs Deck.",
                "Put the fourth card back on top of the deck in its place; the first three cards are the flop.",
                "Die vierte Karte an ihren Platz oben auf das Deck zurücklegen; die ersten drei Karten sind der Flop.",
                (), fc)),
            Option("no", "No", "Nein", Outcome(
                "Not redressable: one card too many left the deck.", "Nicht mehr redressierbar: eine Karte zu viel.",
                "The floor decides which cards are the flop; at the next street do not burn a card.",
                "Der Floorman entscheidet, welche Karten den Flop bilden; bei der nächsten Auslage keine Karte brennen.",
                (), _merge(fc, _book(profile, "floor_discretion")))),
        ))
        four_next: Any = "redress"
    else:
        four = None
        four_next = Outcome(
            "Four-card flop: one of the four becomes the burn card at random.",
            "Flop mit 4 Karten: eine der vier wird zufällig zur Burn Card.",
            "Call the floor. Scramble the four cards face down; the floor picks one at random as the next burn card; "
            "the other three are the flop.",
            "Floorman rufen. Die 4 Karten verdeckt mischen; der Floorman zieht zufällig eine als nächste Burn Card; "
            "die übrigen drei bilden den Flop.", (), fc)
    options = [
        Option("flop", "The flop came before the betting round was over", "Flop vor Ende der Setzrunde", flop),
        Option("turn", "The turn came before the betting round was over", "Turn vor Ende der Setzrunde", turn),
        Option("river", "The river came before the betting round was over", "River vor Ende der Setzrunde", river),
        Option("four_card_flop", "The flop has four cards", "Der Flop hat vier Karten", four_next),
    ]
    steps: dict[str, Step] = {}
    if four is not None:
        steps["redress"] = four
    if profile.rulebook == "nlhe":
        bc = (_r("003 Burn Cards"),)
        options += [
            Option("burn_early", "A card was burned too early", "Eine Karte wurde zu früh gebrannt", Outcome(
                "Put the burn card back.", "Burn Card zurücklegen.",
                "Put the card burned too early back on top of the deck.",
                "Die zu früh gebrannte Karte wieder auf das Deck zurücklegen.", (), bc)),
            Option("no_burn", "No card was burned (cannot be redressed)", "Keine Karte gebrannt (nicht redressierbar)", Outcome(
                "Complete the board; burn afterwards.", "Auslage zu Ende führen; danach brennen.",
                "Finish dealing the cards; the next card is burned afterwards.",
                "Die Kartenauslegung zu Ende führen; die nächste Karte wird anschliessend gebrannt.", (), bc)),
            Option("extra_burn", "One card too many was burned (cannot be redressed)",
                   "Eine Karte zu viel gebrannt (nicht redressierbar)", Outcome(
                "No burn card at the next street.", "Bei der nächsten Auslage keine Burn Card.",
                "At the next street deal without burning. An exposed burn card is shown to all and then burned face down.",
                "Bei der nächsten Kartenauslegung nicht brennen. Eine offene Burn Card allen zeigen, dann verdeckt brennen.",
                (), bc)),
        ]
    steps["which"] = Step("which", "What happened on the board?", "Was ist beim Board passiert?", tuple(options))
    return Procedure("premature_board", "Premature or irregular board", "Zu früh oder falsch gegebenes Board",
                     "which", steps)


_BUILDERS = {"premature_board": _premature_procedure, "exposed_card": _exposed_procedure, "misdeal": _misdeal_procedure}


def procedures_for(profile: HouseRules) -> list[Procedure]:
    """The guided procedures of ``profile``: ``premature_board`` (003 Miss-Deal /
    Burn Cards, 004 #39, 001 6.25), ``exposed_card`` (000 Allgemein 9/Aktionen 10,
    001 6.25/6.32, 003 Miss-Deal, 004 #35/#68) and ``misdeal`` (000 Allgemein 9,
    003 Miss-Deal, 004 #35-#37), built for the profile's rulebook."""
    return [build(profile) for build in _BUILDERS.values()]


def get_procedure(profile: HouseRules, key: str) -> Procedure:
    """One procedure by key; raises ProcedureError("unknown_procedure")."""
    try:
        return _BUILDERS[key](profile)
    except KeyError:
        raise ProcedureError("unknown_procedure", f"unknown procedure {key!r}; known: {', '.join(_BUILDERS)}") from None


def walk(profile: HouseRules, procedure_key: str, answers: list[str]) -> Step | Outcome:
    """Follow ``answers`` (option keys, in order) from the first step.

    Returns the next :class:`Step` to ask, or the :class:`Outcome` reached
    (answers beyond an outcome are an error). Raises ProcedureError
    ("unknown_procedure" | "bad_answer").
    """
    proc = get_procedure(profile, procedure_key)
    if not isinstance(answers, (list, tuple)):
        raise ProcedureError("bad_answer", "answers must be a list of option keys")
    node: Step | Outcome = proc.steps[proc.first]
    for n, answer in enumerate(answers):
        if isinstance(node, Outcome):
            raise ProcedureError("bad_answer", f"answer {n + 1} ({answer!r}) comes after the outcome")
        option = next((o for o in node.options if o.key == answer), None)
        if option is None:
            raise ProcedureError("bad_answer", f"step {node.key!r} has no option {answer!r}; "
                                               f"options: {', '.join(o.key for o in node.options)}")
        node = proc.steps[option.next] if isinstance(option.next, str) else option.next
    return node


# --------------------------------------------------------------------------- suggestions
def _play_on(profile: HouseRules, en: str = "", de: str = "", cites=None) -> Suggestion:
    return Suggestion(
        "play_on", "No correction, play on", "Keine Korrektur, weiterspielen",
        en or "The hand stands as recorded.", de or "Die Hand bleibt wie erfasst.",
        (), tuple(cites) if cites is not None else tuple(_book(profile, "floor_discretion")),
    )


def _engine_action(ruling, seat: int) -> dict | None:
    act = ruling.action
    if act == "none":
        return None
    if act == "all-in":
        return {"type": "all_in", "seat": seat}
    if act in ("bet", "raise"):
        return {"type": act, "seat": seat, "to": ruling.amount}
    return {"type": act, "seat": seat}


def _same(a: dict, b: dict) -> bool:
    if a.get("type") != b.get("type") or a.get("seat") != b.get("seat"):
        return False
    return a.get("to") == b.get("to") if a.get("type") in ("bet", "raise") else True


def _suggest_chip_action(profile: HouseRules, call: dict, betting) -> list[Suggestion]:
    from poker.floor.interpret import InterpretError, interpret, parse  # local: interpret imports profiles

    data = call.get("interpretation")
    if not isinstance(data, dict):
        return [_play_on(profile)]
    seat = call.get("seat", data.get("seat"))
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_call", "a chip_action call needs the 'seat' concerned")
    try:
        ruling = interpret(profile, *parse(data))
    except InterpretError as exc:
        raise ProcedureError("bad_call", f"interpretation: {exc}") from None
    action = _engine_action(ruling, seat)
    cites = tuple(ruling.citations)
    recorded = _last_action_of(seat, _street_actions(betting))
    out: list[Suggestion] = []
    if recorded is None:
        out.append(Suggestion(
            "interpretation", "Enter the action as ruled", "Aktion wie entschieden erfassen",
            ruling.explanation_en, ruling.explanation_de, (), cites, action, tuple(ruling.restrictions)))
        out.append(_play_on(profile))
        return out
    index, rec = recorded
    if action is None:
        out.append(Suggestion(
            "void", "Void the recorded action: the player acts again", "Erfasste Aktion streichen: der Spieler handelt neu",
            ruling.explanation_en, ruling.explanation_de, ({"type": "void", "index": index},), cites))
    elif _same(action, rec):
        out.append(Suggestion(
            "interpretation", "The recorded action is correct", "Die erfasste Aktion ist korrekt",
            ruling.explanation_en, ruling.explanation_de, (), cites, None, tuple(ruling.restrictions)))
    elif action["type"] == rec.get("type") and action["type"] in ("bet", "raise"):
        out.append(Suggestion(
            "adjust", f"Adjust the {action['type']} to {action['to']:,}", f"{action['type'].capitalize()} auf {action['to']:,} korrigieren".replace(",", "."),
            ruling.explanation_en, ruling.explanation_de, ({"type": "adjust", "index": index, "to": action["to"]},),
            cites, None, tuple(ruling.restrictions)))
    else:
        out.append(Suggestion(
            "replace", f"The action stands as {action['type']}", f"Die Aktion gilt als {action['type']}",
            ruling.explanation_en, ruling.explanation_de, ({"type": "replace", "index": index, "action": action},),
            cites, None, tuple(ruling.restrictions)))
    if out[0].corrections:
        out.append(_play_on(profile))
    return out


def _suggest_out_of_turn(profile: HouseRules, call: dict, betting) -> list[Suggestion]:
    seat = call.get("seat")
    held = call.get("held_action")
    out: list[Suggestion] = []
    oot_cites = _cites(profile, "out_of_turn_changed_by",
                       *(("out_of_turn_check_restricts",) if profile.out_of_turn_check_restricts else ()))
    if held is not None:
        # The out-of-turn action was seen but not recorded: it is held for its turn.
        held = _check_action(held)
        preview = resolve_out_of_turn(profile, held, [], None)
        out.append(Suggestion(
            "hold", f"Hold seat {held['seat']}'s action until his turn",
            f"Aktion von Platz {held['seat']} bis zu seinem Zug zurückhalten",
            "The action goes back to the player in turn. " + preview.explanation_en
            + " It is re-checked when his turn comes: a bet or raise in between releases it.",
            "Die Aktion geht zurück zum Spieler, der an der Reihe ist. " + preview.explanation_de
            + " Bei seinem Zug wird neu geprüft: ein Einsatz oder Raise dazwischen hebt sie auf.",
            (), preview.citations, None, preview.restrictions))
        out.append(_play_on(profile))
        out.append(_first_penalty(profile, held["seat"], _book(profile, "oot_penalty")))
        return out
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_call", "an out_of_turn call needs 'seat' (the skipped player) or 'held_action'")
    street = _street_actions(betting)
    recorded = _last_action_of(seat, street)
    if recorded is None:
        out.append(_play_on(profile, "No action is recorded for this seat on this street; nothing to return.",
                            "Für diesen Platz ist in dieser Setzrunde keine Aktion erfasst; nichts zurückzugeben.",
                            oot_cites))
        return out
    index, _ = recorded
    after = [(i, a) for i, a in street if i > index]
    words = [_word(a["type"]) for _, a in after]
    late = bool(after) and is_substantial_action(profile, words)
    held_idx = [i for i, _ in after]
    ret = {"type": "return_action", "index": index, "held": held_idx}
    late_cites = _cites(profile, "skipped_player_late", "substantial_action")
    ret_sugg = Suggestion(
        "return_action", f"Back to seat {seat}: he was skipped", f"Zurück zu Platz {seat}: er wurde übergangen",
        f"The action recorded for seat {seat} did not happen; he acts now. The {len(held_idx)} action(s) recorded "
        "after it were out of turn: they are held and stay binding unless the action changes "
        f"({_label(profile, 'out_of_turn_changed_by')}).",
        f"Die für Platz {seat} erfasste Aktion fand nicht statt; er handelt jetzt. Die {len(held_idx)} danach "
        "erfassten Aktionen waren ausserhalb der Reihe: sie werden zurückgehalten und bleiben bindend, wenn sich "
        "die Situation nicht verändert.",
        (ret,), oot_cites)
    if late and profile.skipped_player_late == "floor_dead_or_passive":
        out.append(Suggestion(
            "passive_only", f"Seat {seat} may still act, but only call, check or fold",
            f"Platz {seat} darf noch handeln, aber nur callen, checken oder folden",
            "Substantial action has taken place since he was skipped: the floor lets him act passively; "
            "the out-of-turn actions stand.",
            "Seit er übergangen wurde, gab es wesentliche Aktionen: der Floorman lässt ihn nur passiv handeln; "
            "die Aktionen ausserhalb der Reihe bleiben bestehen.",
            (ret,), _merge(late_cites, oot_cites), None, ("may_not_raise",)))
        dead_en = ("Substantial action has taken place since he was skipped and he did not speak up: the floor may "
                   "declare his hand dead.")
        dead_de = ("Seit er übergangen wurde, gab es wesentliche Aktionen, ohne dass er sich meldete: der Floorman "
                   "kann seine Hand für tot erklären.")
        if _rec_is_not_fold(betting, index):
            out.append(Suggestion(
                "kill", f"Seat {seat}'s hand is dead", f"Die Hand von Platz {seat} ist tot", dead_en, dead_de,
                ({"type": "void", "index": index}, {"type": "kill", "seat": seat}), late_cites))
        else:
            out.append(_play_on(profile, dead_en + " The recorded fold stands as his dead hand.",
                                dead_de + " Der erfasste Fold gilt als seine tote Hand.", late_cites))
    elif late and profile.skipped_player_late == "oot_binding_floor_decides":
        out.append(Suggestion(
            "passive_only", f"Out-of-turn actions stand; seat {seat} acts now",
            f"Aktionen ausserhalb der Reihe bleiben bestehen; Platz {seat} handelt jetzt",
            "Substantial action has taken place to his left: the out-of-turn actions are binding; the floor decides "
            "how the skipped hand is treated.",
            "Links von ihm gab es wesentliche Aktionen: die Aktionen ausserhalb der Reihe sind bindend; der Floorman "
            "entscheidet über die übergangene Hand.",
            (ret,), late_cites, None, ("may_not_raise",)))
        out.append(ret_sugg)
    elif late and profile.skipped_player_late == "must_object_immediately":
        out.append(_play_on(
            profile,
            "He did not object at once: he has lost the right to act; the hand stands as recorded.",
            "Er hat nicht sofort Einspruch erhoben: er hat sein Recht zu handeln verloren; die Hand bleibt wie erfasst.",
            late_cites))
        out.append(ret_sugg)
    else:
        out.append(ret_sugg)
    if not any(s.key == "play_on" for s in out):
        out.append(_play_on(profile))
    if after:
        out.append(_first_penalty(profile, after[0][1]["seat"], _book(profile, "oot_penalty")))
    return out


def _rec_is_not_fold(betting, index: int) -> bool:
    """Whether the standing action at event ``index`` is anything but a fold
    (a dead hand whose recorded action was a call, say, needs that action voided
    first; a recorded fold already is the dead hand: nothing to correct)."""
    for i, a in betting:
        if i == index:
            return a.get("type") != "fold"
    return False


def _suggest_misdeal(profile: HouseRules, call: dict, betting, procedure: str = "misdeal") -> list[Suggestion]:
    words = _preflop_words(betting)
    street = _street(call, betting)
    cites = _cites(profile, "misdeal_until", "substantial_action", "misdeal_after_flop",
                   extra=_book(profile, "misdeal_replay"))
    if misdeal_still_possible(profile, words, street):
        return [
            Suggestion("misdeal", "Misdeal: deal the hand again", "Miss-Deal: die Hand neu geben",
                       "No substantial action yet: the hand can still be declared a misdeal; every chip goes back and "
                       "the same hand is dealt again with the same button and blinds.",
                       "Noch keine wesentlichen Aktionen: die Hand kann noch für ungültig erklärt werden; alle Einsätze "
                       "gehen zurück, dieselbe Hand wird mit gleichem Button und Blinds neu gegeben.",
                       ({"type": "misdeal"},), cites, procedure=procedure),
            _play_on(profile),
        ]
    return [_play_on(
        profile,
        "A misdeal is no longer possible (substantial action" + (" or the flop is out" if not profile.misdeal_after_flop else "")
        + "): the hand is played on.",
        "Ein Miss-Deal ist nicht mehr möglich (wesentliche Aktionen" + (" oder der Flop liegt" if not profile.misdeal_after_flop else "")
        + "): die Hand wird weitergespielt.", cites)]


def _suggest_exposed(profile: HouseRules, call: dict, betting) -> list[Suggestion]:
    by = call.get("exposed_by") or ("dealer" if not _preflop_words(betting) else "player")
    seat = call.get("seat")
    if by == "dealer":
        cites = _cites(profile, "exposed_card_on_deal")
        if profile.exposed_card_on_deal == "misdeal":
            out = _suggest_misdeal(profile, call, betting, "exposed_card")
        else:
            out = []
            if profile.exposed_card_on_deal == "replace_one_misdeal_two":
                out = [s for s in _suggest_misdeal(profile, call, betting, "exposed_card") if s.key == "misdeal"]
                out = [Suggestion(s.key, "Two or more cards exposed: misdeal", "Zwei oder mehr Karten offen: Miss-Deal",
                                  s.explanation_en, s.explanation_de, s.corrections, _merge(s.citations, cites),
                                  procedure="exposed_card") for s in out]
            outcome = _exposed_outcome(profile)
            out.insert(0, Suggestion("replace_card", "Replace the exposed card", "Die offene Karte ersetzen",
                                     outcome.instructions_en, outcome.instructions_de, (), cites,
                                     procedure="exposed_card"))
            out.append(_play_on(profile))
        return out
    pc = tuple(_book(profile, "player_exposes"))
    out = []
    if profile.rulebook == "casino-cash" and isinstance(seat, int):
        out.append(Suggestion("kill", f"Seat {seat}'s hand is dead", f"Die Hand von Platz {seat} ist ungültig",
                              "000 Aktionen 10: a hand shown before the end is passive and may be declared dead; "
                              "exposed to provoke a reaction before acting, it counts as folded.",
                              "000 Aktionen 10: eine vorzeitig gezeigte Hand ist passiv und kann für ungültig erklärt "
                              "werden; zur Provokation vor der Aktion geöffnet, gilt sie als gepasst.",
                              ({"type": "kill", "seat": seat},), pc))
    out.append(_play_on(profile, "The hand stays live.", "Die Hand bleibt gültig.", pc))
    if isinstance(seat, int):
        out.append(_first_penalty(profile, seat, list(pc)))
    if profile.rulebook == "casino-cash":
        out.sort(key=lambda s: s.key != "play_on")  # 000: passive first, killing is the floor's choice
    return out


def _suggest_time(profile: HouseRules, call: dict) -> list[Suggestion]:
    seat = call.get("seat")
    snap = call.get("snapshot") if isinstance(call.get("snapshot"), dict) else {}
    if not isinstance(seat, int) or isinstance(seat, bool):
        seat = snap.get("to_act_seat")
    if not isinstance(seat, int):
        raise ProcedureError("bad_call", "a time call needs 'seat' or a snapshot with to_act_seat")
    legal = snap.get("legal") or {}
    facing = bool(legal.get("call_amount")) if legal else bool(call.get("facing_bet"))
    policy = clock_policy(profile)
    expiry = time_expired(profile, facing, seat)
    return [
        Suggestion("time_expired", "Time is up: " + (expiry.action["type"] if expiry.action else "floor decides"),
                   "Zeit abgelaufen: " + (expiry.action["type"] if expiry.action else "Floorman entscheidet"),
                   policy.explanation_en + " " + expiry.explanation_en,
                   policy.explanation_de + " " + expiry.explanation_de,
                   (), _merge(policy.citations, expiry.citations), expiry.action),
        _play_on(profile, "The player acted in time.", "Der Spieler hat rechtzeitig gehandelt."),
    ]


def suggest_rulings(profile: HouseRules, call: dict) -> list[Suggestion]:
    """Ranked rulings for a floor call, best first.

    Args:
        profile: the table's :class:`HouseRules`.
        call: ``{"reason": one of REASONS, "snapshot": hand snapshot or None,
            "events": [{"index", "kind", "payload"}, ...], "seat": int or None,
            "interpretation": poker.floor.interpret input or None}``; optional
            ``"held_action"`` (out_of_turn: an action taken out of turn and not
            recorded), ``"exposed_by"`` (exposed_card: ``"dealer"`` | ``"player"``).

    For ``out_of_turn`` ``seat`` is the skipped player whose recorded action
    did not happen (-> ``return_action`` with the later actions held; after
    substantial action per ``skipped_player_late``); for ``chip_action`` the
    player whose chips are read (-> ``replace`` / ``adjust`` / ``void`` of his
    last action this street, or an ``action`` to enter); ``misdeal`` only while
    :func:`~poker.houserules.misdeal_still_possible`; ``time`` gives the action
    after the clock runs out. A "play_on" suggestion is always included.

    Raises:
        ProcedureError("bad_call") for a malformed call (unknown reason, events
        not a list, missing seat where one is needed).
    """
    if not isinstance(call, dict):
        raise ProcedureError("bad_call", "call must be a dict")
    reason = call.get("reason")
    if reason not in REASONS:
        raise ProcedureError("bad_call", f"reason must be one of {', '.join(REASONS)}")
    betting = _betting_events(call.get("events"))
    if reason == "out_of_turn":
        return _suggest_out_of_turn(profile, call, betting)
    if reason == "chip_action":
        return _suggest_chip_action(profile, call, betting)
    if reason == "misdeal":
        return _suggest_misdeal(profile, call, betting)
    if reason == "exposed_card":
        return _suggest_exposed(profile, call, betting)
    if reason == "premature_board":
        proc = get_procedure(profile, "premature_board")
        return [
            Suggestion("procedure", proc.title_en, proc.title_de,
                       "Walk the dealer through the procedure for this house's rules.",
                       "Den Dealer durch das Verfahren nach den Hausregeln führen.",
                       (), _cites(profile, "premature_board_card", "four_card_flop"), procedure=proc.key),
            _play_on(profile),
        ]
    if reason == "time":
        return _suggest_time(profile, call)
    if reason == "dispute":
        return [_play_on(profile, "The floor decides in the interest of fairness; objections come before the pot is "
                         "awarded.", "Der Floorman entscheidet im Sinne der Fairness; Einwände vor der Zuteilung des Pots.",
                         _book(profile, "disputes"))]
    return [_play_on(profile)]
