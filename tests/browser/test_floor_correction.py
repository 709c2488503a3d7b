"""A floor correction made by taps only on the floor call page: pick the mistaken fold, replace it with a
call (a raise typed on the keypad first, then changed), see the corrected hand before applying, apply with
the ruling's citation; the hand is corrected.  Screenshots of the call page and the rulings pages at four
sizes in English and German go to artifacts/screenshots/floor-rulings/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from rules.models import Ruling
from tables.models import Hand
from tests.browser.conftest import screenshot
from tests.browser.waits import login_to
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1920, 1080), (1280, 800), (800, 1280), (390, 844)]


def tap_label(page, selector: str) -> None:
    page.locator(selector).click()


def test_a_mistaken_fold_is_corrected_by_taps_with_a_preview(mistaken_fold, new_page):
    page = new_page((1280, 900))
    login_to(page, "floor", "pw-floor", f"/rules/calls/{mistaken_fold.id}/")
    expect(page.locator(".event-log").first).to_contain_text("Anna (1) folds")
    expect(page.locator("#floor-call")).not_to_contain_text("JSON")
    apply = page.locator('[data-action="apply-correction"]')
    expect(apply).to_be_disabled()

    # 1. the fold; 2. replace with ...; 3. a raise, typed on the keypad: the preview follows.
    tap_label(page, '.fc-action[data-index="2"]')
    tap_label(page, '.fc-types label:has(input[value="replace"])')
    alts = page.locator('.fc-alts[data-for-index="2"]')
    expect(alts).to_be_visible()
    expect(alts).to_contain_text("Call 6")
    tap_label(page, '.fc-alts[data-for-index="2"] [data-alt="raise"]')
    for key in "20":
        page.locator(f'.fc-keypad button[data-key="{key}"]').click()
    preview = page.locator('[data-f="preview"]')
    expect(preview.locator('[data-f="pot"]')).to_have_text("29")
    expect(page.locator('[data-f="preview-text"]')).to_contain_text("Anna (1) raises to 20")
    screenshot(page, "floor-correction-keypad")

    # She called: replace with a call; the preview shows the corrected hand before anything is applied.
    tap_label(page, '.fc-alts[data-for-index="2"] [data-alt="call"]')
    expect(page.locator('[data-f="preview-text"]')).to_have_text(
        "Replace “Anna (1) folds preflop” with: Anna (1) calls"
    )
    expect(preview.locator('[data-f="pot"]')).to_have_text("15")
    expect(preview.locator('tr[data-seat="1"]')).not_to_have_class(re.compile(r"\bfolded\b"))
    expect(preview.locator('tr[data-seat="1"] [data-f="bet"]')).to_have_text("6")
    expect(apply).to_be_enabled()
    assert Hand.objects.get().snapshot["total_pot"] == 9  # nothing applied yet
    screenshot(page, "floor-correction-preview")

    # The suggested citation is ticked; apply.
    expect(page.locator('.fc-cite input[name="cite"]').first).to_be_checked()
    with page.expect_navigation():
        apply.click()
    expect(page.locator(".messages")).to_contain_text("Ruling applied")
    expect(page.locator("#floor-call")).to_have_attribute("data-status", "ruled")
    expect(page.locator(".call-side .event-log").first).to_contain_text("Floor: Replace “Anna (1) folds preflop”")
    expect(page.locator('.call-side [data-f="pot"]').first).to_have_text("15")
    screenshot(page, "floor-correction-applied")
    ruling = Ruling.objects.get()
    assert ruling.corrections == [{"type": "replace", "index": 2, "action": {"type": "call", "seat": 1}}]
    assert ruling.citations and ruling.citations[0]["label"].startswith("004 ")
    snapshot = Hand.objects.get().snapshot
    assert snapshot["total_pot"] == 15
    assert not next(p for p in snapshot["players"] if p["seat"] == 1)["folded"]


def test_screenshots_of_the_call_and_rulings_pages(mistaken_fold, new_page):
    """The call page (with a preview), the rulings list (searched) and a ruling, EN and DE, four sizes."""
    from rules import services as floor
    from tests.browser.conftest import off_loop

    folder = ARTIFACTS / "screenshots" / "floor-rulings"
    folder.mkdir(parents=True, exist_ok=True)
    for lang, locale in (("en", "en-US"), ("de", "de-DE")):
        for width, height in SIZES:
            page = new_page((width, height), locale=locale)
            login_to(page, "floor", "pw-floor", f"/rules/calls/{mistaken_fold.id}/")
            tap_label(page, '.fc-action[data-index="2"]')
            tap_label(page, '.fc-types label:has(input[value="replace"])')
            tap_label(page, '.fc-alts[data-for-index="2"] [data-alt="call"]')
            expect(page.locator('[data-f="preview"] [data-f="pot"]')).to_have_text("15")
            page.locator("#correct").scroll_into_view_if_needed()
            page.screenshot(path=str(folder / f"call-{lang}-{width}x{height}.png"))
            page.screenshot(path=str(folder / f"call-{lang}-{width}x{height}-full.png"), full_page=True)
            page.close()
    # A ruling to show: the correction applied through the service.
    item = {"type": "replace", "index": 2, "action": {"type": "call", "seat": 1}}
    ruling = off_loop(
        floor.make_ruling,
        mistaken_fold.table_id,
        floor_call_id=mistaken_fold.id,
        decision="Replace “Anna (1) folds preflop” with: Anna (1) calls.",
        decision_de="Ersetzen: „Anna (1) foldet vor dem Flop“ durch: Anna (1) callt.",
        citations=[
            {"rulebook": "munotpoker", "section": "#1"},
            {"rulebook": "tda-2024", "section": "TDA 2024 Rule 1"},
        ],
        corrections=[item],
    )
    for lang, locale in (("en", "en-US"), ("de", "de-DE")):
        for width, height in SIZES:
            page = new_page((width, height), locale=locale)
            login_to(page, "floor", "pw-floor", "/rules/rulings/?q=004+%231")
            expect(page.locator(".rulings-list li")).to_have_count(1)
            page.screenshot(path=str(folder / f"rulings-{lang}-{width}x{height}.png"))
            page.goto(f"/rules/rulings/{ruling.id}/")
            page.screenshot(path=str(folder / f"ruling-{lang}-{width}x{height}.png"), full_page=True)
            page.goto("/rules/tda-2024/tda-2024-rule-44/")
            page.screenshot(path=str(folder / f"tda-rule-{lang}-{width}x{height}.png"))
            page.close()
