"""Replay the PHH corpus through our engine and through pokerkit; print hands/s.

Run: .venv/bin/python bench/replay.py [seconds_per_figure]

Figures (hands per second of CPU time, best pass of several, so that other
processes on the machine disturb them less):

- ``parse``: ``load_phh`` of every file's text (TOML to PhhHand);
- ``engine``: ``replay`` of the already parsed hands (the engine alone);
- ``ours``: both, text to final stacks;
- ``pokerkit``: ``HandHistory.loads`` and its state replay, text to final stacks;
- ``pk replay``: pokerkit's state replay of the already loaded ``HandHistory`` objects
  (pokerkit's counterpart of ``engine``: its replay without its TOML reading).

The target of issue 27 compares ``engine`` with ``pokerkit``; the like-for-like figure is
``engine`` against ``pk replay`` (printed too, so that neither ratio hides the other).

The engine imported is the one of this checkout, or the one on PYTHONPATH
when that is set (to compare two checkouts in one session:
``PYTHONPATH=/path/to/other/checkout .venv/bin/python bench/replay.py``).
Prints figures only; asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(REPO))

import pokerkit  # noqa: E402

from poker.hand.phh import load_phh, replay  # noqa: E402

PHH_ROOT = REPO.parent / "shared" / "phh"


def timed(label: str, run_once, count: int, budget: float) -> float:
    """Repeat ``run_once`` (one pass over ``count`` hands) for about ``budget``
    seconds of CPU time; return the rate of the fastest pass (hands/s)."""
    run_once()  # warm-up (imports, caches)
    passes = []
    spent = 0.0
    while spent < budget or len(passes) < 3:
        start = time.process_time()
        run_once()
        passes.append(time.process_time() - start)
        spent += passes[-1]
    rate = count / min(passes)
    print(f"{label:<10} {len(passes):>4} passes of {count} hands, best {min(passes):6.3f} s  -> {rate:10.1f} hands/s")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "seconds_per_figure", nargs="?", type=float, default=3.0, help="CPU seconds per figure (default 3)"
    )
    budget = parser.parse_args().seconds_per_figure
    files = sorted(PHH_ROOT.rglob("*.phh"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    print(f"{len(files)} PHH hands from {PHH_ROOT}; engine from {Path(sys.modules['poker'].__file__).parents[1]}")
    hands = [load_phh(t) for t in texts]

    def parse() -> None:
        for text in texts:
            load_phh(text)

    def engine() -> None:
        for hand in hands:
            replay(hand)

    def ours() -> None:
        for text in texts:
            replay(load_phh(text))

    def theirs() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for text in texts:
                for _ in pokerkit.HandHistory.loads(text):
                    pass

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        histories = [pokerkit.HandHistory.loads(text) for text in texts]

    def theirs_replay() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for history in histories:
                for _ in history:
                    pass

    ok = sum(replay(hand).ok for hand in hands)
    print(f"ours: {ok}/{len(texts)} replays ok (the WSOP 2019 hand is a reported data mismatch)")
    for frozen in (False, True):
        if frozen:
            # what a long-running process may do once started: the objects made at start-up
            # (Django, pokerkit's evaluation tables) leave the collector's full passes -- for pokerkit too
            gc.collect()
            gc.freeze()
            print(f"after gc.freeze() ({gc.get_freeze_count()} start-up objects no longer scanned):")
        timed("parse", parse, len(texts), budget)
        rate_engine = timed("engine", engine, len(texts), budget)
        rate_ours = timed("ours", ours, len(texts), budget)
        rate_pk = timed("pokerkit", theirs, len(texts), budget)
        rate_pk_replay = timed("pk replay", theirs_replay, len(texts), budget)
        print(
            f"ratio ours/pokerkit: {rate_ours / rate_pk:.1f}x; engine alone/pokerkit: {rate_engine / rate_pk:.1f}x; "
            f"engine alone/pk replay: {rate_engine / rate_pk_replay:.1f}x"
        )


if __name__ == "__main__":
    main()
