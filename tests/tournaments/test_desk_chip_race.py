"""The color-up at a break, raced from the chip-count page, and the chip
check that knows about it.

Rulebooks (shared/seeds): 001 Chip Race ("Fehlt eine Einheit für die
nächsthöhere Einheit wird aufgerundet"; a player raced out of chips is out),
004 #24 (chip race at the break; nobody is raced out), 004 #64 (found chips
leave play)."""

import pytest

from tables.models import Seat
from tests.tournaments.test_services import make, occupied, tables_of
from tournaments import services
from tournaments.models import ChipRaceRecord
from tournaments.services import chipcounts, desk

pytestmark = pytest.mark.django_db


def on_break(t):
    services.clock_action(t.id, "jump", level=2)
    services.clock_action(t.id, "adjust", seconds=-20 * 60)  # level 2 ends: the break (color-up of 100s)


def odd_counts(tt):
    """Stacks with odd 100s that add up to what the table holds."""
    seats = sorted(occupied(tt))
    odd = [300, 200, 100, 400, -500, -300, -200, 100, 300, 0][: len(seats)]
    odd[-1] -= sum(odd)
    return {s: 10_000 + o for s, o in zip(seats, odd)}


@pytest.mark.parametrize("rulebook, rule", [("munotpoker", "004 #24"), ("wynental", "001 Chip Race")])
def test_the_chip_race_at_the_break_from_the_chip_count_page(client, floorman, rulebook, rule):
    t = make(rulebook, players=20)
    on_break(t)
    tt = tables_of(t)[0]
    client.force_login(floorman)
    api = f"/tournaments/{t.id}/chips/api/"
    state = client.get(api).json()
    assert state["color_up"]["on_break"] and state["color_up"]["removed"] == [100]
    assert state["color_up"]["new"] == 500 and state["color_up"]["rule"] == rule
    counts = odd_counts(tt)
    r = client.post(
        api, {"op": "count", "table": tt.number, "moment": "break", "counts": counts}, content_type="application/json"
    )
    assert not r.json()["mismatch"]
    r = client.post(
        api, {"op": "chip_race", "table": tt.number, "removed": 100, "new": 500}, content_type="application/json"
    )
    body = r.json()
    assert body["ok"], body
    race = body["color_up"]["races"][0]
    assert race["table"] == tt.number and race["rule"] == rule
    stacks = dict(Seat.objects.filter(table_id=tt.table_id, player__isnull=False).values_list("number", "stack"))
    assert all(s % 500 == 0 for s in stacks.values())  # no 100 chip left at the table
    assert [ln["new_stack"] for ln in race["lines"]] == [stacks.get(ln["seat"], 0) for ln in race["lines"]]
    assert sum(ln["chips_won"] for ln in race["lines"]) >= 1
    # the chips the race added or removed are no mismatch (001 rounds up, 004 #24)
    assert not body["mismatch"] and body["in_play"] == body["expected"]
    record = ChipRaceRecord.objects.get(tournament=t)
    assert body["expected"] == 20 * 10_000 + record.result["chip_value_change"]


def test_a_miscount_is_flagged_and_found_chips_are_not_004_64():
    t = make(players=20)
    tt = tables_of(t)[0]
    seats = sorted(occupied(tt))
    counts = {s: 10_000 for s in seats}
    counts[seats[0]] = 10_500  # 500 too many
    chipcounts.record_chip_counts(t.id, tt.number, counts, moment="level_end")
    stats = chipcounts.chip_stats(t)
    assert stats["mismatch"] and stats["difference"] == 500
    counts[seats[0]] = 10_000
    chipcounts.record_chip_counts(t.id, tt.number, counts, moment="level_end")
    entry = services.snapshot(t)["tables"][0]["seats"][0]["entry"]
    out = desk.desk_chips(t.id, entry, -500, "found_chips", note="chips under the table")
    stats = chipcounts.chip_stats(t)
    assert not stats["mismatch"] and stats["expected"] == 20 * 10_000 - 500
    desk.desk_undo(t.id, out["seq"])  # the chips are back: so is the expectation
    stats = chipcounts.chip_stats(t)
    assert not stats["mismatch"] and stats["expected"] == 20 * 10_000


def test_a_chip_race_with_bad_input_changes_nothing(client, floorman):
    t = make(players=20)
    client.force_login(floorman)
    api = f"/tournaments/{t.id}/chips/api/"
    r = client.post(api, {"op": "chip_race", "table": 1, "removed": 100, "new": 250}, content_type="application/json")
    assert r.status_code == 400 and "multiple" in r.json()["message"]
    r = client.post(api, {"op": "chip_race", "table": 1, "removed": "x", "new": 500}, content_type="application/json")
    assert r.status_code == 400
    assert not ChipRaceRecord.objects.filter(tournament=t).exists()
