"""A structure generated from a target duration, and the estimated end time of any structure (issue 23,
what a director also expects): tournaments/services/planning.py and the structure editor's ops."""

import datetime as dt
import json
import time
from zoneinfo import ZoneInfo

import pytest

from tournaments import services
from tournaments.services import planning, structures


def _levels(s):
    return [p for p in s["periods"] if p["kind"] == "level"]


@pytest.mark.parametrize(
    ("hours", "minutes", "players", "stack"),
    [(5, 20, 50, 20000), (3, 12, 30, 10000), (8, 40, 200, 30000), (1, 15, 6, 5000), (12, 60, 1000, 50000)],
)
def test_generated_blinds_reach_the_end_big_blind_at_the_target_time(hours, minutes, players, stack):
    s = planning.generate(hours=hours, level_minutes=minutes, players=players, starting_stack=stack)
    assert structures.check_structure(s, "munotpoker") == []
    structures._refuse_if_bad(s, "munotpoker")  # the engine's validation too (004 #81 antes)
    levels = _levels(s)
    assert all(p["minutes"] == minutes for p in levels)
    bbs = [p["big_blind"] for p in levels]
    assert bbs == sorted(set(bbs))  # rising, never repeated
    assert all(p["small_blind"] * 2 == p["big_blind"] for p in levels)
    total = sum(p["minutes"] for p in s["periods"])
    assert hours * 60 - minutes - 10 < total <= hours * 60  # as many levels as fit the target
    end = players * stack // 15
    assert bbs[-1] >= end and (len(bbs) == 1 or bbs[-2] < end * 1.05)
    # the last players hold 10 to 20 big blinds in total at the end
    assert 10 * 0.6 <= players * stack / bbs[-1] <= 20
    estimate = planning.end_estimate(s, players, stack)
    assert estimate["reached"] and estimate["seconds"] == total * 60
    assert 100 * 0.5 <= stack / bbs[0] <= 400  # 100 big blinds deep or so at the start


def test_generated_breaks_color_up_as_the_templates_do():
    s = planning.generate(hours=6, level_minutes=20, players=60, starting_stack=20000)
    breaks = [(i, p) for i, p in enumerate(s["periods"]) if p["kind"] == "break"]
    assert breaks and all(p["minutes"] == 10 for _i, p in breaks)
    assert [i for i, _p in breaks][0] == planning.break_every(20) == s["late_registration_until"]
    assert any(p["color_up"] for _i, p in breaks)  # the 25 chip leaves once no blind needs it


def test_generate_refuses_values_out_of_range():
    for kwargs in (
        {"hours": 0, "level_minutes": 20, "players": 50, "starting_stack": 20000},
        {"hours": 5, "level_minutes": 0, "players": 50, "starting_stack": 20000},
        {"hours": 5, "level_minutes": 20, "players": 1, "starting_stack": 20000},
        {"hours": 5, "level_minutes": 20, "players": 50, "starting_stack": 10},
    ):
        with pytest.raises(ValueError):
            planning.generate(**kwargs)


def test_the_ladder_has_even_big_blinds_and_goes_past_its_limit():
    steps = planning.ladder(66_666)
    assert steps[:10] == [50, 100, 150, 200, 300, 400, 500, 600, 800, 1000]
    assert steps[-1] == 80_000 and 2500 not in steps and all(b % 50 == 0 for b in steps)


def test_end_estimate_of_any_structure_counts_breaks_and_stops_at_the_end_level():
    s = structures.template("standard")  # 20-minute levels, a 10-minute break every 4 levels
    # 40 players x 20,000 chips: end big blind 53,333: never reached (the template ends at 10,000)
    late = planning.end_estimate(s, 40, 20000)
    assert not late["reached"] and late["level"] == 18 and late["big_blind"] == 53333
    # 9 players x 20,000 chips: end big blind 12,000 ... also beyond; 6 x 20,000 = 8,000 -> level 17
    early = planning.end_estimate(s, 6, 20000)
    assert early["reached"] and early["level"] == 17 and early["period"] == 20
    assert early["seconds"] == (17 * 20 + 4 * 10) * 60


