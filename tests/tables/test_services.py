"""Services: event-sourced hands, expected seq, idempotency, broadcasts after commit."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from tables import services
from tables.models import Hand, HandEvent, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


def live_state(table):
    return Hand.objects.filter(table=table).order_by("-number").first().snapshot


def test_it_starts_a_hand_with_button_and_blinds_posted(table):
    outcome = services.start_hand(table.id, expected_seq=table.seq, client_id="c-start")
    table.refresh_from_db()
    assert outcome.seq == table.seq
    # first hand: button at the lowest occupied seat (1), small blind 3, big blind 5, first to act 7
    assert table.button_seat == 1
    state = live_state(table)
    assert state["to_act_seat"] == 7
    assert state["total_pot"] == 3
    assert {p["seat"]: p["bet"] for p in state["players"]} == {1: 0, 3: 1, 5: 2, 7: 0}
    event = HandEvent.objects.get(client_id="c-start")
    assert event.kind == "start" and event.seq == table.seq


def test_it_moves_the_button_to_the_next_player_each_hand(table):
    buttons = []
    for _ in range(5):
        services.start_hand(table.id)
        table.refresh_from_db()
        buttons.append(table.button_seat)
        # everyone folds to the big blind
        while True:
            state = live_state(table)
            if state["phase"] == "complete":
                break
            services.apply_action(table.id, {"type": "fold", "seat": state["to_act_seat"]})
    assert buttons == [1, 3, 5, 7, 1]


def test_it_refuses_an_action_out_of_turn_and_changes_nothing(table):
    services.start_hand(table.id)
    table.refresh_from_db()
    seq, events = table.seq, HandEvent.objects.count()
    with pytest.raises(services.ServiceError) as err:
        services.apply_action(table.id, {"type": "fold", "seat": 1}, expected_seq=seq)
    assert err.value.code == "not_your_turn"
    table.refresh_from_db()
    assert table.seq == seq and HandEvent.objects.count() == events


def test_it_refuses_a_stale_expected_seq(table):
    services.start_hand(table.id)
    table.refresh_from_db()
    with pytest.raises(services.ServiceError) as err:
        services.apply_action(table.id, {"type": "fold", "seat": 7}, expected_seq=table.seq - 1)
    assert err.value.code == "stale"
    assert err.value.extra["seq"] == table.seq
    assert live_state(table)["to_act_seat"] == 7


def test_it_refuses_malformed_actions(table):
    services.start_hand(table.id)
    for bad in [None, {}, {"type": 3}, {"type": "raise", "seat": 7}, {"type": "raise", "seat": 7, "to": "x"}]:
        with pytest.raises(services.ServiceError) as err:
            services.apply_action(table.id, bad)
        assert err.value.code in ("invalid", "bad_action")
    assert HandEvent.objects.count() == 1


def test_it_applies_a_retried_client_id_once(table):
    services.start_hand(table.id)
    table.refresh_from_db()
    first = services.apply_action(table.id, {"type": "call", "seat": 7}, client_id="c-1", expected_seq=table.seq)
    again = services.apply_action(table.id, {"type": "call", "seat": 7}, client_id="c-1", expected_seq=table.seq)
    assert again.duplicate and again.seq == first.seq
    assert HandEvent.objects.filter(kind="action").count() == 1
    assert live_state(table)["to_act_seat"] == 1


def test_it_writes_final_stacks_back_to_the_seats(table):
    services.start_hand(table.id)  # button 1, SB 3, BB 5
    for action in [
        {"type": "raise", "seat": 7, "to": 6},
        {"type": "fold", "seat": 1},
        {"type": "fold", "seat": 3},
        {"type": "fold", "seat": 5},
    ]:
        services.apply_action(table.id, action)
    hand = Hand.objects.get(table=table)
    assert hand.status == "complete"
    stacks = dict(Seat.objects.filter(table=table, player__isnull=False).values_list("number", "stack"))
    # David wins the blinds (1 + 2); his uncalled raise comes back
    assert stacks == {1: 200, 3: 299, 5: 148, 7: 403}


def test_the_live_state_is_the_replay_of_the_events(table):
    services.start_hand(table.id)
    services.apply_action(table.id, {"type": "call", "seat": 7})
    services.apply_action(table.id, {"type": "raise", "seat": 1, "to": 10})
    hand = Hand.objects.get(table=table)
    services.state_cache.clear()
    replayed = services.hand_state(hand)
    engine_view = replayed.to_dict()
    assert engine_view == {k: hand.snapshot[k] for k in engine_view}


def test_it_broadcasts_only_after_commit(table):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(services.table_group(table.id), channel)

    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        with transaction.atomic():
            services.start_hand(table.id)
            raise Boom
    assert Table.objects.get(pk=table.id).seq == table.seq  # rolled back
    outcome = services.start_hand(table.id)
    message = async_to_sync(layer.receive)(channel)
    # the first message the group sees is the committed hand, not the rolled-back one
    assert message["type"] == "table.update"
    assert message["seq"] == outcome.seq
    assert json.loads(message["text"])["snapshot"]["seq"] == outcome.seq


def test_it_refuses_a_second_hand_while_one_is_live(table):
    services.start_hand(table.id)
    with pytest.raises(services.ServiceError) as err:
        services.start_hand(table.id)
    assert err.value.code == "hand_in_progress"


def test_it_needs_two_players(db, dealer):
    table = services.create_table("Lonely", small_blind=1, big_blind=2)
    services.seat_player(table.id, 1, "Solo", 100)
    with pytest.raises(services.ServiceError) as err:
        services.start_hand(table.id)
    assert err.value.code == "not_enough_players"


def test_the_tables_house_rules_set_the_minimum_raise(db):
    """002 #4 ("double the previous"): BB 100, a raise to 200 must be followed
    by a raise to at least 400; under TDA (last full raise) to 300."""
    mins = {}
    for profile in ("betting-rules", "tda-2024"):
        table = services.create_table(f"T {profile}", small_blind=50, big_blind=100, rules_profile=profile)
        for seat, name in [(1, "A"), (2, "B"), (3, "C"), (4, "D")]:
            services.seat_player(table.id, seat, f"{name}-{profile}", 10_000)
        services.start_hand(table.id)  # button 1, SB 2, BB 3, UTG 4
        services.apply_action(table.id, {"type": "raise", "seat": 4, "to": 200})
        mins[profile] = live_state(table)["legal"]["min_raise_to"]
    assert mins == {"betting-rules": 400, "tda-2024": 300}
