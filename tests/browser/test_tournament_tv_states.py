"""The tournament TV at a break and when the event is over (issue 23 #9), at 1920x1080 and 1280x720, in
English and German: at a break "Break" stays clear of the title, "After the break: 400 / 800" is on one
line, the colour-up line stays inside the clock panel; a finished event shows its winner and the final
table's places instead of a frozen clock, the next level and "Break in"; "Seite 1 von 2" is on one line.
Screenshots go to /tmp/shots/tabletour/."""

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/tabletour")
SIZES = [(1920, 1080), (1280, 720)]
LOCALES = ["en-US", "de-DE"]
STRUCTURE = {
    "periods": [
        {
            "kind": "level",
            "small_blind": 100,
            "big_blind": 200,
            "ante": 200,
            "ante_kind": "big_blind_ante",
            "minutes": 20,
        },
        {
            "kind": "level",
            "small_blind": 200,
            "big_blind": 400,
            "ante": 400,
            "ante_kind": "big_blind_ante",
            "minutes": 20,
        },
        {"kind": "break", "minutes": 15, "color_up": [25, 100]},
        {
            "kind": "level",
            "small_blind": 400,
            "big_blind": 800,
            "ante": 800,
            "ante_kind": "big_blind_ante",
            "minutes": 20,
        },
    ],
    "late_registration_until": 2,
}

