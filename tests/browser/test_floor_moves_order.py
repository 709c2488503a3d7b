"""The floor's "Players changing tables" (``static/js/floor/moves.js``) draws the newest answer only.

The panel asks ``/floor/moves/`` when a table changes and every 5 s.  Two answers can come back out of
order on a busy server; the older one then redrew the list as it was before: a move just made vanished
from the floor, its "Confirm arrival" button gone under the floorman's finger (the 30-player tournament
test saw a move's row go while the move still waited for its confirmation).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVE = {
    "id": 7,
    "player": "Anna",
    "from": {"table": 1, "seat": 2, "table_id": None},
    "to": {"table": 2, "seat": 5, "table_id": None},
    "status": "moving",
    "confirmed": [],
    "text_en": "Move Anna: table 1 seat 2 -> table 2 seat 5",
    "text_de": "Anna wechselt: Tisch 1 Platz 2 -> Tisch 2 Platz 5",
    "rule": "004 #33",
    "event": "Sunday",
    "tournament": 1,
    "confirm_url": "/tournaments/1/action/",
}


def test_an_older_answer_arriving_last_does_not_redraw_the_moves(new_page, floorman):
    held = []
    page = new_page((1280, 800), locale="en-US")
    login(page, "floor", "pw-floor")
    page.route("**/floor/moves/", lambda route: held.append(route))
    page.goto("/floor/")
    for _ in range(100):  # the first look at start, the next 5 s later
        if len(held) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(held) >= 2
    older, newer = held[0], held[1]
    body = {"ok": True, "moves": [MOVE]}
    newer.fulfill(status=200, content_type="application/json", body=json.dumps(body))
    row = page.locator("#floor-moves li[data-move='7']")
    expect(row).to_contain_text("Anna")
    older.fulfill(status=200, content_type="application/json", body=json.dumps({"ok": True, "moves": []}))
    page.wait_for_timeout(800)  # the older answer has been read by now
    expect(row).to_be_visible()
    expect(row.locator("button[data-confirm-move='7']")).to_be_visible()
    page.unroute("**/floor/moves/")
