"""The floor-call page groups the hand's events by street (issue 24, what a floor person expects):
a heading per street ("Preflop", "Flop"), each street's actions under it,
in English and German. Screenshots at 1280x800 into /tmp/shots/floor2/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/floor2")


def _hand_on_the_flop(dealer):
    """Table 1 (004): four players call preflop, the flop comes, Ben (3) bets 4; a dispute on Clara (5)."""
    from rules import services as floor
    from tables import services

    table = services.create_table("Table 1", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker")
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        services.seat_player(table.id, seat, name, stack)
    services.start_hand(table.id)
    for action in (
        {"type": "call", "seat": 7},
        {"type": "call", "seat": 1},
        {"type": "call", "seat": 3},
        {"type": "check", "seat": 5},
        {"type": "board", "cards": ""},
        {"type": "bet", "seat": 3, "to": 4},
    ):
        services.apply_action(table.id, action)
    return floor.raise_floor_call(table.id, "dispute", seat=5, actor=dealer)


@pytest.mark.parametrize(
    ("locale", "preflop", "flop", "bet"),
    [("en-US", "Preflop", "Flop", "Ben (3) bets 4"), ("de-DE", "Preflop", "Flop", "Ben (3) bettet 4")],
)
def test_the_call_page_lists_the_hand_street_by_street(
    dealer, floorman, loaded_rulebooks, new_page, locale, preflop, flop, bet
):
    call = off_loop(_hand_on_the_flop, dealer)
    page = new_page((1280, 800), locale=locale)
    login_to(page, "floor", "pw-floor", f"/rules/calls/{call.id}/")
    now = page.locator(".call-side > .event-streets")
    streets = now.locator(".event-street")
    expect(streets).to_have_count(2)
    expect(streets.nth(0).locator("h3")).to_have_text(preflop)
    expect(streets.nth(1).locator("h3")).to_have_text(flop)
    expect(streets.nth(0)).to_contain_text("David (7)")
    expect(streets.nth(1)).to_contain_text(bet)
    expect(streets.nth(0)).not_to_contain_text(bet)
    page.locator(".call-side > .event-streets").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"call-by-street-{locale[:2]}-1280x800.png"), full_page=True)
