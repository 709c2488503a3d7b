"""What the floor procedures share (standard library only): errors, the citation helpers
(``ref("004 #53")`` writes a citation as its label), the :class:`Suggestion` result and the
reading of a hand's event log."""

from __future__ import annotations

from dataclasses import dataclass

from poker.houserules import Citation, HouseRules, cite

__all__ = [
    "BETTING",
    "PENALTY_KINDS",
    "REASONS",
    "BOOK_RULES",
    "ProcedureError",
    "Suggestion",
    "action_word",
    "betting_events",
    "book_citations",
    "citation_dicts",
    "citation_label",
    "current_street",
    "last_action_of",
    "merge_citations",
    "preflop_words",
    "profile_citations",
    "ref",
    "street_actions",
]

#: Floor-call reasons understood by :func:`suggest_rulings`.
REASONS = ("out_of_turn", "chip_action", "misdeal", "exposed_card", "premature_board", "time", "dispute", "other")
#: Engine action types that are betting actions.
BETTING = ("fold", "check", "call", "bet", "raise", "all_in")
#: Penalty kinds, mildest first.
PENALTY_KINDS = ("warning", "sit_out_hands", "sit_out_orbits", "disqualification")


class ProcedureError(ValueError):
    """Bad input: ``code`` is a machine word (``"bad_call"``, ``"bad_action"``,
    ``"unknown_procedure"``, ``"bad_answer"``, ``"bad_penalty"``, ``"not_regulated"``: the
    house rulebook has no such rule and the floor decides), the message says what is wrong. Nothing is changed when it is raised."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


# --------------------------------------------------------------------------- citations
ref = Citation.parse
"""``ref("004 #44")``: the citation written as its label (:func:`poker.rulebooks.cite`)."""


#: Rules that only some books have, by rulebook slug (None = the TDA base).
BOOK_RULES: dict[str, dict[str | None, tuple[Citation, ...]]] = {
    "floor_discretion": {
        "casino-cash": (ref("000 Allgemein 1"),),
        "wynental": (ref("001 Floorman"),),
        "betting-rules": (ref("002 #5"),),
        "nlhe": (ref("003 Auslegung"),),
        "munotpoker": (ref("004 #1"),),
        None: (ref("TDA 2024 Rule 1"),),
    },
    "player_exposes": {
        "casino-cash": (ref("000 Aktionen 10"),),
        "wynental": (ref("001 6.32"), ref("001 6.37")),
        "nlhe": (ref("003 Hole Cards"),),
        "munotpoker": (ref("004 #68"),),
        None: (ref("TDA 2024 Rule 68"),),
    },
    "oot_penalty": {
        "casino-cash": (ref("000 Aktionen 2"), ref("000 Strafen 2")),
        "wynental": (ref("001 6.31"),),
        "betting-rules": (ref("002 #8"),),
        "munotpoker": (ref("004 #53"),),
        None: (ref("TDA 2024 Rule 53"),),
    },
    "misdeal_replay": {
        "munotpoker": (ref("004 #35"),),
        None: (ref("TDA 2024 Rule 35"),),
    },
    "button_short": {
        "munotpoker": (ref("004 #37"),),
        None: (ref("TDA 2024 Rule 37"),),
    },
    "disputes": {
        "casino-cash": (ref("000 Aktionen 9"), ref("000 Allgemein 1")),
        "nlhe": (ref("003 Einwände"),),
        "munotpoker": (ref("004 #22"), ref("004 #1")),
        "wynental": (ref("001 Floorman"),),
        None: (ref("TDA 2024 Rule 1"),),
    },
}


def book_citations(profile: HouseRules, topic: str) -> list[Citation]:
    """Citations of ``topic`` in the profile's own rulebook, else the TDA base."""
    table = BOOK_RULES[topic]
    return list(table.get(profile.rulebook, table[None]))


def profile_citations(
    profile: HouseRules, *parameters: str, extra: list[Citation] | tuple = ()
) -> tuple[Citation, ...]:
    """The citations of the house-rule ``parameters`` of ``profile`` and then ``extra``, each once, in order."""
    out: list[Citation] = []
    for name in parameters:
        for c in cite(profile, name):
            if c not in out:
                out.append(c)
    for c in extra:
        if c not in out:
            out.append(c)
    return tuple(out)


def merge_citations(*groups) -> tuple[Citation, ...]:
    """The citations of several groups, in order, each once."""
    return tuple(dict.fromkeys(c for group in groups for c in group))


def citation_dicts(citations) -> list[dict]:
    """The citations as JSON: ``[{"rulebook", "section", "label", ...}]``."""
    return [c.to_dict() for c in citations]


def citation_label(profile: HouseRules, *parameters: str) -> str:
    """The labels of the parameters' citations joined by commas (``"004 #53, TDA 2024 Rule 53"``)."""
    return ", ".join(c.label for c in profile_citations(profile, *parameters))


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
            "key": self.key,
            "title_en": self.title_en,
            "title_de": self.title_de,
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "corrections": [dict(c) for c in self.corrections],
            "citations": citation_dicts(self.citations),
            "action": dict(self.action) if self.action else None,
            "restrictions": list(self.restrictions),
            "procedure": self.procedure,
        }


# --------------------------------------------------------------------------- events
def betting_events(events: list[dict] | None) -> list[tuple[int, dict]]:
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
        index = ev.get("index") if isinstance(ev, dict) else None
        if not isinstance(index, int) or not isinstance(ev.get("payload"), dict):
            raise ProcedureError("bad_call", "every event needs 'index', 'kind' and a 'payload' object")
        kind, payload = ev.get("kind"), ev["payload"]
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


def action_word(action_type: str) -> str:
    """The word of an engine action type as the floor says it (``all_in`` -> ``all-in``)."""
    return "all-in" if action_type == "all_in" else action_type


def street_actions(betting: list[tuple[int, dict]]) -> list[tuple[int, dict]]:
    """The betting actions of the current street (after the last board marker)."""
    last_board = max((k for k, (_, a) in enumerate(betting) if a.get("type") == "board"), default=-1)
    return [(i, a) for i, a in betting[last_board + 1 :] if a.get("type") in BETTING]


def preflop_words(betting: list[tuple[int, dict]]) -> list[str]:
    """The action words (:func:`action_word`) that stand before the first board marker."""
    words = []
    for _, a in betting:
        if a.get("type") == "board":
            break
        words.append(action_word(a["type"]))
    return words


def current_street(call: dict, betting: list[tuple[int, dict]]) -> str:
    """The street of the call: the snapshot's when it names one, else counted from the board markers."""
    snap = call.get("snapshot") or {}
    if isinstance(snap, dict) and snap.get("street") in ("preflop", "flop", "turn", "river"):
        return snap["street"]
    boards = sum(1 for _, a in betting if a.get("type") == "board")
    return ("preflop", "flop", "turn", "river")[min(boards, 3)]


def last_action_of(seat: int, betting: list[tuple[int, dict]]) -> tuple[int, dict] | None:
    """The last betting action of ``seat`` that stands, ``(index, action)``, or None."""
    for i, a in reversed(betting):
        if a.get("seat") == seat and a.get("type") in BETTING:
            return i, a
    return None
