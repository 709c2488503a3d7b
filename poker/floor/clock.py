"""Calling the clock on a player (001 6.13, 004 #29, TDA 29). Standard library only."""

from __future__ import annotations

from dataclasses import dataclass

from poker.houserules import HouseRules
from poker.i18n import _N, both

from .common import ProcedureError, book_citations, citation_dicts, profile_citations


@dataclass(frozen=True)
class ClockPolicy:
    """The clock once "time" is called.

    ``total_seconds``: seconds the player has in all (None: the rulebook has no
    clock; the floor decides); ``think_seconds`` + ``countdown_seconds`` =
    ``total_seconds`` (the final countdown, 0 when there is none);
    ``warning``: ``"countdown"`` (a counted final countdown, 004 #29) |
    ``"dealer_reminder"`` (the dealer reminds the player shortly before the
    end, 001 6.13) | None; ``expiry``: the profile's ``clock_expiry``.
    """

    total_seconds: int | None
    think_seconds: int | None
    countdown_seconds: int
    warning: str | None
    expiry: str | None
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "total_seconds": self.total_seconds,
            "think_seconds": self.think_seconds,
            "countdown_seconds": self.countdown_seconds,
            "warning": self.warning,
            "expiry": self.expiry,
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "citations": citation_dicts(self.citations),
        }


@dataclass(frozen=True)
class TimeExpiry:
    """What happens when the clock runs out: ``action`` (engine action dict, or
    None when the floor decides), ``dead`` (the hand is dead)."""

    action: dict | None
    dead: bool
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "action": dict(self.action) if self.action else None,
            "dead": self.dead,
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "citations": citation_dicts(self.citations),
        }


# --------------------------------------------------------------------------- time
def clock_policy(profile: HouseRules) -> ClockPolicy:
    """The clock after "time" is called, from ``clock_seconds``,
    ``clock_countdown_seconds`` and ``clock_expiry``.

    004 #29 / TDA 29: 25 s + a 5 s countdown (total 30); 001 6.13: 30 s and the
    dealer reminds the player shortly before; 000 has no clock rule
    (``total_seconds`` None: the floor decides, 000 Allgemein 1).
    """
    total = profile.clock_seconds
    if total is None:
        return ClockPolicy(
            None,
            None,
            0,
            None,
            None,
            *both(_N("This rulebook has no clock rule: the floor sets the time at its discretion.")),
            profile_citations(profile, "clock_seconds", extra=book_citations(profile, "floor_discretion")),
        )
    countdown = profile.clock_countdown_seconds or 0
    think = total - countdown
    if countdown:
        en, de = both(
            _N(
                'After "time" the player has %(think)s seconds plus a %(countdown)s-second countdown '
                "(%(total)s s in all)."
            ),
            think=think,
            countdown=countdown,
            total=total,
        )
        warning = "countdown"
    else:
        en, de = both(
            _N('After "clock" the player has %(total)s seconds; the dealer gives a reminder shortly before the end.'),
            total=total,
        )
        warning = "dealer_reminder"
    return ClockPolicy(
        total,
        think,
        countdown,
        warning,
        profile.clock_expiry,
        en,
        de,
        profile_citations(profile, "clock_seconds", "clock_countdown_seconds", "clock_expiry"),
    )


def time_expired(profile: HouseRules, facing_bet: bool, seat: int) -> TimeExpiry:
    """The action when the clock on ``seat`` runs out.

    ``clock_expiry`` ``"dead"`` (001 6.13, TDA 29): the hand is dead, a fold even
    when he could check. ``"dead_if_facing_bet_else_check"`` (004 #29): dead
    (fold) facing a bet, else a check. None (000): no action, the floor decides.

    Raises ProcedureError("bad_action") if ``seat`` is not an int.
    """
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_action", "seat must be an integer")
    cites = profile_citations(profile, "clock_expiry")
    if profile.clock_expiry == "dead_if_facing_bet_else_check":
        if facing_bet:
            return TimeExpiry(
                {"type": "fold", "seat": seat},
                True,
                *both(_N("Time is up facing a bet: the hand is dead.")),
                cites,
            )
        return TimeExpiry(
            {"type": "check", "seat": seat},
            False,
            *both(_N("Time is up with no bet to call: the player checks.")),
            cites,
        )
    if profile.clock_expiry == "dead":
        return TimeExpiry(
            {"type": "fold", "seat": seat},
            True,
            *both(
                _N("Time is up: the hand is declared dead and folded.")
                if facing_bet
                else _N("Time is up: the hand is declared dead and folded, even though a check was possible.")
            ),
            cites,
        )
    return TimeExpiry(
        None,
        False,
        *both(_N("This rulebook has no clock rule: the floor decides what happens.")),
        profile_citations(profile, "clock_expiry", extra=book_citations(profile, "floor_discretion")),
    )
