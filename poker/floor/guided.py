"""Guided step-by-step procedures for the dealer tablet: premature and irregular boards,
exposed cards, misdeals (000 Allgemein 9, 001 6.25, 003 "Miss-Deal"/"Burn Cards",
004 #35-#39, TDA 35-39). Standard library only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from poker.houserules import HouseRules, misdeal_still_possible
from poker.i18n import _N, _NC, both

from .common import ProcedureError, _book, _cdicts, _cites, _merge, _r
from .declarations import premature_declaration, stack_count
from .hidden_chips import hidden_chips_ruling


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
            "citations": _cdicts(self.citations),
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


def for_hand(procedure: Procedure, facts: HandFacts) -> Procedure:
    """``procedure`` with every question the hand answers taken out: an option that leads to
    such a step leads straight to where the hand's answer goes (is the flop out, how many
    actions were taken: the tablet knows both). The steps left are the dealer's questions."""

    def resolve(nxt: Any) -> Any:
        seen = 0
        while isinstance(nxt, str) and seen < 20:
            step = procedure.steps[nxt]
            key = answer_from_facts(step, facts)
            if key is None:
                return nxt
            nxt = next(o.next for o in step.options if o.key == key)
            seen += 1
        return nxt

    if procedure.key == "stack_count":
        return _stack_count_for_hand(procedure, facts)
    steps: dict[str, Step] = {}
    for key, step in procedure.steps.items():
        if step.fact:
            continue
        options = tuple(Option(o.key, o.label_en, o.label_de, resolve(o.next)) for o in step.options)
        steps[key] = Step(step.key, step.question_en, step.question_de, options)
    return Procedure(procedure.key, procedure.title_en, procedure.title_de, procedure.first, steps)


#: Representative action lists for the "actions so far" question.
#: (key, label msgid, the actions).
_ACTION_ANSWERS: tuple[tuple[str, str, list[str]], ...] = (
    ("none", _N("No action yet"), []),
    ("one", _N("One action"), ["fold"]),
    ("two_no_chips", _N("Two actions, both checks or folds"), ["fold", "fold"]),
    (
        "two_with_chips",
        _N("Two actions, at least one with chips (call, bet, raise)"),
        ["fold", "call"],
    ),
    ("three_or_more", _N("Three or more actions"), ["fold", "fold", "fold"]),
)


def _misdeal_outcome(profile: HouseRules, cause_cites: tuple) -> Outcome:
    cites = _cites(profile, "misdeal_until", extra=list(cause_cites) + _book(profile, "misdeal_replay"))
    return Outcome(
        *both(_N("Misdeal: the hand is void, every chip goes back.")),
        *both(_N("Collect all cards, reshuffle, and deal the same hand again with the same button and blinds.")),
        ({"type": "misdeal"},),
        cites,
        dealer_may_finish(profile, "misdeal"),
    )


def _too_late_outcome(profile: HouseRules, cause_cites: tuple) -> Outcome:
    """A misdeal can no longer be declared: play on (TDA 35, 004 #35), or under 000 Allgemein 9
    (``misdeal_too_late == "faulty_hand_void"``) the faulty hand is void and play goes on."""
    if profile.misdeal_too_late == "faulty_hand_void":
        return Outcome(
            *both(_N("Too late for a misdeal: the faulty hand is declared void and play goes on.")),
            *both(
                _N(
                    "Take in the cards of the player whose hand is faulty (the chips in the pot stay there) and continue the hand as usual; the deal itself is not void."
                )
            ),
            ({"type": "kill", "seat": None},),
            _cites(profile, "substantial_action", "misdeal_too_late", "misdeal_after_flop", extra=cause_cites),
        )
    return Outcome(
        *both(_N("Too late for a misdeal: the hand is played on.")),
        *both(_N("Play the hand on as dealt; the floor decides on any affected hand.")),
        (),
        _cites(profile, "substantial_action", "misdeal_until", "misdeal_after_flop", extra=cause_cites),
    )


