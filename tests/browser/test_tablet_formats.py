"""Special formats on the dealer tablet in a real browser:

* the dealer picks a bomb pot before "Start hand": every player's chips are
  in and the flop comes first, without a betting round (000 Allgemein 14);
* a double board: two boards on the felt, each board's winners awarded,
  the pot split equally between the boards (000 Allgemein 14);
* run it twice after an all-in, when the players agree (000 Aktionen 8):
  two boards, the pot halved, the odd chip to the worse position.

Screenshots (artifacts/): tablet-bomb-pot, tablet-double-board, tablet-run-it-twice.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import Hand, Table
from tests.browser.conftest import off_loop, screenshot, settled, tap
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def make_table(name, dealer, *, sb, bb, profile, stacks, run_it_twice_min_pot=None):
    table = off_loop(services.create_table, name, small_blind=sb, big_blind=bb, rules_profile=profile, dealer=dealer)
    if run_it_twice_min_pot is not None:
        off_loop(services.set_table_formats, table.id, straddle_kinds=[], run_it_twice_min_pot=run_it_twice_min_pot)
    for seat, player, stack in stacks:
        off_loop(services.seat_player, table.id, seat, player, stack)
    return Table.objects.get(pk=table.id)


PLAYERS = [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]


def open_tablet(new_page, table):
    page = new_page((1280, 900))
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    return page


def deal(page, cards, title):
    """Deal ``cards`` once the tablet shows ``title``: the new street's snapshot
    has arrived, so it cannot clear the cards typed for it."""
    expect(page.locator('[data-field="deal-title"]')).to_have_text(title)
    page.locator('[data-field="board-text"]').fill(cards)
    tap(page, '[data-action="board"]')


def stack(page, seat):
    return page.locator(f'.seat[data-seat="{seat}"] .seat-stack')


def test_bomb_pot_chosen_on_the_tablet_000_allgemein_14(dealer, new_page):
    table = make_table(
        "Casino 1",
        dealer,
        sb=5,
        bb=10,
        profile="casino-cash",
        stacks=[(1, "Anna", 1000), (3, "Ben", 1000), (5, "Clara", 1000), (7, "David", 1000)],
    )
    page = open_tablet(new_page, table)
    formats = page.locator('[data-field="formats"]')
    expect(formats).to_be_visible()
    formats.locator('[data-format-kind="bomb_pot"]').click()
    expect(formats.locator('[data-format-kind="bomb_pot"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-field="format-hint"]')).to_contain_text("000 Allgemein 14")
    page.locator('[data-action="start"]').click()  # no amount yet: refused on the tablet
    expect(page.locator('[data-field="alert-title"]')).to_have_text("Enter the chips each player posts")
    assert Hand.objects.filter(table=table).count() == 0
    page.locator('[data-action="dismiss"]').click()
    page.locator('input[name="format_amount"]').fill("20")
    tap(page, '[data-action="start"]')

    # Everyone's chips are in and the flop is dealt first, with no preflop betting.
    expect(page.locator("#dealer")).to_have_attribute("data-current", "board")
    expect(page.locator('[data-field="deal-title"]')).to_have_text("Deal the flop")
    expect(page.locator('[data-field="pots"] .pot-amount')).to_have_text("80")
    for seat in (1, 3, 5, 7):
        expect(stack(page, seat)).to_have_text("980")
    expect(page.locator('[data-field="format"]')).to_have_text("Bomb pot 20")
    screenshot(page, "tablet-bomb-pot")
    deal(page, "2c7d9h", "Deal the flop")
    expect(page.locator('[data-field="actor"]')).to_contain_text("Ben")  # the play goes on after the flop
    hand = Hand.objects.get(table=table)
    assert hand.spec["bomb_pot"] == 20 and hand.events.get(index=0).payload["format"]["kind"] == "bomb_pot"

    # the format was for one hand: the control is back to standard for the next one
    for _ in range(3):
        tap(page, '[data-action="fold"]')
    expect(page.locator(".winners")).to_contain_text("Anna (1) wins 80")
    expect(formats.locator('[data-format-kind="standard"]')).to_have_attribute("aria-pressed", "true")


def test_double_board_shows_two_boards_and_splits_the_pot_000_allgemein_14(dealer, floorman, new_page):
    table = make_table("Table DB", dealer, sb=1, bb=2, profile="tda-2024", stacks=PLAYERS)
    floor = new_page()
    login_to(floor, "floor", "pw-floor", "/floor/")
    page = open_tablet(new_page, table)
    page.locator('[data-action="format-double"]').click()
    tap(page, '[data-action="start"]')
    expect(page.locator('[data-field="format"]')).to_have_text("Double board")
    tap(page, '[data-action="call"]')  # David
    tap(page, '[data-action="fold"]')  # Anna
    tap(page, '[data-action="fold"]')  # Ben
    tap(page, '[data-action="check"]')  # Clara
    deal(page, "2c7d9h", "Deal the flop · board 1")
    deal(page, "3s8sKd", "Deal the flop · board 2")
    board1, board2 = page.locator('[data-field="board"]'), page.locator('[data-field="board2"]')
    expect(board2).to_be_visible()
    expect(board1.locator(".board-label")).to_have_text("Board 1")
    expect(board1.locator(".card:not(.slot)")).to_have_count(3)
    expect(board2.locator(".card:not(.slot)")).to_have_count(3)
    # the floor's tile draws both boards, live
    tile = floor.locator(f'[data-table-id="{table.id}"]')
    expect(tile.locator('[data-f="board"] .card')).to_have_count(3)
    expect(tile.locator('[data-f="board2"] .card')).to_have_count(3)
    expect(tile.locator('[data-f="board2"] .card').first).to_have_attribute("data-card", "3s")
    for street, cards in (("turn", ("Jc", "4h")), ("river", ("Qs", "5s"))):
        tap(page, '[data-action="check"]')
        tap(page, '[data-action="check"]')
        deal(page, cards[0], f"Deal the {street} · board 1")
        deal(page, cards[1], f"Deal the {street} · board 2")
    tap(page, '[data-action="check"]')
    tap(page, '[data-action="check"]')
    expect(page.locator("#dealer")).to_have_attribute("data-current", "showdown")
    screenshot(page, "tablet-double-board")

    # Cards not entered: the dealer names the winner of each board.
    award = page.locator('.award[data-pot="0"]')
    expect(award.locator('[data-action="award"]')).to_be_disabled()
    award.locator('[data-board="1"] [data-winner="5"]').click()
    expect(award.locator('[data-action="award"]')).to_be_disabled()  # board 2 still open
    award.locator('[data-board="2"] [data-winner2="7"]').click()
    tap(page, '.award[data-pot="0"] [data-action="award"]')
    # the pot of 5 halved: 2 a board, the odd chip to Clara (the worse position)
    results = page.locator(".board-winners")
    expect(results).to_contain_text("Board 1: Clara (5) wins 3")
    expect(results).to_contain_text("Board 2: David (7) wins 2")
    expect(stack(page, 5)).to_have_text("151")
    expect(stack(page, 7)).to_have_text("400")


def test_run_it_twice_on_the_tablet_000_aktionen_8(dealer, new_page):
    table = make_table("Table RIT", dealer, sb=1, bb=2, profile="tda-2024", stacks=PLAYERS, run_it_twice_min_pot=100)
    page = open_tablet(new_page, table)
    tap(page, '[data-action="start"]')
    tap(page, '[data-action="all_in"]')  # David 400
    tap(page, '[data-action="fold"]')  # Anna
    tap(page, '[data-action="fold"]')  # Ben
    tap(page, '[data-action="call"]')  # Clara, all-in for 150
    expect(page.locator("#dealer")).to_have_attribute("data-current", "board")
    rit = page.locator('[data-action="rit-open"]')
    expect(rit).to_be_visible()
    rit.click()
    sheet = page.locator("#sheet-rit")
    expect(sheet).to_be_visible()
    send = sheet.locator('[data-action="rit-send"]')
    expect(send).to_be_disabled()
    sheet.locator('[data-rit-seat="5"]').click()
    expect(sheet.locator('[data-field="rit-hint"]')).to_have_text("Every player in the chosen pots must agree.")
    expect(send).to_be_disabled()
    sheet.locator('[data-rit-seat="7"]').click()
    expect(send).to_be_enabled()  # two players: no floor needed
    send.click()
    settled(page)
    expect(sheet).to_be_hidden()
    expect(page.locator('[data-field="format"]')).to_have_text("Run twice")
    expect(rit).to_be_hidden()
    payload = Hand.objects.get(table=table).events.order_by("-index").first().payload
    assert payload["type"] == "run_it_twice" and payload["agreed"] == [5, 7]

    deal(page, "2c7d9h", "Deal the flop · board 1")
    deal(page, "Jc", "Deal the turn · board 1")
    deal(page, "Qs", "Deal the river · board 1")
    deal(page, "3s8sKd", "Deal the flop · board 2")
    deal(page, "4h", "Deal the turn · board 2")
    deal(page, "5s", "Deal the river · board 2")
    expect(page.locator('[data-field="board2"] .card:not(.slot)')).to_have_count(5)
    for seat, cards in ((5, "AhAd"), (7, "KhKc")):
        page.locator(f'.sd-row[data-seat="{seat}"] .sd-who').click()
        page.locator('[data-field="show-text"]').fill(cards)
        tap(page, f'[data-action="show"][data-seat="{seat}"]')
    results = page.locator(".board-winners")
    expect(results).to_contain_text("Board 1: Clara (5) wins 151")
    expect(results).to_contain_text("Board 2: David (7) wins 150")
    expect(page.locator('[data-field="board"] .card:not(.slot)')).to_have_count(5)
    expect(page.locator('[data-field="board2"]')).to_be_visible()
    screenshot(page, "tablet-run-it-twice")
    expect(stack(page, 5)).to_have_text("151")
    expect(stack(page, 7)).to_have_text("400")


def test_a_button_straddle_agreed_at_the_opening_000_aktionen_1(dealer, new_page):
    """Only the straddle kinds agreed at the table's opening are offered; the
    button straddles and the action starts left of the button."""
    table = make_table("Table STR", dealer, sb=1, bb=2, profile="tda-2024", stacks=PLAYERS)
    off_loop(services.set_table_status, table.id, "closed")
    off_loop(services.set_table_formats, table.id, straddle_kinds=["button"], run_it_twice_min_pot=None)
    off_loop(services.set_table_status, table.id, "open")
    page = open_tablet(new_page, table)
    straddles = page.locator('[data-field="format-straddles"]')
    expect(straddles.locator('select[name="straddle_live"]')).to_have_count(0)  # not agreed
    button = straddles.locator('[data-action="format-button-straddle"]')
    expect(button).to_have_text("Button straddle: Seat 1 (4)")
    button.click()
    tap(page, '[data-action="start"]')
    expect(page.locator('[data-bet-seat="1"]')).to_have_text("4")
    expect(page.locator('.seat[data-seat="1"] .tag-blind')).to_have_text("STR")
    expect(page.locator('[data-field="actor"]')).to_contain_text("Ben")  # left of the button
    expect(page.locator('[data-field="to-call"]')).to_have_text("3")
    expect(page.locator('[data-field="format"]')).to_have_text("Button straddle seat 1")
