"""The preview of a misdeal shows the hand as the ruling leaves it (issue 24, finding 3): void, every
chip back in the stacks, no pot, nobody to act, nothing in front (001 6.25, 003 "Miss-Deal", 004 #35).
It showed "Pot 3 · To act: Seat 7" with the blinds still in front."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules import corrections as rules_corrections
from rules import services as floor
from tables import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def misdeal_call(dealer):
    """Table 9 (004 MunotPoker), 1/2: button 1, SB Ben 3, BB Clara 5; nobody acted; the dealer calls a misdeal."""
    table = services.create_table("Table 9", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker")
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        services.seat_player(table.id, seat, name, stack)
    services.start_hand(table.id)
    return floor.raise_floor_call(table.id, "misdeal", note="a card turned over in the deal", actor=dealer)


def test_the_misdeal_preview_shows_the_hand_void_with_every_chip_back(misdeal_call):
    item = rules_corrections.correction_from_form(misdeal_call, {"ctype": "misdeal"})
    result = rules_corrections.preview_correction(misdeal_call, item)
    assert result["ok"], result
    state = result["state"]
    assert state["misdeal"]
    assert state["total_pot"] == 0 and state["pots"] == []
    assert state["to_act_seat"] is None
    stacks = {p["seat"]: (p["stack"], p["bet"]) for p in state["players"]}
    assert stacks == {1: (200, 0), 3: (300, 0), 5: (150, 0), 7: (400, 0)}


def test_the_misdeal_preview_page_fragment_names_no_player_to_act(misdeal_call, client, floorman):
    client.force_login(floorman)
    response = client.post(reverse("rules:floor_call_preview", args=[misdeal_call.id]), {"ctype": "misdeal"})
    body = response.json()
    assert body["ok"], body
    html = body["html"]
    assert 'data-f="to-act"' not in html
    assert re.search(r'data-f="pot">0<', html)
    assert re.findall(r'data-f="bet">(\d+)<', html) == ["0", "0", "0", "0"]
