"""The tournament TV's layout (issue 23): the next level's line is shown whole in German ("Danach: 200 / 400 ·
Big-Blind-Ante 400" was cut to "Big-Bli..."); once the places left are all paid the TV says "In the money"
instead of the bubble's place; at 390x844 (a phone) the TV fits the screen's width, nothing cut off, in
English and German. Screenshots go to artifacts/ (tv-<state>-<lang>-<size>)."""

import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

LOCALES = ["en-US", "de-DE"]
LEVELS = [
    {"kind": "level", "small_blind": 100, "big_blind": 200, "ante": 200, "ante_kind": "big_blind_ante", "minutes": 20},
    {"kind": "level", "small_blind": 200, "big_blind": 400, "ante": 400, "ante_kind": "big_blind_ante", "minutes": 20},
    {"kind": "break", "minutes": 15, "color_up": [25, 100]},
    {"kind": "level", "small_blind": 400, "big_blind": 800, "ante": 800, "ante_kind": "big_blind_ante", "minutes": 20},
]

# what does not fit: the page wider than the screen, an element reaching out of the screen, a line cut
# (its text wider than its box, shown with an ellipsis or clipped); ``scope`` a selector of the elements
# checked (all of the TV's by default; at 1920 the seat draw's long names end in an ellipsis by design)
CUT_JS = """(scope) => {
  const out = [];
  const W = innerWidth;
  if (document.documentElement.scrollWidth > W + 1) out.push(`page ${document.documentElement.scrollWidth} px wide`);
  for (const el of document.querySelectorAll(scope || '#tlobby *')) {
    if (el.closest('[hidden]') || el.offsetParent === null || !el.textContent.trim()) continue;
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    if (r.right > W + 1 || r.left < -1) out.push(`${el.tagName}.${el.className}[${el.dataset.f || ''}] "${el.textContent.trim().slice(0, 40)}" at ${Math.round(r.left)}..${Math.round(r.right)}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      out.push(`${el.tagName}.${el.className}[${el.dataset.f || ''}] "${el.textContent.trim().slice(0, 40)}" cut: ${el.scrollWidth} in ${el.clientWidth}`);
  }
  return out;
}"""

CLOCK_AND_FIGURES = ".tl-clock *, .tl-stats *"


def _field(players=24, minutes_ago=0):
    from tournaments import services
    from tournaments.models import Tournament

    t = services.create_tournament(
        "Friday Night Deepstack", "munotpoker", {"periods": LEVELS}, starting_stack=20_000, buy_in=100, seed=4
    )
    for i in range(players):
        services.register(t.id, f"Player {i:02d} Longname")
    services.start(t.id)
    if minutes_ago:
        Tournament.objects.filter(pk=t.id).update(clock_started_at=time.time() - minutes_ago * 60)
    return Tournament.objects.get(pk=t.id)


def _in_the_money():
    from tournaments import services
    from tournaments.models import Entry
    from tournaments.services import desk

    t = _field(12)
    services.set_payouts(t.id, [600, 360, 240])
    for e in list(Entry.objects.filter(tournament=t, status="seated").order_by("id"))[:9]:
        desk.desk_bust(t.id, [(e.id, None)])
    return t


def _open(new_page, t, size, locale, left):
    tv = new_page(size, locale=locale)
    tv.goto(f"/tournaments/lobby/{t.public_token}/?page_seconds=600")
    tv.wait_for_function(f"document.querySelector('[data-f=players_left]').textContent === '{left}'")
    return tv


@pytest.mark.parametrize("locale", LOCALES)
def test_the_next_level_line_is_shown_whole(new_page, locale):
    t = off_loop(_field)
    tv = _open(new_page, t, (1920, 1080), locale, 24)
    ante = "Big blind ante 400" if locale == "en-US" else "Big-Blind-Ante 400"
    nxt = tv.locator("[data-f=next]")
    expect(nxt).to_contain_text("200 / 400")
    expect(nxt).to_contain_text(ante)
    cut = tv.evaluate("(el) => el.scrollWidth > el.clientWidth + 1", nxt.element_handle())
    assert not cut, nxt.inner_text()
    assert not tv.evaluate(CUT_JS, CLOCK_AND_FIGURES)
    screenshot(tv, f"tv-level-{locale[:2]}-1920x1080")


@pytest.mark.parametrize("locale", LOCALES)
def test_once_every_player_left_is_paid_the_tv_says_in_the_money_not_bubble(new_page, locale):
    t = off_loop(_in_the_money)
    tv = _open(new_page, t, (1920, 1080), locale, 3)
    expect(tv.locator("[data-f=bubble_place]")).to_have_text("In the money" if locale == "en-US" else "Im Geld")
    assert not tv.evaluate(CUT_JS, CLOCK_AND_FIGURES)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("state", ["level", "break"])
def test_on_a_phone_the_tv_fits_the_screen(new_page, locale, state):
    t = off_loop(_field, 24, 45 if state == "break" else 0)
    tv = _open(new_page, t, (390, 844), locale, 24)
    expect(tv.locator("[data-f=level]")).to_contain_text(
        {"level": "Level", "break": "Break"}[state]
        if locale == "en-US"
        else {"level": "Level", "break": "Pause"}[state]
    )
    screenshot(tv, f"tv-{state}-{locale[:2]}-390x844")
    assert tv.evaluate(CUT_JS) == []
    # the clock is the first thing seen, readable: its time at least 48 px high
    assert tv.locator("[data-f=time]").bounding_box()["height"] >= 48
