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

With ``--floor N`` (2,000 for the figures in the report) it runs a whole
tournament of N entrants on the database through the services, as the
floor does: registration, the seat draw (N / 9 tables), then ``--busts``
busts (default N - 10: down to the final table), each one a hand played
through ``tables.services`` (the dealer's path: start, all in, call, folds,
board, award) in which one player busts; balancing and breaking follow from
the tournament's hook as on a real floor.  The dealer's actions run as the
dealer socket runs them (``tables.writepath.run_answering_first``: the
committed messages go to a ``Broadcaster`` on an event loop, here one in a
thread of the bench; the work after the dealer's answer -- the moves a bust
makes at other tables -- runs after it, ``run_jobs``).  Per bust it times,
end to end, the dealer's last action of the hand (the one that completes it
and records the bust, places and pays it and plans the balancing or
breaking moves, which the director and the tablets see as pending at once)
plus the delivery of every message it caused to a director page and a TV
listening on the channel layer (until a marker queued after them arrives)
-- p50 / p95 / p99 / max; and the same with the moves made after the
dealer's answer (their seat changes, tablet snapshots and the director's
``moves_made``) delivered too -- and the kinds and sizes of the messages the director and the TV got.  Then the director page's first paint
with N entrants, right after the draw: the page's HTML (test client) and
the snapshot the socket sends first (built, serialised, its size).  ``--paint``
(after a ``--floor`` run) opens the director page of that tournament in
chromium through daphne and times the first contentful paint and the
tables drawn.

