"""The public room page and feeds show the tournaments (issue 29): name, status, the clock's level and time
left, late registration; the iCalendar feed has one event each.  No player names."""

from __future__ import annotations

import pytest

from room import services as r
from tournaments import services as t

pytestmark = pytest.mark.django_db

STRUCTURE = {
    "periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}] * 3,
    "late_registration_until": 1,
}


def test_a_running_tournament_with_late_registration_on_the_page_and_in_the_feeds(client, floorman):
    r.create_room("casino", "Casino")
    tourney = t.create_tournament("Friday Deepstack", "munotpoker", STRUCTURE, starting_stack=10_000, seed=3)
    for name in ("Hanna Private", "Ivo Private", "Jan Private"):
        t.register(tourney.id, name)
    t.start(tourney.id)
    feed = client.get("/p/casino/feed.json").json()
    (item,) = feed["tournaments"]
    assert item["name"] == "Friday Deepstack" and item["status"] == "running"
    assert item["level"]["small_blind"] == 100 and item["level_number"] == 1
    assert item["late_registration_open"] is True and 0 < item["late_registration_seconds_left"] <= 3600
    assert item["entries"] == 3
    page = client.get("/p/casino/").content.decode()
    assert "Friday Deepstack" in page and "Late registration open" in page
    ics = client.get("/p/casino/tournaments.ics").content.decode()
    assert "BEGIN:VEVENT" in ics and "SUMMARY:Friday Deepstack" in ics
    for text in (page, str(feed), ics):
        assert "Private" not in text
