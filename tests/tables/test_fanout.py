"""tables.fanout: the lobby screens of a group share one channel-layer
subscription per process; each gets every message, in order, and the
subscription ends with the last screen."""

import asyncio

import pytest
from channels.layers import get_channel_layer

from tables.fanout import fanout

pytestmark = pytest.mark.asyncio


class Screen:
    def __init__(self, fail: bool = False) -> None:
        self.got: list[str] = []
        self.fail = fail

    async def fanout_message(self, event):
        if self.fail:
            raise ConnectionError("socket gone")
        self.got.append(event["text"])


async def wait_for(predicate, timeout=2.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_every_screen_gets_every_update_in_order_through_one_subscription():
    layer = get_channel_layer()
    hub = fanout()
    screens = [Screen(), Screen(), Screen(fail=True), Screen()]
    for screen in screens:
        await hub.join("lobby.test-a", screen)
    assert len(layer.groups["lobby.test-a"]) == 1  # one channel for all four screens
    for n in range(5):
        await layer.group_send("lobby.test-a", {"type": "room.update", "text": f"u{n}"})
    await wait_for(lambda: len(screens[-1].got) == 5)
    expected = [f"u{n}" for n in range(5)]
    assert [s.got for s in screens if not s.fail] == [expected] * 3  # a broken screen starves nobody

    for screen in screens[:-1]:
        await hub.leave("lobby.test-a", screen)
    await layer.group_send("lobby.test-a", {"type": "room.update", "text": "u5"})
    await wait_for(lambda: len(screens[-1].got) == 6)
    assert screens[0].got == expected
    await hub.leave("lobby.test-a", screens[-1])
    assert not layer.groups.get("lobby.test-a")
    assert "lobby.test-a" not in hub.subscriptions


async def test_a_screen_that_joins_later_gets_what_is_sent_after_it_joined():
    layer = get_channel_layer()
    hub = fanout()
    first, late = Screen(), Screen()
    await hub.join("lobby.test-b", first)
    await layer.group_send("lobby.test-b", {"type": "room.update", "text": "before"})
    await wait_for(lambda: first.got == ["before"])
    await hub.join("lobby.test-b", late)
    await layer.group_send("lobby.test-b", {"type": "room.update", "text": "after"})
    await wait_for(lambda: late.got == ["after"])
    assert first.got == ["before", "after"]
    await hub.leave("lobby.test-b", first)
    await hub.leave("lobby.test-b", late)
