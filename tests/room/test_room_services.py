"""The cash-game floor services (room.services), one test per rulebook rule:
the casino cash-game reglement 000 (Einsätze 1-4, Allgemein 6, 8, 12, 15)."""

import datetime as dt

import pytest
from django.utils import timezone

from room import services as r
from room.models import Call, Departure, GameTable, QueueEntry, RoomLog
from tables import services
from tables.models import Hand, Seat, Table
from tables.writepath import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(floorman):
    """Room "casino" with NLHE 1/2 (buy-in 40..200), a main table (6 seats) and no must-move table."""
    room = r.create_room("casino", "Casino", call_seconds=300)
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200, actor=floorman)
    r.open_table(game.id, "Main 1", max_seats=6, actor=floorman)
    return game


def main_table(game):
    return GameTable.objects.get(game=game, kind="main").table


def seat_with_chips(game, table, seat, name, stack):
    services.seat_player(table.id, seat, name, 0)
    r.buy_in(table.id, seat, stack)


def stack(table, seat):
    return Seat.objects.get(table=table, number=seat).stack


def open_call(game):
    return Call.objects.filter(game=game, status="open").select_related("entry__player").first()


# --- 000 Einsätze 3 / 2 / 1 and 000 Allgemein 8: table stakes -----------------------------------------------


def test_einsaetze_3_buy_in_at_least_the_minimum_and_at_most_the_maximum(game, floorman):
    table = main_table(game)
    services.seat_player(table.id, 1, "Anna", 0)
    with pytest.raises(ServiceError) as below:
        r.buy_in(table.id, 1, 38, actor=floorman)
    assert below.value.code == "below_minimum" and below.value.extra["minimum"] == 40
    assert "000 Einsätze 3" in below.value.message
    with pytest.raises(ServiceError) as above:
        r.buy_in(table.id, 1, 202, actor=floorman)
    assert above.value.code == "above_maximum"
    assert stack(table, 1) == 0
    r.buy_in(table.id, 1, 200, actor=floorman)
    assert stack(table, 1) == 200


def test_allgemein_8_an_amount_not_divisible_by_the_unit_is_refused_naming_the_excess(floorman):
    room = r.create_room("r25", "Room 2/5")
    game = r.create_game(room.id, "NLHE 2/5", small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500)
    assert game.chip_unit == 5  # at 2/5 the big blind is the unit
    table = r.open_table(game.id, "T25", max_seats=6)
    services.seat_player(table.id, 1, "Anna", 0)
    with pytest.raises(ServiceError) as refused:
        r.buy_in(table.id, 1, 203, actor=floorman)
    assert refused.value.code == "indivisible"
    assert refused.value.extra == {"excess": 3, "unit": 5}
    assert stack(table, 1) == 0
    r.buy_in(table.id, 1, 200, actor=floorman)
    with pytest.raises(ServiceError) as add:
        r.add_on(table.id, 1, 52, actor=floorman)
    assert add.value.code == "indivisible" and add.value.extra["excess"] == 2
    assert stack(table, 1) == 200
    other = r.create_game(room.id, "NLHE 5/10", small_blind=5, big_blind=10, min_buy_in=200, max_buy_in=1000)
    assert other.chip_unit == 5  # otherwise the small blind


def test_einsaetze_1_chips_are_added_only_between_hands_up_to_the_maximum_and_never_taken_off(game, floorman):
    table = main_table(game)
    seat_with_chips(game, table, 1, "Anna", 100)
    seat_with_chips(game, table, 2, "Ben", 100)
    with pytest.raises(ServiceError) as off:
        r.add_on(table.id, 1, -20, actor=floorman)
    assert off.value.code == "chips_off_table"
    with pytest.raises(ServiceError) as too_much:
        r.add_on(table.id, 1, 120, actor=floorman)
    assert too_much.value.code == "above_maximum" and too_much.value.extra["maximum"] == 100
    r.add_on(table.id, 1, 100, actor=floorman)
    assert stack(table, 1) == 200
    services.start_hand(table.id)
    with pytest.raises(ServiceError) as live:
        r.add_on(table.id, 2, 20, actor=floorman)
    assert live.value.code == "hand_in_progress"
    assert stack(table, 2) == 100


