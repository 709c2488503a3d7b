"""German without leftovers on the tablet, the floor dashboard, the floor-call page and the rulings
pages (issue 24, "What a dealer and a floor person expect": "TDA 2024 Rule 49", "Bestätigen: Call",
"fold" on German screens).

A TDA 2024 table (the default profile, whose citations are worded "TDA 2024 Rule N") with a hand
under way: David raised, Anna's fold is disputed and the floor is called and rules; an
out-of-turn check is held. Every page is opened in German (Accept-Language de) and its visible text
(``innerText``) must show none of the English leftovers below once the data (names) are taken out.

Screenshots (artifacts/screenshots/german/): leftovers-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop, settled
from tests.browser.waits import login_to, page_settled
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "screenshots" / "german"

#: English leftovers seen on German screens: the TDA's worded citation, the rulebook's slug in place of
#: its title, the interpreter's "Call über", English action words (whole words, case-sensitive). The
#: German rulebooks use "Check", "Call", "Fold", "Bet", "Pot" and "Misdeal" as German words: only the
#: lowercase English verbs are leftovers.
LEFTOVERS = [
    r"TDA 2024 Rule",
    r"tda-2024",
    r"munotpoker",
    r"Call über",
    r"Rule",
    r"fold",
    r"folds",
    r"check",
    r"checks",
    r"calls",
    r"raises",
    r"raise",
    r"bet",
    r"Raise to",
    r"Call the floor",
    r"Seat",
    r"Floor call",
    r"Ruling",
    r"Rulings",
    r"Apply",
    r"to act",
    r"Exposed card",
    r"Done at the table",
    r"Dealer, by the house rules",
]

NAMES = ["Anna", "Ben", "Clara", "David", "TDA Tisch", "dealer", "floor", "pokerfloor"]


def leftovers(text: str) -> dict[str, str]:
    """The leftovers in ``text`` with 40 characters of context each."""
    for name in NAMES:
        text = text.replace(name, " ")
    found = {}
    for pattern in LEFTOVERS:
        m = re.search(rf"(?<![\w-]){pattern}(?![\w-])", text)
        if m:
            found[pattern] = text[max(0, m.start() - 40) : m.end() + 40].replace("\n", " ⏎ ")
    return found


@pytest.fixture
def tda_night(dealer, floorman, loaded_rulebooks):
    """A TDA 2024 table: David (7) raised to 6, Anna's (1) fold disputed; the floor was called and
    ruled once (TDA 2024 Rule 1) on an earlier call; Clara's (5) out-of-turn check is held."""
    from rules import services as floor
    from tables import services
    from tables.models import Table

    table = off_loop(services.create_table, "TDA Tisch", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        off_loop(services.seat_player, table.id, seat, name, stack)
    off_loop(services.start_hand, table.id)
    off_loop(services.apply_action, table.id, {"type": "raise", "seat": 7, "to": 6})
    earlier = off_loop(floor.raise_floor_call, table.id, "other", seat=7, note="", actor=dealer)
    off_loop(
        floor.make_ruling,
        table.id,
        decision="The raise stands.",
        decision_de="Der Raise gilt.",
        citations=[{"rulebook": "tda-2024", "section": "TDA 2024 Rule 1", "label": "TDA 2024 Rule 1"}],
        floor_call_id=earlier.id,
        actor=floorman,
    )
    off_loop(services.apply_action, table.id, {"type": "fold", "seat": 1})
    off_loop(services.record_out_of_turn, table.id, {"type": "check", "seat": 5})
    call = off_loop(floor.raise_floor_call, table.id, "dispute", seat=1, note="", actor=dealer)
    return Table.objects.get(pk=table.id), call


def _check(page, name: str, found: dict) -> None:
    page_settled(page)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    if page.locator('[data-field="conn"], [data-f="conn"]').count():
        page.wait_for_function("() => !/Verbinde/.test(document.body.innerText)", timeout=15_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"leftovers-{name}.png"), full_page=True)
    hits = leftovers(page.evaluate("document.body.innerText"))
    if hits:
        found[name] = hits


def test_tablet_floor_call_and_rulings_in_german_have_no_english_leftovers(tda_night, new_page):
    table, call = tda_night
    found: dict[str, dict] = {}

    floor_page = new_page((1920, 1080), locale="de-DE")
    login_to(floor_page, "floor", "pw-floor", "/floor/")
    floor_page.locator('.view-toggle [data-view="tiles"]').click()
    expect(floor_page.locator(f'.tile[data-table-id="{table.id}"]')).to_be_visible(timeout=15_000)
    _check(floor_page, "floor", found)
    floor_page.goto(f"/rules/calls/{call.id}/")
    _check(floor_page, "floor-call", found)
    floor_page.goto("/rules/rulings/")
    _check(floor_page, "rulings", found)
    from rules.models import Ruling

    ruling = off_loop(lambda: Ruling.objects.order_by("id").first())
    floor_page.goto(f"/rules/rulings/{ruling.id}/")
    _check(floor_page, "ruling", found)

    tablet = new_page((1280, 800), locale="de-DE")
    login_to(tablet, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(tablet.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    settled(tablet)
    _check(tablet, "tablet", found)
    # the confirmation of an action, the guided procedure and its outcome
    tablet.locator('button[data-action="procedures"]').click()
    tablet.locator('#sheet-proc [data-procedure="exposed_card"]').click()
    tablet.locator('#sheet-proc [data-option="deal"]').click()
    tablet.locator('#sheet-proc [data-option="one"]').click()
    _check(tablet, "tablet-procedure", found)
    tablet.locator('#sheet-proc [data-action="proc-finish"]').click()
    settled(tablet)
    _check(tablet, "tablet-procedure-done", found)
    # the hand page: every event in German words, the dealer's procedure with its rule
    table.refresh_from_db()
    floor_page.goto(f"/hands/{table.current_hand_id}/")
    expect(
        floor_page.get_by_text(
            "Dealer nach den Hausregeln: Kein Miss-Deal: die offene Karte wird ersetzt. (TDA 2024 Regel 35)"
        )
    ).to_be_visible()
    _check(floor_page, "hand", found)
    assert not found, f"English leftovers on German screens: {found}"


def test_the_check_finds_leftovers_and_ignores_names():
    assert set(leftovers("TDA 2024 Rule 49 · Regeln: tda-2024")) == {"TDA 2024 Rule", "tda-2024", "Rule"}
    assert leftovers("Anna (1) foldet · TDA 2024 Regel 49 · Call in Höhe von 100") == {}
    assert leftovers("Bestätigen: Call") == {}  # "Call" is the German poker word too
    assert "fold" in leftovers("Anna: fold")
