"""Start-up objects out of the garbage collector's sight (``gc.freeze``).

Why: Django, the apps, the URL and websocket routes and the engine's tables are loaded once and live as
long as the process.  A full collection walks every tracked object; during a fan-out to many screens (a
room update to 200 lobby TVs allocates many short-lived dicts) the collector ran its full generation
again and again over those start-up objects.  Frozen, they are never walked again
(``bench/RESULTS.md``, "Runtime machinery")."""

from __future__ import annotations

import gc


def freeze_startup_heap() -> int:
    """Move every object allocated so far into the permanent generation (``gc.freeze()``); call once,
    at the end of the ASGI module's import.  Returns the count of objects frozen (int)."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