def test_end_time_adds_the_seconds_still_to_play():
    start = dt.datetime(2026, 11, 27, 19, 0, tzinfo=ZoneInfo("Europe/Zurich"))
    estimate = {"seconds": 5 * 3600}
    assert planning.end_time(start, estimate).hour == 0
    assert planning.end_time(start, estimate, elapsed=3600).hour == 23


@pytest.mark.django_db
def test_the_editor_generates_and_shows_the_estimated_end_in_the_rooms_time(client, floorman, settings):
    settings.TIME_ZONE = "Europe/Zurich"
    t = services.create_tournament("Saturday", "munotpoker", structures.template("standard"), starting_stack=20000)
    client.force_login(floorman)
    url = f"/tournaments/{t.id}/structure/api/"
    body = {"op": "generate", "hours": "4", "level_minutes": "20", "players": "40", "starting_stack": "20000"}
    before = time.time()
    answer = client.post(url, json.dumps(body), content_type="application/json").json()
    assert answer["ok"] and _levels(answer["structure"])[-1]["big_blind"] >= 40 * 20000 // 15
    estimate = answer["estimate"]
    assert estimate["reached"]
    expected = dt.datetime.fromtimestamp(before + estimate["seconds"], ZoneInfo("Europe/Zurich"))
    assert estimate["end"] in (expected.strftime("%H:%M"), (expected + dt.timedelta(minutes=1)).strftime("%H:%M")) or (
        expected.date() != dt.datetime.now(ZoneInfo("Europe/Zurich")).date()
    )
    assert estimate["end"] in estimate["text"] and "53,333" in estimate["text"]
    t.refresh_from_db()
    assert t.structure == structures.template("standard")  # generated, not stored
    # the stored structure as edited: never reaches the end big blind -> says so
    body = {"op": "estimate", "structure": t.structure, "players": 40, "starting_stack": 20000}
    estimate = client.post(url, json.dumps(body), content_type="application/json").json()["estimate"]
    assert not estimate["reached"] and "add levels" in estimate["text"]
    bad = {"op": "generate", "hours": "x", "level_minutes": "20", "players": "40", "starting_stack": "20000"}
    refused = client.post(url, json.dumps(bad), content_type="application/json")
    assert refused.status_code == 400 and "0.5 to 24 hours" in refused.json()["message"]
    page = client.get(f"/tournaments/{t.id}/structure/").content.decode()
    assert 'id="ts-generate"' in page and "Target duration (hours)" in page


@pytest.mark.django_db
def test_the_estimate_of_a_running_clock_counts_from_the_time_played(client, floorman):
    t = services.create_tournament("Running", "munotpoker", structures.template("standard"), starting_stack=20000)
    for i in range(6):
        services.register(t.id, f"P{i}")
    services.start(t.id)
    client.force_login(floorman)
    body = {"op": "estimate", "structure": t.structure, "players": 6, "starting_stack": 20000}
    url = f"/tournaments/{t.id}/structure/api/"
    estimate = client.post(url, json.dumps(body), content_type="application/json").json()["estimate"]
    assert estimate["reached"] and estimate["level"] == 17


@pytest.mark.django_db
def test_the_estimate_counts_from_the_start_time_the_director_gives(client, floorman, settings):
    settings.TIME_ZONE = "Europe/Zurich"
    t = services.create_tournament("Evening", "munotpoker", structures.template("standard"), starting_stack=20000)
    client.force_login(floorman)
    # 6 players x 20,000: the end big blind 8,000 is reached in level 17, 6 h 20 min after the start
    body = {"op": "estimate", "structure": t.structure, "players": 6, "starting_stack": 20000, "start": "17:30"}
    url = f"/tournaments/{t.id}/structure/api/"
    estimate = client.post(url, json.dumps(body), content_type="application/json").json()["estimate"]
    assert estimate["seconds"] == (17 * 20 + 4 * 10) * 60 and estimate["end"] == "23:50"
    body["start"] = "21:00"  # past midnight: the date is shown too
    estimate = client.post(url, json.dumps(body), content_type="application/json").json()["estimate"]
    assert estimate["end"].endswith("03:20") and len(estimate["end"]) > 5
