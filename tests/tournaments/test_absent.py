"""Absent players at tournament tables: 001 Sitzverteilung (with 6.14) and
004 #30 (at your seat).  The tablet marks a player away; his stack stays in
play: cards dealt, blinds and antes posted, hand dead -- citing the
tournament's rule, not the cash rule (000 Allgemein 6)."""

import json

import pytest

from tables import services as table_services
from tables.models import Hand, HandEvent, Seat, Table
from tables.services import ServiceError
from tests.tournaments.play import _state, bust_hand
from tests.tournaments.test_services import make, occupied, tables_of
from tournaments import services
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def blinds_of_first_hand(tt):
    """(small blind seat, big blind seat) of the first hand: button on seat 1
    (004 #75) or the drawn button (001 Dealerbutton)."""
    seats = sorted(occupied(tt))
    button = tt.first_button or 1
    after = [s for s in seats if s > button] + [s for s in seats if s <= button]
    return after[0], after[1]


def kills(table_id):
    hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
    return [
        e.payload
        for e in HandEvent.objects.filter(hand=hand, kind="action").order_by("index")
        if e.payload.get("type") == "kill"
    ]


def test_004_30_the_absent_big_blind_posts_and_his_hand_is_dead():
    t = make("munotpoker", players=4)
    tt = tables_of(t)[0]
    sb, bb = blinds_of_first_hand(tt)
    state = services.set_absent(tt.table_id, bb, True)
    assert state["seats"] == [bb] and state["rule"] == "004 #30" and state["rule_label"] == "004 #30"
    table_services.start_hand(tt.table_id)
    [kill] = kills(tt.table_id)
    assert kill["seat"] == bb and kill["reason"] == "absent"
    assert [c["label"] for c in kill["citations"]] == ["004 #30"]
    me = next(p for p in _state(tt.table_id)["players"] if p["seat"] == bb)
    assert me["folded"] and me["bet"] == 200  # the big blind was posted, then the hand killed
    event = TournamentEvent.objects.get(tournament=t, kind="absent")
    assert event.payload["seat"] == bb and event.payload["rule"] == "004 #30"


def test_001_sitzverteilung_an_absent_player_is_dealt_in_and_folded():
    t = make("wynental", players=4)
    tt = tables_of(t)[0]
    sb, _ = blinds_of_first_hand(tt)
    services.set_absent(tt.table_id, sb, True)
    table_services.start_hand(tt.table_id)
    [kill] = kills(tt.table_id)
    assert kill["seat"] == sb
    assert [c["label"] for c in kill["citations"]] == ["001 Sitzverteilung", "001 6.14"]
    me = next(p for p in _state(tt.table_id)["players"] if p["seat"] == sb)
    assert me["folded"] and me["bet"] == 100


def test_back_at_the_seat_he_plays_again_and_marking_twice_changes_nothing():
    t = make("munotpoker", players=4)
    tt = tables_of(t)[0]
    _, bb = blinds_of_first_hand(tt)
    services.set_absent(tt.table_id, bb, True)
    seq = Tournament.objects.get(pk=t.pk).seq
    services.set_absent(tt.table_id, bb, True)
    assert Tournament.objects.get(pk=t.pk).seq == seq  # no second event
    services.set_absent(tt.table_id, bb, False)
    assert not Seat.objects.get(table_id=tt.table_id, number=bb).absent
    table_services.start_hand(tt.table_id)
    assert kills(tt.table_id) == []


def test_an_absent_player_blinded_out_busts_and_is_placed_004_30(django_capture_on_commit_callbacks):
    t = make("munotpoker", players=3)
    tt = tables_of(t)[0]
    _, bb = blinds_of_first_hand(tt)
    victim = Seat.objects.get(table_id=tt.table_id, number=bb)
    table_services.set_seat(tt.table_id, bb, player_id=victim.player_id, stack=100)  # all in with the big blind
    services.set_absent(tt.table_id, bb, True)
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(tt.table_id, folds_only=True)
    entry = Entry.objects.get(tournament=t, player_id=victim.player_id)
    finish = Finish.objects.get(entry=entry)
    assert entry.status == "busted" and finish.place == 3 and finish.stack_at_start == 100
    assert finish.prize == services.payout_table_of(t).prize(3)
    seat = Seat.objects.get(table_id=tt.table_id, number=bb)
    assert seat.player_id is None and not seat.absent  # the next player there is not absent


