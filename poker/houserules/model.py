"""The house-rule profile type: one plain value per parameter and the citations it was read from,
the builder the shipped profiles use, and the rules computed from a profile (substantial action,
misdeal)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from poker.rulebooks import RULEBOOKS, Citation

#: rulebook slug -> (seed file, label prefix); derived from :data:`poker.rulebooks.RULEBOOKS`.
__all__ = [
    "PARAMETERS",
    "RULEBOOK_FILES",
    "HouseRules",
    "P",
    "build_profile",
    "cite",
    "is_substantial_action",
    "misdeal_still_possible",
    "param",
    "with_overrides",
]

RULEBOOK_FILES: dict[str, tuple[str, str]] = {b.slug: (b.seed, b.prefix) for b in RULEBOOKS.values() if b.seed}


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
    - ``pot_limit_preflop_all_in`` (pot limit, before the flop, an all-in short of the
      blind or of the previous bet): ``"counted_full"`` (counted in the pot as if it
      matched: 004 #54, blinds 1,000/1,000 and an all-in for 800, the pot raise is to
      5,000) | ``"actual"`` (pokerkit's reading: the chips really in, 4,800 in that
      example; the value of every rulebook that says nothing about it). Same values
      as ``poker.hand.Rules.pot_limit_preflop_all_in``.
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
    - ``misdeal_too_late`` (a deal error noticed once a misdeal can no longer be declared):
      ``"play_on"`` (the hand proceeds, the floor decides on an affected hand; TDA 35,
      004 #35) | ``"faulty_hand_void"`` (000 Allgemein 9: after two active actions the faulty
      hand is declared void and play goes on; after the flop the deal is never void).
    - ``absent_player`` (a player away from his seat when the cards are dealt; his blinds are
      posted for him at the minimum): ``"hand_dead"`` (000 Allgemein 6, 001 Sitzverteilung /
      6.14, 004 #30, TDA 30) | ``"hand_dead_unless_all_in"`` (003: an absent player set
      "Auto All-In" is not folded and can win the main pot).
    - ``hidden_chips_at_all_in`` (chips hidden from the opponent at an all-in):
      ``"paid_on_declared_only"`` (002 #15-#17: the hidden chips are in the all-in, the all-in
      player is paid only on the declared amount, a covering opponent wins them all) |
      ``"floor_decides_forfeited"`` (004 #62: if the floor does not count them, they are not
      paid out to a winning all-in player, a losing one is out and the floor may give them to
      the winner) | None (not regulated: the floor decides).
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
    - ``dealer_undo`` (the dealer takes back a wrong entry on the tablet, ``poker.hand.undo``):
      ``"until_next_action"`` (the last recorded betting action, until the next player acts
      or a card is dealt) | ``"none"`` (every correction goes through the floor).

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
    pot_limit_preflop_all_in: str = "actual"
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
    misdeal_too_late: str = "play_on"
    absent_player: str = "hand_dead"
    hidden_chips_at_all_in: str | None = None
    exposed_card_on_deal: str = "replace_one_misdeal_two"
    premature_board_card: str = "reshuffle"
    four_card_flop: str = "random_burn"
    skipped_player_late: str = "oot_binding_floor_decides"
    penalty_kinds: tuple = ("warning", "sit_out_hands", "sit_out_orbits", "disqualification")
    penalty_sit_out: str = "dealt_in_hand_killed"
    dealer_undo: str = "until_next_action"
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


def param(value, *cites: Citation, note: str = "") -> P:
    """A profile parameter: ``value`` with the rules it was read from (``cites``) and a ``note``."""
    return P(value, tuple(cites), note)


def build_profile(slug: str, name: str, rulebook: str | None, base: HouseRules | None, **params: P) -> HouseRules:
    """A :class:`HouseRules` profile ``slug`` from ``params`` (:func:`param` values) over ``base``
    (None: a base profile, which must set every parameter); raises ValueError for an unknown
    parameter or a base profile that leaves one out."""
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
    occurred, and under 000 also once the flop is out (Seven Card Stud:
    once fourth street is dealt; ``street`` "ante" and "third" count as preflop).
    """
    if street not in ("preflop", "ante", "third") and not profile.misdeal_after_flop:
        return False
    return not is_substantial_action(profile, actions)


def with_overrides(profile: HouseRules, **values) -> HouseRules:
    """A copy of ``profile`` with some plain values changed (tests, what-if views).
    The changed parameters lose their citations."""
    sources = {k: v for k, v in profile.sources.items() if k not in values}
    return replace(profile, sources=sources, **values)
