"""The cash floor in a real browser against a real daphne: a walk-in goes
from the waitlist through the call, accept, seat and buy-in to the first
hand on the tablet, while the lobby screen (1920×1080, no login) follows
every step live, without a reload.

Screenshots (artifacts/): lobby-1920x1080 (player called, countdown
running), room-dashboard-1280x800.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from room import services as r
from tables import services
from tests.browser.conftest import off_loop, screenshot
from tests.browser.waits import hold_answers, login_to, release_answers

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 2_000  # ms: a floor change must reach the lobby screen within this time


@pytest.fixture
def casino(dealer, floorman, roles):
    """Room "casino": NLHE 1/2 (buy-in 40..200), Main 1 (3 seats, full, dealt by ``dealer``); a display link."""
    from django.contrib.auth.models import User

    manager = User.objects.create_user("manager", password="pw-manager")
    manager.groups.add(roles["manager"])
    room = off_loop(r.create_room, "casino", "Casino Bregenz", call_seconds=300)
    game = off_loop(r.create_game, room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = off_loop(r.open_table, game.id, "Main 1", max_seats=3, dealer=dealer)
    for seat, name in [(1, "Anna"), (2, "Ben"), (3, "Clara")]:
        off_loop(services.seat_player, table.id, seat, name, 0)
        off_loop(r.buy_in, table.id, seat, 100)
    display = off_loop(r.create_display, room.id, actor=manager, label="TV")
    return {"game": game, "table": table, "token": display.token}


def test_a_walk_in_goes_from_the_waitlist_to_the_first_hand_seen_live_on_the_lobby(casino, new_page):
    tid = casino["table"].id
    lobby = new_page((1920, 1080))
    lobby.goto(f"/lobby/{casino['token']}/")  # no login
    expect(lobby.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    game = lobby.locator(".lobby-game")
    expect(game.locator("h2")).to_have_text("NLHE 1/2")
    expect(game.locator('[data-f="open"]')).to_have_text("Full")
    lobby.evaluate("window.__sameDocument = 'yes'")  # gone if the page reloads

    floor = new_page((1280, 800))
    login_to(floor, "floor", "pw-floor", "/room/casino/")
    expect(floor.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")

    # walk-in: Zoe goes on the list; the table is full, so she waits
    floor.fill('form[data-form="waitlist"] input[name="name"]', "Zoe")
    floor.click('form[data-form="waitlist"] button[type="submit"]')
    expect(floor.locator('[data-f="waitlist"]')).to_contain_text("Zoe")
    expect(game.locator(".lobby-list.waitlist li")).to_have_text(["Zoe"], timeout=LIVE)

    # Clara leaves: the seat opens and Zoe is called with the room's countdown
    seat3 = floor.locator(f'.room-table[data-table-id="{tid}"] .rseat[data-seat="3"]')
    asked = []
    floor.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    seat3.locator('button[data-op="leave"]').click()  # a confirm names the player and the cash-out
    expect(floor.locator("li.call")).to_contain_text("Zoe")
    assert "Clara" in asked[0] and "100" in asked[0], asked
    expect(floor.locator("#log")).to_contain_text("Clara left seat 3 at Main 1, cashed out 100")
    expect(game.locator(".call-name")).to_have_text("Zoe", timeout=LIVE)
    expect(game.locator(".call-where")).to_have_text("Main 1 · seat 3")
    expect(game.locator(".call-count")).to_have_text(re.compile(r"^(5:00|4:5\d)$"))
    expect(game.locator('[data-f="open"]')).to_have_text("1 open seat")
    screenshot(lobby, "lobby-1920x1080")

    # accept: Zoe takes seat 3, then buys in (below the minimum is refused first)
    floor.locator('li.call button[data-op="accept"]').click()
    expect(seat3).to_contain_text("Zoe")
    expect(game.locator(".lobby-calls")).to_have_count(0, timeout=LIVE)
    expect(game.locator(".lobby-list.waitlist")).to_have_count(0)
    expect(game.locator(".lobby-empty").first).to_be_visible()
    seat3.locator("input.amount").fill("30")
    seat3.locator('button[data-op="buy_in"]').click()
    expect(floor.locator('[data-field="error"]')).to_contain_text("at least 40")
    seat3.locator("input.amount").fill("120")
    seat3.locator('button[data-op="buy_in"]').click()
    expect(seat3.locator('[data-f="stack"]')).to_have_text("120")
    screenshot(floor, "room-dashboard-1280x800")

    # the dealer starts the first hand with Zoe dealt in
    tablet = new_page((1280, 800))
    login_to(tablet, "dealer", "pw-dealer", f"/tables/{tid}/dealer/")
    expect(tablet.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    tablet.locator('[data-action="start"]').click()
    expect(tablet.locator('[data-field="hand-no"]')).to_contain_text("1")
    expect(tablet.locator('.seat[data-seat="3"]')).to_contain_text("Zoe")
    hand = casino["table"].hands.get()
    assert [s["player"] for s in hand.spec["seats"]] == ["Ben", "Zoe", "Anna"]
    assert lobby.evaluate("window.__sameDocument") == "yes"


def test_the_next_name_typed_while_the_last_is_put_on_the_list_is_kept(casino, new_page):
    """A line of walk-ins: the floorman types the next name while the last one's answer is on its way.
    The late answer clears the name box only if it still holds the name sent (before, it wiped the next
    name; the live update of the list keeps what is typed)."""
    floor = new_page((1280, 800))
    login_to(floor, "floor", "pw-floor", "/room/casino/")
    expect(floor.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    hold_answers(floor)
    name = floor.locator('form[data-form="waitlist"] input[name="name"]')
    name.fill("Zoe")
    name.press("Enter")
    expect(floor.locator('[data-f="waitlist"]')).to_contain_text("Zoe")  # the live update came first
    floor.locator('form[data-form="waitlist"] input[name="name"]').fill("Yann")
    release_answers(floor)
    expect(floor.locator('form[data-form="waitlist"] input[name="name"]')).to_have_value("Yann")
    floor.locator('form[data-form="waitlist"] input[name="name"]').press("Enter")
    expect(floor.locator('[data-f="waitlist"]')).to_contain_text("Yann")
    expect(floor.locator('form[data-form="waitlist"] input[name="name"]')).to_have_value("")
