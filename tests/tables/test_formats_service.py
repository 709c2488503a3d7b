"""Special formats chosen on the dealer's tablet: straddles (000
Aktionen 1), bomb pot, flip and double board (000 Allgemein 14), run it
twice (000 Aktionen 8), through ``tables.services`` and the dealer socket.

Every format starts the hand as the rule says, bad input is refused with a
clear code and changes nothing, and the recorded events replay to the same
hand.
"""

import json

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from poker.hand import corrections
from pokerfloor.routing import websocket_urlpatterns
from tables import hooks, services
from tables.models import Hand, HandEvent, Table

pytestmark = pytest.mark.django_db(transaction=True)


# ----------------------------------------------------------------- helpers


def snap(table):
    """The engine snapshot of the table's newest hand (``hand.state``)."""
    return Hand.objects.filter(table=table).order_by("-number").first().snapshot


def act(table, **action):
    services.apply_action(table.id, action)
    return snap(table)


def start_event(table):
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    return hand.events.get(index=0).payload


def refused(table, code, call):
    """``call()`` raises ServiceError ``code`` and the table is untouched."""
    table.refresh_from_db()
    seq, hands, events = table.seq, Hand.objects.count(), HandEvent.objects.count()
    with pytest.raises(services.ServiceError) as err:
        call()
    assert err.value.code == code, err.value.message
    table.refresh_from_db()
    assert (table.seq, Hand.objects.count(), HandEvent.objects.count()) == (seq, hands, events)
    return err.value


def assert_replays(table):
    """The hand's events, replayed from its stored spec, give the stored snapshot."""
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    events = list(hand.events.order_by("index").values_list("index", "kind", "payload"))
    replayed = corrections.replay(services.spec_from_dict(hand.spec), events).state
    engine = json.loads(json.dumps(replayed.to_dict()))
    assert {k: hand.snapshot[k] for k in engine} == engine
    services.state_cache.clear()
    assert services.hand_state(hand).to_dict() == replayed.to_dict()


def deal(table, *cards):
    for c in cards:
        state = act(table, type="board", cards=c)
    return state


@pytest.fixture
def casino(db, dealer):
    """A casino cash table at 5/10 (profile casino-cash, rulebook 000), four players with 1000."""
    table = services.create_table("Casino 1", small_blind=5, big_blind=10, rules_profile="casino-cash", dealer=dealer)
    for seat, name in [(1, "Anna"), (3, "Ben"), (5, "Clara"), (7, "David")]:
        services.seat_player(table.id, seat, name, 1000)
    return Table.objects.get(pk=table.id)


# ------------------------------------------------- bomb pot, flip (Allgemein 14)


def test_bomb_pot_everyone_posts_and_the_flop_comes_first_000_allgemein_14(casino):
    services.start_hand(casino.id, format={"kind": "bomb_pot", "amount": 20})
    state = snap(casino)
    assert state["total_pot"] == 80
    assert {p["seat"]: p["stack"] for p in state["players"]} == {1: 980, 3: 980, 5: 980, 7: 980}
    assert state["phase"] == "board" and state["next_street"] == "flop"  # no preflop betting
    assert state["format"]["kind"] == "bomb_pot" and state["format"]["amount"] == 20
    record = start_event(casino)["format"]
    assert record["kind"] == "bomb_pot" and record["amount"] == 20
    assert [c["label"] for c in record["citations"]] == ["000 Allgemein 14"]
    state = act(casino, type="board", cards="2c7d9h")
    assert state["phase"] == "betting" and state["to_act_seat"] == 3  # play goes on normally after the flop
    assert_replays(casino)


def test_flip_deals_the_whole_board_without_betting_000_allgemein_14(casino):
    services.start_hand(casino.id, format={"kind": "flip", "amount": 10})
    state = snap(casino)
    assert state["total_pot"] == 40 and state["phase"] == "board"
    state = deal(casino, "2c7d9h", "Jc", "Qs")
    assert state["phase"] == "showdown"
    for seat, cards in [(1, "AhAd"), (3, "KhKc"), (5, "3h4h"), (7, "5d6d")]:
        state = act(casino, type="show", seat=seat, cards=cards)
    assert state["phase"] == "complete"
    assert {a["seat"]: a["amount"] for a in state["awards"]} == {1: 40}
    assert_replays(casino)


def test_a_bomb_pot_amount_must_be_divisible_by_the_chip_unit_000_allgemein_8(casino):
    err = refused(
        casino, "bad_format", lambda: services.start_hand(casino.id, format={"kind": "bomb_pot", "amount": 7})
    )
    assert "chip unit 5" in err.message


