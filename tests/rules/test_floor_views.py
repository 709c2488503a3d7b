"""The floor call page, the rulings search and the player history (HTTP)."""

from __future__ import annotations

import pytest

from rules import services as floor
from rules.models import Ruling
from tables import services
from tables.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(db, dealer):
    table = services.create_table("Table 9", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker")
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150)]:
        services.seat_player(table.id, seat, name, stack)
    return table


def test_it_shows_the_call_with_suggestions_and_applies_one(client, table, dealer, floorman, rulebooks):
    services.start_hand(table.id)
    # Ben (seat 3) acts out of turn before Anna (button 1 -> SB 3, BB 5, Anna first): record and call the floor.
    call = floor.raise_floor_call(table.id, "misdeal", note="card exposed on the deal", actor=dealer)
    client.force_login(floorman)
    page = client.get(f"/rules/calls/{call.id}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "card exposed on the deal" in html and "Table 9" in html
    keys = [s["key"] for s in floor.suggestions_for(call)]
    misdeal_key = next(k for k in keys if "misdeal" in k)
    response = client.post(f"/rules/calls/{call.id}/rule/", {"suggestion": misdeal_key})
    assert response.status_code == 302
    assert Hand.objects.get(table=table).status == "misdeal"
    ruling = Ruling.objects.get()
    assert ruling.citations and ruling.floor_call_id == call.id
    page = client.get(f"/rules/calls/{call.id}/")
    assert "This call is closed." in page.content.decode()


def test_outsiders_and_dealers_cannot_open_calls_or_rulings(client, table, dealer, outsider):
    call = floor.raise_floor_call(table.id, "other", actor=dealer)
    for user in (dealer, outsider):
        client.force_login(user)
        assert client.get(f"/rules/calls/{call.id}/").status_code == 403
        assert client.post(f"/rules/calls/{call.id}/rule/", {"decision": "x"}).status_code == 403
        assert client.get("/rules/rulings/").status_code == 403


def test_rulings_are_searchable_by_table_player_rule_and_date(client, table, floorman, rulebooks):
    services.start_hand(table.id)
    floor.make_ruling(
        table.id,
        decision="Warning for Ben, soft play",
        citations=[{"rulebook": "munotpoker", "section": "#71"}],
        corrections=[{"type": "penalty", "seat": 3, "kind": "warning"}],
        actor=floorman,
    )
    floor.make_ruling(
        table.id,
        decision="Clara's oversized chip is a call",
        citations=[{"rulebook": "munotpoker", "section": "#44"}],
        actor=floorman,
    )
    client.force_login(floorman)

    def found(**params):
        html = client.get("/rules/rulings/", params).content.decode()
        return [d for d in ("Warning for Ben", "oversized chip is a call") if d in html]

    assert found() == ["Warning for Ben", "oversized chip is a call"]
    assert found(player="ben") == ["Warning for Ben"]
    assert found(rule="#44") == ["oversized chip is a call"]
    assert found(table=str(table.id), **{"from": "2000-01-01"}) == ["Warning for Ben", "oversized chip is a call"]
    assert found(to="2000-01-01") == []
    ben = Ruling.objects.get(decision__startswith="Warning").players.get()
    html = client.get(f"/rules/players/{ben.id}/").content.decode()
    assert "warning" in html and "Warning for Ben" in html
