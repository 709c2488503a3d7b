"""``tables.services.set_seats``: several seats of one table in one step
(a break or a balancing round moves many players; a seat draw fills a
table), all or nothing."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables import services
from tables.models import Player, Seat, Table
from tables.services import SeatChange

pytestmark = pytest.mark.django_db(transaction=True)


def _seats(table):
    return {
        s.number: (s.player.name if s.player else None, s.stack, s.absent)
        for s in Seat.objects.filter(table=table).select_related("player")
    }


def test_a_batch_is_one_seq_and_one_snapshot_to_the_tablet(table):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(services.table_group(table.id), channel)
    eva, finn = Player.objects.create(name="Eva"), Player.objects.create(name="Finn")
    before = Table.objects.get(pk=table.id).seq

    outcome = services.set_seats(table.id, [SeatChange(2, eva.id, 500), SeatChange(4, finn.id, 700, True)])

    assert outcome.seq == before + 1
    seats = _seats(table)
    assert seats[2] == ("Eva", 500, False)
    assert seats[4] == ("Finn", 700, True)
    message = async_to_sync(layer.receive)(channel)
    snapshot = json.loads(message["text"])["snapshot"]
    assert snapshot["seq"] == outcome.seq
    names = {s["number"]: s["player"] for s in snapshot["seats"] if s["player"]}
    assert names[2] == "Eva" and names[4] == "Finn"


def test_a_player_changes_seats_within_the_table_in_one_batch(table):
    anna = Seat.objects.get(table=table, number=1).player
    services.set_seats(table.id, [SeatChange(1, None), SeatChange(2, anna.id, 200)])
    seats = _seats(table)
    assert seats[1] == (None, 0, False)
    assert seats[2] == ("Anna", 200, False)


def test_a_taken_seat_refuses_the_whole_batch(table):
    eva = Player.objects.create(name="Eva")
    before = _seats(table), Table.objects.get(pk=table.id).seq
    with pytest.raises(services.ServiceError) as err:
        services.set_seats(table.id, [SeatChange(2, eva.id, 500), SeatChange(3, eva.id, 500)])  # Ben holds 3
    assert err.value.code == "seat_taken"
    assert (_seats(table), Table.objects.get(pk=table.id).seq) == before


def test_a_seat_dealt_in_the_live_hand_is_refused_and_an_empty_one_is_not(table):
    services.start_hand(table.id)
    eva = Player.objects.create(name="Eva")
    with pytest.raises(services.ServiceError) as err:
        services.set_seats(table.id, [SeatChange(2, eva.id, 500), SeatChange(1, None)])
    assert err.value.code == "hand_in_progress"
    assert _seats(table)[2] == (None, 0, False)
    services.set_seats(table.id, [SeatChange(2, eva.id, 500)])  # waits for the next hand
    assert _seats(table)[2] == ("Eva", 500, False)


def test_bad_input_changes_nothing(table):
    before = _seats(table), Table.objects.get(pk=table.id).seq
    for changes, code in (([SeatChange(11, None)], "no_such_seat"), ([SeatChange(2, None, -5)], "invalid")):
        with pytest.raises(services.ServiceError) as err:
            services.set_seats(table.id, changes)
        assert err.value.code == code
    assert (_seats(table), Table.objects.get(pk=table.id).seq) == before


def test_a_player_moves_between_two_tables_in_one_step_and_both_tablets_hear_of_it(table):
    other = services.create_table("Table 2", small_blind=1, big_blind=2)
    layer = get_channel_layer()
    channels = {}
    for t in (table, other):
        channels[t.id] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(services.table_group(t.id), channels[t.id])
    ben = Seat.objects.get(table=table, number=3).player
    seqs = {t.id: Table.objects.get(pk=t.id).seq for t in (table, other)}

    outcomes = services.set_seats_at({other.id: [SeatChange(4, ben.id, 300)], table.id: [SeatChange(3, None)]})

    assert [(o.table_id, o.seq) for o in outcomes] == sorted((t, s + 1) for t, s in seqs.items())
    assert _seats(table)[3] == (None, 0, False)
    assert _seats(other)[4] == ("Ben", 300, False)
    for t in (table, other):
        snapshot = json.loads(async_to_sync(layer.receive)(channels[t.id])["text"])["snapshot"]
        assert snapshot["seq"] == seqs[t.id] + 1


def test_an_error_at_one_table_changes_no_table(table):
    other = services.create_table("Table 2", small_blind=1, big_blind=2)
    ben, eva = Seat.objects.get(table=table, number=3).player, Player.objects.create(name="Eva")
    before = _seats(table), _seats(other), Table.objects.get(pk=table.id).seq, Table.objects.get(pk=other.id).seq
    with pytest.raises(services.ServiceError) as err:
        services.set_seats_at({other.id: [SeatChange(4, ben.id, 300)], table.id: [SeatChange(5, eva.id, 100)]})
    assert err.value.code == "seat_taken"  # Clara holds seat 5
    after = _seats(table), _seats(other), Table.objects.get(pk=table.id).seq, Table.objects.get(pk=other.id).seq
    assert after == before


def test_the_snapshots_of_a_batch_are_those_a_tablet_reads_on_connect(table):
    services.start_hand(table.id)
    services.apply_action(table.id, {"type": "call", "seat": 7})
    other = services.create_table("Table 2", small_blind=1, big_blind=2)
    tables = list(Table.objects.filter(pk__in=[table.id, other.id]).select_related("current_hand"))
    assert services.table_snapshots(tables) == {
        t.id: services.table_snapshot(Table.objects.select_related("current_hand").get(pk=t.id)) for t in tables
    }
