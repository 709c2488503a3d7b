"""Tournament clock: structure (levels, breaks, color-ups, late registration)
and a server-authoritative clock kept as timestamps.

Pure Python.  Times are seconds (``float``, e.g. ``time.time()`` or a
``datetime.timestamp()``); chip amounts are ints.

The clock never drifts because it stores no countdown: only when it
started, when it was paused, how long it has been paused in total, and a
signed offset that adjustments and level jumps add.  Every reader computes
the same state from ``now``:

    elapsed = (min(now, paused_at) - started_at) - paused_total + offset

Rules:

* 001 "Neues Limit": a new limit "gilt ab der nächsten Hand. Eine Hand gilt
  mit dem ersten Shuffle (mischen) als gespielt."  004 #23: a new hand
  starts "nach dem ersten 'Riffle' durch den Dealer oder bei einem Wechsel
  des Dealers".  :func:`level_for_hand` gives the level a hand started at
  time T plays.
* 004 #77: hand-for-hand at the bubble.  In hand-for-hand the clock does not
  run in real time; it steps a fixed number of seconds per completed hand
  (:meth:`Clock.hand_completed`).  004 does not give the step; the caller
  chooses it.
* 004 #81: big blind ante equal to the small or the big blind
  (:func:`validate_structure`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from .rules import Citation, TournamentRules

AnteKind = Literal["none", "ante", "big_blind_ante"]
#: The ante kinds a structure may name, as a guard that narrows a ``str`` to :data:`AnteKind`.
ANTE_KINDS: tuple[AnteKind, ...] = get_args(AnteKind)


class ClockError(ValueError):
    """An operation that the clock's current state does not allow."""


@dataclass(frozen=True, slots=True)
class Level:
    """A blind level.

    ``small_blind``, ``big_blind``, ``ante`` -- chips (ints);
    ``ante_kind`` -- ``"none"``, ``"ante"`` (every player) or
    ``"big_blind_ante"`` (posted by the big blind, 004 #81);
    ``duration_seconds`` -- int > 0.  Raises ``ValueError`` on bad values.
    """

    small_blind: int
    big_blind: int
    duration_seconds: int
    ante: int = 0
    ante_kind: AnteKind = "none"

    def __post_init__(self):
        for name in ("small_blind", "big_blind", "duration_seconds", "ante"):
            if not isinstance(getattr(self, name), int) or isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be an int")
        if self.small_blind < 0 or self.big_blind <= 0 or self.small_blind > self.big_blind:
            raise ValueError("blinds must satisfy 0 <= small blind <= big blind, big blind > 0")
        if self.duration_seconds <= 0:
            raise ValueError("a level lasts more than 0 seconds")
        if (self.ante_kind == "none") != (self.ante == 0) or self.ante < 0:
            raise ValueError("an ante needs an ante kind and a positive amount")


@dataclass(frozen=True, slots=True)
class Break:
    """A break of ``duration_seconds`` (int > 0).

    ``color_up`` -- denominations removed from play during this break
    (chip race, :mod:`.chiprace`), smallest first.
    """

    duration_seconds: int
    color_up: tuple[int, ...] = ()
    label: str = ""

    def __post_init__(self):
        if not isinstance(self.duration_seconds, int) or self.duration_seconds <= 0:
            raise ValueError("a break lasts a positive int number of seconds")


