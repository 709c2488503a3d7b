"""A lost network shows within 5 s (issue 24, finding 6): with the socket silently dropping frames (a
Playwright WebSocket route that stops forwarding), every live page (tablet, floor, room, lobby TV,
tournament director and TV) stops saying "Live" within 5 s; when the frames flow again it reconnects, and
the tablet's action whose answer was lost is applied once."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from room import services as r
from tables import services
from tables.models import HandEvent
from tests.browser.conftest import off_loop
from tests.browser.waits import login_to, pad_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WS = re.compile(r".*/ws/.*")


class Network:
    """The page's websockets through a route that forwards frames both ways; with ``drop_in`` the frames
    to the page are dropped without a word, with ``drop_out`` those to the server (neither side sees a
    close)."""

    def __init__(self, page) -> None:
        self.drop_in = self.drop_out = False
        page.route_web_socket(WS, self.route)

    def route(self, ws) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda message: None if self.drop_out else server.send(message))
        server.on_message(lambda message: None if self.drop_in else ws.send(message))

    def silent(self, on: bool = True) -> None:
        self.drop_in = self.drop_out = on


def _night(dealer, manager):
    """A room with one table dealt by ``dealer`` (a hand running) and a lobby display; a tournament."""
    from tournaments import services as t

    room = r.create_room("casino", "Casino", call_seconds=300)
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, "Main 1", max_seats=6, dealer=dealer)
    for seat, name in ((1, "Anna"), (2, "Ben"), (3, "Clara")):
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 100)
    services.start_hand(table.id)
    display = r.create_display(room.id, actor=manager, label="TV")
    levels = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}
    tourney = t.create_tournament("Sunday", "munotpoker", levels, starting_stack=1000)
    return {"table": table, "token": display.token, "tourney": tourney}


@pytest.fixture
def night(dealer, floorman, roles):
    from django.contrib.auth.models import User

    manager = User.objects.create_user("manager", password="pw-manager")
    manager.groups.add(roles["manager"])
    return off_loop(_night, dealer, manager)


PAGES = {
    # page: (url, login, how its connection state is read)
    "tablet": ("/tables/{table}/dealer/", "dealer", "document.querySelector('[data-field=conn]').dataset.state"),
    "floor": ("/floor/", "floor", "document.querySelector('[data-field=conn]').dataset.state"),
    "room": ("/room/casino/", "floor", "document.querySelector('[data-field=conn]').dataset.state"),
    "lobby": ("/lobby/{token}/", None, "document.querySelector('[data-field=conn]').dataset.state"),
    "director": ("/tournaments/{tourney}/", "floor", "document.querySelector('[data-conn]').dataset.conn"),
    "tv": ("/tournaments/lobby/{public}/", None, "document.querySelector('[data-conn]').dataset.conn"),
}


def actions() -> int:
    return HandEvent.objects.filter(kind="action").count()


def test_every_live_page_shows_a_silent_network_within_five_seconds(night, new_page):
    table, tourney = night["table"], night["tourney"]
    pages = {}
    for name, (url, user, how) in PAGES.items():
        page = new_page((1280, 800))
        net = Network(page)
        path = url.format(table=table.id, token=night["token"], tourney=tourney.id, public=tourney.public_token)
        if user:
            login_to(page, user, f"pw-{user}", path)
        else:
            page.goto(path)
        page.wait_for_function(f"() => {{ try {{ return ({how}) === 'open'; }} catch (e) {{ return false; }} }}")
        pages[name] = (page, net, how)
    before = actions()

    # the network goes silent under every page at once: each stops saying "Live" within 5 s
    started = time.monotonic()
    for _, net, _ in pages.values():
        net.silent()
    offline_after = {}
    while len(offline_after) < len(pages) and time.monotonic() - started < 10:
        for name, (page, _net, how) in pages.items():
            if name not in offline_after and page.evaluate(f"() => ({how})") != "open":
                offline_after[name] = round(time.monotonic() - started, 2)
        time.sleep(0.05)
    assert set(offline_after) == set(pages), offline_after
    assert max(offline_after.values()) < 5.0, offline_after
    tablet = pages["tablet"][0]
    expect(tablet.locator("#dealer")).to_have_attribute("data-conn", re.compile(r"closed|connecting"))

    # the frames flow again: every page reconnects and is live
    for _, net, _ in pages.values():
        net.silent(False)
    for page, _net, how in pages.values():
        page.wait_for_function(f"() => ({how}) === 'open'", timeout=20_000)
    assert actions() == before


def test_the_tablets_call_whose_answer_was_lost_is_applied_once(night, new_page):
    table = night["table"]
    page = new_page((1280, 800))
    net = Network(page)
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    pad_ready(page)  # the pad settles after the snapshot
    before = actions()
    # only the answers are lost: the call reaches the server, its ack and update never come back
    net.drop_in = True
    started = time.monotonic()
    page.locator('[data-action="call"]').click()
    expect(page.locator('[data-field="conn"]')).not_to_have_attribute("data-state", "open", timeout=5000)
    assert time.monotonic() - started < 5.0
    net.drop_in = False
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=20_000)
    expect(page.locator("#dealer")).not_to_have_class(re.compile(r"\bbusy\b"), timeout=10_000)
    page.wait_for_timeout(1000)
    assert actions() == before + 1  # re-sent after the reconnect with its client_id: applied once
