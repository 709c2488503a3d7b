"""The floor worker shows a level the tournament clock reaches by itself (issue 23 finding 8, what
was left: "the tablet header and the floor tile show the old blinds" until a table's next hand when
no director pressed a clock button): within one look the tables between hands take the new stakes
and send their snapshot (001 Neues Limit, 004 #23)."""

import time

import pytest

from pokerfloor import worker
from tables import services as table_services
from tables.models import Table
from tests.tournaments.test_services import make, tables_of

pytestmark = pytest.mark.django_db


def test_the_worker_shows_the_next_level_when_the_clock_reaches_it(django_capture_on_commit_callbacks):
    worker._levels_shown.clear()
    t = make(players=20)
    tts = tables_of(t)
    table_services.start_hand(tts[0].table_id)  # table 1 plays a hand of level 1
    assert worker.push_due_levels() == 0  # level 1 is what every table shows
    seq = {tt.table_id: Table.objects.get(pk=tt.table_id).seq for tt in tts}
    later = time.time() + 21 * 60  # the first level has 20 minutes
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert worker.push_due_levels(now=later) == len(tts) - 1
    assert sent  # the snapshots go out to the tablets and the floor
    for tt in tts[1:]:
        table = Table.objects.get(pk=tt.table_id)
        assert (table.small_blind, table.big_blind, table.big_blind_ante) == (200, 400, 400)
        assert table.seq == seq[tt.table_id] + 1
    playing = Table.objects.get(pk=tts[0].table_id)
    assert (playing.small_blind, playing.big_blind) == (100, 200)  # its hand plays on at level 1
    assert worker.push_due_levels(now=later + 1) == 0  # once
