"""Re-entry, surrender, rebuy and add-on only where the rulebook and the
structure allow them: 004 #72 (re-entry, within late registration), 004 #74
(surrender: MunotPoker re-entry tournaments only; 001 has no such rule), 001
Re-buy/Add-on ("Wenn nicht ausdrücklich im Turnierreglement vorgesehen sind
keine Re-buy und Add-on erlaubt"), 004 #27.  The director's page shows a
button only when the service would accept it (``snapshot`` ``can``), and
the service refuses with a clear error and changes nothing otherwise."""

import json

import pytest

from tables.models import Seat
from tables.services import ServiceError
from tests.tournaments.play import bust_hand
from tests.tournaments.test_services import LEVELS, tables_of
from tournaments import services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def running(rulebook, players=4, late_until=1, **kw):
    t = services.create_tournament(
        "Ops",
        rulebook,
        {"periods": LEVELS, "late_registration_until": late_until},
        starting_stack=10_000,
        buy_in=100,
        seed=5,
        **kw,
    )
    for i in range(players):
        services.register(t.id, f"P{i}")
    services.start(t.id)
    return Tournament.objects.get(pk=t.pk)


def can(t, entry):
    snap = services.snapshot(Tournament.objects.get(pk=t.pk))
    return next(r["can"] for r in snap["registrations"] if r["id"] == entry.id)


def refused(call, code, text=""):
    """``call`` raises ServiceError ``code`` (message containing ``text``) and changes nothing."""
    before = (
        Tournament.objects.values_list("seq", flat=True).get(pk=call.t.pk),
        list(Entry.objects.filter(tournament=call.t).values_list("id", "status", "rebuys", "add_ons")),
        list(Seat.objects.filter(player__isnull=False).values_list("id", "player_id", "stack")),
    )
    with pytest.raises(ServiceError) as exc:
        call()
    assert exc.value.code == code and text in exc.value.message, exc.value.message
    after = (
        Tournament.objects.values_list("seq", flat=True).get(pk=call.t.pk),
        list(Entry.objects.filter(tournament=call.t).values_list("id", "status", "rebuys", "add_ons")),
        list(Seat.objects.filter(player__isnull=False).values_list("id", "player_id", "stack")),
    )
    assert before == after


def op(t, func, *args, **kw):
    def call():
        return func(*args, **kw)

    call.t = t
    return call


def test_001_no_re_entry_surrender_rebuy_or_add_on_unless_provided():
    t = running("wynental")
    bust_hand(tables_of(t)[0].table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    seated = Entry.objects.filter(tournament=t, status="seated").first()
    assert can(t, busted) == can(t, seated) == {"re_enter": False, "surrender": False, "rebuy": False, "add_on": False}
    refused(op(t, services.re_enter, busted.id), "not_allowed", "001 Re-buy/Add-on")
    refused(op(t, services.surrender, seated.id), "not_allowed", "004 #74")
    refused(op(t, services.rebuy, seated.id), "not_allowed", "001 Re-buy/Add-on")
    refused(op(t, services.rebuy, seated.id, add_on=True), "not_allowed", "001 Re-buy/Add-on")


def test_004_72_74_re_entry_for_the_busted_surrender_for_the_seated_while_entries_are_left():
    t = running("munotpoker", re_entries_allowed=1)
    bust_hand(tables_of(t)[0].table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    seated = Entry.objects.filter(tournament=t, status="seated").first()
    assert can(t, busted) == {"re_enter": True, "surrender": False, "rebuy": False, "add_on": False}
    assert can(t, seated) == {"re_enter": False, "surrender": True, "rebuy": False, "add_on": False}
    refused(op(t, services.re_enter, seated.id), "invalid", "only a busted player")
    refused(op(t, services.surrender, busted.id), "invalid", "only a seated player")
    again = services.re_enter(busted.id)
    again.refresh_from_db()
    assert again.status == "seated" and again.number == 2
    # his one re-entry is used: no second one, no surrender, and the old entry shows nothing
    assert can(t, again)["surrender"] is False and can(t, busted)["re_enter"] is False
    refused(op(t, services.surrender, again.id), "not_allowed", "no re-entry left (004 #74)")
    refused(op(t, services.re_enter, busted.id), "duplicate")


def test_004_72_no_re_entry_when_the_tournament_allows_none():
    t = running("munotpoker", re_entries_allowed=0)
    bust_hand(tables_of(t)[0].table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    seated = Entry.objects.filter(tournament=t, status="seated").first()
    assert not any(can(t, busted).values()) and not any(can(t, seated).values())
    refused(op(t, services.re_enter, busted.id), "not_allowed", "no re-entry left (004 #72)")
    refused(op(t, services.surrender, seated.id), "not_allowed", "re-entry tournaments (004 #74)")


def test_004_72_74_nothing_after_late_registration_has_closed():
    t = running("munotpoker", re_entries_allowed=2, rebuys_allowed=1, rebuy_max_stack=10**9)
    bust_hand(tables_of(t)[0].table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    seated = Entry.objects.filter(tournament=t, status="seated").first()
    assert can(t, busted)["re_enter"] and can(t, seated)["surrender"] and can(t, seated)["rebuy"]
    services.clock_action(t.id, "jump", level=3)  # past late_registration_until (period 1)
    assert not any(can(t, busted).values()) and not any(can(t, seated).values())
    refused(op(t, services.re_enter, busted.id), "closed", "late registration has closed")
    refused(op(t, services.surrender, seated.id), "closed", "late registration has closed")
    refused(op(t, services.rebuy, seated.id), "closed", "late registration has closed")


@pytest.mark.parametrize("rulebook, rule", [("wynental", "001 Re-buy/Add-on"), ("munotpoker", "004 #27")])
def test_rebuy_and_add_on_only_as_many_as_the_structure_provides(rulebook, rule):
    t = running(rulebook, rebuys_allowed=1, add_ons_allowed=1)
    seated = Entry.objects.filter(tournament=t, status="seated").first()
    assert can(t, seated)["rebuy"] and can(t, seated)["add_on"]
    services.rebuy(seated.id)
    services.rebuy(seated.id, add_on=True)
    assert Seat.objects.get(player=seated.player).stack == 30_000
    assert can(t, seated) == {"re_enter": False, "surrender": False, "rebuy": False, "add_on": False}
    refused(op(t, services.rebuy, seated.id), "not_allowed", f"no rebuy left ({rule})")
    refused(op(t, services.rebuy, seated.id, add_on=True), "not_allowed", f"no add-on left ({rule})")


def test_the_action_endpoint_answers_a_refusal_with_its_code(client, floorman):
    t = running("wynental")
    bust_hand(tables_of(t)[0].table_id)
    busted = Entry.objects.get(tournament=t, status="busted")
    client.force_login(floorman)
    answer = client.post(
        f"/tournaments/{t.id}/action/",
        json.dumps({"op": "re_enter", "entry": busted.id}),
        content_type="application/json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "not_allowed"
    assert "001 Re-buy/Add-on" in answer.json()["message"]
    assert Entry.objects.filter(tournament=t).count() == 4
