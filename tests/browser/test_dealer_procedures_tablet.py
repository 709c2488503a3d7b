"""The dealer finishes an exposed card and a misdeal on the tablet where the house rules let him
(issue 24): on a MunotPoker table (004 #35) the procedures never ask whether the flop is out or how
many actions were taken, end in "Done at the table", and the hand shows what was done with the
rule; what the floor decides still offers only the floor call.

Screenshots (artifacts/): tablet-dealer-exposed-card, tablet-dealer-misdeal.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import Hand, HandEvent, Table
from tests.browser.conftest import off_loop, screenshot, settled
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def munot(dealer, floorman):
    """A MunotPoker table at 50/100 (dealt by ``dealer``), four players."""
    table = off_loop(
        services.create_table, "Munot 1", small_blind=50, big_blind=100, rules_profile="munotpoker", dealer=dealer
    )
    for seat, name in [(1, "Anna"), (3, "Ben"), (5, "Clara"), (7, "David")]:
        off_loop(services.seat_player, table.id, seat, name, 10_000)
    return Table.objects.get(pk=table.id)


def _open(page, table):
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    page.locator('[data-action="start"]').click()
    settled(page)
    expect(page.locator('[data-field="actor"]')).to_contain_text("David")


def _walk(page, procedure, *options):
    page.locator('button[data-action="procedures"]').click()
    page.locator(f'#sheet-proc [data-procedure="{procedure}"]').click()
    for option in options:
        expect(page.locator(".proc-question")).not_to_have_text("Is the flop already out?")
        page.locator(f'#sheet-proc [data-option="{option}"]').click()
    return page.locator("#sheet-proc .proc-outcome")


def test_an_exposed_card_is_replaced_at_the_table_and_the_misdeal_declared_there(munot, new_page):
    page = new_page((1280, 800))
    _open(page, munot)

    # a hole card exposed by the dealer: replaced, finished at the table with 004 #35
    outcome = _walk(page, "exposed_card", "deal", "one")
    expect(outcome).to_have_attribute("data-finish", "dealer")
    expect(outcome).to_contain_text("Not a misdeal: the exposed card is replaced.")
    expect(outcome.locator(".cite", has_text="004 #35")).to_be_visible()
    screenshot(page, "tablet-dealer-exposed-card")
    outcome.locator('[data-action="proc-finish"]').click()
    settled(page)
    expect(page.locator("#sheet-proc")).to_be_hidden()
    event = page.locator('[data-field="proc-event"]')
    expect(event).to_contain_text("Dealer, by the house rules: Not a misdeal: the exposed card is replaced.")
    expect(event.locator(".cite", has_text="004 #35")).to_be_visible()
    expect(page.locator('[data-field="actor"]')).to_contain_text("David")  # the hand goes on
    assert off_loop(lambda: HandEvent.objects.filter(kind="note", payload__type="procedure").count()) == 1

    # "something else" is the floor's: no "done at the table", the floor call instead
    outcome = _walk(page, "misdeal", "other")
    expect(outcome).to_have_attribute("data-finish", "floor")
    expect(outcome.locator('[data-action="proc-finish"]')).to_have_count(0)
    outcome.locator('[data-action="proc-floor"]').click()
    expect(page.locator("#sheet-floor")).to_be_visible()
    page.locator('#sheet-floor [data-action="sheet-close"]').first.click()

    # a second card dealt face up, no action yet: the dealer declares the misdeal (no flop question)
    outcome = _walk(page, "misdeal", "two_exposed")
    expect(outcome).to_have_attribute("data-finish", "dealer")
    expect(outcome).to_contain_text("Misdeal: the hand is void, every chip goes back.")
    outcome.locator('[data-action="proc-finish"]').click()
    settled(page)
    rule = page.locator('[data-field="misdeal-rule"]')
    expect(rule).to_contain_text("Dealer, by the house rules: Misdeal")
    expect(rule.locator(".cite", has_text="004 #35")).to_be_visible()
    screenshot(page, "tablet-dealer-misdeal")
    hand = off_loop(lambda: Hand.objects.filter(table=munot).order_by("-id").first())
    assert hand.status == Hand.Status.MISDEAL


def test_the_floor_sheet_offers_the_procedure_for_a_misdeal(munot, new_page):
    page = new_page((1280, 800))
    _open(page, munot)
    page.locator('button[data-action="floor"]').click()
    offer = page.locator('[data-field="floor-at-table"]')
    expect(offer).to_be_hidden()  # "other" is the floor's
    page.locator('#sheet-floor select[name="reason"]').select_option("misdeal")
    expect(offer).to_be_visible()
    offer.locator('[data-action="floor-to-procedure"]').click()
    expect(page.locator("#sheet-floor")).to_be_hidden()
    expect(page.locator(".proc-question")).to_have_text("What went wrong during the deal?")
    page.locator('#sheet-proc [data-option="off_table"]').click()
    outcome = page.locator("#sheet-proc .proc-outcome")
    expect(outcome).to_have_attribute("data-finish", "dealer")
    outcome.locator('[data-action="proc-finish"]').click()
    settled(page)
    expect(page.locator('[data-field="misdeal-rule"]')).to_contain_text("004 #35")
    # nobody called the floor
    from rules.models import FloorCall

    assert off_loop(lambda: FloorCall.objects.count()) == 0
