"""The tournament TV at 1920x1080, read from 5 m: no input box, nothing smaller than 30 px, nothing cut
off the screen; the seat draw paged in large type; the second layout (?view=draw) with the seat draw
alone; the chip leaders only once the director shows them.  Screenshots in German and English.
The structure editor and the chip-count desk at the four screen sizes."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, off_loop
from tests.browser.waits import login_to

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = ARTIFACTS / "screenshots" / "tournament-tv"
SIZES = [(1280, 800), (800, 1280), (1920, 1080), (390, 844)]

# the smallest font of any visible text and the page's size (nothing scrolls on a TV)
MEASURE_JS = """() => {
  let smallest = 1000, what = "";
  for (const el of document.querySelectorAll("body *")) {
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join("");
    const box = el.getBoundingClientRect();
    if (!text || box.width === 0 || box.height === 0) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < smallest) { smallest = size; what = text; }
  }
  const cut = [...document.querySelectorAll(".tl-stats > div, .tl-clock > div, .tl-side, .tv-strip")]
    .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent.trim());
  return {smallest, what, cut, width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
          inputs: document.querySelectorAll("input, textarea, select").length};
}"""


def _tournament(players=60):
    from tournaments import services
    from tournaments.services import chipcounts, structures

    t = services.create_tournament(
        "Friday Deepstack", "munotpoker", structures.template("standard"), starting_stack=20_000, buy_in=100, seed=4
    )
    for i in range(players):
        services.register(t.id, f"Player {i:02d} Longname")
    services.start(t.id)
    chipcounts.show_chip_leaders(t.id, True)
    return t


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_tv_is_readable_from_five_metres_and_pages_the_seat_draw(new_page, locale):
    t = off_loop(_tournament)
    lang = locale[:2]
    tv = new_page((1920, 1080), locale=locale)
    tv.clock.install()  # the pages turn on the page's own timer: moved on below, not waited for
    tv.goto(f"/tournaments/lobby/{t.public_token}/?page_seconds=3")
    tv.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '60'")
    expect(tv.locator("[data-f=blinds]")).to_have_text("25 / 50")
    expect(tv.locator("#tl-draw li")).to_have_count(16)
    page_text = "Page 1 of 4" if lang == "en" else "Seite 1 von 4"
    expect(tv.locator("[data-f=draw_page]")).to_have_text(page_text)
    assert re.fullmatch(r"\d+:\d\d", tv.locator("[data-f=time]").text_content())
    assert re.fullmatch(r"Player \d\d Longname\d+ / \d", tv.locator("#tl-draw li").first.text_content())
    m = tv.evaluate(MEASURE_JS)
    assert m["inputs"] == 0
    assert m["smallest"] >= 30, m
    assert m["width"] <= 1920 and m["height"] <= 1080 and not m["cut"], m
    shot(tv, f"tv-main-{lang}-1920x1080")
    # the pages turn after 3 s: the next page of the draw, the chip leaders in the side panel
    tv.clock.fast_forward(3000)
    expect(tv.locator("[data-f=draw_page]")).to_contain_text("2", timeout=5000)
    tv.wait_for_function("document.querySelector('#tl-side').className === 'leaders'", timeout=8000)
    expect(tv.locator("#tl-side li")).to_have_count(10)
    shot(tv, f"tv-main-leaders-{lang}-1920x1080")

    draw = new_page((1920, 1080), locale=locale)
    draw.goto(f"/tournaments/lobby/{t.public_token}/?view=draw")
    expect(draw.locator("#tl-draw li")).to_have_count(36)
    expect(draw.locator("[data-f=draw_page]")).to_have_text(page_text.replace("4", "2"))
    m = draw.evaluate(MEASURE_JS)
    assert m["inputs"] == 0 and m["smallest"] >= 30 and m["height"] <= 1080 and m["width"] <= 1920, m
    assert not m["cut"], m
    shot(draw, f"tv-draw-{lang}-1920x1080")


def test_the_structure_editor_and_the_chip_desk(new_page, floorman):
    t = off_loop(_tournament, players=12)
    for locale in ("en-US", "de-DE"):
        lang = locale[:2]
        for width, height in SIZES:
            page = new_page((width, height), locale=locale)
            login_to(page, "floor", "pw-floor", f"/tournaments/{t.id}/structure/")
            expect(page.locator("#ts-rows tr")).not_to_have_count(0)
            shot(page, f"structure-{lang}-{width}x{height}")
            page.goto(f"/tournaments/{t.id}/chips/")
            expect(page.locator("#tc-leaders tr")).to_have_count(12)
            shot(page, f"chips-{lang}-{width}x{height}")
            page.context.close()

    page = new_page((1280, 800))
    login_to(page, "floor", "pw-floor", f"/tournaments/{t.id}/structure/")
    # blinds that go down are refused with the period named, and nothing is stored
    page.locator("#ts-rows tr").nth(1).locator("[data-key=big_blind]").fill("40")
    page.click("#ts-save")
    expect(page.locator("#ts-errors")).to_contain_text("Period 2")
    page.reload()
    expect(page.locator("#ts-rows tr").nth(1).locator("[data-key=big_blind]")).to_have_value("100")
    page.select_option("#ts-template", "turbo")
    page.click("#ts-load-template")
    expect(page.locator("#ts-rows tr").first.locator("[data-key=minutes]")).to_have_value("12")
    page.click("#ts-save")
    expect(page.locator("#ts-saved")).to_have_text("Structure saved.")
    shot(page, "structure-saved-en-1280x800")

    page.goto(f"/tournaments/{t.id}/chips/")
    inputs = page.locator("#tc-seats input")
    inputs.first.fill(str(int(inputs.first.input_value()) - 500))
    page.click("#tc-form button[type=submit]")
    expect(page.locator("[data-f=check]")).to_contain_text("500")
    expect(page.locator("[data-f=check]")).to_have_class(re.compile("mismatch"))
    shot(page, "chips-mismatch-en-1280x800")
    exported = page.request.get(f"/tournaments/{t.id}/structure/api/?download=1").json()
    assert exported["structure"]["periods"][0]["minutes"] == 12


def test_the_tv_follows_the_deltas_and_takes_a_snapshot_after_a_lost_one(new_page, floorman):
    from tests.browser.test_tournament import BUST_HAND_JS, _lose_deltas, _series_day, _state

    t = off_loop(_series_day, 45)  # five tables
    state = off_loop(_state, t.id)
    tv = new_page((1920, 1080))
    lost = {"on": False, "dropped": 0}
    _lose_deltas(tv, r"/ws/tournaments/lobby/[^/]+/$", lost)
    tv.goto(f"/tournaments/lobby/{t.public_token}/")
    tv.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '45'")
    director = new_page((1280, 800))
    login_to(director, "floor", "pw-floor", f"/tournaments/{t.id}/")
    director.wait_for_selector("#td-tables .td-table >> nth=4")
    tables = [tb[1] for tb in state["tables"]]
    director.evaluate(BUST_HAND_JS, tables[0])
    tv.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '44'")
    assert tv.evaluate("document.getElementById('tlobby').dataset.resyncs") is None
    # a delta lost on the way: the next one shows the gap, the TV asks for a snapshot
    lost["on"] = True
    director.evaluate(BUST_HAND_JS, tables[1])
    director.evaluate(BUST_HAND_JS, tables[2])
    tv.wait_for_function("document.getElementById('tlobby').dataset.resyncs === '1'")
    tv.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '42'")
    assert lost["dropped"] == 1
    # the seat draw lists the 42 players left, each once
    names = tv.evaluate("document.querySelectorAll('#tl-draw li').length")
    assert names == 16
