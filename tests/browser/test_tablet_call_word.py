"""German without leftovers on the tablet (issue 24): the chips reader's result for a call reads
"Bestätigen: Mitgehen" in German ("Confirm: Call" in English), not "Bestätigen: Call"."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tables import services
from tests.browser.conftest import off_loop, settled
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/floor2")


@pytest.mark.parametrize(
    ("locale", "word", "confirm"), [("en-US", "Call", "Confirm: Call"), ("de-DE", "Mitgehen", "Bestätigen: Mitgehen")]
)
def test_the_chips_reader_names_a_call_in_the_page_language(dealer, floorman, new_page, locale, word, confirm):
    table = off_loop(
        services.create_table, "Munot 1", small_blind=50, big_blind=100, rules_profile="munotpoker", dealer=dealer
    )
    for seat, name in [(1, "Anna"), (3, "Ben"), (5, "Clara"), (7, "David")]:
        off_loop(services.seat_player, table.id, seat, name, 10_000)
    page = new_page((1280, 800), locale=locale)
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    page.locator('[data-action="start"]').click()
    settled(page)
    page.locator('button[data-action="chips"]').click()
    page.locator('.denom[data-denom="100"]').click()
    page.locator('button[data-action="chips-read"]').click()
    expect(page.locator('[data-field="chips-result"] .res-action')).to_have_text(word)
    expect(page.locator('button[data-action="chips-confirm"]')).to_have_text(confirm)
    page.screenshot(path=str(SHOTS / f"tablet-chips-call-{locale[:2]}-1280x800.png"))
