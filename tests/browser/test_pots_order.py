"""The main pot is listed before the side pots on the tablet (issue 24, numbers that agree): the
dealer awarded the side pot first, as dealers do; the hand's result still lists the main pot first."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import Hand
from tests.browser.conftest import off_loop
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _side_pot_awarded_first(dealer):
    """Three players all-in for 100 and 200, called by the 300 stack; the side pot (1) is awarded before the main pot (0)."""
    table = services.create_table("Table 1", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name, stack in [(1, "Anna", 100), (3, "Ben", 200), (5, "Clara", 300)]:
        services.seat_player(table.id, seat, name, stack)
    services.start_hand(table.id)
    for _ in range(3):
        seat = Hand.objects.filter(table_id=table.id).latest("id").snapshot["to_act_seat"]
        if seat is None:
            break
        try:
            services.apply_action(table.id, {"type": "all_in", "seat": seat})
        except services.ServiceError:  # every opponent is all-in: the last one calls
            services.apply_action(table.id, {"type": "call", "seat": seat})
    for _ in range(3):
        snap = Hand.objects.filter(table_id=table.id).latest("id").snapshot
        if len(snap.get("pots") or []) and snap.get("phase") == "showdown":
            break
        services.apply_action(table.id, {"type": "board", "cards": ""})
    services.apply_action(table.id, {"type": "award", "pot": 1, "winners": [5]})
    services.apply_action(table.id, {"type": "award", "pot": 0, "winners": [1]})
    return table


@pytest.mark.parametrize(
    ("locale", "main", "side"), [("en-US", "Main pot", "Side pot"), ("de-DE", "Hauptpot", "Nebenpot")]
)
def test_the_tablet_lists_the_main_pot_first(dealer, new_page, locale, main, side):
    table = off_loop(_side_pot_awarded_first, dealer)
    page = new_page((1280, 800), locale=locale)
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    lines = page.locator(".winners li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text(main)
    expect(lines.nth(1)).to_contain_text(side)