@pytest.mark.parametrize(
    "fmt",
    [
        "bomb",
        {"kind": "bomb"},
        {"kind": "bomb_pot"},
        {"kind": "bomb_pot", "amount": -10},
        {"kind": "flip", "amount": "10"},
        {"kind": "standard", "amount": 10},
        {"double_board": "yes"},
        {"kind": "bomb_pot", "amount": 10, "straddles": [{"kind": "live", "seat": 7}]},
        {"straddles": [{"kind": "sleeper", "seat": 7}]},
        {"straddles": {"kind": "live", "seat": 7}},
        {"colour": "red"},
    ],
)
def test_malformed_formats_are_refused_and_change_nothing(casino, fmt):
    refused(casino, "bad_format", lambda: services.start_hand(casino.id, format=fmt))


def test_a_standard_format_is_a_normal_hand(casino):
    services.start_hand(casino.id, format={"kind": "standard"})
    state = snap(casino)
    assert state["total_pot"] == 15 and state["to_act_seat"] == 7
    assert "format" not in start_event(casino)


def test_a_misdealt_bomb_pot_is_dealt_again_as_it_was(casino):
    """A misdeal repeats the hand with the same button and format (000
    Allgemein 9); another format for the re-deal is refused."""
    services.start_hand(casino.id, format={"kind": "bomb_pot", "amount": 20})
    services.apply_corrections(casino.id, [{"type": "misdeal"}], ruling_id=None)
    refused(casino, "redeal", lambda: services.start_hand(casino.id, format={"double_board": True}))
    services.start_hand(casino.id)
    state = snap(casino)
    assert state["format"]["kind"] == "bomb_pot" and state["total_pot"] == 80


# --------------------------------------------------------- double board


def test_double_board_splits_the_pot_between_the_boards_000_allgemein_14(table):
    """4 players at 1/2: button 1, blinds 3 and 5. Clara wins board 1, David
    board 2; the pot of 5 is halved, the odd chip to the worse position
    (Clara, first left of the button of the two)."""
    services.start_hand(table.id, format={"double_board": True})
    assert start_event(table)["format"]["double_board"] is True
    act(table, type="call", seat=7)
    act(table, type="fold", seat=1)
    act(table, type="fold", seat=3)
    state = act(table, type="check", seat=5)
    assert state["phase"] == "board" and state["next_board"] == 1 and state["board2"] == []
    state = act(table, type="board", cards="2c7d9h")
    assert state["phase"] == "board" and state["next_board"] == 2  # the flop of board 2 before any betting
    state = act(table, type="board", cards="3s8sKd")
    assert state["phase"] == "betting" and state["board2"] == ["3s", "8s", "Kd"]
    for street in (("Jc", "4h"), ("Qs", "5s")):
        act(table, type="check", seat=5)
        act(table, type="check", seat=7)
        deal(table, *street)
    act(table, type="check", seat=5)
    state = act(table, type="check", seat=7)
    assert state["phase"] == "showdown"
    act(table, type="show", seat=5, cards="AhAd")
    state = act(table, type="show", seat=7, cards="KhKc")
    assert state["phase"] == "complete"
    assert {a["seat"]: a["amount"] for a in state["awards"]} == {5: 3, 7: 2}
    [result] = state["board_results"]
    assert [(b["board"], b["winners"], b["chips"]) for b in result["boards"]] == [(1, [5], 3), (2, [7], 2)]
    assert result["boards"][1]["hand"].startswith("Three of a kind")
    assert_replays(table)


def test_double_board_award_by_hand_names_each_boards_winners(table):
    services.start_hand(table.id, format={"double_board": True})
    act(table, type="call", seat=7)
    act(table, type="fold", seat=1)
    act(table, type="fold", seat=3)
    act(table, type="check", seat=5)
    deal(table, "", "")
    for _ in range(2):
        act(table, type="check", seat=5)
        act(table, type="check", seat=7)
        deal(table, "", "")
    act(table, type="check", seat=5)
    act(table, type="check", seat=7)
    state = act(table, type="award", pot=0, winners=[7], winners2=[5])
    assert {a["seat"]: a["amount"] for a in state["awards"]} == {5: 3, 7: 2}
    assert [b["winners"] for b in state["board_results"][0]["boards"]] == [[7], [5]]


# ------------------------------------------------------------ straddles


