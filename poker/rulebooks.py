"""The rulebooks the app applies, and one way to cite a rule in them (standard library only).

A rule is cited as its written label, the way a floorman reads it aloud and
the way ``grep`` finds it::

    cite("004 #44")            # MunotPoker rule 44
    cite("000 Aktionen 4")     # casino cash game rules, actions 4
    cite("001 6.10")           # Wynental tournament rules 6.10
    cite("TDA 2024 Rule 44")   # the TDA standard

:class:`Citation` holds the rulebook slug and the section as the shipped
``rules/rulebooks/<slug>.json`` numbers it (``"#44"``, ``"Aktionen 4"``,
``"6.10"``, ``"TDA 2024 Rule 44"``). :data:`RULEBOOKS` is the one map of
rulebook slugs, seed-file prefixes (``shared/seeds/<prefix>_*.txt``) and labels.

Everything the app stores or shows writes a citation as its label (``str(c)``,
``"004 #11"``), so ``grep "004 #77"`` finds every use of a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from poker.i18n import _N, translate

__all__ = ["Rulebook", "RULEBOOKS", "TDA", "HOUSE", "Citation", "cite", "rulebook", "slug_for"]

TDA = "tda-2024"
"""Slug of the TDA 2024 standard (the base of every house-rule profile)."""
HOUSE = "house"
"""Slug of the room's own settings that no rulebook regulates (e.g. the default payout structure)."""


@dataclass(frozen=True)
class Rulebook:
    """One rulebook: ``slug`` (the name in ``rules/rulebooks/<slug>.json``), ``prefix`` (the
    label's first word: ``"004"``; ``""`` for TDA, whose sections carry the full label),
    ``seed`` (file name in ``shared/seeds/``, ``None`` for TDA and the house), ``title``."""

    slug: str
    prefix: str
    seed: str | None
    title: str


RULEBOOKS: dict[str, Rulebook] = {
    b.slug: b
    for b in (
        Rulebook("casino-cash", "000", "000_2b5ab8aade69ac44.txt", "Cash Game Reglement (casino)"),
        Rulebook("wynental", "001", "001_7d5aa5fee60e41d9.txt", "Allgemeine Turnierregeln, Kartenfreunde Wynental"),
        Rulebook("betting-rules", "002", "002_4395399a61500fa3.txt", "Einsätze und Erhöhungen"),
        Rulebook("nlhe", "003", "003_a92767c2b39617bc.txt", "Texas Hold'em No Limit with dealer procedures"),
        Rulebook("munotpoker", "004", "004_703829b529d7b378.txt", "Turnierregeln der MunotPoker GmbH"),
        Rulebook(TDA, "", None, "TDA 2024 standard"),
        Rulebook(HOUSE, "house", None, "House settings (no rulebook)"),
    )
}
"""slug -> :class:`Rulebook`, in seed order, then TDA and the house."""

_TDA_RULE = re.compile(r"^TDA 2024 Rule (\S+)$")
_BY_PREFIX = {b.prefix: b for b in RULEBOOKS.values() if b.prefix}
_ALIASES = {"munot": "munotpoker", "tda": TDA, "tda2024": TDA}


def rulebook(name: str) -> Rulebook:
    """The rulebook called ``name``: its slug (``"munotpoker"``), label prefix (``"004"``),
    seed file name with or without extension, or the old spellings ``"munot"``/``"tda"``.
    Raises KeyError (message lists the slugs) for anything else."""
    key = (name or "").strip().lower()
    key = _ALIASES.get(key, key)
    if key in RULEBOOKS:
        return RULEBOOKS[key]
    prefix = key.split("_", 1)[0]
    if prefix in _BY_PREFIX and (key == prefix or key.split(".")[0] == (_BY_PREFIX[prefix].seed or "").split(".")[0]):
        return _BY_PREFIX[prefix]
    raise KeyError(f"unknown rulebook {name!r}; known: {', '.join(RULEBOOKS)}")


def slug_for(name: str) -> str:
    """Slug of the rulebook called ``name`` (see :func:`rulebook`); KeyError if unknown."""
    return rulebook(name).slug


@dataclass(frozen=True, order=True)
class Citation:
    """A pointer to one rule: ``rulebook`` slug and ``section`` as the document numbers it.

    ``Citation("munotpoker", "#44")`` is written ``cite("004 #44")``; for the TDA
    standard the section is the whole label (``Citation("tda-2024", "TDA 2024 Rule 44")``).
    """

    rulebook: str
    section: str

    @classmethod
    def parse(cls, label: str) -> Citation:
        """The citation written ``label``: ``"004 #44"``, ``"000 Aktionen 4"``, ``"001 6.10"``,
        ``"TDA 2024 Rule 44"``, ``"house payout structure"``. Raises ValueError when the
        first word names no rulebook or the section is empty."""
        text = (label or "").strip()
        if text.startswith("TDA "):
            return cls(TDA, text)
        prefix, _, section = text.partition(" ")
        book = _BY_PREFIX.get(prefix)
        if book is None or not section.strip():
            raise ValueError(f"not a rule citation: {label!r} (write e.g. '004 #44' or 'TDA 2024 Rule 44')")
        return cls(book.slug, section.strip())

    @property
    def label(self) -> str:
        """Written label: ``"004 #44"``, ``"000 Aktionen 4"``, ``"TDA 2024 Rule 44"``."""
        book = RULEBOOKS.get(self.rulebook)
        if book is not None and not book.prefix:
            return self.section
        return f"{book.prefix if book else self.rulebook} {self.section}"

    def label_in(self, lang: str) -> str:
        """The written label in ``lang`` (``"en"``, ``"de"``): the TDA's sections are worded
        (``"TDA 2024 Rule 49"``, German ``"TDA 2024 Regel 49"``); every other label is a number
        and the same in both languages (``"004 #44"``)."""
        found = _TDA_RULE.match(self.section) if self.rulebook == TDA else None
        if found is None:
            return self.label
        return translate(_N("TDA 2024 Rule %(n)s"), lang, n=found.group(1))

    def __str__(self) -> str:
        return self.label

    def to_dict(self) -> dict:
        """JSON shape: ``{"rulebook": slug, "section": number, "label": label}``."""
        return {"rulebook": self.rulebook, "section": self.section, "label": self.label}


def cite(label: str) -> Citation:
    """The citation written ``label`` (``cite("004 #44")``); see :meth:`Citation.parse`."""
    return Citation.parse(label)
