"""The player record at the room dashboard's waitlist form (issue 28): the autocomplete's answer is the
picker's shape (``static/js/player_picker.js``), a barred player is marked in it, and the form's
``player_id`` puts exactly that record on the list -- not a new player of the same name."""

import json

import pytest

from room import services as r
from room.models import QueueEntry
from tables.models import Player
from tables.players import merge_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(roles):
    room = r.create_room("casino", "Casino")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
    r.open_table(game.id, "Main 1", max_seats=6)
    return game


def act(client, data):
    return client.post("/room/casino/act/", json.dumps(data), content_type="application/json")


def test_the_search_answers_in_the_pickers_shape_and_marks_a_barred_player(client, floorman):
    anna = Player.objects.create(name="Anna Keller", nickname="Annie", card_number="C-1042")
    Player.objects.create(name="Max Muster", standing=Player.Standing.BARRED, standing_reason="marked cards")
    client.force_login(floorman)
    body = client.get("/office/players/search.json", {"q": "C-1042"}).json()
    assert body["ok"] is True
    assert body["players"] == [
        {
            "id": anna.pk,
            "name": "Anna Keller",
            "label": f"#{anna.pk} · C-1042 · Annie",
            "country": "",
            "status": "",
            "nickname": "Annie",
            "card_number": "C-1042",
            "standing": "ok",
        }
    ]
    barred = client.get("/office/players/search.json", {"q": "max"}).json()["players"]
    assert [(p["name"], p["status"]) for p in barred] == [("Max Muster", "barred")]
    assert "marked cards" not in json.dumps(barred)  # the reason is on the player's page, not in the list


def test_the_waitlist_form_puts_the_picked_record_on_the_list(client, floorman, game):
    older = Player.objects.create(name="Anna Keller")  # another Anna Keller, found first by the name
    anna = Player.objects.create(name="Anna Keller", card_number="C-1042")
    client.force_login(floorman)
    reply = act(client, {"op": "waitlist_add", "game_id": game.id, "player_id": anna.pk, "name": "Anna Keller"})
    assert reply.status_code == 200, reply.content
    entry = QueueEntry.objects.get(pk=reply.json()["entry_id"])
    assert entry.player_id == anna.pk != older.pk
    assert Player.objects.filter(name="Anna Keller").count() == 2  # nobody made anew


def test_a_picked_barred_player_is_refused_with_the_reason(client, floorman, game):
    max_ = Player.objects.create(name="Max Muster", standing=Player.Standing.BARRED, standing_reason="marked cards")
    client.force_login(floorman)
    reply = act(client, {"op": "waitlist_add", "game_id": game.id, "player_id": max_.pk})
    assert reply.status_code == 400
    assert reply.json()["code"] == "barred" and "marked cards" in reply.json()["message"]
    assert not QueueEntry.objects.exists()


def test_a_typed_name_still_makes_a_new_player_and_skips_a_merged_duplicate(client, floorman, game):
    dup = Player.objects.create(name="Jörg Huber")
    keep = Player.objects.create(name="Joerg Huber")
    merge_players(keep.pk, dup.pk)
    client.force_login(floorman)
    assert act(client, {"op": "waitlist_add", "game_id": game.id, "name": "Zoe New"}).status_code == 200
    assert QueueEntry.objects.filter(player__name="Zoe New").count() == 1
    # the merged duplicate's old id gives the record kept
    reply = act(client, {"op": "waitlist_add", "game_id": game.id, "player_id": dup.pk})
    assert QueueEntry.objects.get(pk=reply.json()["entry_id"]).player_id == keep.pk
