"""Replay the PHH corpus through our engine and through pokerkit; print hands/s.

Run: .venv/bin/python bench/replay.py [seconds_per_engine]
Prints figures only; asserts nothing.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from poker.hand.phh import load_phh, replay  # noqa: E402

PHH_ROOT = REPO.parent / "shared" / "phh"


def timed(label: str, run_once, count: int, budget: float) -> float:
    """Repeat ``run_once`` (one pass over ``count`` hands) for about ``budget`` seconds."""
    run_once()  # warm-up (imports, caches)
    rounds = 0
    start = time.perf_counter()
    while True:
        run_once()
        rounds += 1
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            break
    rate = rounds * count / elapsed
    print(f"{label:<10} {rounds * count:>7} hands in {elapsed:6.2f} s  -> {rate:10.1f} hands/s")
    return rate


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    files = sorted(PHH_ROOT.rglob("*.phh"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    print(f"{len(files)} PHH hands from {PHH_ROOT}")

    def ours() -> None:
        for text in texts:
            replay(load_phh(text))

    import pokerkit

    raw = [t.encode("utf-8") for t in texts]

    def theirs() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for data in raw:
                for _ in pokerkit.HandHistory.loads(data.decode("utf-8")):
                    pass

    ok = sum(replay(load_phh(t)).ok for t in texts)
    print(f"ours: {ok}/{len(texts)} replays ok (the WSOP 2019 hand is a reported data mismatch)")
    rate_ours = timed("ours", ours, len(texts), budget)
    rate_pk = timed("pokerkit", theirs, len(texts), budget)
    print(f"ratio ours/pokerkit: {rate_ours / rate_pk:.1f}x")


if __name__ == "__main__":
    main()