def _actions_step(profile: HouseRules, key: str, cause_cites: tuple) -> Step:
    """ "Which actions were taken?" -> misdeal or too late, per the profile's
    substantial-action rule (004 #36, 000 Allgemein 9)."""
    options = []
    seen: dict[bool, bool] = {}
    for akey, label, words in _ACTION_ANSWERS:
        ok = misdeal_still_possible(profile, words)
        seen[ok] = True
        options.append(
            Option(
                akey,
                *both(label),
                _misdeal_outcome(profile, cause_cites) if ok else _too_late_outcome(profile, cause_cites),
            )
        )
    return Step(
        key,
        *both(_N("Which actions have been taken since the deal (blinds not counted)?")),
        tuple(options),
        fact="actions",
    )


def _flop_step(profile: HouseRules, key: str, next_key: str, cause_cites: tuple) -> Step:
    later: str | Outcome
    if profile.misdeal_after_flop:
        later = next_key
    else:
        later = _too_late_outcome(profile, cause_cites)
    return Step(
        key,
        *both(_N("Is the flop already out?")),
        (
            Option("no", *both(_N("No, still before the flop")), next_key),
            Option("yes", *both(_N("Yes")), later),
        ),
        fact="flop_out",
    )


# Misdeal causes per rulebook: (key, label msgid, citation labels)
_MISDEAL_CAUSES: dict[str | None, tuple] = {
    "casino-cash": (
        (
            "extra_cards",
            _N("Two or more extra cards were dealt"),
            ("000 Allgemein 9",),
        ),
        ("seat_skipped", _N("A player received no cards"), ("000 Allgemein 9",)),
        (
            "exposed",
            _N("The first or second card was exposed"),
            ("000 Allgemein 9",),
        ),
    ),
    "wynental": (("exposed", _N("A card was exposed during the deal"), ("001 6.25",)),),
    "nlhe": (
        (
            "not_shuffled",
            _N("The deck was not shuffled and/or cut"),
            ("003 Miss-Deal",),
        ),
        (
            "irregular_card",
            _N("A player got an irregular card that cannot be redressed"),
            ("003 Miss-Deal",),
        ),
        (
            "extra_cards",
            _N("A player got too many cards that cannot be redressed"),
            ("003 Miss-Deal",),
        ),
        (
            "two_exposed",
            _N("More than one hole card dealt face up"),
            ("003 Miss-Deal",),
        ),
        ("off_table", _N("A card was dealt off the table"), ("003 Miss-Deal",)),
        ("boxed", _N("Two or more face-up cards in the deck"), ("003 Miss-Deal",)),
    ),
    "munotpoker": (
        ("off_table", _N("A card flew off the table"), ("004 #35",)),
        ("boxed", _N("Two or more cards face up in the deck"), ("004 #35",)),
        ("two_exposed", _N("A second card was dealt face up"), ("004 #35",)),
        (
            "wrong_first_card",
            _N("The first card went to the wrong seat"),
            ("004 #35",),
        ),
        (
            "empty_seat",
            _N("Cards were dealt to a seat not in the hand"),
            ("004 #35",),
        ),
        (
            "seat_skipped",
            _N("A player at the table received no cards"),
            ("004 #35",),
        ),
    ),
    None: (
        ("boxed", _N("Two or more boxed cards on the initial deal"), ()),
        ("wrong_first_card", _N("The first card went to the wrong seat"), ()),
        ("empty_seat", _N("Cards were dealt to a seat not entitled to a hand"), ()),
        ("seat_skipped", _N("A seat entitled to a hand was skipped"), ()),
        ("two_exposed", _N("Two or more cards exposed by the dealer"), ()),
    ),
}


def _exposed_outcome(profile: HouseRules) -> Outcome | None:
    """One hole card exposed by the dealer, when it is not a misdeal."""
    cites = _cites(profile, "exposed_card_on_deal")
    if profile.exposed_card_on_deal == "misdeal":
        return None
    if profile.rulebook == "wynental":
        instructions = _N(
            "Put the exposed card face up in the middle, give the player a new card and finish the deal; "
            "the exposed card becomes the burn card."
        )
    elif profile.rulebook == "nlhe":
        instructions = _N(
            "Leave the exposed card with the player until everybody has their cards, then replace it with the next card of the deck; put the exposed card face up on the deck and use it as the first burn card."
        )
    else:
        instructions = _N(
            "Finish the deal, then replace the exposed card with the next card of the deck; the exposed card "
            "is shown and used as the first burn card. (At the button, the player may receive two consecutive cards.)"
        )
    return Outcome(
        *both(_N("Not a misdeal: the exposed card is replaced.")),
        *both(instructions),
        (),
        cites,
        dealer_may_finish(profile, "exposed_card"),
    )


