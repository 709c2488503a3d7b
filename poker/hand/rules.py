"""House-rule profile of a hand, as plain data."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import EngineError

__all__ = ["Rules"]

_CHOICES = {
    "min_raise": ("last_full_raise", "double_previous"),
    "short_all_in_reopens": ("cumulative", "pokerkit"),
    "straddle_min_raise": ("straddle", "min_bet"),
    "odd_chip": ("left_of_button",),
    "showdown_no_bet": ("left_of_button",),
    "bet_unit": (None, "small_blind"),
    "odd_chip_unit": ("smallest_chip", "small_blind"),
    "pot_limit_preflop_all_in": ("actual", "counted_full"),
    "min_raise_cap": ("own_stack", "effective_stack"),
}

#: The fields a stored rules dict had before ``min_raise_cap`` existed; a
#: full dict with all of them and without ``min_raise_cap`` was played under
#: the old engine reading ``"effective_stack"`` (see :meth:`Rules.from_dict`).
_FIELDS_BEFORE_MIN_RAISE_CAP = frozenset(
    {
        "min_raise",
        "short_all_in_reopens",
        "straddle_min_raise",
        "odd_chip",
        "showdown_no_bet",
        "allow_hole_cards_unknown",
        "limit_raise_cap",
        "limit_cap_lifted_heads_up",
        "limit_blind_counts_as_bet",
        "bet_unit",
        "bet_unit_big_blind_stakes",
        "odd_chip_unit",
        "short_all_in_caller_may_reraise",
        "max_straddles",
    }
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules a hand is played under. Defaults = TDA No-Limit Hold'em.

    Fields:
        min_raise: ``"last_full_raise"`` (TDA: a raise must be at least the
            size of the largest previous full bet or raise of the round, and
            never less than the minimum bet) or ``"double_previous"`` (house
            rulebook 002 #4, "mindestens um die doppelte Höhe der vorherigen
            Erhöhung": BB 100, player 1 bets 100, player 2 raises to 200,
            player 3 must raise to at least 400; read as raise-to >= 2 x the
            current highest bet, and never less than highest bet + minimum
            bet).
        short_all_in_reopens: ``"cumulative"`` (TDA; rulebook 003 "All-In":
            an all-in that is less than a full raise does not reopen the
            betting for a player who already acted; it does once the
            increases since that player's last action add up to a full
            raise; a player who only checked may raise any bet) or
            ``"pokerkit"`` (the reading of pokerkit 0.7.7, kept for the
            differential tests and PHH replays: a raise counts as full when
            its increment is at least the largest increment so far; a run of
            consecutive all-in raises reopens for a player who already acted
            once their increments add up to it (the run then starts again);
            and nobody may raise while the amount to call is smaller than the
            largest increment, ``State._verify_completion_betting_or_raising``
            "Short all-in cannot be raised").
        straddle_min_raise: ``"straddle"`` (live practice: a live straddle is
            a blind raise, the next raise must be at least the straddle, i.e.
            to twice the straddle) or ``"min_bet"`` (pokerkit: the next raise
            is the straddle plus one minimum bet).
        odd_chip: ``"left_of_button"``: odd chips of a split pot go to the
            first winner clockwise from the button (rulebook 003 "Pot Teilung /
            Odd-Chips"; TDA).
        showdown_no_bet: ``"left_of_button"``: when nobody bet on the last
            betting round, the first active player left of the button shows
            first (rulebook 003 "Showdown Reihenfolge"; TDA).
        allow_hole_cards_unknown: when True the dealer may leave hole cards
            unentered and award pots by hand; when False an ``award`` action
            is refused unless the contenders' cards are known.
        limit_raise_cap: split-limit games (``HandSpec.game ==
            "limit_holdem"``): raises allowed per betting round after the
            bet (000 Aktionen 3: "pro Setzrunde drei Erhöhungen"; profile
            ``split_limit_raise_cap``); None = no cap.
        limit_cap_lifted_heads_up: True (000 Aktionen 3: when only two
            players are left in the hand before the cap is reached, the
            number of raises is no longer limited; profile
            ``split_limit_cap_lifted_heads_up``).
        limit_blind_counts_as_bet: True (live practice: preflop the big
            blind is the bet, so three raises cap the round at four small
            bets); False is pokerkit's reading, 0.6.5 to 0.7.7 (four raises on top of
            the blind).
        bet_unit: None (any whole chip) or ``"small_blind"`` (000 Allgemein
            8 / Einsätze 1: every bet must be divisible by the small blind,
            or the ante when there is no blind). ``HandSpec.bet_unit`` gives
            the unit in chips.
        bet_unit_big_blind_stakes: ``((small_blind, big_blind), ...)`` in
            chips where the unit is the big blind instead (000 Allgemein 8:
            "Im Limit 2/5 ... durch das Big Blind teilbar").
        odd_chip_unit: ``"smallest_chip"`` (a split pot is divided down to
            one chip) or ``"small_blind"`` (000 Allgemein 8: "Ein Pot wird
            nur bis zur Höhe des Small Blind bzw. des Ante geteilt"); the odd
            unit goes by ``odd_chip``.
        short_all_in_caller_may_reraise: True (TDA) or False (003 "All-In":
            a player who called a short all-in may only call or fold when a
            later player raises, for the rest of the betting round).
        pot_limit_preflop_all_in: ``"actual"`` (pokerkit: the pot limit
            counts the chips really in the middle) or ``"counted_full"``
            (004 #54: preflop an all-in that cannot match the blind or the
            previous bet counts as if it did; "Blind 1'000/1'000, Spieler
            geht mit 800 all in, Pot-Raise ist dennoch 5'000 und nicht
            4'400"; from the flop on the real pot). In that example the
            next player's pot raise is to 5,000 under ``"counted_full"``
            and to 4,800 under ``"actual"`` (1,000 + 1,000 + 800 + his
            call of 1,000 = 3,800, plus the call). Applies to every
            pot-limit game; the house profile's parameter of the same name.
        max_straddles: at most this many straddles per hand (000 Aktionen
            1: "eines oder mehrere zusätzliche Live-Straddles"); None = as
            many as the seats allow.
        min_raise_cap: ``"own_stack"`` (every house profile and pokerkit
            >= 0.7.4: the minimum raise is only lowered to the raiser's own
            all-in; 004 #43 "Ein Raise ... muss mindestens gleich hoch sein wie
            die bisher grösste Bet", 003 "Eine Erhöhung muss immer mindestens
            genau so hoch sein wie die vorangegangene Erhöhung", 002 #4 and
            000 Aktionen 3/5 name the raiser's own all-in as the only
            exception; what no opponent can cover comes back to the raiser
            as a bet nobody called, 004 #65) or ``"effective_stack"`` (pokerkit
            <= 0.7.3 and this engine before: the minimum is also lowered to
            what the largest opponent can still put in; heads-up, stacks 3
            and 200, blinds 1/2: raise to 3 instead of 4). Kept so hands
            stored under the old reading replay unchanged.

    Raises:
        EngineError("bad_spec") for an unknown choice.
    """

    min_raise: str = "last_full_raise"
    short_all_in_reopens: str = "cumulative"
    straddle_min_raise: str = "straddle"
    odd_chip: str = "left_of_button"
    showdown_no_bet: str = "left_of_button"
    allow_hole_cards_unknown: bool = True
    limit_raise_cap: int | None = 3
    limit_cap_lifted_heads_up: bool = True
    limit_blind_counts_as_bet: bool = True
    bet_unit: str | None = None
    bet_unit_big_blind_stakes: tuple = ()
    odd_chip_unit: str = "smallest_chip"
    short_all_in_caller_may_reraise: bool = True
    max_straddles: int | None = None
    pot_limit_preflop_all_in: str = "actual"
    min_raise_cap: str = "own_stack"

    def __post_init__(self) -> None:
        # JSON gives lists: keep the rules hashable and comparable.
        try:
            stakes = tuple((int(sb), int(bb)) for sb, bb in self.bet_unit_big_blind_stakes)
        except (TypeError, ValueError):
            raise EngineError(
                "bad_spec", "Rules.bet_unit_big_blind_stakes must be (small_blind, big_blind) pairs."
            ) from None
        object.__setattr__(self, "bet_unit_big_blind_stakes", stakes)
        for name in ("limit_raise_cap", "max_straddles"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise EngineError("bad_spec", f"Rules.{name} must be None or a non-negative int, not {value!r}.")
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise EngineError(
                    "bad_spec",
                    f"Rules.{name} must be one of {', '.join(map(str, choices))}, not {value!r}.",
                )

    @classmethod
    def pokerkit(cls) -> Rules:
        """Return the profile that reproduces pokerkit 0.7.7 exactly.

        Used by the differential tests and available for PHH replays that
        were produced with pokerkit.
        """
        return cls(
            short_all_in_reopens="pokerkit",
            straddle_min_raise="min_bet",
            limit_cap_lifted_heads_up=False,
            limit_blind_counts_as_bet=False,
        )

    @classmethod
    def from_house_rules(cls, profile) -> Rules:
        """Engine rules of a house-rule profile (duck-typed: any object with
        the attributes of ``poker.houserules.HouseRules``; not imported here,
        the engine stays free of the apps).

        Maps ``min_raise``, ``short_all_in_reopens``,
        ``short_all_in_caller_may_reraise`` (003 "All-In"), ``bet_unit``,
        ``bet_unit_big_blind_stakes``, ``odd_chip_unit`` (000 Allgemein 8),
        ``split_limit_raise_cap`` and ``split_limit_cap_lifted_heads_up``
        (000 Aktionen 3; None = the profile does not regulate it, the
        engine default stays) and ``pot_limit_preflop_all_in`` (004 #54).
        Raises EngineError("bad_spec") for values the engine does not know.
        """
        values = {
            "min_raise": profile.min_raise,
            "short_all_in_reopens": profile.short_all_in_reopens,
            "short_all_in_caller_may_reraise": profile.short_all_in_caller_may_reraise,
            "bet_unit": profile.bet_unit,
            "bet_unit_big_blind_stakes": profile.bet_unit_big_blind_stakes,
            "odd_chip_unit": profile.odd_chip_unit,
            "pot_limit_preflop_all_in": profile.pot_limit_preflop_all_in,
        }
        if profile.split_limit_raise_cap is not None:
            values["limit_raise_cap"] = profile.split_limit_raise_cap
        if profile.split_limit_cap_lifted_heads_up is not None:
            values["limit_cap_lifted_heads_up"] = profile.split_limit_cap_lifted_heads_up
        return cls(**values)

    def to_dict(self) -> dict:
        """Return the rules as a JSON-serialisable dict of field -> value
        (tuples as lists)."""
        return {
            name: [list(x) for x in value] if name == "bet_unit_big_blind_stakes" else value
            for name in self.__slots__
            for value in (getattr(self, name),)
        }

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Build Rules from :meth:`to_dict` output (unknown keys are ignored;
        missing keys take the defaults).

        A full dict written before ``min_raise_cap`` existed (every older
        field present, ``min_raise_cap`` absent) was played under
        ``"effective_stack"`` and keeps it, so stored hands replay as played.
        """
        values = {k: v for k, v in data.items() if k in cls.__slots__}
        if "min_raise_cap" not in values and _FIELDS_BEFORE_MIN_RAISE_CAP <= values.keys():
            values["min_raise_cap"] = "effective_stack"
        return cls(**values)
