"""Seven Card Stud on the dealer tablet and the floor dashboard in a real
browser: the dealer deals third street with one door card not entered
(unknown), names who brings in, the bring-in is completed and called, fourth
street gives Clara an open pair (the small or the big bet, 000 Aktionen 3),
and the floor tile shows the street and each player's up cards.

Screenshots: artifacts/screenshots/stud/ (tablet 1280x800 and 800x1280,
floor 1280x800; German and English).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from room import services as floor_room
from tables import services
from tables.models import Table
from tests.browser.conftest import ARTIFACTS, off_loop, settled, tap
from tests.browser.waits import login_to, pad_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "en": {"third": "Third street", "fourth": "Fourth street", "bring_in": "Bring-in 1", "complete": "Complete to 4"},
    "de": {
        "third": "Third Street",
        "fourth": "Fourth Street",
        "bring_in": "Bring-in 1",
        "complete": "Komplettieren auf 4",
    },
}


def stud_table(dealer):
    """Stud 1/4 (bring-in 1, small bet 4, big bet 8), ante 1: Anna 1, Ben 2, Clara 3 with 100 each."""
    room = floor_room.create_room("stud-room", "Stud room")
    game = floor_room.create_game(
        room.id, "Stud 4/8", variant="stud", small_blind=1, big_blind=4, min_buy_in=40, max_buy_in=200
    )
    table = floor_room.open_table(game.id, "Stud 1", max_seats=8, dealer=dealer)
    Table.objects.filter(pk=table.id).update(ante=1)
    for seat, name in ((1, "Anna"), (2, "Ben"), (3, "Clara")):
        services.seat_player(table.id, seat, name, 0)
        floor_room.buy_in(table.id, seat, 100)
    return table


def tablet(new_page, table, viewport, locale):
    page = new_page(viewport, locale=locale)
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    return page


def bet(page, selector):
    """A betting tap once the pad has settled after the player to act changed (a double tap is dropped)."""
    pad_ready(page)
    tap(page, selector)


def enter(page, seat, *cards):
    """Tap the seat's row, then its cards ("??": the unknown-card button)."""
    page.locator(f'[data-stud-seat="{seat}"]').click()
    for card in cards:
        if card == "??":
            page.locator('[data-stud="unknown"]').click()
        else:
            page.locator(f'[data-picker="stud"] .pick[data-card="{card}"]').click()


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_stud_dealt_with_an_unknown_door_card_to_fourth_street(dealer, floorman, new_page, locale):
    lang = locale[:2]
    words = TEXTS[lang]
    shots = ARTIFACTS / "screenshots" / "stud"
    shots.mkdir(parents=True, exist_ok=True)
    table = off_loop(stud_table, dealer)

    floor = new_page((1280, 800), locale=locale)
    login_to(floor, "floor", "pw-floor", "/floor/")
    expect(floor.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    tile = floor.locator(f'.tile[data-table-id="{table.id}"]')

    page = tablet(new_page, table, (1280, 800), locale)
    tap(page, '[data-action="start"]')
    stud = page.locator('[data-view="stud"]')
    expect(stud).to_be_visible()

    # third street: Anna's door card is not entered, so the dealer names who brings in (Ben's 2c)
    enter(page, 1, "As", "Ks", "??")
    enter(page, 2, "7h", "7d", "2c")
    enter(page, 3, "Jc", "Jd", "Th")
    deal = page.locator('[data-stud="deal"]')
    expect(deal).to_be_disabled()
    page.locator('[data-stud="opener"][data-seat="2"]').click()
    page.screenshot(path=str(shots / f"tablet-third-street-deal-1280x800-{lang}.png"))
    tap(page, '[data-stud="deal"]')

    expect(stud.locator("h2")).to_have_text(words["third"])
    expect(page.locator('[data-field="stud-actor"]')).to_contain_text("Ben")
    expect(page.locator('[data-stud="bring_in"]')).to_have_text(words["bring_in"])
    expect(page.locator('[data-stud="fold"]')).to_have_count(0)  # the bring-in is due: no fold
    expect(page.locator('.seat[data-seat="2"] .seat-cards [data-card="2c"]')).to_be_visible()  # up card on the felt
    expect(page.locator('.seat[data-seat="2"] .seat-cards [data-card="7h"]')).to_have_count(0)  # down cards are not
    bet(page, '[data-stud="bring_in"]')
    expect(page.locator('[data-stud="complete"]')).to_have_text(words["complete"])
    # a double tap on the completion: the second tap is dropped, not taken as the next player's action
    pad_ready(page)
    page.locator('[data-stud="complete"]').dblclick()
    settled(page)
    expect(page.locator('[data-stud="call"]')).to_have_text("Call 4" if lang == "en" else "Mitgehen 4")
    bet(page, '[data-stud="call"]')
    bet(page, '[data-stud="call"]')

    # fourth street: Clara pairs her tens and acts first (Anna's unknown door card: the dealer names her)
    expect(stud.locator("h2")).not_to_have_text(words["third"])
    enter(page, 1, "Js")
    enter(page, 2, "3d")
    enter(page, 3, "Ts")
    page.locator('[data-stud="opener"][data-seat="3"]').click()
    tap(page, '[data-stud="deal"]')
    expect(stud.locator("h2")).to_have_text(words["fourth"])
    expect(page.locator('[data-field="stud-actor"]')).to_contain_text("Clara")
    small, big = page.locator('[data-stud="bet"]').nth(0), page.locator('[data-stud="bet"]').nth(1)
    expect(small).to_contain_text("4")
    expect(big).to_contain_text("8")
    page.screenshot(path=str(shots / f"tablet-fourth-street-1280x800-{lang}.png"))
    portrait = tablet(new_page, table, (800, 1280), locale)
    expect(portrait.locator('[data-stud="bet"]')).to_have_count(2)
    portrait.screenshot(path=str(shots / f"tablet-fourth-street-800x1280-{lang}.png"), full_page=True)

    # the floor tile: the street and every player's up cards instead of a board
    expect(tile.locator('[data-f="street"]')).to_have_text(words["fourth"])
    expect(tile.locator('[data-f="pot"]')).to_have_text("15")
    for seat, cards in ((1, ("??", "Js")), (2, ("2c", "3d")), (3, ("Th", "Ts"))):
        up = tile.locator(f'.stud-up[data-seat="{seat}"] .card')
        expect(up).to_have_count(2)
        for i, card in enumerate(cards):
            expect(up.nth(i)).to_have_attribute("data-card", card)
    expect(tile.locator('[data-f="to-act"]')).to_contain_text("Clara")
    tile.screenshot(path=str(shots / f"floor-tile-{lang}.png"))
    floor.screenshot(path=str(shots / f"floor-1280x800-{lang}.png"))

    # Clara takes the big bet: the hand goes on at 8
    bet(page, '[data-stud="bet"] >> nth=1')
    expect(page.locator('[data-stud="call"]')).to_have_text("Call 8" if lang == "en" else "Mitgehen 8")
