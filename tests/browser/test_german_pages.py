"""The main pages in German leave no English UI word behind.

The demo room (``manage.py load_demo``) with its tournament started and the rulebooks are loaded; the
floor, the imported-hands archive, the room, the tournament list, the director's page, the rulebooks and
both lobby TV screens are opened in German, and their visible text (``innerText``) must contain none of
the common English UI words below as a whole word, once the data is taken out (table, player, game,
room, tournament and rulebook names, which are nobody's translation).

Screenshots (artifacts/screenshots/german/): every page at 1280×800.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.conftest import login, off_loop
from tests.browser.waits import goto_settled
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "screenshots" / "german"

# Common English words of the UI; a German page shows none of them (whole words, case-sensitive where
# German uses the same word in another case, e.g. "open" vs. "Open-Ended" is not an issue here).
ENGLISH = [
    "Table",
    "Tables",
    "Seat",
    "Seats",
    "Waitlist",
    "running",
    "open",
    "seated",
    "busted",
    "expired",
    "reserved",
    "waitlisted",
    "registered",
    "surrendered",
    "finished",
    "registration",
    "Reservation",
    "Surrender",
    "Players",
    "Player",
    "Leaves",
    "Close",
    "Register",
    "Tournament",
    "Tournaments",
    "Instructions",
    "Payouts",
    "Balance",
    "Entries",
    "Average",
    "Prize",
    "Connecting",
    "Reconnecting",
    "Accept",
    "Decline",
    "Remove",
    "Move",
    "Away",
    "Back",
    "Add",
    "Buy",
    "Undo",
    "pending",
    "done",
    "cancelled",
    "Hand history",
    "Imported",
    "Hands",
    "Room",
    "Rulebooks",
    "Search",
    "Section",
    "Summary",
    "Clock",
    "Start",
    "Jump",
    "Save",
    "Log out",
    "the",
    "and",
    "of",
    "to",
    "is",
    "on",
    "for",
    "with",
    "no",
    "No",
    "seat",
    "table",
    "player",
    "players",
    "waiting",
    "called",
    "left",
]


def _data_names(*, rules: bool) -> list[str]:
    """Names that are data, longest first: tables, players, games, rooms, tournaments, rulebooks, and with
    ``rules`` the rules' titles (the house rulebooks title some rules in English, e.g. 004 #74 "Surrender")."""
    from room.models import Game, Room
    from rules.models import Rule, Rulebook
    from tables.models import Player, Table
    from tournaments.models import Tournament

    names = set(Table.objects.values_list("name", flat=True))
    names |= set(Player.objects.values_list("name", flat=True))
    names |= set(Game.objects.values_list("name", flat=True))
    names |= set(Room.objects.values_list("name", flat=True))
    names |= set(Tournament.objects.values_list("name", flat=True))
    names |= set(Rulebook.objects.values_list("title", flat=True))
    if rules:
        names |= set(Rule.objects.values_list("title", flat=True))
    names |= {
        "pokerfloor",
        "manager",
        "floor",
        "dealer",
        "dealer2",
        "No Limit",
        "Pot Limit",
        "Table Stake",
    }  # terms the German house rules use
    return sorted((n for n in names if n), key=len, reverse=True)


def english_words(text: str, data: list[str]) -> list[str]:
    """The English UI words in ``text`` once the data names are taken out."""
    for name in data:
        text = text.replace(name, " ")
    return sorted({w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)})


def _context(text: str, word: str) -> str:
    match = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)
    return text[max(0, match.start() - 40) : match.end() + 40].replace("\n", " ⏎ ") if match else ""


@pytest.fixture
def demo():
    """The demo room, its tournament started with a reservation and a clock, the rulebooks; the pages."""
    off_loop(call_command, "load_demo", stdout=io.StringIO())
    off_loop(call_command, "load_rulebooks", stdout=io.StringIO())
    from room.models import LobbyDisplay
    from tournaments import services as ts
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(name="Demo Deepstack")
    off_loop(ts.register, tournament.id, "Late Larry", reserve=True)
    off_loop(ts.start, tournament.id)
    display = LobbyDisplay.objects.filter(revoked=False).order_by("id").first()
    return [
        ("floor", "/floor/"),
        ("archive", "/floor/archive/"),
        ("room", "/room/casino/"),
        ("tournaments", "/tournaments/"),
        ("director", f"/tournaments/{tournament.id}/"),
        ("rules", "/rules/"),
        ("rulebook", "/rules/casino-cash/"),
        ("room-lobby", f"/lobby/{display.token}/"),
        ("tournament-lobby", f"/tournaments/lobby/{tournament.public_token}/"),
    ]


def test_the_main_pages_in_german_show_no_english_ui_word(demo, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    data, rule_data = _data_names(rules=False), _data_names(rules=True)
    page = new_page((1280, 800), locale="de-DE")
    login(page, "manager", "manager-demo")
    found = {}
    for name, path in demo:
        goto_settled(page, path)
        expect(page.locator("html")).to_have_attribute("lang", "de")
        conn = page.locator('[data-field="conn"], [data-f="conn"]')
        if conn.count():
            page.wait_for_function("() => !/Verbinde/.test(document.body.innerText)", timeout=10_000)
        page.screenshot(path=str(SHOTS / f"{name}-de-1280x800.png"), full_page=True)
        text = page.evaluate("document.body.innerText")
        words = english_words(text, rule_data if name.startswith("rule") else data)
        if words:
            found[name] = {w: _context(text, w) for w in words}
    assert not found, f"English words on German pages: {found}"


def test_the_check_finds_english_words_and_ignores_data():
    assert english_words("Tisch 1 · Seat 3 · running", []) == ["Seat", "running"]
    assert english_words("Table 1: Platz 3", ["Table 1"]) == []
    assert english_words("Re-Entry offen", []) == []
