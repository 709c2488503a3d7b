"""The outgoing tablet learns of a dealer push over its socket (issue 28): a push sends ``dealer_push`` with the
change to each pushed table's group, the takeover sends it with ``null`` (docs/protocol.md), so the tablet
need not poll."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.utils import timezone

from tables import dealers, services
from tables.models import DealerShift
from tests.office.night import room_with_two_tables

pytestmark = pytest.mark.django_db


def listen(table_id: int) -> str:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(services.table_group(table_id), channel)
    return channel


def heard(channel: str) -> list[dict]:
    """The client messages the channel holds now (their JSON text), in order."""
    layer = get_channel_layer()

    async def drain() -> list[dict]:
        out = []
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), 0.2)
            except TimeoutError:
                return out
            if "text" in message:  # not the rights' revocation notices
                out.append(json.loads(message["text"]))

    return async_to_sync(drain)()


def test_a_push_and_its_takeover_reach_the_tables_sockets(floorman, roles, django_capture_on_commit_callbacks):
    now = timezone.now()
    crew = []
    for name in ("d1", "d2", "d3"):
        user = User.objects.create_user(name, password="pw-" + name)
        user.groups.add(roles["dealer"])
        DealerShift.objects.create(dealer=user, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(hours=7))
        crew.append(user)
    _room, _game, t1, t2 = room_with_two_tables(floorman)
    dealers.start_down(t1.id, crew[0])
    dealers.start_down(t2.id, crew[1])
    ch1, ch2 = listen(t1.id), listen(t2.id)
    with django_capture_on_commit_callbacks(execute=True):
        made = dealers.push(actor=floorman)
    pushes = {t.id: [m for m in heard(ch) if m["type"] == "dealer_push"] for t, ch in ((t1, ch1), (t2, ch2))}
    assert pushes == {
        t1.id: [
            {"type": "dealer_push", "table_id": t1.id, "change": {"id": made[0].id, "incoming": "d3", "outgoing": "d1"}}
        ],
        t2.id: [
            {"type": "dealer_push", "table_id": t2.id, "change": {"id": made[1].id, "incoming": "d1", "outgoing": "d2"}}
        ],
    }
    with django_capture_on_commit_callbacks(execute=True):
        dealers.take_over(t1.id, crew[2], "swapped")
    after = [m for m in heard(ch1) if m["type"] in ("dealer_push", "update")]
    assert [m["type"] for m in after] == ["update", "dealer_push"]  # the table's new dealer, then the prompt goes
    assert after[1] == {"type": "dealer_push", "table_id": t1.id, "change": None}
    assert heard(ch2) == []  # the other table's change still waits
