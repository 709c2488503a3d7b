"""Special formats of a hand: straddles, double board, run it twice, chip units.

Standard library only. These are parts of the hand the state machine
(:mod:`.state`) calls through a small interface, with plain values; nothing
here reads the state's internals:

- straddles (:mod:`.straddles`, re-exported here) are planned before the
  deal and end up as blinds in ``HandSpec.blinds_or_straddles``;
- bomb pots and flips are plain :class:`~poker.hand.spec.HandSpec` fields
  the state handles when the hand starts (000 Allgemein 14);
- :class:`TwoBoards` is the second board of a double-board hand or of a
  hand run twice: which board is due, dealing it, which pots it plays;
  :func:`check_run_it_twice` decides whether the players may run it twice
  and :func:`award_shares` splits a dealer's award over one or two boards;
- :func:`round_to_unit` and :func:`limit_message` serve the chip units and
  the limit games.

Sources (rulebook 000, the casino cash-game rules):

- 000 Aktionen 1 "Straddle": see :mod:`.straddles`.
- 000 Allgemein 14 "Double Board": two boards, every pot split equally
  between them.
- 000 Aktionen 8 "Run It Twice": only when no more action is possible, when
  every player declares it, with at least the table's minimum in the pot,
  the floor present when more than two players; main and side pots agreed
  separately; the odd chip to the worse position (left of the button).
- 000 Allgemein 8 "Unteilbare Jetons": bets divisible by the small blind
  (big blind at 2/5), the excess returned; pots split only down to the unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import UNKNOWN, parse_cards
from .errors import EngineError
from .limits import round_to_unit as _round_to_unit
from .pots import Pot, split_amount, split_between_boards
from .spec import HandSpec
from .straddles import STRADDLE_KINDS, Straddle, StraddlePlan, can_straddles, plan_straddles, verify_straddles
from .stud_spec import StudSpec

__all__ = [
    "Straddle",
    "StraddlePlan",
    "STRADDLE_KINDS",
    "plan_straddles",
    "verify_straddles",
    "can_straddles",
    "round_to_unit",
    "limit_message",
    "split_between_boards",
    "TwoBoards",
    "check_run_it_twice",
    "award_shares",
]

#: Board length after each street (preflop, flop, turn, river).
_BOARD_LENGTH = (0, 3, 4, 5)
_NEXT_STREET = {0: 1, 3: 2, 4: 3}


# ============================================================ betting limits
def limit_message(spec: HandSpec | StudSpec, low: int, high: int) -> str:
    """English explanation of an ``above_limit`` refusal (``spec``: a HandSpec or a StudSpec)."""
    if spec._stud:
        sizes = f"{low}" if low == high else f"{low} or {high}"
        return f"Fixed limit: the bet or raise is to {sizes} (000 Einsätze 2, Aktionen 3)."
    if spec.structure == "fixed_limit":
        return (
            f"Split limit: the bet or raise is to exactly {high} "
            "(small bet preflop and flop, big bet turn and river; 000 Einsätze 2, Aktionen 3)."
        )
    return f"Pot limit: the largest bet or raise is to {high}, the pot after the call (004 #54)."


# ================================================================ chip units
def round_to_unit(spec: HandSpec, to: int) -> tuple[int, int]:
    """Round a bet/raise-to down to the chip unit (000 Allgemein 8: "Eine
    eventuell entstandene Spitze erhält der Spielteilnehmer zurück").

    Args:
        spec: the hand (``spec.bet_unit`` chips).
        to: the amount the player put in front (chips).

    Returns:
        ``(rounded_to, excess)``: the largest multiple of the unit not above
        ``to``, and the chips handed back. The engine itself refuses an
        indivisible amount (``bad_chip_unit``); this helper is for the
        dealer screen.
    """
    return _round_to_unit(to, spec.bet_unit)


# ================================================================ two boards
class TwoBoards(NamedTuple):
    """The second board of a hand, a part of its state (immutable).

    Fields:
        board2: cards of board 2 dealt so far (``"??"`` = not entered).
        run_twice: indexes of the pots run twice (000 Aktionen 8), or None
            for a double-board hand (000 Allgemein 14: every pot on both
            boards).

    A double board deals each street on board 1 then board 2, with betting
    after both; a hand run twice deals board 1 to the river, then board 2
    (it starts with the cards that were out when the players agreed).
    """

    board2: tuple[str, ...] = ()
    run_twice: frozenset | None = None

    @classmethod
    def agreed(cls, board1: tuple[str, ...], pots: Sequence[int]) -> TwoBoards:
        """Board 2 of a hand the players agreed to run twice for ``pots``:
        it starts with the cards of board 1 already out."""
        return cls(tuple(board1), frozenset(pots))

    def due(self, board1: tuple[str, ...], street: int) -> tuple[int, int, int]:
        """Which deal is next while the hand waits for the board.

        Args:
            board1: cards of board 1 dealt so far.
            street: index of the street just finished (0 preflop ... 2 turn).

        Returns:
            ``(board, street, count)``: board 1 or 2, the index of the
            street dealt (1 flop, 2 turn, 3 river) and the number of cards.
        """
        b2 = self.board2
        if self.run_twice is None:
            street += 1
            if len(board1) < _BOARD_LENGTH[street]:
                return 1, street, _BOARD_LENGTH[street] - len(board1)
            return 2, street, _BOARD_LENGTH[street] - len(b2)
        if len(board1) < 5:
            street = _NEXT_STREET[len(board1)]
            return 1, street, _BOARD_LENGTH[street] - len(board1)
        street = _NEXT_STREET[len(b2)]
        return 2, street, _BOARD_LENGTH[street] - len(b2)

    def deal(
        self,
        board1: tuple[str, ...],
        street: int,
        text: str | None,
        wanted: int | None,
        known: set[str],
    ) -> tuple[tuple[str, ...], TwoBoards, int, str]:
        """The ``board`` action of a two-board hand waiting for the board
        (``Board(cards, board)``, :mod:`.records`); builds no hand state.

        Args:
            board1: cards of board 1 so far; street: the street just
                finished (as in :meth:`due`).
            text: the cards dealt (empty or None = not entered).
            wanted: the board the action names (1 or 2), or None; when
                given it must be the board that is due.
            known: cards already out elsewhere (hole cards, both boards).

        Returns:
            ``(board1, two_boards, street, then)``: the new boards, the
            street now dealt, and what the hand does next: ``"board"`` (the
            other board is due), ``"betting"`` (a new betting round on
            ``street``) or ``"showdown"`` (both run-outs complete).

        Raises:
            EngineError("wrong_phase" / "bad_cards" / "duplicate_card").
        """
        board, street, count = self.due(board1, street)
        if wanted is not None and wanted != board:
            raise EngineError("wrong_phase", f"Board {board} is due, not board {wanted!r}.")
        cards = parse_cards(text or "")
        if not cards:
            cards = (UNKNOWN,) * count
        if len(cards) != count:
            raise EngineError("bad_cards", f"Board {board} needs {count} card(s) now, got {len(cards)}.")
        clash = known.intersection(cards)
        if clash:
            raise EngineError("duplicate_card", f"{', '.join(sorted(clash))} already dealt.")
        if board == 1:
            return board1 + cards, self, street, "board"
        two = self._replace(board2=self.board2 + cards)
        if self.run_twice is None:
            return board1, two, street, "betting"
        return board1, two, street, "showdown" if len(two.board2) == 5 else "board"

    def boards_of_pot(self, index: int) -> tuple[int, ...]:
        """Board indexes (0, 1) pot ``index`` is played on: both in a
        double-board hand or for a pot run twice, else ``(0,)``."""
        if self.run_twice is not None and index not in self.run_twice:
            return (0,)
        return (0, 1)


def check_run_it_twice(
    spec: HandSpec,
    phase: str,
    runout: bool,
    two: TwoBoards | None,
    pots: Sequence[Pot],
    total_pot: int,
    agreed_seats: Sequence[int],
    chosen: Sequence[int] | None,
    floor: bool,
) -> list[int]:
    """Whether the players may run it twice now (000 Aktionen 8): the check of the
    ``run_it_twice`` action (``RunItTwice(agreed, pots, floor)``, :mod:`.records`).

    Args:
        spec: the hand; phase: ``HandState.phase``; runout: True when no
            more betting is possible; two: the hand's :class:`TwoBoards`
            part or None; pots: ``HandState.pots``; total_pot: chips in the
            middle.
        agreed_seats: the seats that declared it.
        chosen: the indexes of the pots to run twice (0 = main pot); None:
            every pot.
        floor: the floor is present.

    Returns:
        The indexes of the pots to run twice. The state then deals the rest
        of the board twice (board 1 to the river, then board 2); each chosen
        pot is halved between the two run-outs at the showdown, the others
        go by board 1 only.

    Raises:
        EngineError: ``hand_over``, ``run_twice_not_offered`` (the spec has
        no ``run_it_twice_min_pot``, or a double board), ``wrong_phase``
        (already agreed, or the board is complete),
        ``run_twice_action_possible`` (a: a player can still act),
        ``bad_action`` (bad pot indexes), ``run_twice_not_agreed`` (b:
        every player in the chosen pots must agree), ``run_twice_pot_too_small``
        (c: the pot is below ``run_it_twice_min_pot``),
        ``run_twice_floor_absent`` (e: more than two players and no floor).
    """
    if phase == "complete":
        raise EngineError("hand_over", "The hand is over.")
    if spec.run_it_twice_min_pot is None:
        raise EngineError("run_twice_not_offered", "Run it twice is not offered at this table.")
    if spec.boards != 1:
        raise EngineError("run_twice_not_offered", "A double-board hand is not run twice.")
    if two is not None:
        raise EngineError("wrong_phase", "The players already agreed to run it twice.")
    if phase == "showdown":
        raise EngineError("wrong_phase", "The board is complete; nothing is left to run twice.")
    if not (phase == "board" and (runout or spec.flip)):
        raise EngineError(
            "run_twice_action_possible",
            "Run it twice only when no more action is possible (000 Aktionen 8 a).",
        )
    if chosen is None:
        chosen = list(range(len(pots)))
    if not chosen or any(not 0 <= i < len(pots) for i in chosen) or len(set(chosen)) != len(chosen):
        raise EngineError(
            "bad_action", f"pots must list pot indexes 0..{len(pots) - 1} once each, got {list(chosen)!r}."
        )
    agreed = {spec.position_of(s) for s in agreed_seats}
    players = sorted({p for i in chosen for p in pots[i].eligible})
    missing = [spec.seat_of(p) for p in players if p not in agreed]
    if missing:
        raise EngineError(
            "run_twice_not_agreed",
            f"Seat(s) {', '.join(map(str, missing))} did not agree to run it twice (000 Aktionen 8 b).",
        )
    if total_pot < spec.run_it_twice_min_pot:
        raise EngineError(
            "run_twice_pot_too_small",
            f"The pot is {total_pot}; run it twice needs at least {spec.run_it_twice_min_pot} (000 Aktionen 8 c).",
        )
    if len(players) > 2 and not floor:
        raise EngineError(
            "run_twice_floor_absent",
            "With more than two players the floor must be present (000 Aktionen 8 e).",
        )
    return list(chosen)


def award_shares(
    spec: HandSpec,
    index: int,
    pot: Pot,
    boards: int,
    winners: list[int],
    mucked: Sequence[bool],
    seats2: Sequence[int] | None,
) -> list[tuple[int, int]]:
    """Chips per winner of a dealer ``award`` of pot ``index``.

    Args:
        spec: the hand; pot: the pot awarded; boards: how many boards the
            pot is played on (1 or 2); winners: winning positions on board
            1; mucked: per position, whether the hand was mucked.
        seats2: the ``award`` action's ``winners2``: on two boards the
            winners of board 2 (seat numbers; None: the same as board 1).

    Returns:
        ``[(position, chips), ...]``: a one-board pot split by
        :func:`~poker.hand.pots.split_amount` down to ``spec.split_unit``,
        a two-board pot halved by :func:`split_between_boards`.

    Raises:
        EngineError("bad_award") when a board-2 winner is not a contender.
    """
    unit = spec.split_unit
    if boards == 1:
        return split_amount(pot.amount, winners, unit)
    if seats2 is None:
        second = list(winners)
    else:
        if not seats2:
            raise EngineError("bad_award", "winners2 must be a non-empty list of seat numbers.")
        second = [spec.position_of(s) for s in seats2]
        if len(set(second)) != len(second):
            raise EngineError("bad_award", "A board-2 winner is listed twice.")
        for p in second:
            if p not in pot.eligible or mucked[p]:
                raise EngineError("bad_award", f"Seat {spec.seat_of(p)} is not a contender for pot {index}.")
    return split_between_boards(pot.amount, [winners, second], unit)
