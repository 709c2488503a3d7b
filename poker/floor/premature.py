"""The guided procedure for a premature or irregular board (003 "Miss-Deal"/"Burn Cards",
004 #39, 001 6.25, TDA 36-39). Standard library only."""

from __future__ import annotations

from typing import Any

from poker.houserules import HouseRules
from poker.i18n import _N, _NC, both

from .common import book_citations, merge_citations, profile_citations, ref
from .procedure_model import Option, Outcome, Procedure, Step

__all__ = ["premature_procedure"]


def premature_procedure(profile: HouseRules) -> Procedure:
    """The ``premature_board`` procedure: a board card dealt too early, a four-card flop and
    the other board irregularities, as the profile's rulebook treats them (003 "Burn Cards",
    004 #39, 001 6.25, TDA 36-39)."""
    cites = profile_citations(profile, "premature_board_card")
    fc = profile_citations(profile, "four_card_flop")
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
                        merge_citations(fc, book_citations(profile, "floor_discretion")),
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
        bc = (ref("003 Burn Cards"),)
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
