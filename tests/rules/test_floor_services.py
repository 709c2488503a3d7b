"""Floor calls, rulings with corrections, out-of-turn, "time", penalties:
the services a tablet and the floor dashboard call."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rules import services as floor
from rules.models import FloorCall, Penalty, Ruling
from tables import services
from tables.models import Hand, HandEvent, Seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(db, dealer):
    """1/2, seats 1, 3, 5, 7; the first hand puts the button on 1, SB 3, BB 5, seat 7 first to act."""
    table = services.create_table("Table 1", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker")
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        services.seat_player(table.id, seat, name, stack)
    table.refresh_from_db()
    return table


def hand_of(table):
    return Hand.objects.filter(table=table).order_by("-number").first()


def state(table):
    return hand_of(table).snapshot


def act(table, *actions):
    for a in actions:
        services.apply_action(table.id, a)


def test_a_floor_call_freezes_the_hand_context_for_the_floor(table, dealer):
    services.start_hand(table.id)
    act(table, {"type": "raise", "seat": 7, "to": 6})
    call = floor.raise_floor_call(table.id, "chip_action", seat=1, note="one oversized chip", actor=dealer)
    snap = call.context["table"]
    assert snap["hand"]["state"]["to_act_seat"] == 1
    assert snap["hand"]["state"]["total_pot"] == 9
    assert [e["payload"]["type"] for e in call.context["events"]] == ["start", "raise"]
    assert call.status == "open" and floor.open_calls()[0]["id"] == call.id
    with pytest.raises(services.ServiceError) as err:
        floor.raise_floor_call(table.id, "because")
    assert err.value.code == "invalid"
    assert FloorCall.objects.count() == 1


def test_a_ruling_voids_an_action_as_a_new_event_and_nothing_is_rewritten(table, floorman, dealer, rulebooks):
    services.start_hand(table.id)
    act(table, {"type": "raise", "seat": 7, "to": 6}, {"type": "fold", "seat": 1})
    before = list(HandEvent.objects.filter(hand=hand_of(table)).order_by("index").values_list("index", "payload"))
    call = floor.raise_floor_call(table.id, "dispute", seat=1, actor=dealer)
    ruling = floor.make_ruling(
        table.id,
        floor_call_id=call.id,
        decision="Seat 1 never folded; the action returns to him.",
        citations=[{"rulebook": "munotpoker", "section": "#53", "label": "004 #53"}],
        corrections=[{"type": "void", "index": 2}],
        actor=floorman,
    )
    after = list(HandEvent.objects.filter(hand=hand_of(table)).order_by("index").values_list("index", "payload"))
    assert after[: len(before)] == before  # recorded events untouched
    assert after[-1][1] == {"type": "void", "index": 2, "ruling": ruling.id}
    s = state(table)
    assert s["to_act_seat"] == 1 and s["voided"] == [2] and s["corrected"]
    call.refresh_from_db()
    assert call.status == "ruled"
    assert ruling.event_indices == [3]
    assert [r.number for r in ruling.rules.all()] == ["#53"]
    assert list(ruling.players.values_list("name", flat=True)) == ["Anna"]


def test_a_correction_that_makes_a_later_action_illegal_is_refused_and_changes_nothing(table, floorman):
    services.start_hand(table.id)
    act(table, {"type": "raise", "seat": 7, "to": 6}, {"type": "call", "seat": 1})
    seq = hand_of(table).snapshot_seq
    with pytest.raises(services.ServiceError) as err:
        floor.make_ruling(
            table.id, decision="adjust", corrections=[{"type": "adjust", "index": 1, "to": 500}], actor=floorman
        )
    assert err.value.code == "correction_conflict"
    assert Ruling.objects.count() == 0
    assert hand_of(table).snapshot_seq == seq


def test_misdeal_returns_every_chip_and_deals_again_with_the_same_button_and_blinds(table, floorman):
    services.start_hand(table.id)
    first = hand_of(table)
    act(table, {"type": "fold", "seat": 7})
    floor.make_ruling(
        table.id,
        decision="Two cards exposed on the deal: misdeal (004 #35).",
        corrections=[{"type": "misdeal"}],
        actor=floorman,
    )
    first.refresh_from_db()
    assert first.status == "misdeal"
    seats = Seat.objects.filter(table=table, player__isnull=False)
    assert dict(seats.values_list("number", "stack")) == {1: 200, 3: 300, 5: 150, 7: 400}
    services.start_hand(table.id)
    table.refresh_from_db()
    again = hand_of(table)
    assert again.number == 2 and table.button_seat == 1
    assert {p["seat"]: p["bet"] for p in again.snapshot["players"]} == {1: 0, 3: 1, 5: 2, 7: 0}


def test_misdeal_is_refused_after_substantial_action_004_36(table, floorman):
    services.start_hand(table.id)
    act(table, {"type": "raise", "seat": 7, "to": 6}, {"type": "call", "seat": 1})
    assert state(table)["substantial_action"] and not state(table)["misdeal_possible"]
    with pytest.raises(services.ServiceError) as err:
        floor.make_ruling(table.id, decision="misdeal", corrections=[{"type": "misdeal"}], actor=floorman)
    assert err.value.code == "misdeal_not_allowed"


def test_out_of_turn_call_binds_when_the_skipped_player_checks_004_53(table):
    services.start_hand(table.id)
    act(
        table,
        {"type": "call", "seat": 7},
        {"type": "call", "seat": 1},
        {"type": "call", "seat": 3},
        {"type": "check", "seat": 5},
        {"type": "board", "cards": ""},
    )
    # flop: seat 3 to act; seat 7 bets out of turn? no: seat 5 checks out of turn before 3
    services.record_out_of_turn(table.id, {"type": "check", "seat": 5})
    assert state(table)["held"][0]["seat"] == 5
    act(table, {"type": "check", "seat": 3})  # no change: the held check binds
    s = state(table)
    assert s["held"] == [] and s["to_act_seat"] == 7
    last = HandEvent.objects.filter(hand=hand_of(table)).order_by("-index").first()
    assert last.payload["type"] == "check" and last.payload["seat"] == 5 and "out_of_turn" in last.payload
    assert any(c["label"] == "004 #53" for c in last.payload["citations"])


def test_out_of_turn_action_is_released_when_the_skipped_player_bets_004_53(table):
    services.start_hand(table.id)
    act(
        table,
        {"type": "call", "seat": 7},
        {"type": "call", "seat": 1},
        {"type": "call", "seat": 3},
        {"type": "check", "seat": 5},
        {"type": "board", "cards": ""},
    )
    services.record_out_of_turn(table.id, {"type": "check", "seat": 5})
    act(table, {"type": "bet", "seat": 3, "to": 4})  # the action changed
    s = state(table)
    assert s["held"] == [] and s["to_act_seat"] == 5  # he decides again
    note = HandEvent.objects.filter(hand=hand_of(table), kind="note").get()
    assert note.payload["type"] == "out_of_turn_released"


def test_out_of_turn_refuses_the_player_in_turn_and_a_second_held_action(table):
    services.start_hand(table.id)
    with pytest.raises(services.ServiceError) as err:
        services.record_out_of_turn(table.id, {"type": "fold", "seat": 7})
    assert err.value.code == "in_turn"
    services.record_out_of_turn(table.id, {"type": "fold", "seat": 3})
    with pytest.raises(services.ServiceError) as err:
        services.record_out_of_turn(table.id, {"type": "call", "seat": 3})
    assert err.value.code == "already_held"


def test_time_runs_out_facing_a_bet_the_hand_is_dead_004_29(table):
    services.start_hand(table.id)
    services.call_time(table.id, 7)
    clock = state(table)["clock"]
    assert clock["seat"] == 7 and clock["seconds"] == 30  # 25 s + 5 s countdown
    with pytest.raises(services.ServiceError) as err:
        services.expire_time(table.id)  # too early: nothing changes
    assert err.value.code == "clock_running"
    later = timezone.now() + timedelta(seconds=31)
    services.expire_time(table.id, now=later)
    s = state(table)
    seven = next(p for p in s["players"] if p["seat"] == 7)
    assert seven["folded"] and s["clock"] is None
    with pytest.raises(services.ServiceError) as err:
        services.expire_time(table.id, now=later)  # a second report changes nothing
    assert err.value.code == "no_clock"


def test_sit_out_penalty_kills_the_players_hands_with_blinds_posted_004_71(table, floorman):
    services.start_hand(table.id)
    floor.make_ruling(
        table.id,
        decision="Soft play: Ben sits out two hands.",
        citations=[{"rulebook": "munotpoker", "section": "#71", "label": "004 #71"}],
        corrections=[{"type": "penalty", "seat": 3, "kind": "sit_out_hands", "count": 2}],
        actor=floorman,
    )
    penalty = Penalty.objects.get()
    assert penalty.hands_total == 2 and penalty.active
    act(table, {"type": "fold", "seat": 7}, {"type": "fold", "seat": 1}, {"type": "fold", "seat": 3})
    for expected_served in (1, 2):
        services.start_hand(table.id)
        s = state(table)
        ben = next(p for p in s["players"] if p["seat"] == 3)
        assert ben["folded"]
        penalty.refresh_from_db()
        assert penalty.hands_served == expected_served
        while s["phase"] == "betting":
            services.apply_action(table.id, {"type": "fold", "seat": s["to_act_seat"]})
            s = state(table)
    services.start_hand(table.id)
    ben = next(p for p in state(table)["players"] if p["seat"] == 3)
    assert not ben["folded"] and not Penalty.objects.get().active


def test_disqualification_kills_the_hand_and_removes_the_chips_before_the_next_deal(table, floorman):
    services.start_hand(table.id)
    floor.make_ruling(
        table.id,
        decision="Abuse: David is disqualified (004 #71).",
        corrections=[{"type": "penalty", "seat": 7, "kind": "disqualification"}],
        actor=floorman,
    )
    david = next(p for p in state(table)["players"] if p["seat"] == 7)
    assert david["folded"]
    act(table, {"type": "fold", "seat": 1}, {"type": "fold", "seat": 3})
    services.start_hand(table.id)
    seat = Seat.objects.get(table=table, number=7)
    assert seat.player is None and seat.stack == 0
    assert Penalty.objects.get().chips_removed == 400
    assert 7 not in [p["seat"] for p in state(table)["players"]]


def test_chips_entry_is_interpreted_by_the_tables_rules_before_it_is_confirmed(table):
    services.start_hand(table.id)
    # 004 #44: one oversized chip facing only the blinds is a raise to its value under MunotPoker.
    result = floor.interpret_for_table(table.id, {"chips": {"25": 1}})
    assert result["seat"] == 7 and result["situation"]["to_call"] == 2
    assert result["engine_action"] == {"type": "raise", "seat": 7, "to": 25}
    assert any(c["label"] == "004 #44" for c in result["citations"])
    assert state(table)["actions"] == 0  # nothing applied


def test_a_floorman_takes_the_call_then_it_is_ruled_or_cancelled(table, dealer, floorman):
    call = floor.raise_floor_call(table.id, "other", actor=dealer)
    floor.answer_floor_call(call.id, actor=floorman)
    call.refresh_from_db()
    assert call.status == "answered" and call.answered_by == floorman
    assert floor.open_calls()[0]["answered_by"] == "floor"
    floor.cancel_floor_call(call.id, actor=floorman)
    assert floor.open_calls() == []
    with pytest.raises(services.ServiceError) as err:
        floor.answer_floor_call(call.id, actor=floorman)
    assert err.value.code == "closed"


def test_return_action_to_a_skipped_player_holds_the_later_actions_004_53(table, floorman):
    services.start_hand(table.id)
    # Seat 7 was recorded as folding but never acted; seat 1 then called.
    act(table, {"type": "fold", "seat": 7}, {"type": "call", "seat": 1})
    floor.make_ruling(
        table.id,
        decision="The action returns to seat 7; seat 1's call is held (004 #53).",
        corrections=[{"type": "return_action", "index": 1, "held": [2]}],
        actor=floorman,
    )
    s = state(table)
    assert s["to_act_seat"] == 7 and s["voided"] == [1, 2]
    assert s["held"] == [{"index": 2, "seat": 1, "action": {"type": "call", "seat": 1}}]
    act(table, {"type": "call", "seat": 7})  # no raise: seat 1's held call binds
    s = state(table)
    assert s["held"] == [] and s["to_act_seat"] == 3
    assert next(p for p in s["players"] if p["seat"] == 1)["bet"] == 2


def test_the_floor_awards_the_pot_and_the_stacks_are_settled(table, floorman):
    services.start_hand(table.id)
    act(table, {"type": "raise", "seat": 7, "to": 6}, {"type": "call", "seat": 1})
    floor.make_ruling(
        table.id,
        decision="Seat 3 and 5 fouled; the pot goes to seats 7 and 1.",
        corrections=[{"type": "award", "seats": [7, 1]}],
        actor=floorman,
    )
    hand = hand_of(table)
    assert hand.status == "complete"
    stacks = dict(Seat.objects.filter(table=table, player__isnull=False).values_list("number", "stack"))
    # pot 6 + 6 + 1 + 2 = 15: the odd chip goes to the first winner left of
    # the button (003 "Odd-Chips"): seat 7 gets 8; seat 1 is the button and gets 7.
    assert stacks == {1: 200 - 6 + 7, 3: 299, 5: 148, 7: 400 - 6 + 8}


def test_a_check_out_of_turn_released_under_002_8_leaves_the_player_unable_to_bet(db, dealer):
    """002 #8: a player who checked out of turn may neither bet nor raise when his turn comes, even when
    the action changed and his check was released (the release used to fail with a TypeError while
    recording the restriction, so the skipped player's bet was refused with a server error)."""
    table = services.create_table("Table 2", small_blind=1, big_blind=2, dealer=dealer, rules_profile="002")
    for number, name in ((1, "Anna"), (3, "Ben"), (5, "Clara"), (7, "Dora")):
        services.seat_player(table.id, number, name, 200)
    services.start_hand(table.id)
    act(
        table,
        {"type": "call", "seat": 7},
        {"type": "call", "seat": 1},
        {"type": "call", "seat": 3},
        {"type": "check", "seat": 5},
        {"type": "board", "cards": ""},
    )
    services.record_out_of_turn(table.id, {"type": "check", "seat": 5})
    act(table, {"type": "bet", "seat": 3, "to": 4})  # the action changed: his check is released
    s = state(table)
    assert s["held"] == [] and s["to_act_seat"] == 5
    note = HandEvent.objects.filter(hand=hand_of(table), kind="note").get()
    assert note.payload["type"] == "out_of_turn_released" and "may_not_raise" in note.payload["restrictions"]
    with pytest.raises(services.ServiceError):  # he may call or fold, not raise (002 #8)
        act(table, {"type": "raise", "seat": 5, "to": 8})
    act(table, {"type": "call", "seat": 5})
    assert state(table)["to_act_seat"] == 7
