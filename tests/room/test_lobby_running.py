"""The lobby TV never offers a game that is not running (issue 29): a table counts as running only while
a dealer is assigned and the room's number of players is seated; the game's open seats on the screen are
those of running tables."""

import pytest

from room import services as r
from room.services.snapshot import room_snapshot

pytestmark = pytest.mark.django_db


def _game(snapshot):
    return snapshot["games"][0]


def test_a_table_without_a_dealer_is_not_offered_on_the_lobby_screen(dealer):
    from tables import services

    room = r.create_room("casino", "Casino")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, "Main 1", max_seats=4)
    for seat, name in [(1, "Anna Berger"), (2, "Ben Carlsen")]:
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 100)

    lobby = _game(room_snapshot(room, lobby=True))
    assert lobby["running"] is False and lobby["open_seats"] == 0  # two seats are free, but nobody deals
    assert lobby["tables"][0]["running"] is False

    r.assign_dealer(table.id, dealer)
    room.refresh_from_db()
    lobby = _game(room_snapshot(room, lobby=True))
    assert lobby["running"] is True and lobby["open_seats"] == 2
    assert lobby["tables"][0]["running"] is True


def test_too_few_players_seated_is_not_a_running_game(dealer):
    from tables import services

    room = r.create_room("casino", "Casino")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    table = r.open_table(game.id, "Main 1", max_seats=4)
    services.seat_player(table.id, 1, "Anna Berger", 0)
    r.buy_in(table.id, 1, 100)
    r.assign_dealer(table.id, dealer)
    room.refresh_from_db()
    assert _game(room_snapshot(room, lobby=True))["running"] is False  # one player: no game (default 2)
