"""The guided misdeal and exposed-card procedures (000 Allgemein 9/Aktionen 10, 001 6.25/6.32,
003 "Miss-Deal", 004 #35-#37/#68, TDA 35-37): the misdeal causes per rulebook, the
substantial-action and flop questions, and the exposed card replaced. Standard library only."""

from __future__ import annotations

from typing import Any

from poker.houserules import HouseRules, misdeal_still_possible
from poker.i18n import _N, _NC, both

from .common import book_citations, profile_citations, ref
from .procedure_model import Option, Outcome, Procedure, Step, dealer_may_finish

__all__ = ["exposed_outcome", "exposed_procedure", "misdeal_procedure"]


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
    cites = profile_citations(
        profile, "misdeal_until", extra=list(cause_cites) + book_citations(profile, "misdeal_replay")
    )
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
            profile_citations(
                profile, "substantial_action", "misdeal_too_late", "misdeal_after_flop", extra=cause_cites
            ),
        )
    return Outcome(
        *both(_N("Too late for a misdeal: the hand is played on.")),
        *both(_N("Play the hand on as dealt; the floor decides on any affected hand.")),
        (),
        profile_citations(profile, "substantial_action", "misdeal_until", "misdeal_after_flop", extra=cause_cites),
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


def exposed_outcome(profile: HouseRules) -> Outcome | None:
    """One hole card exposed by the dealer, when it is not a misdeal: the :class:`Outcome` that
    replaces it (001 6.25, 003 "Miss-Deal", 004 #35); None where the rulebook makes it a misdeal."""
    cites = profile_citations(profile, "exposed_card_on_deal")
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
def misdeal_procedure(profile: HouseRules) -> Procedure:
    """The ``misdeal`` procedure of the profile's rulebook: its misdeal causes (000 Allgemein 9,
    003 "Miss-Deal", 004 #35, TDA 35), each asking whether the flop is out and which actions
    were taken (004 #36, 000 Allgemein 9)."""
    book = profile.rulebook if profile.rulebook in _MISDEAL_CAUSES else None
    causes = _MISDEAL_CAUSES[book]
    steps: dict[str, Step] = {}
    options = []
    for key, label, sections in causes:
        cc = tuple(ref(s) for s in sections) if book else tuple(profile_citations(profile, "misdeal_until"))
        if key == "exposed" and profile.exposed_card_on_deal == "replace":
            options.append(Option(key, *both(label), exposed_outcome(profile)))
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
                    tuple(book_citations(profile, "button_short")),
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
                tuple(book_citations(profile, "floor_discretion")),
            ),
        )
    )
    steps["cause"] = Step("cause", *both(_N("What went wrong during the deal?")), tuple(options))
    return Procedure("misdeal", *both(_NC("procedure", "Misdeal"), context="procedure"), "cause", steps)


def exposed_procedure(profile: HouseRules) -> Procedure:
    """The ``exposed_card`` procedure: a hole card exposed by the dealer, a card from the deck
    later in the hand, or a player's own card (000 Allgemein 9/Aktionen 10, 001 6.25/6.32,
    003 "Miss-Deal", 004 #35/#68)."""
    cites = profile_citations(profile, "exposed_card_on_deal")
    steps: dict[str, Step] = {}
    replace = exposed_outcome(profile)
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
    pc = tuple(book_citations(profile, "player_exposes"))
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
            profile_citations(profile, "premature_board_card"),
            dealer_may_finish(profile, "burn_card"),
        )
    else:
        board_next = Outcome(
            *both(_N("Follow the premature board card procedure.")),
            *both(_N('Open the procedure "premature_board".')),
            (),
            profile_citations(profile, "premature_board_card"),
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
