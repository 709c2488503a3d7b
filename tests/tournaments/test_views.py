"""Tournament pages: the director's page for floor staff only, the lobby by its link."""

import json

import pytest

from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

LEVELS = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}


@pytest.fixture
def tourney():
    return services.create_tournament("Sunday", "wynental", LEVELS, starting_stack=1000)


def test_it_shows_the_director_page_to_the_floor_only(client, floorman, outsider, tourney):
    client.force_login(outsider)
    assert client.get(f"/tournaments/{tourney.id}/").status_code == 403
    assert (
        client.post(
            f"/tournaments/{tourney.id}/action/",
            json.dumps({"op": "register", "player": "X"}),
            content_type="application/json",
        ).status_code
        == 403
    )
    client.force_login(floorman)
    assert client.get(f"/tournaments/{tourney.id}/").status_code == 200


def test_the_lobby_needs_no_login_but_the_token(client, tourney):
    assert client.get(f"/tournaments/lobby/{tourney.public_token}/").status_code == 200
    assert client.get(f"/tournaments/lobby/{tourney.id}/").status_code == 404


def test_actions_register_and_refuse_bad_input(client, floorman, tourney):
    client.force_login(floorman)
    ok = client.post(
        f"/tournaments/{tourney.id}/action/",
        json.dumps({"op": "register", "player": "Anna"}),
        content_type="application/json",
    )
    assert ok.json() == {"ok": True}
    dup = client.post(
        f"/tournaments/{tourney.id}/action/",
        json.dumps({"op": "register", "player": "Anna"}),
        content_type="application/json",
    )
    assert dup.status_code == 400 and dup.json()["code"] == "duplicate"
    assert Entry.objects.filter(tournament=tourney).count() == 1
