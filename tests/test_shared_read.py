"""``pokerfloor.runtime.shared.SharedRead``: callers at the same moment share one read, never one that
began before they called; a failure reaches every caller sharing it; a caller going away stops nothing."""

import asyncio

import pytest

from pokerfloor.runtime.shared import SharedRead

pytestmark = pytest.mark.asyncio


class _Source:
    """An async read that returns ``(its number, the clock when it began)`` and takes ``delay`` seconds."""

    def __init__(self, delay=0.05, fail=False):
        self.delay, self.fail, self.reads = delay, fail, 0

    async def __call__(self, key="room"):
        self.reads += 1
        number, began = self.reads, asyncio.get_running_loop().time()
        await asyncio.sleep(self.delay)
        if self.fail:
            raise RuntimeError(f"read {number} failed")
        return key, number, began


async def test_callers_while_a_read_runs_share_the_next_one_and_each_gets_a_read_begun_after_its_call():
    source = _Source()
    shared = SharedRead(source)
    loop = asyncio.get_running_loop()
    called = {}

    async def caller(n, wait):
        await asyncio.sleep(wait)
        called[n] = loop.time()
        return n, await shared("room")

    results = await asyncio.gather(caller(0, 0), *[caller(n, 0.01 + n * 0.002) for n in range(1, 8)])
    assert source.reads == 2  # one for the first caller, one for the seven who came while it ran
    for n, (_key, number, began) in results:
        assert began >= called[n]
        assert number == (1 if n == 0 else 2)


async def test_different_keys_read_side_by_side():
    source = _Source()
    shared = SharedRead(source)
    got = await asyncio.gather(shared("a"), shared("b"))
    assert [g[:2] for g in got] == [("a", 1), ("b", 2)]
    assert got[1][2] - got[0][2] < source.delay  # "b" did not wait for "a"
    assert shared.keys == {}  # nothing kept once no read runs


async def test_a_failed_read_fails_every_caller_sharing_it_and_the_next_call_reads_again():
    source = _Source(fail=True)
    shared = SharedRead(source)
    outcomes = await asyncio.gather(shared(), shared(), shared(), return_exceptions=True)
    assert [str(o) for o in outcomes] == ["read 1 failed", "read 2 failed", "read 2 failed"]
    source.fail = False
    assert (await shared())[1] == 3


async def test_a_caller_that_goes_away_does_not_cancel_the_read_others_wait_for():
    source = _Source(delay=0.1)
    shared = SharedRead(source)
    first = asyncio.ensure_future(shared())
    await asyncio.sleep(0.01)
    leaving = asyncio.ensure_future(shared())  # these two share the second read
    staying = asyncio.ensure_future(shared())
    await asyncio.sleep(0.02)
    leaving.cancel()
    assert (await first)[1] == 1
    assert (await staying)[1] == 2
    assert leaving.cancelled() and source.reads == 2