# The procedure titles "Misdeal" and "Premature or irregular board" carry the context
# "procedure": the floor pages translate the same English words differently.
def _misdeal_procedure(profile: HouseRules) -> Procedure:
    book = profile.rulebook if profile.rulebook in _MISDEAL_CAUSES else None
    causes = _MISDEAL_CAUSES[book]
    steps: dict[str, Step] = {}
    options = []
    for key, label, sections in causes:
        cc = tuple(_r(s) for s in sections) if book else tuple(_cites(profile, "misdeal_until"))
        if key == "exposed" and profile.exposed_card_on_deal == "replace":
            options.append(Option(key, *both(label), _exposed_outcome(profile)))
            continue
        step_key = f"actions_{key}"
        flop_key = f"flop_{key}"
        steps[step_key] = _actions_step(profile, step_key, cc)
        steps[flop_key] = _flop_step(profile, flop_key, step_key, cc)
        options.append(Option(key, *both(label), flop_key))
    if book in ("munotpoker", None):
        options.append(
            Option(
                "button_short",
                *both(_N("The button received too few cards")),
                Outcome(
                    *both(
                        _N(
                            "Not a misdeal: the button gets the missing card, even after substantial action (a player who acted with too few cards unreported has a dead hand)."
                        )
                    ),
                    *both(_N("Give the button the next card.")),
                    (),
                    tuple(_book(profile, "button_short")),
                ),
            )
        )
    options.append(
        Option(
            "other",
            *both(_N("Something else")),
            Outcome(
                *both(_N("Not a listed misdeal cause: the floor decides.")),
                "",
                "",
                (),
                tuple(_book(profile, "floor_discretion")),
            ),
        )
    )
    steps["cause"] = Step("cause", *both(_N("What went wrong during the deal?")), tuple(options))
    return Procedure("misdeal", *both(_NC("procedure", "Misdeal"), context="procedure"), "cause", steps)


def _exposed_procedure(profile: HouseRules) -> Procedure:
    cites = _cites(profile, "exposed_card_on_deal")
    steps: dict[str, Step] = {}
    replace = _exposed_outcome(profile)
    misdeal_flow_one = profile.exposed_card_on_deal == "misdeal"
    misdeal_flow_two = profile.exposed_card_on_deal in ("misdeal", "replace_one_misdeal_two")
    steps["actions"] = _actions_step(profile, "actions", cites)
    steps["flop"] = _flop_step(profile, "flop", "actions", cites)
    steps["how_many"] = Step(
        "how_many",
        *both(_N("How many hole cards did the dealer expose?")),
        (
            Option("one", *both(_N("One card")), "flop" if misdeal_flow_one else replace),
            Option("two_or_more", *both(_N("Two or more cards")), "flop" if misdeal_flow_two else replace),
        ),
    )
    pc = tuple(_book(profile, "player_exposes"))
    if profile.rulebook == "casino-cash":
        player = Step(
            "deliberate",
            *both(_N("Was a card exposed on purpose, to get a reaction, before the player acted?")),
            (
                Option(
                    "yes",
                    *both(_N("Yes")),
                    Outcome(
                        *both(_N("The hand counts as folded.")),
                        *both(_N("Collect the cards.")),
                        (
                            {"type": "kill", "seat": None},
                            {"type": "penalty", "seat": None, "kind": "warning", "count": 0},
                        ),
                        pc,
                    ),
                ),
                Option(
                    "no",
                    *both(_N("No")),
                    Outcome(
                        *both(
                            _N(
                                "The hand is passive; the floor may declare it dead in the interest of fairness, and "
                                "show one - show all applies."
                            )
                        ),
                        "",
                        "",
                        (),
                        pc,
                    ),
                ),
            ),
        )
        steps["deliberate"] = player
        player_next: Any = "deliberate"
    else:
        player_next = Outcome(
            *both(_N("The hand stays live; the player may be penalised (the penalty starts after the hand).")),
            "",
            "",
            (),
            pc,
        )
    if profile.premature_board_card == "becomes_burn_card":
        board_next: Any = Outcome(
            *both(_N("The card becomes the burn card.")),
            *both(_N("Put the exposed card face up in the middle; it is the burn card of the next street.")),
            (),
            _cites(profile, "premature_board_card"),
            dealer_may_finish(profile, "burn_card"),
        )
    else:
        board_next = Outcome(
            *both(_N("Follow the premature board card procedure.")),
            *both(_N('Open the procedure "premature_board".')),
            (),
            _cites(profile, "premature_board_card"),
        )
    steps["when"] = Step(
        "when",
        *both(_N("Which card was exposed?")),
        (
            Option(
                "deal",
                *both(_N("A hole card, by the dealer during the deal")),
                "how_many",
            ),
            Option("deck", *both(_N("A card from the deck, later in the hand")), board_next),
            Option("player", *both(_N("A player exposed their own card")), player_next),
        ),
    )
    return Procedure("exposed_card", *both(_N("Exposed card")), "when", steps)


