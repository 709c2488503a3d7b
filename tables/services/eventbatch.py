"""Group commit of the dealers' betting actions on the event loop.

A betting action the fast path decided in memory (:func:`tables.services.fastpath.prepare`) is written
in one statement on a connection of the event loop (:mod:`pokerfloor.runtime.loopdb`).  While fewer
statements are in flight than the loop has connections, each action goes out at once, alone, in that
statement.  When every connection is busy (a busy Friday night: hundreds of tables, a burst after a
break), the actions that arrive meanwhile are not handed to the service threads (a thread hop each,
ten context switches of the server process, the GIL passed back and forth) but wait for the next free
connection and go out together: ONE statement and ONE commit for all of them
(:func:`tables.sql.event_batch_statement`).

Each action of a batch is written only while its table is as remembered and its dealer's right holds,
exactly as alone; a table whose row another step holds is skipped (``SKIP LOCKED``), not waited for.
Whatever a batch does not write (a guard that failed, a skipped row, or the whole batch when it failed:
a repeated ``client_id``, a lost connection) goes to the normal write path, which answers it as it
answers any action (``tables.services.hands.apply_action``).  The ack still waits for the commit: a
dealer's action is acknowledged only once it is recorded.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import Any

import psycopg

from pokerfloor.runtime import loopdb
from tables import sql
from tables.access import deal_right_columns
from tables.services import fastdeal
from tables.services.fastpath import Prepared, finish, prepare
from tables.services.steps import Outcome
from tables.writepath import Broadcaster

logger = logging.getLogger(__name__)

#: The most actions written in one statement.
MAX_BATCH = 64

#: How long a statement of the loop waits for a row another step holds (a correction, a deal of another
#: process) before it gives the action to the normal path, which waits the write path's whole
#: ``WRITE_LOCK_TIMEOUT_MS`` on a thread: the loop's few connections are shared by every table.
LOOP_LOCK_TIMEOUT = "100ms"

#: What a batch tells each of its actions: the ``Outcome`` once written, None for the normal path.
Result = Outcome | None


class EventBatcher:
    """The group commit of one event loop (use :func:`for_running_loop`).  :meth:`write` writes an action
    at once, alone, in the caller's task while a connection is free and nothing waits (as a single
    statement always was); otherwise it queues it (:meth:`_queue`).  At most as many writer tasks as the
    loop has connections (``LoopConnections.size``) take the queued actions, all of them at a time, in one
    statement; a writer runs in a task of its own, so a dealer's socket closing while its action is
    written cancels neither the write nor the other actions of its batch, and a written action is always
    broadcast (``tables.writepath.Broadcaster``)."""

    def __init__(self, connections: loopdb.LoopConnections) -> None:
        self.connections = connections
        self.pending: list[tuple[Prepared, asyncio.Future[Result]]] = []
        self.writers = 0
        #: ``[batches, actions]`` written together (several in one statement) since the start.
        self.batches = [0, 0]

    async def write(self, prepared: Prepared) -> Result:
        """Write ``prepared``: at once, in the caller's task, when a connection is free and nothing waits;
        else queued for the next batch (:meth:`_queue`).

        An action that ends its hand (``prepared.end``) is never batched: it waits for a connection of
        its own and is written alone, in its own statement (the hand's end and the seats' stacks).

        Raises:
            ValueError: ``prepared`` carries no ``row`` (``fastpath.prepare`` without ``who``)."""
        if prepared.row is None and prepared.end is None:
            raise ValueError("an action for the group commit must carry its row (prepare(..., who=...))")
        if prepared.end is None and (self.pending or not self.connections.free()):
            return await self._queue(prepared)
        at = sql.event_at(await self.write_alone(prepared.statement))
        return None if at is None else _written(prepared, at)

    async def write_alone(self, statement: tuple[str, list[Any]]) -> tuple | None:
        """Run ``statement`` (one statement, its own transaction) alone on a connection of the loop, waiting
        for a free one: its first row, or None (:func:`_first_row`)."""
        held = await self.connections.acquire()
        try:
            return await _first_row(held, statement)
        finally:
            self.connections.release(held)

    def _queue(self, prepared: Prepared) -> asyncio.Future[Result]:
        """Queue ``prepared`` for the next statement; a writer task starts when fewer than ``size`` are
        running."""
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self.pending.append((prepared, future))
        if self.writers < self.connections.size:
            self.writers += 1
            asyncio.ensure_future(self._writer())
        return future

    async def _writer(self) -> None:
        """Write batches until nothing is pending; every action taken gets its result."""
        try:
            while self.pending:
                held = await self.connections.acquire()
                batch, self.pending = self.pending[:MAX_BATCH], self.pending[MAX_BATCH:]
                if not batch:  # another writer took them while this one waited
                    self.connections.release(held)
                    break
                try:
                    results = await self._run(held, batch)
                except BaseException:
                    results = [None] * len(batch)  # cancelled (a shutdown): written or not, the normal path tells
                    raise
                finally:
                    self.connections.release(held)
                    self._settle(batch, results)
        finally:
            self.writers -= 1
            if self.writers == 0 and self.pending:  # the last writer cancelled: the normal path answers the rest
                left, self.pending = self.pending, []
                self._settle(left, [None] * len(left))

    async def _run(self, held: loopdb.Held, batch: list[tuple[Prepared, Any]]) -> list[datetime.datetime | None]:
        """Write ``batch`` on ``held``: per action its event's time, or None (not written: the normal path
        answers it)."""
        cursor = held[1]
        if len(batch) == 1:
            return [sql.event_at(await _first_row(held, batch[0][0].statement))]
        rows = [prepared.row for prepared, _future in batch if prepared.row is not None]  # all (``write``)
        statement = sql.event_batch_statement(rows, LOOP_LOCK_TIMEOUT, _batch_right())
        try:
            await cursor.execute(*statement)
            written: dict[int, int] = dict(await cursor.fetchall())
        except psycopg.Error as exc:
            logger.info("a batch of %d actions was not written (%s): each goes the normal way", len(batch), exc)
            return [None] * len(batch)
        self.batches[0] += 1
        self.batches[1] += len(batch)
        return [sql.event_at((written[row.table_id],)) if row.table_id in written else None for row in rows]

    def _settle(
        self, batch: list[tuple[Prepared, asyncio.Future[Result]]], results: list[datetime.datetime | None]
    ) -> None:
        """Finish and broadcast each written action (in the batch's order), and answer every future."""
        for (prepared, future), at in zip(batch, results, strict=True):
            try:
                outcome = None if at is None else _written(prepared, at)
            except Exception as exc:  # a fault of ours: this action's socket reports it, the others go on
                logger.exception("finishing an action written in a batch")
                if not future.done():
                    future.set_exception(exc)
                continue
            if not future.done():
                future.set_result(outcome)


async def _first_row(held: loopdb.Held, statement: tuple[str, list[Any]]) -> tuple | None:
    """Run ``statement`` on ``held``: its first row, or None when it returned none or failed (a row held past
    its lock timeout, a repeated client_id, a lost connection: nothing written, the normal path answers)."""
    try:
        await held[1].execute(*statement)
        return await held[1].fetchone()
    except psycopg.Error as exc:
        logger.info("a statement of the loop was not written (%s): the normal path answers", exc)
        return None


def _written(prepared: Prepared, at: datetime.datetime) -> Outcome:
    """An action written at ``at``: remembered at its new seq (``fastpath.finish``) and its update queued on
    the loop's ``Broadcaster`` behind whatever the service threads committed before."""
    outcome, messages = finish(prepared, at)
    Broadcaster.for_running_loop().queue.put_nowait(messages)
    return outcome


_right: tuple[str, list[Any]] | None = None


def _batch_right() -> tuple[str, list[Any]]:
    """The right to deal over the batch's columns (``tables.access.deal_right_columns``), built once."""
    global _right
    if _right is None:
        _right = deal_right_columns("i.user_id", "i.session_key", "t.dealer_id")
    return _right


_by_loop: dict[asyncio.AbstractEventLoop, EventBatcher] = {}


def for_running_loop() -> EventBatcher:
    """The :class:`EventBatcher` of the running event loop (over ``loopdb.for_running_loop()``)."""
    connections = loopdb.for_running_loop()
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None or found.connections is not connections:
        for old in [old for old in _by_loop if old.is_closed()]:
            del _by_loop[old]
        found = _by_loop[loop] = EventBatcher(connections)
    return found


async def try_action_on_loop(
    table_id: int,
    action: Any,
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
    right: tuple[str, list[Any]],
    who: tuple[int, str | None],
) -> Outcome | None:
    """``tables.services.fastpath.try_action`` on the running event loop: decided in memory, written by
    the loop's :class:`EventBatcher` (alone or in a batch), the update queued on the loop's
    ``Broadcaster`` behind whatever the service threads committed before.  No thread hop.  Call from a
    consumer: ``right`` is the socket's right (``tables.access.deal_right_sql``), checked inside the
    statement, and ``who`` the ``(user id, session key)`` it names.  Returns the ``Outcome`` (its
    ``update_text`` for the dealer's socket to send before its ack), or None (nothing written: the
    normal path answers; it also answers an action whose table's row another step held for longer
    than :data:`LOOP_LOCK_TIMEOUT`).
    """
    prepared = prepare(
        table_id,
        action,
        actor=actor,
        expected_seq=expected_seq,
        client_id=client_id,
        right=right,
        who=who,
        lock_timeout=LOOP_LOCK_TIMEOUT,
    )
    if prepared is None:
        return None
    return await for_running_loop().write(prepared)


async def try_deal_on_loop(
    table_id: int,
    *,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
    right: tuple[str, list[Any]],
) -> Outcome | None:
    """The dealer's "start" of the next hand on the running event loop (``tables.services.fastdeal``):
    decided from the table kept in memory, written alone in one statement on a connection of the loop
    (:meth:`EventBatcher.write_alone`), the update queued on the loop's ``Broadcaster``.  No thread hop.
    ``right``: the socket's right (``tables.access.deal_right_sql``), checked inside the statement.
    Returns the ``Outcome`` (its ``update_text`` for the dealer's socket to send before its ack), or None
    (nothing written: the locked step, ``tables.services.hands.start_hand``, answers)."""
    prepared = fastdeal.prepare_deal(
        table_id,
        actor=actor,
        expected_seq=expected_seq,
        client_id=client_id,
        right=right,
        lock_timeout=LOOP_LOCK_TIMEOUT,
    )
    if prepared is None:
        return None
    done = fastdeal.finish_deal(prepared, await for_running_loop().write_alone(prepared.statement))
    if done is None:
        return None
    outcome, messages = done
    Broadcaster.for_running_loop().queue.put_nowait(messages)
    return outcome
