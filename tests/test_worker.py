"""The floor's background worker (pokerfloor.worker, ``manage.py
run_worker``): a no-show is recorded and the next player called when the
countdown ends, even with no floor dashboard open (000 Allgemein 15 and the
room's call countdown); several workers at once never record one twice."""

import asyncio
import datetime as dt
import threading
import time

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.utils import timezone

from pokerfloor import worker as timers
from pokerfloor.routing import websocket_urlpatterns
from room import services as r
from room.models import Call, QueueEntry, RoomLog
from tables import services
from tests.conftest import floor_worker_process


def _room_with_one_open_seat(name: str, floorman, *, must_move: bool = False):
    room = r.create_room(name.lower(), name, call_seconds=300, lobby_names="full")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200, actor=floorman)
    table = r.open_table(game.id, f"{name} 1", max_seats=3, actor=floorman)
    for seat, player in [(1, f"{name} A"), (2, f"{name} B")]:
        services.seat_player(table.id, seat, player, 0)
        r.buy_in(table.id, seat, 100)
    return room, game, table


def _open_call(game):
    return Call.objects.filter(game=game, status="open").select_related("entry__player").first()


@pytest.mark.django_db
def test_due_calls_of_every_room_become_no_shows_and_the_next_player_is_called(floorman):
    rooms = [_room_with_one_open_seat(name, floorman) for name in ("Nord", "Sued")]
    for room, game, _ in rooms:
        for player in ("first", "second"):
            r.add_to_waitlist(game.id, f"{room.name} {player}", actor=floorman)
        assert _open_call(game).entry.player.name == f"{room.name} first"
    now = timezone.now()
    assert r.expire_due_calls(now + dt.timedelta(seconds=299)) == 0
    assert 298 <= timers.seconds_to_next_deadline(now) <= 300
    assert r.expire_due_calls(now + dt.timedelta(seconds=301)) == 2
    for room, game, _ in rooms:
        assert _open_call(game).entry.player.name == f"{room.name} second"
        assert RoomLog.objects.filter(room=room, kind="no_show", player__name=f"{room.name} first").exists()
        assert QueueEntry.objects.get(player__name=f"{room.name} first").status == "removed"


@pytest.mark.django_db
def test_nobody_called_means_nothing_to_wait_for(floorman):
    _room_with_one_open_seat("Ost", floorman)
    assert timers.seconds_to_next_deadline() is None
    assert r.expire_due_calls(timezone.now() + dt.timedelta(days=1)) == 0


@pytest.mark.django_db
def test_a_forced_must_move_call_never_expires_by_itself(floorman):
    room, game, table = _room_with_one_open_seat("West", floorman)
    r.add_to_waitlist(game.id, "Mover", actor=floorman)
    call = _open_call(game)
    Call.objects.filter(pk=call.pk).update(forced=True)
    assert timers.seconds_to_next_deadline() is None
    assert r.expire_due_calls(timezone.now() + dt.timedelta(hours=1)) == 0
    assert Call.objects.get(pk=call.pk).status == "open"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_sees_the_no_show_and_the_next_call_without_anyone_on_the_floor(floorman):
    """Only a lobby screen is connected (no floor dashboard): when the
    countdown ends the server itself moves on to the next player."""
    room, game, table = await database_sync_to_async(_room_with_one_open_seat)("Lobbyroom", floorman)
    await database_sync_to_async(r.add_to_waitlist)(game.id, "Zoe Quinn", actor=floorman)
    await database_sync_to_async(r.add_to_waitlist)(game.id, "Yann Roth", actor=floorman)
    manager = await database_sync_to_async(floorman_manager)(floorman)
    display = await database_sync_to_async(r.create_display)(room.id, actor=manager)
    call = await database_sync_to_async(_open_call)(game)

    app = URLRouter(websocket_urlpatterns)
    ws = WebsocketCommunicator(app, f"/ws/lobby/{display.token}/")
    ws.scope["user"] = AnonymousUser()
    connected, _ = await ws.connect()
    assert connected
    snapshot = (await ws.receive_json_from())["snapshot"]
    assert [c["name"] for c in snapshot["games"][0]["calls"]] == ["Zoe Quinn"]
    # Zoe's countdown ends in half a second (the room says 300 s; shortened here)
    await database_sync_to_async(Call.objects.filter(pk=call.pk).update)(
        deadline=timezone.now() + dt.timedelta(seconds=0.5)
    )
    # the worker's look, run here so that its update goes through this process's channel layer
    await asyncio.sleep(0.6)
    assert await database_sync_to_async(timers.tick)() <= timers.POLL_SECONDS
    update = await ws.receive_json_from(timeout=6)
    calls = update["snapshot"]["games"][0]["calls"]
    assert [c["name"] for c in calls] == ["Yann Roth"]
    assert update["seq"] == snapshot["seq"] + 1
    await ws.disconnect()
    assert await database_sync_to_async(
        RoomLog.objects.filter(room=room, kind="no_show", player__name="Zoe Quinn", actor__isnull=True).exists
    )()
    await database_sync_to_async(connections.close_all)()  # the timer's connection, before the test database goes


def floorman_manager(user):
    """Display links are made by managers: give the floorman that role too."""
    from django.contrib.auth.models import Group

    user.groups.add(Group.objects.get_or_create(name="manager")[0])
    user.__dict__.pop("_pokerfloor_roles", None)
    return user


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_never_record_a_no_show_twice(floorman):
    """Two workers look at the same due calls at the same moment (one
    thread each, each with its own database connection)."""
    rooms = [_room_with_one_open_seat(f"Twin{i}", floorman) for i in range(3)]
    for room, game, _ in rooms:
        for player in ("first", "second", "third"):
            r.add_to_waitlist(game.id, f"{room.name} {player}", actor=floorman)
    Call.objects.filter(status="open").update(deadline=timezone.now() - dt.timedelta(seconds=1))
    later = timezone.now() + dt.timedelta(seconds=1)  # the first players' calls are due, the next ones' are not
    start = threading.Barrier(2)
    counts: list[int] = []

    def one_worker():
        try:
            start.wait()
            counts.append(r.expire_due_calls(later))
        finally:
            connections.close_all()

    workers = [threading.Thread(target=one_worker) for _ in range(2)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(30)
    assert sum(counts) == 3, counts
    for room, game, _ in rooms:
        no_shows = RoomLog.objects.filter(room=room, kind="no_show")
        assert [e.player.name for e in no_shows] == [f"{room.name} first"]
        assert _open_call(game).entry.player.name == f"{room.name} second"


@pytest.mark.django_db(transaction=True)
def test_the_worker_command_expires_due_calls_and_stops_on_sigterm(floorman):
    """``manage.py run_worker`` on its own: a due call becomes a no-show
    within a look or two; SIGTERM ends it cleanly."""
    room, game, _ = _room_with_one_open_seat("Cmd", floorman)
    for player in ("first", "second"):
        r.add_to_waitlist(game.id, f"Cmd {player}", actor=floorman)
    with floor_worker_process(poll=0.2):
        Call.objects.filter(status="open").update(deadline=timezone.now())
        deadline = time.monotonic() + 40  # a loaded machine starts Django slowly
        while not RoomLog.objects.filter(room=room, kind="no_show").exists():
            assert time.monotonic() < deadline, "the worker recorded no no-show in 40 s"
            time.sleep(0.1)
    assert _open_call(game).entry.player.name == "Cmd second"
    assert RoomLog.objects.filter(room=room, kind="no_show").count() == 1
