"""Seven Card Stud at a real table of a cash game (room variant "stud"): the
table's stakes become the stud spec (ante, bring-in = small blind, small bet
= big blind, big bet twice that; 000 Einsätze 2), the dealer deals street by
street and the hand is played to a showdown through ``tables.services``; the
hand's events replay to the stored snapshot."""

import pytest
from django.urls import reverse

from poker.hand import corrections, load_spec
from room import services as r
from room.models import Game
from tables import services
from tables.models import Hand, Seat, Table
from tables.writepath import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def stud_table(floorman):
    """A stud game 1/4 (bring-in 1, small bet 4, big bet 8) with ante 1 and three players of 100 chips."""
    room = r.create_room("studroom", "Stud room")
    game = r.create_game(
        room.id, "Stud 4/8", variant="stud", small_blind=1, big_blind=4, min_buy_in=40, max_buy_in=200, actor=floorman
    )
    assert game.variant == Game.Variant.STUD
    table = r.open_table(game.id, "Stud 1", max_seats=8, actor=floorman)
    Table.objects.filter(pk=table.id).update(ante=1)
    for seat, name in [(1, "Anna"), (2, "Ben"), (3, "Clara")]:
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 100, actor=floorman)
    return Table.objects.get(pk=table.id)


def act(table, action):
    services.apply_action(table.id, action)
    return state_of(table)


def state_of(table):
    return Hand.objects.get(pk=Table.objects.get(pk=table.id).current_hand_id).snapshot


def stacks(table):
    return {s.number: s.stack for s in Seat.objects.filter(table=table, number__in=(1, 2, 3))}


def test_a_stud_hand_is_dealt_bet_street_by_street_and_shown_down(stud_table):
    table = stud_table
    services.start_hand(table.id)
    table.refresh_from_db()
    hand = table.current_hand
    assert hand.spec["game"] == "stud"
    assert (hand.spec["ante"], hand.spec["bring_in"], hand.spec["small_bet"], hand.spec["big_bet"]) == (1, 1, 4, 8)
    view = hand.snapshot
    assert view["game"] == "stud" and view["street"] == "ante" and view["phase"] == "deal"
    assert view["total_pot"] == 3  # the antes
    assert view["format"]["kind"] == "standard" and view["misdeal_possible"]

    # third street: two down cards and the door card; the lowest door card (2c, seat 2) brings in
    view = act(table, {"type": "deal", "cards": {"1": "AsKsQs", "2": "7h7d2c", "3": "JcJdTh"}})
    assert view["street"] == "third" and view["to_act_seat"] == 2
    assert view["legal"]["bring_in"] == 1 and not view["legal"]["can_fold"]
    act(table, {"type": "bring_in", "seat": 2})
    view = act(table, {"type": "complete", "seat": 3, "to": 4})
    assert view["legal"]["call_amount"] == 4
    act(table, {"type": "call", "seat": 1})
    view = act(table, {"type": "call", "seat": 2})
    assert view["phase"] == "deal" and view["total_pot"] == 15

    # fourth street: seat 3 shows the pair of tens and acts first; an open pair allows the small or the big bet
    view = act(table, {"type": "deal", "cards": {"1": "Js", "2": "3d", "3": "Ts"}})
    assert view["street"] == "fourth" and view["to_act_seat"] == 3 and view["open_pair"]
    assert {p["seat"]: p["up_cards"] for p in view["players"]} == {1: ["Qs", "Js"], 2: ["2c", "3d"], 3: ["Th", "Ts"]}
    assert (view["legal"]["min_raise_to"], view["legal"]["max_raise_to"]) == (4, 8)
    with pytest.raises(ServiceError) as above:
        services.apply_action(table.id, {"type": "bet", "seat": 3, "to": 6})
    assert above.value.code in ("below_minimum_bet", "above_limit")
    act(table, {"type": "bet", "seat": 3, "to": 8})
    act(table, {"type": "call", "seat": 1})
    view = act(table, {"type": "fold", "seat": 2})
    assert view["total_pot"] == 31 and not view["misdeal_possible"]

    # fifth to seventh street: checked down
    for street, cards in [("fifth", {"1": "2s", "3": "4h"}), ("sixth", {"1": "5c", "3": "6d"})]:
        view = act(table, {"type": "deal", "cards": cards})
        assert view["street"] == street
        first = view["to_act_seat"]
        act(table, {"type": "check", "seat": first})
        act(table, {"type": "check", "seat": 4 - first})
    view = act(table, {"type": "deal", "cards": {"1": "8d", "3": "9c"}})
    assert view["street"] == "seventh"
    first = view["to_act_seat"]
    act(table, {"type": "check", "seat": first})
    view = act(table, {"type": "check", "seat": 4 - first})
    # every card is known: the engine shows the hands down and awards the pot to seat 1's spade flush
    assert view["phase"] == "complete"
    assert [(a["seat"], a["amount"]) for a in view["awards"]] == [(1, 31)]
    assert dict(zip((p["seat"] for p in view["players"]), view["final_stacks"])) == {1: 118, 2: 95, 3: 87}
    assert stacks(table) == {1: 118, 2: 95, 3: 87}
    hand.refresh_from_db()
    assert hand.status == Hand.Status.COMPLETE

    # the events replay to the stored snapshot
    events = list(hand.events.order_by("index").values_list("index", "kind", "payload"))
    replayed = corrections.replay(load_spec(hand.spec), events).state.to_dict()
    assert {k: hand.snapshot[k] for k in replayed} == replayed


