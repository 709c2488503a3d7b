"""A tournament table's displayed stakes follow the level in play (issue 23
#8): the tablet header, the floor tile (the table snapshot) and the hand page
show the blinds and the big blind ante the hands are dealt with (001 Neues
Limit, 004 #23: a new level applies from the next hand; 004 #81: big blind
ante)."""

import pytest

from tables import services as table_services
from tables.models import Table
from tests.tournaments.test_services import LEVELS, tables_of
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_table_shows_the_blinds_and_ante_of_the_level_its_hands_use(client, floorman):
    t = services.create_tournament(
        "Stakes", "munotpoker", {"periods": LEVELS}, starting_stack=10_000, buy_in=100, seed=2
    )
    for i in range(6):
        services.register(t.id, f"P{i}")
    t = services.start(t.id)
    tt = tables_of(t)[0]
    services.clock_action(t.id, "jump", level=2)  # 200/400, big blind ante 400
    table_services.start_hand(tt.table_id)
    table = Table.objects.get(pk=tt.table_id)
    hand = table.current_hand
    assert hand.spec["min_bet"] == 400 if "min_bet" in hand.spec else True
    snap = table_services.table_snapshot(table)["table"]  # what the floor tile and the tablet read
    assert (snap["small_blind"], snap["big_blind"], snap["big_blind_ante"]) == (200, 400, 400)
    client.force_login(floorman)
    page = client.get(f"/tables/{tt.table_id}/dealer/").content.decode()
    assert "200/400" in page and "50/100" not in page and "100/200" not in page
    hand_page = client.get(f"/hands/{hand.id}/").content.decode()
    assert "200/400" in hand_page
