"""The room page's "Leaves" during a hand (issue 24, finding 9): it said the cash-out, asked, then refused
with "players leave only between hands".  Now the button says "Leaves after this hand", the question
says so, the seat shows the mark, and the player leaves when the hand ends (000 Einsätze 1)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from room import services as r
from room.models import Departure
from tables import services
from tables.models import Hand, Seat
from tests.browser.conftest import off_loop
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def casino(dealer):
    """Room "casino", NLHE 1/2: Main 1 with Anna 1, Ben 2, Clara 3 (100 each); a hand running."""
    room = r.create_room("casino", "Casino", call_seconds=300)
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, "Main 1", max_seats=6, dealer=dealer)
    for seat, name in ((1, "Anna"), (2, "Ben"), (3, "Clara")):
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 100)
    services.start_hand(table.id)
    return table


def fold_to_the_end(table):
    while True:
        state = Hand.objects.filter(table=table).order_by("-number").first().snapshot
        if state["phase"] == "complete":
            return
        services.apply_action(table.id, {"type": "fold", "seat": state["to_act_seat"]})


@pytest.mark.parametrize(
    ("locale", "button", "mark"),
    [
        ("en-US", "Leaves after this hand", "leaves after this hand"),
        ("de-DE", "Geht nach dieser Hand", "geht nach dieser Hand"),
    ],
)
def test_leaves_mid_hand_marks_the_player_to_leave_after_it(dealer, floorman, new_page, locale, button, mark):
    table = off_loop(casino, dealer)
    page = new_page((1280, 800), locale=locale)
    login_to(page, "floor", "pw-floor", "/room/casino/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    seat = page.locator(f'[data-table-id="{table.id}"] .rseat[data-seat="2"]')
    leave = seat.locator('[data-op="leave"]')
    expect(leave).to_have_text(button)
    questions = []

    def answer(dialog):
        questions.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    leave.click()
    expect(seat.locator('[data-f="leaving"]')).to_have_text(mark)
    assert questions and "Ben" in questions[0] and ("hand" in questions[0].lower())
    expect(page.locator('[data-field="error"]')).to_be_hidden()
    expect(seat.locator('[data-op="leave"]')).to_have_count(0)
    page.screenshot(path=f"/tmp/shots/tablet/room-leaving-{locale[:2]}.png")
    assert Seat.objects.get(table=table, number=2).player_id is not None  # still in the hand

    off_loop(fold_to_the_end, table)
    assert Seat.objects.get(table=table, number=2).player_id is None
    assert Departure.objects.filter(player__name="Ben").exists()
    page.reload()
    expect(page.locator(f'[data-table-id="{table.id}"] .rseat[data-seat="2"]')).to_have_class("rseat open")