def test_an_unknown_door_card_needs_the_dealer_to_name_the_bring_in(stud_table):
    table = stud_table
    services.start_hand(table.id)
    with pytest.raises(ServiceError) as unnamed:
        services.apply_action(table.id, {"type": "deal", "cards": {"1": "AsKs??", "2": "7h7d2c", "3": "JcJdTh"}})
    assert unnamed.value.code == "bad_cards"
    assert state_of(table)["street"] == "ante"  # nothing changed
    view = act(table, {"type": "deal", "cards": {"1": "AsKs??", "2": "7h7d2c", "3": "JcJdTh"}, "opener": 1})
    assert view["to_act_seat"] == 1
    assert {p["seat"]: p["up_cards"] for p in view["players"]} == {1: ["??"], 2: ["2c"], 3: ["Th"]}
    act(table, {"type": "bring_in", "seat": 1})
    act(table, {"type": "fold", "seat": 2})
    view = act(table, {"type": "fold", "seat": 3})
    assert view["phase"] == "complete"
    assert stacks(table) == {1: 102, 2: 99, 3: 99}  # the antes and his bring-in back


def test_a_stud_table_deals_no_special_formats(stud_table):
    with pytest.raises(ServiceError) as refused:
        services.start_hand(stud_table.id, format={"kind": "bomb_pot", "amount": 4})
    assert refused.value.code == "format_not_allowed"
    assert Table.objects.get(pk=stud_table.id).current_hand_id is None


def test_unknown_down_cards_wait_at_the_showdown_for_the_dealer_to_award_the_pot(stud_table):
    table = stud_table
    services.start_hand(table.id)
    view = act(table, {"type": "deal", "cards": {"1": "????Ah", "2": "????2c", "3": "????Kd"}})
    act(table, {"type": "bring_in", "seat": 2})
    act(table, {"type": "fold", "seat": 3})
    view = act(table, {"type": "call", "seat": 1})
    assert view["phase"] == "deal"
    for cards in ({"1": "Qh", "2": "3c"}, {"1": "Jh", "2": "4c"}, {"1": "Th", "2": "5c"}, {}):
        view = act(table, {"type": "deal", "cards": cards})
        first = view["to_act_seat"]
        act(table, {"type": "check", "seat": first})
        view = act(table, {"type": "check", "seat": 3 - first})
    assert view["phase"] == "showdown"
    view = act(table, {"type": "award", "pot": 0, "winners": [2]})
    assert view["phase"] == "complete"
    assert stacks(table) == {1: 98, 2: 103, 3: 99}  # Ben wins Anna's ante and bring-in call and Clara's ante


def test_an_absent_player_at_a_stud_table_antes_and_his_hand_is_dead(stud_table, floorman):
    # 000 Allgemein 6: an absent player is dealt in, his forced bet is taken, his hand is dead
    r.set_absent(stud_table.id, 3, True, actor=floorman)
    services.start_hand(stud_table.id)
    view = state_of(stud_table)
    clara = next(p for p in view["players"] if p["seat"] == 3)
    assert clara["folded"] and clara["stack"] == 99
    assert view["total_pot"] == 3


def play_out(table):
    """Third street completed and called, fourth street bet and folded to: seat 3 wins."""
    act(table, {"type": "deal", "cards": {"1": "AsKsQs", "2": "7h7d2c", "3": "JcJdTh"}})
    act(table, {"type": "bring_in", "seat": 2})
    act(table, {"type": "complete", "seat": 3, "to": 4})
    act(table, {"type": "call", "seat": 1})
    act(table, {"type": "call", "seat": 2})
    act(table, {"type": "deal", "cards": {"1": "Js", "2": "3d", "3": "Ts"}})
    act(table, {"type": "bet", "seat": 3, "to": 8})
    act(table, {"type": "fold", "seat": 1})
    assert act(table, {"type": "fold", "seat": 2})["phase"] == "complete"


def test_a_stud_hand_shows_in_the_history_and_downloads_as_phh(stud_table, client, floorman):
    """Issue 27 finding 6: a stud hand is written as PHH variant F7S, which replays to its result."""
    from poker.hand.phh import load_phh, replay

    services.start_hand(stud_table.id)
    hand_id = Table.objects.get(pk=stud_table.id).current_hand_id
    client.force_login(floorman)
    assert client.get(reverse("hand_history", args=[stud_table.id])).status_code == 200
    assert client.get(reverse("hand_detail", args=[hand_id])).status_code == 200
    live = client.get(reverse("hand_phh", args=[hand_id]))
    assert live.status_code == 200 and "variant = 'F7S'" in live.content.decode()
    play_out(stud_table)
    text = client.get(reverse("hand_phh", args=[hand_id])).content.decode()
    result = replay(load_phh(text))
    assert result.ok, result.error
    assert dict(zip(load_phh(text).seat_numbers(), result.actual)) == stacks(stud_table)
