"""The floor searches the hand archive (issue 27): the WSOP final table is imported with
``manage.py import_phh``; on ``/floor/archive/`` the floorman types a player's name, sees only that
player's hands, opens one and reads its actions in words; in German on a phone too."""

import io
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.conftest import off_loop, screenshot
from tests.browser.waits import login_to

pytestmark = pytest.mark.django_db(transaction=True)

WSOP_2023 = Path(settings.SHARED_DIR) / "phh" / "wsop-2023-43-day5-NT"


def _import():
    from django.core.management import call_command

    call_command("import_phh", str(WSOP_2023), stdout=io.StringIO())


@pytest.mark.parametrize(("lang", "viewport"), [("en", (1280, 800)), ("de", (390, 844))])
def test_the_floor_finds_a_players_hands_and_reads_one(new_page, floorman, lang, viewport):
    off_loop(_import)
    page = new_page(viewport=viewport, locale="de-DE" if lang == "de" else "en-US")
    login_to(page, "floor", "pw-floor", "/floor/archive/")
    rows = page.locator("#archived-hands tbody tr")
    expect(rows).to_have_count(11)
    page.fill("#archive-search input[name=player]", "matthew ashton")
    with page.expect_navigation():
        page.click("#archive-search button[type=submit]")
    expect(page.locator('[data-field="count"]')).to_have_text("11 hands" if lang == "en" else "11 Hände")
    page.fill("#archive-search input[name=player]", "brian")
    page.fill("#archive-search input[name=pot_min]", "1000000")
    with page.expect_navigation():
        page.click("#archive-search button[type=submit]")
    expect(rows.first).to_contain_text("Brian Rast")
    count = rows.count()
    assert 0 < count < 11
    expect(page.locator('[data-field="export"]')).to_have_attribute(
        "href", "/floor/archive/export.phhs?player=brian&pot_min=1000000"
    )
    screenshot(page, f"archive-search-{lang}")
    with page.expect_navigation():
        rows.first.locator("a").first.click()
    events = page.locator("#events .ev-text")
    expect(events.first).to_be_visible()
    word = "raises to" if lang == "en" else "erhöht auf"
    expect(page.locator("#events")).to_contain_text(word)
    screenshot(page, f"archive-hand-{lang}")
