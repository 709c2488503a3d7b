"""The floor call page (issue 24, findings 1 and 13): a call that lacks a fact asks for it and never
offers the input error as a ruling; citations of the call's kind in the table's rulebook; a refused
typed citation keeps the correction form as the floor filled it; a raise whose least is the whole
stack is offered once, as the all-in."""

from __future__ import annotations

import pytest

from rules import corrections as rules_corrections
from rules import services as floor
from rules.models import Ruling
from tables import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(db, dealer):
    table = services.create_table("Table 9", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker")
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        services.seat_player(table.id, seat, name, stack)
    services.start_hand(table.id)
    services.apply_action(table.id, {"type": "raise", "seat": 7, "to": 6})
    services.apply_action(table.id, {"type": "fold", "seat": 1})
    return table


def test_an_out_of_turn_call_without_a_seat_asks_for_it_then_suggests(client, table, dealer, floorman, rulebooks):
    call = floor.raise_floor_call(table.id, "out_of_turn", seat=None, actor=dealer)
    client.force_login(floorman)
    for lang in ("en", "de"):
        html = client.get(f"/rules/calls/{call.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert "needs &#x27;seat&#x27;" not in html and "needs 'seat'" not in html
        assert 'name="suggestion"' not in html  # nothing to apply
        assert 'id="fc-fact"' in html and 'data-action="supply-fact"' in html
    assert floor.suggestions_for(call) == []
    assert "needs" not in str(floor.suggestions_for(call))
    # The old "error" suggestion cannot be applied either.
    client.post(f"/rules/calls/{call.id}/rule/", {"suggestion": "error"})
    assert not Ruling.objects.exists()
    # A seat that is not in the hand is refused, in words.
    response = client.post(f"/rules/calls/{call.id}/fact/", {"seat": "9"}, follow=True)
    assert "Pick a seat of the hand." in response.content.decode()
    # Anna (1) was skipped: the suggestions follow, with the out-of-turn rules of 004 to tick.
    client.post(f"/rules/calls/{call.id}/fact/", {"seat": "1"})
    call.refresh_from_db()
    assert call.seat == 1
    html = client.get(f"/rules/calls/{call.id}/").content.decode()
    assert 'id="fc-fact"' not in html and 'name="suggestion"' in html
    assert "004 #53" in html


def test_each_kind_of_call_offers_its_rules_to_tick(client, table, dealer, floorman, rulebooks):
    client.force_login(floorman)
    chips = floor.raise_floor_call(table.id, "dispute", seat=1, actor=dealer)
    assert {"004 #22", "004 #1"} <= {c["label"] for c in floor.reason_citations(chips)}
    chips = floor.raise_floor_call(table.id, "chip_action", seat=1, actor=dealer)
    html = client.get(f"/rules/calls/{chips.id}/").content.decode()
    for label in ("004 #43", "004 #44", "004 #45"):
        assert f'value="munotpoker|{label[4:]}"' in html, label


def test_a_refused_typed_citation_keeps_the_form(client, table, dealer, floorman, rulebooks):
    call = floor.raise_floor_call(table.id, "dispute", seat=1, actor=dealer)
    client.force_login(floorman)
    response = client.post(
        f"/rules/calls/{call.id}/rule/",
        {"ctype": "replace", "index": "2", "action": "raise", "amount": "20", "citation_text": "004 #999",
         "decision": "Anna raised"},
    )  # fmt: skip
    assert response.status_code == 400
    html = response.content.decode()
    assert "There is no rule 004 #999." in html
    assert 'name="index" value="2" checked' in html
    assert 'name="ctype" value="replace" checked' in html
    assert 'name="action" value="raise" checked' in html
    assert 'name="amount" value="20"' in html
    assert 'name="citation_text" value="004 #999"' in html
    assert ">Anna raised</textarea>" in html
    assert not Ruling.objects.exists()


def test_a_raise_that_is_the_whole_stack_is_offered_once(client, table, dealer, floorman, rulebooks):
    # Button 1, SB 3, BB 5: David (7) raised to 6, Anna folded; Ben (3) raises to 100, Clara (5, 150)
    # calls: her only raise would be to 150, her whole stack, which is the all-in.
    services.apply_action(table.id, {"type": "raise", "seat": 3, "to": 100})
    services.apply_action(table.id, {"type": "call", "seat": 5})
    call = floor.raise_floor_call(table.id, "dispute", seat=5, actor=dealer)
    clara = next(a for a in rules_corrections.correction_options(call)["actions"] if a["seat"] == 5)
    assert [a["type"] for a in clara["alternatives"]] == ["fold", "all_in"]
    client.force_login(floorman)
    html = client.get(f"/rules/calls/{call.id}/").content.decode()
    assert "150–150" not in html
