"""Import rate of ``manage.py import_phh`` (the hand archive, issue 27) beside ``manage.py replay_phh``'s
(a live table per hand through the dealer services), measured in the same run.

Run: .venv/bin/python bench/import_phh.py [--copies 25] [--jobs 2] [--old-copies 1]

The 200 hands of ``../shared/phh`` are copied ``--copies`` times into a temporary folder (each copy its
own files, so every hand is new to the archive) and imported end to end: find the files, parse, replay,
check the recorded result, write in batches with ``bulk_create`` (the whole ``call_command``, in this
process; the workers of ``--jobs`` included).  ``replay_phh`` then replays ``--old-copies`` copies the old
way.  Runs on its own database (``pokerfloor_bench_import``, emptied of archived hands first).  Prints
both rates (hands/s of wall time) and their ratio; asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from benchdb import setup_django  # noqa: E402

PHH = REPO.parent / "shared" / "phh"


def copies(root: Path, n: int) -> Path:
    """``n`` copies of the PHH corpus under ``root`` (``copy0/``, ``copy1/`` ...); returns ``root``."""
    for i in range(n):
        shutil.copytree(PHH, root / f"copy{i}", ignore=shutil.ignore_patterns("*.md"))
    return root


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the ``--jobs`` workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(command: str, *args: str) -> tuple[float, float, str]:
    """Wall time and CPU time (this process and its workers; not the database server's) of one management
    command, and its output (its exit code is ignored: two hands of the corpus do not check)."""
    from django.core.management import call_command

    out = io.StringIO()
    start, cpu = time.perf_counter(), _cpu()
    try:
        call_command(command, *args, stdout=out)
    except SystemExit:
        pass
    return time.perf_counter() - start, _cpu() - cpu, out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=25)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--old-copies", type=int, default=1)
    options = parser.parse_args()
    setup_django("pokerfloor_bench_import")
    from tables.models import ArchivedHand

    ArchivedHand.objects.all().delete()
    with tempfile.TemporaryDirectory(prefix="phh-bench-") as tmp:
        new_dir = copies(Path(tmp) / "new", options.copies)
        old_dir = copies(Path(tmp) / "old", options.old_copies)
        hands = 200 * options.copies
        print(f"load average before: {os.getloadavg()[0]:.1f}")
        for jobs in sorted({1, options.jobs}):
            ArchivedHand.objects.all().delete()
            seconds, cpu, out = run("import_phh", str(new_dir), "--jobs", str(jobs))
            print(
                f"import_phh --jobs {jobs}: {hands} hands in {seconds:.2f} s = {hands / seconds:,.0f} hands/s "
                f"(CPU {cpu:.2f} s: {hands / cpu:,.0f} hands per CPU second)"
            )
            print("   ", next(line for line in out.splitlines() if "hands read" in line))
        new_rate = hands / seconds
        old_hands = 200 * options.old_copies
        seconds, cpu, _out = run("replay_phh", str(old_dir))
        old_rate = old_hands / seconds
        print(
            f"replay_phh: {old_hands} hands in {seconds:.2f} s = {old_rate:,.1f} hands/s "
            f"(CPU {cpu:.2f} s: {old_hands / cpu:,.1f} hands per CPU second)"
        )
        print(f"import_phh --jobs {options.jobs} / replay_phh: {new_rate / old_rate:,.0f}x")
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
