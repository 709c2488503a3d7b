""" "Time" called after a night of floor calls still runs out on the server (issue 24, finding 5; the cash
night's browser test): hand 4 of the night, the call resent after a lost answer, eight floor calls ruled
"no correction, play on", then Time on David (TDA 2024 Rule 29): the hand's stored snapshot carries the
clock the worker reads, and the worker folds David at the deadline, by nobody, citing Rule 29."""

import datetime as dt

import pytest

from pokerfloor import worker
from rules import services as floor
from rules.models import FloorCall
from tables import services
from tables.models import Hand, HandEvent, Table
from tables.services import replay

KINDS = ["out_of_turn", "chip_action", "misdeal", "exposed_card", "premature_board", "time", "dispute", "other"]


@pytest.fixture
def hand4(dealer, floorman):
    """Main 1 under TDA 2024 at hand 4 of the night: button David (4), Anna (1) and Ben (2) post, Clara (3)
    called (the call sent twice: its answer was lost), David to act."""
    table = services.create_table("Main 1", small_blind=1, big_blind=2, dealer=dealer, rules_profile="tda-2024")
    for seat, name, stack in [(1, "Anna", 174), (2, "Ben", 238), (3, "Clara", 5), (4, "David", 233)]:
        services.seat_player(table.id, seat, name, stack)
    services.start_hand(table.id, actor=dealer)
    hand = Hand.objects.get(pk=Table.objects.get(pk=table.id).current_hand_id)
    first = hand.snapshot["to_act_seat"]
    seq = Table.objects.get(pk=table.id).seq
    call = {"type": "call", "seat": first}
    services.apply_action(table.id, call, actor=dealer, expected_seq=seq, client_id="pad-call-1")
    again = services.apply_action(table.id, call, actor=dealer, expected_seq=seq, client_id="pad-call-1")
    assert again.duplicate
    for kind in KINDS:
        hand.refresh_from_db()
        call = floor.raise_floor_call(table.id, kind, seat=hand.snapshot["to_act_seat"], actor=dealer)
        play_on = next(s for s in floor.suggestions_for(FloorCall.objects.get(pk=call.id)) if s["key"] == "play_on")
        floor.make_ruling(
            table.id,
            decision=play_on["title_en"] + ". " + play_on["explanation_en"],
            decision_de=play_on["title_de"] + ". " + play_on["explanation_de"],
            citations=play_on["citations"],
            corrections=play_on["corrections"],
            floor_call_id=call.id,
            suggestion_key="play_on",
            actor=floorman,
        )
    hand.refresh_from_db()
    return table, hand, hand.snapshot["to_act_seat"]


def test_time_after_eight_rulings_runs_out_on_the_server(hand4, dealer):
    table, hand, seat = hand4
    services.call_time(table.id, seat, actor=dealer, client_id="pad-time-1")
    hand.refresh_from_db()
    clock = hand.snapshot["clock"]
    assert clock is not None and clock["seat"] == seat, hand.snapshot.get("clock")
    with replay.cache_lock:
        replay.state_cache.pop(hand.id, None)  # the worker is another process: it replays from the events
    _, _, info = replay.hand_replay(hand)
    assert info["clock"] is not None and info["clock"]["seat"] == seat

    deadline = dt.datetime.fromisoformat(clock["deadline"])
    assert worker.expire_due_clocks(now=deadline - dt.timedelta(seconds=5)) == 0
    assert worker.expire_due_clocks(now=deadline + dt.timedelta(seconds=2)) == 1
    (fold,) = HandEvent.objects.filter(hand=hand, kind="action", payload__cause="time")
    assert fold.payload["type"] == "fold" and fold.payload["seat"] == seat and fold.actor_id is None
    assert "TDA 2024 Rule 29" in [c["label"] for c in fold.payload["citations"]]
