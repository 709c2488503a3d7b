"""Card strings: parsing and validation (standard library only).

A card is a two-character string, rank then suit: ranks ``23456789TJQKA``,
suits ``c d h s`` (e.g. ``"As"``, ``"Td"``). ``"??"`` is a card that was not
entered (unknown), as in the PHH format.
"""

from __future__ import annotations

from typing import TypeGuard

from .errors import EngineError

__all__ = ["RANKS", "SUITS", "UNKNOWN", "parse_cards", "is_known"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
UNKNOWN = "??"

_CARD_CACHE: dict[str, tuple[str, ...]] = {}


def parse_cards(text: str | None, *, allow_unknown: bool = True) -> tuple[str, ...]:
    """Parse a card string such as ``"AsKs"``, ``"Jc 3d 5c"`` or ``"????"``.

    Args:
        text: concatenated two-character cards; whitespace and commas are
            ignored; ranks and suits are case-insensitive (``"ts"`` -> ``"Ts"``).
            ``None`` or ``""`` gives an empty tuple.
        allow_unknown: accept ``"??"`` placeholders.

    Returns:
        tuple of normalised card strings (``"??"`` kept for unknown cards).

    Raises:
        EngineError("bad_cards") for anything that is not a card, and
        EngineError("duplicate_card") when a known card appears twice.
    """
    try:
        cached = _CARD_CACHE.get(text)  # type: ignore[arg-type]  # (a string read before: the common case, first)
    except TypeError:  # unhashable: no card string (refused below)
        cached = None
    if cached is not None and (allow_unknown or UNKNOWN not in cached):
        return cached
    if text is None:
        return ()
    if not isinstance(text, str):
        raise EngineError("bad_cards", f"Cards must be a string like 'AsKs', not {text!r}.")
    compact = "".join(text.replace(",", " ").split())
    if len(compact) % 2:
        raise EngineError("bad_cards", f"Cannot read cards {text!r}: two characters per card.")
    cards = []
    for k in range(0, len(compact), 2):
        rank, suit = compact[k].upper(), compact[k + 1].lower()
        if rank == "?" and suit == "?":
            if not allow_unknown:
                raise EngineError("bad_cards", f"Unknown card '??' not allowed here ({text!r}).")
            cards.append(UNKNOWN)
            continue
        if rank not in RANKS or suit not in SUITS:
            raise EngineError("bad_cards", f"{compact[k : k + 2]!r} is not a card (in {text!r}).")
        cards.append(rank + suit)
    known = [c for c in cards if c != UNKNOWN]
    if len(set(known)) != len(known):
        raise EngineError("duplicate_card", f"A card appears twice in {text!r}.")
    result = tuple(cards)
    if len(_CARD_CACHE) < 100_000:
        _CARD_CACHE[text] = result
    return result


def is_known(cards: tuple[str, ...] | None) -> TypeGuard[tuple[str, ...]]:
    """Return True when ``cards`` is non-empty and holds no ``"??"``."""
    return cards is not None and len(cards) > 0 and UNKNOWN not in cards
