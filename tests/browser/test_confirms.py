"""Destructive one-tap buttons ask first: the director's Surrender (a whole stack leaves play, 004 #74),
the room's Leaves (the player cashes out the stack, recorded in the room log) and Close table.  Dismissing
the question changes nothing; accepting it does what the button says.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.conftest import off_loop
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo():
    """The demo room and its tournament (004, one re-entry), started: every guest seated with 20,000."""
    off_loop(call_command, "load_demo", stdout=io.StringIO())
    from tournaments import services as ts
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(name="Demo Deepstack")
    off_loop(ts.start, tournament.id)
    return tournament


def _answer(page, accept: bool, asked: list[str]) -> None:
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept() if accept else dialog.dismiss()))


def test_surrender_asks_before_a_stack_leaves_play(demo, new_page):
    page = new_page((1280, 800))
    login_to(page, "manager", "manager-demo", f"/tournaments/{demo.id}/")
    row = page.locator("#td-entries tr", has_text="Guest 01")
    expect(row).to_have_attribute("data-status", "seated")
    asked: list[str] = []
    _answer(page, False, asked)
    row.locator("button[data-entry-op=surrender]").click()
    assert asked and "Guest 01" in asked[0] and "20,000" in asked[0], asked
    page.wait_for_timeout(500)
    expect(row).to_have_attribute("data-status", "seated")  # dismissed: nothing changed
    _answer(page, True, asked)
    row.locator("button[data-entry-op=surrender]").click()
    expect(page.locator("#td-entries tr[data-status=surrendered]", has_text="Guest 01")).to_have_count(1)


def test_leaves_and_close_table_ask_first_and_the_log_shows_the_cash_out(demo, new_page):
    page = new_page((1280, 800))
    login_to(page, "manager", "manager-demo", "/room/casino/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    seat = page.locator(".room-table .rseat.taken").first
    player = seat.locator(".seat-who").inner_text().strip()
    stack = seat.locator('[data-f="stack"]').inner_text().strip()
    asked: list[str] = []
    _answer(page, False, asked)
    seat.locator('button[data-op="leave"]').click()
    assert asked and player in asked[0] and stack in asked[0], asked
    page.wait_for_timeout(500)
    expect(page.locator(".room-table .rseat.taken", has_text=player)).to_have_count(1)  # still seated
    _answer(page, True, asked)
    page.locator(".room-table .rseat.taken", has_text=player).locator('button[data-op="leave"]').click()
    expect(page.locator("#log li[data-kind=leave]").first).to_contain_text(f"{player} left seat")
    expect(page.locator("#log li[data-kind=leave]").first).to_contain_text(f"cashed out {stack}")

    table = page.locator(".room-table:not(.closed)").first
    table_id = table.get_attribute("data-table-id")
    _answer(page, False, asked)
    table.locator('button[data-op="table_open"]').click()
    assert "Close" in asked[-1], asked
    page.wait_for_timeout(500)
    expect(page.locator(f'.room-table[data-table-id="{table_id}"]')).not_to_have_class("room-table closed")
