"""The PHH replay's inner loop: a record's action lines applied to one in-place hand state.

:class:`PhhLines` is an :class:`~.inplace.InPlaceState` that reads PHH lines itself (issue 27,
replay speed): the common lines (``pN f``, ``pN cc``, ``pN cbr 600``, ``d dh pN cards``, ``d db
cards``, ``pN sm cards``) become the same action records :func:`.phh_replay.translate_action`
makes (:mod:`.records`; a player's fold, check and call made once per seating, in ``labels``), every
other line goes to that function, and each action goes straight to the engine's handler (no state
copy, no call per line beyond the handler). The driver is :func:`.phh_replay.replay_in_place`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from .cards import UNKNOWN, parse_cards
from .errors import EngineError
from .inplace import InPlaceState
from .records import (
    ActionRecord,
    ActionType,
    Bet,
    Board,
    Call,
    Check,
    Fold,
    Hole,
    Raise,
    SeatAction,
    SeatCards,
    Show,
    Wager,
)
from .state import HandState

__all__ = ["PhhLines", "Label", "label_of"]

#: What a PHH player label names: ``(table seat, position, Fold(seat), Check(seat), Call(seat))``.
Label = tuple[int, int, Fold, Check, Call]


def label_of(seat: int, position: int) -> Label:
    """The :data:`Label` of the player at table ``seat`` and ``position`` (his fold, check and call
    made once: the same records for every line of every hand seated alike)."""
    return seat, position, Fold(seat), Check(seat), Call(seat)


#: The action types of the common lines, in the order :meth:`PhhLines.run` takes their handlers.
_LINE_TYPES = (
    ActionType.HOLE,
    ActionType.FOLD,
    ActionType.CHECK,
    ActionType.CALL,
    ActionType.RAISE,
    ActionType.BOARD,
    ActionType.SHOW,
)

# The loop builds its records without their __init__ (a frozen dataclass's sets each field through
# object.__setattr__, then checks the types): the values it has are of the right types already
# (an int seat, a digit string's int, card strings). Equal to the records the classes build.
_new = object.__new__
_set_seat = vars(SeatAction)["seat"].__set__
_set_to = vars(Wager)["to"].__set__
_set_cards = vars(SeatCards)["cards"].__set__
_set_board = vars(Board)["cards"].__set__
_set_board_number = vars(Board)["board"].__set__


class PhhLines(InPlaceState):
    """An in-place hand state that applies PHH action lines (:meth:`run`)."""

    __slots__ = ()

    #: The handlers of the common lines' action types (:data:`_LINE_TYPES`), taken once.
    _line_handlers: ClassVar[tuple[Callable[..., object], ...]]

    def run(
        self,
        lines: Sequence[str],
        labels: dict[str, Label],
        translate: Callable[[HandState, str], ActionRecord | None],
    ) -> None:
        """Apply PHH action ``lines`` in order, changing this state.

        Args:
            lines: the record's action strings (``"p3 cbr 600"``, ``"d dh p1 AsKs"`` ...).
            labels: player label -> its :data:`Label` (``"p1"`` -> ``(seat, 0, ...)``).
            translate: for every other line, the action record of ``(state, line)`` or None for
                a line that is no action (a comment); :func:`.phh_replay.translate_action`.

        Raises:
            EngineError (a refused line: this state is then half changed, drop it), or what
            ``translate`` raises.
        """
        handlers = self._HANDLERS
        deal_hole, fold, check, call, bet_or_raise, deal_board, show = self._line_handlers
        log = self._log.append
        dealt = self._opening_holes(lines, labels)
        # (phase, bets) before the last action that found the hand running: kept in locals,
        # stored when the loop ends, a refused line's included
        phase_before, bets_before = self._phase_before, self._bets_before
        try:
            for text in lines[dealt:] if dealt else lines:
                words = text.split()
                action: ActionRecord | None = None
                if len(words) > 1 and "#" not in text:
                    verb = words[1]
                    # (the verbs by how often they come after the opening deal)
                    if verb == "f":
                        if len(words) == 2 and (who := labels.get(words[0])):
                            action, handler = who[2], fold
                    elif verb == "cc":
                        if len(words) == 2 and (who := labels.get(words[0])):
                            bets = self._bets
                            if self._phase == "betting" and bets[who[1]] < max(bets):
                                action, handler = who[4], call
                            else:
                                action, handler = who[3], check
                    elif verb == "cbr":
                        if len(words) == 3 and (who := labels.get(words[0])):
                            amount = words[2]
                            if amount.isascii() and amount.isdigit():
                                raised = self._phase == "betting" and max(self._bets) > 0
                                action = _new(Raise if raised else Bet)
                                _set_seat(action, who[0])
                                _set_to(action, int(amount))
                                handler = bet_or_raise
                    elif verb == "db" and len(words) == 3 and words[0] == "d":
                        cards = words[2]
                        action = _new(Board)
                        _set_board(action, "" if set(cards) <= {"?"} else cards)
                        _set_board_number(action, None)
                        handler = deal_board
                    elif verb == "sm" and len(words) == 3 and (who := labels.get(words[0])):
                        cards = words[2]
                        if cards != "-" and "?" not in cards:  # (those go to translate)
                            action, handler = _new(Show), show
                            _set_seat(action, who[0])
                            _set_cards(action, cards)
                    elif verb == "dh":
                        if len(words) == 4 and words[0] == "d" and (who := labels.get(words[2])):
                            action, handler = _new(Hole), deal_hole
                            _set_seat(action, who[0])
                            _set_cards(action, words[3])
                if action is None:
                    action = translate(self, text)
                    if action is None:
                        continue
                    handler = handlers[action.type]
                phase = self._phase
                if phase != "complete":
                    phase_before, bets_before = phase, self._bets
                handler(self, action)
                log(action)
        finally:
            self._phase_before, self._bets_before = phase_before, bets_before

    def _opening_holes(self, lines: Sequence[str], labels: dict[str, Label]) -> int:
        """Deal the hole cards of the record's opening ``d dh pN cards`` lines at once and log their
        actions; the number of lines taken. Each is dealt as its ``hole`` action would deal it
        (:meth:`.dealing.Dealing._do_hole`) with one running set of the known cards out for the
        duplicate test, while the case is plain: betting under way, the line exactly ``d dh pN
        cards``, the position not dealt before, the hand's number of cards, no known card out
        twice. The first line that is not plain ends it: :meth:`run` applies it and the rest
        one by one (and refuses what is wrong, as ever)."""
        if self._phase != "betting":
            return 0  # (a deal at the showdown settles pots: the handler's way)
        count = self.spec._hole_count
        hole = list(self._hole)
        out = set(self._board)  # every known card out, as Dealing._dealt_elsewhere reads them
        if self._two is not None:
            out.update(self._two.board2)
        for dealt in hole:
            if dealt is not None:
                out.update(dealt)
        out.discard(UNKNOWN)
        actions = []
        for text in lines:
            words = text.split()
            if len(words) != 4 or words[1] != "dh" or words[0] != "d" or "#" in text:
                break
            who = labels.get(words[2])
            if who is None or hole[who[1]] is not None:
                break
            try:
                cards = parse_cards(words[3])
            except EngineError:
                break
            if len(cards) != count:
                break
            if UNKNOWN not in cards:
                if not out.isdisjoint(cards):  # (the cards of one deal are distinct: parse_cards)
                    break
                out.update(cards)
                hole[who[1]] = cards
            else:
                known = set(cards)
                known.discard(UNKNOWN)
                if not out.isdisjoint(known):
                    break
                if known:  # (every card unknown: the position stays without cards, None)
                    out |= known
                    hole[who[1]] = cards
            record = _new(Hole)
            _set_seat(record, who[0])
            _set_cards(record, words[3])
            actions.append(record)
        if not actions:
            return 0
        self._hole = tuple(hole)
        self._log.extend(actions)
        # the state before the last of them: betting, the blinds in front (dealing moves no chip)
        self._phase_before, self._bets_before = self._phase, self._bets
        return len(actions)


PhhLines._line_handlers = tuple(map(PhhLines._HANDLERS.__getitem__, _LINE_TYPES))
