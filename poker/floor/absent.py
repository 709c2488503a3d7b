"""Absent players: what is posted for a player away from his seat when the cards are dealt, and
whether his hand plays (standard library only).

The rule is the house profile's ``absent_player``:

- ``"hand_dead"`` -- 000 Allgemein 6 / Einsätze 4 (the croupier takes the blinds, the hand is
  invalid), 001 Sitzverteilung / 6.14 ("die Blinds werden automatisch bezahlt und die Karten
  gefoldet"), 004 #30 / #71, TDA 30: the blinds (and antes) are posted, the hand is dead.
- ``"hand_dead_unless_all_in"`` -- 003 "Ausserordentliche und ordentliche Handlungen der
  Spieler": "Die Blinds werden vom Dealer aus dem Table Stake des nicht anwesenden Spielers in
  Höhe des Minimums erbracht"; absent at the second hole card he "gilt als gepasst", blinds
  included; but "Ein nicht anwesender Spieler der 'Auto All-In' gesetzt ist, gilt nicht als
  gepasst und kann beim Showdown mit dem besten Blatt den Main Pot gewinnen."
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.houserules import HouseRules
from poker.i18n import _N, both

from .common import ProcedureError, citation_dicts, profile_citations

__all__ = ["AbsentRuling", "absent_player"]


@dataclass(frozen=True)
class AbsentRuling:
    """What happens to an absent player's seat in this hand.

    Fields: ``seat`` (int or None), ``posted`` (chips posted for him by the dealer: his blind
    and ante at the minimum, never more than his stack), ``all_in`` (the posting took his whole
    stack: "Auto All-In"), ``hand_dead`` (his hand is folded), ``contests`` (``"nothing"`` or
    ``"main_pot"``: the pot his posted chips can win at showdown), ``explanation_en``/``_de``,
    ``citations``.
    """

    seat: int | None
    posted: int
    all_in: bool
    hand_dead: bool
    contests: str
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, ``citations`` as ``[{"rulebook", "section", "label"}]``."""
        return {
            "seat": self.seat,
            "posted": self.posted,
            "all_in": self.all_in,
            "hand_dead": self.hand_dead,
            "contests": self.contests,
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "citations": citation_dicts(self.citations),
        }


def _chips(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ProcedureError("bad_call", f"{name} must be a non-negative int (chips), not {value!r}")
    return value


def absent_player(
    profile: HouseRules, *, stack: int, blind: int = 0, ante: int = 0, seat: int | None = None
) -> AbsentRuling:
    """The ruling for a player absent when the cards are dealt.

    Args: ``stack`` (his chips before the hand), ``blind`` (the blind his position owes, 0 if
    none), ``ante`` (his ante, 0 if none), all chips (ints >= 0); ``seat`` only echoed.

    The dealer posts the blind and the ante at the minimum, capped by the stack (003: "in Höhe
    des Minimums"; the other books take the blinds automatically). Under
    ``"hand_dead_unless_all_in"`` (003 "Auto All-In") a player whose posting took his whole
    stack is not folded and contests the main pot; otherwise the hand is dead.

    Raises ProcedureError("bad_call") for a negative or non-int amount.
    """
    stack = _chips("stack", stack)
    posted = min(stack, _chips("blind", blind) + _chips("ante", ante))
    all_in = stack > 0 and posted == stack
    plays = profile.absent_player == "hand_dead_unless_all_in" and all_in
    if plays:
        text = _N(
            "The absent player is all-in by the blind (Auto All-In): the hand is not folded and can win the main pot at showdown."
        )
    elif profile.absent_player == "hand_dead_unless_all_in":
        text = _N("The dealer posts the absent player's blinds at the minimum; the hand counts as folded.")
    else:
        text = _N("The absent player's blinds and antes are posted; the hand is dead.")
    return AbsentRuling(
        seat,
        posted,
        all_in,
        not plays,
        "main_pot" if plays else "nothing",
        *both(text),
        profile_citations(profile, "absent_player"),
    )
