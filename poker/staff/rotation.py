"""The dealer push (issue 28): every N minutes the dealers move one table on, the dealer longest on a break
comes in at the first table and the dealer at the last table goes on a break.

The chain ``break -> table 1 -> table 2 -> ... -> table n -> break`` gives every dealer the same share of
work and of breaks: with ``d`` dealers on ``n`` tables each dealer deals ``n`` downs, then rests ``d - n``
pushes.  A table without a dealer is filled first from the break (longest rest first).  001 6.24 asks for the
decks to be swapped or recounted at every dealer change: each :class:`Move` onto a table is such a change.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

Dealer = Hashable
TableKey = Hashable


@dataclass(frozen=True)
class Move:
    """One dealer's step of a push: from ``source`` (a table key, or None from the break) to ``target`` (a
    table key, or None onto the break)."""

    dealer: Dealer
    source: TableKey | None
    target: TableKey | None


def plan_push(
    tables: Sequence[TableKey],
    at_table: Mapping[TableKey, Dealer | None],
    resting: Mapping[Dealer, datetime],
) -> list[Move]:
    """The moves of the next push.

    Args:
        tables: the open tables in push order (the chain runs through them in this order).
        at_table: who deals each table now (None or missing: nobody).
        resting: the dealers on shift on a break, with the time their break began (earliest rests longest).

    Returns:
        The moves, table by table in push order, then the dealer going on a break (``target`` None).  Empty
        tables are filled from the break first; then, if a dealer is still resting, the chain moves one step:
        the longest-resting dealer to the first table, each table's dealer to the next table, the last
        table's dealer to the break.  No dealer resting and no table empty: no moves (nobody to relieve).
    """
    queue = sorted(resting, key=lambda d: (resting[d], str(d)))
    moves: list[Move] = []
    empty = [t for t in tables if at_table.get(t) is None]
    for table in empty:
        if not queue:
            break
        moves.append(Move(queue.pop(0), None, table))
    if moves or not queue:
        return moves
    staffed = [t for t in tables if at_table.get(t) is not None]
    if not staffed:
        return moves
    incoming = queue.pop(0)
    moves.append(Move(incoming, None, staffed[0]))
    for here, there in zip(staffed, staffed[1:]):
        moves.append(Move(at_table[here], here, there))
    moves.append(Move(at_table[staffed[-1]], staffed[-1], None))
    return moves


def after_push(at_table: Mapping[TableKey, Dealer | None], moves: Sequence[Move]) -> dict[TableKey, Dealer | None]:
    """Who deals each table once ``moves`` are done (a table nobody moves onto keeps its dealer, a table left
    with nobody coming is None)."""
    result = dict(at_table)
    for move in moves:
        if move.source is not None and result.get(move.source) == move.dealer:
            result[move.source] = None
    for move in moves:
        if move.target is not None:
            result[move.target] = move.dealer
    return result
