"""Start-up objects out of the garbage collector's sight (``gc.freeze``), and a collector paced for a
server that allocates many short-lived dicts.

Why: Django, the apps, the URL and websocket routes and the engine's tables are loaded once and live as
long as the process.  A full collection walks every tracked object; during a fan-out to many screens (a
room update to 200 lobby TVs allocates many short-lived dicts) the collector ran its full generation
again and again over those start-up objects.  Frozen, they are never walked again
(``bench/RESULTS.md``, "Runtime machinery").

Every dealer action allocates a hand's snapshot, its update messages and the floor's summary: a few
thousand short-lived objects, freed by their reference counts, not by the collector.  With CPython's
default threshold (700 allocations) the youngest generation was collected every few actions and the
full one (every object kept since start-up that is not frozen: the hands kept in memory, the sockets)
about every two seconds at saturation.  :data:`GEN0_THRESHOLD` spaces them out (``bench/RESULTS.md``,
"The garbage collector's threshold")."""

from __future__ import annotations

import gc

#: Allocations (less deallocations) between two collections of the youngest generation (CPython's
#: default is 700); the older generations keep their default ratios (10, 10).
GEN0_THRESHOLD = 10_000


def freeze_startup_heap() -> int:
    """Move every object allocated so far into the permanent generation (``gc.freeze()``) and set the
    youngest generation's threshold to :data:`GEN0_THRESHOLD`; call once, at the end of the ASGI
    module's import.  Returns the count of objects frozen (int)."""
    gc.collect()
    gc.freeze()
    _first, second, third = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, second, third)
    return gc.get_freeze_count()
