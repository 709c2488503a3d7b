"""The fields of :class:`~poker.hand.state.HandState`, declared once for its parts.

:class:`HandFields` is the common base of the mixins (:mod:`.betting`,
:mod:`.dealing`, :mod:`.showdown`, :mod:`.actions`). It holds the
``__slots__`` of ``HandState`` and their annotations, no values and no code;
the methods one part calls on another are declared for the type checker only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from .formats import TwoBoards
    from .pots import Award, Pot
    from .spec import HandSpec

__all__ = ["HandFields"]


class HandFields:
    """Field declarations of a hand state (positions index ``spec.seats``; chips are ints)."""

    __slots__ = (
        "spec",
        "_stacks",
        "_bets",
        "_contrib",
        "_dead",
        "_folded",
        "_street",
        "_phase",
        "_actors",
        "_acted",
        "_raise_inc",
        "_allin_incs",
        "_reopen",
        "_aggressor",
        "_street_acted",
        "_sd_aggr",
        "_runout",
        "_board",
        "_hole",
        "_shown",
        "_mucked",
        "_pots_final",
        "_awards",
        "_history",
        "_final",
        # variants (games, special formats)
        "_raises",
        "_uncapped",
        "_short_top",
        "_called_short",
        "_pl_credit",
        # the second board (double board, run it twice): a formats.TwoBoards or None
        "_two",
    )

    spec: HandSpec
    _stacks: tuple[int, ...]  # chips behind per position
    _bets: tuple[int, ...]  # chips in front on the current street
    _contrib: tuple[int, ...]  # chips already collected into the pots
    _dead: tuple[int, ...]  # dead antes per position
    _folded: tuple[bool, ...]
    _street: int  # index into STREETS
    _phase: str  # "betting", "board", "showdown" or "complete"
    _actors: tuple[int, ...]  # positions still to act, next first
    _acted: frozenset[int]
    _raise_inc: int
    _allin_incs: tuple[int, ...]
    _reopen: tuple[int | None, ...]  # per position: the raise-to that reopens its betting
    _aggressor: int | None
    _street_acted: bool
    _sd_aggr: int | None  # last aggressor of the last round with action
    _runout: bool
    _board: tuple[str, ...]
    _hole: tuple[tuple[str, ...] | None, ...]
    _shown: tuple[bool, ...]
    _mucked: tuple[bool, ...]
    _pots_final: tuple[Pot, ...] | None  # fixed from the showdown (or a win without showdown) on
    _awards: tuple[Award, ...]
    _history: tuple[dict, ...]
    _final: tuple[int, ...] | None
    _raises: int
    _uncapped: bool
    _short_top: bool
    _called_short: frozenset[int]
    _pl_credit: int
    _two: TwoBoards | None

    if TYPE_CHECKING:
        # Implemented by HandState or by another part.
        def _copy(self) -> Self: ...
        def apply(self, action: dict) -> Self: ...
        def can(self, action: dict) -> bool: ...
        def _begin_round(self, opener: int, raise_inc: int) -> None: ...
        def _min_to_raw(self) -> int: ...
        def _end_round(self) -> None: ...
        def _enter_showdown(self) -> None: ...
        def _settle(self) -> None: ...
        def _known_elsewhere(self, skip_hole: int | None = None, skip_board: bool = False) -> set[str]: ...
        def boards_of_pot(self, index: int) -> tuple[int, ...]: ...

        @property
        def pots(self) -> tuple[Pot, ...]: ...

        @property
        def phase(self) -> str: ...

        @property
        def mucked(self) -> tuple[bool, ...]: ...

        @property
        def boards(self) -> tuple[tuple[str, ...], ...]: ...

        @property
        def hole_cards(self) -> tuple[tuple[str, ...] | None, ...]: ...

        @property
        def total_pot(self) -> int: ...
