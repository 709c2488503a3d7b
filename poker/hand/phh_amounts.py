"""PHH amounts, player labels and results: decimal amounts as whole chips of a chip unit
(exactly, ``Decimal``; never floats) and the ``winnings`` of online hand
histories (chips collected from the pots) against a replay. Player labels
(``p3``) name table seats (:func:`seat_of_label`). Used by :mod:`.phh`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any

from .errors import EngineError
from .records import AwardPot, Muck, Show
from .state import HandState

__all__ = [
    "showdown_action",
    "awards_from_winnings",
    "chips",
    "collected",
    "collected_after",
    "places",
    "scale_action",
    "values",
    "cbr_amounts",
    "parse_amount",
    "seat_of_label",
]

_PLAYER = re.compile(r"^p([1-9][0-9]*)$")
#: ``"p1"`` -> 0 ...: the labels of real tables without the regular expression
#: (this and the ``isdigit`` path of :func:`parse_amount` halved ``translate_action``).
_LABEL_INDEX = {f"p{k}": k - 1 for k in range(1, 24)}


def seat_of_label(label: str, seats: tuple[int, ...], text: str) -> int:
    """Table seat of a PHH player label (``"p3"`` -> ``seats[2]``) in action ``text``.

    Raises EngineError("bad_action") for a label that names no player of ``seats``."""
    index = _LABEL_INDEX.get(label)
    if index is None:
        match = _PLAYER.match(label)
        index = int(match.group(1)) - 1 if match else -1
    if not 0 <= index < len(seats):
        raise EngineError("bad_action", f"{label!r} is not a player of this hand ({text!r}).")
    return seats[index]


def showdown_action(player: str, cards: str | None, seats: tuple[int, ...], text: str) -> Muck | Show:
    """The engine action of a PHH showdown line, any game: ``pN sm`` (``cards`` None) mucks
    (:class:`~.records.Muck`), ``pN sm -`` shows the cards entered (``Show(S)``), ``pN sm AsKs``
    shows those cards; cards with ``?`` (``Show(S, "Ah??")``: not all recorded) are for each
    game's reader to turn into what it does with them. Raises EngineError("bad_action") for an
    unknown player."""
    seat = seat_of_label(player, seats, text)
    if cards is None:
        return Muck(seat)
    if cards == "-":
        return Show(seat)
    return Show(seat, cards)


def chips(value: Any, name: str, unit: Decimal = Decimal(1)) -> int:
    """``value`` (int or Decimal, in the file's units) in whole chips of
    ``unit``. Raises EngineError("bad_spec") for anything else (a bool, a
    float, an amount that is not a multiple of the unit)."""
    if type(value) is int and unit == 1:
        return value  # the common case, without Decimal arithmetic
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise EngineError("bad_spec", f"{name}: {value!r} is not an amount of chips.")
    if isinstance(value, Decimal) and not value.is_finite():
        raise EngineError("bad_spec", f"{name}: {value!r} is not an amount of chips.")
    chips = Decimal(value) / unit
    if chips != chips.to_integral_value():
        raise EngineError("bad_spec", f"{name}: {value} is not a whole number of chips of {unit}.")
    return int(chips)


def parse_amount(text: str, name: str) -> int | Decimal:
    """A PHH amount written in an action (``600``, ``0.50``, ``9,999.99``), exactly."""
    if text.isascii() and text.isdigit():
        return int(text)  # whole chips, nearly every amount: no Decimal
    try:
        value = Decimal(text.replace(",", ""))
    except InvalidOperation:
        raise EngineError("bad_action", f"{text!r} is not an amount ({name}).") from None
    return int(value) if value == value.to_integral_value() and "." not in text else value


def places(value: Any) -> int:
    """Decimal places of ``value`` as written (``40.60``: 2; 0 for ints)."""
    if type(value) is int:
        return 0
    if isinstance(value, Decimal) and value.is_finite():
        exponent = value.as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else 0
    return 0


def cbr_amounts(actions: Iterable[str]) -> list[int | Decimal]:
    amounts: list[int | Decimal] = []
    for text in actions:
        if "cbr" not in text:
            continue
        words = text.partition("#")[0].split()
        if len(words) == 3 and words[1] == "cbr":
            amounts.append(parse_amount(words[2], text))
    return amounts


def scale_action(text: str, unit: Decimal) -> str:
    """``"p3 cbr 0.50"`` -> ``"p3 cbr 50"`` with unit 0.01 (other actions unchanged)."""
    body, hash_, comment = text.partition("#")
    words = body.split()
    if len(words) == 3 and words[1] == "cbr":
        whole = chips(parse_amount(words[2], text), f"cbr in {text!r}", unit)
        return f"{words[0]} cbr {whole}" + (f" #{comment}" if hash_ else "")
    return text


def values(raw: Any, n: int, name: str, unit: Decimal = Decimal(1)) -> tuple[int, ...]:
    if isinstance(raw, (int, Decimal)) and not isinstance(raw, bool):
        return (chips(raw, name, unit),) * n
    return tuple(chips(v, name, unit) for v in raw)


def collected(state: HandState, before: HandState | None = None) -> tuple[int, ...]:
    """Chips each position collected from the pots, as online hand
    histories (and PHH ``winnings`` converted from them) count them.

    Our awards summed, except when the last fold ends the hand: the engine
    then hands the winner his whole last bet back, where an online history
    returns only the part nobody matched and counts the matched part as
    collected (blinds 0.25/0.50, raise to 1.25, all fold: "Uncalled bet
    (0.75) returned", "collected (1.25)"); ``before`` is the state before
    that last action and gives the matched part, the second largest bet.
    """
    if before is None:
        return collected_after(state, None, ())
    return collected_after(state, before.phase, before.bets)


def collected_after(state: HandState, phase_before: str | None, bets_before: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`collected` from what it reads of the state before the last action that changed the
    hand: its ``phase`` (None: no such state) and ``bets`` (chips per position), for a driver
    that keeps no earlier state (the in-place PHH replay)."""
    won = [0] * len(state.spec.seats)
    for award in state.awards:
        won[award.position] += award.amount
    if phase_before == "betting" and state.folded.count(False) == 1 and state.awards:
        won[state.awards[0].position] += sorted(bets_before)[-2]
    return tuple(won)


def all_in_words(state: HandState, position: int) -> str:
    """The PHH words of an all-in by the player at ``position`` (0-based, the spec's order) in ``state``
    (before it): ``"cc"`` when his whole stack does not reach the bet to call, else ``"cbr <total>"`` (the
    chips he then has in front of him), for the flop games and stud alike."""
    total = state.stacks[position] + state.bets[position]
    return "cc" if total <= max(state.bets) else f"cbr {total}"


def apply_awards_from_winnings(state: HandState, winnings: tuple[int, ...]) -> tuple[HandState, list[str]]:
    """Award the pots left open at a showdown whose hole cards were never recorded as the recorded
    ``winnings`` (chips per position) say (:func:`awards_from_winnings`), for the flop games and stud
    alike.  Returns ``(state after the awards, one "unchecked" note per pot awarded so)``; outside the
    showdown ``(state, [])``.  Errors: the engine's ``EngineError`` when an award is refused."""
    notes: list[str] = []
    for award in awards_from_winnings(state, winnings):
        state = state.apply(award)
        notes.append(f"who won pot {award.pot}: hole cards unknown, awarded as the recorded winnings say")
    return state, notes


def awards_from_winnings(state: HandState, winnings: tuple[int, ...]) -> list[AwardPot]:
    """Award actions (:class:`~.records.AwardPot`) for the pots the engine could not award (hole cards
    unknown) from the recorded ``winnings`` (chips per position).

    Pots go from the last side pot to the main pot, each to its eligible
    players who still have recorded winnings left (split among several);
    the caller compares the result with ``winnings``, so a record this does
    not fit shows as a mismatch. Returns ``[]`` outside the showdown.
    """
    if state.phase != "showdown":
        return []
    left = list(winnings)
    for award in state.awards:
        left[award.position] -= award.amount
    done = {a.pot_index for a in state.awards}
    actions = []
    for index in reversed(range(len(state.pots))):
        if index in done:
            continue
        pot = state.pots[index]
        winners = [p for p in pot.eligible if left[p] > 0]
        if not winners:
            continue
        for p in winners:
            left[p] -= pot.amount // len(winners)
        actions.append(AwardPot(index, tuple(state.spec.seat_of(p) for p in winners)))
    return actions
