"""The waitlist in the player's pocket (issue 29): remote joins with a one-time code, the call on the
phone and its answers, the desk's arrival, no-shows as the room sets, limits, and the Web Push of a call
(sent to a local HTTP endpoint the test starts: no internet)."""

from __future__ import annotations

import base64
import datetime as dt
import http.server
import re
import threading

import pytest
from django.core.cache import cache
from django.utils import timezone

from room import services as r
from room import sms
from room.models import Call, QueueEntry, RemoteSession, RoomLog
from room.services import remote
from room.services.push import send_call
from tables import services
from tables.writepath import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _sms(settings):
    settings.POKERFLOOR_SMS_BACKEND = "room.sms.LocmemSMSBackend"
    sms.outbox.clear()
    cache.clear()


@pytest.fixture
def room(dealer, floorman):
    """Room "casino": NLHE 1/2 and PLO 2/5, each one 3-seat table, full and dealt (running); NLHE 5/10 with a
    table without dealer (not running)."""
    room = r.create_room("casino", "Casino", call_seconds=300)
    games = {}
    for name, sb, bb, with_dealer in [("NLHE 1/2", 1, 2, True), ("PLO 2/5", 2, 5, True), ("NLHE 5/10", 5, 10, False)]:
        game = r.create_game(room.id, name, small_blind=sb, big_blind=bb, min_buy_in=20 * bb, max_buy_in=100 * bb)
        table = r.open_table(game.id, f"{name} T1", max_seats=3, dealer=dealer if with_dealer else None)
        for seat in (1, 2, 3):
            services.seat_player(table.id, seat, f"{name} Player {seat}", 0)
        games[name] = (game, table)
    room.refresh_from_db()
    return room, games


def _code() -> str:
    return re.search(r"\b(\d{6})\b", sms.outbox[-1][1]).group(1)


def join(room, games, names=("NLHE 1/2", "PLO 2/5"), nickname="Ace Max", contact="+41 79 123 45 67"):
    session = remote.start_join(room, [games[n][0].id for n in names], nickname, contact, client="10.0.0.1")
    return remote.confirm_code(session.token, _code())


def test_join_two_lists_with_the_code_sent_by_sms(room):
    room, games = room
    session = remote.start_join(
        room, [games["NLHE 1/2"][0].id, games["PLO 2/5"][0].id], "Ace Max", "+41 79 123 45 67", client="x"
    )
    assert sms.outbox[-1][0] == "+41791234567" and "Casino" in sms.outbox[-1][1]
    assert not QueueEntry.objects.filter(source="remote").exists()  # nothing before the code
    with pytest.raises(ServiceError) as bad:
        remote.confirm_code(session.token, "000000" if _code() != "000000" else "111111")
    assert bad.value.code == "bad_code"
    remote.confirm_code(session.token, _code())
    entries = QueueEntry.objects.filter(source="remote", status="waiting").select_related("game", "player")
    assert sorted(e.game.name for e in entries) == ["NLHE 1/2", "PLO 2/5"]
    assert {e.player.name for e in entries} == {"Ace Max"}
    state = remote.phone_state(remote.verified_session(session.token))
    assert [(e["game"], e["position"], e["status"]) for e in state["entries"]] == [
        ("NLHE 1/2", 1, "waiting"),
        ("PLO 2/5", 1, "waiting"),
    ]
    assert state["entries"][0]["wait"]["high"] > 0


def test_code_by_email_through_djangos_mail(room, mailoutbox):
    room, games = room
    remote.start_join(room, [games["NLHE 1/2"][0].id], "Mia", "Mia@Example.org", client="x")
    assert mailoutbox[-1].to == ["mia@example.org"]
    assert re.search(r"\b\d{6}\b", mailoutbox[-1].body)


def test_a_game_that_is_not_running_cannot_be_joined_and_bad_input_is_refused(room):
    room, games = room
    for args, code in [
        (([games["NLHE 5/10"][0].id], "Ace", "+41791234567"), "not_running"),
        (([games["NLHE 1/2"][0].id], "A", "+41791234567"), "invalid"),
        (([games["NLHE 1/2"][0].id], "Ace", "call me"), "invalid"),
        (([], "Ace", "+41791234567"), "invalid"),
    ]:
        with pytest.raises(ServiceError) as refused:
            remote.start_join(room, *args, client="x")
        assert refused.value.code == code
    assert not RemoteSession.objects.exists() and not sms.outbox