def _premature_procedure(profile: HouseRules) -> Procedure:
    cites = _cites(profile, "premature_board_card")
    fc = _cites(profile, "four_card_flop")
    if profile.premature_board_card == "becomes_burn_card":
        burn = Outcome(
            *both(_N("The prematurely exposed card becomes the burn card.")),
            *both(
                _N(
                    "Put the card face up in the middle; finish the betting round; it counts as the burn card, "
                    "the next card of the deck is dealt without another burn."
                )
            ),
            (),
            cites,
        )
        flop = turn = river = burn
    else:
        flop = Outcome(
            *both(_N("Premature flop: the flop is dealt again.")),
            *both(
                _N(
                    "Finish the betting round. Put the flop cards back into the stub (the burn card stays a burn card, "
                    "the discards stay out), reshuffle and cut, then deal a new flop without burning again."
                )
            ),
            (),
            cites,
        )
        turn = Outcome(
            *both(_N("Premature turn: the card is set aside and comes back into the deck for the river.")),
            *both(
                _N(
                    "Set the premature turn card aside face up and protect it. Finish the betting round, burn a card "
                    "and "
                    "deal the card that would have been the river as the turn. For the river, shuffle the set-aside "
                    "card "
                    "into the stub (without burns and discards), cut and deal the river without burning."
                )
            ),
            (),
            cites,
        )
        river = Outcome(
            *both(_N("Premature river: the river is dealt again.")),
            *both(
                _N(
                    "Set the card aside; after the betting round shuffle it back into the stub (without burns and "
                    "discards), "
                    "cut and deal a new river without burning."
                )
            ),
            (),
            cites,
        )
    if profile.four_card_flop == "redress":
        four = Step(
            "redress",
            *both(_N("Can the cards still be put back in their order (redressed)?")),
            (
                Option(
                    "yes",
                    *both(_N("Yes")),
                    Outcome(
                        *both(_N("Redress: the extra card goes back on the deck.")),
                        *both(
                            _N(
                                "Put the fourth card back on top of the deck in its place; the first three cards are "
                                "the flop."
                            )
                        ),
                        (),
                        fc,
                    ),
                ),
                Option(
                    "no",
                    *both(_N("No")),
                    Outcome(
                        *both(_N("Not redressable: one card too many left the deck.")),
                        *both(_N("The floor decides which cards are the flop; at the next street do not burn a card.")),
                        (),
                        _merge(fc, _book(profile, "floor_discretion")),
                    ),
                ),
            ),
        )
        four_next: Any = "redress"
    else:
        four = None
        four_next = Outcome(
            *both(_N("Four-card flop: one of the four becomes the burn card at random.")),
            *both(
                _N(
                    "Call the floor. Scramble the four cards face down; the floor picks one at random as the next "
                    "burn card; "
                    "the other three are the flop."
                )
            ),
            (),
            fc,
        )
    options = [
        Option("flop", *both(_N("The flop came before the betting round was over")), flop),
        Option("turn", *both(_N("The turn came before the betting round was over")), turn),
        Option("river", *both(_N("The river came before the betting round was over")), river),
        Option("four_card_flop", *both(_N("The flop has four cards")), four_next),
    ]
    steps: dict[str, Step] = {}
    if four is not None:
        steps["redress"] = four
    if profile.rulebook == "nlhe":
        bc = (_r("003 Burn Cards"),)
        options += [
            Option(
                "burn_early",
                *both(_N("A card was burned too early")),
                Outcome(
                    *both(_N("Put the burn card back.")),
                    *both(_N("Put the card burned too early back on top of the deck.")),
                    (),
                    bc,
                ),
            ),
            Option(
                "no_burn",
                *both(_N("No card was burned (cannot be redressed)")),
                Outcome(
                    *both(_N("Complete the board; burn afterwards.")),
                    *both(_N("Finish dealing the cards; the next card is burned afterwards.")),
                    (),
                    bc,
                ),
            ),
            Option(
                "extra_burn",
                *both(_N("One card too many was burned (cannot be redressed)")),
                Outcome(
                    *both(_N("No burn card at the next street.")),
                    *both(
                        _N(
                            "At the next street deal without burning. An exposed burn card is shown to all and then "
                            "burned face down."
                        )
                    ),
                    (),
                    bc,
                ),
            ),
        ]
    steps["which"] = Step("which", *both(_N("What happened on the board?")), tuple(options))
    return Procedure(
        "premature_board", *both(_NC("procedure", "Premature or irregular board"), context="procedure"), "which", steps
    )


