"""Tournament house rules as data: one profile per rulebook.

Pure Python (standard library only).  Every procedure in
``poker.tournament`` is selected by a field of :class:`TournamentRules`, and
every parameter that comes from a rulebook carries the citation it was read
from, written as its label (``cite("004 #11")``, ``cite("001 Balancing")``,
see :mod:`poker.rulebooks`).  Procedure results carry it as that
:class:`~poker.rulebooks.Citation` (``str()`` ``"001 Balancing"``, ``"004 #11"``).

Section names follow the headings of the texts as shipped in
``rules/rulebooks/<slug>.json`` (e.g. 001 "Chip Race", "Ende des
Turniers").

Rulebooks (German originals in ``shared/seeds/``):

* ``001`` -- Allgemeine Turnierregeln, Kartenfreunde Wynental (Gränichen).
* ``003`` -- Texas Hold'em No Limit rules with dealer procedures (used for
  multiple eliminations, "Ausscheiden mehrerer Spieler").
* ``004`` -- MunotPoker GmbH tournament rules, based on TDA 2019, rules 1-83.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from poker.houserules import HouseRules, get_profile
from poker.rulebooks import RULEBOOKS, Citation, cite
from poker.rulebooks import rulebook as rulebook_named

PlayerId = Hashable
"""Any hashable player identifier (a database id, a name, ...)."""


RULEBOOK_SLUGS = {b.prefix: b.slug for b in RULEBOOKS.values() if b.seed}
"""Seed file prefix -> rulebook slug (derived from :data:`poker.rulebooks.RULEBOOKS`)."""


class UnsupportedByRulebook(ValueError):
    """Raised when a procedure is asked of a rulebook that has no rule for it."""


_BUTTON_MODES: dict[str, ButtonMode] = {
    "dead_button": "dead_button",
    "button_stays_no_small_blind": "dead_button",
    "no_dead_button": "moving_button",
}


def _button_mode(slug: str) -> ButtonMode:
    """The button movement of the house profile ``slug``'s ``button_rule``: TDA 32 and 001 move a
    dead button (001 6.10 in addition keeps the button in place when the big blind busts, with no
    small blind that hand: ``poker.tournament.buttons.next_positions``); 004 #32 never does."""
    rule = get_profile(slug).button_rule
    assert rule is not None  # a tournament profile names its button rule
    return _BUTTON_MODES[rule]


ButtonMode = Literal["dead_button", "moving_button"]
ChipRaceMethod = Literal["wynental", "tda"]
BreakingMethod = Literal["free_seats", "one_table_fewer"]
BalancingMethod = Literal["random_seat", "big_blind_to_worst_position"]
SimultaneousBusts = Literal["by_stack", "share_after_hand_for_hand"]
LateEntry = Literal["none", "dealt_in_unless_between_sb_and_button"]


