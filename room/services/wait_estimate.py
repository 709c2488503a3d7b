"""The estimated wait of a waitlist place, as a range, from the seat turnover measured in that game
(issue 29; the model is described in docs/wait_estimate.md).

Seats of a full game free up one by one, roughly at random: the model takes them as a Poisson stream
whose rate ``rate`` (seats freed per hour) is measured in the game over the last ``WINDOW_HOURS``
(the room log's ``leave`` steps), shrunk towards a prior of ``PRIOR_PER_TABLE`` seats per table and
hour while little has been seen.  The player at place ``position`` with ``open_seats`` seats open and
not yet offered needs ``n = position - open_seats`` more seats; the time to the n-th seat of a
Poisson stream is Gamma(n, rate) distributed, and the range shown is its ``LOW_Q``..``HIGH_Q`` quantiles.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from django.utils import timezone

from room.models import Game, GameTable, RoomLog

#: Hours of the game's history the turnover is measured over.
WINDOW_HOURS = 3.0
#: Prior turnover (seats freed per table and hour) and its weight in hours.
PRIOR_PER_TABLE = 2.0
PRIOR_HOURS = 1.0
#: The quantiles of the wait shown as the range.
LOW_Q, HIGH_Q = 0.2, 0.8


@dataclass(frozen=True)
class Estimate:
    """A wait range in minutes (``low`` <= ``high``, ints); ``rate`` the seats freed per hour it assumed."""

    low: int
    high: int
    rate: float

    def as_dict(self) -> dict[str, float | int]:
        """``{"low", "high"}`` in minutes and ``rate`` in seats per hour (rounded to 0.1)."""
        return {"low": self.low, "high": self.high, "rate": round(self.rate, 1)}


def turnover_rate(freed_at_hours_ago: list[float], observed_hours: float, tables: int) -> float:
    """Seats freed per hour: the seats freed in the window (``freed_at_hours_ago``: how many hours ago
    each was freed, those within ``WINDOW_HOURS`` count) over the hours observed (at most the window),
    with a prior of ``PRIOR_PER_TABLE`` per table weighing ``PRIOR_HOURS``.  Always > 0."""
    hours = max(0.0, min(observed_hours, WINDOW_HOURS))
    seen = sum(1 for h in freed_at_hours_ago if 0 <= h <= hours)
    return (seen + PRIOR_PER_TABLE * max(tables, 1) * PRIOR_HOURS) / (hours + PRIOR_HOURS)


def _gamma_cdf(n: int, rate: float, hours: float) -> float:
    """P(the n-th event of a Poisson stream of ``rate`` per hour comes within ``hours``)."""
    x = rate * hours
    term, below = math.exp(-x), 0.0
    for k in range(n):
        below += term
        term *= x / (k + 1)
    return 1.0 - below


def _quantile(n: int, rate: float, q: float) -> float:
    lo, hi = 0.0, max(1.0, 4.0 * (n + 4) / rate)
    for _ in range(60):
        mid = (lo + hi) / 2
        if _gamma_cdf(n, rate, mid) < q:
            lo = mid
        else:
            hi = mid
    return hi


def estimate(position: int, open_seats: int, rate: float) -> Estimate:
    """The wait (minutes, as the ``LOW_Q``..``HIGH_Q`` range) of place ``position`` (1 = first) with
    ``open_seats`` seats open and not offered yet, at ``rate`` seats freed per hour.  0..0 when a seat
    is open for the place already."""
    needed = position - max(open_seats, 0)
    if needed <= 0:
        return Estimate(0, 0, rate)
    low = _quantile(needed, rate, LOW_Q) * 60
    high = _quantile(needed, rate, HIGH_Q) * 60
    return Estimate(int(low // 5 * 5), int(math.ceil(high / 5) * 5), rate)


def game_rate(game: Game, now: dt.datetime | None = None) -> float:
    """The game's measured turnover (seats freed per hour, see :func:`turnover_rate`) from the room
    log's ``leave`` steps of the game; the game is observed since its first logged step in the window."""
    now = now or timezone.now()
    since = now - dt.timedelta(hours=WINDOW_HOURS)
    rows = list(RoomLog.objects.filter(game=game, at__gte=since).values_list("kind", "at"))
    first = min((at for _, at in rows), default=now)
    observed = (now - first).total_seconds() / 3600
    freed = [(now - at).total_seconds() / 3600 for kind, at in rows if kind == "leave"]
    tables = GameTable.objects.filter(game=game).count()
    return turnover_rate(freed, observed, tables)