def _ruling_outcome(ruling: Any) -> Outcome:
    """An outcome that says what a pure ruling says (its explanation and citations)."""
    return Outcome(ruling.explanation_en, ruling.explanation_de, "", "", (), tuple(ruling.citations))


def _hidden_chips_procedure(profile: HouseRules) -> Procedure | None:
    """Hidden chips at an all-in (002 #15-#17, 004 #62 with #49): only where the rulebook has
    the rule (``hidden_chips_at_all_in``); the chip amounts are :func:`hidden_chips_ruling`'s."""
    if profile.hidden_chips_at_all_in is None:
        return None

    def outcome(wins: bool, counted: bool = False) -> Outcome:
        return _ruling_outcome(
            hidden_chips_ruling(
                profile,
                declared=2,
                hidden=1,
                opponent_stack=4,
                all_in_player_wins=wins,
                floor_counts_hidden=counted,
            )
        )

    steps = {
        "won": Step(
            "won",
            *both(_N("Did the all-in player win the pot?")),
            (Option("yes", *both(_N("Yes")), outcome(True)), Option("no", *both(_N("No")), outcome(False))),
        )
    }
    first = "won"
    if profile.hidden_chips_at_all_in == "floor_decides_forfeited":
        steps["counted"] = Step(
            "counted",
            *both(_N("Does the floor count the hidden chips as part of the all-in?")),
            (Option("yes", *both(_N("Yes")), outcome(True, True)), Option("no", *both(_N("No")), "won")),
        )
        first = "counted"
    return Procedure("hidden_chips", *both(_N("Hidden chips at an all-in")), first, steps)


def _premature_declaration_procedure(profile: HouseRules) -> Procedure | None:
    """004 #59: a conditional statement, or "call" before the bettor named his amount."""
    if profile.rulebook != "munotpoker":
        return None
    step = Step(
        "what",
        *both(_N("What did the player declare?")),
        (
            Option(
                "conditional",
                *both(_N("A conditional statement ('if you bet, I raise')")),
                _ruling_outcome(premature_declaration(profile, "conditional")),
            ),
            Option(
                "call_before_amount",
                *both(_N("'Call' before the bettor named the amount")),
                _ruling_outcome(premature_declaration(profile, "call_before_amount")),
            ),
        ),
    )
    return Procedure("premature_declaration", *both(_N("Premature declaration")), "what", {"what": step})


