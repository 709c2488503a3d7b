"""A player's hours from the hands themselves (issue 28): not a check-in clock but the hands the player was
dealt in.  Consecutive hands of one player at one table, no more than ``gap`` apart, are one session; a
session lasts from its first hand's start to its last hand's end.  Hours per day count a session on the day
it began (a room's comps are given per night)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

DEFAULT_GAP = timedelta(minutes=30)


@dataclass(frozen=True)
class HandRecord:
    """One hand a player was dealt in: ``table`` (any key), ``started_at``, ``ended_at`` (None while live:
    counted as ``started_at``)."""

    table: Hashable
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True)
class Session:
    """A player's session at one table: ``start``, ``end``, ``hands`` dealt in; ``seconds`` its length."""

    table: Hashable
    start: datetime
    end: datetime
    hands: int

    @property
    def seconds(self) -> int:
        """Length in whole seconds (end minus start)."""
        return int((self.end - self.start).total_seconds())


def sessions(hands: Iterable[HandRecord], *, gap: timedelta = DEFAULT_GAP) -> list[Session]:
    """The sessions of one player's ``hands`` (any order), table by table, ordered by start.  A hand starting
    more than ``gap`` after the previous hand at that table ended begins a new session."""
    by_table: dict[Hashable, list[HandRecord]] = defaultdict(list)
    for hand in hands:
        by_table[hand.table].append(hand)
    found: list[Session] = []
    for table, rows in by_table.items():
        rows.sort(key=lambda h: h.started_at)
        start = end = None
        count = 0
        for hand in rows:
            finish = hand.ended_at or hand.started_at
            if start is None or end is None or hand.started_at - end > gap:
                if start is not None and end is not None:
                    found.append(Session(table, start, end, count))
                start, end, count = hand.started_at, finish, 0
            end = max(end, finish)
            count += 1
        if start is not None and end is not None:
            found.append(Session(table, start, end, count))
    return sorted(found, key=lambda s: (s.start, str(s.table)))


def seconds_by_day(found: Iterable[Session], *, day_of=lambda moment: moment.date()) -> dict[date, int]:
    """Seconds played per day (a session counts on the day ``day_of`` gives for its start; pass one that
    shifts by the room's opening hour to count a night after midnight with its evening)."""
    totals: dict[date, int] = defaultdict(int)
    for session in found:
        totals[day_of(session.start)] += session.seconds
    return dict(sorted(totals.items()))


def hours(seconds: int) -> float:
    """``seconds`` as hours rounded to two decimals (for pages and CSV)."""
    return round(seconds / 3600, 2)
