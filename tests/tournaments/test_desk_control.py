"""The director's desk: busts, chips, moves and breaks entered by hand, each
with its audit trail and undo; moves confirmed by the tablets.

Rulebooks (shared/seeds): 001 Ende des Turniers and 003 Ausscheiden mehrerer
Spieler (simultaneous busts placed by the stack at the start of the hand),
004 #79 (busts of one hand share after hand-for-hand), 004 #64 (found
chips), 004 #71 / 001 6.37 (penalties, disqualification), 004 #10
(breaking), 004 #33 (a player changing tables)."""

import pytest

from tables import services as table_services
from tables.models import Hand, Seat
from tables.services import ServiceError
from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import make, occupied, tables_of
from tournaments import services
from tournaments.models import Entry, Finish, Instruction, TournamentEvent
from tournaments.services import desk

pytestmark = pytest.mark.django_db


def seated(t, tt):
    """``{seat: entry}`` of one table."""
    players = dict(Seat.objects.filter(table_id=tt.table_id, player__isnull=False).values_list("player_id", "number"))
    return {
        players[e.player_id]: e
        for e in Entry.objects.filter(tournament=t, status=Entry.Status.SEATED, player_id__in=players)
    }


def stack(tt, seat):
    return Seat.objects.get(table_id=tt.table_id, number=seat).stack


def test_a_desk_bust_places_the_player_and_he_leaves_the_felt_at_once():
    t = make(players=20)
    tt = max(tables_of(t), key=lambda x: len(occupied(x)))  # 7, 6, 7 after the bust: nobody moves in
    seat, entry = sorted(seated(t, tt).items())[0]
    out = desk.desk_bust(t.id, [(entry.id, None)], note="table 1 has no tablet")
    finish = Finish.objects.get(entry=entry)
    assert finish.place == 20 and out["busts"][0]["place"] == 20
    assert seat not in occupied(tt)  # off the felt now, not after the next hand
    ev = TournamentEvent.objects.get(tournament=t, kind="desk_bust")
    assert ev.payload["note"] == "table 1 has no tablet" and "Bust recorded at the desk" in ev.payload["text_en"]


def test_simultaneous_desk_busts_are_ranked_by_the_starting_stack_001_003():
    t = make("wynental", players=12)
    tt = tables_of(t)[0]
    (s1, a), (s2, b) = sorted(seated(t, tt).items())[:2]
    desk.desk_bust(t.id, [(a.id, 4000), (b.id, 9000)])
    # 001 Ende des Turniers: "derjenige besser klassiert, welcher vor dem Ausscheiden den höheren Chipstack hatte"
    assert Finish.objects.get(entry=b).place == 11
    assert Finish.objects.get(entry=a).place == 12
    assert Finish.objects.get(entry=a).rule == "001 Ende des Turniers"


def test_desk_busts_share_after_hand_for_hand_004_79():
    t = make(players=20)
    services.clock_action(t.id, "hand_for_hand")
    tt = tables_of(t)[0]
    (s1, a), (s2, b) = sorted(seated(t, tt).items())[:2]
    desk.desk_bust(t.id, [(a.id, 4000), (b.id, 9000)])
    # placed once every table has played the round's hand (004 #77)
    assert Finish.objects.get(entry=a).place is None
    for other in tables_of(t):  # 18 left: table 1 breaks (004 #10), tables 2 and 3 play on
        bust_hand(other.table_id, folds_only=True)
    fa, fb = Finish.objects.get(entry=a), Finish.objects.get(entry=b)
    assert (fa.place, fa.place_worst) == (19, 20) == (fb.place, fb.place_worst)
    assert fa.prize == fb.prize and fa.rule == "004 #79"


def test_undo_of_a_desk_bust_seats_the_player_again_with_his_chips():
    t = make(players=20)
    tt = max(tables_of(t), key=lambda x: len(occupied(x)))
    seat, entry = sorted(seated(t, tt).items())[0]
    out = desk.desk_bust(t.id, [(entry.id, None)])
    desk.desk_undo(t.id, out["seq"], note="wrong player")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.SEATED and not Finish.objects.filter(entry=entry).exists()
    assert occupied(tt)[seat] == entry.player.name and stack(tt, seat) == 10_000
    with pytest.raises(ServiceError):  # once only
        desk.desk_undo(t.id, out["seq"])
    log = desk.desk_log(t)
    assert log[0]["kind"] == "desk_undone" and log[0]["note"] == "wrong player"
    assert log[1]["undone"] and not log[1]["can_undo"]