@dataclass(frozen=True)
class Structure:
    """The periods of a tournament, in order.

    * ``periods`` -- :class:`Level` and :class:`Break` values; the first
      period must be a level.
    * ``late_registration_until`` -- index of the last period during which
      late registration (and re-entry) is open; ``None`` for no late
      registration.  Registration closes when that period ends.

    Raises ``ValueError`` for an empty structure, a leading break, or an
    index out of range.
    """

    periods: tuple[Level | Break, ...]
    late_registration_until: int | None = None
    starts: tuple[int, ...] = field(init=False, repr=False)
    level_numbers: tuple[int | None, ...] = field(init=False, repr=False)
    total_seconds: int = field(init=False, repr=False)

    @property
    def first_level(self) -> Level:
        """Level 1 (a structure starts with a level)."""
        first = self.periods[0]
        assert isinstance(first, Level)  # checked in __post_init__
        return first

    def __post_init__(self):
        periods = tuple(self.periods)
        object.__setattr__(self, "periods", periods)
        if not periods or not isinstance(periods[0], Level):
            raise ValueError("a structure starts with a level")
        if self.late_registration_until is not None and not 0 <= self.late_registration_until < len(periods):
            raise ValueError("late_registration_until is not a period index")
        starts: list[int] = []
        numbers: list[int | None] = []
        t, n = 0, 0
        for p in periods:
            if not isinstance(p, (Level, Break)):
                raise ValueError(f"not a level or break: {p!r}")
            starts.append(t)
            t += p.duration_seconds
            if isinstance(p, Level):
                n += 1
                numbers.append(n)
            else:
                numbers.append(None)
        object.__setattr__(self, "starts", tuple(starts))
        object.__setattr__(self, "level_numbers", tuple(numbers))
        object.__setattr__(self, "total_seconds", t)

    def period_at(self, elapsed: float) -> int:
        """Index of the period running ``elapsed`` seconds into the tournament
        (the last period once the structure is over)."""
        return max(0, min(bisect_right(self.starts, elapsed) - 1, len(self.periods) - 1))

    def next_level_index(self, index: int) -> int | None:
        """Index of the first level after period ``index``, or ``None``."""
        for i in range(index + 1, len(self.periods)):
            if isinstance(self.periods[i], Level):
                return i
        return None

    def level_index(self, level_number: int) -> int:
        """Period index of the 1-based ``level_number``; raises ``ValueError``."""
        try:
            return self.level_numbers.index(level_number)
        except ValueError:
            raise ValueError(f"no level {level_number}") from None


def validate_structure(structure: Structure, rules: TournamentRules) -> list[Citation]:
    """Check a structure against the rulebook; return the rules checked.

    004 #81 (house profile ``ante_format == "big_blind_ante"``): an ante is a big
    blind ante "der Höhe des jeweiligem Smallblinds oder Bigblinds" -- other antes
    raise ``ValueError``.  001 ("Ante ... muss
    im Turnierreglement vorgesehen sein") accepts any ante.
    """
    checked = []
    if rules.house.ante_format == "big_blind_ante":
        rule = rules.cite("big_blind_ante")
        checked.append(rule)
        for i, p in enumerate(structure.periods):
            if isinstance(p, Level) and p.ante_kind != "none":
                if p.ante_kind != "big_blind_ante" or p.ante not in (p.small_blind, p.big_blind):
                    raise ValueError(f"period {i}: ante must be a big blind ante equal to SB or BB ({rule})")
    return checked


@dataclass(frozen=True)
class ClockState:
    """What the clock shows at one instant.

    * ``period_index`` -- index into ``structure.periods``;
      ``level_number`` 1-based (``None`` on a break).
    * ``level`` -- the level running, or on a break the level that follows
      it; ``on_break`` / ``current_break``.
    * ``seconds_left`` -- in the current period (0 once the structure is
      over, ``finished``); ``elapsed`` -- clock seconds since the start.
    * ``next_level`` / ``next_level_number`` / ``seconds_to_next_level``.
    * ``running``, ``paused``, ``hand_for_hand``, ``late_registration_open``,
      ``color_up`` (denominations raced off in this break).
    """

    period_index: int
    level_number: int | None
    level: Level | None
    on_break: bool
    current_break: Break | None
    seconds_left: float
    elapsed: float
    next_level: Level | None
    next_level_number: int | None
    seconds_to_next_level: float | None
    running: bool
    paused: bool
    hand_for_hand: bool
    late_registration_open: bool
    finished: bool
    color_up: tuple[int, ...]


