"""The public TV socket sends only what the TV shows: no away flags, no stacks, no registrations
or instructions -- the ten chip leaders only while the director shows them."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from pokerfloor.routing import websocket_urlpatterns
from tables.models import Seat
from tournaments import services
from tournaments.models import TournamentTable
from tournaments.services import chipcounts

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)
LEVELS = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}
PRIVATE = ("absent", "stack", "registrations", "instructions", "rebuy_pending", "entry", "public_token", "table_id")


def keys(value):
    """Every dict key anywhere in ``value``."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


@database_sync_to_async
def make():
    t = services.create_tournament("TV", "munotpoker", LEVELS, starting_stack=5000, buy_in=10, seed=5)
    for name in ("Anna", "Bert", "Carla", "Dora"):
        services.register(t.id, name)
    services.start(t.id)
    tt = TournamentTable.objects.get(tournament=t)
    seat = Seat.objects.filter(table_id=tt.table_id, player__isnull=False).order_by("number").first()
    services.set_absent(tt.table_id, seat.number, True)  # one player away from the table
    t.refresh_from_db()
    return t, tt


async def test_the_tv_gets_no_away_flags_or_stacks_unless_the_leaders_are_shown(floorman):
    t, tt = await make()
    tv = WebsocketCommunicator(app, f"/ws/tournaments/lobby/{t.public_token}/")
    tv.scope["user"] = AnonymousUser()
    assert (await tv.connect())[0]
    first = await tv.receive_json_from()
    assert first["snapshot"]["seat_draw"] and first["snapshot"]["chip_leaders"] == []
    assert not keys(first) & set(PRIVATE), keys(first) & set(PRIVATE)

    # the director's own snapshot has them: the public one left them out
    full = await database_sync_to_async(services.snapshot)(t)
    assert any(s["absent"] for tb in full["tables"] for s in tb["seats"])

    await database_sync_to_async(chipcounts.show_chip_leaders)(t.id, True)
    shown = await tv.receive_json_from()
    leaders = shown["snapshot"]["chip_leaders"]
    assert [leader["stack"] for leader in leaders] == [5000] * 4
    assert set(keys(leaders)) == {"player", "stack"}
    assert not keys({k: v for k, v in shown["snapshot"].items() if k != "chip_leaders"}) & set(PRIVATE)
    assert "absent" not in json.dumps(shown)
    await tv.disconnect()