Figures, dated, with the machine: bench/RESULTS.md ("bench/tournament.py --floor").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from poker.tournament import (
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


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


#: ``--profile FILE``: a cProfile of the hands' last actions (the award that completes the hand and
#: records a bust) with their delivery, written to FILE for ``python -m pstats``
PROFILE = None
#: ``--profile-moves FILE``: a cProfile of the work after the dealer's answer (a bust's moves), delivery included
PROFILE_MOVES = None


def _play_bust_hand(table_id: int, listen, call=None, after=None) -> tuple[float | None, float, int, float]:
    """One hand at ``table_id`` through ``tables.services`` in which the
    first player to act goes all in, the first player who covers him calls,
    everybody else folds; the caller wins.  Returns (seconds of the action
    that completed the hand plus the delivery of its messages, or None when
    nobody busted; seconds of the whole hand; actions; seconds of the work
    after the dealer's answer -- ``after()``, the moves the bust made --
    plus the delivery of its messages)."""
    from tables import services as table_services
    from tables.models import Table

    def state():
        return Table.objects.select_related("current_hand").get(pk=table_id).current_hand.snapshot

    call = call or (lambda func, *args: func(*args))
    t0 = time.perf_counter()
    call(table_services.start_hand, table_id)
    listen()
    shover = caller = None
    actions = 0
    for _ in range(100):
        st = state()
        if st["phase"] == "board":
            action = {"type": "board", "cards": ""}
        elif st["phase"] == "showdown":
            pots = st["pots"]
            index = next((i for i, p in enumerate(pots) if caller in p["eligible_seats"]), 0)
            winners = [caller] if caller in pots[index]["eligible_seats"] else pots[index]["eligible_seats"][:1]
            action = {"type": "award", "pot": index, "winners": winners}
        else:
            seat = st["to_act_seat"]
            me = next(p for p in st["players"] if p["seat"] == seat)
            legal = st["legal"]
            if shover is None:
                kind, shover = "all_in", seat
            elif caller is None:
                other = next(p for p in st["players"] if p["seat"] == shover)
                if me["stack"] + me["bet"] >= other["stack"] + other["bet"]:
                    kind, caller = ("call" if legal["call_amount"] < me["stack"] else "all_in"), seat
                else:
                    kind = "fold"
            else:
                kind = "fold" if legal["can_fold"] and legal["call_amount"] else "check"
            action = {"type": kind, "seat": seat}
        a0 = time.perf_counter()
        if PROFILE is not None and action["type"] == "award":
            PROFILE.enable()
        call(table_services.apply_action, table_id, action)
        delivered = listen()
        last = time.perf_counter() - a0
        if PROFILE is not None:
            PROFILE.disable()
        m0 = time.perf_counter()
        if PROFILE_MOVES is not None:
            PROFILE_MOVES.enable()
        if after is not None and after():
            listen()
        moves = time.perf_counter() - m0
        if PROFILE_MOVES is not None:
            PROFILE_MOVES.disable()
        actions += 1
        if state()["phase"] == "complete":
            return (last if delivered else None), time.perf_counter() - t0, actions, moves
    raise RuntimeError("hand did not finish")


def floor_bench(entrants: int, busts: int, seed: int) -> None:
    """A tournament of ``entrants`` through the services down to the final
    table (see the module docstring); prints the figures."""
    import gc
    import json

    from channels.layers import get_channel_layer
    from django.test import Client

    from tables.models import Seat
    from tables.writepath import Broadcaster, ServiceError, run_answering_first, run_jobs
    from tournaments import services
    from tournaments.models import Entry, Tournament, TournamentTable

    # as a server process does once its modules are loaded (pokerfloor/asgi.py): the objects made at
    # import -- pokerkit's lookup tables alone are about 50,000 -- leave the collector's generations,
    # so that a full collection does not walk them during a bust
    gc.collect()
    gc.freeze()
    structure = {
        "periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 600}],
        "late_registration_until": None,
    }
    c0 = time.perf_counter()
    t = services.create_tournament(
        f"floor {entrants} {time.time():.0f}", "munotpoker", structure, starting_stack=10_000, buy_in=100, seed=seed
    )
    reg: list[float] = []
    for i in range(entrants):
        r0 = time.perf_counter()
        services.register(t.id, f"Floor {t.id}-{i}")
        reg.append(time.perf_counter() - r0)
        if (i + 1) % 500 == 0:
            print(f"  registered {i + 1}: last one {ms(reg[-1])}", flush=True)
    registered = time.perf_counter() - c0
    c0 = time.perf_counter()
    services.start(t.id)
    drawn = time.perf_counter() - c0
    tables = TournamentTable.objects.filter(tournament=t).count()
    print(
        f"[floor] {entrants} entrants: registration {registered:.1f} s (each: p50 {ms(_percentile(reg, 0.5))}, "
        f"p99 {ms(_percentile(reg, 0.99))}; the last hundred: p50 {ms(_percentile(reg[-100:], 0.5))}), "
        f"draw on {tables} tables {drawn:.2f} s",
        flush=True,
    )

    # the director page's first paint with every entrant: the HTML, then the socket's first snapshot
    from django.contrib.auth.models import Group, User

    user, _created = User.objects.get_or_create(username="bench-floor")
    user.groups.add(Group.objects.get_or_create(name="floor")[0])
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    p0 = time.perf_counter()
    page = client.get(f"/tournaments/{t.id}/")
    html = time.perf_counter() - p0
    p0 = time.perf_counter()
    snap = services.snapshot(Tournament.objects.get(pk=t.id))
    built = time.perf_counter() - p0
    p0 = time.perf_counter()
    text = json.dumps({"type": "snapshot", "seq": snap["seq"], "snapshot": snap})
    dumped = time.perf_counter() - p0
    print(
        f"[director page] {entrants} entrants: HTML {ms(html)} ({len(page.content) / 1024:.0f} KiB, "
        f"status {page.status_code}), first snapshot built {ms(built)} + JSON {ms(dumped)} "
        f"({len(text) / 1024:.0f} KiB)",
        flush=True,
    )

    layer = get_channel_layer()
    group = services.tournament_group(t.id)
    sizes: dict[str, list[int]] = {"full": [], "public": []}
    kinds: dict[str, int] = {}
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    on_loop = lambda coro: asyncio.run_coroutine_threadsafe(coro, loop).result()  # noqa: E731

    async def setup():
        channels = [await layer.new_channel() for _ in range(3)]
        for channel in channels[:2]:
            await layer.group_add(group, channel)
        await layer.group_add("bench.marker", channels[2])
        return Broadcaster(loop), *channels

    broadcaster, director, tv, marker = on_loop(setup())

    def call(func, *args):
        """Run a dealer's service as the dealer socket does: in a worker thread whose committed
        messages go to the server's event loop (``tables.writepath.run_answering_first``); the work
        after the answer (a bust's moves) waits for ``after``."""
        result, jobs = run_answering_first(broadcaster, func, *args)
        pending.extend(jobs)
        return result

    pending: list = []

    def after() -> bool:
        """The work after the dealer's answer, as the socket runs it (``run_jobs``); whether there was any."""
        jobs = pending[:]
        pending.clear()
        run_jobs(broadcaster, jobs)
        return bool(jobs)

    async def delivered() -> list[tuple[str, dict]]:
        """Wait until the loop has sent every message handed over so far (a marker queued
        after them arrives), then take what the director and the TV got."""
        await layer.receive(marker)
        out = []
        for channel, key in ((director, "full"), (tv, "public")):
            out += [(key, message) for message in _drain(layer, channel)]
        return out

    def listen() -> int:
        """Deliver what the last action sent to the director and the TV (as the consumers do: the text as it is)."""
        broadcaster.submit([("bench.marker", {"type": "bench.marker"})])
        got = 0
        for key, message in on_loop(delivered()):
            if message.get("type") != "tournament.update":
                continue
            got += 1
            text = message.get(key, "")
            sizes[key].append(len(text))
            if key == "full":  # the type, without parsing the text (that is the page's time, not ours)
                kind = text[10:24].split('"')[0]
                kinds[kind] = kinds.get(kind, 0) + 1
        return got

    per_bust: list[float] = []
    with_moves: list[float] = []
    hands = actions_total = refused = 0
    stuck: set[int] = set()  # tables that refused a hand since the last bust
    rng = random.Random(seed)
    c0 = time.perf_counter()
    while len(per_bust) < busts:
        live = list(
            TournamentTable.objects.filter(tournament=t, broken=False).values_list("table_id", flat=True).order_by("?")
        )
        candidates = [
            tid
            for tid in live
            if tid not in stuck and Seat.objects.filter(table_id=tid, player__isnull=False, stack__gt=0).count() >= 2
        ]
        if not candidates or Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() <= 1:
            break
        table_id = rng.choice(candidates)
        try:
            seconds, _hand, actions, moves = _play_bust_hand(table_id, listen, call, after)
        except ServiceError as exc:  # e.g. two seats with chips, one of them a player moving in (not dealt in)
            if exc.code != "not_enough_players":
                raise
            refused += 1
            stuck.add(table_id)  # tried again after the next bust
            after()
            continue
        stuck.clear()
        hands += 1
        actions_total += actions
        if seconds is not None:
            per_bust.append(seconds)
            with_moves.append(seconds + moves)
            if len(per_bust) % 50 == 0:
                print(f"  {len(per_bust)} busts: last {ms(seconds)}", flush=True)
    total = time.perf_counter() - c0
    left = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count()
    open_tables = TournamentTable.objects.filter(tournament=t, broken=False).count()
    print(
        f"  {len(per_bust)} busts in {hands} hands ({actions_total} dealer actions) in {total:.0f} s; "
        f"{left} players left on {open_tables} tables; {refused} hands refused (no two players dealt in)"
    )
    print(
        f"  per bust, service + delivery to director and TV: p50 {ms(_percentile(per_bust, 0.5))}  "
        f"p95 {ms(_percentile(per_bust, 0.95))}  p99 {ms(_percentile(per_bust, 0.99))}  max {ms(max(per_bust))}"
    )
    print(
        f"  per bust with the moves it makes (after the dealer's answer) delivered too: p50 "
        f"{ms(_percentile(with_moves, 0.5))}  p95 {ms(_percentile(with_moves, 0.95))}  "
        f"p99 {ms(_percentile(with_moves, 0.99))}  max {ms(max(with_moves))}"
    )
    first = per_bust[: max(1, len(per_bust) // 10)]
    print(f"    the first tenth (most tables) p99 {ms(_percentile(first, 0.99))}")
    print(
        f"  messages to the director: {kinds}; size p50 / max: director "
        f"{_percentile(sizes['full'], 0.5) / 1024:.1f} / {max(sizes['full']) / 1024:.1f} KiB, TV "
        f"{_percentile(sizes['public'], 0.5) / 1024:.1f} / {max(sizes['public']) / 1024:.1f} KiB"
    )


def paint_bench(repeat: int) -> None:
    """The director page's first paint in chromium (/usr/bin/chromium, Playwright) for the
    newest ``--floor`` tournament of this database, served by daphne: the first contentful
    paint and the moment the tables are drawn (the first snapshot applied), after navigation."""
    from benchdb import daphne
    from django.contrib.auth.models import Group, User
    from playwright.sync_api import sync_playwright

    from tournaments.models import Entry, Tournament

    t = Tournament.objects.filter(name__startswith="floor ").order_by("-id").first()
    if t is None:
        raise SystemExit("run --floor N first")
    user, _created = User.objects.get_or_create(username="bench-paint")
    user.set_password("bench-paint-pw")
    user.save()
    user.groups.add(Group.objects.get_or_create(name="floor")[0])
    seated = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count()
    print(f"[first paint] {t.name}: {t.entries.count()} entries, {seated} seated")
    with daphne(os.environ["DATABASE_URL"], "/tmp/bench_tournament_daphne.log") as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        base = f"http://127.0.0.1:{port}"
        page.goto(base + "/login/")
        page.fill("#id_username", "bench-paint")
        page.fill("#id_password", "bench-paint-pw")
        with page.expect_navigation():
            page.click("button[type=submit]")
        for run in range(repeat):
            t0 = time.perf_counter()
            page.goto(f"{base}/tournaments/{t.id}/", wait_until="commit")
            page.wait_for_function("document.querySelectorAll('#td-tables .td-table').length > 1", timeout=60_000)
            drawn = time.perf_counter() - t0
            fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime || 0")
            print(f"  run {run + 1}: first contentful paint {fcp:.0f} ms, tables drawn {drawn * 1000:.0f} ms")
        browser.close()


def _drain(layer, channel: str) -> list[dict]:
    """The messages waiting on ``channel`` of the in-process channel layer
    (what the consumer of that socket would forward), without waiting."""
    queue = layer.channels.get(channel)
    out = []
    while queue is not None and not queue.empty():
        _expires, message = queue.get_nowait()
        out.append(message)
    return out


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
    parser.add_argument(
        "--floor", type=int, default=0, metavar="N", help="run a tournament of N entrants through the services"
    )
    parser.add_argument("--busts", type=int, default=0, help="busts in the --floor run (default N - 10)")
    parser.add_argument(
        "--paint", action="store_true", help="the director page's first paint in chromium (after a --floor run)"
    )
    parser.add_argument("--profile", metavar="FILE", help="with --floor: a cProfile of the busts' last actions")
    parser.add_argument("--profile-moves", metavar="FILE", help="with --floor: a cProfile of the busts' moves")
    args = parser.parse_args()
    global PROFILE, PROFILE_MOVES
    import cProfile

    PROFILE = cProfile.Profile() if args.profile else None
    PROFILE_MOVES = cProfile.Profile() if args.profile_moves else None
    if args.floor or args.paint:
        setup_django()
        if args.floor:
            floor_bench(args.floor, args.busts or args.floor - 10, args.seed)
            if PROFILE is not None:
                PROFILE.dump_stats(args.profile)
            if PROFILE_MOVES is not None:
                PROFILE_MOVES.dump_stats(args.profile_moves)
        if args.paint:
            paint_bench(args.repeat)
        return
    for rulebook in ("wynental", "munot"):
        run(rulebook, args.entrants, args.seed, args.round, args.repeat)
    if args.snapshot:
        setup_django()
        snapshot_bench(args.snapshot, args.seed, args.repeat)


if __name__ == "__main__":
    main()