def test_wrong_codes_run_out(room):
    room, games = room
    session = remote.start_join(room, [games["NLHE 1/2"][0].id], "Ace", "+41791234567", client="x")
    wrong = "000000" if _code() != "000000" else "111111"
    for _ in range(remote.MAX_ATTEMPTS):
        with pytest.raises(ServiceError):
            remote.confirm_code(session.token, wrong)
    with pytest.raises(ServiceError) as locked:
        remote.confirm_code(session.token, _code())
    assert locked.value.code == "too_many_attempts"
    assert not QueueEntry.objects.filter(source="remote").exists()


def test_rate_limit_per_address_and_the_rooms_cap(room):
    room, games = room
    gid = games["NLHE 1/2"][0].id
    for i in range(remote.JOINS_PER_HOUR):
        remote.start_join(room, [gid], f"Nick {i}", f"+4179000000{i}", client="10.9.9.9")
    with pytest.raises(ServiceError) as limited:
        remote.start_join(room, [gid], "One more", "+41790000099", client="10.9.9.9")
    assert limited.value.code == "rate_limited"
    room.remote_cap = 1
    room.save()
    join(room, games, names=("NLHE 1/2",))
    with pytest.raises(ServiceError) as full:
        remote.start_join(room, [gid], "Late", "+41790000077", client="10.1.1.1")
    assert full.value.code == "room_full"


def _open_seat(games, name):
    game, table = games[name]
    r.leave_seat(table.id, 3)
    return Call.objects.get(game=game, status="open")


def test_called_on_my_way_confirmed_at_the_desk_and_seated(room, floorman):
    room, games = room
    session = join(room, games)
    call = _open_seat(games, "NLHE 1/2")
    assert call.entry.source == "remote"
    state = remote.phone_state(session)
    called = state["entries"][0]
    assert called["status"] == "called" and called["call"]["seat"] == 3 and called["call"]["seconds"] > 250
    remote.answer(session, call.entry_id, "on_my_way")
    call.refresh_from_db()
    assert call.deadline >= timezone.now() + dt.timedelta(seconds=room.arrival_seconds - 5)
    assert RoomLog.objects.filter(kind="remote_answer", payload__answer="on_my_way").exists()
    assert remote.call_for_arrival(room, session.arrival_token) == call
    r.accept_call(call.id, actor=floorman)
    state = remote.phone_state(session)
    assert [e["status"] for e in state["entries"]] == ["seated", "waiting"]


def test_need_more_time_once(room):
    room, games = room
    session = join(room, games)
    call = _open_seat(games, "NLHE 1/2")
    before = call.deadline
    remote.answer(session, call.entry_id, "more_time")
    call.refresh_from_db()
    assert call.deadline == before + dt.timedelta(seconds=room.more_time_seconds)
    with pytest.raises(ServiceError) as again:
        remote.answer(session, call.entry_id, "more_time")
    assert again.value.code == "more_time_used"


def test_leave_the_list_from_the_call_gives_the_seat_to_the_next(room):
    room, games = room
    session = join(room, games, names=("NLHE 1/2",))
    r.add_to_waitlist(games["NLHE 1/2"][0].id, "Walk In")
    call = _open_seat(games, "NLHE 1/2")
    remote.answer(session, call.entry_id, "leave")
    nxt = Call.objects.get(game=games["NLHE 1/2"][0], status="open")
    assert nxt.entry.player.name == "Walk In"
    assert remote.phone_state(session)["entries"][0]["status"] == "off"


def test_answers_of_another_phone_or_without_a_call_are_refused(room):
    room, games = room
    mine = join(room, games, names=("NLHE 1/2",))
    other = join(room, games, names=("PLO 2/5",), nickname="Other", contact="+41790000001")
    entry_id = mine.entries.get().entry_id
    with pytest.raises(ServiceError) as not_called:
        remote.answer(mine, entry_id, "on_my_way")
    assert not_called.value.code == "no_call"
    with pytest.raises(ServiceError) as foreign:
        remote.answer(other, entry_id, "leave")
    assert foreign.value.code == "not_found"
    assert QueueEntry.objects.get(pk=entry_id).status == "waiting"


