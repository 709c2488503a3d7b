"""Issue 23, the director's desk on a tournament night: clock buttons that
never fail on the Level box, registration mistakes put right (cancel with a
refund, rename; a name typed twice refused), a chip race not run twice by
mistake (001 Chip Race, 004 #24), human messages instead of developer text,
hand-for-hand only with more than one table (004 #77), rebuys and add-ons
switched on at creation and a rebuy only on a short stack as the event
configures it (001 Re-buy/Add-on, 004 #27)."""

import json

import pytest

from tables.models import Seat
from tables.services import ServiceError
from tests.tournaments.test_services import LEVELS, make, tables_of
from tournaments import services
from tournaments.models import ChipRaceRecord, Entry, Finish, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def act(client, t, **data):
    return client.post(f"/tournaments/{t.id}/action/", json.dumps(data), content_type="application/json")


def fresh(**kw):
    return services.create_tournament(
        "Night",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": 1},
        starting_stack=10_000,
        buy_in=100,
        **kw,
    )


# ------------------------------------------------------------------ finding 3: the clock buttons


@pytest.mark.parametrize("level", [0, None, -3, "", 5000])
def test_the_clock_buttons_never_fail_on_the_level_box(client, floorman, level):
    t = make(players=4)
    client.force_login(floorman)
    for clock, extra in [("pause", {}), ("resume", {}), ("adjust", {"seconds": 60}), ("adjust", {"seconds": -60})]:
        r = act(client, t, op="clock", clock=clock, level=level, **extra)
        assert r.status_code == 200, (clock, r.json())
    kinds = list(TournamentEvent.objects.filter(tournament=t, kind__startswith="clock_").values_list("kind", flat=True))
    assert kinds == ["clock_pause", "clock_resume", "clock_adjust", "clock_adjust"]


def test_a_jump_without_a_level_says_so(client, floorman):
    t = make(players=4)
    client.force_login(floorman)
    for level in (None, 0):
        body = act(client, t, op="clock", clock="jump", level=level).json()
        assert not body["ok"]
        assert "Input should" not in body["message"] and "int()" not in body["message"]
        assert "level" in body["message"].lower()


# ------------------------------------------------------------------ finding 5: registration mistakes


def test_a_name_typed_again_with_other_case_spaces_or_accents_is_refused():
    t = fresh()
    anna = services.register(t.id, "  Anna   Müller ")
    assert anna.player.name == "Anna Müller"  # spacing normalised
    services.register(t.id, "Guest 01")
    for typo in ("anna  müller", "ANNA MULLER", "GUEST 01", "guest\t01"):
        with pytest.raises(ServiceError) as exc:
            services.register(t.id, typo)
        assert exc.value.code == "duplicate"
        assert "already registered" in exc.value.message
    assert Entry.objects.filter(tournament=t).count() == 2


def test_a_registration_is_cancelled_with_a_refund_and_takes_no_place(client, floorman):
    t = fresh()
    for i in range(5):
        services.register(t.id, f"P{i}")
    gone = Entry.objects.get(tournament=t, player__name="P4")
    client.force_login(floorman)
    assert act(client, t, op="cancel", entry=gone.id, note="paid by mistake").json()["ok"]
    gone.refresh_from_db()
    assert gone.status == "cancelled"
    snap = services.snapshot(Tournament.objects.get(pk=t.id))
    assert snap["entries"] == 4 and snap["prize_pool"] == 400
    event = TournamentEvent.objects.filter(tournament=t, kind="entry_cancelled").get()
    assert event.actor == floorman and event.payload["entry"] == gone.id and event.payload["note"] == "paid by mistake"
    services.start(t.id)
    assert not Finish.objects.filter(tournament=t).exists()
    assert Entry.objects.filter(tournament=t, status="seated").count() == 4
    # the player may register again (his name is free again)
    services.register(t.id, "P4")


def test_a_seated_late_entry_is_cancelled_with_his_chips_out_of_play():
    t = make(players=12, late_until=1)
    late = services.register(t.id, "Late Larry")
    late.refresh_from_db()
    assert late.status == "seated"
    before = services.snapshot(Tournament.objects.get(pk=t.id))
    services.cancel_entry(late.id, note="wrong tournament")
    late.refresh_from_db()
    assert late.status == "cancelled"
    assert not Seat.objects.filter(player=late.player, table__tournament_table__tournament=t).exists()
    after = services.snapshot(Tournament.objects.get(pk=t.id))
    assert after["entries"] == before["entries"] - 1 and after["prize_pool"] == before["prize_pool"] - 100
    assert after["players_left"] == 12 and not Finish.objects.filter(tournament=t).exists()