@dataclass(frozen=True)
class TournamentRules:
    """A tournament house-rule profile (immutable).

    Build one with :func:`rules_for` and adjust room settings (table size,
    ...) with :meth:`with_` -- e.g. ``rules_for("wynental").with_(max_seats=9)``.

    Fields (all counts are players or seats, all ints):

    * ``rulebook`` -- ``"wynental"`` (001) or ``"munotpoker"`` (004), the slugs of
      :data:`poker.rulebooks.RULEBOOKS`.
    * ``max_seats`` -- seats per table.  A room setting; the defaults follow
      the final-table size of each rulebook (001 "Balancing": final table of
      10; 004 #78: final table of 9).
    * ``final_table_size`` -- players at which the final table is formed.
    * ``balance_at_difference`` -- balancing starts when the fullest and the
      shortest table differ by this many players (both rulebooks: 2).
    * ``balancing`` -- how the moved player and the new seat are chosen.
    * ``breaking`` -- when tables break (free seats per table, or "fits on one
      table fewer").
    * ``stop_at_free_seats`` -- 001: play stops at a table with this many free
      seats (5); ``None`` elsewhere.
    * ``registration_break_excess`` -- 004 #10 b): during registration a table
      breaks only once this many tables (2) are in excess.
    * ``broken_table_entry_utg_to_button`` -- 001 Tischauflösung: players
      from a broken table enter directly only from UTG to the button and
      otherwise wait for the button.
    * ``final_table_redraw`` -- 001: the final table is formed anew from the
      last players (all seats redrawn).
    * ``initial_button`` -- ``"draw"`` (001) or ``"seat_one"`` (004 #75).
    * ``button_mode`` -- ``"dead_button"`` (TDA 32, 001 "Dealerbutton"; under
      001 the button also stays in place when the big blind busts, 001 6.10,
      read from the house profile's ``button_rule``) or ``"moving_button"``
      (004 #32, no dead button).
    * ``chip_race`` and its parameters (suit order highest first, one card
      per player or per odd chip, round up when one unit is missing, at most
      one chip per player, nobody busts by the race).
    * ``simultaneous_busts`` -- 001/003 by stack at the start of the hand;
      004 #79 share equally once hand-for-hand is announced.
    * ``late_entry`` -- 004 #8; 001 has no late-registration rule.
    * ``citations`` -- procedure name -> :class:`poker.rulebooks.Citation`.  ``cite(name)``
      raises ``UnsupportedByRulebook`` for a procedure with no rule.
    """

    rulebook: Literal["wynental", "munotpoker"]
    max_seats: int
    final_table_size: int
    balance_at_difference: int
    balancing: BalancingMethod
    breaking: BreakingMethod
    stop_at_free_seats: int | None
    registration_break_excess: int | None
    broken_table_entry_utg_to_button: bool
    final_table_redraw: bool
    initial_button: Literal["draw", "seat_one"]
    button_mode: ButtonMode
    chip_race: ChipRaceMethod
    chip_race_suit_order: str
    chip_race_card_per_odd_chip: bool
    chip_race_round_up_one_missing: bool
    chip_race_max_chips_per_player: int | None
    chip_race_nobody_busts: bool
    simultaneous_busts: SimultaneousBusts
    late_entry: LateEntry
    citations: Mapping[str, Citation] = field(default_factory=dict)

    def cite(self, procedure: str) -> Citation:
        """Return the citation for ``procedure`` (e.g. ``"balancing"`` -> ``cite("004 #11")``,
        ``str()`` ``"004 #11"``).

        Raises ``UnsupportedByRulebook`` when this rulebook has no such rule.
        """
        try:
            return self.citations[procedure]
        except KeyError:
            raise UnsupportedByRulebook(f"rulebook {self.rulebook!r} has no rule for {procedure!r}") from None

    @property
    def house(self) -> HouseRules:
        """The house-rule profile of the same rulebook (:func:`poker.houserules.get_profile`),
        whose ``button_rule``, ``ante_format`` and heads-up parameters the tournament
        procedures read."""
        return get_profile(self.rulebook)

    def with_(self, **changes) -> TournamentRules:
        """Return a copy with room settings changed (``dataclasses.replace``)."""
        return replace(self, **changes)

    @property
    def final_table_seats(self) -> int:
        """Seats at the final table: at least ``final_table_size``."""
        return max(self.max_seats, self.final_table_size)


WYNENTAL = TournamentRules(
    rulebook="wynental",
    # 001 "Balancing": "Sind nur noch 10 Spieler übrig, wird aus ihnen der
    # Finaltisch gebildet" -- the room plays ten-handed tables.
    max_seats=10,
    final_table_size=10,
    # 001 "Balancing": "Abweichungen von maximal einer Person".
    balance_at_difference=2,
    balancing="random_seat",
    breaking="free_seats",
    # 001 "Balancing": "An Tischen, an denen 5 Plätze frei sind, wird das
    # Spiel gestoppt. Der Tisch wird aufgelöst oder durch einen Spieler
    # aufgefüllt."
    stop_at_free_seats=5,
    registration_break_excess=None,
    broken_table_entry_utg_to_button=True,
    final_table_redraw=True,
    # 001 "Dealerbutton": "In der ersten Runde wird der Dealer mittels
    # Platzkarte bestimmt."
    initial_button="draw",
    button_mode=_button_mode("wynental"),  # 001 6.10
    chip_race="wynental",
    # 001 "Chiprace": "(höchste zuerst): Kreuz, Pik, Herz, Karo".
    chip_race_suit_order="cshd",
    # 001 "Chiprace": "Jeder Spieler mit mindestens einem überzähligen Chip
    # erhält eine Karte."
    chip_race_card_per_odd_chip=False,
    chip_race_round_up_one_missing=True,
    chip_race_max_chips_per_player=None,
    chip_race_nobody_busts=False,
    simultaneous_busts="by_stack",
    late_entry="none",
    citations={
        "seating": cite("001 Sitzverteilung"),
        # 001 "Sitzverteilung": an absent player's chips play on, "die Blinds
        # werden automatisch bezahlt und die Karten gefoldet" (and 6.14).
        "absent": cite("001 Sitzverteilung"),
        "re_buy": cite("001 Re-buy/Add-on"),
        "initial_button": cite("001 Dealerbutton"),
        "button": cite("001 Dealerbutton"),
        "dead_button": cite("001 6.10"),
        "heads_up": cite("001 Heads up"),
        "balancing": cite("001 Balancing"),
        "breaking": cite("001 Balancing"),
        "final_table": cite("001 Balancing"),
        "broken_table_entry": cite("001 Tischauflösung"),
        "new_level": cite("001 Neues Limit"),
        "chip_race": cite("001 Chip Race"),
        "eliminations": cite("001 Ende des Turniers"),
        "eliminations_dealer": cite("003 Ausscheiden mehrerer Spieler"),
    },
)

