"""Benchmark of the pure tournament engine at WSOP Main Event scale.

10,000 entrants on 1,112 tables of nine, for both rulebooks (001 Wynental,
004 MunotPoker).  Prints timings (best of ``--repeat`` runs on the same seeded data, wall
clock and CPU time of this process -- CPU time is the fairer figure when
other work shares the two cores); asserts nothing.  From the checkout:

    .venv/bin/python bench/tournament.py [--seed N] [--entrants N] [--round N] [--repeat N]

Figures:
* draw: random seat draw for every entrant, with the first buttons.
* balance after 500 busts: plan_balancing on the floor as drawn minus 500
  random players (no table broken yet).
* break + balance after 500 busts: plan_breaks, apply, plan_balancing.
* break down to final table, one plan: everyone but the final table busts
  at once, then one plan_breaks collapses all 1,112 tables.
* down to final table, round by round: random busts in rounds of
  ``--round`` players; after each round plan_breaks + apply +
  plan_balancing + apply, until the final table.  Total engine time over
  all rounds (about 100 plans), and the worst single round.

With ``--snapshot N`` it also times the director's snapshot
(``tournaments.services.snapshot``) of a running tournament of N entrants
on the database (its own database ``pokerfloor_bench_tournament`` on the
embedded server, or ``DATABASE_URL`` as given): wall time per snapshot and
the number of SQL queries, for the full field and for a field of a quarter
of the tables (the query count must not grow with the tables).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from poker.tournament import (  # noqa: E402
    TableState,
    apply_break_plan,
    apply_moves,
    draw_seats,
    plan_balancing,
    plan_breaks,
    rules_for,
    validate_tables,
)


def bust(tables, victims):
    """The floor without ``victims`` (a set of player ids)."""
    out = []
    for t in tables:
        seats = t.seats
        if not victims.isdisjoint(seats.values()):
            t = TableState(t.number, {s: p for s, p in seats.items() if p not in victims}, t.max_seats, t.positions)
        out.append(t)
    return out


def timed(fn, repeat):
    """Run ``fn`` ``repeat`` times; return (best wall, best CPU, last result)."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        result = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus), result