def test_chips_found_are_taken_out_with_the_reason_and_undone_004_64():
    t = make(players=20)
    tt = tables_of(t)[0]
    seat, entry = sorted(seated(t, tt).items())[0]
    out = desk.desk_chips(t.id, entry.id, -500, "found_chips", note="chips on the floor")
    assert stack(tt, seat) == 9_500 and out["rule"] == "004 #64"
    assert "(004 #64)" in out["text_en"]
    desk.desk_chips(t.id, entry.id, 300, "correction", note="miscount")
    assert stack(tt, seat) == 9_800
    desk.desk_undo(t.id, out["seq"])
    assert stack(tt, seat) == 10_300
    with pytest.raises(ServiceError):  # more than he has: nothing changes
        desk.desk_chips(t.id, entry.id, -20_000, "penalty")
    assert stack(tt, seat) == 10_300


def test_a_disqualification_takes_all_chips_and_the_player_out_001_6_37():
    t = make("wynental", players=12)
    tt = tables_of(t)[0]
    seat, entry = sorted(seated(t, tt).items())[0]
    out = desk.desk_chips(t.id, entry.id, 0, "dq", note="chip dumping")
    assert out["rule"] == "001 6.37" and out["stack_before"] == 10_000
    entry.refresh_from_db()
    assert entry.status == Entry.Status.BUSTED and seat not in occupied(tt)
    desk.desk_undo(t.id, out["seq"])
    entry.refresh_from_db()
    assert entry.status == Entry.Status.SEATED and stack(tt, seat) == 10_000


def test_a_bust_with_a_later_bust_cannot_be_undone_first():
    t = make(players=20)
    tt = tables_of(t)[0]
    (s1, a), (s2, b) = sorted(seated(t, tt).items())[:2]
    first = desk.desk_bust(t.id, [(a.id, None)])
    desk.desk_bust(t.id, [(b.id, None)])
    with pytest.raises(ServiceError) as exc:
        desk.desk_undo(t.id, first["seq"])
    assert exc.value.code == "invalid"
    assert Entry.objects.get(pk=a.pk).status == Entry.Status.BUSTED


def test_a_hand_move_waits_for_both_tablets_and_the_player_is_dealt_in_at_neither_table_004_33():
    t = make(players=20)
    src, dst = tables_of(t)[0], tables_of(t)[1]
    seat, entry = sorted(seated(t, src).items())[0]
    free = next(n for n in range(1, 10) if n not in occupied(dst))
    out = desk.desk_move(t.id, entry.id, dst.number, free, note="wrong seat")
    i = Instruction.objects.get(pk=out["instruction"])
    assert i.status == "moving"  # seated at the new table, not yet confirmed
    assert occupied(dst)[free] == entry.player.name
    for tt in (src, dst):
        table_services.start_hand(tt.table_id)
        spec = Hand.objects.filter(table_id=tt.table_id).order_by("-number").first().spec
        assert entry.player.name not in [s["player"] for s in spec["seats"]]
    desk.confirm_at_table(src.table_id, i.id)
    assert Instruction.objects.get(pk=i.pk).status == "moving"  # one tablet is not enough
    desk.confirm_at_table(dst.table_id, i.id)
    assert Instruction.objects.get(pk=i.pk).status == "done"
    sides = set(
        TournamentEvent.objects.filter(tournament=t, kind="move_confirmed").values_list("payload__side", flat=True)
    )
    assert sides == {"from", "to"}


def test_a_balancing_move_stays_pending_until_confirmed_and_blocks_dealing_that_player():
    t = make(players=20)
    short = next(tt for tt in tables_of(t) if len(occupied(tt)) == 6)
    bust_hand(short.table_id)
    services.execute_moves(t.id)
    move = Instruction.objects.get(tournament=t, kind="move")
    assert move.status == "moving"
    assert [m["id"] for m in desk.desk_state(t.id)["moves"]] == [move.id]
    table_services.start_hand(short.table_id)
    spec = Hand.objects.filter(table_id=short.table_id).order_by("-number").first().spec
    assert move.entry.player.name not in [s["player"] for s in spec["seats"]]
    desk.confirm_move(move.id, "director")
    assert Instruction.objects.get(pk=move.pk).status == "done"
    assert desk.desk_state(t.id)["moves"] == []


