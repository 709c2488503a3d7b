"""The floor-call alarm sounds by default on a floor dashboard (issue 24, what a floor person expects):
the sound toggle is on without a stored choice, a floorman who turns it off keeps that choice over a
reload (localStorage), and the one tap a browser needs before it plays audio is shown as a visible button
until it is given. A new call then plays
the tone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/floor2")
# Headless chromium runs audio without a tap; a room's browser does not. The page's AudioContext is made
# to behave as there: "suspended" until the page calls resume() (which it may only do on a tap), silent
# until then; the tones it plays once allowed are counted (every beep starts oscillators).
GATED_AUDIO = """
window.__tones = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) { super(...args); this.__allowed = false; }
  get state() { return this.__allowed ? super.state : "suspended"; }
  resume() {
    this.__allowed = true;
    setTimeout(() => this.dispatchEvent(new Event("statechange")), 0);
    return super.resume();
  }
  createOscillator() { if (this.__allowed) window.__tones += 1; return super.createOscillator(); }
};
"""
TEXTS = {
    "en-US": {"on": "Alarm sound: on", "off": "Alarm sound: off", "unlock": "Tap here to allow the alarm sound"},
    "de-DE": {"on": "Alarmton: an", "off": "Alarmton: aus", "unlock": "Hier tippen, um den Alarmton zu erlauben"},
}


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_alarm_is_on_by_default_asks_for_the_tap_and_remembers_off(dealer, floorman, new_page, locale):
    from tables import services

    texts = TEXTS[locale]
    off_loop(services.create_table, "Table 1", small_blind=1, big_blind=2, dealer=dealer)
    page = new_page((1920, 1080), locale=locale)
    page.add_init_script(GATED_AUDIO)
    login(page, "floor", "pw-floor")
    page.goto("/floor/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=15_000)

    sound = page.locator('[data-action="sound"]')
    unlock = page.locator('[data-action="sound-unlock"]')
    # On by default, and the browser's one tap is asked for where the floorman sees it.
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(sound).to_have_text(texts["on"])
    expect(unlock).to_be_visible()
    expect(unlock).to_have_text(texts["unlock"])
    page.screenshot(path=str(SHOTS / f"floor-alarm-unlock-{locale[:2]}-1920x1080.png"))

    unlock.click()
    expect(unlock).to_be_hidden()
    # the tap plays the tone once (after the audio context resumed), so the floorman hears it works
    page.wait_for_function("window.__tones > 0", timeout=15_000)
    before = page.evaluate("window.__tones")

    # A new call from the tablet sounds the alarm.
    tablet = new_page((1280, 800), locale=locale)
    login(tablet, "dealer", "pw-dealer")
    expect(tablet.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=15_000)
    tablet.locator('button[data-action="floor"]').click()
    tablet.locator('select[name="reason"]').select_option("dispute")
    tablet.locator('button[data-action="floor-send"]').click()
    expect(page.locator(".call-list .call-open")).to_have_count(1, timeout=15_000)
    page.wait_for_function(f"window.__tones > {before}", timeout=15_000)
    page.screenshot(path=str(SHOTS / f"floor-alarm-call-{locale[:2]}-1920x1080.png"))

    # Turned off, it stays off after a reload and asks for no tap.
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(sound).to_have_text(texts["off"])
    page.reload()
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=15_000)
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(sound).to_have_text(texts["off"])
    expect(unlock).to_be_hidden()
