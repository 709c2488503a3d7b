"""The fields of :class:`~poker.hand.state.HandState`, declared once for its parts.

:class:`HandFields` is the common base of the mixins (:mod:`.betting`, :mod:`.dealing`,
:mod:`.showdown`, :mod:`.stud_deal`, :mod:`.stud_showdown`, :mod:`.actions`). It holds the
``__slots__`` of ``HandState`` beyond :class:`~.core.CoreState`'s and their annotations, no
values and no code; the methods one part calls on another are declared for the type checker
only. Every game uses the same fields: a stud player's down and up cards are his ``_hole``
cards in the order dealt (which are up: ``spec.game_variant.up_indexes()``), stud's community
card is the ``_board``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from .core import CoreState

if TYPE_CHECKING:
    from .formats import TwoBoards
    from .pots import Award
    from .records import AwardPot
    from .spec import HandSpec
    from .stud_spec import StudSpec

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
        # the games with a bring-in (stud): who opened the round, an open pair on fourth
        # street, cards out of the deck (burns included)
        "_opener",
        "_open_pair",
        "_cards_out",
    )

    spec: HandSpec | StudSpec
    _allin_incs: tuple[int, ...]
    _reopen: tuple[int | None, ...]  # per position: the raise-to that reopens its betting
    _runout: bool
    _board: tuple[str, ...]
    _hole: tuple[tuple[str, ...] | None, ...]
    _short_top: bool
    _called_short: frozenset[int]
    _pl_credit: int
    _two: TwoBoards | None
    _opener: int | None
    _open_pair: bool
    _cards_out: int

    if TYPE_CHECKING:
        # Implemented by HandState or by another part.
        def _begin_round(self, opener: int, raise_inc: int) -> None: ...
        def _min_to_raw(self) -> int: ...
        def _enter_showdown(self) -> None: ...
        def _stud_awards(self) -> list: ...
        def _check_stud_award(self, action: AwardPot) -> tuple[Award, ...]: ...
        def _bring_in_due(self) -> bool: ...
        def _after_passive(self, new: Self, pos: int, amount: int) -> None: ...
        def legal(self) -> Any: ...

        @property
        def street(self) -> str: ...

        @property
        def next_street(self) -> str | None: ...

        @property
        def showdown_order(self) -> tuple[int, ...]: ...
        def _known_elsewhere(self, skip_hole: int | None = None, skip_board: bool = False) -> set[str]: ...
        def _dealt_elsewhere(
            self, cards: tuple[str, ...], skip_hole: int | None = None, skip_board: bool = False
        ) -> bool: ...
        def boards_of_pot(self, index: int) -> tuple[int, ...]: ...

        @property
        def boards(self) -> tuple[tuple[str, ...], ...]: ...

        @property
        def hole_cards(self) -> tuple[tuple[str, ...] | None, ...]: ...
