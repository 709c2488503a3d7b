"""Every staff page on a 390×844 phone, as a manager: no horizontal scroll.

The demo room (``manage.py load_demo``: three tables, the cash floor "casino",
a tournament) and the rulebooks are loaded; every page is opened at 390×844
in English and German and must be no wider than the screen
(``document.scrollingElement.scrollWidth <= 390 + 1``).  The lobby TV screens
are left out: they are made for a 1920×1080 screen.

Screenshots (artifacts/screenshots/pages/): every page at 390×844, and the
floor, room, director and a rule page at 1280×800, 800×1280 and 1920×1080, in
English and German.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.conftest import login, off_loop
from tests.browser.waits import goto_settled, page_settled
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = (390, 844)
SHOTS = ARTIFACTS / "screenshots" / "pages"


@pytest.fixture
def demo():
    """The demo room and the rulebooks; returns the paths of the pages to visit (name, path)."""
    off_loop(call_command, "load_demo", stdout=io.StringIO())
    off_loop(call_command, "load_rulebooks", stdout=io.StringIO())
    from rules.models import Rule
    from tables.models import Table
    from tournaments.models import Tournament

    table = Table.objects.order_by("name").first()
    hand = table.hands.order_by("-number").first()
    tournament = Tournament.objects.order_by("id").first()
    rule = Rule.objects.select_related("rulebook").filter(rulebook__slug="casino-cash").order_by("id").first()
    pages = [
        ("floor", "/floor/#map"),
        ("floor-tiles", "/floor/#tiles"),
        ("archive", "/floor/archive/"),
        ("room-index", "/room/"),
        ("room", "/room/casino/"),
        ("tournaments", "/tournaments/"),
        ("director", f"/tournaments/{tournament.id}/"),
        ("rules", "/rules/"),
        ("rules-search", "/rules/?q=oversized+chip"),
        ("rulebook", "/rules/casino-cash/"),
        ("rule", rule.get_absolute_url()),
        ("rulings", "/rules/rulings/"),
        ("history", f"/tables/{table.id}/hands/"),
        ("tablet", f"/tables/{table.id}/dealer/"),
    ]
    if hand is not None:
        pages.append(("hand", f"/hands/{hand.id}/"))
    return pages


def overflow(page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def open_page(page, path: str) -> None:
    """Open ``path``; a ``#map`` or ``#tiles`` suffix picks that view of the floor dashboard."""
    path, _, view = path.partition("#")
    goto_settled(page, path)
    if view:
        page.click(f'.view-toggle [data-view="{view}"]')
        page_settled(page)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_page_fits_a_phone_without_horizontal_scroll(demo, new_page, lang):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(PHONE, locale="de-DE" if lang == "de" else "en-US")
    login(page, "manager", "manager-demo")
    too_wide = {}
    for name, path in demo:
        open_page(page, path)
        assert page.evaluate("document.documentElement.lang") == lang, f"{name} not in {lang}"
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-390x844.png"))
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-390x844-full.png"), full_page=True)
        width = overflow(page)
        if width > PHONE[0] + 1:
            too_wide[name] = width
    assert not too_wide, f"pages wider than {PHONE[0]} px (scrollWidth): {too_wide}"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_main_pages_at_tablet_and_desktop_sizes(demo, new_page, lang):
    SHOTS.mkdir(parents=True, exist_ok=True)
    wanted = {"floor", "floor-tiles", "room", "director", "rule", "rulebook", "rules"}
    for viewport in [(1280, 800), (800, 1280), (1920, 1080)]:
        page = new_page(viewport, locale="de-DE" if lang == "de" else "en-US")
        login(page, "manager", "manager-demo")
        for name, path in demo:
            if name not in wanted:
                continue
            open_page(page, path)
            page.screenshot(path=str(SHOTS / f"{name}-{lang}-{viewport[0]}x{viewport[1]}.png"))
            assert overflow(page) <= viewport[0] + 1, f"{name} wider than {viewport[0]} px"


def test_page_panels_and_tables_keep_their_own_look_beside_the_tablet_classes(demo, new_page):
    """The rulebook panels are not shrunk to a playing card (44×62 px), the director's seat numbers are in
    line with the names, the to-act row of a floor call stays a table row."""
    paths = dict(demo)
    page = new_page((1280, 800))
    login(page, "manager", "manager-demo")
    for name in ("rules", "rulebook", "rule"):
        open_page(page, paths[name])
        panel = page.locator("main > section, main > article").first
        box = panel.bounding_box()
        assert box["width"] > 600 and box["height"] > 100, (name, box)
        size = page.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)", panel.element_handle())
        assert size >= 14, (name, size)
        assert "flex" not in page.evaluate("(el) => getComputedStyle(el).display", panel.element_handle())
    # a floor call's hand state (templates/rules/_hand_state.html): the to-act row is a table row
    page.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML("beforeend",
        '<div class="call-state"><table><tr><td>1</td><td>A</td></tr>'
        + '<tr class="to-act" id="probe"><td>2</td><td>B</td></tr></table></div>')"""
    )
    assert page.evaluate("getComputedStyle(document.getElementById('probe')).display") == "table-row"

    from tournaments import services as ts
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(name="Demo Deepstack")
    off_loop(ts.start, tournament.id)
    open_page(page, paths["director"])
    seat_no = page.locator(".td-table .seat-no").first
    expect(seat_no).to_be_visible()
    assert page.evaluate("(el) => getComputedStyle(el).position", seat_no.element_handle()) == "static"
    row = seat_no.locator("xpath=..").bounding_box()
    number = seat_no.bounding_box()
    assert row["x"] <= number["x"] and number["x"] + number["width"] <= row["x"] + row["width"]
