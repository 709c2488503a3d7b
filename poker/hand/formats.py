"""Special formats of a hand: straddles, double board, run it twice, chip units.

Standard library only. The hand state machine (:mod:`.state`) calls the
board and award functions here when a hand has two boards; bomb pots and
flips are plain :class:`~poker.hand.spec.HandSpec` fields handled when the
hand starts (000 Allgemein 14).

Sources (rulebook 000, the casino cash-game rules):

- 000 Aktionen 1 "Straddle": live straddle(s) after the big blind, each
  double the previous blind; button straddle (action starts left of the
  button); Mississippi straddle (any position, action starts left of it);
  "Das Live Straddle hat immer Vorrang gegenüber anderen Straddle Varianten".
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

from typing import TYPE_CHECKING, NamedTuple, Sequence

from .cards import UNKNOWN, parse_cards
from .errors import EngineError
from .pots import split_amount

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Rules
    from .spec import HandSpec
    from .state import HandState

__all__ = [
    "Straddle", "StraddlePlan", "STRADDLE_KINDS", "plan_straddles", "verify_straddles", "can_straddles",
    "round_to_unit", "limit_message", "split_between_boards", "board_due", "deal_board", "run_it_twice", "award_shares",
]

#: Straddle kinds of 000 Aktionen 1.
STRADDLE_KINDS = ("live", "button", "mississippi")
#: Board length after each street (preflop, flop, turn, river).
_BOARD_LENGTH = (0, 3, 4, 5)
_NEXT_STREET = {0: 1, 3: 2, 4: 3}


# =================================================================== straddles
class Straddle(NamedTuple):
    """A player's request to straddle (000 Aktionen 1).

    Fields:
        kind: ``"live"`` (under the gun, and re-straddles by the next
            players, each double the previous), ``"button"`` (the button;
            action starts left of the button) or ``"mississippi"`` (any
            position after under the gun; action starts left of it).
        seat: table seat number of the straddler.
        amount: chips; default double the big blind (live re-straddles:
            double the previous straddle). Another amount is refused.
    """

    kind: str
    seat: int
    amount: int | None = None


class StraddlePlan(NamedTuple):
    """Result of :func:`plan_straddles`.

    Fields:
        amounts: ``{position: chips}`` to put into ``blinds_or_straddles``.
        applied: ``((kind, seat, amount), ...)`` in position order.
        dropped: ``((Straddle, reason), ...)`` requests set aside because a
            live straddle takes precedence (000 Aktionen 1).
    """

    amounts: dict
    applied: tuple
    dropped: tuple


def plan_straddles(
    seats: Sequence[int], big_blind: int, requests: Sequence, rules: "Rules",
) -> StraddlePlan:
    """Decide which straddles are posted.

    Args:
        seats: table seat numbers in POSITION order (small blind first,
            button last), as in ``HandSpec.seats``.
        big_blind: the big blind (chips).
        requests: :class:`Straddle` (or ``(kind, seat[, amount])``) items.
        rules: the house rules (``Rules.max_straddles``).

    Returns:
        :class:`StraddlePlan`. A live straddle takes precedence: when any
        live straddle is requested, button and Mississippi requests are
        dropped (000 Aktionen 1).

    Raises:
        EngineError("bad_straddle") for fewer than three players, an
        unknown kind or seat, a seat straddling twice, live straddles that
        do not start under the gun and follow each other clockwise, a
        button straddle not on the button (or with three players, where the
        button is under the gun: that is a live straddle), a Mississippi
        straddle in the blinds or under the gun, two button/Mississippi
        straddles, an amount that is not double the previous blind, or more
        straddles than ``rules.max_straddles``.
    """
    n = len(seats)
    parsed = [r if isinstance(r, Straddle) else Straddle(*r) for r in requests]
    if not parsed:
        return StraddlePlan({}, (), ())
    if n < 3:
        raise EngineError("bad_straddle", "A straddle needs at least three players (000 Aktionen 1).")
    position = {seat: i for i, seat in enumerate(seats)}
    seen = set()
    for r in parsed:
        if r.kind not in STRADDLE_KINDS:
            raise EngineError("bad_straddle", f"Straddle kind must be one of {', '.join(STRADDLE_KINDS)}, not {r.kind!r}.")
        if r.seat not in position:
            raise EngineError("bad_straddle", f"No player dealt in at seat {r.seat!r}.")
        if r.seat in seen:
            raise EngineError("bad_straddle", f"Seat {r.seat} can straddle only once.")
        seen.add(r.seat)
    live = sorted((r for r in parsed if r.kind == "live"), key=lambda r: position[r.seat])
    others = [r for r in parsed if r.kind != "live"]
    dropped: tuple = ()
    if live and others:
        dropped = tuple((r, "A live straddle takes precedence (000 Aktionen 1).") for r in others)
        others = []
    amounts: dict[int, int] = {}
    applied = []
    previous = big_blind
    for k, r in enumerate(live):
        if position[r.seat] != 2 + k:
            raise EngineError(
                "bad_straddle",
                f"Seat {r.seat}: live straddles start under the gun (seat {seats[2]}) and go clockwise "
                "(000 Aktionen 1).",
            )
        amount = 2 * previous if r.amount is None else r.amount
        if amount != 2 * previous:
            raise EngineError("bad_straddle", f"Seat {r.seat}: the straddle is double the previous blind, {2 * previous}.")
        amounts[position[r.seat]] = amount
        applied.append(("live", r.seat, amount))
        previous = amount
    if len(others) > 1:
        raise EngineError("bad_straddle", "Only one button or Mississippi straddle per hand.")
    for r in others:
        pos = position[r.seat]
        if r.kind == "button" and (pos != n - 1 or n < 4):
            raise EngineError(
                "bad_straddle",
                f"Seat {r.seat}: a button straddle is posted by the button, with at least four players "
                "(three-handed the button is under the gun: a live straddle).",
            )
        if r.kind == "mississippi" and pos < 3:
            raise EngineError(
                "bad_straddle",
                f"Seat {r.seat}: a Mississippi straddle is posted after under the gun "
                "(under the gun it is a live straddle; the blinds cannot straddle).",
            )
        amount = 2 * big_blind if r.amount is None else r.amount
        if amount != 2 * big_blind:
            raise EngineError("bad_straddle", f"Seat {r.seat}: the straddle is double the big blind, {2 * big_blind}.")
        amounts[pos] = amount
        applied.append((r.kind, r.seat, amount))
    if rules.max_straddles is not None and len(applied) > rules.max_straddles:
        raise EngineError("bad_straddle", f"At most {rules.max_straddles} straddle(s) allowed by the house rules.")
    applied.sort(key=lambda a: position[a[1]])
    return StraddlePlan(amounts, tuple(applied), dropped)


def verify_straddles(seats: Sequence[int], big_blind: int, requests: Sequence, rules: "Rules") -> None:
    """Raise EngineError("bad_straddle") unless :func:`plan_straddles` accepts
    ``requests``; dropped requests (live precedence) are not an error."""
    plan_straddles(seats, big_blind, requests, rules)


def can_straddles(seats: Sequence[int], big_blind: int, requests: Sequence, rules: "Rules") -> bool:
    """Whether :func:`plan_straddles` accepts ``requests``."""
    try:
        plan_straddles(seats, big_blind, requests, rules)
    except EngineError:
        return False
    return True


# ============================================================ betting limits
def limit_message(spec: "HandSpec", low: int, high: int) -> str:
    """English explanation of an ``above_limit`` refusal."""
    if spec.structure == "fixed_limit":
        return (
            f"Split limit: the bet or raise is to exactly {high} "
            "(small bet preflop and flop, big bet turn and river; 000 Einsätze 2, Aktionen 3)."
        )
    return f"Pot limit: the largest bet or raise is to {high}, the pot after the call (004 #54)."


# ================================================================ chip units
def round_to_unit(spec: "HandSpec", to: int) -> tuple[int, int]:
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
    unit = spec.bet_unit
    excess = to % unit
    return to - excess, excess


# ================================================================ two boards
def split_between_boards(amount: int, winners_by_board: Sequence[Sequence[int]], unit: int = 1) -> list[tuple[int, int]]:
    """Halve a pot between two boards or two run-outs.

    Args:
        amount: chips in the pot.
        winners_by_board: winning positions on board 1 and on board 2.
        unit: split unit (``HandSpec.split_unit``).

    Returns:
        ``[(position, chips), ...]`` in position order, one entry per
        player. Each board gets half of the pot, divided down to ``unit``
        and split among its winners by :func:`~poker.hand.pots.split_amount`;
        the odd unit (and chips below a unit) goes to the winner in the
        worse position, the first clockwise from the button (000 Aktionen 8
        f; 000 Allgemein 8 for the double board).
    """
    units, rest = divmod(amount, unit)
    half, odd = divmod(units, 2)
    totals: dict[int, int] = {}
    for winners in winners_by_board:
        for position, chips in split_amount(half * unit, winners, unit):
            totals[position] = totals.get(position, 0) + chips
    first = min(p for winners in winners_by_board for p in winners)
    totals[first] = totals.get(first, 0) + odd * unit + rest
    return sorted(totals.items())


def board_due(state: "HandState") -> tuple[int, int, int] | None:
    """Which board card deal is next in a two-board hand.

    Returns:
        ``(board, street, count)``: board 1 or 2, the street index (1 flop,
        2 turn, 3 river) and the number of cards; None when no board is due
        or the hand has one board. A double board deals each street on
        board 1 then board 2, with betting after both; a hand run twice
        deals board 1 to the river, then board 2 (it starts with the cards
        that were out when the players agreed).
    """
    if state._phase != "board" or state._board2 is None:
        return None
    b1, b2 = state._board, state._board2
    if state._rit is None:
        street = state._street + 1
        if len(b1) < _BOARD_LENGTH[street]:
            return 1, street, _BOARD_LENGTH[street] - len(b1)
        return 2, street, _BOARD_LENGTH[street] - len(b2)
    if len(b1) < 5:
        street = _NEXT_STREET[len(b1)]
        return 1, street, _BOARD_LENGTH[street] - len(b1)
    street = _NEXT_STREET[len(b2)]
    return 2, street, _BOARD_LENGTH[street] - len(b2)


def deal_board(state: "HandState", action: dict) -> "HandState":
    """The ``board`` action of a two-board hand (called by ``HandState``).

    ``action["board"]`` (1 or 2) is optional; when given it must name the
    board that is due. Raises EngineError("hand_over" / "wrong_phase" /
    "bad_cards" / "duplicate_card").
    """
    if state._phase == "complete":
        raise EngineError("hand_over", "The hand is over.")
    due = board_due(state)
    if due is None:
        raise EngineError("wrong_phase", f"No board cards are due (phase {state._phase}).")
    board, street, count = due
    wanted = action.get("board")
    if wanted is not None and wanted != board:
        raise EngineError("wrong_phase", f"Board {board} is due, not board {wanted!r}.")
    cards = parse_cards(action.get("cards") or "")
    if not cards:
        cards = (UNKNOWN,) * count
    if len(cards) != count:
        raise EngineError("bad_cards", f"Board {board} needs {count} card(s) now, got {len(cards)}.")
    clash = state._known_elsewhere().intersection(cards)
    if clash:
        raise EngineError("duplicate_card", f"{', '.join(sorted(clash))} already dealt.")
    new = state._copy()
    if board == 1:
        new._board = state._board + cards
    else:
        new._board2 = state._board2 + cards
    if state._rit is None:
        if board == 2:
            new._street = street
            new._begin_round(0, 0)
    elif board == 2 and len(new._board2) == 5:
        new._street = 3
        new._enter_showdown()
    return new


def run_it_twice(state: "HandState", action: dict) -> "HandState":
    """The ``run_it_twice`` action (000 Aktionen 8).

    Args:
        action: ``{"type": "run_it_twice", "agreed": [seat, ...],
            "pots": [index, ...], "floor": bool}``; ``pots`` defaults to
            every pot (0 = main pot); ``agreed`` lists the seats that
            declared it; ``floor`` says the floor is present.

    Returns:
        The new state: the rest of the board is dealt twice (board 1 to the
        river, then board 2); each chosen pot is halved between the two
        run-outs at the showdown, the others go by board 1 only.

    Raises:
        EngineError: ``run_twice_not_offered`` (the spec has no
        ``run_it_twice_min_pot``, or a double board), ``wrong_phase``
        (already agreed, or the board is complete),
        ``run_twice_action_possible`` (a: a player can still act),
        ``bad_action`` (bad pot indexes), ``run_twice_not_agreed`` (b:
        every player in the chosen pots must agree), ``run_twice_pot_too_small``
        (c: the pot is below ``run_it_twice_min_pot``),
        ``run_twice_floor_absent`` (e: more than two players and no floor).
    """
    spec = state.spec
    if state._phase == "complete":
        raise EngineError("hand_over", "The hand is over.")
    if spec.run_it_twice_min_pot is None:
        raise EngineError("run_twice_not_offered", "Run it twice is not offered at this table.")
    if spec.boards != 1:
        raise EngineError("run_twice_not_offered", "A double-board hand is not run twice.")
    if state._rit is not None:
        raise EngineError("wrong_phase", "The players already agreed to run it twice.")
    if state._phase == "showdown":
        raise EngineError("wrong_phase", "The board is complete; nothing is left to run twice.")
    if not (state._phase == "board" and (state._runout or spec.flip)):
        raise EngineError(
            "run_twice_action_possible",
            "Run it twice only when no more action is possible (000 Aktionen 8 a).",
        )
    pots = state.pots
    chosen = action.get("pots")
    if chosen is None:
        chosen = list(range(len(pots)))
    if (
        isinstance(chosen, (str, int)) or not chosen
        or any(not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(pots) for i in chosen)
        or len(set(chosen)) != len(chosen)
    ):
        raise EngineError("bad_action", f"pots must list pot indexes 0..{len(pots) - 1} once each, got {chosen!r}.")
    agreed_seats = action.get("agreed") or []
    if isinstance(agreed_seats, (str, int)):
        raise EngineError("bad_action", "agreed must be a list of seat numbers.")
    agreed = {spec.position_of(s) for s in agreed_seats}
    players = sorted({p for i in chosen for p in pots[i].eligible})
    missing = [spec.seat_of(p) for p in players if p not in agreed]
    if missing:
        raise EngineError(
            "run_twice_not_agreed",
            f"Seat(s) {', '.join(map(str, missing))} did not agree to run it twice (000 Aktionen 8 b).",
        )
    if state.total_pot < spec.run_it_twice_min_pot:
        raise EngineError(
            "run_twice_pot_too_small",
            f"The pot is {state.total_pot}; run it twice needs at least {spec.run_it_twice_min_pot} "
            "(000 Aktionen 8 c).",
        )
    if len(players) > 2 and not action.get("floor"):
        raise EngineError(
            "run_twice_floor_absent",
            "With more than two players the floor must be present (000 Aktionen 8 e).",
        )
    new = state._copy()
    new._rit = frozenset(chosen)
    new._board2 = state._board
    return new


def award_shares(state: "HandState", index: int, winners: list[int], action: dict) -> list[tuple[int, int]]:
    """Chips per winner of a dealer ``award`` of pot ``index``.

    A one-board pot is split by :func:`~poker.hand.pots.split_amount`
    down to ``spec.split_unit``. A pot on two boards (double board, or run
    twice) needs the winners of board 2 as ``action["winners2"]`` (seat
    numbers; default: the same as board 1) and is halved by
    :func:`split_between_boards`.

    Raises:
        EngineError("bad_award") when a board-2 winner is not a contender.
    """
    pot = state._pots_final[index]
    unit = state.spec.split_unit
    if len(state.boards_of_pot(index)) == 1:
        return split_amount(pot.amount, winners, unit)
    seats2 = action.get("winners2")
    if seats2 is None:
        second = list(winners)
    else:
        if isinstance(seats2, (int, str)) or not seats2:
            raise EngineError("bad_award", "winners2 must be a non-empty list of seat numbers.")
        second = [state.spec.position_of(s) for s in seats2]
        if len(set(second)) != len(second):
            raise EngineError("bad_award", "A board-2 winner is listed twice.")
        for p in second:
            if p not in pot.eligible or state._mucked[p]:
                raise EngineError("bad_award", f"Seat {state.spec.seat_of(p)} is not a contender for pot {index}.")
    return split_between_boards(pot.amount, [winners, second], unit)
