"""The dealer tablet in a real browser: a mistaken fold taken back (and flagged on an open floor
dashboard), a double tap that records one action, the keypad's first digit replacing the prefilled
minimum, and what the felt shows mid-round.

Screenshots (artifacts/): tablet-undo-sheet, tablet-undo-floor, tablet-double-tap, tablet-keypad-6,
tablet-midround, and artifacts/screenshots/tablet/ (1280x800 and 800x1280, German and English).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import HandEvent, Table
from tests.browser.conftest import login, off_loop, screenshot, settled
from tests.browser.waits import house_double_tap, login_to, pad_ready, same_login
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(dealer, floorman):
    """A 1/2 table dealt by ``dealer``: Anna 1, Ben 3, Clara 5, David 7 (David is first to act)."""
    table = off_loop(services.create_table, "Table 1", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 260)]:
        off_loop(services.seat_player, table.id, seat, name, stack)
    return Table.objects.get(pk=table.id)


def tablet(new_page, table, viewport=(1280, 800), locale="en-US", like=None):
    """The dealer's tablet; ``like``: a tablet whose login this one shares (the same dealer)."""
    page = new_page(viewport, locale=locale)
    if like is None:
        login(page, "dealer", "pw-dealer")
    else:
        same_login(page, like)
    page.goto(f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    return page


def start(page):
    page.locator('[data-action="start"]').click()
    settled(page)
    expect(page.locator('[data-field="actor"]')).to_contain_text("David")
    pad_ready(page)  # the pad settles after the player to act changed


def actions_recorded():
    return HandEvent.objects.filter(kind="action").count()


def test_a_mistaken_fold_is_undone_and_flagged_on_the_floor(table, new_page):
    floor = new_page((1280, 800))
    login_to(floor, "floor", "pw-floor", "/floor/")
    floor.locator('.view-toggle [data-view="map"]').click()  # a small room opens on tiles
    row = floor.locator(f'.map-row[data-table-id="{table.id}"]')
    expect(row).to_be_visible()

    page = tablet(new_page, table)
    start(page)
    page.locator('[data-action="fold"]').click()  # the dealer meant "call"
    settled(page)
    expect(page.locator('[data-field="actor"]')).to_contain_text("Anna")

    page.locator('[data-action="undo-open"]').click()
    sheet = page.locator("#sheet-undo")
    expect(sheet).to_be_visible()
    first = sheet.locator(".undo-row").first
    expect(first).to_contain_text("David (7) folds")
    expect(first.locator(".cite").first).to_have_text("TDA 2024 Rule 49")
    screenshot(page, "tablet-undo-sheet")
    first.locator('[data-action="undo-send"]').click()
    settled(page)
    expect(sheet).to_be_hidden()
    expect(page.locator('[data-field="actor"]')).to_contain_text("David")
    expect(page.locator('.seat[data-seat="7"]')).not_to_have_class("folded")
    pad_ready(page)
    page.locator('[data-action="call"]').click()
    settled(page)
    expect(page.locator('[data-field="actor"]')).to_contain_text("Anna")

    # the floor dashboard: the map row and the tile say the hand was corrected at the table
    expect(row.locator('[data-f="alert"]')).to_contain_text("Corrected at the table")
    row.locator(".map-open").click()
    tile = floor.locator(f'.tile[data-table-id="{table.id}"]')
    expect(tile).to_have_class(re.compile(r"\bundone\b"))
    expect(tile.locator(".tag-undone")).to_have_text("Corrected at the table")
    screenshot(floor, "tablet-undo-floor")

    # Anna calls too: David's call stands now (the next player acted), the sheet says why
    pad_ready(page)
    page.locator('[data-action="call"]').click()
    settled(page)
    page.locator('[data-action="undo-open"]').click()
    rows = page.locator("#sheet-undo .undo-row")
    expect(rows).to_have_count(2)
    expect(rows.first.locator('[data-action="undo-send"]')).to_be_visible()
    expect(rows.nth(1)).to_contain_text("David (7) calls")
    expect(rows.nth(1)).to_contain_text("The next player has acted")
    expect(rows.nth(1).locator('[data-action="undo-send"]')).to_have_count(0)
    page.locator('#sheet-undo [data-action="sheet-close"]').click()


def test_a_double_tap_records_one_action(table, new_page):
    page = tablet(new_page, table)
    house_double_tap(page)  # the room's default guard, 400 ms (the test server's is shorter)
    start(page)
    before = actions_recorded()
    # two taps on Fold 250 ms apart (timed in the page, not by the test's round trips): both meant for David
    page.evaluate(
        """() => new Promise((done) => {
            const fold = document.querySelector('[data-action="fold"]');
            fold.click();
            setTimeout(() => { document.querySelector('[data-action="fold"]').click(); done(); }, 250);
        })"""
    )
    pad_ready(page)  # a second action sent would be answered (and recorded) by now
    assert actions_recorded() == before + 1
    expect(page.locator('[data-field="actor"]')).to_contain_text("Anna")
    expect(page.locator('.seat[data-seat="1"]')).not_to_have_class("folded")
    screenshot(page, "tablet-double-tap")


def test_typing_6_gives_raise_to_6(table, new_page):
    page = tablet(new_page, table)
    start(page)
    amount = page.locator('[data-field="amount"]')
    expect(amount).to_have_text("4")  # the minimum raise, prefilled
    page.locator('.key[data-key="6"]').click()
    raise_button = page.locator('[data-action="raise"]')
    expect(raise_button).to_have_text("Raise to 6")
    screenshot(page, "tablet-keypad-6")
    page.locator('[data-key="back"]').click()
    page.locator('.key[data-key="3"]').click()
    expect(amount).to_have_class(re.compile(r"\bbad\b"))  # below the minimum raise
    expect(raise_button).to_be_disabled()
    page.locator('[data-key="back"]').click()
    for key in "999":
        page.locator(f'.key[data-key="{key}"]').click()
    expect(raise_button).to_be_disabled()  # above David's stack
    page.locator('[data-short="clear"]').click()
    page.locator('.key[data-key="6"]').click()
    raise_button.click()
    settled(page)
    expect(page.locator('[data-bet-seat="7"]')).to_have_text("6")


def test_a_call_of_the_whole_stack_is_one_button_with_one_number(table, new_page):
    page = tablet(new_page, table)
    start(page)
    page.locator('[data-action="all_in"]').click()  # David, 260
    settled(page)
    expect(page.locator('[data-field="actor"]')).to_contain_text("Anna")
    expect(page.locator('[data-action="call"]')).to_have_text("Call: all-in 200")
    expect(page.locator('[data-field="to-call"]')).to_have_text("200")  # the same number
    expect(page.locator('[data-action="all_in"]')).to_be_hidden()


def midround(page):
    """David raises to 18 (typed), Anna calls, Clara folds out of turn (held: a notice in the panel)."""
    start(page)
    for key in "18":
        page.locator(f'.key[data-key="{key}"]').click()
    page.locator('[data-action="raise"]').click()
    settled(page)
    pad_ready(page)
    page.locator('[data-action="call"]').click()
    settled(page)
    pad_ready(page)
    page.locator('.seat[data-seat="5"]').click()
    page.locator('#sheet-oot [data-oot="fold"]').click()
    settled(page)


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_felt_mid_round_after_a_hand_and_after_a_misdeal(table, new_page, locale):
    shots = ARTIFACTS / "screenshots" / "tablet"
    shots.mkdir(parents=True, exist_ok=True)
    lang = locale[:2]
    page = tablet(new_page, table, locale=locale)
    midround(page)
    # bets in front read in full above the seat boxes; mid-round the pot is one number plus the bets
    expect(page.locator('[data-bet-seat="7"]')).to_have_text("18")
    expect(page.locator('[data-bet-seat="1"]')).to_have_text("18")
    expect(page.locator('.pot[data-pot="bets"] .pot-amount')).to_have_text("39")
    expect(page.locator(".pot.side")).to_have_count(0)
    expect(page.locator('[data-field="proc-event"]')).to_be_visible()
    page.screenshot(path=str(shots / f"tablet-midround-1280x800-{lang}.png"))
    expect(page.locator('[data-action="raise"]')).to_be_in_viewport(ratio=1)
    portrait = tablet(new_page, table, viewport=(800, 1280), locale=locale, like=page)
    expect(portrait.locator('[data-bet-seat="7"]')).to_have_text("18")
    expect(portrait.locator('[data-action="raise"]')).to_be_in_viewport(ratio=1)
    portrait.screenshot(path=str(shots / f"tablet-midround-800x1280-{lang}.png"), full_page=True)
    # the undo sheet on the portrait tablet: Anna's call may be taken back, David's raise stands
    portrait.locator('[data-action="undo-open"]').click()
    rows = portrait.locator("#sheet-undo .undo-row")
    expect(rows).to_have_count(2)
    expect(rows.first.locator('[data-action="undo-send"]')).to_be_visible()
    expect(rows.nth(1).locator('[data-action="undo-send"]')).to_have_count(0)
    portrait.screenshot(path=str(shots / f"tablet-undo-800x1280-{lang}.png"))
    portrait.locator('#sheet-undo [data-action="sheet-close"]').click()
    for size in ((1920, 1080), (390, 844)):
        other = tablet(new_page, table, viewport=size, locale=locale, like=page)
        expect(other.locator('[data-bet-seat="7"]')).to_have_text("18")
        other.screenshot(path=str(shots / f"tablet-midround-{size[0]}x{size[1]}-{lang}.png"), full_page=True)

    # the rest of the hand: Ben folds (Clara's fold binds), a flop without cards, David folds to Anna;
    # no "null" under the result
    pad_ready(page)
    page.locator('[data-action="fold"]').click()
    settled(page)
    page.locator('[data-action="board-skip"]').click()
    settled(page)
    pad_ready(page)
    page.locator('[data-action="fold"]').click()
    settled(page)
    result = page.locator('[data-field="result"]')
    expect(result).to_contain_text("Anna (1)")
    assert "null" not in result.inner_text()
    page.screenshot(path=str(shots / f"tablet-result-1280x800-{lang}.png"))

    # hand 2 is declared a misdeal by a ruling: the felt shows the real button, no pot, the stacks as they are
    page.locator('[data-action="start"]').click()
    settled(page)
    hand = Table.objects.get(pk=table.id).current_hand
    button = hand.snapshot["button_seat"]
    off_loop(services.apply_corrections, table.id, [{"type": "misdeal"}], ruling_id=None)
    page.reload()
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    expect(page.locator('[data-field="next-button"]')).to_contain_text(f"{button} (")
    expect(page.locator(f'.seat[data-seat="{button}"] .tag-button')).to_be_visible()
    expect(page.locator(".pot")).to_have_count(0)
    expect(page.locator('[data-bet-seat="3"]')).to_be_hidden()
    page.screenshot(path=str(shots / f"tablet-misdeal-1280x800-{lang}.png"))
    portrait.reload()
    expect(portrait.locator('[data-field="next-button"]')).to_contain_text(f"{button} (")
    portrait.screenshot(path=str(shots / f"tablet-misdeal-800x1280-{lang}.png"), full_page=True)
    page.locator('[data-action="start"]').click()
    settled(page)
    assert Table.objects.get(pk=table.id).button_seat == button
