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
}


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
            ``"pokerkit"`` (the reading of pokerkit 0.6.5, kept for the
            differential tests: a raise counts as full when its increment is
            at least the largest increment so far, and a run of consecutive
            all-in raises reopens once their increments add up to it).
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

    Raises:
        EngineError("bad_spec") for an unknown choice.
    """

    min_raise: str = "last_full_raise"
    short_all_in_reopens: str = "cumulative"
    straddle_min_raise: str = "straddle"
    odd_chip: str = "left_of_button"
    showdown_no_bet: str = "left_of_button"
    allow_hole_cards_unknown: bool = True

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise EngineError(
                    "bad_spec",
                    f"Rules.{name} must be one of {', '.join(choices)}, not {value!r}.",
                )

    @classmethod
    def pokerkit(cls) -> "Rules":
        """Return the profile that reproduces pokerkit 0.6.5 exactly.

        Used by the differential tests and available for PHH replays that
        were produced with pokerkit.
        """
        return cls(short_all_in_reopens="pokerkit", straddle_min_raise="min_bet")

    def to_dict(self) -> dict:
        """Return the rules as a JSON-serialisable dict of field -> value."""
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict) -> "Rules":
        """Build Rules from :meth:`to_dict` output (unknown keys are ignored)."""
        return cls(**{k: v for k, v in data.items() if k in cls.__slots__})
