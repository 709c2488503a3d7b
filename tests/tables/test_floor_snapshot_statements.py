"""The floor dashboard's snapshot of every open table is read in a fixed number of statements, however
many tables the room has (issue 26: 20 dashboards connecting at once after a restart each read every
table; two statements per table made a storm of 1,000 tables 40,000 statements)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import consumers, services
from tables.floor_summary import tile_summary
from tables.models import Table
from tables.services.hands import start_hand


def _room(n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        table = services.create_table(f"Floor {i:03d}", small_blind=1, big_blind=2)
        for seat in (1, 2, 3):
            services.seat_player(table.id, seat, f"P{i}-{seat}", 1_000)
        start_hand(table.id)  # a live hand: its last event is part of the snapshot


def _statements_for_floor_snapshot() -> tuple[int, list[dict]]:
    with CaptureQueriesContext(connection) as queries:
        snapshots = consumers.floor_summaries()
    return len(queries.captured_queries), snapshots


@pytest.mark.django_db
def test_the_floor_snapshot_costs_the_same_statements_for_3_tables_and_for_12():
    _room(3)
    few, snapshots = _statements_for_floor_snapshot()
    assert [s["table"]["name"] for s in snapshots] == ["Floor 000", "Floor 001", "Floor 002"], snapshots[0]
    _room(9, start=3)
    many, snapshots = _statements_for_floor_snapshot()
    assert len(snapshots) == 12 and many == few
    for summary in snapshots:  # each as the floor's summary of the tablet's own snapshot of the table
        table = Table.objects.get(pk=summary["table"]["id"])
        assert summary == tile_summary(services.table_snapshot(table), table.section)