def test_a_busted_entry_cannot_be_cancelled():
    t = make(players=12)
    e = Entry.objects.filter(tournament=t, status="seated").first()
    Entry.objects.filter(pk=e.pk).update(status="busted")
    with pytest.raises(ServiceError) as exc:
        services.cancel_entry(e.id)
    assert exc.value.code == "invalid"


def test_a_registration_is_renamed_and_audited(client, floorman):
    t = fresh()
    e = services.register(t.id, "Guest 01")
    services.register(t.id, "Anna Müller")
    client.force_login(floorman)
    body = act(client, t, op="rename", entry=e.id, player="  Gustav   Eins ").json()
    assert body["ok"], body
    e.refresh_from_db()
    assert e.player.name == "Gustav Eins"
    event = TournamentEvent.objects.get(tournament=t, kind="entry_renamed")
    assert event.payload["from"] == "Guest 01" and event.payload["to"] == "Gustav Eins" and event.actor == floorman
    body = act(client, t, op="rename", entry=e.id, player="anna muller").json()
    assert not body["ok"] and body["code"] == "duplicate"
    e.refresh_from_db()
    assert e.player.name == "Gustav Eins"


def test_renaming_a_player_of_another_tournament_leaves_that_one_alone():
    other = fresh()
    services.register(other.id, "Guest 01")
    t = fresh()
    e = services.register(t.id, "Guest 01")
    services.rename_entry(e.id, "Gabi Gast")
    assert Entry.objects.get(tournament=other).player.name == "Guest 01"
    e.refresh_from_db()
    assert e.player.name == "Gabi Gast"


# ------------------------------------------------------------------ finding 10: the chip race twice


def on_break(t):
    services.clock_action(t.id, "jump", level=2)
    services.clock_action(t.id, "adjust", seconds=-20 * 60)


def test_the_same_chip_race_is_refused_at_the_same_break_unless_raced_again(client, floorman):
    t = make(players=20)
    on_break(t)
    tt = tables_of(t)[0]
    services.chip_race(t.id, tt.number, 100, 500)
    with pytest.raises(ServiceError) as exc:
        services.chip_race(t.id, tt.number, 100, 500)
    assert exc.value.code == "duplicate" and "already" in exc.value.message
    client.force_login(floorman)
    api = f"/tournaments/{t.id}/chips/api/"
    r = client.post(api, {"op": "chip_race", "table": tt.number, "removed": 100, "new": 500}, "application/json")
    assert r.status_code == 400 and r.json()["code"] == "duplicate"
    assert ChipRaceRecord.objects.filter(tournament=t).count() == 1
    r = client.post(
        api, {"op": "chip_race", "table": tt.number, "removed": 100, "new": 500, "again": True}, "application/json"
    )
    assert r.json()["ok"]
    assert ChipRaceRecord.objects.filter(tournament=t).count() == 2
    # another table of the same break is no repeat
    services.chip_race(t.id, tables_of(t)[1].number, 100, 500)


# ------------------------------------------------------------------ finding 11: human messages, no server error


def test_a_superscript_payout_is_refused_not_a_server_error(client, floorman):
    t = make(players=12)
    client.force_login(floorman)
    r = client.post(f"/tournaments/{t.id}/payouts/", {"op": "compute", "unit": "²", "fee": "0"})
    assert r.status_code == 400
    assert b"whole number" in r.content
    r = client.post(f"/tournaments/{t.id}/payouts/", {"op": "edit", "amount": ["600", "٣٠٠"]})
    assert r.status_code == 400


@pytest.mark.parametrize(
    "data, words",
    [
        ({"op": "payouts", "amounts": [500, "x"]}, ["place 2", "whole number"]),
        ({"op": "payouts", "amounts": [500, -1]}, ["place 2"]),
        ({"op": "desk_move", "entry": 1, "table": 1, "seat": 11}, ["seat", "10"]),
        ({"op": "register", "player": ""}, ["name"]),
        ({"op": "register", "player": "x" * 81}, ["80"]),
        ({"op": "desk_chips", "entry": 1, "amount": 1.5, "reason": "correction"}, ["whole number"]),
        ({"op": "frobnicate"}, ["unknown"]),
    ],
)
def test_bad_desk_input_gets_a_human_message(client, floorman, data, words):
    t = make(players=4)
    client.force_login(floorman)
    body = act(client, t, **data).json()
    assert not body["ok"] and body["code"] == "invalid"
    message = body["message"]
    assert "Input should" not in message and "literal" not in message and "amounts.1" not in message, message
    for word in words:
        assert word in message.lower(), message