def _expire(call):
    Call.objects.filter(pk=call.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    return r.expire_calls(call.game.room_id)


def test_a_remote_no_show_moves_down_as_the_room_sets_and_the_seat_goes_on(room):
    room, games = room
    game = games["NLHE 1/2"][0]
    session = join(room, games, names=("NLHE 1/2",))
    for name in ("W1", "W2", "W3", "W4"):
        r.add_to_waitlist(game.id, name)
    call = _open_seat(games, "NLHE 1/2")
    remote.answer(session, call.entry_id, "on_my_way")  # ... and does not arrive in the arrival window
    assert _expire(call) == 1
    order = list(QueueEntry.objects.filter(game=game, status__in=["waiting", "called"]).order_by("joined_at", "id"))
    assert [e.player.name for e in order] == ["W1", "W2", "W3", "Ace Max", "W4"]  # three places down
    assert Call.objects.get(game=game, status="open").entry.player.name == "W1"  # the seat went on
    assert RoomLog.objects.filter(kind="remote_moved_down", payload__places=3).exists()
    assert remote.phone_state(session)["entries"][0]["position"] == 4


def test_a_remote_no_show_leaves_the_list_when_the_room_says_so(room):
    room, games = room
    room.remote_no_show = "off"
    room.save()
    game = games["NLHE 1/2"][0]
    session = join(room, games, names=("NLHE 1/2",))
    call = _open_seat(games, "NLHE 1/2")
    _expire(call)
    assert QueueEntry.objects.get(pk=call.entry_id).status == "removed"
    assert RoomLog.objects.filter(kind="remote_off").exists()
    assert remote.phone_state(session)["entries"][0]["status"] == "off"
    assert not Call.objects.filter(game=game, status="open").exists()


def test_public_room_lists_running_games_only_with_initials_or_nicknames(room):
    room, games = room
    join(room, games, names=("NLHE 1/2",))
    r.add_to_waitlist(games["NLHE 1/2"][0].id, "Anna Maria Keller")
    data = remote.public_room(room)
    assert [g["name"] for g in data["games"]] == ["NLHE 1/2", "PLO 2/5"]  # 5/10 has no dealer
    names = [e["name"] for e in data["games"][0]["waitlist"]]
    assert names == ["Ace Max", "A.M.K."]
    text = repr(data)
    assert "Keller" not in text and "Player 1" not in text and "+41" not in text
    # two players seated at a room that asks for three: not running any more
    room.running_min_players = 3
    room.save()
    r.leave_seat(games["PLO 2/5"][1].id, 1)
    assert [g["name"] for g in remote.public_room(room)["games"]] == ["NLHE 1/2"]


# --- Web Push, up to the request against a local endpoint ----------------------------------------------------


class _PushService(http.server.BaseHTTPRequestHandler):
    received: list[tuple[str, dict, bytes]] = []
    got = threading.Event()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        _PushService.received.append((self.path, dict(self.headers), body))
        self.send_response(201)
        self.end_headers()
        _PushService.got.set()

    def log_message(self, *args):
        pass


@pytest.fixture
def push_endpoint():
    _PushService.received = []
    _PushService.got = threading.Event()
    server = http.server.HTTPServer(("127.0.0.1", 0), _PushService)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/push/abc"
    server.shutdown()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _vapid_and_subscription_keys(settings):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid01

    vapid = Vapid01()
    vapid.generate_keys()
    pem = vapid.private_pem().decode()
    settings.POKERFLOOR_VAPID_PRIVATE_KEY = pem
    browser_key = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = browser_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return _b64(p256dh), _b64(b"0123456789abcdef")


def test_a_call_is_pushed_to_the_phones_subscription(room, settings, push_endpoint, django_capture_on_commit_callbacks):
    room, games = room
    session = join(room, games, names=("NLHE 1/2",))
    p256dh, auth = _vapid_and_subscription_keys(settings)
    session.push_subscriptions.create(endpoint=push_endpoint, p256dh=p256dh, auth=auth)
    with django_capture_on_commit_callbacks(execute=True):
        call = _open_seat(games, "NLHE 1/2")
    assert _PushService.got.wait(15), "no push request reached the local push service"
    path, headers, body = _PushService.received[0]
    assert path == "/push/abc"
    headers = {k.lower(): v for k, v in headers.items()}
    assert re.match(r"vapid t=[\w-]+\.[\w-]+\.[\w-]+, ?k=[\w-]+$", headers["authorization"])
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) >= 60
    assert len(body) > 86 and b"NLHE" not in body  # encrypted payload
    assert send_call(call.id) == 1  # sent again, synchronously: accepted


def test_no_push_without_vapid_keys(room, settings, push_endpoint):
    room, games = room
    settings.POKERFLOOR_VAPID_PRIVATE_KEY = ""
    session = join(room, games, names=("NLHE 1/2",))
    session.push_subscriptions.create(endpoint=push_endpoint, p256dh="x", auth="y")
    call = _open_seat(games, "NLHE 1/2")
    assert send_call(call.id) == 0 and not _PushService.received
