"""Guided step-by-step procedures for the dealer tablet: premature and irregular boards,
exposed cards, misdeals (000 Allgemein 9, 001 6.25, 003 "Miss-Deal"/"Burn Cards",
004 #35-#39, TDA 35-39). Standard library only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from poker.houserules import HouseRules, misdeal_still_possible

from .common import ProcedureError, _book, _cdicts, _cites, _merge, _r


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
            "kind": "outcome",
            "summary_en": self.summary_en,
            "summary_de": self.summary_de,
            "instructions_en": self.instructions_en,
            "instructions_de": self.instructions_de,
            "corrections": [dict(c) for c in self.corrections],
            "citations": _cdicts(self.citations),
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


#: Representative action lists for the "actions so far" question.
_ACTION_ANSWERS: tuple[tuple[str, str, str, list[str]], ...] = (
    ("none", "No action yet", "Noch keine Aktion", []),
    ("one", "One action", "Eine Aktion", ["fold"]),
    ("two_no_chips", "Two actions, both checks or folds", "Zwei Aktionen, nur Checks oder Folds", ["fold", "fold"]),
    (
        "two_with_chips",
        "Two actions, at least one with chips (call, bet, raise)",
        "Zwei Aktionen, mindestens eine mit Chips (Call, Bet, Raise)",
        ["fold", "call"],
    ),
    ("three_or_more", "Three or more actions", "Drei oder mehr Aktionen", ["fold", "fold", "fold"]),
)


def _misdeal_outcome(profile: HouseRules, cause_cites: tuple) -> Outcome:
    cites = _cites(profile, "misdeal_until", extra=list(cause_cites) + _book(profile, "misdeal_replay"))
    return Outcome(
        "Misdeal: the hand is void, every chip goes back.",
        "Miss-Deal: die Hand ist ungültig, alle Einsätze gehen zurück.",
        "Collect all cards, reshuffle, and deal the same hand again with the same button and blinds.",
        "Alle Karten einziehen, neu mischen und dieselbe Hand mit gleichem Button und gleichen Blinds neu geben.",
        ({"type": "misdeal"},),
        cites,
    )


def _too_late_outcome(profile: HouseRules, cause_cites: tuple) -> Outcome:
    return Outcome(
        "Too late for a misdeal: the hand is played on.",
        "Für einen Miss-Deal ist es zu spät: die Hand wird weitergespielt.",
        "Play the hand on as dealt; the floor decides on any affected hand.",
        "Die Hand wird wie gegeben weitergespielt; über eine betroffene Hand entscheidet der Floorman.",
        (),
        _cites(profile, "substantial_action", "misdeal_until", "misdeal_after_flop", extra=cause_cites),
    )


def _actions_step(profile: HouseRules, key: str, cause_cites: tuple) -> Step:
    """ "Which actions were taken?" -> misdeal or too late, per the profile's
    substantial-action rule (004 #36, 000 Allgemein 9)."""
    options = []
    seen: dict[bool, bool] = {}
    for akey, en, de, words in _ACTION_ANSWERS:
        ok = misdeal_still_possible(profile, words)
        seen[ok] = True
        options.append(
            Option(
                akey, en, de, _misdeal_outcome(profile, cause_cites) if ok else _too_late_outcome(profile, cause_cites)
            )
        )
    return Step(
        key,
        "Which actions have been taken since the deal (blinds not counted)?",
        "Welche Aktionen gab es seit dem Austeilen (Blinds nicht mitgezählt)?",
        tuple(options),
    )


def _flop_step(profile: HouseRules, key: str, next_key: str, cause_cites: tuple) -> Step:
    later: str | Outcome
    if profile.misdeal_after_flop:
        later = next_key
    else:
        later = _too_late_outcome(profile, cause_cites)
    return Step(
        key,
        "Is the flop already out?",
        "Liegt der Flop bereits?",
        (
            Option("no", "No, still before the flop", "Nein, noch vor dem Flop", next_key),
            Option("yes", "Yes", "Ja", later),
        ),
    )


# Misdeal causes per rulebook: (key, en, de, citation labels)
_MISDEAL_CAUSES: dict[str | None, tuple] = {
    "casino-cash": (
        (
            "extra_cards",
            "Two or more extra cards were dealt",
            "Zwei oder mehrere zusätzliche Karten ausgeteilt",
            ("000 Allgemein 9",),
        ),
        ("seat_skipped", "A player received no cards", "Ein Spieler hat keine Karten erhalten", ("000 Allgemein 9",)),
        (
            "exposed",
            "The first or second card was exposed",
            "Die erste oder zweite Karte wurde aufgedeckt",
            ("000 Allgemein 9",),
        ),
    ),
    "wynental": (
        ("exposed", "A card was exposed during the deal", "Beim Verteilen wurde eine Karte aufgedeckt", ("001 6.25",)),
    ),
    "nlhe": (
        (
            "not_shuffled",
            "The deck was not shuffled and/or cut",
            "Vor dem Austeilen nicht gemischt und/oder geschnitten",
            ("003 Miss-Deal",),
        ),
        (
            "irregular_card",
            "A player got an irregular card that cannot be redressed",
            "Ein Spieler erhielt eine irreguläre Karte, nicht mehr zu redressieren",
            ("003 Miss-Deal",),
        ),
        (
            "extra_cards",
            "A player got too many cards that cannot be redressed",
            "Ein Spieler erhielt zu viele Karten, nicht mehr zu redressieren",
            ("003 Miss-Deal",),
        ),
        (
            "two_exposed",
            "More than one hole card dealt face up",
            "Mehr als eine Karte offen ausgeteilt",
            ("003 Miss-Deal",),
        ),
        ("off_table", "A card was dealt off the table", "Eine Karte über die Tischkante geworfen", ("003 Miss-Deal",)),
        ("boxed", "Two or more face-up cards in the deck", "Zwei oder mehr offene Karten im Deck", ("003 Miss-Deal",)),
    ),
    "munotpoker": (
        ("off_table", "A card flew off the table", "Eine Karte flog vom Tisch", ("004 #35",)),
        ("boxed", "Two or more cards face up in the deck", "2 oder mehr Karten falsch herum im Stapel", ("004 #35",)),
        ("two_exposed", "A second card was dealt face up", "Die 2. Karte wurde offen gedealt", ("004 #35",)),
        (
            "wrong_first_card",
            "The first card went to the wrong seat",
            "Die erste Karte ging an den falschen Platz",
            ("004 #35",),
        ),
        (
            "empty_seat",
            "Cards were dealt to a seat not in the hand",
            "Karten an einen Platz, der nicht in der Hand ist",
            ("004 #35",),
        ),
        (
            "seat_skipped",
            "A player at his seat received no cards",
            "Ein Spieler am Platz erhielt keine Karten",
            ("004 #35",),
        ),
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
        en = (
            "Put the exposed card face up in the middle, give the player a new card and finish the deal; "
            "the exposed card becomes the burn card."
        )
        de = (
            "Die offene Karte in die Mitte legen (für alle sichtbar), dem Spieler eine neue Karte geben und "
            "fertig austeilen; die offene Karte wird zur Burn Card."
        )
    elif profile.rulebook == "nlhe":
        en = (
            "Leave the exposed card with the player until everybody has his cards, then replace it with the "
            "next card of the deck; put the exposed card face up on the deck and use it as the first burn card."
        )
        de = (
            "Die offene Karte bleibt beim Spieler, bis alle ihre Karten haben; dann durch die nächste Karte "
            "ersetzen, die offene Karte offen auf das Deck legen und vor dem Flop als Burn Card verwenden."
        )
    else:
        en = (
            "Finish the deal, then replace the exposed card with the next card of the deck; the exposed card "
            "is shown and used as the first burn card. (At the button, the player may receive two consecutive cards.)"
        )
        de = (
            "Fertig austeilen, dann die offene Karte durch die nächste Karte ersetzen; die offene Karte wird "
            "gezeigt und als erste Burn Card verwendet. (Am Button kann der Spieler zwei Karten nacheinander erhalten.)"
        )
    return Outcome(
        "Not a misdeal: the exposed card is replaced.",
        "Kein Miss-Deal: die offene Karte wird ersetzt.",
        en,
        de,
        (),
        cites,
    )


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
        options.append(
            Option(
                "button_short",
                "The button received too few cards",
                "Der Button hat zu wenig Karten erhalten",
                Outcome(
                    "Not a misdeal: the button gets his missing card, even after substantial action "
                    "(if he acted with too few cards unreported, his hand is dead).",
                    "Kein Miss-Deal: der Button erhält seine fehlende Karte, auch nach wesentlichen Aktionen "
                    "(hat er mit zu wenig Karten gehandelt, ohne es zu melden, ist seine Hand tot).",
                    "Give the button the next card.",
                    "Dem Button die nächste Karte geben.",
                    (),
                    tuple(_book(profile, "button_short")),
                ),
            )
        )
    options.append(
        Option(
            "other",
            "Something else",
            "Etwas anderes",
            Outcome(
                "Not a listed misdeal cause: the floor decides.",
                "Kein aufgeführter Miss-Deal-Grund: der Floorman entscheidet.",
                "",
                "",
                (),
                tuple(_book(profile, "floor_discretion")),
            ),
        )
    )
    steps["cause"] = Step(
        "cause", "What went wrong during the deal?", "Was ist beim Austeilen schiefgegangen?", tuple(options)
    )
    return Procedure("misdeal", "Misdeal", "Miss-Deal", "cause", steps)


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
        "How many hole cards did the dealer expose?",
        "Wie viele Karten hat der Dealer offen ausgeteilt?",
        (
            Option("one", "One card", "Eine Karte", "flop" if misdeal_flow_one else replace),
            Option(
                "two_or_more", "Two or more cards", "Zwei oder mehr Karten", "flop" if misdeal_flow_two else replace
            ),
        ),
    )
    pc = tuple(_book(profile, "player_exposes"))
    if profile.rulebook == "casino-cash":
        player = Step(
            "deliberate",
            "Did he expose a card on purpose, to get a reaction, before he acted?",
            "Hat er eine Karte absichtlich geöffnet, um eine Reaktion zu erhalten, bevor er gehandelt hat?",
            (
                Option(
                    "yes",
                    "Yes",
                    "Ja",
                    Outcome(
                        "The hand counts as folded.",
                        "Die Hand gilt als gepasst.",
                        "Collect the cards.",
                        "Karten einziehen.",
                        (
                            {"type": "kill", "seat": None},
                            {"type": "penalty", "seat": None, "kind": "warning", "count": 0},
                        ),
                        pc,
                    ),
                ),
                Option(
                    "no",
                    "No",
                    "Nein",
                    Outcome(
                        "The hand is passive; the floor may declare it dead in the interest of fairness, and show one - show all applies.",
                        "Die Hand ist passiv; sie kann im Sinne der Fairness für ungültig erklärt werden; „show one – show all“.",
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
            "The hand stays live; the player may be penalised (the penalty starts after the hand).",
            "Die Hand bleibt gültig; der Spieler kann bestraft werden (die Strafe beginnt nach der Hand).",
            "",
            "",
            (),
            pc,
        )
    if profile.premature_board_card == "becomes_burn_card":
        board_next: Any = Outcome(
            "The card becomes the burn card.",
            "Die Karte wird zur Burn Card.",
            "Put the exposed card face up in the middle; it is the burn card of the next street.",
            "Die aufgedeckte Karte offen in die Mitte legen; sie ist die Burn Card der nächsten Setzrunde.",
            (),
            _cites(profile, "premature_board_card"),
        )
    else:
        board_next = Outcome(
            "Follow the premature board card procedure.",
            "Verfahren für zu früh aufgedeckte Boardkarten anwenden.",
            'Open the procedure "premature_board".',
            "Verfahren „premature_board“ öffnen.",
            (),
            _cites(profile, "premature_board_card"),
        )
    steps["when"] = Step(
        "when",
        "Which card was exposed?",
        "Welche Karte wurde aufgedeckt?",
        (
            Option(
                "deal",
                "A hole card, by the dealer during the deal",
                "Eine Hole Card, vom Dealer beim Austeilen",
                "how_many",
            ),
            Option(
                "deck", "A card from the deck, later in the hand", "Eine Karte vom Deck, später in der Hand", board_next
            ),
            Option(
                "player", "A player exposed his own card", "Ein Spieler hat seine eigene Karte gezeigt", player_next
            ),
        ),
    )
    return Procedure("exposed_card", "Exposed card", "Aufgedeckte Karte", "when", steps)


def _premature_procedure(profile: HouseRules) -> Procedure:
    cites = _cites(profile, "premature_board_card")
    fc = _cites(profile, "four_card_flop")
    if profile.premature_board_card == "becomes_burn_card":
        burn = Outcome(
            "The prematurely exposed card becomes the burn card.",
            "Die zu früh aufgedeckte Karte wird zur Burn Card.",
            "Put the card face up in the middle; finish the betting round; it counts as the burn card, "
            "the next card of the deck is dealt without another burn.",
            "Die Karte offen in die Mitte legen; Setzrunde beenden; sie gilt als Burn Card, die nächste "
            "Karte wird ohne weiteres Brennen ausgelegt.",
            (),
            cites,
        )
        flop = turn = river = burn
    else:
        flop = Outcome(
            "Premature flop: the flop is dealt again.",
            "Zu früher Flop: der Flop wird neu gegeben.",
            "Finish the betting round. Put the flop cards back into the stub (the burn card stays a burn card, "
            "the discards stay out), reshuffle and cut, then deal a new flop without burning again.",
            "Setzrunde beenden. Die Flop-Karten zurück ins Deck (Burn Card und Discard bleiben draussen), neu mischen "
            "und schneiden, dann ohne erneutes Brennen einen neuen Flop geben.",
            (),
            cites,
        )
        turn = Outcome(
            "Premature turn: the card is set aside and comes back into the deck for the river.",
            "Zu früher Turn: die Karte wird zur Seite gelegt und kommt für den River zurück ins Deck.",
            "Set the premature turn card aside face up and protect it. Finish the betting round, burn a card and "
            "deal the card that would have been the river as the turn. For the river, shuffle the set-aside card "
            "into the stub (without burns and discards), cut and deal the river without burning.",
            "Die zu frühe Turn-Karte offen zur Seite legen und schützen. Setzrunde beenden, eine Karte brennen und "
            "die eigentliche River-Karte als Turn auslegen. Für den River die zur Seite gelegte Karte ins Deck "
            "(ohne Burn Cards und Discard) mischen, schneiden und ohne Brennen den River geben.",
            (),
            cites,
        )
        river = Outcome(
            "Premature river: the river is dealt again.",
            "Zu früher River: der River wird neu gegeben.",
            "Set the card aside; after the betting round shuffle it back into the stub (without burns and discards), "
            "cut and deal a new river without burning.",
            "Die Karte zur Seite legen; nach der Setzrunde zurück ins Deck (ohne Burn Cards und Discard) mischen, "
            "schneiden und ohne Brennen einen neuen River geben.",
            (),
            cites,
        )
    if profile.four_card_flop == "redress":
        four = Step(
            "redress",
            "Can the cards still be put back in their order (redressed)?",
            "Können die Karten noch in der richtigen Reihenfolge zurückgelegt werden (redressieren)?",
            (
                Option(
                    "yes",
                    "Yes",
                    "Ja",
                    Outcome(
                        "Redress: the extra card goes back on the deck.",
                        "Redressieren: die überzählige Karte kommt zurück aufs Deck.",
                        "Put the fourth card back on top of the deck in its place; the first three cards are the flop.",
                        "Die vierte Karte an ihren Platz oben auf das Deck zurücklegen; die ersten drei Karten sind der Flop.",
                        (),
                        fc,
                    ),
                ),
                Option(
                    "no",
                    "No",
                    "Nein",
                    Outcome(
                        "Not redressable: one card too many left the deck.",
                        "Nicht mehr redressierbar: eine Karte zu viel.",
                        "The floor decides which cards are the flop; at the next street do not burn a card.",
                        "Der Floorman entscheidet, welche Karten den Flop bilden; bei der nächsten Auslage keine Karte brennen.",
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
            "Four-card flop: one of the four becomes the burn card at random.",
            "Flop mit 4 Karten: eine der vier wird zufällig zur Burn Card.",
            "Call the floor. Scramble the four cards face down; the floor picks one at random as the next burn card; "
            "the other three are the flop.",
            "Floorman rufen. Die 4 Karten verdeckt mischen; der Floorman zieht zufällig eine als nächste Burn Card; "
            "die übrigen drei bilden den Flop.",
            (),
            fc,
        )
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
            Option(
                "burn_early",
                "A card was burned too early",
                "Eine Karte wurde zu früh gebrannt",
                Outcome(
                    "Put the burn card back.",
                    "Burn Card zurücklegen.",
                    "Put the card burned too early back on top of the deck.",
                    "Die zu früh gebrannte Karte wieder auf das Deck zurücklegen.",
                    (),
                    bc,
                ),
            ),
            Option(
                "no_burn",
                "No card was burned (cannot be redressed)",
                "Keine Karte gebrannt (nicht redressierbar)",
                Outcome(
                    "Complete the board; burn afterwards.",
                    "Auslage zu Ende führen; danach brennen.",
                    "Finish dealing the cards; the next card is burned afterwards.",
                    "Die Kartenauslegung zu Ende führen; die nächste Karte wird anschliessend gebrannt.",
                    (),
                    bc,
                ),
            ),
            Option(
                "extra_burn",
                "One card too many was burned (cannot be redressed)",
                "Eine Karte zu viel gebrannt (nicht redressierbar)",
                Outcome(
                    "No burn card at the next street.",
                    "Bei der nächsten Auslage keine Burn Card.",
                    "At the next street deal without burning. An exposed burn card is shown to all and then burned face down.",
                    "Bei der nächsten Kartenauslegung nicht brennen. Eine offene Burn Card allen zeigen, dann verdeckt brennen.",
                    (),
                    bc,
                ),
            ),
        ]
    steps["which"] = Step("which", "What happened on the board?", "Was ist beim Board passiert?", tuple(options))
    return Procedure(
        "premature_board", "Premature or irregular board", "Zu früh oder falsch gegebenes Board", "which", steps
    )


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
            raise ProcedureError(
                "bad_answer",
                f"step {node.key!r} has no option {answer!r}; options: {', '.join(o.key for o in node.options)}",
            )
        node = proc.steps[option.next] if isinstance(option.next, str) else option.next
    return node