def _stack_count_procedure(profile: HouseRules) -> Procedure | None:
    """004 #60: an exact count of a stack only for a player facing an all-in whose turn it is."""
    if profile.rulebook != "munotpoker":
        return None
    estimate = _ruling_outcome(stack_count(profile, facing_all_in=False, to_act=False))
    steps = {
        "facing": Step(
            "facing",
            *both(_N("Does the asking player face an all-in bet?")),
            (Option("yes", *both(_N("Yes")), "turn"), Option("no", *both(_N("No")), estimate)),
        ),
        "turn": Step(
            "turn",
            *both(_N("Is it the player's turn to act?")),
            (
                Option("yes", *both(_N("Yes")), _ruling_outcome(stack_count(profile, facing_all_in=True, to_act=True))),
                Option("no", *both(_N("No")), estimate),
            ),
        ),
    }
    return Procedure("stack_count", *both(_N("Counting a stack")), "facing", steps)


def _stack_count_for_hand(procedure: Procedure, facts: HandFacts) -> Procedure:
    """004 #60 with the hand known: whose turn it is and whether that player faces an all-in are the
    tablet's; the one question left is who asks (the player to act, or another player)."""
    facing, turn = procedure.steps["facing"], procedure.steps["turn"]
    estimate = next(o.next for o in facing.options if o.key == "no")
    exact = next(o.next for o in turn.options if o.key == "yes")
    options: tuple = ()
    if facts.to_act_seat is not None:
        options = (Option("to_act", *both(_N("The player to act")), exact if facts.facing_all_in else estimate),)
    step = Step(
        "who",
        *both(_N("Who asks for the count?")),
        options + (Option("other", *both(_N("Another player")), estimate),),
    )
    return Procedure(procedure.key, procedure.title_en, procedure.title_de, "who", {"who": step})


_BUILDERS: dict[str, Any] = {
    "premature_board": _premature_procedure,
    "exposed_card": _exposed_procedure,
    "misdeal": _misdeal_procedure,
    "hidden_chips": _hidden_chips_procedure,
    "premature_declaration": _premature_declaration_procedure,
    "stack_count": _stack_count_procedure,
}


def procedures_for(profile: HouseRules) -> list[Procedure]:
    """The guided procedures of ``profile``: ``premature_board`` (003 Miss-Deal /
    Burn Cards, 004 #39, 001 6.25), ``exposed_card`` (000 Allgemein 9/Aktionen 10,
    001 6.25/6.32, 003 Miss-Deal, 004 #35/#68) and ``misdeal`` (000 Allgemein 9,
    003 Miss-Deal, 004 #35-#37), built for the profile's rulebook; where the rulebook
    has the rule also ``hidden_chips`` (002 #15-#17, 004 #62), ``premature_declaration``
    (004 #59) and ``stack_count`` (004 #60)."""
    return [p for build in _BUILDERS.values() if (p := build(profile)) is not None]


def get_procedure(profile: HouseRules, key: str) -> Procedure:
    """One procedure by key; raises ProcedureError("unknown_procedure") for an unknown key or
    one this profile's rulebook does not have."""
    build = _BUILDERS.get(key)
    proc = build(profile) if build is not None else None
    if proc is None:
        known = ", ".join(p.key for p in procedures_for(profile))
        raise ProcedureError("unknown_procedure", f"unknown procedure {key!r}; known: {known}")
    return proc


def walk(profile: HouseRules, procedure_key: str, answers: list[str], facts: HandFacts | None = None) -> Step | Outcome:
    """Follow ``answers`` (option keys, in order) from the first step; with ``facts`` the questions
    the hand answers are not asked (:func:`for_hand`).

    Returns the next :class:`Step` to ask, or the :class:`Outcome` reached
    (answers beyond an outcome are an error). Raises ProcedureError
    ("unknown_procedure" | "bad_answer").
    """
    proc = get_procedure(profile, procedure_key)
    if facts is not None:
        proc = for_hand(proc, facts)
    if not isinstance(answers, (list, tuple)):
        raise ProcedureError("bad_answer", "answers must be a list of option keys")
    node: Step | Outcome = proc.steps[proc.first]
    for n, answer in enumerate(answers):
        if isinstance(node, Outcome):
            raise ProcedureError("bad_answer", f"answer {n + 1} ({answer!r}) comes after the outcome")
        option = next((o for o in node.options if o.key == answer), None)
        if option is None:
            raise ProcedureError(
                "bad_answer",
                f"step {node.key!r} has no option {answer!r}; options: {', '.join(o.key for o in node.options)}",
            )
        node = proc.steps[option.next] if isinstance(option.next, str) else option.next
    return node
