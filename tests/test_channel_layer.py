"""The in-process channel layer (``pokerfloor.runtime.layers.SweepingInMemoryChannelLayer``):
same delivery as Channels' own in-memory layer, with the expiry sweep run once per interval."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.exceptions import ChannelFull

from pokerfloor.runtime.layers import SweepingInMemoryChannelLayer


def run(coro):
    return asyncio.run(coro)


def test_a_group_send_reaches_every_member_with_its_own_copy():
    async def scenario():
        layer = SweepingInMemoryChannelLayer()
        a, b = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("floor", a)
        await layer.group_add("floor", b)
        await layer.group_send("floor", {"type": "table.update", "seq": 7, "text": "{}"})
        got_a, got_b = await layer.receive(a), await layer.receive(b)
        got_a["seq"] = 99  # one receiver changing its message touches no other
        return got_a, got_b

    got_a, got_b = run(scenario())
    assert got_b == {"type": "table.update", "seq": 7, "text": "{}"}
    assert got_a["seq"] == 99


def test_messages_with_nested_values_are_still_deep_copied():
    async def scenario():
        layer = SweepingInMemoryChannelLayer()
        a = await layer.new_channel()
        await layer.group_add("g", a)
        message = {"type": "x", "data": {"n": 1}}
        await layer.group_send("g", message)
        message["data"]["n"] = 2
        return await layer.receive(a)

    assert run(scenario())["data"] == {"n": 1}


def test_a_full_channel_drops_the_message_for_that_receiver_only():
    async def scenario():
        layer = SweepingInMemoryChannelLayer(capacity=2)
        slow, fast = await layer.new_channel(), await layer.new_channel()
        for channel in (slow, fast):
            await layer.group_add("floor", channel)
        for seq in (1, 2):
            await layer.group_send("floor", {"type": "u", "seq": seq})
        assert [(await layer.receive(fast))["seq"] for _ in range(2)] == [1, 2]
        await layer.group_send("floor", {"type": "u", "seq": 3})  # slow holds 2: dropped there
        with pytest.raises(ChannelFull):
            await layer.send(slow, {"type": "u", "seq": 4})
        return [(await layer.receive(slow))["seq"] for _ in range(2)], (await layer.receive(fast))["seq"]

    assert run(scenario()) == ([1, 2], 3)


def test_expired_messages_and_their_channels_leave_the_groups_at_the_next_sweep():
    async def scenario():
        layer = SweepingInMemoryChannelLayer(expiry=0.05, sweep_interval=0.1)
        dead, alive = await layer.new_channel(), await layer.new_channel()
        for channel in (dead, alive):
            await layer.group_add("floor", channel)
        await layer.group_send("floor", {"type": "u", "seq": 1})
        await layer.receive(alive)
        time.sleep(0.15)  # the message to ``dead`` expired unread; the sweep interval passed
        await layer.group_send("floor", {"type": "u", "seq": 2})
        return set(layer.groups["floor"]), dead, alive, (await layer.receive(alive))["seq"]

    members, dead, alive, seq = run(scenario())
    assert dead not in members, "the channel whose message expired left the group"
    assert alive in members
    assert seq == 2