# geometry of the clock panel: boxes of its lines, the number of lines each takes, what leaves the panel
GEOMETRY_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: r.height}; };
  // lines of text: the distinct line boxes of the element's own text nodes (children measured apart)
  const lines = (el) => {
    if (!el || !el.textContent.trim()) return 0;
    const bottoms = new Set();
    for (const node of el.childNodes) {
      if (node.nodeType !== 3 || !node.textContent.trim()) continue;
      const range = document.createRange(); range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0) bottoms.add(Math.round(r.bottom));
    }
    return bottoms.size || Math.max(...[...el.children].map(lines), 0);
  };
  const panel = document.querySelector(".tl-clock");
  const title = document.querySelector(".tv-head h1");
  const out = {panel: box(panel), title: box(title), lines: {}, outside: [], overlapTitle: []};
  for (const el of panel.querySelectorAll("[data-f]")) {
    const name = el.dataset.f, b = box(el), visible = el.offsetParent !== null && el.textContent.trim() !== "";
    out.lines[name] = visible ? lines(el) : 0;
    if (!visible) continue;
    if (b.top < out.panel.top - 1 || b.bottom > out.panel.bottom + 1 || b.left < out.panel.left - 1 || b.right > out.panel.right + 1) out.outside.push(name);
    if (b.top < out.title.bottom && b.bottom > out.title.top) out.overlapTitle.push(name);
  }
  out.blindsLines = [...document.querySelectorAll("[data-f=blinds] > *")].map(lines);
  out.winnerLines = lines(document.querySelector("[data-f=winner] .name"));
  const side = document.querySelector(".tl-side"), pad = parseFloat(getComputedStyle(side).paddingRight) * 0.5;
  const sp = document.querySelector("[data-f=side_page]");
  out.sidePageInside = !sp.textContent || sp.getBoundingClientRect().right <= side.getBoundingClientRect().right - pad;
  out.pageLines = ["side_page", "draw_page"].map((n) => lines(document.querySelector(`[data-f=${n}]`)));
  out.text = Object.fromEntries([...panel.querySelectorAll("[data-f]")].map((el) => [el.dataset.f, el.offsetParent !== null ? el.textContent.trim() : ""]));
  return out;
}"""


def _on_break(players=40):
    from tournaments import services
    from tournaments.models import Tournament
    from tournaments.services import chipcounts

    t = services.create_tournament(
        "Friday Night Deepstack Championship", "munotpoker", STRUCTURE, starting_stack=20_000, buy_in=100, seed=4
    )
    for i in range(players):
        services.register(t.id, f"Player {i:02d} Longname")
    services.start(t.id)
    chipcounts.show_chip_leaders(t.id, True)  # the side panel pages: payouts, chip leaders ("Seite 1 von 2")
    # 40 minutes of levels and 5 of the break have passed
    Tournament.objects.filter(pk=t.id).update(clock_started_at=time.time() - 45 * 60)
    return Tournament.objects.get(pk=t.id)


def _finished():
    from tournaments import services
    from tournaments.models import Entry
    from tournaments.services import desk

    t = services.create_tournament(
        "Friday Night Deepstack Championship", "munotpoker", STRUCTURE, starting_stack=20_000, buy_in=100, seed=4
    )
    for i in range(12):
        services.register(t.id, f"Player {i:02d} Longname")
    services.start(t.id)
    services.set_payouts(t.id, [600, 360, 240])
    seated = list(Entry.objects.filter(tournament=t, status="seated").order_by("id"))
    for e in seated[:-1]:
        desk.desk_bust(t.id, [(e.id, None)])
    return t


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_at_a_break_every_line_fits_the_clock_panel(new_page, locale, size):
    t = off_loop(_on_break)
    lang = locale[:2]
    tv = new_page(size, locale=locale)
    tv.goto(f"/tournaments/lobby/{t.public_token}/?page_seconds=600")
    tv.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '40'")
    expect(tv.locator("[data-f=level]")).to_have_text("Break" if lang == "en" else "Pause")
    expect(tv.locator("[data-f=blinds]")).to_contain_text("400 / 800")
    expect(tv.locator("[data-f=break_in]")).to_contain_text("25, 100")
    expect(tv.locator("[data-f=side_page]")).to_have_text("Page 1 of 2" if lang == "en" else "Seite 1 von 2")
    tv.screenshot(path=str(SHOTS / f"tv-break-{lang}-{size[0]}x{size[1]}.png"))
    g = tv.evaluate(GEOMETRY_JS)
    assert not g["overlapTitle"], g
    assert not g["outside"], g
    # "After the break" above the blinds, each on one line; the colour-up may take two lines, inside the panel
    assert g["blindsLines"] == [1, 1] and g["lines"]["ante"] == 1, g
    assert g["lines"]["level"] == 1 and g["lines"]["break_in"] <= 2, g
    assert all(n <= 1 for n in g["pageLines"]) and g["sidePageInside"], g


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_finished_event_shows_its_winner_and_final_table_not_a_frozen_clock(new_page, locale, size):
    t = off_loop(_finished)
    lang = locale[:2]
    tv = new_page(size, locale=locale)
    tv.goto(f"/tournaments/lobby/{t.public_token}/?page_seconds=600")
    tv.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '1'")
    expect(tv.locator("[data-f=level]")).to_have_text("Tournament over" if lang == "en" else "Turnier beendet")
    expect(tv.locator("[data-f=winner] .name")).to_have_text("Player 11 Longname")
    expect(tv.locator("[data-f=winner] small")).to_have_text("Winner" if lang == "en" else "Sieger")
    expect(tv.locator("[data-f=time]")).to_be_hidden()
    for name in ("next", "break_in"):
        expect(tv.locator(f"[data-f={name}]")).to_have_text("")
    expect(tv.locator("[data-f=side_title]")).to_have_text("Final table" if lang == "en" else "Finaltisch")
    first = tv.locator("#tl-side li").first
    expect(first).to_contain_text("Player 11 Longname")
    expect(first).to_contain_text("600")
    tv.screenshot(path=str(SHOTS / f"tv-finished-{lang}-{size[0]}x{size[1]}.png"))
    g = tv.evaluate(GEOMETRY_JS)
    assert not g["overlapTitle"] and not g["outside"], g
    assert g["winnerLines"] <= 2 and all(n <= 1 for k, n in g["lines"].items() if k != "winner"), g