def test_a_button_straddle_acts_left_of_the_button_000_aktionen_1(table):
    services.set_table_formats(table.id, straddle_kinds=["live", "button"], run_it_twice_min_pot=None)
    services.start_hand(table.id, format={"straddles": [{"kind": "button", "seat": 1}]})
    state = snap(table)
    assert {p["seat"]: p["bet"] for p in state["players"]} == {1: 4, 3: 1, 5: 2, 7: 0}
    assert state["to_act_seat"] == 3  # "die Aktion beginnt links vom Dealer Button"
    assert state["legal"]["call_amount"] == 3
    assert state["format"]["straddles"] == [{"kind": "button", "seat": 1, "amount": 4}]
    assert [c["label"] for c in start_event(table)["format"]["citations"]] == ["000 Aktionen 1"]
    assert_replays(table)


def test_the_live_straddle_takes_precedence_000_aktionen_1(table):
    services.set_table_formats(table.id, straddle_kinds=["live", "button"], run_it_twice_min_pot=None)
    services.start_hand(table.id, format={"straddles": [{"kind": "button", "seat": 1}, {"kind": "live", "seat": 7}]})
    state = snap(table)
    assert {p["seat"]: p["bet"] for p in state["players"]} == {1: 0, 3: 1, 5: 2, 7: 4}
    assert state["to_act_seat"] == 1 and state["legal"]["call_amount"] == 4
    record = start_event(table)["format"]
    assert record["straddles"] == [{"kind": "live", "seat": 7, "amount": 4}]
    assert [(d["kind"], d["seat"]) for d in record["dropped"]] == [("button", 1)]
    assert "live straddle takes precedence (000 Aktionen 1)" in record["dropped"][0]["reason"]


def test_straddles_only_of_the_kinds_agreed_at_the_opening_000_aktionen_1(table):
    services.set_table_formats(table.id, straddle_kinds=["button"], run_it_twice_min_pot=None)
    err = refused(
        table,
        "straddle_not_agreed",
        lambda: services.start_hand(table.id, format={"straddles": [{"kind": "live", "seat": 7}]}),
    )
    assert "000 Aktionen 1" in err.message
    refused(
        table,
        "bad_straddle",  # seat 3 is not the button
        lambda: services.start_hand(table.id, format={"straddles": [{"kind": "button", "seat": 3}]}),
    )
    refused(
        table,
        "straddle_not_agreed",
        lambda: services.start_hand(table.id, format={"straddles": [{"kind": "mississippi", "seat": 1}]}),
    )


def test_formats_are_agreed_only_at_the_tables_opening_000_aktionen_1(table):
    services.start_hand(table.id)
    refused(
        table,
        "hand_in_progress",
        lambda: services.set_table_formats(table.id, straddle_kinds=["live"], run_it_twice_min_pot=None),
    )
    while snap(table)["phase"] != "complete":
        act(table, type="fold", seat=snap(table)["to_act_seat"])
    refused(
        table,
        "formats_locked",
        lambda: services.set_table_formats(table.id, straddle_kinds=["live"], run_it_twice_min_pot=None),
    )
    refused(
        table,
        "invalid",
        lambda: services.set_table_formats(table.id, straddle_kinds=["sleeper"], run_it_twice_min_pot=None),
    )
    services.set_table_status(table.id, "closed")
    services.set_table_formats(table.id, straddle_kinds=["live", "mississippi"], run_it_twice_min_pot=500)
    table.refresh_from_db()
    snapshot = services.table_snapshot(table)["table"]
    assert snapshot["straddle_kinds"] == ["live", "mississippi"] and snapshot["run_it_twice_min_pot"] == 500


def test_tournament_tables_refuse_formats(table):
    """Hands of a tournament table come from its spec provider: no formats."""

    def provider(t, seats):
        return services.build_spec(t, seats, 1)

    with hooks.replaced("spec_provider", provider):
        err = refused(
            table, "format_not_allowed", lambda: services.start_hand(table.id, format={"kind": "bomb_pot", "amount": 2})
        )
        assert "tournament" in err.message
        services.start_hand(table.id)  # the provider's path is unchanged
    assert snap(table)["format"]["kind"] == "standard"


# --------------------------------------------------------- run it twice


def all_in_heads_up(table):
    """Button 1, blinds 3/5: David (7) all-in 400, Clara (5, 150) calls all-in."""
    services.start_hand(table.id)
    act(table, type="all_in", seat=7)
    act(table, type="fold", seat=1)
    act(table, type="fold", seat=3)
    return act(table, type="call", seat=5)


