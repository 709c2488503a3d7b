"""Registration finds a returning player instead of retyping him (issue 23, "Player search and
autocomplete at registration (with a player ID)"), and its duplicate check costs the same in a big
field as in a small one (issue 23: ``_same_name`` read every entry, 0.48 s at 700 entries).

The players' ``name_key`` (no case, no accents, single spaces; indexed) is kept on create, save and
bulk create, and filled for the players there were by migration tables/0008."""

import importlib
import json

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Player
from tables.services import ServiceError
from tournaments import services
from tournaments.models import Entry
from tournaments.services import registration

pytestmark = pytest.mark.django_db

LEVELS = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}


def tourney(name="Sunday"):
    return services.create_tournament(name, "munotpoker", LEVELS, starting_stack=1000)


def test_a_player_keeps_his_name_key_on_create_save_and_bulk_create():
    anna = Player.objects.create(name="Anna  Müller")
    assert Player.objects.get(pk=anna.pk).name_key == "anna muller"
    anna.name = "ÅSA Öberg"
    anna.save(update_fields=["name"])
    assert Player.objects.get(pk=anna.pk).name_key == "asa oberg"
    [bulk] = Player.objects.bulk_create([Player(name="Zoë LÉGER")])
    assert Player.objects.get(pk=bulk.pk).name_key == "zoe leger"


def test_the_migration_fills_the_keys_of_the_players_there_were():
    ids = [Player.objects.create(name=n).pk for n in ("Jörg  Bäcker", "GUEST 01")]
    Player.objects.filter(pk__in=ids).update(name_key="")  # as the rows were before tables/0008
    migration = importlib.import_module("tables.migrations.0008_player_name_key")
    migration.fill_name_keys(apps, None)
    assert sorted(Player.objects.filter(pk__in=ids).values_list("name_key", flat=True)) == ["guest 01", "jorg backer"]


def test_the_duplicate_check_is_one_indexed_lookup_whatever_the_field(monkeypatch):
    """Before: every entry was read and its name normalised in Python (one ``name_key`` call per
    entry); now the key is computed once and looked up."""
    t = tourney()
    players = Player.objects.bulk_create([Player(name=f"Field {i:03d}") for i in range(300)])
    Entry.objects.bulk_create([Entry(tournament=t, player=p, number=1) for p in players])
    calls: list[str] = []
    real = registration.name_key

    def counting(name):
        calls.append(name)
        return real(name)

    monkeypatch.setattr(registration, "name_key", counting)
    with pytest.raises(ServiceError) as exc:
        services.register(t.id, "FIELD  150")
    assert exc.value.code == "duplicate" and "Field 150" in exc.value.message
    with CaptureQueriesContext(connection) as queries:
        entry = services.register(t.id, "Newcomer")
    assert entry.player.name == "Newcomer" and entry.player.name_key == "newcomer"
    assert len(calls) <= 4, len(calls)  # not one per entry of the field
    assert len(queries) <= 20, [q["sql"] for q in queries.captured_queries]
    lookups = [q["sql"] for q in queries.captured_queries if '"name_key"' in q["sql"]]
    assert lookups, "the duplicate check goes through the name key"


def test_search_finds_a_name_word_by_its_beginning_without_case_or_accents_and_by_id():
    anna = Player.objects.create(name="Anna Müller", country="CH")
    hanna = Player.objects.create(name="Hanna Ann-Kathrin Frei")
    Player.objects.create(name="Marianne Keller")  # "ann" inside a word is no word's beginning
    Player.objects.bulk_create([Player(name=f"Annabel {i:02d}") for i in range(12)])
    found = registration.search_players("ann")
    assert len(found) == 10 and found[0] == anna  # at most ten, by name
    assert hanna in registration.search_players("ANN-K")
    assert registration.search_players("mül") == [anna] == registration.search_players("MUL")
    assert registration.search_players("anna  mu") == [anna]
    assert registration.search_players(f"#{anna.id}")[0] == anna
    assert registration.search_players(str(anna.id))[0] == anna
    assert registration.search_players("") == [] and registration.search_players("%") == []


def test_the_desk_searches_and_registers_the_player_it_picked(client, floorman, dealer):
    t = tourney()
    anna = Player.objects.create(name="Anna Müller", country="CH")  # she played here before
    services.register(tourney("Last week").id, "Anna Müller")
    client.force_login(dealer)
    assert client.get(f"/tournaments/{t.id}/players/?q=ann").status_code == 403
    client.force_login(floorman)
    body = client.get(f"/tournaments/{t.id}/players/?q=ann").json()
    assert body == {
        "ok": True,
        "players": [{"id": anna.id, "name": "Anna Müller", "country": "CH", "label": f"#{anna.id}", "status": ""}],
    }
    url = f"/tournaments/{t.id}/action/"
    ok = client.post(url, json.dumps({"op": "register", "player_id": anna.id}), content_type="application/json")
    assert ok.json() == {"ok": True}
    [entry] = Entry.objects.filter(tournament=t)
    assert entry.player_id == anna.id and Player.objects.filter(name_key="anna muller").count() == 1
    again = client.get(f"/tournaments/{t.id}/players/?q=%23{anna.id}").json()["players"]
    assert again[0]["status"] == "registered"
    dup = client.post(url, json.dumps({"op": "register", "player_id": anna.id}), content_type="application/json")
    assert dup.status_code == 400 and dup.json()["code"] == "duplicate"
    typed = client.post(url, json.dumps({"op": "register", "player": "anna  MÜLLER"}), content_type="application/json")
    assert typed.status_code == 400 and typed.json()["code"] == "duplicate"
    gone = client.post(url, json.dumps({"op": "register", "player_id": 10**8}), content_type="application/json")
    assert gone.status_code == 400 and gone.json()["code"] == "not_found"
    empty = client.post(url, json.dumps({"op": "register"}), content_type="application/json")
    assert empty.status_code == 400 and empty.json()["code"] == "invalid"
    assert Entry.objects.filter(tournament=t).count() == 1
