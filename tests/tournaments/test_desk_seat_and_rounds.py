"""The director's desk, continued: a waiting player seated by hand, desk busts
sharing a hand-for-hand round with the tablets' busts, and the players
changing tables on the floor dashboard.

Rulebooks (shared/seeds): 004 #8 (a late entrant gets a full stack and
"erhält sofort Karten ausser er steigt zwischen Small Blind und Button
ein"), 004 #73 (waitlist), 004 #77 (hand-for-hand), 004 #79 (players out in
the same hand after hand-for-hand "sind gleichwertig zu behandeln"), 004 #33
(a player changing tables)."""

import pytest

from tables import hooks
from tables import services as table_services
from tables.models import Seat
from tables.services import ServiceError
from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import LEVELS, occupied, tables_of
from tournaments import services
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentEvent
from tournaments.services import desk

pytestmark = pytest.mark.django_db


def full_field(rulebook="munotpoker"):
    """20 players in a field of 20 (7, 7, 6) and a 21st on the waitlist."""
    t = services.create_tournament(
        "Seat Cup",
        rulebook,
        {"periods": LEVELS, "late_registration_until": 1},
        starting_stack=10_000,
        buy_in=100,
        capacity=20,
        seed=7,
    )
    for i in range(21):
        services.register(t.id, f"S{i:02d}")
    t = services.start(t.id)
    waiting = Entry.objects.get(tournament=t, status=Entry.Status.WAITLISTED)
    return t, waiting


def free_seat(tt):
    return next(n for n in range(1, 10) if n not in occupied(tt))


def test_a_waiting_player_is_seated_by_hand_with_a_full_stack_004_8():
    t, waiting = full_field()
    short = next(tt for tt in tables_of(t) if len(occupied(tt)) == 6)
    with pytest.raises(ServiceError) as exc:  # the field is full: nothing changes
        desk.desk_seat(t.id, waiting.id, short.number, free_seat(short))
    assert exc.value.code == "invalid" and "full" in exc.value.message
    Tournament.objects.filter(pk=t.id).update(capacity=21)  # the director opens one more place
    seat = free_seat(short)
    out = desk.desk_seat(t.id, waiting.id, short.number, seat, note="arrived with a seat card")
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.SEATED
    assert occupied(short)[seat] == waiting.player.name
    assert Seat.objects.get(table_id=short.table_id, number=seat).stack == 10_000  # 004 #8: full stack
    assert out["rule"] == "004 #8" and "seated by hand" in out["text_en"]
    i = Instruction.objects.filter(tournament=t, kind="move", entry=waiting).get()
    assert (i.to_table, i.to_seat, i.status) == (short.number, seat, "done")  # the tablet is told
    assert desk.desk_log(t)[0]["kind"] == "desk_seat" and desk.desk_log(t)[0]["note"] == "arrived with a seat card"


def test_seating_by_hand_is_undone_and_refuses_a_seated_player_or_a_taken_seat():
    t, waiting = full_field()
    Tournament.objects.filter(pk=t.id).update(capacity=0)
    tt = tables_of(t)[0]
    taken = sorted(occupied(tt))[0]
    seq = Tournament.objects.get(pk=t.id).seq
    with pytest.raises(ServiceError):
        desk.desk_seat(t.id, waiting.id, tt.number, taken)
    seated_one = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).first()
    with pytest.raises(ServiceError) as exc:
        desk.desk_seat(t.id, seated_one.id, tt.number, free_seat(tt))
    assert "move a seated player instead" in exc.value.message
    assert Tournament.objects.get(pk=t.id).seq == seq
    seat = free_seat(tt)
    out = desk.desk_seat(t.id, waiting.id, tt.number, seat)
    desk.desk_undo(t.id, out["seq"], note="wrong player")
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.WAITLISTED and seat not in occupied(tt)


def test_the_action_endpoint_seats_a_waiting_player_with_the_move_form(client, floorman):
    t, waiting = full_field()
    Tournament.objects.filter(pk=t.id).update(capacity=0)
    tt = tables_of(t)[1]
    seat = free_seat(tt)
    client.force_login(floorman)
    body = {"op": "desk_move", "entry": waiting.id, "table": tt.number, "seat": seat, "note": "late"}
    r = client.post(f"/tournaments/{t.id}/action/", body, content_type="application/json")
    assert r.json() == {"ok": True}
    assert occupied(tt)[seat] == waiting.player.name


def _h4h_field():
    t = services.create_tournament(
        "Bubble Cup",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": None},
        starting_stack=10_000,
        buy_in=100,
        seed=7,
    )
    for i in range(20):
        services.register(t.id, f"B{i:02d}")
    t = services.start(t.id)
    services.clock_action(t.id, "hand_for_hand")
    return t


def test_a_desk_bust_shares_the_hand_for_hand_round_with_a_tablet_bust_004_79():
    t = _h4h_field()
    big = [tt for tt in tables_of(t) if len(occupied(tt)) == 7]
    small = next(tt for tt in tables_of(t) if len(occupied(tt)) == 6)
    # table A (a tablet): a player busts in the round's hand -- not placed until the round ends (004 #77)
    bust_hand(big[0].table_id)
    tablet_out = Finish.objects.get(tournament=t)
    assert tablet_out.place is None and tablet_out.h4h_round == 0
    # table B (no tablet): the director enters its bust of the same round, with a smaller stack
    b_entry = Entry.objects.get(tournament=t, player__name=sorted(occupied(big[1]).values())[0])
    out = desk.desk_bust(t.id, [(b_entry.id, 3_000)], note="table 2 has no tablet")
    assert out["busts"][0]["place"] is None and "(004 #79)" in out["text_en"]
    assert Finish.objects.get(entry=b_entry).place is None
    # table C plays its hand: the round is complete, both share places 19-20 and their prizes (004 #79)
    bust_hand(small.table_id, folds_only=True)
    a, b = Finish.objects.get(pk=tablet_out.pk), Finish.objects.get(entry=b_entry)
    assert (a.place, a.place_worst) == (19, 20) == (b.place, b.place_worst)
    assert a.prize == b.prize and a.rule == b.rule == "004 #79"
    t.refresh_from_db()
    assert t.hands_played_h4h == 1  # the clock moved on by one hand (004 #77)