@dataclass(frozen=True)
class Clock:
    """Server-authoritative tournament clock (immutable; operations return a new clock).

    Stored fields: ``started_at`` (None before start), ``paused_at`` (None
    while running), ``paused_total`` (seconds), ``offset`` (seconds added
    by adjustments and jumps), ``hand_for_hand`` with ``seconds_per_hand``
    and ``hands_played`` in hand-for-hand.  Save them as they are and
    rebuild the clock with ``Clock(structure, **fields)``.
    """

    structure: Structure
    started_at: float | None = None
    paused_at: float | None = None
    paused_total: float = 0.0
    offset: float = 0.0
    hand_for_hand: bool = False
    seconds_per_hand: int = 0
    hands_played: int = 0

    def stored_fields(self) -> dict:
        """The fields to persist (everything but ``structure``), JSON-ready:
        ``Clock(structure, **clock.stored_fields())`` rebuilds the clock."""
        return {
            "started_at": self.started_at,
            "paused_at": self.paused_at,
            "paused_total": self.paused_total,
            "offset": self.offset,
            "hand_for_hand": self.hand_for_hand,
            "seconds_per_hand": self.seconds_per_hand,
            "hands_played": self.hands_played,
        }

    # -- reading ---------------------------------------------------------
    def _raw_elapsed(self, now: float) -> float:
        if self.started_at is None:
            return self.offset
        end = now if self.paused_at is None or self.paused_at > now else self.paused_at
        return end - self.started_at - self.paused_total + self.offset

    def elapsed(self, now: float) -> float:
        """Clock seconds since the start, within ``0..structure.total_seconds``."""
        return min(max(self._raw_elapsed(now), 0.0), float(self.structure.total_seconds))

    @property
    def running(self) -> bool:
        """Started and not paused."""
        return self.started_at is not None and self.paused_at is None

    def state(self, now: float) -> ClockState:
        """The :class:`ClockState` at ``now`` (seconds)."""
        s = self.structure
        e = self.elapsed(now)
        finished = e >= s.total_seconds
        i = s.period_at(e)
        period = s.periods[i]
        end = s.starts[i] + period.duration_seconds
        left = 0.0 if finished else end - e
        nxt = s.next_level_index(i)
        next_level = s.periods[nxt] if nxt is not None else None
        assert not isinstance(next_level, Break)  # next_level_index finds levels only
        if isinstance(period, Break):
            level, current_break = next_level, period
        else:
            level, current_break = period, None
        on_break = current_break is not None
        reg = s.late_registration_until
        return ClockState(
            period_index=i,
            level_number=s.level_numbers[i],
            level=level,
            on_break=on_break,
            current_break=current_break,
            seconds_left=left,
            elapsed=e,
            next_level=next_level,
            next_level_number=s.level_numbers[nxt] if nxt is not None else None,
            seconds_to_next_level=(s.starts[nxt] - e) if nxt is not None else None,
            running=self.running,
            paused=self.paused_at is not None,
            hand_for_hand=self.hand_for_hand,
            late_registration_open=reg is not None and (i < reg or (i == reg and not finished and left > 0)),
            finished=finished,
            color_up=current_break.color_up if current_break is not None else (),
        )

    # -- operations ------------------------------------------------------
    def start(self, now: float) -> Clock:
        """Start the clock at ``now``.  Raises ``ClockError`` if started."""
        if self.started_at is not None:
            raise ClockError("the clock is already started")
        return replace(self, started_at=now)

    def pause(self, now: float) -> Clock:
        """Pause at ``now``.  Raises ``ClockError`` unless running."""
        if not self.running:
            raise ClockError("the clock is not running")
        return replace(self, paused_at=now)

    def resume(self, now: float) -> Clock:
        """Resume at ``now``.  Raises ``ClockError`` unless paused, or in
        hand-for-hand (use :meth:`leave_hand_for_hand`)."""
        if self.paused_at is None:
            raise ClockError("the clock is not paused")
        if self.hand_for_hand:
            raise ClockError("in hand-for-hand the clock steps per hand; leave hand-for-hand first")
        return replace(self, paused_at=None, paused_total=self.paused_total + (now - self.paused_at))

    def _set_elapsed(self, target: float, now: float) -> Clock:
        return replace(self, offset=self.offset + (target - self._raw_elapsed(now)))

    def adjust(self, seconds: float, now: float) -> Clock:
        """Give the current period ``seconds`` more (positive) or fewer
        (negative) seconds.

        Never moves to an earlier period: time left is capped at the period's
        full duration.  Taking away more than is left ends the period (the
        next one starts at ``now``).
        """
        s = self.structure
        e = self.elapsed(now)
        i = s.period_at(e)
        start = s.starts[i]
        end = start + s.periods[i].duration_seconds
        return self._set_elapsed(min(max(e - seconds, start), end), now)

    def jump_to(self, period_index: int, now: float) -> Clock:
        """Restart the clock at the beginning of ``period_index`` (level or
        break) at ``now``.  Raises ``ClockError`` for a bad index."""
        if not 0 <= period_index < len(self.structure.periods):
            raise ClockError(f"no period {period_index}")
        return self._set_elapsed(float(self.structure.starts[period_index]), now)

    def jump_to_level(self, level_number: int, now: float) -> Clock:
        """Restart at the beginning of 1-based ``level_number``."""
        try:
            return self.jump_to(self.structure.level_index(level_number), now)
        except ValueError as exc:
            raise ClockError(str(exc)) from None

    def enter_hand_for_hand(self, now: float, seconds_per_hand: int) -> Clock:
        """Switch to hand-for-hand (004 #77): the clock stops at ``now`` and
        from then on advances ``seconds_per_hand`` per completed hand.

        Raises ``ClockError`` if not started, already in hand-for-hand, or
        ``seconds_per_hand`` is negative.
        """
        if self.started_at is None:
            raise ClockError("the clock is not started")
        if self.hand_for_hand:
            raise ClockError("already hand-for-hand")
        if seconds_per_hand < 0:
            raise ClockError("seconds_per_hand must be >= 0")
        clock = self.pause(now) if self.running else self
        return replace(clock, hand_for_hand=True, seconds_per_hand=seconds_per_hand, hands_played=0)

    def hand_completed(self) -> Clock:
        """Every table has finished the hand-for-hand hand: step the clock.

        Raises ``ClockError`` outside hand-for-hand.
        """
        if not self.hand_for_hand:
            raise ClockError("not hand-for-hand")
        return replace(self, offset=self.offset + self.seconds_per_hand, hands_played=self.hands_played + 1)

    def leave_hand_for_hand(self, now: float) -> Clock:
        """End hand-for-hand; the clock runs again in real time from ``now``."""
        if not self.hand_for_hand:
            raise ClockError("not hand-for-hand")
        clock = replace(self, hand_for_hand=False)
        return clock.resume(now) if clock.paused_at is not None else clock


@dataclass(frozen=True, slots=True)
class HandLevel:
    """The level a hand plays: ``level`` (blinds/ante), its 1-based
    ``level_number`` and ``period_index``, and the ``rule`` applied."""

    level: Level
    level_number: int
    period_index: int
    rule: Citation


def level_for_hand(clock: Clock, hand_started_at: float, rules: TournamentRules) -> HandLevel:
    """Blinds for a hand whose first shuffle/riffle was at ``hand_started_at``.

    A new level "gilt ab der nächsten Hand" (001 "Neues Limit"; 004 #23):
    a hand keeps the level running when it started, even if the level ends
    during the hand.  A hand started during a break plays the next level.

    Evaluates the clock as it is now: call it when the hand starts and
    store the answer with the hand (later pauses or adjustments change the
    clock's history).  Raises ``ClockError`` when no level follows.
    """
    st = clock.state(hand_started_at)
    index = st.period_index if not st.on_break else clock.structure.next_level_index(st.period_index)
    if index is None or st.level is None:
        raise ClockError("no level left to play")
    level = clock.structure.periods[index]
    number = clock.structure.level_numbers[index]
    assert isinstance(level, Level) and number is not None  # index is a level's period
    return HandLevel(level, number, index, rules.cite("new_level"))