def test_einsaetze_1_a_player_who_left_above_the_minimum_cannot_return_the_same_day_with_less(game, floorman):
    table = main_table(game)
    seat_with_chips(game, table, 1, "Anna", 180)
    r.leave_seat(table.id, 1, actor=floorman)
    departure = Departure.objects.get(player__name="Anna")
    assert departure.stack == 180
    services.seat_player(table.id, 1, departure.player, 0)
    with pytest.raises(ServiceError) as refused:
        r.buy_in(table.id, 1, 100, actor=floorman)
    assert refused.value.code == "below_minimum" and refused.value.extra["minimum"] == 180
    assert "000 Einsätze 1" in refused.value.message
    r.buy_in(table.id, 1, 180, actor=floorman)
    # the next day the game's minimum applies again
    Departure.objects.filter(player__name="Anna").update(at=timezone.now() - dt.timedelta(days=1))
    assert r.minimum_buy_in(game, Seat.objects.get(table=table, number=1).player) == (40, "000 Einsätze 3")


def test_einsaetze_1_leaving_at_the_minimum_or_below_does_not_bind_the_next_buy_in(game, floorman):
    table = main_table(game)
    seat_with_chips(game, table, 1, "Anna", 40)
    r.leave_seat(table.id, 1, actor=floorman)
    services.seat_player(table.id, 1, "Anna", 0)
    r.buy_in(table.id, 1, 40, actor=floorman)
    assert stack(table, 1) == 40


# --- waitlists and calls -----------------------------------------------------------------------------------


def test_an_open_seat_calls_the_first_walk_in_with_a_countdown_and_accept_seats_them(game, floorman):
    table = main_table(game)
    for seat, name in enumerate(["A1", "A2", "A3", "A4", "A5", "A6"], start=1):
        seat_with_chips(game, table, seat, name, 100)
    zoe = r.add_to_waitlist(game.id, "Zoe", source="walk_in", actor=floorman)
    yann = r.add_to_waitlist(game.id, "Yann", source="phone_in", actor=floorman)
    assert open_call(game) is None  # the table is full
    r.leave_seat(table.id, 4, actor=floorman)
    call = open_call(game)
    assert call.entry_id == zoe.id and (call.table_id, call.seat_number) == (table.id, 4)
    remaining = (call.deadline - call.called_at).total_seconds()
    assert remaining == 300
    r.accept_call(call.id, actor=floorman)
    seat = Seat.objects.get(table=table, number=4)
    assert seat.player.name == "Zoe" and seat.stack == 0  # seated, buy-in next
    r.buy_in(table.id, 4, 60, actor=floorman)
    assert stack(table, 4) == 60
    assert QueueEntry.objects.get(pk=yann.pk).status == "waiting"
    kinds = list(RoomLog.objects.filter(game=game, player__name="Zoe").order_by("id").values_list("kind", flat=True))
    assert kinds == ["waitlist_add", "call", "accept", "seat", "buy_in"]
    assert set(RoomLog.objects.filter(player__name="Zoe").values_list("actor_id", flat=True)) == {floorman.id}


