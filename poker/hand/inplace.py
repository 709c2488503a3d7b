"""A flop game's hand state changed in place, for a driver that keeps no earlier state.

:class:`HandState` is immutable: every action copies the state (31 fields) and the history
tuple. A driver that replays a whole record and only wants the end (the PHH replay,
:func:`.phh_replay.replay`) pays that for nothing. :class:`InPlaceState` runs the very same
action handlers (one engine: :class:`HandState`'s ``_HANDLERS``) on itself: its ``_copy``
returns the state itself, so each handler's "new" state is this one. The handlers are written
for it: they read every field of the old state that they need before they write the new one's
(see :meth:`.betting.BettingRound._after_passive`); the tests replay every corpus hand both
ways and compare the states (tests/poker/hand/test_inplace.py).

A refused action (:class:`~.errors.EngineError`) may leave an in-place state half changed:
a driver must drop the state then (the PHH replay replays the hand again the immutable way to
report the error exactly). :meth:`InPlaceState.freeze` gives an ordinary immutable
:class:`HandState` equal to the one the immutable replay reaches, history included.
"""

from __future__ import annotations

from typing import Self

from .records import ActionRecord, parse_action
from .spec import HandSpec
from .state import HandState

__all__ = ["InPlaceState"]


class InPlaceState(HandState):
    """A :class:`HandState` whose actions change it (:meth:`step`) instead of returning a copy.

    Create with :meth:`begin`; never hand one to code that keeps states (undo, the live table):
    :meth:`freeze` it first. ``apply`` works as on any state but changes this one too (and its
    ``history`` stays empty: :meth:`step` logs the actions)."""

    __slots__ = ("_log", "_phase_before", "_bets_before")

    _log: list[ActionRecord]
    _phase_before: str | None  # phase and bets before the last action that found the hand running
    _bets_before: tuple[int, ...]

    @classmethod
    def begin(cls, spec: HandSpec) -> Self:
        """The state at the start of a hand (:meth:`HandState.start`: antes, blinds, the first
        player to act), to be changed in place. Raises EngineError("bad_spec") as ``start``."""
        state = cls.start(spec)
        state._log = []
        state._phase_before = None
        state._bets_before = ()
        return state

    def _copy(self) -> Self:
        return self

    def step(self, action: ActionRecord | dict) -> None:
        """Apply ``action`` (an action record, or its dict: :meth:`HandState.apply` takes either)
        to this state; the record goes into the history.

        Raises:
            EngineError as :meth:`HandState.apply` (the state may then be half changed: drop
            it). The phase and bets before it are kept (:attr:`before`) while the hand is
            running. Unlike ``apply``, the action is not checked against the game's actions.
        """
        if not isinstance(action, ActionRecord):
            action = parse_action(action)
        phase = self._phase
        if phase != "complete":
            self._phase_before, self._bets_before = phase, self._bets
        self._HANDLERS[action.type](self, action)
        self._log.append(action)

    @property
    def before(self) -> tuple[str | None, tuple[int, ...]]:
        """``(phase, bets)`` of the state before the last action stepped while the hand was still
        running (``(None, ())`` before any): what :func:`.phh_amounts.collected_after` reads."""
        return self._phase_before, self._bets_before

    def freeze(self) -> HandState:
        """An immutable :class:`HandState` equal to this one, its history the actions stepped."""
        frozen = HandState._copy(self)
        frozen._history = tuple(self._log)
        return frozen
