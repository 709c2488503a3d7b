"""The public room endpoints (issue 29) against hostile input (Hypothesis, ``tests/hostile.py``): the pages
and feeds with bad paths and parameters, the join and code forms with broken fields, the phone's answer
and push bodies, and the phone socket's frames.  No server error; a refused request changes nothing; and
no page or feed shows more of a player than initials or a nickname."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from hypothesis import given, settings
from hypothesis import strategies as st

from room import services as r
from room import sms
from room.services import remote
from tables import services
from tests import hostile
from tests.test_hostile_input import SETTINGS, error_log, report, run_socket_session  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

PHONE_ANSWER = (
    "answer",
    {
        "on_my_way": [("entry_id", "id", True)],
        "more_time": [("entry_id", "id", True)],
        "leave": [("entry_id", "id", True)],
    },
    ["explode", "seat", "accept"],
)
PUSH = (
    None,
    {
        None: [
            ("endpoint", ("lit", ("https://push.example.invalid/a", "http://127.0.0.1:9/x")), True),
            ("keys", ("nested", (None, {None: [("p256dh", "name", True), ("auth", "name", True)]}, [])), True),
        ]
    },
    [],
)


def world_state() -> tuple:
    """What a refused request must leave unchanged."""
    from room.models import Call, PushSubscription, QueueEntry, RemoteEntry, RemoteSession, Room, RoomLog

    return (
        list(Room.objects.values_list("id", "seq")),
        list(QueueEntry.objects.order_by("id").values_list("id", "status", "joined_at")),
        list(Call.objects.order_by("id").values_list("id", "status", "deadline")),
        list(RemoteSession.objects.order_by("id").values_list("id", "attempts", "verified_at")),
        list(RemoteEntry.objects.order_by("id").values_list("id", "on_my_way_at", "more_time_used")),
        PushSubscription.objects.count(),
        RoomLog.objects.count(),
    )


@pytest.fixture
def world(dealer, floorman, settings):
    """Room "casino": NLHE 1/2 running (3 seats full, one walk-in "Anna Maria Keller" waiting) and a
    remote player "Ace Max" (phone +41 79 123 45 67) on its list; NLHE 5/10 without a dealer."""
    settings.POKERFLOOR_SMS_BACKEND = "room.sms.LocmemSMSBackend"
    cache.clear()
    room = r.create_room("casino", "Casino", call_seconds=300)
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, "Main 1", max_seats=3, dealer=dealer)
    for seat, name in [(1, "Bruno Seated"), (2, "Carla Seated"), (3, "Dora Seated")]:
        services.seat_player(table.id, seat, name, 0)
    quiet = r.create_game(room.id, "NLHE 5/10", small_blind=5, big_blind=10, min_buy_in=200, max_buy_in=1000)
    r.open_table(quiet.id, "Quiet 1", max_seats=3)
    r.add_to_waitlist(game.id, "Anna Maria Keller")
    room.refresh_from_db()
    session = remote.start_join(room, [game.id], "Ace Max", "+41 79 123 45 67", client="10.0.0.1")
    code = re.search(r"\b(\d{6})\b", sms.outbox[-1][1]).group(1)
    remote.confirm_code(session.token, code)
    pending = remote.start_join(room, [game.id], "Pending", "+41 79 000 00 00", client="10.0.0.1")
    entry_id = session.entries.get().entry_id
    return {"room": room, "game": game, "quiet": quiet, "session": session, "pending": pending, "entry": entry_id}


PRIVATE = (
    "Keller",
    "Anna Maria",
    "Seated",
    "791234567",
    "79 123 45 67",
    "Pending",
)  # (a form shows back its own input)


def _no_personal_data(text: str) -> None:
    for word in PRIVATE:
        assert word not in text, f"{word!r} shown publicly"


def test_the_public_pages_and_feeds_show_running_games_and_no_personal_data(world, client):
    slug = world["room"].slug
    page = client.get(f"/p/{slug}/").content.decode()
    feed = client.get(f"/p/{slug}/feed.json").json()
    ics = client.get(f"/p/{slug}/tournaments.ics")
    assert ics.status_code == 200 and ics["Content-Type"].startswith("text/calendar")
    assert [g["name"] for g in feed["games"]] == ["NLHE 1/2"]
    assert [e["name"] for e in feed["games"][0]["waitlist"]] == ["A.M.K.", "Ace Max"]
    assert "NLHE 5/10" not in page and "A.M.K." in page and "Ace Max" in page
    for text in (page, json.dumps(feed), ics.content.decode()):
        _no_personal_data(text)
    svg = client.get(f"/p/{slug}/qr.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    # a standalone image (the lobby TV's <img>) that scales whole: its namespace and a viewBox, no fixed size
    assert b'<svg xmlns="http://www.w3.org/2000/svg" viewBox=' in svg.content and b"width=" not in svg.content
    assert b"<svg" in client.get(f"/p/{slug}/poster/").content


def test_the_public_endpoints_survive_hostile_requests(world, client, error_log, capsys):  # noqa: F811
    counts: Counter = Counter()
    client.raise_request_exception = False
    slug, token = world["room"].slug, world["session"].token
    pending = world["pending"].token
    ids = [world["game"].id, world["quiet"].id, world["entry"] + 1000]
    # what a form can carry (a lone surrogate cannot be encoded into a request; its bytes arrive as U+FFFD)
    text = st.one_of(
        hostile.HOSTILE_STRINGS.filter(lambda v: not any("\ud800" <= c <= "\udfff" for c in v)),
        hostile.SAFE_TEXT,
        st.just("x" * 5000),
        st.just("+41 79 1"),
        st.just("\ufffd\ufffd"),
    )
    get_paths = [
        "/p/{slug}/",
        "/p/{slug}/feed.json",
        "/p/{slug}/tournaments.ics",
        "/p/{slug}/qr.svg",
        "/p/{slug}/poster/",
        "/p/{slug}/me/{token}/",
        "/p/{slug}/code/{token}/",
        "/p/{slug}/arrive/{token}/",
    ]

    def check(response, what, before):
        counts["requests"] += 1
        if response.status_code >= 500:
            counts["server_errors"] += 1
        assert response.status_code < 500, what
        _no_personal_data(response.content.decode("utf-8", "replace") if response.status_code != 302 else "")
        assert world_state() == before, f"a hostile request changed the state: {what}"

    @settings(SETTINGS, max_examples=60)
    @given(
        path=st.sampled_from(get_paths),
        some_slug=st.sampled_from([slug, "nope", "x" * 200, "casino-"]),
        some_token=st.one_of(st.sampled_from([token, "x", "a" * 300, "%00", "%ED%A0%80"]), hostile.SAFE_TEXT),
        query=st.dictionaries(st.sampled_from(["part", "q", "page"]), text, max_size=2),
        form=st.fixed_dictionaries(
            {},
            optional={
                "game": st.lists(
                    st.one_of(st.sampled_from([str(i) for i in ids]), st.integers(-(2**70), 2**70).map(str), text),
                    max_size=12,
                ),
                "nickname": text,
                "contact": text,
                "code": text,
            },
        ),
        join_ok=st.booleans(),
    )
    def run(path, some_slug, some_token, query, form, join_ok):
        from urllib.parse import quote

        before = world_state()
        url = path.format(slug=some_slug, token=quote(some_token, safe="%") or "x")
        check(client.get(url, query), url, before)
        # the join form with at least one broken field (a good join would change the state)
        bad = dict(form)
        bad.setdefault("nickname", "\x00")
        if join_ok:
            bad["game"] = [str(world["quiet"].id)]  # not running
        check(client.post(f"/p/{slug}/join/", bad), f"join {bad!r}", before)
        # a code that is wrong, for a pending join, is counted: only the attempts change there
        if "code" in form and not form["code"].isdigit():
            check(client.post(f"/p/{slug}/code/{pending}/", {"code": form["code"]}), "code", before)

    run()

    @settings(SETTINGS, max_examples=60)
    @given(
        which=st.sampled_from(["answer", "push"]),
        data=st.data(),
    )
    def bodies(which, data):
        spec = PHONE_ANSWER if which == "answer" else PUSH
        item, invalid = data.draw(hostile.messages(spec, ids))
        if which == "push" and not invalid:
            item = {"endpoint": "ftp://x", "keys": item.get("keys")}  # refused: not http(s)
        before = world_state()
        response = client.post(
            f"/p/{slug}/me/{token}/{which}/", hostile.encode(item, 0), content_type="application/json"
        )
        counts["requests"] += 1
        assert response.status_code == 400, (item, response.content[:300])
        body = response.json()
        assert body["ok"] is False
        if invalid:
            assert body["code"] == "invalid", (item, body)
        counts["refused_" + body["code"]] += 1
        assert world_state() == before

    bodies()
    _check = [rec.getMessage() for rec in error_log.records]
    assert not _check, _check
    report(capsys, "public endpoints", counts)


def test_the_phone_socket_survives_hostile_frames(world, error_log, capsys):  # noqa: F811
    counts: Counter = Counter()
    spec = ("type", {"snapshot": []}, ["explode", "answer", "op", "on_my_way"])

    @settings(SETTINGS, max_examples=15)
    @given(batch=st.lists(hostile.messages(spec, []), min_size=1, max_size=10))
    def run(batch):
        run_socket_session(f"/ws/phone/{world['session'].token}/", AnonymousUser(), batch, counts)

    run()
    assert not error_log.records, [rec.getMessage() for rec in error_log.records]
    report(capsys, "phone socket", counts)
