"""Tournament services on the real database: hands go through tables.services.

Rulebooks: 001 = Wynental, 004 = MunotPoker (shared/seeds)."""

import time

import pytest

from tables import services as table_services
from tables.models import Hand, Seat
from tables.services import ServiceError
from tests.tournaments.play import bust_hand
from tournaments import services
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentTable
from tournaments.services.moves import confirm_move

pytestmark = pytest.mark.django_db

LEVELS = [
    {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
    {"kind": "level", "small_blind": 200, "big_blind": 400, "ante": 400, "ante_kind": "big_blind_ante", "minutes": 20},
    {"kind": "break", "minutes": 10, "color_up": [100]},
    {"kind": "level", "small_blind": 300, "big_blind": 600, "minutes": 20},
]


def make(rulebook="munotpoker", players=20, late_until=None, **kw):
    t = services.create_tournament(
        "Test",
        rulebook,
        {"periods": LEVELS, "late_registration_until": late_until},
        starting_stack=10_000,
        buy_in=100,
        seed=7,
        **kw,
    )
    for i in range(players):
        services.register(t.id, f"P{i:02d}")
    return services.start(t.id)


def tables_of(t):
    return list(TournamentTable.objects.filter(tournament=t, broken=False).order_by("number"))


def occupied(tt):
    return dict(Seat.objects.filter(table_id=tt.table_id, player__isnull=False).values_list("number", "player__name"))


def test_it_draws_seats_and_puts_the_first_button_on_seat_one_004_7_75():
    t = make()
    tts = tables_of(t)
    assert sorted(len(occupied(tt)) for tt in tts) == [6, 7, 7]
    assert all(1 in occupied(tt) for tt in tts)
    assert {tt.table.rules_profile for tt in tts} == {"munotpoker"}
    table_services.start_hand(tts[0].table_id)
    hand = Hand.objects.get(table_id=tts[0].table_id)
    assert hand.spec["button_seat"] == 1
    assert Entry.objects.filter(tournament=t, status="seated").count() == 20


def test_it_draws_the_first_button_under_001_dealerbutton():
    t = make("wynental", players=12)
    for tt in tables_of(t):
        assert tt.first_button in occupied(tt)
        table_services.start_hand(tt.table_id)
        assert Hand.objects.get(table_id=tt.table_id).spec["button_seat"] == tt.first_button


def test_a_bust_is_placed_and_balancing_moves_the_big_blind_to_the_worst_seat_004_11():
    t = make(players=20)
    tts = tables_of(t)
    full = [tt for tt in tts if len(occupied(tt)) == 7]
    short = next(tt for tt in tts if len(occupied(tt)) == 6)
    bust_hand(short.table_id)
    finish = Finish.objects.get(tournament=t)
    assert finish.place == 20 and finish.rule == ""  # one player out: no rule on several out applies (issue 23)
    # 7, 7, 5: the difference of two triggers one move from a full table (004 #11)
    move = Instruction.objects.get(tournament=t, kind="move")
    assert move.rule == "004 #11" and move.to_table == short.number
    assert move.from_table in {tt.number for tt in full}
    src = next(tt for tt in full if tt.number == move.from_table)
    if move.status == "pending":  # the source table has not played yet: plays a hand first? no: it is idle
        services.execute_moves(t.id)
        move.refresh_from_db()
    assert move.status == "moving"  # seated at the new table, dealt in nowhere until confirmed (004 #33)
    assert confirm_move(move.id, "director").status == "done"
    assert occupied(short)[move.to_seat] == move.entry.player.name
    assert move.from_seat not in occupied(src)
    # never into the small blind: the next hand at the short table
    table_services.start_hand(short.table_id)
    spec = Hand.objects.filter(table_id=short.table_id).order_by("-number").first().spec
    posted_sb = [s["seat"] for s, b in zip(spec["seats"], spec["blinds_or_straddles"]) if b == 100]
    assert move.to_seat not in posted_sb


def test_a_move_waits_until_the_source_table_finishes_its_hand(django_capture_on_commit_callbacks):
    t = make(players=20)
    tts = tables_of(t)
    short = next(tt for tt in tts if len(occupied(tt)) == 6)
    for tt in tts:
        if tt != short:
            table_services.start_hand(tt.table_id)
    bust_hand(short.table_id)
    move = Instruction.objects.get(tournament=t, kind="move")
    assert move.status == "pending"
    src = TournamentTable.objects.get(tournament=t, number=move.from_table)
    from tests.tournaments.play import _state

    with pytest.raises(ServiceError) as exc:  # the source table may not deal on before the move
        Instruction.objects.filter(pk=move.pk)  # (its hand is still live)
        table_services.start_hand(src.table_id)
    assert exc.value.code == "hand_in_progress"
    with django_capture_on_commit_callbacks(execute=True):
        while _state(src.table_id)["phase"] != "complete":
            table_services.apply_action(src.table_id, {"type": "fold", "seat": _state(src.table_id)["to_act_seat"]})
    move.refresh_from_db()
    assert move.status == "moving"  # made after the hand, waiting for the tablets (004 #33)
    assert occupied(short)[move.to_seat] == move.entry.player.name


def test_tables_break_when_the_players_fit_one_table_fewer_004_10():
    t = make(players=20)
    for _ in range(2):
        for tt in tables_of(t):
            if len(tables_of(t)) == 3 and Entry.objects.filter(tournament=t, status="seated").count() > 18:
                bust_hand(tt.table_id)
                services.execute_moves(t.id)
    assert Entry.objects.filter(tournament=t, status="seated").count() == 18
    services.execute_moves(t.id)
    broken = TournamentTable.objects.filter(tournament=t, broken=True)
    assert broken.count() == 1
    assert Instruction.objects.filter(tournament=t, kind="break_table", rule="004 #10").exists()
    assert sorted(len(occupied(tt)) for tt in tables_of(t)) == [9, 9]
    assert not occupied(broken[0])


def test_big_blind_ante_is_posted_by_the_big_blind_ante_first_004_81_82():
    t = make(players=4)
    services.clock_action(t.id, "jump", level=2)
    tt = tables_of(t)[0]
    # make the next big blind short: 500 chips for 400 ante + 400 blind
    table_services.start_hand(tt.table_id)
    hand = Hand.objects.get(table_id=tt.table_id)
    spec = hand.spec
    bb_index = spec["blinds_or_straddles"].index(400)
    assert spec["antes"][bb_index] == 400 and sum(spec["antes"]) == 400
    # 004 #82 is the engine's posting order (ante before blind)
    from poker.hand import HandState, SeatSpec
    from poker.tournament import Level
    from poker.tournament.buttons import Positions
    from tournaments.services import build_hand_spec

    short = build_hand_spec(
        Positions(1, 2, 3),
        [SeatSpec(1, "a", 9000), SeatSpec(2, "b", 9000), SeatSpec(3, "c", 500)],
        Level(200, 400, 60, 400, "big_blind_ante"),
        None or __import__("poker.hand", fromlist=["Rules"]).Rules(),
    )
    state = HandState.start(short).to_dict()
    c = next(p for p in state["players"] if p["seat"] == 3)
    assert c["bet"] == 100 and c["stack"] == 0  # 400 ante first, 100 of the blind


def test_no_small_blind_after_the_big_blind_busts_001_6_10():
    t = make("wynental", players=12)
    tt = tables_of(t)[0]
    table_services.start_hand(tt.table_id)
    hand = Hand.objects.get(table_id=tt.table_id)
    spec = hand.spec
    bb_seat = spec["seats"][spec["blinds_or_straddles"].index(200)]["seat"]
    # the big blind busts: end the hand by folds to him, then take his chips by a direct seat reset
    from tests.tournaments.play import _state

    while _state(tt.table_id)["phase"] != "complete":
        st = _state(tt.table_id)
        table_services.apply_action(tt.table_id, {"type": "fold", "seat": st["to_act_seat"]})
    pos = TournamentTable.objects.get(pk=tt.pk).positions
    player = Seat.objects.get(table_id=tt.table_id, number=bb_seat).player_id
    table_services.set_seat(tt.table_id, bb_seat, player_id=None)
    Entry.objects.filter(tournament=t, player_id=player).update(status="busted")
    table_services.start_hand(tt.table_id)
    spec2 = Hand.objects.filter(table_id=tt.table_id).order_by("-number").first().spec
    assert 100 not in spec2["blinds_or_straddles"]  # no small blind this hand (001 6.10)
    assert spec2["button_seat"] == pos["button"]  # the button stays on the same seat (001 6.10)


def test_late_registration_gets_a_full_stack_004_8_and_001_refuses_it():
    t = make(players=6, late_until=1)
    entry = services.register(t.id, "Late")
    entry.refresh_from_db()
    assert entry.status == "seated" and entry.late
    assert Seat.objects.get(player=entry.player).stack == 10_000
    w = make("wynental", players=4, late_until=1)
    with pytest.raises(ServiceError) as exc:
        services.register(w.id, "Late2")
    assert exc.value.code == "not_allowed"
    assert not Entry.objects.filter(tournament=w, player__name="Late2").exists()


def test_re_entry_has_priority_over_the_waitlist_but_surrender_not_004_72_74():
    t = services.create_tournament(
        "Cap",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": 1},
        starting_stack=10_000,
        buy_in=100,
        seed=3,
        capacity=4,
        re_entries_allowed=2,
    )
    for i in range(4):
        services.register(t.id, f"P{i}")
    waiting = services.register(t.id, "W")
    assert waiting.status == "waitlisted"
    services.start(t.id)
    tt = tables_of(t)[0]
    bust_hand(tt.table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    again = services.re_enter(busted.id)
    again.refresh_from_db()
    assert again.priority and again.number == 2
    assert again.status == "seated"  # before W, who waited since before the start
    seated = Entry.objects.filter(tournament=t, status="seated").exclude(pk=again.pk).first()
    new = services.surrender(seated.id)
    new.refresh_from_db()
    assert not new.priority and new.status == "waitlisted"
    # the surrendered seat went to W at once (004 #73); the manual button finds nobody to seat
    assert Entry.objects.get(tournament=t, player__name="W").status == "seated"
    assert services.seat_waitlist(t.id) == []


def test_a_new_level_applies_from_the_next_hand_001_neues_limit_004_23():
    t = make(players=4)
    tt = tables_of(t)[0]
    table_services.start_hand(tt.table_id)
    services.clock_action(t.id, "jump", level=2)
    live = Hand.objects.get(table_id=tt.table_id)
    assert 200 in live.spec["blinds_or_straddles"] and 400 not in live.spec["blinds_or_straddles"]
    assert Instruction.objects.filter(tournament=t, kind="level", rule="004 #23").exists()


def test_hand_for_hand_steps_the_clock_and_shares_prizes_004_77_79():
    t = make(players=14, late_until=None)
    services.clock_action(t.id, "hand_for_hand")
    t.refresh_from_db()
    tts = tables_of(t)
    before = services.clock_of(t).state(time.time()).elapsed
    bust_hand(tts[0].table_id)
    with pytest.raises(ServiceError) as exc:
        table_services.start_hand(tts[0].table_id)
    assert exc.value.code == "hand_for_hand_wait"
    assert Finish.objects.get(tournament=t).place is None  # placed when the round is over
    bust_hand(tts[1].table_id)
    t.refresh_from_db()
    assert t.hands_played_h4h == 1
    assert services.clock_of(t).state(time.time()).elapsed == pytest.approx(
        before + t.seconds_per_hand
    )  # stepped one hand (004 #77)
    places = sorted(Finish.objects.filter(tournament=t).values_list("place", "place_worst", "rule"))
    assert places == [(13, 14, "004 #79"), (13, 14, "004 #79")]


def test_wynental_refuses_hand_for_hand_and_nothing_changes():
    t = make("wynental", players=4)
    seq = t.seq
    with pytest.raises(ServiceError):
        services.clock_action(t.id, "hand_for_hand")
    assert Tournament.objects.get(pk=t.pk).seq == seq


def test_chip_race_is_recorded_001_and_004():
    for rulebook, rule in (("wynental", "001 Chip Race"), ("munotpoker", "004 #24")):
        t = make(rulebook, players=4)
        tt = tables_of(t)[0]
        names = list(occupied(tt).values())
        seats = Seat.objects.filter(table_id=tt.table_id, player__isnull=False).order_by("number")
        for s, stack in zip(seats, (10_050, 9_950, 10_025, 9_975)):
            table_services.set_seat(tt.table_id, s.number, player_id=s.player_id, stack=stack)
        record = services.chip_race(t.id, tt.number, 25, 100)
        assert record.rule == rule and record.cards_from == "app"
        assert all(
            v % 100 == 0
            for v in Seat.objects.filter(table_id=tt.table_id, player__isnull=False).values_list("stack", flat=True)
        )
        assert names


def test_payouts_are_editable_and_bad_tables_change_nothing():
    t = make(players=20)
    snap = services.snapshot(t)
    assert snap["prize_pool"] == 2000 and snap["places_paid"] == 3 and snap["bubble"] == 4
    with pytest.raises(ServiceError):
        services.set_payouts(t.id, [1000, 500])
    assert Tournament.objects.get(pk=t.pk).payouts == []
    services.set_payouts(t.id, [1000, 600, 400])
    assert services.snapshot(Tournament.objects.get(pk=t.pk))["payouts"] == [1000, 600, 400]


def test_undo_moves_the_player_back_with_an_audit_trail():
    t = make(players=20)
    short = next(tt for tt in tables_of(t) if len(occupied(tt)) == 6)
    bust_hand(short.table_id)
    services.execute_moves(t.id)
    move = Instruction.objects.get(tournament=t, kind="move")
    assert move.status == "moving"
    back = services.undo_move(move.id)
    back.refresh_from_db()
    assert back.undoes_id == move.id and back.status == "moving"
    src = TournamentTable.objects.get(tournament=t, number=move.from_table)
    assert occupied(src)[move.from_seat] == move.entry.player.name
    with pytest.raises(ServiceError):
        services.undo_move(move.id)
