"""The dealer's tablet gets each action's new state with its acknowledgement, not by asking again.

A tablet that receives the ack of its action before the update of that action (the update travels
through the table's group and reached the socket only after its ack) asked the server for a whole
snapshot: one more read and one more snapshot for every tap of every dealer.  Now the dealer's own
betting action comes back update first, then its ack, and a tablet whose ack still comes first (a deal,
a hand's end: the service threads' path) waits for the update before it asks.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tables import services
from tables.models import HandEvent, Table
from tests.browser.conftest import off_loop, settled
from tests.browser.waits import login_to, pad_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(dealer):
    """A 1/2 table dealt by ``dealer``: Anna 1, Ben 3, Clara 5, David 7 (David is first to act)."""
    table = off_loop(services.create_table, "Table 1", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 260)]:
        off_loop(services.seat_player, table.id, seat, name, stack)
    return Table.objects.get(pk=table.id)


def test_a_dealers_taps_need_no_snapshot_request(table, new_page):
    page = new_page((1280, 800))
    sent: list[dict] = []
    received: list[dict] = []

    def watch(ws):
        if "/dealer/" in ws.url:
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)) if payload.startswith("{") else None)
            ws.on("framereceived", lambda p: received.append(json.loads(p)) if p.startswith("{") else None)

    page.on("websocket", watch)
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")

    page.locator('[data-action="start"]').click()
    settled(page)
    for actor in ["David", "Anna", "Ben", "Clara"]:
        expect(page.locator('[data-field="actor"]')).to_contain_text(actor)
        pad_ready(page)
        page.locator('[data-action="call"]' if actor != "Clara" else '[data-action="check"]').click()
        settled(page)
    expect(page.locator('[data-field="street"]')).to_contain_text("Flop")
    page.wait_for_timeout(1200)  # longer than the tablet waits for a late update before it asks

    assert HandEvent.objects.filter(table_id=table.id, kind="action").count() == 4
    asked = [m for m in sent if m.get("type") == "snapshot"]
    assert asked == [], f"{len(asked)} snapshot requests for 5 taps"
    # the betting actions: their update reached the tablet before their ack
    for ack in (m for m in received if m["type"] == "ack"):
        update_at = next((i for i, m in enumerate(received) if m["type"] == "update" and m["seq"] == ack["seq"]), None)
        assert update_at is not None, ack
    acks = [i for i, m in enumerate(received) if m["type"] == "ack"]
    updates_first = [
        i
        for i in acks[1:]  # the deal (start_hand) runs on a service thread; its ack may come first
        if any(m["type"] == "update" and m["seq"] == received[i]["seq"] for m in received[:i])
    ]
    assert len(updates_first) == 4, received
