"""Rights hold for the life of a connection: a dealer reassigned to another table, a user taken out of
the floor group or logged out loses the open sockets (closed with 4403 within a second), and a message
sent after the right is gone is refused with ``forbidden`` and changes nothing."""

import asyncio
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.sessions import CookieMiddleware, SessionMiddleware
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.db import transaction
from django.test import Client
from django.utils import timezone

from pokerfloor.routing import websocket_urlpatterns
from pokerfloor.runtime.auth import ParallelAuthMiddleware
from tables import revocation, services
from tables.models import HandEvent, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

app = URLRouter(websocket_urlpatterns)
#: As in production: the user comes from the session cookie.
# the staff sockets' stack of pokerfloor.asgi: cookies, the session, the user (and its session's expiry)
session_app = CookieMiddleware(SessionMiddleware(ParallelAuthMiddleware(URLRouter(websocket_urlpatterns))))


async def connect(path, user):
    ws = WebsocketCommunicator(app, path)
    ws.scope["user"] = user
    connected, code = await ws.connect()
    assert connected, code
    return ws


async def connect_with_cookie(path, session_key):
    ws = WebsocketCommunicator(session_app, path, headers=[(b"cookie", f"sessionid={session_key}".encode())])
    connected, code = await ws.connect()
    assert connected, code
    return ws


async def drain(ws):
    """Read what the socket sent on connect (snapshot, open calls)."""
    while not await ws.receive_nothing(timeout=0.2):
        await ws.receive_output()


async def reply_to(ws):
    """The next message other than a broadcast ``update``."""
    while True:
        message = await ws.receive_json_from(timeout=2)
        if message["type"] != "update":
            return message


async def closed_with(ws, timeout=1.0):
    """The close code the server sent within ``timeout`` seconds (messages before it are skipped)."""
    while True:
        output = await ws.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return output.get("code")


@database_sync_to_async
def set_dealer(table_id, user):
    """Change the table's dealer the way any service does: lock the row, save, bump seq."""
    with transaction.atomic():
        table = services.lock_table(table_id)
        table.dealer = user
        services.commit_table_change(table, ("dealer",))


@database_sync_to_async
def login(user):
    client = Client()
    client.force_login(user)
    return client, client.session.session_key


def seq_of(table_id):
    return database_sync_to_async(lambda: Table.objects.get(pk=table_id).seq)()


async def test_a_reassigned_dealer_loses_the_open_tablet_within_a_second(table, dealer, other_dealer):
    tablet = await connect(f"/ws/tables/{table.id}/dealer/", dealer)
    await drain(tablet)
    await set_dealer(table.id, other_dealer)
    assert await closed_with(tablet, timeout=1.0) == 4403


async def test_a_dealer_reassigned_by_the_rooms_dealer_op_loses_the_tablet(dealer, other_dealer, roles):
    from room import services as r

    @database_sync_to_async
    def make():
        room = r.create_room("casino", "Casino")
        game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
        first = r.open_table(game.id, "Main 1", max_seats=6, dealer=dealer)
        second = r.open_table(game.id, "Main 2", max_seats=6)
        return first, second

    first, second = await make()
    tablet = await connect(f"/ws/tables/{first.id}/dealer/", dealer)
    await drain(tablet)
    await database_sync_to_async(r.assign_dealer)(second.id, dealer)
    await database_sync_to_async(r.assign_dealer)(first.id, other_dealer)
    assert await closed_with(tablet, timeout=1.0) == 4403
    new_tablet = await connect(f"/ws/tables/{second.id}/dealer/", dealer)  # his new table lets him in
    await new_tablet.disconnect()


