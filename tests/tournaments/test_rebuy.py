"""A rebuy right after a bust (004 #27: "Innerhalb eines Rebuy-Turniers
(entspricht nicht Re-entry) muss ein Rebuy unmittelbar folgen.  Es darf keine
Hand verpasst werden und der Spieler muss auch unmittelbar wieder
Blinds/Antes setzen.").  A player who loses his last chip in a rebuy
tournament keeps his seat with 0 chips until he rebuys; if his table's next
hand starts without it, or the director records "No rebuy", he is out like
any bust, placed by his stack at the start of the hand he lost (001 Ende des
Turniers / 003).  A re-entry tournament (004 #72) and a tournament without
rebuys (001 Re-buy/Add-on) bust him at once, as before."""

import json

import pytest

from tables import services as table_services
from tables.models import Seat, Table
from tables.services import ServiceError, spec_from_dict
from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import LEVELS, tables_of
from tournaments import services
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentEvent, TournamentTable

pytestmark = pytest.mark.django_db


def running(rulebook="munotpoker", players=4, **kw):
    t = services.create_tournament(
        "Rebuy",
        rulebook,
        {"periods": LEVELS, "late_registration_until": 1},
        starting_stack=10_000,
        buy_in=100,
        seed=5,
        **kw,
    )
    for i in range(players):
        services.register(t.id, f"P{i}")
    services.start(t.id)
    return Tournament.objects.get(pk=t.pk)


def lose_all(t):
    """Play one hand at the first table in which one player loses his chips; return (entry, seat, table id)."""
    table_id = tables_of(t)[0].table_id
    before = dict(Seat.objects.filter(table_id=table_id, player__isnull=False).values_list("number", "stack"))
    bust_hand(table_id)
    seat = Seat.objects.get(table_id=table_id, player__isnull=False, stack=0)
    entry = Entry.objects.get(tournament=t, player_id=seat.player_id)
    assert before[seat.number] == 10_000
    return entry, seat.number, table_id


def registration(t, entry):
    snap = services.snapshot(Tournament.objects.get(pk=t.pk))
    return next(r for r in snap["registrations"] if r["id"] == entry.id)


def test_004_27_bust_then_rebuy_is_dealt_into_the_next_hand_and_posts_his_blinds():
    t = running(rebuys_allowed=1)
    entry, seat, table_id = lose_all(t)
    entry.refresh_from_db()
    # not out: still seated with 0 chips, no finish, the director and the tablet are told
    assert entry.status == "seated" and entry.rebuy_pending
    assert not Finish.objects.filter(entry=entry).exists()
    assert Seat.objects.get(table_id=table_id, number=seat).player_id == entry.player_id
    reg = registration(t, entry)
    assert reg["rebuy_pending"] and reg["can"]["rebuy"] and not reg["can"]["add_on"]
    i = Instruction.objects.get(tournament=t, kind="rebuy", entry=entry)
    assert i.status == "pending" and "may rebuy now" in i.text_en and "004 #27" in i.text_en
    assert services.snapshot(Tournament.objects.get(pk=t.pk))["players_left"] == 4

    services.rebuy(entry.id)
    entry.refresh_from_db()
    assert entry.rebuys == 1 and not entry.rebuy_pending
    assert Seat.objects.get(table_id=table_id, number=seat).stack == 10_000  # same seat, full stack
    assert Instruction.objects.get(pk=i.pk).status == "done"
    # he misses no hand: dealt into every following hand, and posts the big blind when it reaches him
    posted_big_blind = False
    for _ in range(4):
        bust_hand(table_id, folds_only=True)
        table = Table.objects.select_related("current_hand").get(pk=table_id)
        spec = spec_from_dict(table.current_hand.spec)
        blinds = dict(zip((s.seat for s in spec.seats), spec.blinds_or_straddles))
        assert seat in blinds
        if TournamentTable.objects.get(table_id=table_id).positions["big_blind"] == seat:
            assert blinds[seat] == 200
            posted_big_blind = True
    assert posted_big_blind
    assert not Finish.objects.filter(entry=entry).exists()


