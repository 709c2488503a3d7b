"""The tournament TV's extras (issue 23, what a director also expects): while late registration is open
a countdown to its close, the rebuys and add-ons bought, and a level change announced on the screen and
sounded (a Web Audio tone) once the screen has been tapped: until then the header shows "Tap to allow
sound". At 1920x1080 and 1280x720, in English and German. Screenshots go to /tmp/shots/tvprint/."""

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/tvprint")
LEVEL = {"kind": "level", "ante_kind": "big_blind_ante", "minutes": 20}
STRUCTURE = {
    "periods": [
        {**LEVEL, "small_blind": 100, "big_blind": 200, "ante": 200},
        {**LEVEL, "small_blind": 200, "big_blind": 400, "ante": 400},
        {**LEVEL, "small_blind": 300, "big_blind": 600, "ante": 600},
    ],
    "late_registration_until": 1,  # open to the end of level 2: 40 minutes after the start
}
TEXT = {
    "en": {
        "late": "Late registration closes in",
        "rebuys": "Rebuys",
        "add_ons": "Add-ons",
        "allow": "Tap to allow sound",
        "on": "Sound on",
        "off": "Sound off",
        "level2": "Level 2",
    },
    "de": {
        "late": "Nachmeldung noch",
        "rebuys": "Rebuys",
        "add_ons": "Add-ons",
        "allow": "Tippen für Ton",
        "on": "Ton an",
        "off": "Ton aus",
        "level2": "Level 2",
    },
}


def _running(level_seconds_left: int):
    """A started rebuy event (12 players, 2 rebuys, 1 add-on) whose first level has
    ``level_seconds_left`` seconds to run."""
    from tournaments import services
    from tournaments.models import Entry, Tournament

    t = services.create_tournament(
        "Friday Rebuy",
        "munotpoker",
        STRUCTURE,
        starting_stack=20_000,
        buy_in=100,
        seed=3,
        rebuys_allowed=3,
        add_ons_allowed=1,
    )
    for i in range(12):
        services.register(t.id, f"Player {i:02d}")
    services.start(t.id)
    seated = list(Entry.objects.filter(tournament=t, status="seated").order_by("id"))
    services.rebuy(seated[0].id)
    services.rebuy(seated[1].id)
    services.rebuy(seated[2].id, add_on=True)
    Tournament.objects.filter(pk=t.id).update(clock_started_at=time.time() - (20 * 60 - level_seconds_left))
    return Tournament.objects.get(pk=t.id)


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_tv_counts_down_late_registration_and_shows_rebuys_and_add_ons(new_page, locale, size):
    t = off_loop(_running, 5 * 60)  # 5 minutes of level 1 and all of level 2 left: 25:00 to the close
    lang = locale[:2]
    tv = new_page(size, locale=locale)
    tv.goto(f"/tournaments/lobby/{t.public_token}/?page_seconds=600", wait_until="domcontentloaded")
    tv.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '12'", timeout=30_000)
    late = tv.locator("[data-f=late_reg]")
    expect(late).to_be_visible()
    expect(late).to_contain_text(TEXT[lang]["late"])
    left = tv.locator("[data-f=late_reg_left]").inner_text()
    minutes, seconds = (int(x) for x in left.split(":"))
    assert 24 * 60 <= minutes * 60 + seconds <= 25 * 60, left
    expect(tv.locator("[data-f=rebuy_count]")).to_have_text(f"{TEXT[lang]['rebuys']} 2")
    expect(tv.locator("[data-f=add_on_count]")).to_have_text(f"{TEXT[lang]['add_ons']} 1")
    tv.screenshot(path=str(SHOTS / f"tv-extras-{lang}-{size[0]}x{size[1]}.png"))
    # every extra inside the header, none cut off by the others
    boxes = tv.evaluate("""() => {
      const head = document.querySelector('.tv-head').getBoundingClientRect();
      return [...document.querySelectorAll('.tv-extras > :not([hidden]), .tv-sound')].map((el) => {
        const r = el.getBoundingClientRect();
        const box = el.closest('.tv-extras') ? el.closest('.tv-extras').getBoundingClientRect() : head;
        return r.top >= head.top - 1 && r.bottom <= head.bottom + 1 && r.right <= Math.min(head.right, box.right) + 1;
      });
    }""")
    assert boxes and all(boxes), boxes


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_tv_sound_needs_a_tap_then_announces_and_sounds_the_level_change(new_page, locale):
    t = off_loop(_running, 5 * 60)  # level 2 starts in 5 minutes: the TV's clock is moved on to it below
    lang = locale[:2]
    tv = new_page((1920, 1080), locale=locale)
    tv.clock.install()  # the page's timers and clocks, moved on by the test (Playwright's clock)
    tv.goto(f"/tournaments/lobby/{t.public_token}/?page_seconds=600", wait_until="domcontentloaded")
    tv.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '12'", timeout=30_000)
    sound = tv.locator("[data-f=sound]")
    expect(sound).to_be_visible()
    expect(sound).to_have_text(TEXT[lang]["allow"])
    expect(sound).to_have_attribute("data-sound", "allow")
    sound.click()
    expect(sound).to_have_attribute("data-sound", "on")
    expect(sound).to_have_text(TEXT[lang]["on"])
    announce = tv.locator("[data-f=announce]")
    expect(announce).to_be_hidden()
    tv.clock.fast_forward("05:01")  # the level's last 5 minutes pass on the TV
    expect(announce).to_be_visible()
    expect(announce).to_contain_text(TEXT[lang]["level2"])
    expect(announce).to_contain_text("200 / 400")
    expect(tv.locator("#tlobby")).to_have_attribute("data-tones", "1")
    tv.screenshot(path=str(SHOTS / f"tv-announce-{lang}-1920x1080.png"))
    # the toggle turns it off, and a reload remembers that
    sound.click()
    expect(sound).to_have_attribute("data-sound", "off")
    expect(sound).to_have_text(TEXT[lang]["off"])
    tv.reload(wait_until="domcontentloaded")
    expect(tv.locator("[data-f=sound]")).to_have_attribute("data-sound", "off", timeout=20_000)
