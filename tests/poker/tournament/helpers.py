"""Builders shared by the tournament engine tests (pure Python)."""

from __future__ import annotations

from poker.tournament.buttons import Positions
from poker.tournament.model import TableState


def table(number: int, occupied, max_seats: int = 9, button=None, sb=None, bb=None, prefix=None) -> TableState:
    """A table with players named ``"<prefix or T<number>>s<seat>"`` on ``occupied`` seats."""
    prefix = prefix or f"T{number}"
    seats = {s: f"{prefix}s{s}" for s in occupied}
    positions = Positions(button, sb, bb) if button is not None else None
    return TableState(number, seats, max_seats, positions)


def all_players(tables):
    """Every seated player id, as a list (duplicates kept)."""
    return [p for t in tables for p in t.seats.values()]


def spread(tables):
    """Fullest minus shortest table."""
    counts = [len(t.seats) for t in tables]
    return max(counts) - min(counts)
