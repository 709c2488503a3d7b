"""The estimated wait (issue 29, docs/wait_estimate.md) on a simulated evening against the true waits.

Evenings 18:00-02:00 of three games (one, two and three full 9-seat tables): players leave at a rate per seated player
that changes through the evening (busier after dinner, then quieter), a new player joins the list about
every 12 minutes while the list is short, and one in ten leaves the list before being called.  When a
player joins, the model estimates the wait from what the evening showed so far (seats freed in the last
three hours, places ahead, open seats); the estimate's midpoint is compared with the wait the player
really had.  The median absolute error is printed (pytest -s) and bounded.
"""

from __future__ import annotations

import random
import statistics

from room.services.wait_estimate import estimate, turnover_rate

#: The games of the evening: (tables of 9 seats, departures per seated player and hour before 20:00,
#: 20:00-23:00, after 23:00, new players on the list per hour).
GAMES = [(1, (0.12, 0.18, 0.15), 2.0), (2, (0.16, 0.26, 0.2), 4.0), (3, (0.2, 0.3, 0.25), 7.0)]


def simulate(seed: int, game: tuple = GAMES[1]) -> list[tuple[float, float, int, int, int]]:
    """One evening: ``[(estimated midpoint, true wait, low, high (minutes), place on joining)]`` of each seated player."""
    rng = random.Random(seed)
    tables, rates, joins = game
    t, end = 0.0, 8.0
    waiting: list[dict] = []  # {"joined", "estimate", "gives_up_at"}
    freed_at: list[float] = []
    results = []
    next_join = rng.expovariate(joins)
    while t < end:
        leave_rate = rates[0 if t < 2 else 1 if t < 5 else 2] * 9 * tables
        next_leave = t + rng.expovariate(leave_rate)
        gives_up = min((w["gives_up_at"] for w in waiting), default=float("inf"))
        t = min(next_leave, next_join, gives_up)
        if t >= end:
            break
        if t == gives_up:
            waiting = [w for w in waiting if w["gives_up_at"] != t]
        elif t == next_join:
            next_join = t + rng.expovariate(joins)
            if len(waiting) < 10:
                rate = turnover_rate([t - f for f in freed_at], t, tables)
                e = estimate(len(waiting) + 1, 0, rate)
                gives = t + rng.expovariate(0.25) if rng.random() < 0.1 else float("inf")
                waiting.append({"joined": t, "estimate": e, "gives_up_at": gives, "place": len(waiting) + 1})
        else:
            freed_at.append(t)
            if waiting:
                w = waiting.pop(0)
                e = w["estimate"]
                results.append(((e.low + e.high) / 2, (t - w["joined"]) * 60, e.low, e.high, w["place"]))
    return results


def test_the_estimate_is_near_the_true_waits_of_a_simulated_evening():
    results = [r for game in GAMES for seed in range(8) for r in simulate(seed, game)]
    errors = [abs(mid - true) for mid, true, _lo, _hi, _p in results]
    true_waits = [true for _mid, true, _lo, _hi, _p in results]
    inside = sum(1 for _mid, true, lo, hi, _p in results if lo <= true <= hi) / len(results)
    mae = statistics.median(errors)
    # the desk's rule of thumb ("15 minutes a place") for comparison
    naive = statistics.median(abs(15 * place - true) for _mid, true, _lo, _hi, place in results)
    print(
        f"\nwait estimate, {len(results)} seated players over 8 simulated evenings of three games: median true wait "
        f"{statistics.median(true_waits):.1f} min, median absolute error {mae:.1f} min, "
        f"{inside:.0%} of true waits inside the range shown; 15 minutes a place: {naive:.1f} min"
    )
    assert len(results) > 200
    assert mae < 0.55 * statistics.median(true_waits)
    assert mae < naive
    assert 0.4 <= inside <= 0.8  # a 20-80 % range should hold about 60 % of the waits


def test_a_player_with_an_open_seat_waits_nothing_and_more_places_wait_longer():
    assert estimate(1, 1, 3.0).as_dict() == {"low": 0, "high": 0, "rate": 3.0}
    ranges = [estimate(p, 0, 3.0) for p in (1, 3, 6)]
    assert ranges[0].high <= ranges[1].high <= ranges[2].high
    assert ranges[0].low < ranges[2].low
    # three places ahead at three seats an hour: about an hour
    e = estimate(3, 0, 3.0)
    assert e.low <= 60 <= e.high


def test_the_rate_follows_the_seats_freed_and_falls_back_on_the_prior():
    assert turnover_rate([], 0.0, 2) == 4.0  # nothing seen yet: the prior, two seats per table and hour
    # nine seats freed in the last three hours of two tables (one five hours ago is out): (9 + 4) / (3 + 1)
    assert turnover_rate([0.1 * i for i in range(9)] + [5.0], 8.0, 2) == 13 / 4
