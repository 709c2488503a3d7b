"""Planning a structure by the clock: generate one from a target duration, and estimate when any
structure ends.  Pure maths on the structure's JSON (see :mod:`.structures`): no database.

The house's planning rule (no rulebook sets one; it is how directors plan, e.g. The Tournament
Director's structure wizard): a tournament is near its end when the big blind has reached about
``total chips / 15`` -- the last players then hold 10 to 20 big blinds in total between them
(:data:`END_BIG_BLINDS`, :data:`END_RANGE`), so the blinds force the decision.  ``total chips`` =
expected players x starting stack (rebuys and add-ons not counted).

Minutes are ints, chips ints, times aware datetimes or seconds.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

END_BIG_BLINDS = 15
"""Big blinds in play in total at the estimated end: the big blind is ``total chips / 15``."""

END_RANGE = (10, 20)
"""Big blinds in total that count as "the end": the generator aims its last level into this range."""

_STEPS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
"""Big blinds per decade on the generated ladder (x 10^k): 100, 120, 150, 200, 250, 300, 400, ..."""


def ladder(up_to: int) -> list[int]:
    """The big blinds a generated structure chooses from, ascending, from 50 to the first at or above
    ``up_to`` (chips).  Each is a multiple of 50, so the small blind, half of it, is a multiple of the
    smallest chip (25); 250, 2,500 ... are left out (their small blinds 125, 1,250 ... would keep
    the 25 chip in play late in the night)."""
    out: list[int] = []
    scale = 1
    while not out or out[-1] < up_to:
        for step in _STEPS:
            bb = step * scale
            if bb % 50 == 0 and not (step == 25 and scale >= 10):
                out.append(bb)
                if bb >= up_to:
                    break
        scale *= 10
    return out


def end_big_blind(players: int, starting_stack: int) -> int:
    """The big blind of the estimated end: ``players x starting_stack / 15`` (chips, rounded down)."""
    return players * starting_stack // END_BIG_BLINDS


def break_every(level_minutes: int) -> int:
    """Levels between two breaks: about every 90 minutes of play, at least 2, at most 8 levels."""
    return max(2, min(8, round(90 / max(level_minutes, 1))))


def generate(
    *,
    hours: float,
    level_minutes: int,
    players: int,
    starting_stack: int,
    break_minutes: int = 10,
) -> dict[str, Any]:
    """A structure (the JSON of ``Tournament.structure``) whose blinds reach the end big blind
    (:func:`end_big_blind`) when the target duration is over.

    * ``hours`` -- the target duration of the whole tournament, breaks included (0.5 to 24);
    * ``level_minutes`` -- minutes per level (1 to 180); ``break_minutes`` -- minutes per break;
    * ``players`` -- expected entries (2 to 10,000); ``starting_stack`` -- chips (at least 100).

    Levels: as many as fit in the duration with a break every :func:`break_every` levels; their big
    blinds climb geometrically from about a hundredth of the starting stack (100 big blinds deep) to
    the end big blind, each snapped to the :func:`ladder`, never repeating or going down; the last
    level's is the first on the ladder at or above the end big blind.  Small blind
    half the big blind; big blind antes equal to the big blind from 200/400 (004 #81), chips 25 ..
    25,000 with the smallest colored up at a break once no later blind needs it (001 Chip Race, 004
    #24) -- as the built-in templates (``structures.blind_template``).  Late registration, re-entries:
    to the end of the first break (if any).  Raises ``ValueError`` (an English sentence) for a value
    out of range.
    """
    from tournaments.services.structures import blind_template  # the built-in templates' chips and breaks

    if not 0.5 <= hours <= 24:
        raise ValueError("the target duration is 0.5 to 24 hours")
    if not 1 <= level_minutes <= 180 or not 1 <= break_minutes <= 60:
        raise ValueError("a level is 1 to 180 minutes, a break 1 to 60")
    if not 2 <= players <= 10000 or not 100 <= starting_stack <= 10**9:
        raise ValueError("2 to 10,000 players and a starting stack of at least 100 chips")
    total = hours * 60
    every = break_every(level_minutes)
    levels = 1
    while True:  # the most levels whose time, with their breaks, fits the target
        n = levels + 1
        if n * level_minutes + ((n - 1) // every) * break_minutes > total:
            break
        levels = n
    target = max(end_big_blind(players, starting_stack), 100)
    steps = ladder(target)
    start = max((bb for bb in steps if bb * 100 <= starting_stack), default=steps[0])
    if start >= target:
        start = steps[0]
    blinds: list[tuple[int, int]] = []
    for i in range(levels):
        ideal = start * (target / start) ** (i / (levels - 1)) if levels > 1 else target
        bb = min(steps, key=lambda b: abs(math.log(b / ideal)))
        if i == levels - 1:  # the last level reaches the end big blind
            bb = max(next(b for b in steps if b >= target), bb)
        if blinds and bb <= blinds[-1][1]:
            bb = next((b for b in ladder(bb * 2) if b > blinds[-1][1]), blinds[-1][1] * 2)
        blinds.append((bb // 2, bb))
    first_break = every if levels > every else None
    structure = blind_template(blinds, level_minutes, every, break_minutes, first_break if first_break else 0)
    if first_break is None:
        structure["late_registration_until"] = structure["re_entry_until"] = min(levels - 1, 2)
    return structure


def end_estimate(structure: dict[str, Any], players: int, starting_stack: int) -> dict[str, Any]:
    """When ``structure`` (its JSON) reaches the end big blind of ``players`` x ``starting_stack``
    chips (:func:`end_big_blind`): ``{"period": index of the first level whose big blind reaches it,
    or the last period, "level": its level number (1-based, breaks not counted), "seconds": clock
    seconds from the start to the end of that period (breaks included), "reached": bool (False: the
    structure ends before the blinds get there), "big_blind": the end big blind}``."""
    target = end_big_blind(players, starting_stack)
    seconds = 0
    level = 0
    periods = structure.get("periods") or []
    for i, p in enumerate(periods):
        seconds += int(p.get("minutes") or 0) * 60
        if p.get("kind", "level") == "break":
            continue
        level += 1
        if int(p.get("big_blind") or 0) >= target:
            return {"period": i, "level": level, "seconds": seconds, "reached": True, "big_blind": target}
    return {
        "period": len(periods) - 1,
        "level": level,
        "seconds": seconds,
        "reached": False,
        "big_blind": target,
    }


def end_time(start: dt.datetime, estimate: dict[str, Any], elapsed: float = 0.0) -> dt.datetime:
    """The clock time of an :func:`end_estimate`: ``start`` (aware; for a running clock the current
    time) plus the estimate's seconds less ``elapsed`` (clock seconds already played)."""
    return start + dt.timedelta(seconds=max(estimate["seconds"] - elapsed, 0))