MUNOT = TournamentRules(
    rulebook="munotpoker",
    # 004 #78: "finden immer mit 9 Spieler statt".
    max_seats=9,
    final_table_size=9,
    # 004 #11: "sobald eine Differenz von 2 oder mehr Spielern".
    balance_at_difference=2,
    balancing="big_blind_to_worst_position",
    breaking="one_table_fewer",
    stop_at_free_seats=None,
    # 004 #10 b): "bereits 2 Tische hätten aufgelöst werden sollen".
    registration_break_excess=2,
    broken_table_entry_utg_to_button=False,
    final_table_redraw=False,
    # 004 #75: "immer auf Platz 1 der Tische und wird nie ausgelost".
    initial_button="seat_one",
    button_mode=_button_mode("munotpoker"),  # 004 #32
    chip_race="tda",
    # 004 names no suit order; it follows TDA 2019, whose recommended
    # procedure ranks suits spades, hearts, diamonds, clubs.
    chip_race_suit_order="shdc",
    chip_race_card_per_odd_chip=True,
    chip_race_round_up_one_missing=False,
    # 004 #24: "Es kann maximal ein Chip gewonnen werden und ein Spieler kann
    # durch den Chiprace nicht ausscheiden."
    chip_race_max_chips_per_player=1,
    chip_race_nobody_busts=True,
    simultaneous_busts="share_after_hand_for_hand",
    late_entry="dealt_in_unless_between_sb_and_button",
    citations={
        "seating": cite("004 #7"),
        "late_entry": cite("004 #8"),
        # 004 #30: at the table before the last card of the initial deal, "ansonsten ist die Hand tot".
        "absent": cite("004 #30"),
        "re_buy": cite("004 #27"),
        "re_entry": cite("004 #72"),
        "waitlist": cite("004 #73"),
        "surrender": cite("004 #74"),
        "initial_button": cite("004 #75"),
        "button": cite("004 #32"),
        "dead_button": cite("004 #32"),
        "heads_up": cite("004 #34"),
        "balancing": cite("004 #11"),
        "breaking": cite("004 #10"),
        "final_table": cite("004 #78"),
        "new_level": cite("004 #23"),
        "chip_race": cite("004 #24"),
        "found_chips": cite("004 #24"),
        "hand_for_hand": cite("004 #77"),
        "eliminations": cite("004 #79"),
        "eliminations_dealer": cite("003 Ausscheiden mehrerer Spieler"),
        "big_blind_ante": cite("004 #81"),
    },
)

PROFILES: dict[str, TournamentRules] = {"wynental": WYNENTAL, "munotpoker": MUNOT}


def rules_for(rulebook: str, **changes) -> TournamentRules:
    """Return the profile for ``rulebook``: a slug (``"wynental"``, ``"munotpoker"``), a
    label prefix (``"001"``, ``"004"``) or the old spelling ``"munot"``
    (:func:`poker.rulebooks.rulebook`).

    Keyword ``changes`` override room settings, e.g. ``max_seats=9``.
    Raises ``KeyError`` for a rulebook without tournament rules.
    """
    try:
        slug = rulebook_named(rulebook).slug
    except KeyError:
        slug = rulebook
    profile = PROFILES[slug]
    return profile.with_(**changes) if changes else profile


def for_profile(profile: HouseRules) -> TournamentRules | None:
    """The tournament procedures' profile of a house-rule profile, or None when its rulebook has no
    tournament rules: ``for_profile(get_profile("wynental")) is WYNENTAL`` (001), ``MUNOT`` for 004, None
    for the cash-game rulebooks.  The house profile is the one profile type; this is its tournament part."""
    return PROFILES.get(profile.slug)
