"""The event loop's own connections (``pokerfloor.runtime.loopdb``): at most ``size`` open, handed out in
the order statements asked for them, and a broken one replaced."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from pokerfloor.runtime.loopdb import LoopConnections

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_released_connection_goes_to_the_statement_waiting_longest_not_to_a_newcomer():
    pool = LoopConnections(1)
    held = await pool._acquire()
    waiting = asyncio.ensure_future(pool.fetchone("SELECT 'waiting'", []))
    await asyncio.sleep(0.05)  # it asked first, and waits: the one connection is held
    pool._release(held)
    # a statement arriving now, before the waiting one runs again, finds no idle connection to take
    assert pool.idle == []
    newcomer = asyncio.ensure_future(pool.fetchone("SELECT 'newcomer'", []))
    done, _ = await asyncio.wait([waiting, newcomer], return_when=asyncio.FIRST_COMPLETED)
    assert done == {waiting}
    assert await newcomer == ("newcomer",)
    assert pool.opened == 1
    await pool.close()


async def test_at_most_size_connections_serve_many_statements_and_a_broken_one_is_replaced():
    pool = LoopConnections(2)
    rows = await asyncio.gather(*(pool.fetchone("SELECT %s::int, pg_sleep(0.01)", [n]) for n in range(20)))
    assert [row[0] for row in rows] == list(range(20))
    assert pool.opened == 2 and len(pool.idle) == 2
    victim = pool.idle[0][0]
    await pool.fetchone("SELECT pg_terminate_backend(%s)", [victim.info.backend_pid])
    with pytest.raises(psycopg.OperationalError):  # the connection the server ended
        await asyncio.gather(*(pool.fetchone("SELECT 1", []) for _ in range(2)))
    assert [row async for row in _rows(pool, 4)] == [(1,)] * 4
    assert pool.opened <= 2
    await pool.close()


async def _rows(pool: LoopConnections, n: int):
    for _ in range(n):
        yield await pool.fetchone("SELECT 1", [])


async def test_a_statement_cancelled_midway_leaves_no_connection_behind_it_in_use():
    """A tablet that gives up its handshake while its connect's statement runs: the consumer is cancelled
    mid-statement.  Its connection must not go back to the idle ones with that statement's answer still
    on the way (the next statement there failed or waited for it)."""
    pool = LoopConnections(1)
    slow = asyncio.ensure_future(pool.fetchone("SELECT pg_sleep(1)", []))
    await asyncio.sleep(0.3)
    slow.cancel()
    with pytest.raises(asyncio.CancelledError):
        await slow
    assert await asyncio.wait_for(pool.fetchone("SELECT 'next'", []), timeout=1.5) == ("next",)
    assert pool.opened <= 1
    await pool.close()
