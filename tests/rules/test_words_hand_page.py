"""The hand page in words (issue 24, findings 4 and 13): every event in words in English and German, a
held out-of-turn action has its row, voided, taken back and replaced actions are marked, and the times
are shown in one time zone, the room's (``TIME_ZONE``), the start beside the events."""

from __future__ import annotations

import re
from datetime import UTC, timedelta

import pytest
from django.utils import formats, timezone

from rules import services as floor
from tables import services
from tables.models import Hand, HandEvent
from tables.services.hands import undo_action

pytestmark = pytest.mark.django_db(transaction=True)

RAW = re.compile(r"\b(out_of_turn_released|time_called|all_in|bring_in|undo|replace)\b")  # as the old page wrote them


@pytest.fixture
def hand(db, dealer, floorman, rulebooks):
    """Button 1, SB 3, BB 5, David (7) first: David raises to 6, Anna (1) goes all-in (the floor
    replaces it by a call), Ben (3) folds (voided by the floor), Ben calls (taken back by the dealer),
    Clara (5) calls out of turn (held), time is called on Ben."""
    table = services.create_table("Table 9", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker")
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        services.seat_player(table.id, seat, name, stack)
    services.start_hand(table.id)
    services.apply_action(table.id, {"type": "raise", "seat": 7, "to": 6})
    services.apply_action(table.id, {"type": "all_in", "seat": 1})
    services.apply_action(table.id, {"type": "fold", "seat": 3})
    floor.make_ruling(
        table.id,
        decision="Anna called; Ben did not fold",
        citations=[{"rulebook": "munotpoker", "section": "#43"}],
        corrections=[
            {"type": "replace", "index": 2, "action": {"type": "call", "seat": 1}},
            {"type": "void", "index": 3},
        ],
        actor=floorman,
    )
    services.apply_action(table.id, {"type": "call", "seat": 3})
    undo_action(table.id)
    services.record_out_of_turn(table.id, {"type": "call", "seat": 5})
    services.call_time(table.id, 3)
    return Hand.objects.get(table=table)


def rows(html: str) -> dict[str, str]:
    """``{event index: row text}`` of the event table."""
    body = html.split('id="events"', 1)[1]
    found = re.findall(r'<tr class="ev[^"]*" data-index="(\d+)" data-status="(\w*)">(.*?)</tr>', body, re.S)
    return {i: (status, re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()) for i, status, row in found}


def test_every_event_of_the_hand_page_is_in_words_and_marked(client, floorman, hand):
    client.force_login(floorman)
    for lang, words in [
        ("en", ["David (7) raises to 6", "Anna (1) goes all-in corrected → Anna (1) calls", "Ben (3) folds voided",
                "Out of turn: Clara (5) calls (held for its turn)", "Time called on Ben (3)",
                "Taken back by the dealer: Ben (3) calls preflop", "Ben (3) calls taken back"]),
        ("de", ["David (7) erhöht auf 6", "Anna (1) geht all-in korrigiert → Anna (1) callt", "Ben (3) foldet gestrichen",
                "Ausser der Reihe: Clara (5) callt", "Zeit verlangt für Ben (3)", "Vom Dealer zurückgenommen"]),
    ]:  # fmt: skip
        html = client.get(f"/hands/{hand.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        table = rows(html)
        text = " | ".join(t for _s, t in table.values())
        assert not RAW.search(text), text
        for w in words:
            assert w in text, (lang, w, text)
        assert len(table) == hand.events.count()
        for _status, row in table.values():
            assert re.search(r"\d+ \d+ \S+", row), f"an empty row: {row!r}"
    statuses = {i: s for i, (s, _t) in rows(client.get(f"/hands/{hand.id}/").content.decode()).items()}
    assert statuses["2"] == "replaced" and statuses["3"] == "voided" and statuses["6"] == "undone"
    assert statuses[str(HandEvent.objects.get(hand=hand, kind="out_of_turn").index)] == "held"


def test_the_start_and_the_events_show_the_rooms_time(client, floorman, hand, settings):
    settings.TIME_ZONE = "Europe/Zurich"
    # A hand started just before midnight in the room (22:53 UTC in winter is 23:53 in Zurich).
    start = timezone.datetime(2025, 1, 14, 22, 53, 10, tzinfo=UTC)
    Hand.objects.filter(pk=hand.id).update(started_at=start)
    HandEvent.objects.filter(hand=hand).update(at=start + timedelta(seconds=30))
    client.force_login(floorman)
    html = client.get(f"/hands/{hand.id}/").content.decode()
    with timezone.override("Europe/Zurich"):
        local = timezone.localtime(start + timedelta(seconds=30))
        expected = formats.date_format(local, "TIME_FORMAT")
        started = formats.date_format(timezone.localtime(start), "SHORT_DATETIME_FORMAT")
    assert started in html and "11:53" in started
    for _status, row in rows(html).values():
        assert row.endswith(expected), row
    assert 'data-local="time"' not in html  # not redrawn in the browser's own zone