def test_a_table_broken_by_hand_moves_its_players_and_the_undo_brings_them_back_004_10():
    t = make(players=19, late_until=1)  # 7, 6, 6; late registration open: no automatic break (004 #10 b)
    big = max(tables_of(t), key=lambda x: len(occupied(x)))
    desk.desk_bust(t.id, [(sorted(seated(t, big).items())[0][1].id, None)])  # 6, 6, 6
    two = tables_of(t)[1]
    before = occupied(two)
    out = desk.desk_break(t.id, two.number, note="dealer ill")
    assert out["rule"] == "004 #10" and len(out["instructions"]) == 6
    assert occupied(two) == {} and all(len(occupied(x)) == 9 for x in tables_of(t))
    assert all(i.status == "moving" for i in Instruction.objects.filter(pk__in=out["instructions"]))
    desk.desk_undo(t.id, out["seq"], note="dealer back")
    assert occupied(two) == before and all(len(occupied(x)) == 6 for x in tables_of(t))


def test_bad_desk_input_changes_nothing():
    t = make(players=20)
    tt = tables_of(t)[0]
    seat, entry = sorted(seated(t, tt).items())[0]
    seq = t.seq
    with pytest.raises(ServiceError):
        desk.desk_chips(t.id, entry.id, 100, "bribe")
    with pytest.raises(ServiceError):
        desk.desk_move(t.id, entry.id, tt.number, sorted(occupied(tt))[1])  # a taken seat
    with pytest.raises(ServiceError):
        desk.desk_bust(t.id, [(entry.id, None), (entry.id, None)])
    t.refresh_from_db()
    assert t.seq == seq and stack(tt, seat) == 10_000


def test_the_desk_and_the_tablet_endpoints(client, floorman, outsider):
    t = make(players=20)
    short = next(tt for tt in tables_of(t) if len(occupied(tt)) == 6)
    seat, entry = sorted(seated(t, short).items())[0]
    client.force_login(outsider)
    assert client.get(f"/tournaments/{t.id}/desk/").status_code == 403
    assert client.get(f"/tournaments/tables/{short.table_id}/moves/").status_code == 403
    client.force_login(floorman)
    body = {"op": "desk_bust", "busts": [{"entry": entry.id, "stack_at_start": 10_000}], "note": "no tablet"}
    r = client.post(f"/tournaments/{t.id}/action/", body, content_type="application/json")
    assert r.json() == {"ok": True}
    bad = {"op": "desk_chips", "entry": entry.id, "amount": 5, "reason": "bribe"}
    r = client.post(f"/tournaments/{t.id}/action/", bad, content_type="application/json")
    assert r.status_code == 400 and r.json()["field"] == "reason"
    state = client.get(f"/tournaments/{t.id}/desk/").json()
    assert state["log"][0]["kind"] == "desk_bust" and state["log"][0]["actor"] == "floor"
    move = state["moves"][0]  # balancing after the bust (004 #11): 7, 7, 5
    tablet = client.get(f"/tournaments/tables/{short.table_id}/moves/").json()
    assert tablet["moves"][0]["side"] == "to" and tablet["labels"]["confirm_arrived"] == "Confirm: has arrived"
    r = client.post(
        f"/tournaments/tables/{short.table_id}/moves/", {"instruction": move["id"]}, content_type="application/json"
    )
    assert r.json()["moves"][0]["confirmed"] == ["to"]
    r = client.post(
        f"/tournaments/{t.id}/action/",
        {"op": "confirm_move", "instruction": move["id"]},
        content_type="application/json",
    )
    assert r.json() == {"ok": True} and Instruction.objects.get(pk=move["id"]).status == "done"
    r = client.post(
        f"/tournaments/{t.id}/action/",
        {"op": "absent", "table": short.number, "seat": 99, "absent": True},
        content_type="application/json",
    )
    assert r.status_code == 400
