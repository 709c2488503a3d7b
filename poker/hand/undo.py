"""May the dealer take back an action recorded on the tablet? (pure Python)

A wrong tap (the dealer recorded a fold for a player who called) is taken
back by a ``correction`` event ``{"type": "undo", "index": i, ...}``
(:mod:`poker.hand.corrections`): nothing recorded is rewritten, the replay
leaves the action at ``i`` out.

How long an entry can be taken back is the house-rule profile's
``dealer_undo`` (``poker.houserules``):

- ``"until_next_action"``: the last betting action that stands, until the
  next player acts on it or a card is dealt.  An action is binding once it
  can make another player act (000 Aktionen 2); a player may reconsider only
  "vorausgesetzt, dass niemand nach ihm bereits gezogen hat" (002 #10, and a
  decision stands once made, 002 #5); a wrong bet is corrected within the
  betting round, and once called it counts as accepted (004 #52, #49; TDA
  2024 Rules 49 and 52).  A dealt card ends the betting round.
- ``"none"``: the tablet never takes an entry back; the floor rules.

Only the dealer's own entries of betting actions can be taken back: not the
kills at the deal, not an action the server applied for a procedure (a held
out-of-turn action, 004 #53; the clock running out, 004 #29) and not an
action a floor ruling already corrected.  Those are the floor's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .corrections import effective_actions

__all__ = ["UNDOABLE", "UndoDecision", "undo_decision", "undo_history"]

#: The actions a dealer enters for a player and may take back.
UNDOABLE = frozenset({"fold", "check", "call", "bet", "raise", "all_in"})

#: Later standing actions that do not stop an undo: hole cards entered by the dealer change no chips.
_NEUTRAL = frozenset({"hole"})

_REASONS = {
    "ok": ("The action can be taken back.", "Die Aktion kann zurückgenommen werden."),
    "undo_not_allowed": (
        "This house-rule profile lets only the floor correct an action.",
        "Nach diesem Regelwerk korrigiert nur der Floor eine Aktion.",
    ),
    "nothing_to_undo": (
        "No action of this hand can be taken back.",
        "Keine Aktion dieser Hand kann zurückgenommen werden.",
    ),
    "not_undoable": (
        "Only a betting action entered by the dealer can be taken back; call the floor.",
        "Nur eine vom Dealer erfasste Setzaktion kann zurückgenommen werden; Floor rufen.",
    ),
    "next_player_acted": (
        "The next player has acted: the action stands; call the floor.",
        "Der nächste Spieler hat gehandelt: die Aktion gilt; Floor rufen.",
    ),
    "card_dealt": (
        "A card was dealt after it: the action stands; call the floor.",
        "Danach wurde eine Karte gegeben: die Aktion gilt; Floor rufen.",
    ),
}


@dataclass(frozen=True)
class UndoDecision:
    """Whether the action recorded as event ``index`` may be taken back.

    Fields:
        allowed: True when the tablet may record the undo.
        code: ``"ok"`` or the refusal: ``undo_not_allowed`` (the profile says
            ``"none"``), ``nothing_to_undo``, ``not_undoable`` (not a betting
            action the dealer entered, or not an action that stands),
            ``next_player_acted``, ``card_dealt``.
        index: the event index of the action (None with ``nothing_to_undo``).
        action: the recorded action dict, or None.
        citations: the profile's citations for ``dealer_undo`` (list of
            ``poker.rulebooks.Citation``).
    """

    allowed: bool
    code: str
    index: int | None = None
    action: dict[str, Any] | None = None
    citations: tuple = field(default_factory=tuple)

    @property
    def reason_en(self) -> str:
        return _REASONS[self.code][0]

    @property
    def reason_de(self) -> str:
        return _REASONS[self.code][1]

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: ``{"allowed", "code", "index", "action", "reason_en", "reason_de",
        "citations": [{"rulebook", "section", "label"}]}``."""
        return {
            "allowed": self.allowed,
            "code": self.code,
            "index": self.index,
            "action": self.action,
            "reason_en": self.reason_en,
            "reason_de": self.reason_de,
            "citations": [c.to_dict() for c in self.citations],
        }


def _entered_by_dealer(action: dict[str, Any]) -> bool:
    return (
        action.get("type") in UNDOABLE
        and "out_of_turn" not in action
        and "cause" not in action
        and "corrected_by" not in action
    )


def undo_decision(profile: Any, events: list[tuple[int, str, dict]], index: int | None = None) -> UndoDecision:
    """Decide whether the dealer may take back the action recorded as event ``index``.

    Args:
        profile: a ``poker.houserules.HouseRules`` (reads ``dealer_undo`` and
            its citations).
        events: the hand's ``(index, kind, payload)`` in index order.
        index: the event index of the action; None: the last betting action
            that stands.

    Returns:
        An :class:`UndoDecision` (never raises for a refusal).

    Raises:
        poker.hand.corrections.CorrectionError: the recorded corrections are malformed.

    Sources: 000 Aktionen 2, 002 #5 and #10, 004 #49 and #52 (see the module docstring).
    """
    citations = tuple(profile.citations("dealer_undo"))
    effective = effective_actions(events)[0]
    if index is None:
        candidates = [i for i, a in effective if a.get("type") in UNDOABLE]
        if not candidates:
            return UndoDecision(False, "nothing_to_undo", citations=citations)
        index = candidates[-1]
    position = next((k for k, (i, _) in enumerate(effective) if i == index), None)
    if position is None:
        return UndoDecision(False, "not_undoable", index, None, citations)
    action = effective[position][1]
    if profile.dealer_undo == "none":
        return UndoDecision(False, "undo_not_allowed", index, action, citations)
    if not _entered_by_dealer(action):
        return UndoDecision(False, "not_undoable", index, action, citations)
    for _, later in effective[position + 1 :]:
        kind = later.get("type")
        if kind in _NEUTRAL:
            continue
        if kind == "board":
            return UndoDecision(False, "card_dealt", index, action, citations)
        return UndoDecision(False, "next_player_acted", index, action, citations)
    return UndoDecision(True, "ok", index, action, citations)


def undo_history(profile: Any, events: list[tuple[int, str, dict]], limit: int = 8) -> list[UndoDecision]:
    """The hand's last ``limit`` standing betting actions, newest first, each
    with its :func:`undo_decision` (the tablet's list to pick from)."""
    effective = effective_actions(events)[0]
    indices = [i for i, a in effective if a.get("type") in UNDOABLE][-limit:]
    return [undo_decision(profile, events, i) for i in reversed(indices)]
