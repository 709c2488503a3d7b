"""Pot-Limit Omaha on the dealer tablet in a real browser: a show takes
four hole cards, and the engine reads each hand with exactly two of them.

The board As Ks Qs Js 2d gives Anna's Ts a royal flush in Hold'em; in Omaha
she must use two hole cards and three from the board, so Ben's pair of
nines wins.  Screenshot: artifacts/tablet-omaha-showdown.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from room import services as floor_room
from tables import services
from tables.models import Hand
from tests.browser.conftest import off_loop, screenshot, tap
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def omaha_table(dealer):
    room = floor_room.create_room("omaha-room", "Omaha room")
    game = floor_room.create_game(
        room.id, "PLO 1/2", variant="plo", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200
    )
    table = floor_room.open_table(game.id, "PLO 1", max_seats=6, dealer=dealer)
    for seat, name in ((1, "Anna"), (2, "Ben")):
        services.seat_player(table.id, seat, name, 0)
        floor_room.buy_in(table.id, seat, 100)
    return table


def pick(page, *cards):
    for card in cards:
        page.locator(f'[data-picker="show"] .pick[data-card="{card}"]').click()


def test_an_omaha_showdown_takes_four_cards_and_plays_exactly_two(dealer, new_page):
    table = off_loop(omaha_table, dealer)
    page = new_page((1280, 900))
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    tap(page, '[data-action="start"]')
    tap(page, '[data-action="call"]')  # heads-up: the button (small blind) completes
    tap(page, '[data-action="check"]')  # the big blind
    for cards in ("AsKsQs", "Js", "2d"):
        page.locator('[data-field="board-text"]').fill(cards)
        tap(page, '[data-action="board"]')
        tap(page, '[data-action="check"]')
        tap(page, '[data-action="check"]')

    anna = page.locator('.sd-row[data-seat="1"]')
    anna.locator(".sd-who").click()
    pick(page, "Ts", "3c")
    expect(page.locator('[data-action="show"][data-seat="1"]')).to_be_disabled()  # two of four
    pick(page, "4c", "5c")
    expect(anna.locator(".sd-cards .card")).to_have_count(4)
    tap(page, '[data-action="show"][data-seat="1"]')

    page.locator('.sd-row[data-seat="2"] .sd-who').click()
    page.locator('[data-field="show-text"]').fill("9h9d8c8dKc")  # typed: a fifth card is cut off
    expect(page.locator('.sd-row[data-seat="2"] .sd-cards .card')).to_have_count(4)
    tap(page, '[data-action="show"][data-seat="2"]')

    expect(page.locator(".winners")).to_have_text(re.compile(r"Ben \(2\) wins 4\b"))
    screenshot(page, "tablet-omaha-showdown")
    hand = Hand.objects.get(table_id=table.id)
    shows = [e.payload for e in hand.events.order_by("index") if e.payload.get("type") == "show"]
    assert [(s["seat"], s["cards"]) for s in shows] == [(1, "Ts3c4c5c"), (2, "9h9d8c8d")]
