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

The package has three modules: :mod:`poker.houserules.model` (the profile type, its
builder and the rules computed from a profile), :mod:`poker.houserules.tda` (the TDA 2024
base profile) and :mod:`poker.houserules.profiles` (the five rulebooks' profiles over it and
the registry of all six, each parameter with its citations).
"""

from poker.houserules.model import (
    PARAMETERS,
    RULEBOOK_FILES,
    HouseRules,
    cite,
    is_substantial_action,
    misdeal_still_possible,
    with_overrides,
)
from poker.houserules.profiles import (
    BETTING_RULES,
    CASINO_CASH,
    MUNOTPOKER,
    NLHE,
    PROFILES,
    TDA_2024,
    WYNENTAL,
    get_profile,
)
from poker.rulebooks import TDA, Citation

__all__ = [
    "BETTING_RULES",
    "CASINO_CASH",
    "Citation",
    "HouseRules",
    "MUNOTPOKER",
    "NLHE",
    "PARAMETERS",
    "PROFILES",
    "RULEBOOK_FILES",
    "TDA",
    "TDA_2024",
    "WYNENTAL",
    "cite",
    "get_profile",
    "is_substantial_action",
    "misdeal_still_possible",
    "with_overrides",
]
