"""Probes of ``bench/live.py``: percentiles, and how the disk answered during a run."""

from __future__ import annotations

import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` (seconds) in milliseconds; NaN when empty."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))] * 1000


class DiskProbe:
    """While the block runs, overwrite 8 KiB of a preallocated file and ``fdatasync`` it every
    ``interval`` seconds, as PostgreSQL's WAL writes do at every commit, in ``folder`` (by default
    the embedded server's data directory, else the checkout: the file system a commit waits on).
    The benchmark's acks wait for commits, so a stall of the disk (a shared virtual disk stalls for
    30-300 ms now and then) shows in their p99 whatever the server does: this tells the runs that met
    one.  ``figures()``: ``(p50, p99, max, stalls over 50 ms)`` in ms."""

    def __init__(self, folder: Path | None = None, interval: float = 0.05) -> None:
        if folder is None:
            from pokerfloor import embedded_pg

            folder = embedded_pg.pgdata_dir() if "DATABASE_URL" not in os.environ else ROOT
            folder = folder if folder.is_dir() else ROOT
        self.path, self.interval, self.samples = folder / ".bench-disk-probe", interval, []
        self._stop = None

    def __enter__(self) -> DiskProbe:
        import threading

        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        size, block = 1 << 22, b"x" * 8192
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            os.posix_fallocate(fd, 0, size)
            os.fsync(fd)
            offset = 0
            while not self._stop.wait(self.interval):
                t0 = time.perf_counter()
                os.pwrite(fd, block, offset)
                os.fdatasync(fd)
                self.samples.append(time.perf_counter() - t0)
                offset = (offset + len(block)) % size
        finally:
            os.close(fd)
            self.path.unlink(missing_ok=True)

    def figures(self) -> tuple[float, float, float, int]:
        return (
            pct(self.samples, 50),
            pct(self.samples, 99),
            max(self.samples, default=float("nan")) * 1000,
            sum(1 for t in self.samples if t > 0.05),
        )
