"""One player record (issue 28): a barred or self-excluded player is refused at the waitlist, the seat and
the registration with the reason for the staff; duplicates are found and merged with all their history;
an erase keeps the hands under an anonymous name; hours come from the hands."""

from __future__ import annotations

from datetime import timedelta

import pytest

from office.hours import player_sessions
from room import services as r
from room.models import QueueEntry
from tables import services
from tables.models import Hand, Player
from tables.players import check_may_play, duplicate_groups, erase_player, find_players, merge_players
from tables.writepath import ServiceError
from tests.office.night import EVENING, play_hands_at, room_with_two_tables
from tournaments.services import registration

pytestmark = pytest.mark.django_db

STRUCTURE = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}] * 3}


def bar(name: str, reason: str, standing=Player.Standing.BARRED) -> Player:
    return Player.objects.create(name=name, standing=standing, standing_reason=reason)


def test_a_barred_player_is_refused_at_the_waitlist_with_the_reason(floorman):
    room, game, t1, _t2 = room_with_two_tables(floorman)
    bar("Max Muster", "cheating at table 3, 2026-10-02")
    with pytest.raises(ServiceError) as refused:
        r.add_to_waitlist(game.id, "Max Muster", actor=floorman)
    assert refused.value.code == "barred"
    assert "cheating at table 3" in refused.value.message
    assert not QueueEntry.objects.filter(player__name="Max Muster").exists()


def test_a_self_excluded_player_is_refused_at_a_seat_and_at_the_registration(floorman):
    _room, _game, t1, _t2 = room_with_two_tables(floorman)
    player = bar("Sofia Self", "asked for a year's break", Player.Standing.SELF_EXCLUDED)
    with pytest.raises(ServiceError) as seat:
        services.seat_player(t1.id, 5, player, 0)
    assert seat.value.code == "barred" and "self-excluded" in seat.value.message
    t = registration.create_tournament("Friday", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=50)
    with pytest.raises(ServiceError) as reg:
        registration.register(t.id, player_id=player.pk)
    assert reg.value.code == "barred" and "a year's break" in reg.value.message


def test_a_player_who_may_play_passes_and_a_merged_record_is_judged_by_the_one_kept():
    ok = Player.objects.create(name="Olga")
    check_may_play(ok)  # nothing raised
    kept = bar("Paul Barred", "fight")
    dup = Player.objects.create(name="paul barred", merged_into=kept)
    with pytest.raises(ServiceError):
        check_may_play(dup)


def test_duplicates_are_found_apart_from_case_spacing_and_accents():
    a = Player.objects.create(name="Anna Müller")
    b = Player.objects.create(name="anna  muller")
    Player.objects.create(name="Anna Meier")
    groups = duplicate_groups()
    assert [[p.pk for p in g] for g in groups] == [[a.pk, b.pk]]
    assert {p.pk for p in find_players("MÜL")} == {a.pk, b.pk}


def test_merged_duplicates_keep_all_their_history(floorman):
    _room, game, t1, t2 = room_with_two_tables(floorman, names1=("Anna Müller", "Ben"), names2=("anna  muller", "Emil"))
    keep = Player.objects.get(name="Anna Müller")
    dup = Player.objects.get(name="anna  muller")
    play_hands_at(t1, EVENING, 3, timedelta(minutes=3), timedelta(minutes=2))
    play_hands_at(t2, EVENING + timedelta(hours=2), 2, timedelta(minutes=5), timedelta(minutes=4))
    before = sum(s.hands for s in player_sessions(keep.pk)), sum(s.hands for s in player_sessions(dup.pk))
    assert before == (3, 2)
    moved = merge_players(keep.pk, dup.pk)
    assert moved["hand"] == 2 and moved["seat"] == 1
    dup.refresh_from_db()
    assert dup.merged_into_id == keep.pk
    found = player_sessions(keep.pk)
    assert sum(s.hands for s in found) == 5
    assert {s.table for s in found} == {t1.id, t2.id}
    assert player_sessions(dup.pk) == []
    assert find_players("anna") == [keep]


def test_erase_keeps_the_hands_under_an_anonymous_name(floorman):
    _room, _game, t1, _t2 = room_with_two_tables(floorman)
    anna = Player.objects.get(name="Anna")
    anna.phone, anna.email = "+41 79 000 00 00", "anna@example.org"
    anna.save()
    hands = play_hands_at(t1, EVENING, 2, timedelta(minutes=3), timedelta(minutes=2))
    erase_player(anna.pk)
    anna.refresh_from_db()
    assert (anna.name, anna.phone, anna.email) == (f"Player #{anna.pk}", "", "")
    for hand in Hand.objects.filter(pk__in=[h.pk for h in hands]):
        names = [s["player"] for s in hand.spec["seats"]]
        assert "Anna" not in names and f"Player #{anna.pk}" in names
        shown = [p["player"] for p in hand.snapshot["players"]]
        assert "Anna" not in shown and f"Player #{anna.pk}" in shown
    assert sum(s.hands for s in player_sessions(anna.pk)) == 2
