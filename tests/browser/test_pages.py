"""The dealer tablet and the floor dashboard in a real browser against a real
daphne: a dealer plays whole hands while the floor watches them live.

Screenshots (artifacts/): the floor at 1280×800, the tablet at 1280×800 and
800×1280 in the betting, board and showdown views.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import Table
from tests.browser.conftest import login, off_loop, screenshot, settled, tap
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 2_000  # ms: the floor must show a dealer action within this time


@pytest.fixture
def room(dealer, floorman, other_dealer):
    """Table 1 (dealt by ``dealer``) with four players, plus two more tables
    for the dashboard: Table 2 idle, Table 3 with a live hand and a side pot."""
    table = off_loop(services.create_table, "Table 1", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        off_loop(services.seat_player, table.id, seat, name, stack)
    second = off_loop(
        services.create_table, "Table 2", small_blind=2, big_blind=5, rules_profile="casino-cash", dealer=other_dealer
    )
    for seat, name, stack in [(1, "Gina", 500), (3, "Hugo", 820), (6, "Ines", 450)]:
        off_loop(services.seat_player, second.id, seat, name, stack)
    third = off_loop(services.create_table, "Table 3", small_blind=5, big_blind=10)
    for seat, name, stack in [(2, "Karl", 1500), (4, "Lena", 40), (6, "Mia", 1000), (8, "Noah", 700)]:
        off_loop(services.seat_player, third.id, seat, name, stack)
    off_loop(services.start_hand, third.id)
    raised = False
    for _ in range(8):
        state = third.hands.get(status="live").snapshot
        if state["phase"] != "betting":
            break
        seat = state["to_act_seat"]
        if seat == 4:
            action = {"type": "all_in", "seat": seat}
        elif not raised:
            action, raised = {"type": "raise", "seat": seat, "to": 100}, True
        else:
            action = {"type": "call", "seat": seat}
        off_loop(services.apply_action, third.id, action)
    return Table.objects.get(pk=table.id)


def tile(floor, table_id):
    return floor.locator(f'.tile[data-table-id="{table_id}"]')


def expect_tile(floor, table_id, *, pot=None, last=None, to_act=None, street=None):
    """Assert the floor tile shows the given values (within LIVE ms, no reload)."""
    t = tile(floor, table_id)
    if pot is not None:
        expect(t.locator('[data-f="pot"]')).to_have_text(pot, timeout=LIVE)
    if last is not None:
        expect(t.locator('[data-f="last"]')).to_have_text(last, timeout=LIVE)
    if to_act is not None:
        expect(t.locator('[data-f="to-act"]')).to_have_text(to_act, timeout=LIVE)
    if street is not None:
        expect(t.locator('[data-f="street"]')).to_have_text(street, timeout=LIVE)


def amount(dealer, value: int) -> None:
    """Type an amount on the keypad."""
    dealer.locator('[data-short="clear"]').click()
    for digit in str(value):
        dealer.locator(f'.keys [data-key="{digit}"]').click()


def pick(dealer, picker: str, *cards: str) -> None:
    for card in cards:
        dealer.locator(f'[data-picker="{picker}"] .pick[data-card="{card}"]').click()


def expect_to_act(dealer, name: str) -> None:
    expect(dealer.locator('[data-field="actor"]')).to_contain_text(name)


def both_sizes(dealer, name: str) -> None:
    """Screenshot the tablet in landscape and in portrait."""
    screenshot(dealer, f"{name}-1280x800")
    dealer.set_viewport_size({"width": 800, "height": 1280})
    screenshot(dealer, f"{name}-800x1280")
    dealer.set_viewport_size({"width": 1280, "height": 800})


def test_it_plays_a_hand_on_the_tablet_while_the_floor_watches(room, new_page):
    tid = room.id
    floor = new_page((1280, 800))
    login_to(floor, "floor", "pw-floor", "/floor/")
    expect(floor.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    expect(tile(floor, tid).locator('[data-f="name"]')).to_have_text("Table 1")
    floor.evaluate("window.__sameDocument = 'yes'")  # gone if the page reloads

    dealer = new_page((1280, 800))
    login(dealer, "dealer", "pw-dealer")
    assert dealer.url.endswith(f"/tables/{tid}/dealer/")  # home sends a dealer to their table
    expect(dealer.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    expect(dealer.locator('[data-field="next-button"]')).to_contain_text("seat 1")
    screenshot(dealer, "dealer-idle-1280x800")

    # Hand 1: the button goes to seat 1, Ben (3) and Clara (5) post the blinds.
    tap(dealer, '[data-action="start"]')
    expect_tile(floor, tid, pot="3", to_act="David (7)", last="Hand #1 started, button seat 1", street="Preflop")
    expect_to_act(dealer, "David")
    expect(dealer.locator('[data-field="to-call"]')).to_have_text("2")
    expect(dealer.locator('[data-field="min-raise"]')).to_have_text("4")
    expect(dealer.locator('.seat[data-seat="7"]')).to_have_class(re.compile(r"\bto-act\b"))

    # A raise below the minimum is marked before it can be sent: the tablet says why, nothing changes.
    amount(dealer, 3)
    expect(dealer.locator('[data-field="amount-hint"]')).to_have_text("Below the minimum raise to 4 (less only all-in)")
    expect(dealer.locator('[data-action="raise"]')).to_be_disabled()
    expect_tile(floor, tid, pot="3", to_act="David (7)")

    amount(dealer, 6)
    expect(dealer.locator('[data-action="raise"]')).to_have_text("Raise to 6")
    tap(dealer, '[data-action="raise"]')
    expect(dealer.locator("#alert")).to_be_hidden()
    expect_tile(floor, tid, pot="9", last="David (7) raises to 6", to_act="Anna (1)")

    expect(dealer.locator('[data-action="call"]')).to_have_text("Call 6")
    both_sizes(dealer, "dealer-betting")
    tap(dealer, '[data-action="call"]')
    expect_tile(floor, tid, pot="15", last="Anna (1) calls", to_act="Ben (3)")

    tap(dealer, '[data-action="fold"]')
    expect_tile(floor, tid, pot="15", last="Ben (3) folds", to_act="Clara (5)")
    expect(tile(floor, tid).locator('tr[data-seat="3"]')).to_have_class(re.compile(r"\bfolded\b"))

    tap(dealer, '[data-action="call"]')
    expect_tile(floor, tid, pot="19", last="Clara (5) calls", to_act="Deal the flop", street="Flop")

    # The flop from the card picker.
    expect(dealer.locator('[data-field="deal-title"]')).to_have_text("Deal the flop")
    pick(dealer, "board", "Jc", "3d", "5c")
    both_sizes(dealer, "dealer-board")
    tap(dealer, '[data-action="board"]')
    expect_tile(floor, tid, last="Board: Jc 3d 5c", to_act="Clara (5)")
    expect(tile(floor, tid).locator('[data-f="board"] .card')).to_have_count(3)
    # a card on the board can no longer be picked
    tap(dealer, '[data-action="check"]')
    expect_tile(floor, tid, last="Clara (5) checks", to_act="David (7)")

    expect(dealer.locator('[data-action="raise"]')).to_have_text(re.compile(r"^Bet"))
    amount(dealer, 10)
    tap(dealer, '[data-action="raise"]')
    expect_tile(floor, tid, pot="29", last="David (7) bets 10", to_act="Anna (1)")
    screenshot(floor, "floor-1280x800")

    # The floor loses an update: it sees the gap and takes a snapshot.
    seq = floor.evaluate(f"window.pokerfloorFloor.tracker.get({tid})")
    floor.evaluate(f"window.pokerfloorFloor.tracker.reset({tid}, {seq - 1})")
    tap(dealer, '[data-action="call"]')
    expect_tile(floor, tid, pot="39", last="Anna (1) calls", to_act="Clara (5)")
    assert floor.evaluate("window.pokerfloorFloor.tracker.gaps") == 1
    room.refresh_from_db()
    assert floor.evaluate(f"window.pokerfloorFloor.tracker.get({tid})") == room.seq

    tap(dealer, '[data-action="fold"]')
    expect_tile(floor, tid, pot="39", last="Clara (5) folds", to_act="Deal the turn")

    # The tablet loses its connection: it reconnects by itself and resyncs.
    dealer.evaluate("window.pokerfloorDealer.socket.drop()")
    expect(dealer.locator('[data-field="conn"]')).not_to_have_attribute("data-state", "open", timeout=2_000)
    expect(dealer.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=10_000)

    # The turn typed as text.
    dealer.locator('[data-field="board-text"]').fill("qh")
    tap(dealer, '[data-action="board"]')
    expect_tile(floor, tid, last="Board: Qh", to_act="David (7)", street="Turn")

    # The tablet's seq is behind (another device wrote): `stale`, then a snapshot.
    room.refresh_from_db()
    dealer.wait_for_function(f"window.pokerfloorDealer.tracker.get('table') === {room.seq}")
    # The seq put back and the check tapped in one turn of the page's event loop: an update of the board that
    # reaches the tablet late (after the snapshot its ack asked for, on a loaded machine) cannot set the seq
    # forward again in between.
    expect(dealer.locator("#dealer")).not_to_have_class(re.compile(r"\b(settling|busy)\b"))  # the pad takes taps
    dealer.evaluate(
        """(seq) => {
          window.pokerfloorDealer.tracker.reset('table', seq);
          document.querySelector('[data-action="check"]').click();
        }""",
        room.seq - 1,
    )
    settled(dealer)
    expect(dealer.locator("#alert")).to_be_visible()
    expect(dealer.locator('[data-field="alert-title"]')).to_contain_text("The table changed on another device")
    dealer.wait_for_function(f"window.pokerfloorDealer.tracker.get('table') === {room.seq}")
    expect_tile(floor, tid, last="Board: Qh", to_act="David (7)")
    room.refresh_from_db()
    assert room.seq == dealer.evaluate("window.pokerfloorDealer.tracker.get('table')")  # nothing was applied
    tap(dealer, '[data-action="check"]')
    expect_tile(floor, tid, last="David (7) checks", to_act="Anna (1)")
    tap(dealer, '[data-action="check"]')
    expect_tile(floor, tid, last="Anna (1) checks", to_act="Deal the river")

    pick(dealer, "board", "2c")
    tap(dealer, '[data-action="board"]')
    expect_tile(floor, tid, last="Board: 2c", street="River")
    tap(dealer, '[data-action="check"]')
    tap(dealer, '[data-action="check"]')
    expect_tile(floor, tid, last="Anna (1) checks", street="Showdown", to_act="Showdown")

    # Showdown: David (nobody bet on the river: first left of the button) shows first.
    first = dealer.locator(".sd-row").first
    expect(first).to_have_attribute("data-seat", "7")
    expect(first).to_have_class(re.compile(r"\bselected\b"))
    pick(dealer, "show", "As", "Kd")
    both_sizes(dealer, "dealer-showdown")
    tap(dealer, '[data-action="show"][data-seat="7"]')
    expect_tile(floor, tid, last="David (7) shows As Kd")
    pick(dealer, "show", "5h", "5d")
    tap(dealer, '[data-action="show"][data-seat="1"]')
    # Both hands known: the engine awards the pot, the hand is over.
    expect(dealer.locator(".winners")).to_contain_text("Anna (1) wins 39")
    expect_tile(floor, tid, pot="–", street="Hand over", to_act="–")
    expect(tile(floor, tid).locator('tr[data-seat="1"] td.num').first).to_have_text("223")
    expect(dealer.locator('[data-field="next-button"]')).to_contain_text("seat 3")
    both_sizes(dealer, "dealer-complete")

    # Hand 2: nobody's cards are entered; the dealer awards the pot by hand.
    tap(dealer, '[data-action="start"]')
    expect_tile(floor, tid, pot="3", last="Hand #2 started, button seat 3", to_act="Anna (1)")
    tap(dealer, '[data-action="fold"]')
    tap(dealer, '[data-action="fold"]')
    tap(dealer, '[data-action="call"]')
    tap(dealer, '[data-action="check"]')
    for _ in range(3):
        tap(dealer, '[data-action="board-skip"]')
        tap(dealer, '[data-action="check"]')
        tap(dealer, '[data-action="check"]')
    expect_tile(floor, tid, street="Showdown", pot="4")
    dealer.locator('[data-pot="0"] [data-winner="7"]').click()
    tap(dealer, '[data-action="award"][data-pot="0"]')
    expect_tile(floor, tid, last="Main pot to David (7)", street="Hand over")
    expect(tile(floor, tid).locator('tr[data-seat="7"] td.num').first).to_have_text("386")

    # The floor saw all of it without a reload.
    assert floor.evaluate("window.__sameDocument") == "yes"
    room.refresh_from_db()
    assert room.hands.count() == 2 and not room.hands.filter(status="live").exists()


def test_the_pages_refuse_who_may_not_see_them(room, new_page):
    tid = room.id
    anonymous = new_page()
    anonymous.goto(f"/tables/{tid}/dealer/")
    assert re.search(rf"/login/\?next=/tables/{tid}/dealer/$", anonymous.url)
    anonymous.goto("/floor/")
    assert anonymous.url.endswith("/login/?next=/floor/")

    other = new_page()
    response = login_to(other, "dealer2", "pw-dealer2", f"/tables/{tid}/dealer/")
    assert response.status == 403

    dealer = new_page()
    login(dealer, "dealer", "pw-dealer")
    assert dealer.goto(f"/tables/{tid}/dealer/").status == 200
    assert dealer.goto("/floor/").status == 403
    assert dealer.goto(f"/tables/{tid}/hands/").status == 403


def test_the_floor_opens_the_history_and_a_hands_event_log(room, new_page):
    tid = room.id
    off_loop(services.start_hand, tid)
    while True:
        state = room.hands.get(number=1).snapshot
        if state["phase"] == "complete":
            break
        off_loop(services.apply_action, tid, {"type": "fold", "seat": state["to_act_seat"]})
    floor = new_page()
    login_to(floor, "floor", "pw-floor", "/floor/")
    tile(floor, tid).locator('[data-f="history-link"]').click()
    expect(floor).to_have_url(re.compile(rf"/tables/{tid}/hands/$"))
    row = floor.locator("#hands tbody tr").first
    expect(row).to_contain_text("#1")
    screenshot(floor, "history-1280x800")
    with floor.expect_download() as download:
        row.locator("a.phh").click()
    assert download.value.suggested_filename == f"table{tid}-hand1.phh"
    row.locator("a", has_text="#1").click()
    expect(floor.locator("#events tbody tr")).to_have_count(4)  # start + three folds
    screenshot(floor, "hand-1280x800")


def test_the_tablet_shows_main_and_side_pots(room, new_page):
    third = Table.objects.get(name="Table 3")
    state = third.hands.get(status="live").snapshot
    assert len(state["pots"]) == 2  # Lena (4) is all-in for 40, the others put in 100
    page = new_page((1280, 800))
    login_to(page, "floor", "pw-floor", f"/tables/{third.id}/dealer/")  # the floor may open any table's tablet
    pots = page.locator('[data-field="pots"] .pot')
    expect(pots).to_have_count(2)
    expect(pots.nth(0)).to_contain_text("Main pot")
    expect(pots.nth(0)).to_contain_text(str(state["pots"][0]["amount"]))
    expect(pots.nth(1)).to_contain_text("Side pot 1")
    expect(pots.nth(1)).to_contain_text(str(state["pots"][1]["amount"]))
    expect(pots.nth(0)).to_contain_text("Seats 2, 4, 6, 8")
    expect(pots.nth(1)).to_contain_text("Seats 2, 6, 8")  # Lena is not eligible for the side pot
    expect(page.locator('.seat[data-seat="4"] .tag-allin')).to_be_visible()
    screenshot(page, "dealer-sidepots-1280x800")