async def test_a_message_sent_before_the_revocation_arrives_is_refused_and_changes_nothing(table, dealer, other_dealer):
    tablet = await connect(f"/ws/tables/{table.id}/dealer/", dealer)
    await drain(tablet)
    with mock.patch.object(revocation, "revoke_table"):  # the revocation is still on its way
        await set_dealer(table.id, other_dealer)
    seq = await seq_of(table.id)
    await tablet.send_json_to({"type": "start_hand", "client_id": "late", "expected_seq": seq})
    reply = await reply_to(tablet)
    assert reply["type"] == "error" and reply["code"] == "forbidden" and reply["client_id"] == "late"
    assert await closed_with(tablet) == 4403
    assert await seq_of(table.id) == seq
    assert not await database_sync_to_async(HandEvent.objects.exists)()


@database_sync_to_async
def fold_to_the_last_two(table_id):
    """Deal, and fold until the next fold ends the hand: ``(seat to act, hand id)``."""
    services.start_hand(table_id)
    while True:
        state = Table.objects.get(pk=table_id).current_hand.snapshot
        if sum(not p["folded"] for p in state["players"]) == 2:
            return state["to_act_seat"], Table.objects.get(pk=table_id).current_hand_id
        services.apply_action(table_id, {"type": "fold", "seat": state["to_act_seat"]})


async def test_the_action_that_ends_the_hand_after_the_reassignment_is_refused(table, dealer, other_dealer):
    """The hand's end goes the locked way (stacks settled), where the dealer's right is read by the
    table's locked read: refused all the same, and the hand stays live with nothing paid out."""
    seat, hand_id = await fold_to_the_last_two(table.id)
    tablet = await connect(f"/ws/tables/{table.id}/dealer/", dealer)
    await drain(tablet)
    with mock.patch.object(revocation, "revoke_table"):
        await set_dealer(table.id, other_dealer)
    seq = await seq_of(table.id)
    events = await database_sync_to_async(HandEvent.objects.count)()
    await tablet.send_json_to(
        {"type": "action", "client_id": "last", "expected_seq": seq, "action": {"type": "fold", "seat": seat}}
    )
    reply = await reply_to(tablet)
    assert reply["type"] == "error" and reply["code"] == "forbidden" and reply["client_id"] == "last"
    assert await closed_with(tablet) == 4403
    assert await seq_of(table.id) == seq
    assert await database_sync_to_async(HandEvent.objects.count)() == events
    hand = await database_sync_to_async(Table.objects.select_related("current_hand").get)(pk=table.id)
    assert (hand.current_hand_id, hand.current_hand.status) == (hand_id, "live")


async def test_a_snapshot_request_after_the_reassignment_is_refused(table, dealer, other_dealer):
    tablet = await connect(f"/ws/tables/{table.id}/dealer/", dealer)
    await drain(tablet)
    with mock.patch.object(revocation, "revoke_table"):
        await set_dealer(table.id, other_dealer)
    await tablet.send_json_to({"type": "snapshot"})
    reply = await reply_to(tablet)
    assert reply["type"] == "error" and reply["code"] == "forbidden"
    assert await closed_with(tablet) == 4403


async def test_a_user_removed_from_the_floor_group_loses_the_floor_socket(table, floorman, roles):
    floor = await connect("/ws/floor/", floorman)
    tablet = await connect(f"/ws/tables/{table.id}/dealer/", floorman)
    await drain(floor)
    await drain(tablet)
    await database_sync_to_async(floorman.groups.remove)(roles["floor"])
    assert await closed_with(floor, timeout=1.0) == 4403
    assert await closed_with(tablet, timeout=1.0) == 4403


async def test_removal_from_the_group_side_closes_too_and_other_users_keep_their_sockets(table, floorman, roles):
    from django.contrib.auth.models import User

    colleague = await database_sync_to_async(User.objects.create_user)("floor2", password="pw")
    await database_sync_to_async(colleague.groups.add)(roles["floor"])
    mine = await connect("/ws/floor/", floorman)
    theirs = await connect("/ws/floor/", colleague)
    await drain(mine)
    await drain(theirs)
    await database_sync_to_async(roles["floor"].user_set.remove)(floorman)
    assert await closed_with(mine, timeout=1.0) == 4403
    assert await theirs.receive_nothing(timeout=0.5)
    await theirs.disconnect()


