"""A betting action of a hand is written in one statement (tables.services.fastpath), the one ending
the hand too where no app's hook has work there: it records exactly what the locked write path
records, falls back to that path whenever its memory is not the database's truth (another process
wrote, a repeated client_id, an engine refusal, a hook with work at the hand's end), and never writes
once the dealer's right is gone."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import services
from tables.access import deal_right_sql, right_in_session
from tables.models import Hand, HandEvent, Seat, Table
from tables.services import fastpath
from tables.services.replay import state_cache
from tables.services.snapshots import FLOOR_GROUP
from tables.writepath import ServiceError

pytestmark = pytest.mark.django_db(transaction=True)


def hand_of(table_id):
    return Hand.objects.filter(table_id=table_id).order_by("-number").first()


def to_act(table_id):
    return hand_of(table_id).snapshot["to_act_seat"]


def play(table_id, actions, fast=True):
    """Apply ``actions`` (engine dicts without a seat: the seat to act is filled in); return the seqs."""
    seqs = []
    for action in actions:
        if action["type"] != "board":
            action = dict(action, seat=to_act(table_id))
        seqs.append(services.apply_action(table_id, action, fast=fast).seq)
    return seqs


def test_a_mid_hand_action_is_one_statement_and_the_dealer_sees_its_seq(table):
    services.start_hand(table.id)
    before = Table.objects.get(pk=table.id).seq
    seat = to_act(table.id)
    with CaptureQueriesContext(connection) as queries:
        outcome = services.apply_action(table.id, {"type": "call", "seat": seat}, client_id="tap-1")
    assert len(queries) == 1  # event, seq, hand snapshot and commit in one round trip
    assert outcome.seq == before + 1 == Table.objects.get(pk=table.id).seq
    event = HandEvent.objects.get(client_id="tap-1")
    assert (event.seq, event.kind, event.payload) == (outcome.seq, "action", {"type": "call", "seat": seat})


def test_the_one_statement_path_records_the_same_hand_as_the_locked_path(table, dealer):
    twin = services.create_table("Table 2", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        services.seat_player(twin.id, seat, name, stack)
    script = [
        {"type": "call"},
        {"type": "raise", "to": 10},
        {"type": "fold"},
        {"type": "call"},
        {"type": "call"},
        {"type": "board", "cards": "AhKd7c"},
        {"type": "check"},
        {"type": "bet", "to": 20},
        {"type": "call"},
        {"type": "fold"},
        {"type": "board", "cards": "2s"},
        {"type": "check"},
        {"type": "check"},
    ]
    for table_id, fast in ((table.id, True), (twin.id, False)):
        services.start_hand(table_id)
        play(table_id, script, fast=fast)
    fast_hand, locked_hand = hand_of(table.id), hand_of(twin.id)
    assert fast_hand.snapshot == locked_hand.snapshot
    assert fast_hand.last_index == locked_hand.last_index == len(script)

    def log(hand):
        return [(e.index, e.kind, e.payload) for e in hand.events.order_by("index")]

    assert log(fast_hand) == log(locked_hand)
    seqs = list(HandEvent.objects.filter(table_id=table.id).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # no gap, no repeat
    state_cache.clear()  # a restart: the state is rebuilt from the events alone
    assert services.table_snapshot(Table.objects.get(pk=table.id))["hand"]["state"] == fast_hand.snapshot
    state, _ = services.hand_state_and_index(hand_of(table.id))
    assert state.to_dict()["total_pot"] == fast_hand.snapshot["total_pot"]


def test_a_write_by_another_process_sends_the_next_action_down_the_locked_path(table):
    services.start_hand(table.id)
    seen = Table.objects.get(pk=table.id).seq
    Table.objects.filter(pk=table.id).update(seq=seen + 1)  # another server process wrote meanwhile
    with pytest.raises(ServiceError) as err:
        services.apply_action(table.id, {"type": "call", "seat": to_act(table.id)}, expected_seq=seen)
    assert err.value.code == "stale" and err.value.extra["seq"] == seen + 1
    assert not HandEvent.objects.filter(table_id=table.id, kind="action").exists()
    outcome = services.apply_action(table.id, {"type": "call", "seat": to_act(table.id)}, expected_seq=seen + 1)
    assert outcome.seq == seen + 2
    assert HandEvent.objects.filter(table_id=table.id, kind="action").count() == 1


def test_a_resent_message_is_acknowledged_with_its_first_seq_and_recorded_once(table):
    services.start_hand(table.id)
    action = {"type": "call", "seat": to_act(table.id)}
    first = services.apply_action(table.id, action, client_id="tap-7")
    again = services.apply_action(table.id, action, client_id="tap-7")
    assert again.duplicate and again.seq == first.seq and not first.duplicate
    assert HandEvent.objects.filter(client_id="tap-7").count() == 1
    assert Table.objects.get(pk=table.id).seq == first.seq


def test_a_refused_action_changes_nothing_and_the_next_one_is_still_one_statement(table):
    services.start_hand(table.id)
    before = Table.objects.get(pk=table.id).seq
    wrong = next(s for s in (1, 3, 5, 7) if s != to_act(table.id))
    with pytest.raises(ServiceError) as err:
        services.apply_action(table.id, {"type": "fold", "seat": wrong})
    assert err.value.code == "not_your_turn"
    assert Table.objects.get(pk=table.id).seq == before
    seat = to_act(table.id)
    with CaptureQueriesContext(connection) as queries:
        services.apply_action(table.id, {"type": "call", "seat": seat})
    assert len(queries) == 1


def test_the_action_that_ends_the_hand_settles_the_stacks(table):
    services.start_hand(table.id)
    play(table.id, [{"type": "fold"}, {"type": "fold"}, {"type": "fold"}])  # to the big blind
    hand = hand_of(table.id)
    assert hand.status == Hand.Status.COMPLETE
    stacks = dict(Seat.objects.filter(table=table).values_list("number", "stack"))
    assert sum(stacks.values()) == 200 + 300 + 150 + 400
    assert stacks[5] == 151  # Clara, big blind 2, wins Ben's small blind 1


def test_a_lost_right_writes_nothing(table, dealer, other_dealer):
    services.start_hand(table.id)
    client = Client()
    client.force_login(dealer)
    key = client.session.session_key
    seq = Table.objects.get(pk=table.id).seq
    action = {"type": "call", "seat": to_act(table.id)}
    Session.objects.filter(session_key=key).delete()  # logged out on another device
    assert fastpath.try_action(table.id, action, actor=dealer, right=deal_right_sql(dealer, key)) is None
    assert Table.objects.get(pk=table.id).seq == seq
    assert not HandEvent.objects.filter(table_id=table.id, kind="action").exists()


@pytest.mark.parametrize(
    "who, change, holds",
    [
        ("dealer", None, True),
        ("dealer", "reassigned", False),
        ("dealer", "logged_out", False),
        ("dealer", "expired", False),
        ("dealer", "inactive", False),
        ("dealer", "no_group", False),
        ("other_dealer", None, False),
        ("floorman", None, True),
        ("outsider", None, False),
    ],
)
def test_the_rights_condition_in_the_statement_is_the_sockets_right(
    table, dealer, other_dealer, floorman, outsider, who, change, holds
):
    user = {"dealer": dealer, "other_dealer": other_dealer, "floorman": floorman, "outsider": outsider}[who]
    client = Client()
    client.force_login(user)
    key = client.session.session_key
    if change == "reassigned":
        Table.objects.filter(pk=table.id).update(dealer=other_dealer)
    elif change == "logged_out":
        Session.objects.filter(session_key=key).delete()
    elif change == "expired":
        Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    elif change == "inactive":
        type(user).objects.filter(pk=user.pk).update(is_active=False)
    elif change == "no_group":
        user.groups.clear()
    sql, params = deal_right_sql(user, key)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sql} FROM {Table._meta.db_table} WHERE id = %s", [*params, table.id])
        in_statement = cursor.fetchone()[0]
    assert in_statement is holds
    assert right_in_session(user, key, table_id=table.id) is holds


def test_the_floor_and_tablet_get_the_snapshot_either_path_would_send(table):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(FLOOR_GROUP, channel)
    services.start_hand(table.id)
    assert json.loads(async_to_sync(layer.receive)(channel)["text"])["type"] == "update"  # the deal
    outcome = services.apply_action(table.id, {"type": "call", "seat": to_act(table.id)})
    message = async_to_sync(layer.receive)(channel)
    sent = json.loads(message["text"])
    assert message["seq"] == sent["seq"] == outcome.seq
    fresh = services.table_snapshot(Table.objects.select_related("dealer", "current_hand").get(pk=table.id))
    assert sent["snapshot"] == json.loads(json.dumps(fresh))
    assert sent["snapshot"]["hand"]["last_event"]["payload"]["type"] == "call"


def test_the_floor_hears_each_fast_action_as_a_fresh_snapshot_would_say_even_after_a_seat_changes(table):
    """The fast path keeps what its updates say of the table and its seats from one action to the
    next (``snapshots.SnapshotParts``); a player seated mid-hand on a seat not dealt in (a tournament's
    move waits for the next hand) shows in the very next update, on the tablet and on the floor."""
    from tables.floor_summary import tile_summary
    from tables.models import Player

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(FLOOR_GROUP, channel)
    services.start_hand(table.id)
    async_to_sync(layer.receive)(channel)  # the deal

    def check_next_update():
        message = async_to_sync(layer.receive)(channel)
        fresh = services.table_snapshot(Table.objects.select_related("dealer", "current_hand").get(pk=table.id))
        fresh = json.loads(json.dumps(fresh))
        assert json.loads(message["text"])["snapshot"] == fresh
        assert json.loads(message["floor_text"])["snapshot"] == tile_summary(fresh)
        return fresh

    for _ in range(2):
        services.apply_action(table.id, {"type": "call", "seat": to_act(table.id)})
        check_next_update()
    services.set_seat(table.id, 9, player_id=Player.objects.create(name="Erik").id, stack=500)
    async_to_sync(layer.receive)(channel)  # the seat's own update
    services.apply_action(table.id, {"type": "call", "seat": to_act(table.id)})
    fresh = check_next_update()
    assert {"number": 9, "player": "Erik"} in tile_summary(fresh)["seats"]
    services.apply_action(table.id, {"type": "check", "seat": to_act(table.id)})  # the fast path again
    assert check_next_update()["hand"]["last_event"]["payload"]["type"] == "check"


def fold_to_last_two(table_id):
    """Fold until two players are left in the hand (through whichever path takes each fold)."""
    while sum(1 for p in hand_of(table_id).snapshot["players"] if not p["folded"]) > 2:
        services.apply_action(table_id, {"type": "fold", "seat": to_act(table_id)})


def test_the_action_that_ends_the_hand_is_one_statement_where_no_apps_hook_has_work_there(table):
    """A hand's end at a table where no app's hook has anything to do (no room game, no tournament,
    no player marked to leave) is written like any action, in one statement: the last event, the
    hand's end and the final stacks.  The update says what a fresh snapshot says (the new stacks, the
    next button), and the next deal starts from the stacks the hand left."""
    from tables.floor_summary import tile_summary

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(FLOOR_GROUP, channel)
    services.start_hand(table.id)
    fold_to_last_two(table.id)
    while async_to_sync(layer.receive)(channel)["seq"] < Table.objects.get(pk=table.id).seq:
        pass  # the deal's and the folds' updates
    seat = to_act(table.id)
    with CaptureQueriesContext(connection) as queries:
        outcome = services.apply_action(table.id, {"type": "fold", "seat": seat}, client_id="last-fold")
    assert len(queries) == 1
    hand = hand_of(table.id)
    assert hand.status == Hand.Status.COMPLETE and hand.ended_at is not None
    assert (hand.snapshot_seq, hand.snapshot["phase"]) == (outcome.seq, "complete")
    final = dict(zip([p["seat"] for p in hand.snapshot["players"]], hand.snapshot["final_stacks"], strict=True))
    assert {s.number: s.stack for s in Seat.objects.filter(table_id=table.id, number__in=final)} == final
    assert sum(final.values()) == 200 + 300 + 150 + 400
    message = async_to_sync(layer.receive)(channel)
    fresh = json.loads(
        json.dumps(services.table_snapshot(Table.objects.select_related("dealer", "current_hand").get(pk=table.id)))
    )
    assert message["seq"] == outcome.seq
    assert json.loads(message["text"])["snapshot"] == fresh
    assert json.loads(message["floor_text"])["snapshot"] == tile_summary(fresh)
    assert [s["stack"] for s in fresh["seats"] if s["number"] in final] == [final[n] for n in sorted(final)]
    button = fresh["next_button_seat"]
    services.start_hand(table.id)
    nxt = hand_of(table.id)
    assert nxt.number == hand.number + 1 and nxt.status == Hand.Status.LIVE
    assert Table.objects.get(pk=table.id).button_seat == button
    assert {s["seat"]: s["stack"] for s in nxt.spec["seats"]} == final


def _hook_seen(seen):
    def hand_completed(*, table, hand, start_stacks, final_stacks, actor=None):
        seen.append((table.id, str(hand.status), sum(final_stacks.values())))

    return hand_completed


@pytest.mark.parametrize(
    "probe, runs",
    [
        ("t.id = {table}", True),  # its probe says it has work at this table
        ("t.id = {other}", False),  # nothing to do here: the one statement, the hook not called
        (None, True),  # a hook without a probe runs at every hand's end
    ],
)
def test_a_hands_end_where_an_apps_hook_has_work_takes_the_locked_step_and_runs_the_hook(table, probe, runs):
    from tables import hooks, probes

    seen = []
    hook = _hook_seen(seen)
    if probe is not None:
        probes.register(hook, probe.format(table=int(table.id), other=int(table.id) + 1000))
    try:
        with hooks.replaced("hand_completed", hook):
            services.start_hand(table.id)
            fold_to_last_two(table.id)
            seat = to_act(table.id)
            with CaptureQueriesContext(connection) as queries:
                services.apply_action(table.id, {"type": "fold", "seat": seat})
    finally:
        probes.unregister(hook)
    assert seen == ([(table.id, "complete", 1050)] if runs else [])
    assert (len(queries) > 1) is runs
    assert hand_of(table.id).status == Hand.Status.COMPLETE


def test_a_hook_that_found_work_during_the_hand_runs_at_its_end(table):
    """The probes are read by the statement that writes the hand's end, not taken from memory: a
    hook whose probe turned true during the hand (a player marked to leave after it, written by
    another step) makes that statement write nothing, and the locked step writes the end and runs
    the hook."""
    from tables import hooks, probes

    seen = []
    hook = _hook_seen(seen)
    probes.register(hook, "EXISTS (SELECT 1 FROM tables_seat s WHERE s.table_id = t.id AND s.absent)")
    try:
        with hooks.replaced("hand_completed", hook):
            services.start_hand(table.id)
            fold_to_last_two(table.id)
            seat = next(s for s in (1, 3, 5, 7) if s != to_act(table.id))
            Seat.objects.filter(table_id=table.id, number=seat).update(absent=True)  # no seq bump
            services.apply_action(table.id, {"type": "fold", "seat": to_act(table.id)})
    finally:
        probes.unregister(hook)
    assert seen == [(table.id, "complete", 1050)]
    assert HandEvent.objects.filter(hand=hand_of(table.id)).count() == hand_of(table.id).last_index + 1
