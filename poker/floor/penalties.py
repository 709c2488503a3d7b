"""Penalties: the ladder, their length in hands and sitting out (000 Strafen 1-4, 001 6.37,
004 #71, TDA 71). Standard library only."""

from __future__ import annotations

from dataclasses import dataclass

from poker.houserules import Citation, HouseRules
from poker.i18n import _N, both, translate

from .common import PENALTY_KINDS, ProcedureError, Suggestion, citation_dicts, profile_citations

__all__ = ["PenaltyOption", "SitOutRule", "first_penalty", "hands_for_penalty", "penalty_options", "sit_out_rule"]


# --------------------------------------------------------------------------- penalties
@dataclass(frozen=True)
class PenaltyOption:
    """One rung of the penalty ladder: ``kind`` (see :data:`PENALTY_KINDS`),
    ``title_en``/``title_de``, ``unit`` (``"hands"``, ``"orbits"`` or None: no
    count), ``citations``."""

    kind: str
    title_en: str
    title_de: str
    unit: str | None
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "kind": self.kind,
            "title_en": self.title_en,
            "title_de": self.title_de,
            "unit": self.unit,
            "citations": citation_dicts(self.citations),
        }


#: Title msgid and unit of each penalty kind.
_PENALTY_TITLES: dict[str, tuple[str, str | None]] = {
    "warning": (_N("Verbal warning"), None),
    "sit_out_hands": (_N("Sit out hands"), "hands"),
    "sit_out_orbits": (_N("Sit out orbits"), "orbits"),
    "disqualification": (_N("Disqualification"), None),
}
#: Titles that one rulebook words its own way, by (rulebook, kind).
_PENALTY_TITLES_BOOK: dict[tuple[str | None, str], str] = {
    ("casino-cash", "sit_out_hands"): _N("Time penalty (sit out hands)"),
    ("casino-cash", "disqualification"): _N("Exclusion from the game"),
    ("wynental", "sit_out_orbits"): _N("Sit out button rounds"),
}


def _penalty_title(profile: HouseRules, kind: str) -> str:
    """The title msgid of penalty ``kind`` in the profile's rulebook."""
    return _PENALTY_TITLES_BOOK.get((profile.rulebook, kind), _PENALTY_TITLES[kind][0])


def penalty_options(profile: HouseRules) -> list[PenaltyOption]:
    """The penalty ladder of ``profile`` (``penalty_kinds``), mildest first.

    004 #71 / TDA 71: warning, hands, orbits, disqualification; 000 Strafen 4:
    verbal warning, time penalty, exclusion; 001 6.37: from one button round
    up to disqualification (no warning rung).
    """
    cites = profile_citations(profile, "penalty_kinds")
    out = []
    for kind in PENALTY_KINDS:
        if kind not in profile.penalty_kinds:
            continue
        out.append(PenaltyOption(kind, *both(_penalty_title(profile, kind)), _PENALTY_TITLES[kind][1], cites))
    return out


def hands_for_penalty(kind: str, count: int, players_dealt_in: int) -> int | None:
    """How many hands a penalty lasts.

    ``"warning"`` -> 0; ``"sit_out_hands"`` -> ``count``; ``"sit_out_orbits"``
    -> ``count * players_dealt_in`` (an orbit is one hand for every player dealt
    in at the table when the penalty is given, the offender included: 004 #71,
    TDA 71); ``"disqualification"`` -> None (no end).

    Raises ProcedureError("bad_penalty") for an unknown kind, a count < 1 for a
    sit-out, or fewer than 2 players.
    """
    if kind not in PENALTY_KINDS:
        raise ProcedureError("bad_penalty", f"kind must be one of {', '.join(PENALTY_KINDS)}")
    if kind == "warning":
        return 0
    if kind == "disqualification":
        return None
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise ProcedureError("bad_penalty", "count must be an integer >= 1")
    if kind == "sit_out_hands":
        return count
    if not isinstance(players_dealt_in, int) or isinstance(players_dealt_in, bool) or players_dealt_in < 2:
        raise ProcedureError("bad_penalty", "players_dealt_in must be an integer >= 2")
    return count * players_dealt_in


@dataclass(frozen=True)
class SitOutRule:
    """How a player sitting out a penalty is treated: ``dealt_in`` (his seat
    gets cards), ``blinds_and_antes_posted``, ``hand_killed`` (before the
    betting round), ``leaves_table``; and ``disqualified_chips_removed``."""

    dealt_in: bool
    blinds_and_antes_posted: bool
    hand_killed: bool
    leaves_table: bool
    disqualified_chips_removed: bool
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "dealt_in": self.dealt_in,
            "blinds_and_antes_posted": self.blinds_and_antes_posted,
            "hand_killed": self.hand_killed,
            "leaves_table": self.leaves_table,
            "disqualified_chips_removed": self.disqualified_chips_removed,
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "citations": citation_dicts(self.citations),
        }


def sit_out_rule(profile: HouseRules) -> SitOutRule:
    """Whether a player sitting out a penalty is dealt in, with blinds and antes
    posted and the hand killed (``penalty_sit_out``): 004 #71 (cards dealt and
    collected before the betting round, blinds and antes always posted), 001
    6.37 with 6.14 (he leaves the table; absent = dead hand), 000 Allgemein 6
    (absent: dealt in, blinds taken, hand invalid), TDA 71."""
    cites = profile_citations(profile, "penalty_sit_out")
    if profile.penalty_sit_out != "dealt_in_hand_killed":  # pragma: no cover - only value shipped
        raise ProcedureError("bad_penalty", f"unknown penalty_sit_out {profile.penalty_sit_out!r}")
    return SitOutRule(
        True,
        True,
        True,
        True,
        profile.rulebook != "casino-cash",
        *both(
            _N(
                "The player leaves the table. The seat is still dealt in and its blinds and antes are posted; its cards are collected before the betting round (the hand is dead). The stack can be blinded out."
            )
        ),
        cites,
    )


def first_penalty(profile: HouseRules, seat: int, topic_cites: list[Citation]) -> Suggestion:
    """The mildest penalty the profile has (:data:`PENALTY_KINDS`), as a :class:`Suggestion` for
    ``seat`` citing ``topic_cites`` and the penalty rules."""
    kind = next(k for k in PENALTY_KINDS if k in profile.penalty_kinds)
    count = 0 if kind in ("warning", "disqualification") else 1
    title = _penalty_title(profile, kind)
    title_msgid = _N("Penalty for seat %(seat)s: %(penalty)s")
    return Suggestion(
        "penalty",
        # the English title is lower-cased inside the sentence, the German noun keeps its capital
        translate(title_msgid, "en", seat=seat, penalty=translate(title, "en").lower()),
        translate(title_msgid, "de", seat=seat, penalty=translate(title, "de")),
        *both(_N("The rule allows a penalty; this is the mildest rung of the house's ladder.")),
        ({"type": "penalty", "seat": seat, "kind": kind, "count": count},),
        profile_citations(profile, "penalty_kinds", extra=topic_cites),
    )
