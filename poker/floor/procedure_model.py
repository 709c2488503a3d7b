"""The shapes of a guided procedure (:class:`Procedure` of :class:`Step` s, their
:class:`Option` s and the :class:`Outcome` s they reach), what the dealer finishes without a
floor person (:func:`dealer_may_finish`) and the hand facts that answer a step
(:class:`HandFacts`). Standard library only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from poker.houserules import HouseRules

from .common import citation_dicts

__all__ = [
    "FACTS",
    "HandFacts",
    "Option",
    "Outcome",
    "Procedure",
    "Step",
    "answer_from_facts",
    "dealer_may_finish",
]


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
    dealer_finishes: bool = False

    def to_dict(self) -> dict:
        """JSON shape: ``{"kind": "outcome", ...fields}``; ``dealer_finishes``: the house rules let
        the dealer finish it at the table (no floor person needed, :func:`dealer_may_finish`)."""
        return {
            "kind": "outcome",
            "summary_en": self.summary_en,
            "summary_de": self.summary_de,
            "instructions_en": self.instructions_en,
            "instructions_de": self.instructions_de,
            "corrections": [dict(c) for c in self.corrections],
            "citations": citation_dicts(self.citations),
            "dealer_finishes": self.dealer_finishes,
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
    #: The hand fact that answers the step (:data:`FACTS`), "" when only the dealer knows.
    fact: str = ""

    def to_dict(self) -> dict:
        """JSON shape: ``{"kind": "step", "key", "question_en", "question_de", "options": [...]}``."""
        return {
            "kind": "step",
            "key": self.key,
            "question_en": self.question_en,
            "question_de": self.question_de,
            "options": [o.to_dict() for o in self.options],
        }


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
        return {
            "key": self.key,
            "title_en": self.title_en,
            "title_de": self.title_de,
            "first": self.first,
            "steps": {k: s.to_dict() for k, s in self.steps.items()},
        }


#: What the dealer finishes at the table without a floor person, per rulebook (``profile.rulebook``;
#: None: the TDA base and rulebooks without a rule of their own), read from the German originals:
#:
#: - 000 Allgemein 9 ("Es handelt sich um einen Misdeal wenn: ... c.) Die erste oder zweite Karte
#:   aufgedeckt wurde"): a listed misdeal is a fact the croupier states; an exposed first or second
#:   card is such a misdeal. Once two active actions were taken "wird die fehlerhafte Hand für
#:   ungültig erklärt": killing a player's hand stays with the floor (000 Allgemein 1).
#: - 001 6.25 ("Sollte beim Verteilen eine Karte aufgedeckt werden, so wird diese in die Mitte gelegt
#:   ... und dem betroffenen Spieler eine neue Karte ausgeteilt"; "Deckt der Dealer im späteren
#:   Spielverlauf aus Versehen eine Karte auf, wird diese auch in der Mitte ausgelegt und zur 'burning
#:   card'"): the dealer's own procedure. 001 has no misdeal rule of its own: anything else goes to the
#:   Floorman ("kann ... vom Dealer zum Tisch gebeten werden").
#: - 003 "Miss-Deal" ("Die ausgeteilten Karten werden als vergeben erklärt, wieder eingezogen und neu
#:   gemischt falls: ..."; "In folgendem Fall liegt kein Miss-Deal vor: Ein Spieler hat eine offene
#:   Karte erhalten ..."): dealer procedures; only "bei Unklarheit" the floor interprets.
#: - 004 #35 ("Ein sogenannter Missdeal liegt vor, wenn: ... die 2. Karte unabsichtlich offen ...
#:   gedealt wurde"; a single face-up card is replaced): the dealer; the floor is named where it must
#:   act (#39 Fall 1: "Floorman wird gerufen" for a four-card flop).
_DEALER_FINISHES: dict[str | None, frozenset[str]] = {
    "casino-cash": frozenset({"misdeal"}),
    "wynental": frozenset({"exposed_card", "burn_card"}),
    "nlhe": frozenset({"misdeal", "exposed_card"}),
    "munotpoker": frozenset({"misdeal", "exposed_card"}),
    None: frozenset({"misdeal", "exposed_card"}),
}


def dealer_may_finish(profile: HouseRules, kind: str) -> bool:
    """Whether the dealer finishes an outcome of ``kind`` at the table under ``profile``, with no
    floor person: ``"misdeal"`` (a listed misdeal while one may still be declared: 000 Allgemein 9,
    003 "Miss-Deal", 004 #35), ``"exposed_card"`` (one hole card exposed by the dealer is replaced:
    001 6.25, 003 "Miss-Deal", 004 #35), ``"burn_card"`` (a card exposed later becomes the burn card:
    001 6.25). Anything else (a hand killed, the floor's discretion, a penalty) is the floor's."""
    book = profile.rulebook if profile.rulebook in _DEALER_FINISHES else None
    return kind in _DEALER_FINISHES[book]


#: The hand facts a step can be answered from (:class:`HandFacts`): ``"flop_out"`` (is the flop
#: out), ``"actions"`` (the actions taken since the deal, which decide substantial action).
FACTS = ("flop_out", "actions")


@dataclass(frozen=True)
class HandFacts:
    """What the tablet knows of the live hand: ``street`` (the engine's: "preflop", "flop", ...;
    Seven Card Stud "ante", "third", ...), ``actions`` (the standing betting words since the
    deal, blinds not counted: ``("fold", "call")``, as ``poker.hand.corrections.acted_words``),
    ``to_act_seat`` (whose turn it is) and ``facing_all_in`` (that player faces an all-in bet)."""

    street: str
    actions: tuple[str, ...] = ()
    #: the seat whose turn it is (None: nobody's), and whether that player faces an all-in bet
    to_act_seat: int | None = None
    facing_all_in: bool = False

    @property
    def flop_out(self) -> bool:
        """The flop (Seven Card Stud: fourth street) has been dealt."""
        return self.street not in ("preflop", "ante", "third")


def _actions_key(actions: tuple[str, ...]) -> str:
    n = len(actions)
    if n == 0:
        return "none"
    if n == 1:
        return "one"
    if n == 2:
        return (
            "two_with_chips"
            if any(a in ("bet", "call", "raise", "all-in", "complete") for a in actions)
            else "two_no_chips"
        )
    return "three_or_more"


def answer_from_facts(step: Step, facts: HandFacts) -> str | None:
    """The option key of ``step`` that the hand's facts give (None: a question for the dealer)."""
    if step.fact == "flop_out":
        return "yes" if facts.flop_out else "no"
    if step.fact == "actions":
        return _actions_key(tuple(facts.actions))
    return None