def test_bad_desk_input_is_said_in_german(client, floorman):
    t = make(players=4)
    client.force_login(floorman)
    body = client.post(
        f"/tournaments/{t.id}/action/",
        json.dumps({"op": "payouts", "amounts": [500, "x"]}),
        content_type="application/json",
        headers={"accept-language": "de"},
    ).json()
    assert "Platz 2" in body["message"] and "ganze Zahl" in body["message"], body


def test_the_create_form_says_what_is_wrong_in_words(client, floorman):
    client.force_login(floorman)
    r = client.post("/tournaments/", {"name": "Cup", "rulebook": "munotpoker", "starting_stack": "20k", "buy_in": "50"})
    assert r.status_code == 200
    text = r.content.decode()
    assert "invalid literal" not in text and "Starting stack" in text
    assert not Tournament.objects.exists()


def test_hand_for_hand_is_refused_at_a_single_final_table(client, floorman):
    t = make(players=9)
    assert len(tables_of(t)) == 1
    with pytest.raises(ServiceError) as exc:
        services.clock_action(t.id, "hand_for_hand")
    assert exc.value.code == "not_allowed" and "004 #77" in exc.value.message
    t.refresh_from_db()
    assert not t.hand_for_hand


# ------------------------------------------------------------------ finding 13: rebuys and add-ons


def test_rebuys_and_add_ons_are_switched_on_in_the_create_form(client, floorman):
    client.force_login(floorman)
    r = client.post(
        "/tournaments/",
        {
            "name": "Rebuy Night",
            "rulebook": "munotpoker",
            "starting_stack": "20000",
            "buy_in": "50",
            "rebuys": "2",
            "add_ons": "1",
            "rebuy_max_stack": "5000",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    t = Tournament.objects.get(name="Rebuy Night")
    assert (t.rebuys_allowed, t.add_ons_allowed, t.rebuy_max_stack) == (2, 1, 5000)
    page = client.get("/tournaments/").content.decode()
    assert 'name="rebuys"' in page and 'name="add_ons"' in page and 'name="rebuy_max_stack"' in page


def _rebuy_table(**kw):
    t = make(players=12, late_until=1, rebuys_allowed=3, **kw)
    e = Entry.objects.filter(tournament=t, status="seated").select_related("player").first()
    return t, e


def _stack(t, e):
    return Seat.objects.get(player=e.player, table__tournament_table__tournament=t).stack


def test_a_rebuy_is_refused_on_a_stack_above_the_starting_stack_by_default():
    t, e = _rebuy_table()
    services.rebuy(e.id)  # 10,000: at the starting stack
    assert _stack(t, e) == 20_000
    with pytest.raises(ServiceError) as exc:
        services.rebuy(e.id)  # 20,000: no rebuy on a full stack and more
    assert exc.value.code == "not_allowed" and "10,000" in exc.value.message and "004 #27" in exc.value.message
    assert _stack(t, e) == 20_000
    reg = next(r for r in services.snapshot(Tournament.objects.get(pk=t.id))["registrations"] if r["id"] == e.id)
    assert not reg["can"]["rebuy"]


def test_a_rebuy_only_at_or_below_the_chips_the_event_sets():
    t, e = _rebuy_table(rebuy_max_stack=4_000)
    with pytest.raises(ServiceError) as exc:
        services.rebuy(e.id)
    assert exc.value.code == "not_allowed" and "4,000" in exc.value.message
    where = Seat.objects.get(player=e.player, table__tournament_table__tournament=t)
    from tournaments.services.writes import set_seat

    set_seat(where.table_id, where.number, player_id=e.player_id, stack=4_000)
    services.rebuy(e.id)
    assert _stack(t, e) == 14_000


def test_the_desk_log_writes_chips_as_each_language_does():
    from tournaments.services import desk

    t = make(players=12)
    entry = Entry.objects.filter(tournament=t, status="seated").select_related("player").first()
    out = desk.desk_chips(t.id, entry.id, 1000, "correction", note="miscount")
    event = TournamentEvent.objects.get(tournament=t, seq=out["seq"])
    assert "+1,000 chips" in event.payload["text_en"] and "10,000 → 11,000" in event.payload["text_en"]
    assert "+1.000 Chips" in event.payload["text_de"] and "10.000 → 11.000" in event.payload["text_de"]


def test_a_chip_race_with_a_wrong_chip_is_refused_in_words(client, floorman):
    t = make(players=20)
    on_break(t)
    client.force_login(floorman)
    api = f"/tournaments/{t.id}/chips/api/"
    r = client.post(api, {"op": "chip_race", "table": 1, "removed": 100, "new": 250}, "application/json")
    body = r.json()
    assert r.status_code == 400 and "denomination" not in body["message"]
    assert "larger multiple" in body["message"]
    assert not ChipRaceRecord.objects.filter(tournament=t).exists()
