"""Declarations and stack counts at the table (standard library only): 004 #59 (premature,
conditional declarations) and 004 #60 (counting an opponent's stack).

004 #59 "Verfrühte Ansagen und deren Verbindlichkeit": "Beispiel: Spieler sagt 'wenn du setzen
solltest, raise ich'. Der Floorman kann diese Aktion als strafbar und/oder als bindend
deklarieren. Sollte ein Spieler 'Call' annoncieren, bevor der vorherige Spieler die exakte Höhe
seines Bets genannt hat, so wird der Floorman entscheiden welcher Einsatz zu wählen ist, passend
zur Situation. Er kann auch entscheiden, dass der fehlbare Spieler jeden vom setzenden Spieler
gewählten Bet callen muss."

004 #60 "Zählung des Chips-Stacks": every player may estimate a stack reasonably (#25); "Die
genaue Zählung kann nur verlangt werden, wenn es sich um einen All-in Bet handelt und der
fragende Spieler an der Reihe ist. Der All-in Spieler ist nicht verpflichtet Auskunft zu geben,
auf Nachfrage eines Spielers, der an der Reihe ist, kann die Zählung durch den Dealer oder den
Floorman verlangt werden."

Only 004 is read for these two rules; under another profile the functions refuse
(``ProcedureError("not_regulated")``) and the floor decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.houserules import HouseRules
from poker.i18n import _N, both

from .common import ProcedureError, citation_dicts, ref

__all__ = ["DeclarationRuling", "StackCount", "premature_declaration", "stack_count"]

#: The premature declarations of 004 #59.
DECLARATIONS = ("conditional", "call_before_amount")


def _only_004(profile: HouseRules, what: str) -> None:
    if profile.rulebook != "munotpoker":
        raise ProcedureError(
            "not_regulated", f"the house rules {profile.slug!r} have no rule on {what}: the floor decides"
        )


@dataclass(frozen=True)
class StackCount:
    """Whether an exact count of an opponent's stack may be asked for (004 #60).

    Fields: ``exact_count`` (bool: an exact count is due), ``counted_by`` (``"dealer_or_floor"``
    when it is, else None: only a reasonable estimate, #25), ``all_in_player_must_answer``
    (always False: the all-in player need not tell), ``explanation_en``/``_de``, ``citations``.
    """

    exact_count: bool
    counted_by: str | None
    all_in_player_must_answer: bool
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, ``citations`` as ``[{"rulebook", "section", "label"}]``."""
        return {
            "exact_count": self.exact_count,
            "counted_by": self.counted_by,
            "all_in_player_must_answer": self.all_in_player_must_answer,
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "citations": citation_dicts(self.citations),
        }


def stack_count(profile: HouseRules, *, facing_all_in: bool, to_act: bool) -> StackCount:
    """004 #60: may the asking player have an opponent's stack counted exactly?

    Only when he faces an all-in bet and it is his turn; the dealer or the floor then counts
    (the all-in player need not answer). Otherwise a reasonable estimate (#25).
    Raises ProcedureError("not_regulated") outside 004, ("bad_call") for non-bool arguments.
    """
    _only_004(profile, "counting stacks")
    if not isinstance(facing_all_in, bool) or not isinstance(to_act, bool):
        raise ProcedureError("bad_call", "facing_all_in and to_act must be true or false")
    exact = facing_all_in and to_act
    text = (
        _N("The player faces an all-in and it is their turn: the dealer or the floor counts the all-in player's chips.")
        if exact
        else _N("An exact count only for a player facing an all-in whose turn it is; otherwise a reasonable estimate.")
    )
    return StackCount(exact, "dealer_or_floor" if exact else None, False, *both(text), (ref("004 #60"), ref("004 #25")))


@dataclass(frozen=True)
class DeclarationRuling:
    """The floor's options for a premature declaration (004 #59).

    Fields: ``declaration`` (one of :data:`DECLARATIONS`), ``options`` (what the floor may rule:
    ``"binding"``, ``"penalty"`` for a conditional statement; ``"amount_by_floor"``,
    ``"must_call_any_bet"`` for a call before the amount), ``explanation_en``/``_de``,
    ``citations``.
    """

    declaration: str
    options: tuple
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, ``options`` as a list, ``citations`` as dicts."""
        return {
            "declaration": self.declaration,
            "options": list(self.options),
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "citations": citation_dicts(self.citations),
        }


def premature_declaration(profile: HouseRules, declaration: str) -> DeclarationRuling:
    """004 #59: what the floor may rule on ``declaration``: ``"conditional"`` ("if you bet, I
    raise": binding and/or penalised, at the floor's discretion) or ``"call_before_amount"``
    ("call" before the bettor named his exact amount: the floor picks the amount, and may hold
    the caller to call whatever the bettor chooses).
    Raises ProcedureError("not_regulated") outside 004, ("bad_call") for another declaration.
    """
    _only_004(profile, "premature declarations")
    if declaration not in DECLARATIONS:
        raise ProcedureError("bad_call", f"declaration must be one of {', '.join(DECLARATIONS)}")
    if declaration == "conditional":
        options: tuple = ("binding", "penalty")
        text = _N("A conditional statement: the floor may declare it binding and/or penalise it.")
    else:
        options = ("amount_by_floor", "must_call_any_bet")
        text = _N(
            "'Call' before the bettor named the amount: the floor decides which bet the call is for, and may hold the caller to call whatever amount the bettor chooses."
        )
    return DeclarationRuling(declaration, options, *both(text), (ref("004 #59"),))