def test_an_absent_player_moved_by_balancing_stays_absent(django_capture_on_commit_callbacks):
    t = make("munotpoker", players=20)
    short = next(tt for tt in tables_of(t) if len(occupied(tt)) == 6)
    full = [tt for tt in tables_of(t) if tt != short]
    for tt in full:
        for seat in occupied(tt):
            services.set_absent(tt.table_id, seat, True)
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(short.table_id)
    move = Instruction.objects.get(tournament=t, kind="move")
    assert move.status == "moving"  # seated, waiting for the tablets (004 #33)
    dst = next(tt for tt in tables_of(t) if tt.number == move.to_table)
    src = next(tt for tt in tables_of(t) if tt.number == move.from_table)
    assert Seat.objects.get(table_id=dst.table_id, number=move.to_seat).absent
    assert not Seat.objects.get(table_id=src.table_id, number=move.from_seat).absent


def test_the_tablet_is_told_which_seats_are_absent(monkeypatch):
    sent = []
    monkeypatch.setattr(
        services.writes, "send_on_commit", lambda groups, payload, **meta: sent.append((groups, payload))
    )
    t = make("munotpoker", players=4)
    tt = tables_of(t)[0]
    seat = sorted(occupied(tt))[1]
    services.set_absent(tt.table_id, seat, True)
    assert sent[-1] == ([f"table.{tt.table_id}"], {"type": "absent", "table_id": tt.table_id, "seats": [seat]})


def test_bad_requests_change_nothing():
    t = make("munotpoker", players=4)
    tt = tables_of(t)[0]
    empty = next(n for n in range(1, 10) if n not in occupied(tt))
    seq = Tournament.objects.get(pk=t.pk).seq
    for seat, code in ((empty, "empty_seat"), (42, "no_such_seat")):
        with pytest.raises(ServiceError) as exc:
            services.set_absent(tt.table_id, seat, True)
        assert exc.value.code == code
    cash = table_services.create_table("Cash", small_blind=1, big_blind=2)
    with pytest.raises(ServiceError) as exc:
        services.set_absent(cash.id, 1, True)
    assert exc.value.code == "not_found"
    assert Tournament.objects.get(pk=t.pk).seq == seq
    assert not Seat.objects.filter(table_id=tt.table_id, absent=True).exists()


def test_the_tablet_endpoint_for_the_tables_dealer_and_the_floor(client, dealer, other_dealer, floorman):
    t = make("munotpoker", players=4)
    tt = tables_of(t)[0]
    Table.objects.filter(pk=tt.table_id).update(dealer=dealer)
    url = f"/tournaments/tables/{tt.table_id}/absent/"
    client.force_login(other_dealer)
    assert client.get(url).status_code == 403
    assert client.post(url, json.dumps({"seat": 1, "absent": True}), content_type="application/json").status_code == 403
    client.force_login(dealer)
    body = client.get(url).json()
    assert body["ok"] and body["seats"] == [] and body["rule"] == "004 #30" and body["labels"]["away"]
    body = client.post(url, json.dumps({"seat": 1, "absent": True}), content_type="application/json").json()
    assert body["ok"] and body["seats"] == [1]
    bad = client.post(url, json.dumps({"seat": "one", "absent": True}), content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    client.force_login(floorman)
    body = client.post(url, json.dumps({"seat": 1, "absent": False}), content_type="application/json").json()
    assert body["seats"] == []
    cash = table_services.create_table("Cash", small_blind=1, big_blind=2)
    assert client.get(f"/tournaments/tables/{cash.id}/absent/").status_code == 404


def test_the_director_sees_who_is_absent():
    t = make("munotpoker", players=4)
    tt = tables_of(t)[0]
    services.set_absent(tt.table_id, 1, True)
    snap = services.snapshot(Tournament.objects.get(pk=t.pk))
    seats = {s["seat"]: s["absent"] for s in snap["tables"][0]["seats"]}
    assert seats[1] is True and not any(v for k, v in seats.items() if k != 1)


def test_a_cash_table_still_cites_000_allgemein_6():
    """Regression: the rule follows the table's house-rule profile; cash tables keep 000 Allgemein 6."""
    table = table_services.create_table("Cash", small_blind=1, big_blind=2, rules_profile="casino-cash")
    for seat in (1, 2, 3):
        table_services.seat_player(table.id, seat, f"C{seat}", 200)
    Seat.objects.filter(table=table, number=3).update(absent=True)
    table_services.start_hand(table.id)
    [kill] = kills(table.id)
    assert kill["seat"] == 3 and [c["label"] for c in kill["citations"]] == ["000 Allgemein 6"]