def test_decline_and_no_show_move_on_to_the_next_player(game, floorman):
    table = main_table(game)
    for seat in range(1, 6):
        seat_with_chips(game, table, seat, f"P{seat}", 100)
    names = ["Zoe", "Yann", "Xena"]
    for name in names:
        r.add_to_waitlist(game.id, name, actor=floorman)
    assert open_call(game).entry.player.name == "Zoe"  # seat 6 is open
    nxt = r.decline_call(open_call(game).id, actor=floorman)
    assert nxt.entry.player.name == "Yann"
    assert QueueEntry.objects.get(player__name="Zoe").status == "removed"
    # Yann does not come: after the deadline it is a no-show and Xena is called
    assert r.expire_calls(game.room_id, now=timezone.now() + dt.timedelta(seconds=299)) == 0
    assert r.expire_calls(game.room_id, now=timezone.now() + dt.timedelta(seconds=301)) == 1
    call = open_call(game)
    assert call.entry.player.name == "Xena"
    assert RoomLog.objects.filter(kind="no_show", player__name="Yann").exists()
    # accepting a call whose deadline passed is refused and recorded as a no-show
    Call.objects.filter(pk=call.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(ServiceError) as late:
        r.accept_call(call.id, actor=floorman)
    assert late.value.code == "expired"
    assert Seat.objects.get(table=table, number=6).player is None


def test_allgemein_12_a_player_may_be_on_several_waitlists_but_once_per_list(game, floorman):
    other = r.create_game(
        game.room_id, "PLO 1/2", variant="plo", small_blind=1, big_blind=2, min_buy_in=100, max_buy_in=400
    )
    r.add_to_waitlist(game.id, "Zoe", actor=floorman)
    r.add_to_waitlist(other.id, "Zoe", actor=floorman)
    with pytest.raises(ServiceError) as twice:
        r.add_to_waitlist(game.id, "Zoe", actor=floorman)
    assert twice.value.code == "already_listed"
    assert QueueEntry.objects.filter(player__name="Zoe", status__in=["waiting", "called"]).count() == 2


# --- 000 Allgemein 15: must-move -----------------------------------------------------------------------------


@pytest.fixture
def must_move_game(game, floorman):
    """The game's main table full (6), and a must-move table of 4 seats."""
    main = main_table(game)
    for seat in range(1, 7):
        seat_with_chips(game, main, seat, f"M{seat}", 100)
    r.open_table(game.id, "Must-move 1", kind="must_move", max_seats=4, actor=floorman)
    return game


def test_allgemein_15_new_players_start_at_the_must_move_table_in_waitlist_order(must_move_game, floorman):
    game = must_move_game
    mm = GameTable.objects.get(game=game, kind="must_move").table
    for name in ["Zoe", "Yann", "Xena"]:
        r.add_to_waitlist(game.id, name, actor=floorman)
    calls = list(Call.objects.filter(game=game, status="open").order_by("id").select_related("entry__player"))
    assert [(c.entry.player.name, c.table_id) for c in calls] == [("Zoe", mm.id), ("Yann", mm.id), ("Xena", mm.id)]
    for call in reversed(calls):  # accepted in any order: the must-move order stays the waitlist order
        r.accept_call(call.id, actor=floorman)
    order = list(
        QueueEntry.objects.filter(game=game, queue="must_move", status="waiting")
        .order_by("joined_at", "id")
        .values_list("player__name", flat=True)
    )
    assert order == ["Zoe", "Yann", "Xena"]


def test_allgemein_15_a_main_seat_asks_must_move_players_in_order_and_the_first_must_move(must_move_game, floorman):
    game = must_move_game
    main = main_table(game)
    mm = GameTable.objects.get(game=game, kind="must_move").table
    for name in ["Zoe", "Yann"]:
        r.add_to_waitlist(game.id, name, actor=floorman)
    for call in list(Call.objects.filter(game=game, status="open")):
        r.accept_call(call.id, actor=floorman)
    for seat, amount in ((1, 150), (2, 80)):
        r.buy_in(mm.id, seat, amount, actor=floorman)
    r.leave_seat(main.id, 3, actor=floorman)
    call = open_call(game)
    assert call.entry.player.name == "Zoe" and call.table_id == main.id and not call.forced
    call = r.decline_call(call.id, actor=floorman)
    assert call.entry.player.name == "Yann" and not call.forced
    call = r.decline_call(call.id, actor=floorman)
    assert call.entry.player.name == "Zoe" and call.forced  # everyone said no: the first must move
    with pytest.raises(ServiceError) as must:
        r.decline_call(call.id, actor=floorman)
    assert must.value.code == "must_move"
    r.accept_call(call.id, actor=floorman)
    moved = Seat.objects.get(table=main, number=3)
    assert moved.player.name == "Zoe" and moved.stack == 150  # the whole table stake moves (000 Allgemein 12)
    assert Seat.objects.get(table=mm, number=1).player is None
    assert list(
        QueueEntry.objects.filter(game=game, queue="must_move", status="waiting").values_list("player__name", flat=True)
    ) == ["Yann"]


# --- 000 Allgemein 12: table changes --------------------------------------------------------------------------


def test_allgemein_12_a_table_change_needs_the_floor_and_brings_the_full_table_stake(game, floorman):
    main = main_table(game)
    second = r.open_table(game.id, "Main 2", max_seats=6, actor=floorman)
    seat_with_chips(game, main, 1, "Anna", 170)
    change = r.request_table_change(main.id, 1, second.id, actor=floorman)
    assert Seat.objects.get(table=main, number=1).player.name == "Anna"  # nothing moves before approval
    r.approve_table_change(change.id, 5, actor=floorman)
    assert Seat.objects.get(table=second, number=5).stack == 170
    assert Seat.objects.get(table=main, number=1).player is None
    with pytest.raises(ServiceError):
        r.approve_table_change(change.id, 4, actor=floorman)  # decided already
    refused = r.request_table_change(second.id, 5, main.id, actor=floorman)
    r.refuse_table_change(refused.id, actor=floorman)
    assert Seat.objects.get(table=second, number=5).player.name == "Anna"
    plo = r.create_game(game.room_id, "PLO", variant="plo", small_blind=1, big_blind=2, min_buy_in=100, max_buy_in=400)
    plo_table = r.open_table(plo.id, "PLO 1", max_seats=6)
    with pytest.raises(ServiceError) as other_game:
        r.request_table_change(second.id, 5, plo_table.id, actor=floorman)
    assert other_game.value.code == "wrong_game"


# --- 000 Einsätze 4: blinds after a seat change ---------------------------------------------------------------


def test_einsaetze_4_a_seat_change_two_occupied_seats_away_from_the_button_posts_the_big_blind(game, floorman):
    table = main_table(game)
    for seat, name in [(1, "A"), (2, "B"), (3, "C"), (4, "D")]:
        seat_with_chips(game, table, seat, name, 100)
    services.start_hand(table.id)  # button seat 1: B small blind, C big blind
    hand = Hand.objects.get(table=table, status="live")
    services.apply_action(table.id, {"type": "fold", "seat": 4})
    services.apply_action(table.id, {"type": "fold", "seat": 1})
    services.apply_action(table.id, {"type": "fold", "seat": 2})
    assert Hand.objects.get(pk=hand.pk).status == "complete"
    # A on the button (seat 1) moves to seat 6: past B, C and D (three occupied seats) clockwise
    r.move_player(table.id, 1, table.id, 6, actor=floorman)
    assert RoomLog.objects.filter(kind="move").last().payload["big_blind_due"] == 2
    services.start_hand(table.id)  # button seat 2: C small, D big, A (seat 6) owes the big blind
    spec = Hand.objects.get(table=table, status="live").spec
    blinds = dict(zip([s["seat"] for s in spec["seats"]], spec["blinds_or_straddles"]))
    assert blinds == {3: 1, 4: 2, 6: 0, 2: 0}  # the owed big blind is a live post, not a straddle
    assert spec["posts"] == [[6, 2]]
    # What the dealer's tablet shows: A's posted chips in front of him, and A (under the gun) acts first with
    # nothing to call (his post is his call), then B, C, and the big blind D last.
    state = services.table_snapshot(Table.objects.get(pk=table.pk))["hand"]["state"]
    players = {p["seat"]: p for p in state["players"]}
    assert (players[6]["bet"], players[6]["stack"]) == (2, 98)
    assert state["total_pot"] == 5
    assert state["to_act_seat"] == 6
    assert (state["legal"]["can_check"], state["legal"]["call_amount"], state["legal"]["min_raise_to"]) == (True, 0, 4)
    services.apply_action(table.id, {"type": "check", "seat": 6})
    state = services.table_snapshot(Table.objects.get(pk=table.pk))["hand"]["state"]
    assert (state["to_act_seat"], state["legal"]["call_amount"]) == (2, 2)  # B calls one big blind, not more
    services.apply_action(table.id, {"type": "raise", "seat": 2, "to": 6})
    services.apply_action(table.id, {"type": "fold", "seat": 3})
    services.apply_action(table.id, {"type": "fold", "seat": 4})
    state = services.table_snapshot(Table.objects.get(pk=table.pk))["hand"]["state"]
    assert (state["to_act_seat"], state["legal"]["call_amount"]) == (6, 4)  # A calls only the difference


def test_einsaetze_4_the_owed_big_blind_after_a_seat_change_to_under_the_gun_plus_one_is_posted_in_turn(game, floorman):
    """000 Einsätze 4: the post does not move the action: under the gun still acts first and the poster
    may check his option when nobody raised."""
    table = main_table(game)
    for seat, name in [(1, "A"), (2, "B"), (3, "C"), (4, "D")]:
        seat_with_chips(game, table, seat, name, 100)
    services.start_hand(table.id)  # button seat 1: B small blind, C big blind
    for seat in (4, 1, 2):
        services.apply_action(table.id, {"type": "fold", "seat": seat})
    r.move_player(table.id, 1, table.id, 6, actor=floorman)  # A passes B, C and D
    seat_with_chips(game, table, 5, "E", 100)
    services.start_hand(table.id)  # button seat 2: C small, D big, E under the gun, A (seat 6) posts
    state = services.table_snapshot(Table.objects.get(pk=table.pk))["hand"]["state"]
    assert {p["seat"]: p["bet"] for p in state["players"]} == {3: 1, 4: 2, 5: 0, 6: 2, 2: 0}
    assert (state["to_act_seat"], state["legal"]["call_amount"]) == (5, 2)
    services.apply_action(table.id, {"type": "call", "seat": 5})
    state = services.table_snapshot(Table.objects.get(pk=table.pk))["hand"]["state"]
    assert state["to_act_seat"] == 6 and state["legal"]["can_check"]
    services.apply_action(table.id, {"type": "check", "seat": 6})
    for seat, kind in [(2, "fold"), (3, "call"), (4, "check")]:
        services.apply_action(table.id, {"type": kind, "seat": seat})
    state = services.table_snapshot(Table.objects.get(pk=table.pk))["hand"]["state"]
    assert state["phase"] == "board" and state["total_pot"] == 8


def test_einsaetze_4_an_owed_big_blind_is_covered_by_a_bomb_pot_or_by_the_players_own_straddle(game, floorman):
    """The owed big blind must not stop the dealer's format: in a bomb pot everyone posts the amount
    (000 Allgemein 14), and a player who straddles posts his straddle, not an extra big blind."""
    table = main_table(game)
    for seat, name in [(1, "A"), (2, "B"), (3, "C"), (4, "D")]:
        seat_with_chips(game, table, seat, name, 100)
    services.start_hand(table.id)
    for seat in (4, 1, 2):
        services.apply_action(table.id, {"type": "fold", "seat": seat})
    r.move_player(table.id, 1, table.id, 6, actor=floorman)  # A owes the big blind next hand
    before = {s.number: s.stack for s in table.seats.exclude(player=None)}
    services.start_hand(table.id, format={"kind": "bomb_pot", "amount": 10})
    spec = Hand.objects.get(table=table, status="live").spec
    assert spec.get("posts", []) == [] and spec["bomb_pot"] == 10
    state = services.table_snapshot(Table.objects.get(pk=table.pk))["hand"]["state"]
    assert state["total_pot"] == 40
    assert {p["seat"]: p["stack"] for p in state["players"]} == {n: s - 10 for n, s in before.items()}


def test_einsaetze_4_moving_one_seat_or_moved_by_the_floor_to_another_table_posts_nothing(game, floorman):
    table = main_table(game)
    second = r.open_table(game.id, "Main 2", max_seats=6, actor=floorman)
    for seat, name in [(1, "A"), (2, "B"), (3, "C"), (5, "D")]:
        seat_with_chips(game, table, seat, name, 100)
    seat_with_chips(game, second, 1, "E", 100)
    seat_with_chips(game, second, 2, "F", 100)
    services.start_hand(table.id)
    for seat in (5, 1, 2):
        services.apply_action(table.id, {"type": "fold", "seat": seat})
    r.move_player(table.id, 3, table.id, 4, actor=floorman)  # passes nobody
    r.move_player(table.id, 5, second.id, 3, actor=floorman)  # the floor moves D to Main 2
    assert [e.payload["big_blind_due"] for e in RoomLog.objects.filter(kind="move")] == [0, 0]
    services.start_hand(second.id)
    assert sum(Hand.objects.get(table=second, status="live").spec["blinds_or_straddles"]) == 3


def test_seats_passed_from_the_button_counts_occupied_seats_clockwise():
    occupied = [1, 2, 3, 4, 7]
    assert r.seats_passed_from_button(1, 2, 5, occupied, 9) == 2  # passes 3 and 4
    assert r.seats_passed_from_button(1, 2, 4, occupied, 9) == 1  # passes 3 only
    assert r.seats_passed_from_button(7, 1, 9, occupied, 9) == -0  # towards the button
    assert r.seats_passed_from_button(7, 9, 4, occupied, 9) == 3  # 1, 2, 3 after the wrap


# --- 000 Allgemein 6: absent players ------------------------------------------------------------------------


def test_allgemein_6_the_floor_marks_a_player_absent_and_back(game, floorman):
    table = main_table(game)
    seat_with_chips(game, table, 1, "Anna", 100)
    seq = table.__class__.objects.get(pk=table.pk).seq
    r.set_absent(table.id, 1, True, actor=floorman)
    assert Seat.objects.get(table=table, number=1).absent
    assert table.__class__.objects.get(pk=table.pk).seq == seq + 1  # the tablet hears of it
    r.set_absent(table.id, 1, False, actor=floorman)
    assert not Seat.objects.get(table=table, number=1).absent
    with pytest.raises(ServiceError) as empty:
        r.set_absent(table.id, 2, True, actor=floorman)
    assert empty.value.code == "empty_seat"
    assert [e.kind for e in RoomLog.objects.filter(kind__in=["absent", "back"]).order_by("id")] == ["absent", "back"]


# --- the lobby snapshot --------------------------------------------------------------------------------------


def test_the_lobby_snapshot_shows_initials_and_no_stacks_or_cards_unless_allowed(game, floorman):
    table = main_table(game)
    seat_with_chips(game, table, 1, "Anna Berger", 100)
    seat_with_chips(game, table, 2, "Ben Carlsen", 100)
    services.start_hand(table.id)
    r.update_room(game.room_id, lobby_names="initials", actor=floorman)
    r.add_to_waitlist(game.id, "Zoe Quinn", actor=floorman)
    room = game.room
    room.refresh_from_db()
    lobby = r.room_snapshot(room, lobby=True)
    text = str(lobby)
    assert "Anna" not in text and "Zoe" not in text
    g = lobby["games"][0]
    assert g["calls"][0]["name"] == "Z.Q." and g["calls"][0]["seat"] == 3
    assert g["tables"][0]["seats"][0] == {"number": 1, "player": "A.B.", "absent": False}
    seats = [s for t in g["tables"] for s in t["seats"]]
    assert all("stack" not in s for s in seats)
    assert "hand" not in text and "cards" not in text and "hole" not in text
    r.update_room(game.room_id, lobby_stacks=True, lobby_names="full", actor=floorman)
    room.refresh_from_db()
    lobby = r.room_snapshot(room, lobby=True)
    assert lobby["games"][0]["tables"][0]["seats"][0]["stack"] == 100  # chips behind at the start of the hand
    assert lobby["seq"] == room.seq


def test_einsaetze_2_the_game_variant_reaches_the_hand_engine(game, floorman):
    plo = r.create_game(
        game.room_id, "PLO 1/2", variant="plo", small_blind=1, big_blind=2, min_buy_in=100, max_buy_in=400
    )
    table = r.open_table(plo.id, "PLO 1", max_seats=6, actor=floorman)
    for seat, name in [(1, "A"), (2, "B")]:
        seat_with_chips(plo, table, seat, name, 200)
    services.start_hand(table.id)
    hand = Hand.objects.get(table=table, status="live")
    assert services.spec_from_dict(hand.spec).game == "plo"
