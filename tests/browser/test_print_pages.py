"""Printing from the director's desk (issue 23, what a director also expects): seat cards for an 80 mm
receipt printer, one card per seated player with the tournament, table, seat and name, reachable from the
desk; printed (print media) each card is at most 80 mm wide and the page's controls are hidden. English and
German; screenshots go to /tmp/shots/tvprint/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login, off_loop

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/tvprint")
MM80 = 80 * 96 / 25.4  # CSS pixels in 80 mm
STRUCTURE = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}


def _started():
    from tournaments import services

    t = services.create_tournament("Friday Deepstack", "munotpoker", STRUCTURE, starting_stack=20_000, seed=5)
    for i in range(12):
        services.register(t.id, f"Player {i:02d}")
    services.start(t.id)
    return t


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_seat_cards_print_one_80mm_card_per_seated_player(new_page, floorman, locale):
    t = off_loop(_started)
    lang = locale[:2]
    page = new_page((1280, 800), locale=locale)
    login(page, "floor", "pw-floor")
    page.goto(f"/tournaments/{t.id}/", wait_until="domcontentloaded")
    page.locator("#seat-cards-link").click()
    page.wait_for_url(f"**/tournaments/{t.id}/print/seat-cards/", wait_until="domcontentloaded")
    cards = page.locator(".seat-card")
    expect(cards).to_have_count(12)
    first = cards.first
    expect(first).to_contain_text("Friday Deepstack")
    expect(first.locator(".sc-table")).to_have_text("1")
    expect(first.locator(".sc-seat")).not_to_be_empty()
    expect(first).to_contain_text("Tisch" if lang == "de" else "Table")
    page.emulate_media(media="print")
    expect(page.locator("#print-button")).to_be_hidden()
    expect(page.locator(".topbar")).to_be_hidden()
    widths = page.evaluate(
        "() => [...document.querySelectorAll('.seat-card')].map((c) => c.getBoundingClientRect().width)"
    )
    assert len(widths) == 12 and all(MM80 - 40 <= w <= MM80 + 0.5 for w in widths), widths
    first.screenshot(path=str(SHOTS / f"seat-card-{lang}.png"))


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_table_sheets_list_each_tables_seats_and_players(new_page, floorman, locale):
    t = off_loop(_started)
    lang = locale[:2]
    page = new_page((1280, 800), locale=locale)
    login(page, "floor", "pw-floor")
    page.goto(f"/tournaments/{t.id}/", wait_until="domcontentloaded")
    page.locator("#table-sheets-link").click()
    page.wait_for_url(f"**/tournaments/{t.id}/print/table-sheets/", wait_until="domcontentloaded")
    sheets = page.locator(".table-sheet")
    expect(sheets).to_have_count(2)  # 12 players on two tables
    expect(sheets.first.locator("h2")).to_contain_text("Tisch 1" if lang == "de" else "Table 1")
    names = sheets.locator("tbody td:nth-child(2)").all_inner_texts()
    assert sorted(n for n in names if n) == [f"Player {i:02d}" for i in range(12)]
    page.emulate_media(media="print")
    expect(page.locator("#print-button")).to_be_hidden()
    expect(page.locator(".topbar")).to_be_hidden()
    page.screenshot(path=str(SHOTS / f"table-sheets-print-{lang}.png"))