async def test_logging_out_closes_the_sockets_of_that_session(table, floorman):
    client, key = await login(floorman)
    _, other_key = await login(floorman)  # the same user on another device
    floor = await connect_with_cookie("/ws/floor/", key)
    tablet = await connect_with_cookie(f"/ws/tables/{table.id}/dealer/", key)
    elsewhere = await connect_with_cookie("/ws/floor/", other_key)
    for ws in (floor, tablet, elsewhere):
        await drain(ws)
    response = await database_sync_to_async(client.post)("/logout/")
    assert response.status_code == 302
    assert await closed_with(floor, timeout=1.0) == 4403
    assert await closed_with(tablet, timeout=1.0) == 4403
    assert await elsewhere.receive_nothing(timeout=0.5)
    await elsewhere.disconnect()


async def test_an_expired_session_is_refused_on_the_next_message(table, floorman):
    _, key = await login(floorman)
    floor = await connect_with_cookie("/ws/floor/", key)
    await drain(floor)
    await database_sync_to_async(Session.objects.filter(session_key=key).update)(
        expire_date=timezone.now() - timezone.timedelta(seconds=1)
    )
    await floor.send_json_to({"type": "snapshot"})
    reply = await reply_to(floor)
    assert reply["type"] == "error" and reply["code"] == "forbidden"
    assert await closed_with(floor) == 4403


async def test_the_room_dashboard_socket_closes_when_the_floor_role_goes(floorman, roles):
    from room import services as r

    await database_sync_to_async(r.create_room)("casino", "Casino")
    ws = await connect("/ws/room/casino/", floorman)
    await drain(ws)
    await database_sync_to_async(floorman.groups.clear)()
    assert await closed_with(ws, timeout=1.0) == 4403


async def test_the_tournament_directors_socket_closes_when_the_floor_role_goes(floorman, roles):
    from tournaments import services as ts

    levels = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}
    t = await database_sync_to_async(ts.create_tournament)("Clock", "munotpoker", levels, starting_stack=1000)
    ws = await connect(f"/ws/tournaments/{t.id}/", floorman)
    await drain(ws)
    await database_sync_to_async(roles["floor"].user_set.clear)()
    assert await closed_with(ws, timeout=1.0) == 4403


async def test_a_session_that_expires_closes_its_socket_within_a_second_without_traffic(table, floorman):
    _, key = await login(floorman)
    await database_sync_to_async(Session.objects.filter(session_key=key).update)(
        expire_date=timezone.now() + timezone.timedelta(seconds=1.5)
    )
    floor = await connect_with_cookie("/ws/floor/", key)
    await drain(floor)
    assert await closed_with(floor, timeout=3.0) == 4403  # expiry + 0.5 s, nothing sent by the client


async def test_a_staff_socket_reads_its_session_expiry_with_its_user_in_one_hop(table, floorman, monkeypatch):
    """The expiry that closes the socket when the session ends is read at the connect with the user
    (``pokerfloor.runtime.auth``), not in a second trip to the read threads; a later watch reads it again."""
    from tables import revocation

    calls = []
    real = revocation._session_expiry

    async def counted(key):
        calls.append(key)
        return await real(key)

    monkeypatch.setattr(revocation, "_session_expiry", counted)
    _, key = await login(floorman)
    await database_sync_to_async(Session.objects.filter(session_key=key).update)(
        expire_date=timezone.now() + timezone.timedelta(seconds=1.5)
    )
    floor = await connect_with_cookie("/ws/floor/", key)
    await drain(floor)
    assert calls == []
    await database_sync_to_async(Session.objects.filter(session_key=key).update)(
        expire_date=timezone.now() + timezone.timedelta(days=1)
    )  # extended: at the first expiry the socket checks, stays and watches the new date
    await asyncio.sleep(2.2)
    assert calls == [key]
    await floor.send_json_to({"type": "snapshot"})
    assert (await reply_to(floor))["type"] == "floor_snapshot"
    await floor.disconnect()
