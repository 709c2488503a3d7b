"""The edge schemas refuse hostile and malformed messages with ``invalid`` and the field named."""

import pytest

from room.actions import RoomAction
from tables.schemas import MAX_DEPTH, FloorMessage, MessageError, check_depth, dump, parse
from tables.tablet_messages import DealerMessage
from tournaments.actions import DirectorAction
from tournaments.schemas import AbsentBody


def refused(adapter, raw):
    with pytest.raises(MessageError) as info:
        parse(adapter, raw)
    assert info.value.code == "invalid"
    return info.value


def test_a_valid_raise_parses_to_its_fields():
    message = parse(
        DealerMessage, '{"type":"action","client_id":"c1","expected_seq":7,"action":{"type":"raise","seat":3,"to":40}}'
    )
    assert dump(message) == {
        "type": "action",
        "client_id": "c1",
        "expected_seq": 7,
        "action": {"type": "raise", "seat": 3, "to": 40},
    }


def test_deep_nesting_is_refused_before_decoding():
    assert "nested deeper" in refused(DealerMessage, "[" * 1000).message
    assert (
        "nested deeper"
        in refused(DealerMessage, '{"type":"interpret","observed":' + '{"a":' * 50 + "1" + "}" * 51).message
    )


def test_the_depth_limit_is_exact_whether_or_not_the_text_is_scanned():
    check_depth("[" * MAX_DEPTH + "]" * MAX_DEPTH)  # as deep as allowed: few brackets, not scanned
    with pytest.raises(MessageError, match="nested deeper"):
        check_depth("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    check_depth("[" + ",".join(["[]"] * (3 * MAX_DEPTH)) + "]")  # many brackets, two deep: scanned, accepted
    with pytest.raises(MessageError, match="nested deeper"):
        check_depth("[" + ",".join(["[]"] * MAX_DEPTH) + "," + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "]")


def test_brackets_inside_strings_do_not_count_as_nesting():
    message = parse(DealerMessage, '{"type":"floor_call","reason":"other","note":"' + "[" * 100 + '"}')
    assert message.note == "[" * 100


@pytest.mark.parametrize("client_id", ['"a\\u0000b"', '"\\ud800"', "5", '""', '"' + "x" * 65 + '"'])
def test_bad_client_ids_are_refused(client_id):
    error = refused(DealerMessage, '{"type":"action","client_id":%s,"action":{"type":"fold","seat":1}}' % client_id)
    assert error.field == "client_id"


@pytest.mark.parametrize("seat", ["[1]", '{"a":1}', "5.0", "true", "0", "11", "32768", '"3"'])
def test_a_seat_must_be_a_whole_number_of_the_table(seat):
    assert refused(DealerMessage, '{"type":"call_time","seat":%s}' % seat).field == "seat"


def test_a_bool_or_float_is_never_an_amount():
    for to in ("true", "40.0", "-1"):
        error = refused(DealerMessage, '{"type":"out_of_turn","action":{"type":"raise","seat":2,"to":%s}}' % to)
        assert error.field == "action.to"


@pytest.mark.parametrize(
    "action",
    ['{"type":"floor_award","seats":[3]}', '{"type":"kill","seat":2}', '{"type":"run_it_twice","agreed":[1,2]}'],
)
def test_engine_internal_actions_are_not_dealer_actions(action):
    assert refused(DealerMessage, '{"type":"action","action":%s}' % action).field == "action"


def test_a_floor_call_note_is_bounded_and_clean():
    assert refused(DealerMessage, '{"type":"floor_call","reason":"other","note":"a\\u0000"}').field == "note"
    assert refused(DealerMessage, '{"type":"floor_call","reason":"other","note":"' + "x" * 501 + '"}').field == "note"
    assert refused(DealerMessage, '{"type":"floor_call","reason":"bribe"}').field == "reason"


def test_the_floor_socket_expires_no_clock_and_asks_only_for_snapshots():
    """A clock runs out on the server (pokerfloor.worker), never by a dashboard's report (issue 24)."""
    assert refused(FloorMessage, '{"type":"time_expired","table_id":4}').code == "invalid"
    assert parse(FloorMessage, '{"type":"snapshot","table_id":4}').table_id == 4


def test_unknown_types_and_non_objects_are_refused():
    assert "does not match" in refused(DealerMessage, '{"type":"nope"}').message
    refused(DealerMessage, "[1]")
    refused(DealerMessage, "not json")
    refused(DealerMessage, None)


def test_room_settings_are_typed_and_bounded():
    assert refused(RoomAction, '{"op":"settings","lobby_stacks":"yes"}').field == "lobby_stacks"
    assert refused(RoomAction, '{"op":"settings","call_seconds":10000000000}').field == "call_seconds"
    assert parse(RoomAction, '{"op":"settings","call_seconds":120,"lobby_names":"initials"}').call_seconds == 120


def test_room_ids_must_be_positive_whole_numbers():
    assert refused(RoomAction, '{"op":"seat","entry_id":1,"table_id":"2","seat":3}').field == "table_id"
    assert refused(RoomAction, '{"op":"waitlist_remove","entry_id":0}').field == "entry_id"


def test_director_actions_are_typed():
    assert refused(DirectorAction, '{"op":"payouts","amounts":[100,null]}').field == "amounts.1"
    assert refused(DirectorAction, '{"op":"clock","clock":"stop"}').field == "clock"
    assert parse(DirectorAction, '{"op":"check_in","entry":12}').entry == 12
    assert refused(AbsentBody, '{"seat":1,"absent":"yes"}').field == "absent"
