"""The dealer tablet's floor procedures in a real browser: on a
MunotPoker table the dealer reads one oversized chip through "Chips" (a raise
under 004 #44, shown before it is confirmed), records an out-of-turn check,
calls time and sees the countdown, calls the floor and walks a procedure.

Screenshots (artifacts/): tablet-chips-ruling, tablet-oot-time.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import Table
from tests.browser.conftest import off_loop, screenshot, settled
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def munot(dealer, floorman):
    """A MunotPoker table at 50/100 (dealt by ``dealer``), four players."""
    table = off_loop(
        services.create_table, "Munot 1", small_blind=50, big_blind=100, rules_profile="munotpoker", dealer=dealer
    )
    for seat, name in [(1, "Anna"), (3, "Ben"), (5, "Clara"), (7, "David")]:
        off_loop(services.seat_player, table.id, seat, name, 10_000)
    return Table.objects.get(pk=table.id)


def test_chips_out_of_turn_and_time_on_a_munotpoker_table(munot, new_page):
    page = new_page((1280, 800))
    login_to(page, "dealer", "pw-dealer", f"/tables/{munot.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    expect(page.locator('button[data-action="floor"]')).to_be_visible()
    page.locator('[data-action="start"]').click()
    settled(page)
    expect(page.locator('[data-field="actor"]')).to_contain_text("David")
    expect(page.locator('[data-field="substantial"]')).to_have_text("Misdeal still possible")

    # (a) one 500 chip facing only the blinds: a raise to 500 (004 #44), shown before confirming
    page.locator('button[data-action="chips"]').click()
    page.locator('.denom[data-denom="500"]').click()
    page.locator('button[data-action="chips-read"]').click()
    result = page.locator('[data-field="chips-result"]')
    expect(result.locator(".res-action")).to_have_text("Raise to 500")
    expect(result.locator(".cite", has_text="004 #44")).to_be_visible()
    expect(page.locator('[data-field="actor"]')).to_contain_text("David")  # nothing applied yet
    screenshot(page, "tablet-chips-ruling")
    page.locator('button[data-action="chips-confirm"]').click()
    settled(page)
    expect(page.locator('[data-field="actor"]')).to_contain_text("Anna")  # the hand goes on
    expect(page.locator('[data-bet-seat="7"]')).to_have_text("500")
    expect(page.locator('[data-field="to-call"]')).to_have_text("500")

    # (b) Clara (big blind) checks out of turn: recorded, held and flagged on her seat
    page.locator('.seat[data-seat="5"]').click()
    expect(page.locator("#sheet-oot")).to_be_visible()
    page.locator('#sheet-oot [data-oot="check"]').click()
    settled(page)
    expect(page.locator('.seat[data-seat="5"] .tag-oot')).to_have_text("OOT: Check")
    expect(page.locator('[data-field="proc-event"]')).to_contain_text("Clara acted out of turn")
    expect(page.locator('[data-field="actor"]')).to_contain_text("Anna")

    # (c) time on Anna: a countdown of the MunotPoker clock (25 s + 5 s, 004 #29)
    page.locator('button[data-action="time"]').click()
    settled(page)
    clock = page.locator('[data-field="clock"]')
    expect(clock).to_be_visible()
    expect(clock).to_contain_text("Anna")
    seconds = int(page.locator('[data-field="clock-secs"]').inner_text())
    assert 20 <= seconds <= 30
    expect(page.locator('[data-field="clock-secs"]')).not_to_have_text(str(seconds), timeout=3_000)  # it runs
    expect(page.locator('button[data-action="time"]')).to_be_hidden()
    screenshot(page, "tablet-oot-time")

    # the floor: a call with its reason; the banner says it was sent
    page.locator('button[data-action="floor"]').click()
    page.locator('select[name="reason"]').select_option("time")
    page.locator('select[name="seat"]').select_option("1")
    page.locator('input[name="note"]').fill("slow roll")
    page.locator('button[data-action="floor-send"]').click()
    expect(page.locator('[data-field="floor-status"]')).to_have_text("Floor called")

    # a guided procedure ends in its outcome with the rule, and offers the floor
    page.locator('button[data-action="procedures"]').click()
    page.locator('#sheet-proc [data-procedure="premature_board"]').click()
    page.locator('#sheet-proc [data-option="flop"]').click()
    outcome = page.locator("#sheet-proc .proc-outcome")
    expect(outcome).to_contain_text("Premature flop")
    expect(outcome.locator(".cite", has_text="004 #39")).to_be_visible()
    expect(outcome.locator('[data-action="proc-floor"]')).to_be_visible()
