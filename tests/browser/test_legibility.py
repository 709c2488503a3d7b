"""Legible at arm's length (issue 24): an automated check of text size and contrast on the pages of a
cash night, in English and German.

The demo room (``manage.py load_demo``) and the rulebooks are loaded; Table 1 has a hand in progress
(a raise, a fold, an all-in, a bet in front) and an open floor call.  Each page is opened at the sizes it
is made for: the dealer tablet at 1280×800 and 800×1280 (the betting pad, then the board's card picker),
its idle panel, the floor dashboard (map and tiles) at 1920×1080 and 1280×800, the floor-call page, the
room page, the cash lobby TV at 1920×1080 and 1280×720, and the staff pages on a 390×844 phone.  On each:

- every visible text (text nodes and form fields) has a computed font size of at least 14 px;
- every text's contrast against what is painted behind it is at least 4.5:1, or 3:1 for large text
  (24 px, or bold from 18.66 px), as WCAG 2 AA says.  axe-core's ``color-contrast`` rule
  (``static/vendor/axe-core/axe.min.js``, injected by the test) finds the background through the
  elements painted under the text; where axe cannot decide (a gradient or image behind the text, the
  felt), the test takes the worst colour of the gradient (``worst_behind`` below), so an undecided text
  never passes unseen;
- on the tablet, seat numbers and seat tags are at least 16 px, and the picker's cards at least 48 px wide
  (40 px on a phone) with "10♠" never cut.

Disabled controls are left out of the contrast check (WCAG 1.4.3 exempts inactive components), as axe does.

Screenshots: /tmp/shots/a11y/ when ``A11Y_SHOTS`` is set (the issue's review), else artifacts/legibility/.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.browser.conftest import login, off_loop
from tests.browser.waits import goto_settled, login_to, page_settled, two_frames
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "static" / "vendor" / "axe-core" / "axe.min.js"
SHOTS = Path(os.environ["A11Y_SHOTS"]) if os.environ.get("A11Y_SHOTS") else ARTIFACTS / "legibility"

TABLET_SIZES = [(1280, 800), (800, 1280)]
PHONE = (390, 844)
MIN_TEXT = 14  # px: no text smaller
MIN_TAG = 16  # px: seat numbers and seat tags
MIN_CARD = {"tablet": 48, "phone": 40}  # px: width of a picker card

# Every visible text node and form field whose font is under MIN_TEXT px.
SMALL_TEXT = """(min) => {
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) {
      let s = e.tagName.toLowerCase();
      if (e.id) s += "#" + e.id;
      if (e.classList.length) s += "." + [...e.classList].join(".");
      if (e.dataset.field) s += `[data-field=${e.dataset.field}]`;
      if (e.dataset.f) s += `[data-f=${e.dataset.f}]`;
      parts.unshift(s);
    }
    return parts.join(" > ");
  };
  const shown = (el) => {
    if (!el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    let el = n.parentElement;
    if (!text || !el || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(el.tagName)) continue;
    if (el.tagName === "OPTION" || el.tagName === "OPTGROUP") el = el.closest("select") || el;
    if (!shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    if (el.tagName !== "SELECT" && ![...range.getClientRects()].some((r) => r.width > 0 && r.height > 0)) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < min - 0.01) out.push(`${size.toFixed(1)}px "${text.slice(0, 30)}" ${where(el)}`);
  }
  for (const el of document.querySelectorAll("input:not([type=hidden]), textarea")) {
    if (!shown(el)) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const text = (el.value || el.placeholder || el.textContent || "").trim();
    if (text && size < min - 0.01) out.push(`${size.toFixed(1)}px field "${text.slice(0, 30)}" ${where(el)}`);
  }
  return [...new Set(out)];
}"""

# axe-core's color-contrast rule; the nodes it could not decide get the worst colour behind them.
CONTRAST = """async () => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  // The colours that may be behind `el`: walk up to the first opaque background; a gradient or image
  // adds every colour it names (its worst one decides).
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      const img = s.backgroundImage;
      const stops = img && img !== "none" ? (img.match(/rgba?\\([^)]+\\)/g) || []).map(parse) : [];
      const bg = parse(s.backgroundColor);
      layers.push({ stops, bg });
      if (bg && bg.a >= 1) break;
    }
    let under = [{ r: 255, g: 255, b: 255, a: 1 }];
    for (const { stops, bg } of layers.reverse()) {
      if (bg && bg.a > 0) under = under.map((u) => over(bg, u));
      if (stops.length) under = stops.flatMap((s) => under.map((u) => over(s, u)));
    }
    return under;
  };
  const large = (el) => {
    const s = getComputedStyle(el);
    const px = parseFloat(s.fontSize);
    return px >= 24 || (px >= 18.66 && (parseInt(s.fontWeight, 10) || 400) >= 700);
  };
  const result = await axe.run(document, {
    runOnly: { type: "rule", values: ["color-contrast"] },
    resultTypes: ["violations", "incomplete"],
  });
  const out = [];
  const seen = new Set();
  const report = (el, node, fg, bg, r, need, how) => {
    const text = (el.innerText || el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 30);
    const key = `${node.target.join(" ")}|${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(`${r.toFixed(2)}:1 < ${need}:1 "${text}" ${fg} on ${bg} (${how}) ${node.target.join(" ")}`);
  };
  for (const rule of result.violations) for (const node of rule.nodes) {
    const d = (node.any[0] || {}).data || {};
    const el = document.querySelector(node.target[0]);
    report(el || document.body, node, d.fgColor, d.bgColor, d.contrastRatio, d.expectedContrastRatio.replace(":1", ""), "axe");
  }
  for (const rule of result.incomplete) for (const node of rule.nodes) {
    const d = (node.any[0] || {}).data || {};
    const el = document.querySelector(node.target[0]);
    if (!el || el.closest(":disabled") || el.closest("[aria-disabled=true]")) continue;
    if (["nonBmp", "shortTextContent", "equalRatio", "pseudoContent"].includes(d.messageKey)) continue;
    let fg = parse(getComputedStyle(el).color);
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
    const need = large(el) ? 3 : 4.5;
    for (const bg of behind(el)) {
      const shown = over({ ...fg, a: fg.a * opacity }, bg);
      const r = ratio(shown, bg);
      if (r < need - 0.005) {
        const c = (x) => `rgb(${Math.round(x.r)},${Math.round(x.g)},${Math.round(x.b)})`;
        report(el, node, c(shown), c(bg), r, need, `undecided by axe: ${d.messageKey}`);
        break;
      }
    }
  }
  return out;
}"""

# Seat numbers and tags of the tablet under MIN_TAG px.
SMALL_SEATS = """(min) => [...document.querySelectorAll(".dealer .seat-no, .dealer .seat-tags .tag")]
  .filter((el) => el.checkVisibility() && el.textContent.trim())
  .map((el) => [el.className, el.textContent.trim(), parseFloat(getComputedStyle(el).fontSize)])
  .filter(([, , size]) => size < min - 0.01)
  .map(([cls, text, size]) => `${size}px "${text}" .${cls.replace(/ /g, ".")}`)"""

# Picker cards narrower than `min` px, or whose text ("10♠") does not fit in the card.
NARROW_CARDS = """(min) => {
  const pickers = [...document.querySelectorAll(".picker")].filter((p) => p.checkVisibility());
  const out = [];
  if (!pickers.length) return ["no card picker is shown"];
  for (const b of pickers.flatMap((p) => [...p.querySelectorAll(".pick")])) {
    const card = b.querySelector(".card") || b;
    const box = b.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(card);
    const text = range.getBoundingClientRect();
    const inner = card.getBoundingClientRect();
    if (box.width < min - 0.5) out.push(`${b.dataset.card} ${box.width.toFixed(1)}px wide`);
    if (text.left < inner.left - 0.5 || text.right > inner.right + 0.5 || card.scrollWidth > card.clientWidth)
      out.push(`${b.dataset.card} "${card.textContent}" cut (${text.width.toFixed(1)}px text in ${inner.width.toFixed(1)}px)`);
  }
  return out;
}"""


def check_page(page, label: str, problems: list[str], *, shot: str | None = None) -> None:
    """Run the size and contrast checks on the page as it is; add what fails to ``problems``."""
    # The caller waited for the snapshot's picture (a settled page, the tablet's view); two more frames drawn,
    # and no transition runs on: the pages ask for reduced motion (tests/browser/conftest.py new_page).
    two_frames(page)
    if shot:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{shot}.png"))
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    problems += [f"{label}: text {p}" for p in page.evaluate(SMALL_TEXT, MIN_TEXT)]
    problems += [f"{label}: contrast {p}" for p in page.evaluate(CONTRAST)]


def open_view(page, path: str) -> None:
    path, _, view = path.partition("#")
    response = goto_settled(page, path)
    assert response.ok, f"{path} answered {response.status}"
    if view:
        page.click(f'.view-toggle [data-view="{view}"]')
        page_settled(page)


def act(table_id: int, kind: str, **extra) -> None:
    """Apply ``kind`` for the player to act on the table's live hand."""
    from tables import services
    from tables.models import Table
    from tables.services.replay import hand_state

    def run():
        table = Table.objects.select_related("current_hand").get(pk=table_id)
        seat = hand_state(table.current_hand).to_act_seat
        services.apply_action(table_id, {"type": kind, "seat": seat, **extra})

    off_loop(run)


@pytest.fixture
def night():
    """The demo room with a hand in progress on Table 1 (a raise, a fold, an all-in) and an open floor call
    on it; returns the paths: the two tables, the call page, the lobby TV."""
    from django.contrib.auth.models import User

    from room.models import Room
    from rules import services as floor
    from tables import services
    from tables.models import Table

    off_loop(call_command, "load_demo", stdout=io.StringIO())
    off_loop(call_command, "load_rulebooks", stdout=io.StringIO())
    table = Table.objects.get(name="Table 1")
    idle = Table.objects.get(name="Table 2")
    off_loop(services.start_hand, table.id)
    act(table.id, "raise", to=6)
    act(table.id, "fold")
    act(table.id, "all_in")
    call = off_loop(
        floor.raise_floor_call,
        table.id,
        "dispute",
        seat=1,
        note="Chips in front disputed",
        actor=User.objects.get(username="dealer"),
    )
    token = Room.objects.get(slug="casino").displays.filter(revoked=False).first().token
    return {
        "table": table,
        "tablet": f"/tables/{table.id}/dealer/",
        "idle": f"/tables/{idle.id}/dealer/",
        "call": f"/rules/calls/{call.id}/",
        "lobby": f"/lobby/{token}/",
    }


def finish_preflop(table_id: int) -> None:
    """Everyone still to act calls: the hand waits for the flop (the board's card picker)."""
    from tables.models import Table
    from tables.services.replay import hand_state

    while True:
        table = Table.objects.select_related("current_hand").get(pk=table_id)
        state = hand_state(table.current_hand)
        if state.to_act_seat is None:
            return
        act(table_id, "call")


def locale(lang: str) -> str:
    return "de-DE" if lang == "de" else "en-US"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_dealer_tablet_is_legible_at_arms_length(night, new_page, lang):
    problems: list[str] = []
    sizes = [*TABLET_SIZES, PHONE]
    pages = {}
    for size in sizes:
        page = new_page(size, locale=locale(lang))
        login_to(page, "dealer", "dealer-demo", night["tablet"])
        page.locator('[data-view="betting"]').wait_for(state="visible")
        label = f"tablet betting {size[0]}x{size[1]} {lang}"
        check_page(page, label, problems, shot=f"tablet-betting-{lang}-{size[0]}x{size[1]}")
        problems += [f"{label}: seat {p}" for p in page.evaluate(SMALL_SEATS, MIN_TAG)]
        pages[size] = page
    finish_preflop(night["table"].id)
    for size, page in pages.items():
        page.reload()
        page.locator('[data-view="board"]').wait_for(state="visible")
        label = f"tablet board {size[0]}x{size[1]} {lang}"
        check_page(page, label, problems, shot=f"tablet-board-{lang}-{size[0]}x{size[1]}")
        problems += [f"{label}: seat {p}" for p in page.evaluate(SMALL_SEATS, MIN_TAG)]
        kind = "phone" if size == PHONE else "tablet"
        problems += [f"{label}: picker {p}" for p in page.evaluate(NARROW_CARDS, MIN_CARD[kind])]
    idle = new_page(TABLET_SIZES[0], locale=locale(lang))
    login_to(idle, "dealer2", "dealer2-demo", night["idle"])
    idle.locator('[data-view="idle"]').wait_for(state="visible")
    check_page(idle, f"tablet idle 1280x800 {lang}", problems, shot=f"tablet-idle-{lang}-1280x800")
    assert not problems, "\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_floor_call_and_room_pages_are_legible(night, new_page, lang):
    problems: list[str] = []
    pages = [
        ("floor-map", "/floor/#map"),
        ("floor-tiles", "/floor/#tiles"),
        ("call", night["call"]),
        ("room", "/room/casino/"),
    ]
    for size in [(1920, 1080), (1280, 800), PHONE]:
        page = new_page(size, locale=locale(lang))
        login(page, "floor", "floor-demo")
        for name, path in pages:
            open_view(page, path)
            check_page(page, f"{name} {size[0]}x{size[1]} {lang}", problems, shot=f"{name}-{lang}-{size[0]}x{size[1]}")
        page.context.close()
    assert not problems, "\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_cash_lobby_tv_is_legible(night, new_page, lang):
    problems: list[str] = []
    for size in [(1920, 1080), (1280, 720)]:
        page = new_page(size, locale=locale(lang))
        goto_settled(page, night["lobby"])  # its socket's snapshot handled and drawn
        page.locator('[data-field="conn"][data-state="open"]').wait_for()
        check_page(page, f"lobby TV {size[0]}x{size[1]} {lang}", problems, shot=f"lobby-{lang}-{size[0]}x{size[1]}")
    assert not problems, "\n" + "\n".join(problems)