def stepwise(tables, players, rules, seed, round_size):
    """Bust in rounds down to the final table.

    Returns (engine wall seconds, worst round wall seconds, engine CPU seconds, stats).
    """
    rng = random.Random(seed)
    floor = tables
    alive = list(players)
    rng.shuffle(alive)
    engine = worst = cpu = 0.0
    rounds = moved = broken = 0
    while len(floor) > 1 and len(alive) > 2:
        k = max(1, min(round_size, len(alive) - rules.final_table_size))
        victims = set(alive[-k:])
        del alive[-k:]
        floor = bust(floor, victims)
        c0, t0 = time.process_time(), time.perf_counter()
        bplan = plan_breaks(floor, rules, rng)
        floor = apply_break_plan(floor, bplan)
        bal = plan_balancing(floor, rules, rng)
        floor = apply_moves(floor, bal.moves)
        step = time.perf_counter() - t0
        cpu += time.process_time() - c0
        engine += step
        worst = max(worst, step)
        rounds += 1
        moved += len(bplan.moves) + len(bal.moves)
        broken += len(bplan.broken_tables)
    validate_tables(floor)
    return engine, worst, cpu, (rounds, broken, moved, len(alive))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def run(rulebook: str, entrants: int, seed: int, round_size: int, repeat: int) -> None:
    rules = rules_for(rulebook, max_seats=9)
    players = list(range(1, entrants + 1))

    wall, cpu, draw = timed(lambda: draw_seats(players, rules, random.Random(seed)), repeat)
    tables = list(draw.tables)
    print(
        f"[{rulebook}] {entrants} entrants on {len(tables)} tables of {rules.max_seats}  (best of {repeat}: wall / CPU)"
    )
    print(f"  draw all seats ........................ {ms(wall)} / {ms(cpu)}")

    rng = random.Random(seed + 1)
    after = bust(tables, set(rng.sample(players, 500)))
    wall, cpu, plan = timed(lambda: plan_balancing(after, rules, random.Random(seed)), repeat)
    print(
        f"  balancing plan after 500 busts ........ {ms(wall)} / {ms(cpu)}  ({len(plan.moves)} moves, "
        f"spread {plan.spread_before} -> {plan.spread_after})"
    )

    def break_and_balance():
        r = random.Random(seed)
        bplan = plan_breaks(after, rules, r)
        floor = apply_break_plan(after, bplan)
        return bplan, plan_balancing(floor, rules, r)

    wall, cpu, (bplan, bal) = timed(break_and_balance, repeat)
    print(
        f"  break + balance after 500 busts ....... {ms(wall)} / {ms(cpu)}  ({len(bplan.broken_tables)} tables "
        f"broken, {len(bplan.moves)} + {len(bal.moves)} moves)"
    )

    keep = set(random.Random(seed + 2).sample(players, rules.final_table_size))
    sparse = bust(tables, set(players) - keep)

    def one_shot():
        fplan = plan_breaks(sparse, rules, random.Random(seed))
        return fplan, apply_break_plan(sparse, fplan)

    wall, cpu, (fplan, final) = timed(one_shot, repeat)
    validate_tables(final)
    print(
        f"  break down to final table, one plan ... {ms(wall)} / {ms(cpu)}  ({len(fplan.broken_tables)} tables "
        f"broken, {len(fplan.moves)} moves, {len(final)} table left)"
    )

    runs = [stepwise(tables, players, rules, seed, round_size) for _ in range(repeat)]
    rounds, broken, moved, left = runs[0][3]
    print(
        f"  down to final table, round by round ... {ms(min(r[0] for r in runs))} / "
        f"{ms(min(r[2] for r in runs))}  ({rounds} rounds of {round_size} busts, {broken} tables broken, "
        f"{moved} moves, {left} left)"
    )
    print(f"    worst single round (wall) ........... {ms(min(r[1] for r in runs))}")


def setup_django() -> None:
    """Django on this benchmark's own database (``bench/benchdb.py``)."""
    from benchdb import setup_django as on_database

    on_database("pokerfloor_bench_tournament")


def snapshot_bench(entrants: int, seed: int, repeat: int) -> None:
    """Time ``services.snapshot`` of a started tournament of ``entrants``
    players (and of one with a quarter of them), a hand live at every
    table, and count its queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables import services as table_services
    from tournaments import services
    from tournaments.models import Tournament, TournamentTable

    structure = {
        "periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}],
        "late_registration_until": None,
    }
    for n in (max(2, entrants // 4), entrants):
        c0 = time.perf_counter()
        t = services.create_tournament(
            f"bench {n} {time.time():.0f}", "munotpoker", structure, starting_stack=10_000, buy_in=100, seed=seed
        )
        for i in range(n):
            services.register(t.id, f"Bench {t.id}-{i}")
        services.start(t.id)
        for table_id in TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True):
            table_services.start_hand(table_id)  # every table is dealing, as on a real floor
        t = Tournament.objects.get(pk=t.id)
        built = time.perf_counter() - c0
        with CaptureQueriesContext(connection) as queries:
            services.snapshot(t)
        wall, cpu, snap = timed(lambda t=t: services.snapshot(t), repeat)
        print(f"[snapshot] {n} entrants on {len(snap['tables'])} tables (built in {built:.1f} s)")
        print(f"  director snapshot ..................... {ms(wall)} / {ms(cpu)}  ({len(queries)} SQL queries)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--round", type=int, default=100, help="busts per round in the stepwise run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--snapshot",
        type=int,
        default=0,
        metavar="N",
        help="also time the director snapshot of N entrants on the database",
    )
    args = parser.parse_args()
    for rulebook in ("wynental", "munot"):
        run(rulebook, args.entrants, args.seed, args.round, args.repeat)
    if args.snapshot:
        setup_django()
        snapshot_bench(args.snapshot, args.seed, args.repeat)


if __name__ == "__main__":
    main()
