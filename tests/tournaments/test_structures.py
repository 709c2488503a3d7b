"""The structure editor's services and endpoint: validation with clear errors that change nothing,
templates, JSON export/import round trip, copy from an earlier tournament.

Rules: 004 #81 (big blind ante equal to SB or BB), 001 Chip Race / 004 #24 (color-up at the break)."""

import json

import pytest

from tables.services import ServiceError
from tournaments import services
from tournaments.models import Tournament, TournamentEvent
from tournaments.services import structures

pytestmark = pytest.mark.django_db

GOOD = {
    "periods": [
        {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
        {"kind": "level", "small_blind": 50, "big_blind": 100, "minutes": 20},
        {"kind": "break", "minutes": 10, "color_up": [25]},
        {
            "kind": "level",
            "small_blind": 100,
            "big_blind": 200,
            "ante": 200,
            "ante_kind": "big_blind_ante",
            "minutes": 20,
        },
    ],
    "chips": [25, 100, 500],
    "late_registration_until": 1,
}


@pytest.fixture
def tourney():
    return services.create_tournament("Sunday", "munotpoker", GOOD, starting_stack=10_000)


def with_period(index, **changes):
    data = json.loads(json.dumps(GOOD))
    data["periods"][index].update(changes)
    return data


@pytest.mark.parametrize(
    "data, words",
    [
        (with_period(1, small_blind=20, big_blind=40), "lower than the level before"),
        (with_period(3, ante=150), "004 #81"),
        (with_period(3, ante=200, ante_kind="antes"), "none, ante or big blind ante"),
        (with_period(3, small_blind=150, big_blind=300, ante=300), "no multiple of the smallest chip in play (100)"),
        (with_period(2, color_up=[5]), "not in play"),
        (with_period(0, minutes=0), "minutes"),
        ({"periods": []}, "list of periods"),
        ({**GOOD, "rebuy_until": 9}, "Rebuys: no such period"),
    ],
)
def test_a_bad_structure_is_refused_with_a_clear_error_and_nothing_changes(tourney, data, words):
    seq = Tournament.objects.get(pk=tourney.id).seq
    with pytest.raises(ServiceError) as err:
        structures.set_structure(tourney.id, data)
    assert err.value.code == "invalid"
    assert any(words in e for e in err.value.extra["errors"]), err.value.extra["errors"]
    t = Tournament.objects.get(pk=tourney.id)
    assert t.seq == seq and t.structure == GOOD


def test_a_good_structure_is_stored_with_an_event(tourney):
    data = with_period(3, minutes=30)
    t = structures.set_structure(tourney.id, data)
    assert Tournament.objects.get(pk=t.id).structure["periods"][3]["minutes"] == 30
    assert TournamentEvent.objects.filter(tournament=t, kind="structure").exists()


def test_an_ante_for_every_player_is_allowed_under_001_but_not_004():
    data = with_period(3, ante=100, ante_kind="ante")
    assert structures.check_structure(data, "wynental") == []
    assert structures.check_structure(data, "munotpoker")


@pytest.mark.parametrize("name", ["turbo", "standard", "deep"])
def test_every_template_is_a_valid_structure_under_both_rulebooks(name):
    data = structures.template(name)
    assert structures.check_structure(data, "munotpoker") == []
    assert structures.check_structure(data, "wynental") == []
    assert any(p["kind"] == "break" and p["color_up"] for p in data["periods"])


def test_the_templates_differ_in_level_length():
    minutes = {n: structures.template(n)["periods"][0]["minutes"] for n in ("turbo", "standard", "deep")}
    assert minutes["turbo"] < minutes["standard"] < minutes["deep"]


def test_export_and_import_round_trip(tourney):
    other = services.create_tournament("Monday", "munotpoker", structures.template("turbo"), starting_stack=5000)
    document = json.loads(json.dumps(structures.export_structure(tourney)))
    assert document["format"] == "pokerfloor.structure"
    structures.import_structure(other.id, document)
    assert structures.normalise(Tournament.objects.get(pk=other.id).structure) == structures.normalise(GOOD)


def test_an_import_of_another_format_changes_nothing(tourney):
    with pytest.raises(ServiceError) as err:
        structures.import_structure(tourney.id, {"format": "excel", "structure": GOOD})
    assert "Not a pokerfloor structure file" in err.value.message


def test_copy_from_an_earlier_tournament(tourney):
    later = services.create_tournament("Monday", "munotpoker", structures.template("deep"), starting_stack=5000)
    structures.copy_structure(later.id, tourney.id)
    assert Tournament.objects.get(pk=later.id).structure["periods"] == structures.normalise(GOOD)["periods"]


def test_periods_already_played_cannot_change_once_the_clock_runs(tourney):
    for i in range(2):
        services.register(tourney.id, f"P{i}")
    services.start(tourney.id)
    services.clock_action(tourney.id, "jump", level=2)
    with pytest.raises(ServiceError) as err:
        structures.set_structure(tourney.id, with_period(0, small_blind=50, big_blind=50))
    assert "cannot change" in err.value.message
    structures.set_structure(tourney.id, with_period(3, minutes=25))  # a later level may change


def test_the_editor_endpoint_saves_and_refuses(client, floorman, outsider, tourney):
    url = f"/tournaments/{tourney.id}/structure/api/"
    client.force_login(outsider)
    assert client.get(f"/tournaments/{tourney.id}/structure/").status_code == 403
    client.force_login(floorman)
    assert client.get(f"/tournaments/{tourney.id}/structure/").status_code == 200
    bad = client.post(url, json.dumps({"op": "save", "structure": with_period(1, big_blind=40)}), "application/json")
    assert bad.status_code == 400 and bad.json()["errors"]
    ok = client.post(url, json.dumps({"op": "save", "structure": with_period(1, minutes=15)}), "application/json")
    assert ok.json()["ok"] and ok.json()["structure"]["periods"][1]["minutes"] == 15
    assert client.get(url + "?template=turbo").json()["structure"]["periods"][0]["minutes"] == 12
    download = client.get(url + "?download=1")
    assert "attachment" in download["Content-Disposition"] and download.json()["format"] == "pokerfloor.structure"