def test_run_it_twice_when_everyone_agrees_halves_the_pot_000_aktionen_8(table):
    services.set_table_formats(table.id, straddle_kinds=[], run_it_twice_min_pot=100)
    state = all_in_heads_up(table)
    assert state["total_pot"] == 301 and state["run_twice_possible"] is True
    err = refused(table, "run_twice_not_agreed", lambda: services.run_it_twice(table.id, [5]))
    assert "7" in err.message
    refused(table, "invalid", lambda: services.run_it_twice(table.id, "5,7"))
    services.run_it_twice(table.id, [7, 5])
    state = snap(table)
    assert state["run_twice_pots"] == [0] and state["board2"] == [] and state["run_twice_possible"] is False
    payload = HandEvent.objects.filter(kind="action").order_by("-seq").first().payload
    assert payload["type"] == "run_it_twice" and payload["agreed"] == [5, 7] and payload["floor"] is False
    assert [c["label"] for c in payload["citations"]] == ["000 Aktionen 8"]
    state = deal(table, "2c7d9h", "Jc", "Qs")
    assert state["board"] == ["2c", "7d", "9h", "Jc", "Qs"] and state["next_board"] == 2
    state = deal(table, "3s8sKd", "4h", "5s")
    assert state["phase"] == "showdown"
    act(table, type="show", seat=5, cards="AhAd")
    state = act(table, type="show", seat=7, cards="KhKc")
    # 301 halved: 150 a board, the odd chip to the worse position (Clara, 000 Aktionen 8 f)
    assert {a["seat"]: a["amount"] for a in state["awards"]} == {5: 151, 7: 150}
    assert [(b["winners"], b["chips"]) for b in state["board_results"][0]["boards"]] == [([5], 151), ([7], 150)]
    assert_replays(table)


def test_run_it_twice_needs_the_minimum_pot_000_aktionen_8_c(table):
    services.set_table_formats(table.id, straddle_kinds=[], run_it_twice_min_pot=1000)
    state = all_in_heads_up(table)
    assert state["run_twice_possible"] is False
    refused(table, "run_twice_pot_too_small", lambda: services.run_it_twice(table.id, [5, 7]))


def test_run_it_twice_is_not_offered_without_the_tables_agreement(table):
    assert all_in_heads_up(table)["run_twice_possible"] is False
    refused(table, "run_twice_not_offered", lambda: services.run_it_twice(table.id, [5, 7]))


def test_run_it_twice_only_when_no_action_is_possible_000_aktionen_8_a(table):
    services.set_table_formats(table.id, straddle_kinds=[], run_it_twice_min_pot=0)
    services.start_hand(table.id)
    assert snap(table)["run_twice_possible"] is False
    refused(table, "run_twice_action_possible", lambda: services.run_it_twice(table.id, [1, 3, 5, 7], floor=True))


def test_three_players_need_the_floor_and_pots_are_agreed_separately_000_aktionen_8_e(table):
    services.set_table_formats(table.id, straddle_kinds=[], run_it_twice_min_pot=100)
    services.start_hand(table.id)
    act(table, type="all_in", seat=7)
    act(table, type="call", seat=1)  # all-in for 200
    act(table, type="fold", seat=3)
    state = act(table, type="call", seat=5)  # all-in for 150
    assert [sorted(p["eligible_seats"]) for p in state["pots"]] == [[1, 5, 7], [1, 7]]
    refused(table, "run_twice_floor_absent", lambda: services.run_it_twice(table.id, [1, 5, 7]))
    # only the side pot is run twice (two players: no floor needed); the main pot stays on board 1
    services.run_it_twice(table.id, [1, 7], pots=[1])
    assert snap(table)["run_twice_pots"] == [1]
    deal(table, "2c7d9h", "Jc", "Qs", "3s8sKd", "4h", "5s")
    act(table, type="show", seat=1, cards="6s7s")  # a straight flush on board 2 only
    act(table, type="show", seat=5, cards="AhAd")
    state = act(table, type="show", seat=7, cards="KhKc")
    main, side = state["pots"]
    awards = {(a["pot"], a["seat"]): a["amount"] for a in state["awards"]}
    assert awards == {(0, 5): main["amount"], (1, 1): side["amount"] // 2, (1, 7): side["amount"] // 2}
    assert [r["pot"] for r in state["board_results"]] == [1]
    assert_replays(table)


def test_the_floor_lets_three_players_run_it_twice(table):
    services.set_table_formats(table.id, straddle_kinds=[], run_it_twice_min_pot=100)
    services.start_hand(table.id)
    act(table, type="all_in", seat=7)
    act(table, type="call", seat=1)
    act(table, type="fold", seat=3)
    act(table, type="call", seat=5)
    services.run_it_twice(table.id, [1, 5, 7], floor=True)
    assert snap(table)["run_twice_pots"] == [0, 1]


# ------------------------------------------------------------ the socket

app = URLRouter(websocket_urlpatterns)


async def _tablet(table, user):
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.id}/dealer/")
    ws.scope["user"] = user
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_json_from()
    return ws, first["seq"]


