"""Point-and-click corrections on the floor call page: the actions to pick, the legal alternatives,
the preview (the corrected hand before anything is applied), applying with a citation, the event log in
words, and typed citations stored with their rulebook (poker/rulebooks.py Citation.parse)."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from rules import citations as rules_citations
from rules import corrections as rules_corrections
from rules import services as floor
from rules.models import Ruling
from tables import services
from tables.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(db, dealer):
    table = services.create_table("Table 9", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker")
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        services.seat_player(table.id, seat, name, stack)
    return table


@pytest.fixture(autouse=True)
def english():
    """Service texts in English (a German page request earlier in the thread leaves German active)."""
    from django.utils import translation

    with translation.override("en"):
        yield


def hand_of(table):
    return Hand.objects.filter(table=table).order_by("-number").first()


@pytest.fixture
def mistaken_fold(table, dealer):
    """Button 1, SB 3, BB 5: David (7) raises to 6, the dealer enters a fold for Anna (1) who called."""
    services.start_hand(table.id)
    services.apply_action(table.id, {"type": "raise", "seat": 7, "to": 6})
    services.apply_action(table.id, {"type": "fold", "seat": 1})
    return floor.raise_floor_call(table.id, "dispute", seat=1, note="Anna called", actor=dealer)


def form(**fields) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        data.setlist(key, value if isinstance(value, list) else [str(value)])
    return data


def test_the_options_list_the_standing_actions_with_their_legal_alternatives(mistaken_fold):
    options = rules_corrections.correction_options(mistaken_fold)
    actions = {a["index"]: a for a in options["actions"]}
    assert [a["type"] for a in options["actions"]] == ["raise", "fold"]
    fold = actions[2]
    assert fold["seat"] == 1 and fold["text"] == "Anna (1) folds"
    assert {a["type"]: a for a in fold["alternatives"]}["call"]["amount"] == 6
    assert {a["type"] for a in fold["alternatives"]} == {"call", "raise", "all_in"}
    raise_ = {a["type"]: a for a in fold["alternatives"]}["raise"]
    assert raise_["min"] == 10 and raise_["max"] == 200


def test_the_preview_shows_the_corrected_hand_and_changes_nothing(mistaken_fold, table):
    seq = hand_of(table).snapshot_seq
    item = rules_corrections.correction_from_form(mistaken_fold, form(ctype="replace", index=2, action="call"))
    assert item == {"type": "replace", "index": 2, "action": {"type": "call", "seat": 1}}
    preview = rules_corrections.preview_correction(mistaken_fold, item)
    assert preview["ok"], preview
    assert preview["state"]["total_pot"] == 6 + 6 + 1 + 2
    anna = next(p for p in preview["state"]["players"] if p["seat"] == 1)
    assert not anna["folded"] and anna["bet"] == 6
    assert preview["text"] == "Replace “Anna (1) folds preflop” with: Anna (1) calls"
    assert hand_of(table).snapshot_seq == seq
    assert hand_of(table).snapshot["total_pot"] == 9


def test_a_preview_that_cannot_stand_names_the_conflict(mistaken_fold, table):
    services.apply_action(table.id, {"type": "call", "seat": 3})
    item = rules_corrections.correction_from_form(mistaken_fold, form(ctype="void", index=1))
    preview = rules_corrections.preview_correction(mistaken_fold, item)
    assert not preview["ok"] and "“Anna (1) folds preflop” would no longer be legal" in preview["error"]


def test_bad_picks_get_a_clear_error(mistaken_fold):
    cases = [
        (form(), "Pick what the floor corrects."),
        (form(ctype="replace"), "Pick the action to correct."),
        (form(ctype="replace", index=99), "Event 99 is not an action that stands."),
        (form(ctype="replace", index=2, action="fold"), "Pick the action that stands instead."),
        (form(ctype="replace", index=2, action="raise", amount=7), "The amount must be between 10 and 200."),
        (form(ctype="adjust", index=2, amount=8), "Only a bet or a raise can be adjusted."),
        (form(ctype="kill", seat=4), "Seat 4 is not in the hand."),
        (form(ctype="award"), "Pick the seats that get the pot."),
    ]
    for data, message in cases:
        with pytest.raises(services.ServiceError) as err:
            rules_corrections.correction_from_form(mistaken_fold, data)
        assert err.value.message == message


def test_applying_the_picked_correction_by_taps_corrects_the_hand(client, mistaken_fold, table, floorman, rulebooks):
    client.force_login(floorman)
    page = client.get(f"/rules/calls/{mistaken_fold.id}/").content.decode()
    assert "Anna (1) folds" in page and "David (7) raises to 6" in page
    assert "JSON" not in page and "complete complete" not in page
    preview = client.post(
        f"/rules/calls/{mistaken_fold.id}/preview/", {"ctype": "replace", "index": "2", "action": "call"}
    ).json()
    assert preview["ok"] and 'data-f="pot">15<' in preview["html"]
    response = client.post(
        f"/rules/calls/{mistaken_fold.id}/rule/",
        {"ctype": "replace", "index": "2", "action": "call", "cite": ["munotpoker|#1"], "citation_text": "tda-2024:1"},
    )
    assert response.status_code == 302
    ruling = Ruling.objects.get()
    assert ruling.corrections == [{"type": "replace", "index": 2, "action": {"type": "call", "seat": 1}}]
    assert [c["label"] for c in ruling.citations] == ["004 #1", "TDA 2024 Rule 1"]
    assert ruling.citations[1] == {"rulebook": "tda-2024", "section": "TDA 2024 Rule 1", "label": "TDA 2024 Rule 1"}
    assert ruling.decision == "Replace “Anna (1) folds preflop” with: Anna (1) calls."
    assert ruling.decision_de == "Ersetzen: „Anna (1) foldet vor dem Flop“ durch: Anna (1) callt."
    snapshot = hand_of(table).snapshot
    assert snapshot["total_pot"] == 15 and not next(p for p in snapshot["players"] if p["seat"] == 1)["folded"]
    page = client.get(f"/rules/calls/{mistaken_fold.id}/").content.decode()
    assert "Floor: Replace “Anna (1) folds preflop”" in page and "This call is closed." in page


def test_a_correction_needs_a_citation(client, mistaken_fold, floorman, rulebooks):
    client.force_login(floorman)
    client.post(f"/rules/calls/{mistaken_fold.id}/rule/", {"ctype": "void", "index": "2"})
    assert Ruling.objects.count() == 0


def test_typed_citations_keep_their_rulebook(rulebooks):
    assert rules_citations.parse_citation("tda-2024:1")["label"] == "TDA 2024 Rule 1"
    assert rules_citations.parse_citation("tda:35") == {
        "rulebook": "tda-2024",
        "section": "TDA 2024 Rule 35",
        "label": "TDA 2024 Rule 35",
    }
    assert rules_citations.parse_citation("004 #35")["rulebook"] == "munotpoker"
    assert rules_citations.parse_citation("munotpoker:53")["label"] == "004 #53"
    assert rules_citations.parse_citation("000 Aktionen 4")["rulebook"] == "casino-cash"
    for bad in ("nope:1", "004 #999", "hello"):
        with pytest.raises(services.ServiceError):
            rules_citations.parse_citation(bad)


def test_the_api_form_with_json_corrections_still_works_and_stores_tda_citations(
    client, mistaken_fold, floorman, rulebooks
):
    client.force_login(floorman)
    client.post(
        f"/rules/calls/{mistaken_fold.id}/rule/",
        {
            "decision": "Anna called.",
            "citations": "tda-2024:1\n004 #43",
            "corrections": '[{"type": "replace", "index": 2, "action": {"type": "call", "seat": 1}}]',
        },
    )
    assert [c["label"] for c in Ruling.objects.get().citations] == ["TDA 2024 Rule 1", "004 #43"]


def test_the_event_log_is_in_words(client, mistaken_fold, floorman, table):
    client.force_login(floorman)
    html = client.get(f"/rules/calls/{mistaken_fold.id}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "David (7) erhöht auf 6" in html and "Anna (1) foldet" in html
    assert "action raise" not in html


def test_every_page_correction_previews_in_words(mistaken_fold, table):
    """Void, adjust, return the action, kill, award: each previewed as the hand would stand."""
    call = mistaken_fold

    def preview(**fields):
        item = rules_corrections.correction_from_form(call, form(**fields))
        return item, rules_corrections.preview_correction(call, item)

    item, result = preview(ctype="void", index=2)
    assert item == {"type": "void", "index": 2} and result["ok"]
    assert result["state"]["to_act_seat"] == 1 and 2 in result["state"]["voided"]

    item, result = preview(ctype="adjust", index=1, amount=8)
    assert item == {"type": "adjust", "index": 1, "to": 8} and result["ok"]
    assert result["state"]["total_pot"] == 11
    assert next(e for e in result["events"] if e["index"] == 1)["now"] == "David (7) raises to 8"

    item, result = preview(ctype="return_action", index=1, held=["2"])
    assert item == {"type": "return_action", "index": 1, "held": [2]} and result["ok"]
    assert result["state"]["to_act_seat"] == 7
    assert next(e for e in result["events"] if e["index"] == 2)["held"]

    item, result = preview(ctype="kill", seat=7)
    assert item == {"type": "kill", "seat": 7} and result["ok"]
    assert result["text"] == "Kill the hand of David (7)"

    item, result = preview(ctype="award", seats=["3"])
    assert item == {"type": "award", "seats": [3]} and result["ok"]
    assert result["state"]["phase"] == "complete"

    with pytest.raises(services.ServiceError) as err:
        rules_corrections.correction_from_form(call, form(ctype="misdeal"))
    assert "misdeal can no longer be declared" in err.value.message


def test_a_hand_that_moved_on_offers_no_correction(mistaken_fold, table, floorman, client):
    floor.make_ruling(table.id, decision="Pot to Ben", corrections=[{"type": "award", "seats": [3]}], actor=floorman)
    services.start_hand(table.id)
    assert rules_corrections.correction_options(mistaken_fold) is None
    assert not rules_corrections.preview_correction(mistaken_fold, {"type": "void", "index": 2})["ok"]
