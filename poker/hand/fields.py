"""The fields of :class:`~poker.hand.state.HandState`, declared once for its parts.

:class:`HandFields` is the common base of the mixins (:mod:`.betting`,
:mod:`.dealing`, :mod:`.showdown`, :mod:`.actions`). It holds the
``__slots__`` of ``HandState`` that the stud engine does not have (the fields and code both
share are :class:`~.core.CoreState`'s) and their annotations, no values and no code;
the methods one part calls on another are declared for the type checker only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core import CoreState

if TYPE_CHECKING:
    from .formats import TwoBoards
    from .spec import HandSpec

__all__ = ["HandFields"]


class HandFields(CoreState):
    """Field declarations of a flop game's hand state on top of :class:`~.core.CoreState`
    (positions index ``spec.seats``; chips are ints)."""

    __slots__ = (
        "_allin_incs",
        "_reopen",
        "_runout",
        "_board",
        "_hole",
        # variants (games, special formats)
        "_short_top",
        "_called_short",
        "_pl_credit",
        # the second board (double board, run it twice): a formats.TwoBoards or None
        "_two",
    )

    spec: HandSpec
    _allin_incs: tuple[int, ...]
    _reopen: tuple[int | None, ...]  # per position: the raise-to that reopens its betting
    _runout: bool
    _board: tuple[str, ...]
    _hole: tuple[tuple[str, ...] | None, ...]
    _short_top: bool
    _called_short: frozenset[int]
    _pl_credit: int
    _two: TwoBoards | None

    if TYPE_CHECKING:
        # Implemented by HandState or by another part.
        def _begin_round(self, opener: int, raise_inc: int) -> None: ...
        def _min_to_raw(self) -> int: ...
        def _enter_showdown(self) -> None: ...
        def _known_elsewhere(self, skip_hole: int | None = None, skip_board: bool = False) -> set[str]: ...
        def boards_of_pot(self, index: int) -> tuple[int, ...]: ...

        @property
        def boards(self) -> tuple[tuple[str, ...], ...]: ...

        @property
        def hole_cards(self) -> tuple[tuple[str, ...] | None, ...]: ...
