"""The printed figures of ``bench/live.py`` (split from it): one row per server and offered load, the
ratios pokerfloor / echo, the same for the steady part, and per run the counts, the server's CPU per
applied action, the connect storm, a restart and the disk.  With several pairs of one rate
(``--rates 8,8,8``: pokerfloor and the echo measured in turn, new tables for each) the median of the
pairs' CPU ratios is printed last: this machine is shared and noisy, and one pair's ratio moves by a
tenth from run to run."""

from __future__ import annotations

import os
import statistics

COLUMNS = "server      rate  applied/s  ack p50  ack p95  ack p99  floor p50  floor p95  floor p99   lost doubled"


def row(name: str, r: dict) -> str:
    return (
        f"{name:<10} {r['rate']:>5g} {r['applied_s']:>10.1f} {r['ack50']:>8.1f} {r['ack95']:>8.1f} {r['ack99']:>8.1f}"
        f" {r['floor50']:>10.1f} {r['floor95']:>10.1f} {r['floor99']:>10.1f} {r['lost']:>6} {r['doubled']:>7}"
    )


def ratio_row(real: dict, echo: dict) -> str:
    def q(key: str) -> str:
        return f"{real[key] / echo[key]:.2f}x" if echo[key] else "-"

    return (
        f"{'ratio':<10} {real['rate']:>5g} {q('applied_s'):>10} {q('ack50'):>8} {q('ack95'):>8} {q('ack99'):>8}"
        f" {q('floor50'):>10} {q('floor95'):>10} {q('floor99'):>10}"
    )


def report(args, results: list, load_before: str) -> None:
    """Print the figures of ``results`` (``[(pokerfloor's, echo's or None), ...]``, ``bench/live.py
    measure``) for the run's ``args``; ``load_before``: the load average when the run began."""
    print(
        f"tables={args.tables} floors={args.floors} screens={args.screens} seconds={args.seconds:g}"
        f" workers={args.workers} restart={args.restart} load average before: {load_before}"
        f" after: {os.getloadavg()[0]:.2f} (rate: mean actions/s per tablet; latencies in ms)"
    )
    print(COLUMNS)
    for real, echo in results:
        if real is not None:
            print(row("pokerfloor", real))
        if echo is not None:
            print(row("echo", echo))
        if real is not None and echo is not None:
            print(ratio_row(real, echo))
    print(f"steady: the same runs, latencies of the messages sent after the first {args.warmup:g} s only")
    for real, echo in results:
        if real is not None:
            print(row("pokerfloor", {**real, **real["steady"]}))
        if echo is not None:
            print(row("echo", {**echo, **echo["steady"]}))
        if real is not None and echo is not None:
            print(ratio_row({**real, **real["steady"]}, {**echo, **echo["steady"]}))
    for real, echo in results:
        for name, r in (("pokerfloor", real), ("echo", echo)):
            if r is None:
                continue
            extra = f"  db events {r['db_events']}" if r["db_events"] is not None else ""
            if r.get("db_commits"):
                extra += f" in {r['db_commits']} commits"
            cpu = f"; CPU per applied action: server {r['server_cpu_ms']:.2f} ms"
            cpu += f" ({r['server_cpu_steady_ms']:.2f} ms after the connect storm)"
            if r["db_cpu_ms"] is not None:
                cpu += f", PostgreSQL backends {r['db_cpu_ms']:.2f} ms"
            print(
                f"{name} rate {r['rate']:g}: {r['sent']} sent, {r['applied']} applied in {r['elapsed']:.1f} s, "
                f"{r['receipts']} floor receipts, errors {r['errors'] or 0}{extra}{cpu}"
            )
            tablets, floors, screens = r["counts"]
            print(
                f"  storm: {tablets} tablets, {floors} floors, {screens} screens all connected in {r['storm']:.1f} s;"
                f" connect + first snapshot p50/p99 ms: tablets {r['connect'][0]:.0f}/{r['connect'][1]:.0f},"
                f" floors {r['floor_connect'][0]:.0f}/{r['floor_connect'][1]:.0f},"
                f" screens {r['screen_connect'][0]:.0f}/{r['screen_connect'][1]:.0f};"
                f" server CPU {r['storm_cpu']:.2f} s ({r['storm_cpu'] * 1000 / (tablets + floors + screens):.2f} ms"
                " per client)"
            )
            if r["restart"] is not None:
                rs = r["restart"]
                all_back = f"{rs['all_back']:.1f} s" if rs["all_back"] is not None else "NOT all back"
                back50 = f"{rs['back50']:.1f} s" if rs["back50"] is not None else "-"
                print(
                    f"  restart: killed and listening again after {rs['down']:.1f} s; {rs['back']}/{tablets} tablets"
                    f" had their snapshot back, half by {back50}, all by {all_back}; unanswered at the end"
                    f" {r['unanswered']}, acknowledged but not in the database {r['db_missing']}; the floors'"
                    f" snapshots after their reconnect covered {r['resynced']} updates made while they were away"
                )
            disk50, disk99, disk_max, stalls = r["disk"]
            print(
                f"  disk during the run (8 KiB written and fdatasync'd every 50 ms): p50 {disk50:.2f} ms, "
                f"p99 {disk99:.1f} ms, max {disk_max:.0f} ms, {stalls} stalls over 50 ms"
            )
            if name == "pokerfloor":
                print(
                    "  ack p50/p99 ms by message: "
                    + ", ".join(f"{k} {n}x {p50:.0f}/{p99:.0f}" for k, (n, p50, p99) in r["ack_by_kind"].items())
                )
        if real is not None and echo is not None:
            whole, steady = (real[k] / echo[k] for k in ("server_cpu_ms", "server_cpu_steady_ms"))
            print(f"CPU per applied action, pokerfloor / echo: {whole:.2f}x; after the connect storm {steady:.2f}x")

    by_rate: dict[float, list[float]] = {}
    for real, echo in results:
        if real is not None and echo is not None:
            by_rate.setdefault(real["rate"], []).append(real["server_cpu_steady_ms"] / echo["server_cpu_steady_ms"])
    for rate, ratios in by_rate.items():
        if len(ratios) > 1:
            listed = ", ".join(f"{r:.2f}x" for r in sorted(ratios))
            print(
                f"rate {rate:g}: CPU per applied action after the connect storm, pokerfloor / echo, median of"
                f" {len(ratios)} pairs: {statistics.median(ratios):.2f}x ({listed})"
            )
