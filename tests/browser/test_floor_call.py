"""Floor calls end to end in real browsers: the dealer calls the floor from the
tablet, the call reaches an open floor dashboard at once, the floorman
opens it and applies a ruling whose correction cites the rulebook, and the
corrected hand shows on the tablet and on the dashboard without a reload.

Screenshots (artifacts/): the dashboard with the call, the call page, the
tablet with the ruling.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from rules.models import FloorCall, Ruling
from tables import services
from tables.models import Hand
from tests.browser.conftest import login, off_loop, screenshot
from tests.browser.test_pages import amount, expect_tile, tap, tile
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 2_000


@pytest.fixture
def table(dealer, floorman, rulebooks):
    table = off_loop(
        services.create_table, "Table 1", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker"
    )
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        off_loop(services.seat_player, table.id, seat, name, stack)
    return table


@pytest.fixture
def rulebooks(db):
    from rules.management.commands.load_rulebooks import load_rulebooks

    return off_loop(load_rulebooks)


def test_a_floor_call_from_the_tablet_is_ruled_and_the_hand_corrected_on_both_screens(table, new_page):
    tid = table.id
    floor = new_page((1280, 900))
    login_to(floor, "floor", "pw-floor", "/floor/")
    expect(floor.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    floor.evaluate("window.__sameDocument = 'yes'")

    dealer = new_page((1280, 800))
    login(dealer, "dealer", "pw-dealer")
    expect(dealer.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    tap(dealer, '[data-action="start"]')
    # The dealer enters a raise to 6 for David; David says he only called.
    amount(dealer, 6)
    tap(dealer, '[data-action="raise"]')
    expect_tile(floor, tid, pot="9", to_act="Anna (1)")

    # "Time" on Anna: the countdown runs on the tablet and on the dashboard tile.
    dealer.locator('button[data-action="time"]').click()
    clock = tile(floor, tid).locator('[data-f="clock"]')
    expect(clock).to_contain_text("Time on seat 1:", timeout=LIVE)
    first = clock.text_content()
    expect(clock).not_to_have_text(first, timeout=3_000)  # it counts down

    dealer.locator('button[data-action="floor"]').click()
    dealer.locator('select[name="reason"]').select_option("dispute")
    dealer.locator('select[name="seat"]').select_option("7")
    dealer.locator('input[name="note"]').fill("David only called")
    dealer.locator('button[data-action="floor-send"]').click()
    expect(dealer.locator('[data-field="floor-status"]')).to_be_visible(timeout=LIVE)

    # Every open dashboard shows the call at once, with the table and the note.
    call_item = floor.locator(".call-list .call-open")
    expect(call_item).to_contain_text("Table 1", timeout=LIVE)
    expect(call_item).to_contain_text("David only called")
    expect(tile(floor, tid)).to_have_class(re.compile(r"\bfloor-called\b"))
    screenshot(floor, "floor-call-dashboard")
    call = FloorCall.objects.get()
    assert call.context["table"]["hand"]["state"]["total_pot"] == 9
    assert [e["payload"]["type"] for e in call.context["events"]] == ["start", "raise", "time_called"]

    # The floorman opens it (on his own screen; the dashboard stays open):
    # the hand's context and suggested rulings with citations.
    board, floor = floor, new_page((1280, 900))
    login_to(floor, "floor", "pw-floor", call_item.locator("a.btn-open").get_attribute("href"))
    expect(floor.locator("#floor-call")).to_contain_text("David only called")
    expect(floor.locator(".event-log").first).to_contain_text("David (7) raises to 6")
    expect(floor.locator(".suggestion").first).to_be_visible()
    with floor.expect_navigation():
        floor.locator("form[action$='/answer/'] button").click()
    expect(dealer.locator('[data-field="floor-status"]')).to_have_text("Floor on the way: floor", timeout=LIVE)
    screenshot(floor, "floor-call-page")

    # He corrects the hand by taps: the raise (event 1) stands as a call, citing 004 #1 and #43.
    floor.locator('.fc-action[data-index="1"]').click()
    floor.locator('.fc-types label:has(input[value="replace"])').click()
    floor.locator('.fc-alts[data-for-index="1"] [data-alt="call"]').click()
    expect(floor.locator('[data-f="preview"] [data-f="pot"]')).to_have_text("5")
    for box in floor.locator('.fc-cite input[name="cite"]:checked').all():
        box.locator("xpath=..").click()  # untick the suggested citations: he cites his own
    floor.locator('input[name="citation_text"]').fill("004 #1, 004 #43")
    floor.locator('textarea[name="decision"]').fill("David's raise was entered in error: it stands as a call.")
    with floor.expect_navigation():
        floor.locator('[data-action="apply-correction"]').click()
    expect(floor.locator(".messages")).to_contain_text("Ruling applied")
    expect(floor.locator("#floor-call")).to_have_attribute("data-status", "ruled")
    ruling = Ruling.objects.get()
    assert [c["label"] for c in ruling.citations] == ["004 #1", "004 #43"]

    # The tablet shows the ruling and the corrected hand: David called 2, pot 5, Anna to call 2.
    expect(dealer.locator('[data-field="ruling"]')).to_contain_text("stands as a call", timeout=LIVE)
    expect(dealer.locator('[data-field="ruling"]')).to_contain_text("004 #43")
    expect(dealer.locator('[data-field="to-call"]')).to_have_text("2", timeout=LIVE)
    screenshot(dealer, "floor-call-tablet-ruling")

    # The dashboard, never reloaded, shows the corrected pot and the call gone.
    expect_tile(board, tid, pot="5", to_act="Anna (1)")
    expect(board.locator(".call-list .call-open")).to_have_count(0)
    expect(board.locator('[data-field="ruling"]')).to_contain_text("stands as a call")
    assert board.evaluate("window.__sameDocument") == "yes"
    # The correction is a new event: the raise is still recorded.
    payloads = [e["payload"] for e in services.hand_events(Hand.objects.get(table_id=tid))]
    assert payloads[1]["type"] == "raise" and payloads[-1]["type"] == "replace"
