"""The level in force reaches the tables at once (issue 23): when the director changes the level (jump,
+/- time, start, resume), every tournament table between hands shows the new blinds and ante in its tablet
header and floor tile right away -- its snapshot is sent -- instead of the old level's until its next hand
(001 Neues Limit, 004 #23: the next hand plays the new level). A table in a hand keeps the hand's stakes."""

import pytest

from tables import services as table_services
from tables.models import Table
from tests.tournaments.test_services import make, tables_of
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_level_jump_shows_the_new_blinds_on_every_table_between_hands(django_capture_on_commit_callbacks):
    t = make(players=20)
    tts = tables_of(t)
    table_services.start_hand(tts[0].table_id)  # table 1 plays a hand of level 1
    before = {tt.table_id: Table.objects.get(pk=tt.table_id).seq for tt in tts}
    with django_capture_on_commit_callbacks(execute=True) as sent:
        services.clock_action(t.id, "jump", level=2)
    assert sent  # the tables' snapshots go out after the commit
    for tt in tts[1:]:
        table = Table.objects.get(pk=tt.table_id)
        assert (table.small_blind, table.big_blind, table.big_blind_ante) == (200, 400, 400)
        assert table.seq == before[tt.table_id] + 1  # a new snapshot for the tablet and the floor
    playing = Table.objects.get(pk=tts[0].table_id)
    assert (playing.small_blind, playing.big_blind) == (100, 200)  # its hand plays on at level 1
