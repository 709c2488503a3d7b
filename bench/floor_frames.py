"""The floor dashboard at room scale (issue 26): frame times of the page with 1,000 tables and 200 updates/s.

    .venv/bin/python bench/floor_frames.py [--tables 1000] [--rate 200] [--seconds 10]
                                           [--view map|tiles] [--root DIR] [--sections 10]

Makes ``--tables`` open tables (six players each, a live hand, ``--sections`` sections; kept in the
benchmark's own database ``pokerfloor_bench_floor`` for the next run), serves them with one daphne from
``--root`` (a checkout: the default is this one; another commit's code, e.g. a ``git worktree`` of the
commit before the change, measures the old path against the same database), with Redis as the channel
layer, and opens the floor page in ``/usr/bin/chromium`` (Playwright, 1920x1080). Then it drives
``--rate`` table updates per second into the floor group for ``--seconds`` (from this process, through
Redis: each a real snapshot of a random table with the next seq and a new pot, the message the write path
sends) and prints:

* the floor snapshot's size in bytes and the time from the page's request to that frame's arrival, and to
  the first rows drawn;
* frame times of the page left alone for half of ``--seconds`` (the machine's own: a loaded box shows
  there), then while the updates flow: the deltas of ``requestAnimationFrame`` (p50, p95, p99, max) and
  the frames counted, and what the page received meanwhile (frames and bytes on the socket).

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from benchdb import free_port, setup_django  # noqa: E402
from live import redis_server  # noqa: E402

DATABASE = "pokerfloor_bench_floor"
PREFIX = "Floor "
CHROMIUM = "/usr/bin/chromium"

FRAME_PROBE = """
window.__frames = [];
window.__recording = false;
(() => {
  let last;
  const tick = (now) => {
    if (last !== undefined && window.__recording) window.__frames.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"""


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` (milliseconds, as given); NaN when empty."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def make_room(n_tables: int, n_sections: int) -> list[int]:
    """``n_tables`` open tables named "Floor 0001".. with six players and a live hand each, in
    ``n_sections`` sections ("A", "B", ...); made once and kept (other open tables are closed)."""
    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.test import override_settings

    from tables import services
    from tables.models import Table

    names = [f"{PREFIX}{i:04d}" for i in range(1, n_tables + 1)]
    Table.objects.filter(status=Table.Status.OPEN).exclude(name__in=names).update(status=Table.Status.CLOSED)
    have = set(Table.objects.filter(name__in=names).values_list("name", flat=True))

    def one(name: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")
        table = services.create_table(name, small_blind=50, big_blind=100)
        for seat in range(1, 7):
            services.seat_player(table.id, seat, f"{name[-4:]}-{seat}", 20_000)
        services.start_hand(table.id)
        connection.close()

    missing = [n for n in names if n not in have]
    if missing:
        print(f"making {len(missing)} tables ...", flush=True)
        with override_settings(CHANNEL_LAYERS={}), ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(one, missing))
    ids = list(Table.objects.filter(name__in=names).order_by("name").values_list("id", flat=True))
    Table.objects.filter(id__in=ids).update(status=Table.Status.OPEN)
    per = max(1, (len(ids) + n_sections - 1) // n_sections)
    for s in range(n_sections):
        Table.objects.filter(id__in=ids[s * per : (s + 1) * per]).update(section=chr(ord("A") + s))
    group = Group.objects.get_or_create(name="floor")[0]
    user = User.objects.filter(username="bench-floorman").first()
    if user is None:
        user = User.objects.create_user("bench-floorman", password="pw-bench-floor")
    user.groups.add(group)
    return ids


def session_cookie() -> str:
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get(username="bench-floorman"))
    return client.cookies["sessionid"].value


def snapshots(ids: list[int]) -> dict[int, dict]:
    from tables import services
    from tables.models import Table

    tables = list(Table.objects.filter(id__in=ids).select_related("dealer", "current_hand"))
    return services.table_snapshots(tables)


async def drive(snaps: dict[int, dict], rate: float, seconds: float, seed: int = 1) -> int:
    """Send ``rate`` updates per second for ``seconds`` to the floor group (through the channel layer, as
    the write path does); returns how many were sent."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    rng = random.Random(seed)
    ids = list(snaps)
    seqs = {i: snaps[i]["seq"] for i in ids}
    sent = 0
    start = time.perf_counter()
    while True:
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return sent
        due = int(elapsed * rate) + 1
        while sent < due:
            table_id = rng.choice(ids)
            seqs[table_id] += 1
            snap = snaps[table_id]
            snap["seq"] = seqs[table_id]
            state = (snap.get("hand") or {}).get("state") or {}
            if state:
                state["total_pot"] = 150 + 100 * rng.randrange(1, 60)
                state["to_act_seat"] = rng.randrange(1, 7)
            text = json.dumps({"type": "update", "seq": snap["seq"], "snapshot": snap}, separators=(",", ":"))
            await layer.group_send(
                "floor", {"type": "table.update", "seq": snap["seq"], "table_id": table_id, "text": text}
            )
            sent += 1
        await asyncio.sleep(0.004)


def serve(root: Path, env: dict[str, str], log_path: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [str(root / ".venv/bin/daphne"), "-b", "127.0.0.1", "-p", str(port), "pokerfloor.asgi:application"],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    deadline = time.monotonic() + 180  # a loaded machine takes its time to import Django
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"daphne exited with {proc.returncode}; see {log_path}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    sys.exit("daphne did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--sections", type=int, default=10)
    parser.add_argument("--rate", type=float, default=200.0, help="updates per second into the floor group")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--view", choices=["map", "tiles"], default="map")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code serves the page")
    parser.add_argument("--label", default="")
    parser.add_argument(
        "--screenshots", type=Path, help="also save the floor (map and tiles, en and de, 1920x1080 and 1280x800) here"
    )
    args = parser.parse_args()

    with redis_server() as redis_url:
        os.environ["REDIS_URL"] = redis_url
        database_url = setup_django(DATABASE)
        ids = make_room(args.tables, args.sections)
        cookie = session_cookie()
        snaps = snapshots(ids)
        env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "LOG_LEVEL": "WARNING"}
        proc, port = serve(args.root.resolve(), env, "/tmp/bench-floor-daphne.log")
        try:
            result = asyncio.run(measure(args, port, cookie, snaps))
        finally:
            proc.terminate()
            proc.wait(20)
    label = args.label or str(args.root)
    print(f"\nfloor page, {len(ids)} tables, view {args.view}, {label}")
    for key, value in result.items():
        print(f"  {key}: {value}")


async def measure(args, port: int, cookie: str, snaps: dict[int, dict]) -> dict:
    from playwright.async_api import async_playwright

    base = f"http://127.0.0.1:{port}"
    frames_in: list[tuple[float, int, str]] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        context = await browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=base)
        await context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
        await context.add_init_script(
            FRAME_PROBE + f"try {{ localStorage.setItem('pokerfloor.floor.view', '{args.view}'); }} catch {{}}"
        )
        page = await context.new_page()

        def on_socket(ws):
            if "/ws/floor/" in ws.url:
                ws.on("framereceived", lambda data: frames_in.append((time.perf_counter(), len(data), data[:40])))

        page.on("websocket", on_socket)
        start = time.perf_counter()
        await page.goto("/floor/")
        await page.wait_for_selector(".map-row [data-f=seats]:not(:empty), .tile [data-f=players] tr", timeout=180_000)
        drawn = time.perf_counter() - start
        await page.wait_for_timeout(2000)
        snap_frames = [f for f in frames_in if '"type":"floor_snapshot"' in f[2]]
        snapshot_bytes = f"{sum(f[1] for f in snap_frames)} in {len(snap_frames)} frame(s)" if snap_frames else None
        snapshot_at = snap_frames[-1][0] - start if snap_frames else None
        await page.wait_for_timeout(2000)
        html_bytes = await page.evaluate("document.documentElement.outerHTML.length")
        nodes = await page.evaluate("document.getElementsByTagName('*').length")
        # the same page without updates first: the machine's own frame times (a loaded box shows here)
        await page.evaluate("window.__frames = []; window.__recording = true;")
        await page.wait_for_timeout(int(args.seconds * 500))
        idle = await page.evaluate("window.__recording = false; window.__frames")
        before = len(frames_in)
        await page.evaluate("window.__frames = []; window.__recording = true;")
        began = time.perf_counter()
        sent = await drive(snaps, args.rate, args.seconds)
        took = time.perf_counter() - began
        await page.wait_for_timeout(500)
        deltas = await page.evaluate("window.__recording = false; window.__frames")
        during = frames_in[before:]
        errors = await page.evaluate("document.querySelector('[data-field=conn]').dataset.state")
        if args.screenshots:
            await screenshots(browser, base, cookie, args.screenshots)
        await browser.close()
    return {
        "floor_snapshot bytes": snapshot_bytes,
        "floor_snapshot (last part) arrived after (s)": None if snapshot_at is None else round(snapshot_at, 2),
        "first rows drawn after (s)": round(drawn, 2),
        "DOM elements / page bytes": f"{nodes} / {html_bytes}",
        "updates sent": f"{sent} in {took:.1f} s ({sent / took:.0f}/s)",
        "socket frames / bytes during the updates": f"{len(during)} / {sum(f[1] for f in during)}",
        "idle frames, no updates (half as long)": len(idle),
        "idle frame time p50 / p95 / p99 / max (ms)": " / ".join(
            f"{v:.1f}" for v in (pct(idle, 50), pct(idle, 95), pct(idle, 99), max(idle or [0]))
        ),
        "frames": len(deltas),
        "frame time p50 / p95 / p99 / max (ms)": " / ".join(
            f"{v:.1f}" for v in (pct(deltas, 50), pct(deltas, 95), pct(deltas, 99), max(deltas or [0]))
        ),
        "connection": errors,
    }


async def screenshots(browser, base: str, cookie: str, folder: Path) -> None:
    """The floor page as it looks with the room: each view, language and screen size, one PNG each."""
    folder.mkdir(parents=True, exist_ok=True)
    for lang, locale in (("en", "en-US"), ("de", "de-DE")):
        for width, height in ((1920, 1080), (1280, 800)):
            for view in ("map", "tiles"):
                context = await browser.new_context(
                    viewport={"width": width, "height": height}, base_url=base, locale=locale
                )
                await context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
                await context.add_init_script(f"localStorage.setItem('pokerfloor.floor.view', '{view}')")
                page = await context.new_page()
                await page.goto("/floor/")
                await page.wait_for_selector(".map-row [data-f=seats]:not(:empty), .tile [data-f=players] tr")
                await page.wait_for_timeout(1500)
                path = folder / f"floor-{view}-1000-{lang}-{width}x{height}.png"
                await page.screenshot(path=str(path))
                print(f"  screenshot {path}", flush=True)
                await context.close()


if __name__ == "__main__":
    main()
