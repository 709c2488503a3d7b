"""House-rule profiles as plain data (standard library only: no Django here).

A :class:`HouseRules` profile holds one plain value per parameter (so that
``profile.min_raise == "double_previous"`` reads naturally, and the hand
engine's ``poker.hand.Rules`` can be filled from it), and, for every
parameter, the :class:`Citation` s of the rules the value was read from.

Profiles shipped (slug -> source):

========================  ====================================================
``tda-2024``              TDA 2024 standard ("TDA 2024 Rule N"); the base of
                          every other profile: a parameter a house rulebook
                          does not regulate keeps the TDA value *and the TDA
                          citation*, so the app never claims a house rule it
                          does not have.
``casino-cash``           000 Cash Game Reglement (casino cash games)
``wynental``              001 Allgemeine Turnierregeln, Kartenfreunde Wynental
``betting-rules``         002 Einsätze und Erhöhungen
``nlhe``                  003 Texas Hold'em No Limit with dealer procedures
``munotpoker``            004 Turnierregeln der MunotPoker GmbH (TDA 2019 based)
========================  ====================================================

Section numbers are those of the documents as shipped in
``rules/rulebooks/<slug>.json`` ("Aktionen 4", "6.13", "#44", "Showdown
Reihenfolge"); ``tests/rules/test_profiles.py`` checks that every citation
resolves to a shipped rule. TDA numbers follow the 2019 numbering, which the
2022 and 2024 editions kept and which 004 mirrors rule for rule.

Use :func:`get_profile`, :data:`PROFILES` and :func:`cite`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from poker.rulebooks import RULEBOOKS, TDA, Citation, rulebook

__all__ = [
    "Citation",
    "HouseRules",
    "PROFILES",
    "PARAMETERS",
    "RULEBOOK_FILES",
    "TDA",
    "get_profile",
    "cite",
    "is_substantial_action",
    "misdeal_still_possible",
]

#: rulebook slug -> (seed file, label prefix); derived from :data:`poker.rulebooks.RULEBOOKS`.
RULEBOOK_FILES: dict[str, tuple[str, str]] = {b.slug: (b.seed, b.prefix) for b in RULEBOOKS.values() if b.seed}

_r = Citation.parse
"""``_r("004 #44")``: the citation written as its label (see :func:`poker.rulebooks.cite`)."""


# --------------------------------------------------------------------------- parameters
@dataclass(frozen=True)
class HouseRules:
    """One house-rule profile: plain parameter values plus where each comes from.

    Value vocabulary (chips are ints; ``None`` = the source does not regulate it):

    - ``min_raise``: ``"last_full_raise"`` | ``"double_previous"`` (same strings as
      ``poker.hand.Rules.min_raise``; "double_previous" = raise to at least
      twice the current bet, 002 #4).
    - ``min_bet``: ``"big_blind"``.
    - ``split_limit_raise_cap``: raises allowed per round in split-limit games
      (``None`` = no cap); ``split_limit_cap_lifted_heads_up``: cap gone when
      only two players remain.
    - ``short_all_in_reopens``: ``"cumulative"`` (engine value: an all-in short of
      a full raise does not reopen the betting for players who already acted).
    - ``short_all_in_caller_may_reraise``: True (standard: a player who called a
      short all-in may re-raise when a later full raise comes back to him) or
      False (003 "All-In": he may then only call or fold).
    - ``oversized_chip_facing_blinds``: ``"call"`` | ``"raise_to_chip_value"``;
      ``oversized_chip_facing_bet``: ``"call"``; ``oversized_chip_opening_bet``:
      ``"bet_chip_value"``; ``oversized_chip_raise_no_amount``: ``"chip_value"``
      (the most the chip allows, capped at the pot in pot-limit).
    - ``multiple_chips``: ``"call_unless_one_chip_removable"``.
    - ``silent_raise_allowed``: False when a raise must be declared (001 6.18).
    - ``short_raise_silent``: ``"fifty_percent"`` (>= 50 % of the minimum raise
      increment -> raise, completed to the minimum; else call) |
      ``"bet_plus_half"`` (002 #13: the full bet plus half of it -> raise).
    - ``short_raise_declared``: ``"minimum_raise"`` | ``"fifty_percent_or_withdraw"``.
    - ``string_raise_counts_as``: ``"call"``; ``string_bet_counts_as``:
      ``"first_motion"`` | ``"minimum_bet"``; ``verbal_allows_several_motions``.
    - ``call_without_bet_is``: ``"check"``; ``raise_without_bet_is``: ``"bet"``;
      ``check_facing_bet_allows``: ``"call_or_fold"``;
      ``pot_declared_in_no_limit``: ``"minimum"``.
    - ``unclear_amount``: ``"highest_reasonable_up_to_pot"``;
      ``declared_raise_amount``: ``"total"`` ("raise 5000" = raise to 5000).
    - ``short_bet``: ``"complete_to_minimum"`` (a bet below the minimum is
      brought up to it unless all-in).
    - ``verbal_binding``: True; ``verbal_vs_chips``: ``"first_binds"``.
    - ``out_of_turn_changed_by``: tuple of the intervening actions that free an
      out-of-turn player (``("bet", "raise")``, or with ``"call"`` for 002 #8);
      ``out_of_turn_check_restricts``: an out-of-turn check forbids a later bet/raise.
    - ``undercall``: ``"call_if_heads_up_or_opening_bet"`` (TDA/004 #51) |
      ``"complete_or_fold"`` (000, 003) | ``"complete"`` (002 #10, #14).
    - ``odd_chip``: ``"left_of_button"`` (engine value); ``odd_chip_unit``:
      ``"small_blind"`` | ``"smallest_chip"``.
    - ``bet_unit``: ``"small_blind"`` or None; ``bet_unit_big_blind_stakes``:
      blind pairs where the unit is the big blind instead (000: ``((2, 5),)``).
    - ``ante_format``: ``"big_blind_ante"`` | ``"every_player"`` | None (the tournament
      clock accepts only big blind antes under ``"big_blind_ante"``, 004 #81).
    - ``button_rule``: ``"dead_button"`` | ``"button_stays_no_small_blind"`` (both the
      tournament's dead-button movement, TDA 32, 001 6.10) | ``"no_dead_button"`` (the
      button always moves on, 004 #32) | None (cash games: not regulated).
    - ``heads_up_button``: ``"small_blind_on_button"``;
      ``heads_up_no_double_big_blind``: bool (the tournament button procedure
      implements only these values and refuses a profile asking otherwise).
    - ``clock_seconds`` (total, countdown included), ``clock_countdown_seconds``,
      ``clock_expiry``: ``"dead"`` | ``"dead_if_facing_bet_else_check"``.
    - ``showdown_no_bet``: ``"left_of_button"`` (engine value; after a bet the last
      aggressor shows first in every rulebook, which the engine does unconditionally).
    - ``substantial_action``: ``"two_actions_one_with_chips_or_three"`` |
      ``"two_actions"``; ``misdeal_until``: ``"substantial_action"``;
      ``misdeal_after_flop``: bool.
    - ``exposed_card_on_deal`` (a hole card the dealer exposes while dealing):
      ``"replace"`` (never a misdeal; 001 6.25) | ``"misdeal"`` (000 Allgemein 9 c) |
      ``"replace_one_misdeal_two"`` (one card is replaced, two or more are a misdeal).
    - ``premature_board_card``: ``"reshuffle"`` (premature flop reshuffled, premature
      turn set aside, river reshuffled; 003 Miss-Deal, 004 #39) |
      ``"becomes_burn_card"`` (001 6.25: a card exposed later in the hand becomes the burn card).
    - ``four_card_flop``: ``"random_burn"`` (004 #39, TDA 39) | ``"redress"`` (003 Burn Cards).
    - ``skipped_player_late`` (a skipped player who let substantial action pass):
      ``"floor_dead_or_passive"`` (004 #53) | ``"oot_binding_floor_decides"`` (TDA 53) |
      ``"must_object_immediately"`` (002 #9, 003).
    - ``penalty_kinds``: the penalty ladder, a tuple of ``"warning"``,
      ``"sit_out_hands"``, ``"sit_out_orbits"``, ``"disqualification"``;
      ``penalty_sit_out``: ``"dealt_in_hand_killed"`` (a player sitting out a
      penalty is dealt in, his blinds and antes are posted and his hand is killed).

    ``sources`` maps each parameter to its citations, ``notes`` to a short
    English note on how it was read, ``inherited`` lists the parameters taken
    from the base profile because the rulebook is silent.
    """

    slug: str
    name: str
    rulebook: str | None
    base: str | None
    min_raise: str = "last_full_raise"
    min_bet: str = "big_blind"
    split_limit_raise_cap: int | None = None
    split_limit_cap_lifted_heads_up: bool | None = None
    short_all_in_reopens: str = "cumulative"
    short_all_in_caller_may_reraise: bool = True
    oversized_chip_facing_blinds: str = "call"
    oversized_chip_facing_bet: str = "call"
    oversized_chip_opening_bet: str = "bet_chip_value"
    oversized_chip_raise_no_amount: str = "chip_value"
    multiple_chips: str = "call_unless_one_chip_removable"
    silent_raise_allowed: bool = True
    short_raise_silent: str = "fifty_percent"
    short_raise_declared: str = "minimum_raise"
    string_raise_counts_as: str = "call"
    string_bet_counts_as: str = "first_motion"
    verbal_allows_several_motions: bool = True
    call_without_bet_is: str = "check"
    raise_without_bet_is: str = "bet"
    check_facing_bet_allows: str = "call_or_fold"
    pot_declared_in_no_limit: str = "minimum"
    unclear_amount: str = "highest_reasonable_up_to_pot"
    declared_raise_amount: str = "total"
    short_bet: str = "complete_to_minimum"
    verbal_binding: bool = True
    verbal_vs_chips: str = "first_binds"
    out_of_turn_changed_by: tuple = ("bet", "raise")
    out_of_turn_check_restricts: bool = False
    undercall: str = "call_if_heads_up_or_opening_bet"
    odd_chip: str = "left_of_button"
    odd_chip_unit: str = "smallest_chip"
    bet_unit: str | None = None
    bet_unit_big_blind_stakes: tuple = ()
    ante_format: str | None = None
    button_rule: str | None = "dead_button"
    heads_up_button: str = "small_blind_on_button"
    heads_up_no_double_big_blind: bool = True
    clock_seconds: int | None = 30
    clock_countdown_seconds: int | None = 5
    clock_expiry: str | None = "dead"
    showdown_no_bet: str = "left_of_button"
    substantial_action: str = "two_actions_one_with_chips_or_three"
    misdeal_until: str = "substantial_action"
    misdeal_after_flop: bool = True
    exposed_card_on_deal: str = "replace_one_misdeal_two"
    premature_board_card: str = "reshuffle"
    four_card_flop: str = "random_burn"
    skipped_player_late: str = "oot_binding_floor_decides"
    penalty_kinds: tuple = ("warning", "sit_out_hands", "sit_out_orbits", "disqualification")
    penalty_sit_out: str = "dealt_in_hand_killed"
    sources: dict = field(default_factory=dict, compare=False, repr=False)
    notes: dict = field(default_factory=dict, compare=False, repr=False)
    inherited: frozenset = field(default_factory=frozenset, compare=False, repr=False)

    def citations(self, parameter: str) -> list[Citation]:
        """The citations of ``parameter`` (see :func:`cite`)."""
        return cite(self, parameter)

    def to_dict(self) -> dict:
        """JSON shape: ``{"slug", "name", "rulebook", "base", "parameters": {name:
        {"value", "citations": [...], "note", "inherited"}}}``."""
        return {
            "slug": self.slug,
            "name": self.name,
            "rulebook": self.rulebook,
            "base": self.base,
            "parameters": {
                name: {
                    "value": list(v) if isinstance((v := getattr(self, name)), tuple) else v,
                    "citations": [c.to_dict() for c in self.sources.get(name, ())],
                    "note": self.notes.get(name, ""),
                    "inherited": name in self.inherited,
                }
                for name in PARAMETERS
            },
        }


_META = {"slug", "name", "rulebook", "base", "sources", "notes", "inherited"}
#: Names of all profile parameters, in declaration order.
PARAMETERS: tuple[str, ...] = tuple(f.name for f in fields(HouseRules) if f.name not in _META)


@dataclass(frozen=True)
class P:
    """A parameter value with its citations and an optional note (profile building only)."""

    value: Any
    cites: tuple[Citation, ...]
    note: str = ""


def _p(value, *cites: Citation, note: str = "") -> P:
    return P(value, tuple(cites), note)


def _build(slug: str, name: str, rulebook: str | None, base: HouseRules | None, **params: P) -> HouseRules:
    unknown = set(params) - set(PARAMETERS)
    if unknown:
        raise ValueError(f"profile {slug}: unknown parameters {sorted(unknown)}")
    if base is None:
        missing = set(PARAMETERS) - set(params)
        if missing:
            raise ValueError(f"base profile {slug} must set every parameter; missing {sorted(missing)}")
        values, sources, notes, inherited = {}, {}, {}, set()
    else:
        values = {n: getattr(base, n) for n in PARAMETERS}
        sources, notes = dict(base.sources), dict(base.notes)
        inherited = set(PARAMETERS) - set(params)
    for key, p in params.items():
        values[key] = p.value
        sources[key] = p.cites
        notes[key] = p.note
    return HouseRules(
        slug=slug,
        name=name,
        rulebook=rulebook,
        base=base.slug if base else None,
        sources=sources,
        notes=notes,
        inherited=frozenset(inherited),
        **values,
    )


# --------------------------------------------------------------------------- TDA 2024
TDA_2024 = _build(
    TDA,
    "TDA 2024 standard",
    None,
    None,
    min_raise=_p(
        "last_full_raise",
        _r("TDA 2024 Rule 43"),
        note="A raise must be at least the largest previous bet or raise of the round.",
    ),
    min_bet=_p("big_blind", _r("TDA 2024 Rule 43"), note="The minimum opening bet is the big blind."),
    split_limit_raise_cap=_p(None, _r("TDA 2024 Rule 48"), note="No cap on raises in no-limit and pot-limit."),
    split_limit_cap_lifted_heads_up=_p(None, _r("TDA 2024 Rule 48")),
    short_all_in_reopens=_p(
        "cumulative",
        _r("TDA 2024 Rule 47"),
        note="A short all-in does not reopen the betting for players who already acted; several short all-ins reopen once they add up to a full raise.",
    ),
    short_all_in_caller_may_reraise=_p(
        True, _r("TDA 2024 Rule 47"), note="A player facing at least a full raise since his last action may re-raise."
    ),
    oversized_chip_facing_blinds=_p("call", _r("TDA 2024 Rule 44")),
    oversized_chip_facing_bet=_p("call", _r("TDA 2024 Rule 44")),
    oversized_chip_opening_bet=_p("bet_chip_value", _r("TDA 2024 Rule 44")),
    oversized_chip_raise_no_amount=_p("chip_value", _r("TDA 2024 Rule 44")),
    multiple_chips=_p("call_unless_one_chip_removable", _r("TDA 2024 Rule 45")),
    silent_raise_allowed=_p(
        True, _r("TDA 2024 Rule 42"), note="A raise is made by a verbal amount, or all chips in one motion."
    ),
    short_raise_silent=_p("fifty_percent", _r("TDA 2024 Rule 43")),
    short_raise_declared=_p(
        "minimum_raise", _r("TDA 2024 Rule 43"), note="'Raise' declared with less than the minimum: a minimum raise."
    ),
    string_raise_counts_as=_p("call", _r("TDA 2024 Rule 56")),
    string_bet_counts_as=_p(
        "first_motion",
        _r("TDA 2024 Rule 56"),
        note="String bets are not allowed; only the first continuous motion counts.",
    ),
    verbal_allows_several_motions=_p(True, _r("TDA 2024 Rule 40"), _r("TDA 2024 Rule 42")),
    call_without_bet_is=_p("check", _r("TDA 2024 Rule 55")),
    raise_without_bet_is=_p("bet", _r("TDA 2024 Rule 55")),
    check_facing_bet_allows=_p("call_or_fold", _r("TDA 2024 Rule 55")),
    pot_declared_in_no_limit=_p("minimum", _r("TDA 2024 Rule 54")),
    unclear_amount=_p("highest_reasonable_up_to_pot", _r("TDA 2024 Rule 57")),
    declared_raise_amount=_p("total", _r("TDA 2024 Rule 40"), _r("TDA 2024 Rule 43")),
    short_bet=_p("complete_to_minimum", _r("TDA 2024 Rule 52")),
    verbal_binding=_p(True, _r("TDA 2024 Rule 51")),
    verbal_vs_chips=_p(
        "first_binds", _r("TDA 2024 Rule 40"), note="Whichever comes first, words or chips, defines the action."
    ),
    out_of_turn_changed_by=_p(
        ("bet", "raise"), _r("TDA 2024 Rule 53"), note="Check, call and fold do not change the action."
    ),
    out_of_turn_check_restricts=_p(False, _r("TDA 2024 Rule 53")),
    undercall=_p(
        "call_if_heads_up_or_opening_bet",
        _r("TDA 2024 Rule 51"),
        note="Mandatory full call heads-up or facing the opening bet; otherwise the floor decides.",
    ),
    odd_chip=_p("left_of_button", _r("TDA 2024 Rule 20")),
    odd_chip_unit=_p("smallest_chip", _r("TDA 2024 Rule 20")),
    bet_unit=_p(None, note="No divisibility rule."),
    bet_unit_big_blind_stakes=_p((), note="No divisibility rule."),
    ante_format=_p(None, note="Not regulated by a numbered TDA rule (big blind ante is a recommended procedure)."),
    button_rule=_p("dead_button", _r("TDA 2024 Rule 32")),
    heads_up_button=_p("small_blind_on_button", _r("TDA 2024 Rule 34")),
    heads_up_no_double_big_blind=_p(True, _r("TDA 2024 Rule 34")),
    clock_seconds=_p(30, _r("TDA 2024 Rule 29"), note="25 seconds plus a 5-second countdown."),
    clock_countdown_seconds=_p(5, _r("TDA 2024 Rule 29")),
    clock_expiry=_p("dead", _r("TDA 2024 Rule 29")),
    showdown_no_bet=_p(
        "left_of_button",
        _r("TDA 2024 Rule 15"),
        note="No bet on the last round: the first player left of the button shows first.",
    ),
    substantial_action=_p("two_actions_one_with_chips_or_three", _r("TDA 2024 Rule 36")),
    misdeal_until=_p("substantial_action", _r("TDA 2024 Rule 35"), _r("TDA 2024 Rule 36")),
    misdeal_after_flop=_p(
        False, _r("TDA 2024 Rule 35"), note="A misdeal concerns the initial deal; board errors are handled separately."
    ),
    exposed_card_on_deal=_p(
        "replace_one_misdeal_two",
        _r("TDA 2024 Rule 35"),
        note="Two or more exposed cards on the initial deal are a misdeal; one is replaced.",
    ),
    premature_board_card=_p("reshuffle", _r("TDA 2024 Rule 39")),
    four_card_flop=_p(
        "random_burn",
        _r("TDA 2024 Rule 39"),
        note="The four cards are scrambled face down; the floor picks one at random as the next burn card.",
    ),
    skipped_player_late=_p(
        "oot_binding_floor_decides",
        _r("TDA 2024 Rule 53"),
        note="Substantial action to the skipped player's left: the out-of-turn action is binding; the floor decides on the skipped hand.",
    ),
    penalty_kinds=_p(("warning", "sit_out_hands", "sit_out_orbits", "disqualification"), _r("TDA 2024 Rule 71")),
    penalty_sit_out=_p(
        "dealt_in_hand_killed",
        _r("TDA 2024 Rule 71"),
        note="A player sitting out a penalty is dealt in, posts blinds and antes, and his hand is killed.",
    ),
)

# --------------------------------------------------------------------------- 000 casino cash
CASINO_CASH = _build(
    "casino-cash",
    "Casino cash games (000 Cash Game Reglement)",
    "casino-cash",
    TDA_2024,
    min_raise=_p(
        "last_full_raise",
        _r("000 Aktionen 3"),
        note="'Das Minimum Raise ist immer gleich hoch wie die Erhöhung zuvor.'",
    ),
    split_limit_raise_cap=_p(3, _r("000 Aktionen 3"), note="Split limit: three raises per betting round."),
    split_limit_cap_lifted_heads_up=_p(
        True, _r("000 Aktionen 3"), note="Unlimited once only two players remain before the third raise."
    ),
    short_all_in_reopens=_p(
        "cumulative",
        _r("000 Aktionen 5"),
        note="An all-in short of a full raise does not reopen the betting for players who already acted.",
    ),
    oversized_chip_facing_blinds=_p(
        "call",
        _r("000 Aktionen 4"),
        _r("000 Aktionen 5"),
        note="A chip bigger than the previous bet (the big blind counts) is a raise only if declared.",
    ),
    oversized_chip_facing_bet=_p("call", _r("000 Aktionen 4"), _r("000 Aktionen 5")),
    oversized_chip_opening_bet=_p(
        "bet_chip_value",
        _r("000 Aktionen 4"),
        note="After the flop an undeclared bigger chip is a bet of its full value.",
    ),
    oversized_chip_raise_no_amount=_p(
        "chip_value",
        _r("000 Aktionen 4"),
        note="Raise declared without amount: the maximum allowed (pot-limit) up to the chip's value.",
    ),
    multiple_chips=_p("call_unless_one_chip_removable", _r("000 Aktionen 4")),
    silent_raise_allowed=_p(
        True,
        _r("000 Aktionen 3"),
        note="Valid raises: in one motion, amount announced first, or 'raise' + call + raise in one motion.",
    ),
    short_raise_silent=_p("fifty_percent", _r("000 Aktionen 5")),
    string_raise_counts_as=_p("call", _r("000 Aktionen 3"), _r("000 Aktionen 2")),
    string_bet_counts_as=_p(
        "first_motion",
        _r("000 Aktionen 2"),
        note="The amount must be put in one continuous motion without returning to the stack.",
    ),
    verbal_allows_several_motions=_p(
        True, _r("000 Aktionen 3"), note="Aktionen 3 c): announce 'raise', put the call, then the raise in one motion."
    ),
    verbal_binding=_p(True, _r("000 Allgemein 4"), _r("000 Aktionen 2")),
    out_of_turn_changed_by=_p(
        ("bet", "raise"), _r("000 Aktionen 2"), note="'Check, Call oder Fold gelten nicht als Veränderung.'"
    ),
    undercall=_p(
        "complete_or_fold",
        _r("000 Aktionen 2"),
        note="Short call (raise not noticed): complete it or forfeit the chips and the pot; no raise.",
    ),
    odd_chip=_p(
        "left_of_button",
        _r("000 Allgemein 8"),
        _r("000 Aktionen 8"),
        note="Hold'em/Omaha: the winner nearest the button in betting order (the worse position, left of the button).",
    ),
    odd_chip_unit=_p(
        "small_blind", _r("000 Allgemein 8"), note="A pot is split only down to the small blind (or ante)."
    ),
    bet_unit=_p(
        "small_blind",
        _r("000 Allgemein 8"),
        _r("000 Einsätze 1"),
        note="Every bet must be divisible by the small blind (or ante); the excess is returned.",
    ),
    bet_unit_big_blind_stakes=_p(
        ((2, 5),), _r("000 Allgemein 8"), note="At 2/5 every bet must be divisible by the big blind."
    ),
    ante_format=_p(None, note="Cash flop games: no ante rule (Einsätze 2 only says the limit fixes blinds or ante)."),
    button_rule=_p(
        None, note="Cash game: blinds are always taken from every active stake (Einsätze 4); no dead-button rule."
    ),
    clock_seconds=_p(None, note="No clock rule in 000."),
    clock_countdown_seconds=_p(None),
    clock_expiry=_p(None),
    substantial_action=_p(
        "two_actions", _r("000 Allgemein 9"), note="Two active actions (check, bet, call, raise, re-raise or fold)."
    ),
    misdeal_until=_p("two_actions", _r("000 Allgemein 9")),
    misdeal_after_flop=_p(
        False, _r("000 Allgemein 9"), note="'Ein Spiel kann nach dem Flop nicht mehr für ungültig erklärt werden.'"
    ),
    exposed_card_on_deal=_p(
        "misdeal",
        _r("000 Allgemein 9"),
        note="c) the first or second card exposed is a misdeal (until two active actions).",
    ),
    penalty_kinds=_p(
        ("warning", "sit_out_hands", "disqualification"),
        _r("000 Strafen 4"),
        _r("000 Strafen 2"),
        note="'mündliche Verwarnung, Zeitstrafe oder Spielausschluss'; the time penalty is counted in hands.",
    ),
    penalty_sit_out=_p(
        "dealt_in_hand_killed",
        _r("000 Allgemein 6"),
        note="A player away from his seat is dealt in, his blinds are taken, his hand is invalid.",
    ),
)

# --------------------------------------------------------------------------- 001 Wynental
WYNENTAL = _build(
    "wynental",
    "Kartenfreunde Wynental tournaments (001)",
    "wynental",
    TDA_2024,
    min_raise=_p(
        "last_full_raise",
        _r("001 6.17"),
        _r("001 Spielablauf"),
        note="001 says only 'mindestens um einen Big Blind'; applied as the standard last full raise, which is never below one big blind.",
    ),
    split_limit_raise_cap=_p(
        None, _r("001 6.16"), note="No-limit: no cap; limit tournaments per the tournament structure."
    ),
    short_all_in_reopens=_p(
        "cumulative", _r("001 6.17"), note="'Ein unvollständiger All-in Satz gilt nicht als voller Einsatz.'"
    ),
    oversized_chip_facing_blinds=_p("call", _r("001 6.20")),
    oversized_chip_facing_bet=_p("call", _r("001 6.20")),
    oversized_chip_opening_bet=_p(
        "bet_chip_value", _r("001 6.20"), note="After the flop an opening oversized chip counts at its value."
    ),
    oversized_chip_raise_no_amount=_p(
        "chip_value", _r("001 6.20"), note="'der höchstmögliche Betrag, maximal bis zu der Wertigkeit des Chips'."
    ),
    silent_raise_allowed=_p(
        False,
        _r("001 6.18"),
        note="A raise must be announced before the chips touch the table, otherwise it is a call.",
    ),
    string_raise_counts_as=_p("call", _r("001 6.28"), _r("001 6.18")),
    string_bet_counts_as=_p("first_motion", _r("001 6.28")),
    verbal_binding=_p(True, _r("001 6.19")),
    out_of_turn_changed_by=_p(("bet", "raise"), _r("001 6.19")),
    odd_chip=_p("left_of_button", _r("001 Odd Chips")),
    ante_format=_p(
        "every_player",
        _r("001 Ante"),
        note="An ante paid by every player regardless of position, when the structure provides one.",
    ),
    button_rule=_p(
        "button_stays_no_small_blind",
        _r("001 6.10"),
        note="When the big blind busts, the button stays put and there is no small blind that round.",
    ),
    heads_up_button=_p("small_blind_on_button", _r("001 Heads up")),
    clock_seconds=_p(30, _r("001 6.13")),
    clock_countdown_seconds=_p(
        None, _r("001 6.13"), note="The dealer warns shortly before the 30 seconds run out; no fixed countdown."
    ),
    clock_expiry=_p("dead", _r("001 6.13")),
    showdown_no_bet=_p("left_of_button", _r("001 6.21")),
    exposed_card_on_deal=_p(
        "replace",
        _r("001 6.25"),
        note="The exposed card goes face up to the middle, the player gets a new card, the exposed card becomes the burn card.",
    ),
    premature_board_card=_p(
        "becomes_burn_card",
        _r("001 6.25"),
        note="'Deckt der Dealer im späteren Spielverlauf aus Versehen eine Karte auf ... zur burning card.'",
    ),
    penalty_kinds=_p(
        ("sit_out_orbits", "disqualification"),
        _r("001 6.37"),
        note="'von einer Button-Runde bis zu einer Disqualifikation'.",
    ),
    penalty_sit_out=_p(
        "dealt_in_hand_killed",
        _r("001 6.37"),
        _r("001 6.14"),
        note="The player leaves the table for the penalty; a player not at the table when the cards are dealt has a dead hand.",
    ),
)

# --------------------------------------------------------------------------- 002 betting rules
BETTING_RULES = _build(
    "betting-rules",
    "Betting rules page (002 Einsätze und Erhöhungen)",
    "betting-rules",
    TDA_2024,
    min_raise=_p(
        "double_previous",
        _r("002 #4"),
        note="BB 100, bet 100, raise to 200: the next raise must be to at least 400 (read as twice the current bet, as the engine does).",
    ),
    min_bet=_p("big_blind", _r("002 #3")),
    split_limit_raise_cap=_p(None, _r("002 #2")),
    oversized_chip_facing_blinds=_p("call", _r("002 #11")),
    oversized_chip_facing_bet=_p("call", _r("002 #11")),
    multiple_chips=_p("call_unless_one_chip_removable", _r("002 #12")),
    short_raise_silent=_p(
        "bet_plus_half",
        _r("002 #13"),
        note="The full bet plus half of it or more counts as a raise, which must be completed; not with a single bigger chip.",
    ),
    short_raise_declared=_p(
        "fifty_percent_or_withdraw",
        _r("002 #6"),
        note="Under 50 % of the minimum the raise may be withdrawn; 50 % or more must be completed, even all-in.",
    ),
    string_raise_counts_as=_p("call", _r("002 #13")),
    verbal_binding=_p(True, _r("002 #5")),
    short_bet=_p("complete_to_minimum", _r("002 #14")),
    out_of_turn_changed_by=_p(
        ("bet", "call", "raise"), _r("002 #8"), note="Binding only if no intervening bet, call or raise."
    ),
    out_of_turn_check_restricts=_p(
        True, _r("002 #8"), note="Out-of-turn check: no bet or raise later; out-of-turn call can never become a raise."
    ),
    undercall=_p(
        "complete",
        _r("002 #10"),
        _r("002 #14"),
        note="Short bets and calls are completed; a player who missed a raise may withdraw if nobody acted after him and he put in under 50 %.",
    ),
    skipped_player_late=_p(
        "must_object_immediately", _r("002 #9"), note="A skipped player must alert the dealer to keep his right to act."
    ),
)

# --------------------------------------------------------------------------- 003 NLHE
NLHE = _build(
    "nlhe",
    "NLHE rules with dealer procedures (003)",
    "nlhe",
    TDA_2024,
    min_raise=_p(
        "last_full_raise",
        _r("003 Einsätze und Annoncen"),
        _r("003 Pre-Flop"),
        note="'Eine Erhöhung muss immer mindestens genau so hoch sein wie die vorangegangene Erhöhung.'",
    ),
    min_bet=_p("big_blind", _r("003 Flop"), _r("003 Die Setzrunden")),
    short_all_in_reopens=_p("cumulative", _r("003 All-In")),
    short_all_in_caller_may_reraise=_p(
        False,
        _r("003 All-In"),
        note="A player who only called a short all-in and then faces a raise may only call or fold.",
    ),
    oversized_chip_facing_blinds=_p(
        "call", _r("003 Einsätze und Annoncen"), note="A silent raise needs at least two chips in one motion."
    ),
    oversized_chip_facing_bet=_p("call", _r("003 Einsätze und Annoncen")),
    silent_raise_allowed=_p(True, _r("003 Einsätze und Annoncen")),
    string_raise_counts_as=_p("call", _r("003 Einsätze und Annoncen")),
    string_bet_counts_as=_p(
        "minimum_bet",
        _r("003 Einsätze und Annoncen"),
        note="Not in one motion: only the minimum bet (big blind) or a call.",
    ),
    verbal_allows_several_motions=_p(True, _r("003 Einsätze und Annoncen")),
    verbal_binding=_p(
        True, _r("003 Ausserordentliche und ordentliche Handlungen der Spieler"), _r("003 Einsätze und Annoncen")
    ),
    out_of_turn_changed_by=_p(("bet", "raise"), _r("003 Ausserordentliche und ordentliche Handlungen der Spieler")),
    undercall=_p(
        "complete_or_fold",
        _r("003 Einsätze und Annoncen"),
        note="A call that is too small must be completed to stay in the hand.",
    ),
    odd_chip=_p("left_of_button", _r("003 Pot Teilung / Odd-Chips")),
    heads_up_button=_p("small_blind_on_button", _r("003 Heads-Up")),
    showdown_no_bet=_p(
        "left_of_button",
        _r("003 Showdown Reihenfolge"),
        note="All checked: the first player who checked shows first (the first active player left of the button).",
    ),
    exposed_card_on_deal=_p(
        "replace_one_misdeal_two",
        _r("003 Miss-Deal"),
        note="One exposed card stays with the player until the deal is complete, is replaced and becomes the burn card; more than one is a misdeal.",
    ),
    premature_board_card=_p("reshuffle", _r("003 Miss-Deal")),
    four_card_flop=_p(
        "redress",
        _r("003 Burn Cards"),
        note="Wrongly dealt cards go back on the deck in their order (redress); if that is no longer possible, the burn is adjusted.",
    ),
    skipped_player_late=_p(
        "must_object_immediately", _r("003 Ausserordentliche und ordentliche Handlungen der Spieler")
    ),
    penalty_sit_out=_p(
        "dealt_in_hand_killed",
        _r("003 Ausserordentliche und ordentliche Handlungen der Spieler"),
        note="An absent player's blinds are posted by the dealer; absent at the second hole card = folded.",
    ),
)

# --------------------------------------------------------------------------- 004 MunotPoker
MUNOTPOKER = _build(
    "munotpoker",
    "MunotPoker tournaments (004)",
    "munotpoker",
    TDA_2024,
    min_raise=_p("last_full_raise", _r("004 #43")),
    split_limit_raise_cap=_p(None, _r("004 #48")),
    short_all_in_reopens=_p("cumulative", _r("004 #47")),
    short_all_in_caller_may_reraise=_p(True, _r("004 #47")),
    oversized_chip_facing_blinds=_p(
        "raise_to_chip_value",
        _r("004 #44"),
        note="No bet yet (only blinds) and no declaration: raise to the chip's full value.",
    ),
    oversized_chip_facing_bet=_p("call", _r("004 #44"), note="Even if it is the player's last chip."),
    oversized_chip_raise_no_amount=_p("chip_value", _r("004 #44")),
    multiple_chips=_p(
        "call_unless_one_chip_removable",
        _r("004 #45"),
        note="If one chip was not needed for the call, the 50 % rule of #43 decides.",
    ),
    silent_raise_allowed=_p(True, _r("004 #42")),
    short_raise_silent=_p("fifty_percent", _r("004 #43"), _r("004 #45")),
    short_raise_declared=_p("minimum_raise", _r("004 #43")),
    string_raise_counts_as=_p("call", _r("004 #56"), _r("004 #42")),
    string_bet_counts_as=_p("first_motion", _r("004 #56")),
    call_without_bet_is=_p("check", _r("004 #55")),
    raise_without_bet_is=_p("bet", _r("004 #55")),
    check_facing_bet_allows=_p("call_or_fold", _r("004 #55")),
    pot_declared_in_no_limit=_p("minimum", _r("004 #54")),
    unclear_amount=_p("highest_reasonable_up_to_pot", _r("004 #57")),
    declared_raise_amount=_p("total", _r("004 #43"), note="'Raise 5'000' is a raise to 5,000 in total."),
    short_bet=_p("complete_to_minimum", _r("004 #52")),
    verbal_binding=_p(True, _r("004 #51"), _r("004 #50")),
    verbal_vs_chips=_p("first_binds", _r("004 #40")),
    out_of_turn_changed_by=_p(("bet", "raise"), _r("004 #53")),
    undercall=_p("call_if_heads_up_or_opening_bet", _r("004 #51")),
    odd_chip=_p("left_of_button", _r("004 #20"), note="The 'worse' position."),
    odd_chip_unit=_p("smallest_chip", _r("004 #20")),
    ante_format=_p(
        "big_blind_ante",
        _r("004 #81"),
        note="Small or big blind ante posted by the big blind; not halved short-handed.",
    ),
    button_rule=_p("no_dead_button", _r("004 #32")),
    heads_up_button=_p("small_blind_on_button", _r("004 #34")),
    heads_up_no_double_big_blind=_p(True, _r("004 #34")),
    clock_seconds=_p(30, _r("004 #29"), note="25 seconds plus a 5-second countdown."),
    clock_countdown_seconds=_p(5, _r("004 #29")),
    clock_expiry=_p("dead_if_facing_bet_else_check", _r("004 #29")),
    showdown_no_bet=_p("left_of_button", _r("004 #17"), note="No bet on the river: position decides."),
    substantial_action=_p("two_actions_one_with_chips_or_three", _r("004 #36")),
    misdeal_until=_p("substantial_action", _r("004 #35"), _r("004 #36")),
    exposed_card_on_deal=_p(
        "replace_one_misdeal_two",
        _r("004 #35"),
        note="'die 2. Karte unabsichtlich offen ... gedealt' is a misdeal; a single exposed card is replaced.",
    ),
    premature_board_card=_p("reshuffle", _r("004 #39")),
    four_card_flop=_p("random_burn", _r("004 #39")),
    skipped_player_late=_p(
        "floor_dead_or_passive",
        _r("004 #53"),
        note="The floor declares the skipped hand dead or lets him act passively (call, check or fold only).",
    ),
    penalty_kinds=_p(("warning", "sit_out_hands", "sit_out_orbits", "disqualification"), _r("004 #71")),
    penalty_sit_out=_p(
        "dealt_in_hand_killed",
        _r("004 #71"),
        note="Cards are dealt to the seat and collected before the betting round; blinds and antes are always posted.",
    ),
)

#: slug -> profile
PROFILES: dict[str, HouseRules] = {
    p.slug: p for p in (TDA_2024, CASINO_CASH, WYNENTAL, BETTING_RULES, NLHE, MUNOTPOKER)
}


def get_profile(slug: str) -> HouseRules:
    """Return the profile called ``slug``.

    Accepts the profile slug (``"munotpoker"``), the seed's number (``"004"``)
    or file name (``"004_703829b529d7b378.txt"``), and ``"tda"`` for
    ``"tda-2024"``. Raises KeyError (message lists the known slugs) otherwise.
    """
    key = (slug or "").strip().lower()
    if key not in PROFILES:
        try:
            key = rulebook(key).slug
        except KeyError:
            pass
    try:
        return PROFILES[key]
    except KeyError:
        raise KeyError(f"unknown profile {slug!r}; known: {', '.join(PROFILES)}") from None


def cite(profile: HouseRules, parameter: str) -> list[Citation]:
    """Citations of the rules ``profile``'s value of ``parameter`` comes from.

    An inherited parameter cites the base profile's rule (e.g. TDA 2024).
    Raises KeyError for an unknown parameter name.
    """
    if parameter not in PARAMETERS:
        raise KeyError(f"unknown parameter {parameter!r}")
    return list(profile.sources.get(parameter, ()))


def _puts_chips(action: str) -> bool:
    return action in ("bet", "call", "raise", "all-in", "complete")


def is_substantial_action(profile: HouseRules, actions: list[str]) -> bool:
    """Whether the actions taken so far (in turn, blinds not included) are
    substantial action under ``profile``.

    ``actions``: the action words since the deal, e.g. ``["fold", "call"]``.
    ``"two_actions_one_with_chips_or_three"`` (004 #36, TDA 36): two actions of
    which at least one puts chips in (not two checks or two folds), or any three
    actions. ``"two_actions"`` (000 Allgemein 9): any two active actions.
    """
    n = len(actions)
    if profile.substantial_action == "two_actions":
        return n >= 2
    if n >= 3:
        return True
    return n == 2 and any(_puts_chips(a) for a in actions)


def misdeal_still_possible(profile: HouseRules, actions: list[str], street: str = "preflop") -> bool:
    """Whether a misdeal may still be declared (004 #35/#36, 000 Allgemein 9, TDA 35/36).

    False once substantial action (per :func:`is_substantial_action`) has
    occurred, and under 000 also once the flop is out.
    """
    if street != "preflop" and not profile.misdeal_after_flop:
        return False
    return not is_substantial_action(profile, actions)


def with_overrides(profile: HouseRules, **values) -> HouseRules:
    """A copy of ``profile`` with some plain values changed (tests, what-if views).
    The changed parameters lose their citations."""
    sources = {k: v for k, v in profile.sources.items() if k not in values}
    return replace(profile, sources=sources, **values)
