"""Issue 24 in the browser (findings 1 and 4): an out-of-turn call sent without a seat asks the floor for
the skipped seat and then suggests rulings, never the input error as a ruling (English and German); the
floor tile's "Last action" and the tablet's history put every event kind in words in both languages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop
from tests.browser.waits import login_to, message_handled, watch_sockets
from tests.rules.test_words_events import SAMPLES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\bundo\b|\btime called\b|needs 'seat'")


@pytest.fixture
def seatless_call(dealer, floorman, loaded_rulebooks):
    """Table 1 (004): David (7) raised to 6, Anna (1) folded; the dealer calls "Action out of turn", seat "–"."""
    from rules import services as floor
    from tables import services

    table = off_loop(
        services.create_table, "Table 1", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker"
    )
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        off_loop(services.seat_player, table.id, seat, name, stack)
    off_loop(services.start_hand, table.id)
    off_loop(services.apply_action, table.id, {"type": "raise", "seat": 7, "to": 6})
    off_loop(services.apply_action, table.id, {"type": "fold", "seat": 1})
    return off_loop(floor.raise_floor_call, table.id, "out_of_turn", seat=None, actor=dealer)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_call_without_its_seat_asks_for_it_then_suggests(seatless_call, new_page, lang):
    page = new_page((1280, 800), locale="de-DE" if lang == "de" else "en-US")
    login_to(page, "floor", "pw-floor", f"/rules/calls/{seatless_call.id}/")
    fact = page.locator("#fc-fact")
    expect(fact).to_be_visible()
    expect(page.locator("#floor-call")).not_to_contain_text("held_action")
    expect(page.locator(".suggestion")).to_have_count(0)
    expect(page.locator("button.apply")).to_have_count(0)
    # The floor taps Anna, who was skipped: the rulings follow, with the rules to tick.
    fact.locator("label", has_text="Anna (1)").click()
    with page.expect_navigation():
        page.locator('[data-action="supply-fact"]').click()
    expect(page.locator("#fc-fact")).to_have_count(0)
    expect(page.locator(".suggestion").first).to_be_visible()
    expect(page.locator(".suggestion").first).to_contain_text("004 #53")
    expect(page.locator(".fc-cite")).to_contain_text("004 #53")
    expect(page.locator("#floor-call")).not_to_contain_text("needs")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_event_kind_is_in_words_on_the_floor_and_the_tablet_helpers(seatless_call, new_page, lang):
    page = new_page((1280, 800), locale="de-DE" if lang == "de" else "en-US")
    login_to(page, "floor", "pw-floor", "/floor/")
    texts = page.evaluate(
        """async (events) => {
          const hand = await import("/static/js/hand.js");
          const { Texts } = await import("/static/js/i18n.js");
          const snap = {seq: 1, table: {}, seats: [], hand: {number: 3, status: "live", state: {players: [
            {seat: 1, player: "Anna"}, {seat: 2, player: "Ben"}, {seat: 3, player: "Clara"}]}}};
          const model = hand.readSnapshot(snap);
          const floor = new Texts({...hand.HAND_TEXTS});
          // a page with only some of the keys (the tablet's own texts): the rest from HAND_TEXTS
          const tablet = new Texts({seat_n: hand.HAND_TEXTS.seat_n, act_fold: hand.HAND_TEXTS.act_fold});
          return events.map((e) => [e.kind + ":" + (e.payload.type || ""),
            hand.describeEvent(floor, model, e), hand.describeEvent(tablet, model, e)]);
        }""",
        SAMPLES,
    )
    assert len(texts) == len(SAMPLES)
    for kind, on_floor, on_tablet in texts:
        for text in (on_floor, on_tablet):
            assert text.strip(), kind
            assert not RAW.search(text), (kind, text)
    if lang == "de":
        by_kind = {k: f for k, f, _t in texts}
        assert by_kind["clock:time_called"] == "Zeit verlangt für Ben (2)"
        assert by_kind["correction:undo"].startswith("Vom Dealer zurückgenommen")
        assert by_kind["action:bring_in"] == "Clara (3) bringt den Bring-in"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_empty_floor_call_list_says_so(new_page, floorman, lang):
    page = new_page((1920, 1080), locale="de-DE" if lang == "de" else "en-US")
    watch_sockets(page)
    login_to(page, "floor", "pw-floor", "/floor/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    message_handled(page, "floor_calls")  # the socket's floor_calls message has redrawn the list
    empty = page.locator('[data-field="no-calls"]')
    assert empty.inner_text() == ("Keine offenen Floor-Rufe." if lang == "de" else "No open floor calls.")
