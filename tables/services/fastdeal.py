"""The next deal in one statement, from the table kept in memory.

A hand whose end the fast path wrote (:mod:`tables.services.fastpath`) leaves in memory the table
row and its ``Seat`` rows with the stacks the hand left.  The dealer's "start" at such a table is
decided there -- the next button, the spec, the engine's hand as dealt -- as the locked step
(:func:`tables.services.hands.start_hand`) decides it, with the same functions, and written in ONE
statement on the event loop's connection (:func:`tables.sql.deal_statement`): the hand, its start
event and snapshot, the table's button and seq.  That statement locks the table's row itself and
writes only while

* the table's seq is the one remembered and the hand over is still its current hand, and it is open,
  with the stakes, straddle, house rules and button the deal read from memory;
* the dealer's right holds (``tables.access.deal_right_sql``);
* no app's deal hook has anything to do there (``tables.probes.none_sql`` over the probes of
  ``before_deal``, ``spec_provider``, ``spec_adjuster`` and ``dead_hands``: no room game, no
  tournament, no penalty);
* the seats are exactly those in memory (player, stack, sitting out, absent, the players' names):
  a seat changed by any step, in any process, makes it write nothing.

Anything else -- a dealer's format or a replayed spec, a misdeal dealt again, an absent player's dead
hand, fewer than two players, a hook with work, a guard that failed -- goes to the locked step
unchanged (None, nothing written), which answers it as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from poker.hand import AnyState, EngineError
from poker.hand import start_hand as start_engine_hand
from tables import hooks, probes, sql
from tables.models import Hand, Seat, Table
from tables.services import fastpath
from tables.services.hands import dead_hands, next_spec, start_record
from tables.services.replay import empty_info, remember_state, spec_to_dict
from tables.services.snapshots import hand_view, seat_cache, seat_dict, snapshot_parts
from tables.services.steps import Outcome, actor_id, event_json, update_messages
from tables.writepath import ServiceError, lock_timeout_interval

#: The hooks a deal runs (``tables.hooks``): a deal in memory only where none of them has work.
DEAL_HOOKS = ("before_deal", "spec_provider", "spec_adjuster", "dead_hands")


@dataclass
class PreparedDeal:
    """A deal decided in memory by :func:`prepare_deal`, not yet written: ``statement`` writes it
    (``tables.sql.deal_statement``), ``values`` are the hand's columns; :func:`finish_deal` once it
    wrote."""

    live: fastpath.Kept  # the memory's entry taken (``fastpath.take``)
    seats: list[Seat]  # its ``Seat`` rows, as the hand over left them
    button: int
    state: AnyState
    payload: dict[str, Any]
    actor: Any
    seq: int
    statement: tuple[str, list[Any]]
    values: dict[str, Any]
    state_json: str  # the snapshot's JSON text, as the statement writes it (for the update too)


def prepare_deal(
    table_id: int,
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
    right: tuple[str, list[Any]] | None = None,
    lock_timeout: str | None = None,
) -> PreparedDeal | None:
    """Decide the next hand of ``table_id`` in memory: the :class:`PreparedDeal` whose one statement
    deals it, or None (nothing changed) when this way does not take it.  ``right``: the dealer's
    right as a condition on the table's row (``tables.access.deal_right_sql``), None when the caller
    checked it; ``lock_timeout``: how long the statement may wait for the table's row, by default the
    write path's.  While prepared, the table is taken from the memory (:func:`finish_deal` puts it
    back; a failed write leaves it to the locked step).  No database access: safe on the event loop."""
    live = fastpath.take(table_id)
    if live is None:
        return None
    prepared = _decide(live, actor, expected_seq, client_id, right, lock_timeout)
    if prepared is None:
        fastpath.give_back(live)
    return prepared


def _decide(live, actor, expected_seq, client_id, right, lock_timeout) -> PreparedDeal | None:
    table, over, seats = live.table, live.hand, live.seats
    if (
        seats is None
        or over.status != Hand.Status.COMPLETE
        or table.status != Table.Status.OPEN
        or (expected_seq is not None and expected_seq != table.seq)
    ):
        return None
    fns = [fn for name in DEAL_HOOKS for fn in hooks.registered(name)]
    quiet = probes.none_sql(fns, Table._meta.db_table)
    if quiet is None or any(probes.needed(table, fn) for fn in fns):
        return None  # a hook runs (or may, by what the last lock read): the locked step
    try:
        hand_spec, button, format_record, _as_read = next_spec(table, seats, None)
        state = start_engine_hand(hand_spec)
    except (ServiceError, EngineError):
        return None  # the locked step refuses it with the same error
    if state.phase == "complete" or dead_hands(table, seats, state):
        return None  # an absent player's dead hand: more events than one statement writes
    metadata, payload = start_record(hand_spec, seats, button, format_record, None)
    seq = table.seq + 1
    recorded_actor = actor_id(actor)
    snapshot = hand_view(table, state, empty_info())
    right_sql, right_params = right if right is not None else ("", [])
    guard = sql.DealGuard(
        table.seq,
        over.id,
        lock_timeout or lock_timeout_interval() or "0",
        (f"({right_sql}) AND {quiet}" if right_sql else quiet, right_params),
        [[s.number, s.player_id or 0, s.stack, int(s.sitting_out), int(s.absent)] for s in seats],
        [s.player.name for s in seats if s.player is not None],
    )
    start = sql.StartEvent(seq, snapshot, payload, recorded_actor, client_id)
    statement, values, state_json = sql.deal_statement(
        table, over.number + 1, spec_to_dict(hand_spec), metadata, button, start, guard
    )
    return PreparedDeal(
        live, seats, button, state, payload, actor if recorded_actor else None, seq, statement, values, state_json
    )


def finish_deal(prepared: PreparedDeal, row: tuple | None) -> tuple[Outcome, list[tuple[str, dict[str, Any]]]] | None:
    """Once the statement of ``prepared`` ran (``row``: its one row, None when it wrote nothing): the
    new hand remembered with the table at its new seq, and ``(outcome, messages)``, the channel
    messages of the update (``tables.services.steps.update_messages``) for the caller to send; None
    when nothing was written (the table stays out of the memory: the locked step deals it)."""
    dealt = sql.deal_row(row)
    if dealt is None:
        return None
    hand_id, at = dealt
    p = prepared
    table, seats = p.live.table, p.seats
    hand = sql.dealt_hand(table, p.values, hand_id, p.button)
    table.seq = p.seq
    seat_cache[table.id] = (hand.id, [seat_dict(s) for s in seats])
    remember_state(hand.id, 0, p.state, empty_info())
    event = event_json(p.seq, 0, "start", p.payload, at, p.actor)
    parts = snapshot_parts(table, seat_cache[table.id][1])
    messages = update_messages(table, hand, event, state_json=p.state_json, parts=parts)
    fastpath.remember(table, hand, parts, seats)
    return Outcome(table.id, p.seq, update_text=messages[0][1]["text"]), messages
