"""A hand's events and a ruling's corrections in words, for the floor pages: :mod:`tables.handwords`
(the hand page in ``tables`` uses the same words), re-exported here."""

from __future__ import annotations

from tables.handwords import (
    action_text,
    correction_text,
    event_text,
    events_in_words,
    phase_text,
    seat_name,
    street_text,
)

__all__ = [
    "seat_name",
    "action_text",
    "event_text",
    "correction_text",
    "events_in_words",
    "phase_text",
    "street_text",
]
