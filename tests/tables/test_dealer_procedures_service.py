"""The dealer finishes an exposed card or a misdeal at the table when the house rules let him
(issue 24): recorded as an event with the rule cited and shown in words; what the floor decides
is refused with ``floor_decides`` (the tablet then calls the floor)."""

from __future__ import annotations

import uuid

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import translation

from pokerfloor.routing import websocket_urlpatterns
from tables import handwords, services
from tables.models import Hand, HandEvent
from tables.services.procedures import finish_procedure
from tables.writepath import ServiceError


def _live(table, profile):
    table.rules_profile = profile
    table.save(update_fields=["rules_profile"])
    services.start_hand(table.id)
    table.refresh_from_db()
    return table.current_hand


def _last(hand):
    return HandEvent.objects.filter(hand=hand).order_by("-index").first()


def _words(hand, lang):
    events = services.hand_events(hand)
    with translation.override(lang):
        return [row["text"] for row in handwords.events_in_words(events, handwords.names_of(hand.spec))]


@pytest.mark.django_db
def test_004_one_exposed_card_is_replaced_and_recorded_with_its_rule(table, dealer):
    hand = _live(table, "munotpoker")
    finish_procedure(table.id, "exposed_card", ["deal", "one"], actor=dealer)
    event = _last(hand)
    assert event.kind == "note" and event.payload["type"] == "procedure"
    assert event.payload["by"] == "dealer"
    assert [c["label"] for c in event.payload["citations"]] == ["004 #35"]
    hand.refresh_from_db()
    assert hand.status == Hand.Status.LIVE  # the hand goes on
    assert hand.snapshot["to_act_seat"] == 7
    assert "Dealer, by the house rules: Not a misdeal: the exposed card is replaced. (004 #35)" in _words(hand, "en")
    assert "Dealer nach den Hausregeln: Kein Miss-Deal: die offene Karte wird ersetzt. (004 #35)" in _words(hand, "de")


@pytest.mark.django_db
def test_004_a_misdeal_before_any_action_is_declared_by_the_dealer(table, dealer):
    hand = _live(table, "munotpoker")
    stacks = {s.number: s.stack for s in table.seats.all()}
    finish_procedure(table.id, "misdeal", ["two_exposed"], actor=dealer)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.MISDEAL
    event = _last(hand)
    assert event.kind == "correction" and event.payload["type"] == "misdeal"
    assert event.payload["by"] == "dealer" and event.payload["ruling"] is None
    assert "004 #35" in [c["label"] for c in event.payload["citations"]]
    assert {s.number: s.stack for s in table.seats.all()} == stacks  # every chip back
    assert (
        "Dealer, by the house rules: Misdeal: every chip goes back and the hand is dealt again (004 #35, 004 #36)"
        in _words(hand, "en")
    )


@pytest.mark.django_db
def test_000_an_exposed_first_card_is_a_misdeal_the_croupier_declares(table, dealer):
    hand = _live(table, "casino-cash")
    finish_procedure(table.id, "exposed_card", ["deal", "one"], actor=dealer)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.MISDEAL
    assert "000 Allgemein 9" in [c["label"] for c in _last(hand).payload["citations"]]


@pytest.mark.django_db
def test_after_substantial_action_the_misdeal_goes_to_the_floor(table, dealer):
    hand = _live(table, "munotpoker")
    services.apply_action(table.id, {"type": "call", "seat": 7})
    services.apply_action(table.id, {"type": "call", "seat": 1})
    before = _last(hand).index
    with pytest.raises(ServiceError) as err:
        finish_procedure(table.id, "misdeal", ["two_exposed"], actor=dealer)
    assert err.value.code == "floor_decides"
    assert _last(hand).index == before  # nothing recorded


@pytest.mark.django_db
def test_something_else_goes_to_the_floor_and_open_questions_are_refused(table, dealer):
    _live(table, "nlhe")
    with pytest.raises(ServiceError) as err:
        finish_procedure(table.id, "misdeal", ["other"], actor=dealer)
    assert err.value.code == "floor_decides"
    with pytest.raises(ServiceError) as err:
        finish_procedure(table.id, "exposed_card", ["deal"], actor=dealer)
    assert err.value.code == "invalid"


@pytest.mark.django_db
def test_the_tablet_gets_no_question_the_hand_answers(client, table, dealer):
    _live(table, "munotpoker")
    services.apply_action(table.id, {"type": "fold", "seat": 7})
    client.force_login(dealer)
    data = client.get(f"/tables/{table.id}/procedures/").json()
    assert data["facts"] == {"street": "preflop", "actions": ["fold"], "to_act_seat": 1, "facing_all_in": False}
    misdeal = next(p for p in data["procedures"] if p["key"] == "misdeal")
    questions = [s["question_en"] for s in misdeal["steps"].values()]
    assert "Is the flop already out?" not in questions
    assert not any("actions have been taken" in q for q in questions)
    option = next(o for o in misdeal["steps"]["cause"]["options"] if o["key"] == "two_exposed")
    assert option["next"]["kind"] == "outcome" and option["next"]["dealer_finishes"] is True
    assert option["next"]["citations"][0]["url"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_dealer_socket_finishes_a_procedure(table, dealer):
    from channels.db import database_sync_to_async

    await database_sync_to_async(_live)(table, "munotpoker")
    ws = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = dealer
    assert (await ws.connect())[0]
    await ws.receive_json_from()
    cid = f"p-{uuid.uuid4()}"
    await ws.send_json_to(
        {"type": "procedure", "client_id": cid, "procedure": "exposed_card", "answers": ["deal", "one"]}
    )
    while True:
        msg = await ws.receive_json_from(timeout=5)
        if msg.get("client_id") == cid:
            break
    assert msg["type"] == "ack"
    cid = f"p-{uuid.uuid4()}"
    await ws.send_json_to({"type": "procedure", "client_id": cid, "procedure": "misdeal", "answers": ["other"]})
    while True:
        msg = await ws.receive_json_from(timeout=5)
        if msg.get("client_id") == cid:
            break
    assert msg["type"] == "error" and msg["code"] == "floor_decides"
    await ws.disconnect()


@pytest.mark.django_db
def test_the_hand_says_who_faces_an_all_in(table, dealer):
    from tables.services.procedures import facts_of_table

    _live(table, "munotpoker")
    services.apply_action(table.id, {"type": "all_in", "seat": 7})  # David all-in for 400
    table.refresh_from_db()
    facts = facts_of_table(table)
    assert facts.to_act_seat == 1 and facts.facing_all_in is True
    assert facts.actions == ("all-in",)


@pytest.mark.django_db
def test_a_tda_procedure_names_its_rule_in_german_words(table, dealer):
    hand = _live(table, "tda-2024")
    finish_procedure(table.id, "exposed_card", ["deal", "one"], actor=dealer)
    assert _words(hand, "de")[-1].endswith("(TDA 2024 Regel 35)")
    assert _words(hand, "en")[-1].endswith("(TDA 2024 Rule 35)")
