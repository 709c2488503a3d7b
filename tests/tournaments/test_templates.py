"""Templates on the create form (issue 23, what a director also expects): the built-in structures and
the templates a director saved from the structure editor with the tournament's settings."""

import json

import pytest

from tournaments import services
from tournaments.models import StructureTemplate, Tournament, TournamentEvent
from tournaments.services import structures

pytestmark = pytest.mark.django_db


def _source(floorman) -> Tournament:
    return services.create_tournament(
        "Friday Deep",
        "munotpoker",
        structures.template("deep"),
        starting_stack=30000,
        buy_in=150,
        fee=20,
        max_seats=8,
        re_entries_allowed=2,
        rebuys_allowed=1,
        add_ons_allowed=1,
        rebuy_max_stack=5000,
        guarantee=5000,
        rebuy_cost=100,
        rebuy_chips=20000,
        add_on_cost=50,
        add_on_chips=15000,
        double_rebuy=True,
        actor=floorman,
    )


def _save_from_editor(client, t: Tournament, name: str, structure=None) -> dict:
    body = {"op": "save_template", "name": name, "structure": structure or t.structure}
    response = client.post(f"/tournaments/{t.id}/structure/api/", json.dumps(body), content_type="application/json")
    return response.json()


def test_save_as_template_keeps_the_edited_structure_and_the_settings_and_is_audited(client, floorman):
    t = _source(floorman)
    client.force_login(floorman)
    edited = structures.normalise(t.structure)
    edited["periods"][0]["minutes"] = 45  # edited in the editor, not saved on the tournament
    answer = _save_from_editor(client, t, "  Friday   Deep  ", edited)
    assert answer["ok"], answer
    saved = StructureTemplate.objects.get()
    assert saved.name == "Friday Deep" and answer["template"] == {"key": f"saved:{saved.id}", "name": "Friday Deep"}
    assert saved.structure["periods"][0]["minutes"] == 45
    t.refresh_from_db()
    assert t.structure["periods"][0]["minutes"] == 40  # the tournament itself is unchanged
    assert saved.values["starting_stack"] == 30000 and saved.values["buy_in"] == 150
    assert saved.values["rebuy_chips"] == 20000 and saved.values["double_rebuy"] is True
    assert saved.values["rulebook"] == "munotpoker" and saved.values["max_seats"] == 8
    event = TournamentEvent.objects.filter(tournament=t, kind="template_saved").get()
    assert event.actor == floorman and event.payload["name"] == "Friday Deep"
    # saved again under the same name: replaced, not doubled
    assert _save_from_editor(client, t, "Friday Deep")["ok"]
    assert StructureTemplate.objects.count() == 1
    assert StructureTemplate.objects.get().structure["periods"][0]["minutes"] == 40


def test_a_template_needs_a_name_and_a_good_structure(client, floorman):
    t = _source(floorman)
    client.force_login(floorman)
    assert _save_from_editor(client, t, "   ")["code"] == "invalid"
    bad = structures.normalise(t.structure)
    bad["periods"][1]["small_blind"] = 10  # lower than the level before
    answer = _save_from_editor(client, t, "Bad", bad)
    assert answer["ok"] is False and answer["errors"]
    assert not StructureTemplate.objects.exists()


def test_the_create_form_offers_built_in_and_saved_templates(client, floorman):
    t = _source(floorman)
    client.force_login(floorman)
    _save_from_editor(client, t, "Friday Deep")
    page = client.get("/tournaments/").content.decode()
    saved = StructureTemplate.objects.get()
    for key in ("turbo", "standard", "deep", f"saved:{saved.id}"):
        assert f'<option value="{key}"' in page
    assert "Friday Deep" in page and 'id="td-templates"' in page


def test_a_saved_template_creates_the_tournament_with_its_structure_and_settings(client, floorman):
    t = _source(floorman)
    client.force_login(floorman)
    _save_from_editor(client, t, "Friday Deep")
    saved = StructureTemplate.objects.get()
    # without the page's script: the fields are left empty, the rulebook box says Wynental
    response = client.post(
        "/tournaments/", {"name": "Next Friday", "template": f"saved:{saved.id}", "rulebook": "", "buy_in": "200"}
    )
    assert response.status_code == 302, response.content.decode()[-600:]
    new = Tournament.objects.get(name="Next Friday")
    assert new.structure == saved.structure
    assert new.rulebook == "munotpoker" and new.starting_stack == 30000 and new.fee == 20
    assert new.buy_in == 200  # typed: the form wins over the template
    assert (new.max_seats, new.re_entries_allowed, new.rebuys_allowed, new.add_ons_allowed) == (8, 2, 1, 1)
    assert (new.rebuy_max_stack, new.guarantee, new.double_rebuy) == (5000, 5000, True)
    assert (new.rebuy_cost, new.rebuy_chips, new.add_on_cost, new.add_on_chips) == (100, 20000, 50, 15000)
    created = TournamentEvent.objects.get(tournament=new, kind="created")
    assert created.payload["template"] == f"saved:{saved.id}" and created.actor == floorman


def test_a_built_in_template_gives_its_structure_and_the_house_settings(client, floorman):
    client.force_login(floorman)
    response = client.post("/tournaments/", {"name": "Turbo", "template": "turbo", "rulebook": "munotpoker"})
    assert response.status_code == 302
    new = Tournament.objects.get(name="Turbo")
    assert new.structure == structures.template("turbo")
    assert (new.starting_stack, new.buy_in, new.guarantee, new.rebuy_cost, new.double_rebuy) == (
        20000,
        100,
        0,
        None,
        False,
    )


def test_an_unknown_template_is_refused_in_words(client, floorman):
    client.force_login(floorman)
    response = client.post("/tournaments/", {"name": "X", "template": "saved:999", "rulebook": "munotpoker"})
    assert response.status_code == 200
    assert "no structure template saved:999" in response.content.decode()
    assert not Tournament.objects.filter(name="X").exists()


def test_the_editor_loads_a_saved_template(client, floorman):
    t = _source(floorman)
    client.force_login(floorman)
    edited = structures.normalise(t.structure)
    edited["periods"][0]["minutes"] = 33
    _save_from_editor(client, t, "Thirty-three", edited)
    saved = StructureTemplate.objects.get()
    answer = client.get(f"/tournaments/{t.id}/structure/api/?template=saved:{saved.id}").json()
    assert answer["ok"] and answer["structure"]["periods"][0]["minutes"] == 33
    page = client.get(f"/tournaments/{t.id}/structure/").content.decode()
    assert f'value="saved:{saved.id}"' in page and "Save as template" in page
