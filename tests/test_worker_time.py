""" "Time" called on a player runs out on the server (issue 24, finding 5): the floor's worker
(``manage.py run_worker``) applies the house rule's effect at the deadline with the tablet closed and
no dashboard open, recorded with its citation and by nobody (the system); a floor dashboard that
connects afterwards, or is open at the deadline, expires nothing."""

import datetime as dt
import json
import time

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.utils import timezone

from pokerfloor import worker as timers
from pokerfloor.routing import websocket_urlpatterns
from tables import services
from tables.models import Hand, HandEvent, Table
from tables.services import fastpath, replay
from tests.conftest import floor_worker_process

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def clocked(dealer):
    """A TDA 2024 table (Rule 29: 25 s and a 5 s countdown), a hand with Time called on the player to act, the
    deadline moved to ``seconds`` from now by :func:`due_in`."""
    table = services.create_table("Clock 1", small_blind=1, big_blind=2, dealer=dealer, rules_profile="tda-2024")
    for seat, name, stack in [(1, "Anna", 200), (2, "Ben", 300), (3, "Clara", 150)]:
        services.seat_player(table.id, seat, name, stack)
    services.start_hand(table.id)
    hand = Hand.objects.get(pk=Table.objects.get(pk=table.id).current_hand_id)
    seat = hand.snapshot["to_act_seat"]
    services.call_time(table.id, seat, actor=dealer)
    return table, hand, seat


def due_in(hand: Hand, seconds: float) -> None:
    """Move the running clock's deadline (its event and the hand's snapshot) to ``seconds`` from now."""
    deadline = (timezone.now() + dt.timedelta(seconds=seconds)).isoformat()
    event = HandEvent.objects.filter(hand=hand, kind="clock").order_by("-index").first()
    event.payload = dict(event.payload, deadline=deadline)
    event.save(update_fields=["payload"])
    hand.refresh_from_db()
    hand.snapshot["clock"]["deadline"] = deadline
    hand.save(update_fields=["snapshot"])
    with replay.cache_lock:  # this process's replay of the hand knew the old deadline
        replay.state_cache.pop(hand.id, None)
    fastpath.forget(hand.table_id)


def expiries(hand: Hand) -> list[HandEvent]:
    return list(HandEvent.objects.filter(hand=hand, kind="action", payload__cause="time"))


def test_time_runs_out_on_the_server_with_no_tablet_or_dashboard_open(clocked):
    table, hand, seat = clocked
    seq = Table.objects.get(pk=table.id).seq
    with floor_worker_process(poll=0.2), floor_worker_process(poll=0.2):  # two workers: one expiry
        due_in(hand, 1.0)
        until = time.monotonic() + 90  # a loaded machine takes a while to start a worker
        while not expiries(hand) and time.monotonic() < until:
            time.sleep(0.1)
        time.sleep(3.0)  # the second worker's look, too
    (event,) = expiries(hand)
    # facing the big blind: dead (004 #29), by nobody (the server), with the rule cited
    assert event.payload["type"] == "fold" and event.payload["seat"] == seat
    assert event.actor_id is None
    assert "Rule 29" in json.dumps(event.payload["citations"])  # TDA 2024 Rule 29, the table's profile
    table.refresh_from_db()
    assert table.seq == seq + 1
    assert table.current_hand.snapshot["clock"] is None


def test_a_dashboard_that_opens_after_the_deadline_expires_nothing(clocked, floorman):
    """Before, the floor dashboard reported the expiry and it was recorded as the floorman's action."""
    table, hand, seat = clocked
    due_in(hand, -2.0)
    seq = Table.objects.get(pk=table.id).seq

    async def visit():
        ws = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/floor/")
        ws.scope["user"] = floorman
        connected, _ = await ws.connect()
        assert connected
        while (await ws.receive_json_from(timeout=5))["type"] != "floor_calls":
            pass
        await ws.send_json_to({"type": "time_expired", "table_id": table.id, "client_id": "dash-1"})
        answer = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return answer

    answer = async_to_sync(visit)()
    assert answer["type"] == "error", answer
    assert Table.objects.get(pk=table.id).seq == seq
    assert not expiries(hand)
    # the server's own look expires it, by nobody
    assert timers.expire_due_clocks() == 1
    (event,) = expiries(hand)
    assert event.actor_id is None
    connections.close_all()


def test_the_worker_waits_for_the_clock_and_leaves_it_before_its_deadline(clocked):
    table, hand, seat = clocked
    due_in(hand, 20.0)
    assert timers.expire_due_clocks() == 0
    assert 18 <= timers.seconds_to_next_deadline() <= 20
    assert timers.tick(poll=30.0) <= 20
    assert not expiries(hand)
    assert timers.expire_due_clocks(timezone.now() + dt.timedelta(seconds=21)) == 1
    assert timers.expire_due_clocks(timezone.now() + dt.timedelta(seconds=21)) == 0
    assert len(expiries(hand)) == 1


def test_the_worker_says_when_its_updates_cannot_reach_the_screens(settings):
    """The cash night's browser test: the worker folded David, but its update went to its own
    in-process layer and the floor tile kept "Time called on David (4)"; the log said nothing."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "pokerfloor.runtime.layers.SweepingInMemoryChannelLayer"}}
    assert "REDIS_URL" in timers.unshared_layer_warning()
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "pokerfloor.runtime.layers.RedisChannelLayer"}}
    assert timers.unshared_layer_warning() is None
