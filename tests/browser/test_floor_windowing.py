"""The floor dashboard at room scale (issue 26): 150 tables in three sections, the page drawing only what is
in (or near) the viewport. Every table's row is drawn once scrolled to (with updates made while it was out
of view), the map is grouped by section, a tile in view still gets its live updates whole, and a floor
call still flashes; in English and German.

Updates reach the page through the server: a second page of the floorman (who may use any tablet) sends
the dealer's messages over the tablet's socket.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import Table
from tests.browser.conftest import off_loop
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLES = 150
WORDS = {
    "en": {"count": "150 tables", "floor_call": "Floor call", "calls": "calls"},
    "de": {"count": "150 Tische", "floor_call": "Floor-Ruf", "calls": "geht mit"},
}


def _make_room():
    """Tables "T001".."T150" at 1/2 with two players each, sections A (1-50), B (51-100), C (101-150); a
    live hand at T001, T075 and T150. Returns {name: id}."""
    ids = {}
    for n in range(1, TABLES + 1):
        name = f"T{n:03d}"
        table = services.create_table(name, small_blind=1, big_blind=2, max_seats=9)
        Table.objects.filter(pk=table.id).update(section="ABC"[(n - 1) // 50])
        services.seat_player(table.id, 1, f"{name}-a", 200)
        services.seat_player(table.id, 2, f"{name}-b", 200)
        ids[name] = table.id
    for name in ("T001", "T075", "T150"):
        services.start_hand(ids[name])
    return ids


@pytest.fixture
def room(floorman):
    return off_loop(_make_room)


def _tablet_send(page, table_id: int, message: dict) -> dict:
    """Send one dealer message over ``table_id``'s tablet socket from ``page`` (a logged-in floorman's),
    with the table's seq as ``expected_seq``; an action's ``seat`` 0 means the player to act. The reply."""
    return page.evaluate(
        """async ([id, msg]) => {
          const ws = new WebSocket(`ws://${location.host}/ws/tables/${id}/dealer/`);
          const next = (pred) => new Promise((ok) => ws.addEventListener("message", function on(e) {
            const m = JSON.parse(e.data);
            if (pred(m)) { ws.removeEventListener("message", on); ok(m); }
          }));
          const first = await next((m) => m.type === "snapshot");
          if (msg.action && msg.action.seat === 0) msg.action.seat = first.snapshot.hand.state.to_act_seat;
          ws.send(JSON.stringify({ ...msg, client_id: `t${Math.random()}`, expected_seq: first.seq }));
          const reply = await next((m) => m.type === "ack" || m.type === "error");
          ws.close();
          return reply;
        }""",
        [table_id, message],
    )


def _floor(new_page, lang, view=None, size=(1280, 800)):
    page = new_page(size, locale="de-DE" if lang == "de" else "en-US")
    if view:  # the floorman's choice, remembered from before (set before the dashboard's script reads it)
        page.add_init_script(f"localStorage.setItem('pokerfloor.floor.view', '{view}')")
    login_to(page, "floor", "pw-floor", "/floor/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    expect(page.locator(".map-row [data-f=name]:not(:empty)")).to_have_count(TABLES)
    return page


def _row(page, name):
    return page.locator(f'.map-row:has([data-f=name]:text-is("{name}"))')


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_row_of_a_big_room_is_drawn_when_scrolled_to_grouped_by_section(room, new_page, lang):
    page = _floor(new_page, lang)
    words = WORDS[lang]
    assert page.locator("#floor").get_attribute("data-view") == "map"
    expect(page.locator('[data-field="count"]')).to_have_text(words["count"])
    # one heading per section, with its number of tables
    expect(page.locator(".map-section h2")).to_have_text(["A (50)", "B (50)", "C (50)"])
    # only the rows in or near the viewport are drawn: the last section's are not yet
    drawn = page.locator(".map-row [data-f=seats]:not(:empty)")
    expect(drawn.first).to_be_visible()
    assert 0 < drawn.count() < TABLES
    expect(_row(page, "T150").locator("[data-f=seats]")).to_be_empty()

    # an update of a table out of view: drawn once the row is scrolled to
    tablet = page.context.new_page()
    tablet.goto("/")
    assert (
        _tablet_send(tablet, room["T150"], {"type": "action", "action": {"type": "call", "seat": 0}})["type"] == "ack"
    )
    page.bring_to_front()  # the floorman looks at the floor again (a page behind another draws no frames)
    last = _row(page, "T150")
    last.scroll_into_view_if_needed()
    expect(last.locator("[data-f=seats]")).to_have_text("2/9")
    expect(last.locator("[data-f=pot]")).to_have_text("4")
    expect(last).to_have_class(re.compile(r"\bflash\b"))

    # scrolled through the whole room, every table's row has been drawn
    height = page.evaluate("document.scrollingElement.scrollHeight")
    for y in range(0, height + 800, 600):
        # a reader's scroll: the page renders a few frames at each position (a loaded machine may render
        # none in a fixed wait, and the viewport's IntersectionObserver then never sees the rows passed)
        page.evaluate(
            "(y) => new Promise((done) => { scrollTo(0, y); let n = 3;"
            " const tick = () => (--n ? requestAnimationFrame(tick) : done()); requestAnimationFrame(tick); })",
            y,
        )
    expect(drawn).to_have_count(TABLES)
    expect(_row(page, "T075").locator("[data-f=pot]")).to_have_text("3")
    expect(_row(page, "T074").locator("[data-f=pot]")).to_have_text("–")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_tile_in_view_gets_its_updates_whole_and_a_tile_out_of_view_waits(room, new_page, lang):
    page = _floor(new_page, lang, view="tiles")
    first = page.locator(f'.tile[data-table-id="{room["T001"]}"]')
    expect(first.locator("[data-f=players] tr")).to_have_count(2)
    expect(first.locator("[data-f=pot]")).to_have_text("3")
    page.wait_for_function(f"window.pokerfloorFloor.watching().split(',').includes('{room['T001']}')")
    far = page.locator(f'.tile[data-table-id="{room["T150"]}"]')
    expect(far).to_have_class(re.compile(r"\bplaceholder\b"))
    assert str(room["T150"]) not in page.evaluate("window.pokerfloorFloor.watching()").split(",")

    tablet = page.context.new_page()
    tablet.goto("/")
    assert (
        _tablet_send(tablet, room["T001"], {"type": "action", "action": {"type": "call", "seat": 0}})["type"] == "ack"
    )
    expect(first.locator("[data-f=pot]")).to_have_text("4")
    expect(first.locator("[data-f=last]")).to_contain_text(WORDS[lang]["calls"])
    expect(first.locator("tr.acting")).to_have_count(1)

    # scrolled to, the far tile is drawn in detail from its snapshot
    page.bring_to_front()
    far.scroll_into_view_if_needed()
    expect(far.locator("[data-f=players] tr")).to_have_count(2)
    expect(far.locator("[data-f=pot]")).to_have_text("3")
    expect(far).not_to_have_class(re.compile(r"\bplaceholder\b"))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_floor_call_at_a_table_out_of_view_still_flashes(room, new_page, lang):
    page = _floor(new_page, lang)
    tablet = page.context.new_page()
    tablet.goto("/")
    reply = _tablet_send(tablet, room["T150"], {"type": "floor_call", "reason": "dispute", "seat": 1})
    assert reply["type"] == "ack", reply
    expect(page.locator("#floor-calls")).to_have_class(re.compile(r"\balarm\b"))
    expect(page.locator('[data-field="calls"] .call-open')).to_contain_text("T150")
    row = _row(page, "T150")
    expect(row).to_have_class(re.compile(r"\bfloor-called\b"))
    page.bring_to_front()
    row.scroll_into_view_if_needed()
    expect(row.locator("[data-f=alert]")).to_have_text(WORDS[lang]["floor_call"])
    assert page.title().startswith("(1) ")
    # opened from the map, the called table's tile is drawn in detail and outlined
    row.click()
    tile = page.locator(".tile.opened")
    expect(tile).to_have_class(re.compile(r"\bfloor-called\b"))
    expect(tile.locator("[data-f=players] tr")).to_have_count(2)