async def _reply(ws, client_id):
    """The ack or error for ``client_id`` and the update, if any."""
    reply, update = None, None
    while reply is None or (reply["type"] == "ack" and update is None):
        msg = await ws.receive_json_from(timeout=5)
        if msg.get("client_id") == client_id:
            reply = msg
        elif msg["type"] == "update":
            update = msg
    return reply, update


async def test_the_tablet_starts_a_bomb_pot_and_agrees_run_it_twice(table, dealer):
    from channels.db import database_sync_to_async

    await database_sync_to_async(services.set_table_formats)(table.id, straddle_kinds=[], run_it_twice_min_pot=0)
    ws, seq = await _tablet(table, dealer)
    await ws.send_json_to(
        {"type": "start_hand", "client_id": "f1", "expected_seq": seq, "format": {"kind": "bomb_pot"}}
    )
    reply, _ = await _reply(ws, "f1")
    assert reply["type"] == "error" and reply["code"] == "bad_format"
    await ws.send_json_to(
        {"type": "start_hand", "client_id": "f2", "expected_seq": seq, "format": {"kind": "bomb_pot", "amount": 10}}
    )
    reply, update = await _reply(ws, "f2")
    assert reply["type"] == "ack"
    state = update["snapshot"]["hand"]["state"]
    assert state["format"]["kind"] == "bomb_pot" and state["total_pot"] == 40 and state["next_street"] == "flop"
    assert update["snapshot"]["hand"]["last_event"]["payload"]["format"]["amount"] == 10

    seq = update["seq"]  # the flop, then Ben all-in and Clara calls: no more action possible
    for i, action in enumerate(
        [
            {"type": "board", "cards": "2c7d9h"},
            {"type": "all_in", "seat": 3},
            {"type": "call", "seat": 5},
            {"type": "fold", "seat": 7},
            {"type": "fold", "seat": 1},
        ]
    ):
        await ws.send_json_to({"type": "action", "client_id": f"a{i}", "expected_seq": seq, "action": action})
        reply, update = await _reply(ws, f"a{i}")
        assert reply["type"] == "ack", reply
        seq = update["seq"]
    assert update["snapshot"]["hand"]["state"]["run_twice_possible"] is True
    await ws.send_json_to({"type": "run_it_twice", "client_id": "r1", "expected_seq": seq, "agreed": [3]})
    reply, _ = await _reply(ws, "r1")
    assert reply["type"] == "error" and reply["code"] == "run_twice_not_agreed"
    await ws.send_json_to(
        {"type": "run_it_twice", "client_id": "r2", "expected_seq": seq, "agreed": [3, 5], "pots": [0], "floor": False}
    )
    reply, update = await _reply(ws, "r2")
    assert reply["type"] == "ack"
    assert update["snapshot"]["hand"]["state"]["run_twice_pots"] == [0]
    assert update["snapshot"]["hand"]["state"]["board2"] == ["2c", "7d", "9h"]  # the flop is common to both runs
    await ws.disconnect()


def test_the_hand_history_and_the_hand_page_show_both_boards(table, client, floorman):
    """A double-board hand on the floor's history and hand pages: board 1 and
    board 2, each with its own cards (000 Allgemein 14)."""
    services.start_hand(table.id, format={"double_board": True})
    act(table, type="call", seat=7)
    act(table, type="fold", seat=1)
    act(table, type="fold", seat=3)
    act(table, type="check", seat=5)
    deal(table, "2c7d9h", "3s8sKd")
    hand = Hand.objects.get(table=table)
    client.force_login(floorman)
    for url in (f"/tables/{table.id}/hands/", f"/hands/{hand.id}/"):
        page = client.get(url).content.decode()
        assert 'data-cards="2c7d9h"' in page, url
        assert 'data-board="2" data-cards="3s8sKd"' in page, url