def test_a_desk_bust_at_a_table_without_tablet_counts_its_hand_of_the_round_004_77():
    t = _h4h_field()
    tts = tables_of(t)
    for tt in tts[:2]:
        bust_hand(tt.table_id, folds_only=True)
    t.refresh_from_db()
    assert t.hands_played_h4h == 0  # table 3 has not played
    entry = Entry.objects.get(tournament=t, player__name=sorted(occupied(tts[2]).values())[0])
    desk.desk_bust(t.id, [(entry.id, None)])
    t.refresh_from_db()
    assert t.hands_played_h4h == 1
    f = Finish.objects.get(entry=entry)
    assert f.place == 20 and f.rule == "004 #79"


def test_the_floor_dashboard_lists_the_players_changing_tables_004_33(client, floorman):
    t = services.create_tournament(
        "Move Cup",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": None},
        starting_stack=10_000,
        buy_in=100,
        seed=7,
    )
    for i in range(20):
        services.register(t.id, f"M{i:02d}")
    t = services.start(t.id)
    short = next(tt for tt in tables_of(t) if len(occupied(tt)) == 6)
    entry = Entry.objects.get(tournament=t, player__name=sorted(occupied(short).values())[0])
    desk.desk_bust(t.id, [(entry.id, None)])  # 7, 7, 5: one player moves to the short table (004 #11)
    moves = hooks.pending_moves()
    assert len(moves) == 1
    m = moves[0]
    assert m["to"]["table"] == short.number and m["to"]["table_id"] == short.table_id
    assert m["status"] == "moving" and m["event"] == "Move Cup" and m["rule"] == "004 #11"
    client.force_login(floorman)
    body = client.get("/floor/moves/").json()
    assert body["ok"] and [x["id"] for x in body["moves"]] == [m["id"]]
    page = client.get("/floor/").content.decode()
    assert 'id="floor-moves"' in page and "/floor/moves/" in page
    # the floor confirms the arrival where the dashboard says: the move is done and leaves the list
    r = client.post(m["confirm_url"], {"op": "confirm_move", "instruction": m["id"]}, content_type="application/json")
    assert r.json() == {"ok": True}
    assert hooks.pending_moves() == []
    assert TournamentEvent.objects.filter(tournament=t, kind="move_confirmed", payload__side="director").exists()


def test_the_floor_moves_endpoint_is_for_the_floor_only(client, outsider):
    client.force_login(outsider)
    assert client.get("/floor/moves/").status_code == 403


def test_a_seat_change_at_one_table_is_confirmed_once_by_its_tablet_004_33():
    t = services.create_tournament(
        "Redraw Cup",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": None},
        starting_stack=10_000,
        buy_in=100,
        seed=7,
    )
    for i in range(6):
        services.register(t.id, f"R{i:02d}")
    t = services.start(t.id)
    (tt,) = tables_of(t)
    seat, name = sorted(occupied(tt).items())[0]
    entry = Entry.objects.get(tournament=t, player__name=name)
    out = desk.desk_move(t.id, entry.id, tt.number, free_seat(tt), note="wrong seat card")
    (shown,) = desk.table_moves(tt.table_id)["moves"]
    assert shown["side"] == "to" and shown["status"] == "moving"
    desk.confirm_at_table(tt.table_id, out["instruction"])  # one tablet saw him leave and arrive
    assert Instruction.objects.get(pk=out["instruction"]).status == "done"
    assert desk.table_moves(tt.table_id)["moves"] == []


def test_a_table_without_tablet_reports_its_hand_for_hand_hand_at_the_desk_004_77(client, floorman):
    t = _h4h_field()
    tts = tables_of(t)
    for tt in tts[:2]:
        bust_hand(tt.table_id, folds_only=True)
    with pytest.raises(ServiceError) as exc:  # table 1 waits for the round (004 #77)
        table_services.start_hand(tts[0].table_id)
    assert exc.value.code == "hand_for_hand_wait"
    with pytest.raises(ServiceError) as exc:
        desk.desk_hand_played(t.id, tts[0].number)  # its tablet counted it already
    assert exc.value.code == "invalid" and "(004 #77)" in exc.value.message
    client.force_login(floorman)
    body = {"op": "desk_hand_played", "table": tts[2].number, "note": "table 3 has no tablet"}
    r = client.post(f"/tournaments/{t.id}/action/", body, content_type="application/json")
    assert r.json() == {"ok": True}
    t.refresh_from_db()
    assert t.hands_played_h4h == 1  # the round is complete: the next one may start
    table_services.start_hand(tts[0].table_id)
    log = desk.desk_log(t)
    assert log[0]["kind"] == "desk_hand_played" and log[0]["rule"] == "004 #77" and not log[0]["can_undo"]


def test_a_hand_played_at_the_desk_needs_hand_for_hand():
    t = services.create_tournament(
        "Plain Cup",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": None},
        starting_stack=10_000,
        buy_in=100,
        seed=7,
    )
    for i in range(6):
        services.register(t.id, f"H{i:02d}")
    t = services.start(t.id)
    with pytest.raises(ServiceError) as exc:
        desk.desk_hand_played(t.id, 1)
    assert exc.value.code == "invalid"
    assert Tournament.objects.get(pk=t.id).seq == t.seq