def test_004_27_next_hand_without_his_rebuy_records_the_bust_with_his_place():
    t = running(rebuys_allowed=1)
    entry, seat, table_id = lose_all(t)
    bust_hand_id = Table.objects.get(pk=table_id).current_hand_id
    table_services.start_hand(table_id)
    entry.refresh_from_db()
    assert entry.status == "busted" and not entry.rebuy_pending
    f = Finish.objects.get(entry=entry)
    # placed as a bust of the hand he lost: 4 players were left, his stack at its start was 10 000
    assert (f.place, f.place_worst, f.stack_at_start, f.hand_id) == (4, 4, 10_000, bust_hand_id)
    table = Table.objects.select_related("current_hand").get(pk=table_id)
    assert seat not in {s.seat for s in spec_from_dict(table.current_hand.spec).seats}
    assert TournamentEvent.objects.filter(tournament=t, kind="rebuy_lapsed").exists()
    assert Instruction.objects.get(tournament=t, kind="rebuy", entry=entry).status == "done"
    with pytest.raises(ServiceError) as exc:
        services.rebuy(entry.id)
    assert exc.value.code == "invalid"


def test_004_27_director_records_no_rebuy_and_the_bust_is_recorded(client, floorman):
    t = running(rebuys_allowed=1)
    entry, _seat, _table_id = lose_all(t)
    client.force_login(floorman)
    answer = client.post(
        f"/tournaments/{t.id}/action/",
        json.dumps({"op": "no_rebuy", "entry": entry.id}),
        content_type="application/json",
    )
    assert answer.json() == {"ok": True}
    entry.refresh_from_db()
    assert entry.status == "busted" and not entry.rebuy_pending
    f = Finish.objects.get(entry=entry)
    assert (f.place, f.stack_at_start) == (4, 10_000)
    reg = registration(t, entry)
    assert not reg["rebuy_pending"] and not reg["can"]["rebuy"]
    assert services.snapshot(Tournament.objects.get(pk=t.pk))["players_left"] == 3
    # a second "No rebuy" is refused and changes nothing
    seq = Tournament.objects.get(pk=t.pk).seq
    answer = client.post(
        f"/tournaments/{t.id}/action/",
        json.dumps({"op": "no_rebuy", "entry": entry.id}),
        content_type="application/json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert Tournament.objects.get(pk=t.pk).seq == seq


def test_004_27_no_rebuy_in_heads_up_makes_the_other_player_the_winner():
    t = running(players=2, rebuys_allowed=1)
    entry, _seat, table_id = lose_all(t)
    with pytest.raises(ServiceError) as exc:  # one player with chips: no hand until he decides
        table_services.start_hand(table_id)
    assert exc.value.code == "not_enough_players"
    services.decline_rebuy(entry.id)
    t.refresh_from_db()
    assert t.status == "finished"
    assert Finish.objects.get(entry=entry).place == 2
    assert Finish.objects.get(tournament=t, place=1).entry_id != entry.id


@pytest.mark.parametrize(
    "rulebook, kw",
    [
        ("munotpoker", {"re_entries_allowed": 1}),  # re-entry tournament (004 #72)
        ("munotpoker", {"re_entries_allowed": 1, "rebuys_allowed": 1}),  # re-entries: "entspricht nicht Re-entry"
        ("wynental", {}),  # 001 Re-buy/Add-on: none unless provided
    ],
)
def test_004_27_without_a_rebuy_tournament_the_bust_is_recorded_at_once(rulebook, kw):
    t = running(rulebook, **kw)
    table_id = tables_of(t)[0].table_id
    bust_hand(table_id)
    entry = Entry.objects.get(tournament=t, status="busted")
    assert not entry.rebuy_pending and Finish.objects.get(entry=entry).place == 4
    assert not Instruction.objects.filter(tournament=t, kind="rebuy").exists()


def test_004_27_no_rebuy_offered_after_the_rebuy_period():
    t = running(rebuys_allowed=1)
    services.clock_action(t.id, "jump", level=3)  # past late registration: no new stacks (004 #27)
    table_id = tables_of(t)[0].table_id
    bust_hand(table_id)
    assert Entry.objects.filter(tournament=t, status="busted").count() == 1
    assert not Entry.objects.filter(tournament=t, rebuy_pending=True).exists()


def test_004_27_a_player_with_no_rebuy_left_busts_at_once():
    t = running(rebuys_allowed=1)
    for e in Entry.objects.filter(tournament=t):
        services.rebuy(e.id)  # each uses his one rebuy while seated
    bust_hand(tables_of(t)[0].table_id)
    assert Entry.objects.filter(tournament=t, status="busted").count() == 1
    assert not Entry.objects.filter(tournament=t, rebuy_pending=True).exists()
