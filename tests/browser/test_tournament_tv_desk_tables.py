"""The desk's table tools in the browser (issue 23 #4, #7), in English and German: 27 players on three
full tables and a late entry waiting; the director adds table 4 with its seats ("Add table"): the late
entry takes a seat there and the floor is balanced (004 #8, #11); a dealer login is assigned to a table
("Assign dealer").  Screenshots of the desk (1920x1080, 1280x800, 390x844) go to /tmp/shots/tabletour/."""

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop, snapshot
from tests.browser.waits import hold_answers, login_to, release_answers

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/tabletour")
STRUCTURE = {
    "periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}] * 3,
    "late_registration_until": 2,
}


def _make(lang):
    from django.contrib.auth.models import Group, User

    from tournaments import services

    dealers, _ = Group.objects.get_or_create(name="dealer")
    floor, _ = Group.objects.get_or_create(name="floor")
    if not User.objects.filter(username="floor").exists():
        User.objects.create_user("floor", password="pw-floor").groups.add(floor)
    if not User.objects.filter(username="anna").exists():
        User.objects.create_user("anna", password="pw-anna").groups.add(dealers)
    t = services.create_tournament(f"Late Night {lang}", "munotpoker", STRUCTURE, starting_stack=10_000, seed=5)
    for i in range(27):
        services.register(t.id, f"Night {i + 1:02d}")
    services.start(t.id)
    services.register(t.id, "Late Larry")  # every seat is taken: he waits
    return t.id


def _state(tournament_id):
    from tables.models import Seat
    from tournaments.models import Entry, Instruction, TournamentTable

    tts = TournamentTable.objects.filter(tournament_id=tournament_id, broken=False).select_related("table")
    counts = {tt.number: Seat.objects.filter(table=tt.table, player__isnull=False).count() for tt in tts}
    late = Entry.objects.get(tournament_id=tournament_id, player__name="Late Larry").status
    # the balancing moves planned (004 #11), made or still to be made between hands
    for i in Instruction.objects.filter(tournament_id=tournament_id, kind="move", status="pending", from_table__gt=0):
        counts[i.from_table] = counts.get(i.from_table, 0) - 1
        counts[i.to_table] = counts.get(i.to_table, 0) + 1
    dealers = {tt.number: tt.table.dealer.username if tt.table.dealer_id else None for tt in tts}
    return counts, late, dealers


def _dealer_recorded(tournament_id, number, username):
    """Wait until the database has ``username`` as table ``number``'s dealer (the desk's entry recorded)."""
    for _ in range(50):
        if off_loop(_state, tournament_id)[2].get(number) == username:
            break
        time.sleep(0.2)
    assert off_loop(_state, tournament_id)[2][number] == username


def _debug(tid):
    from tournaments.models import Instruction, TournamentEvent

    return (
        list(Instruction.objects.filter(tournament_id=tid).values_list("kind", "status", "from_table", "to_table")),
        list(TournamentEvent.objects.filter(tournament_id=tid).values_list("kind", "payload")[25:]),
    )


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_director_adds_a_table_for_a_late_entry_and_assigns_a_dealer(new_page, locale):
    lang = locale[:2]
    tid = off_loop(_make, lang)
    desk = new_page((1920, 1080), locale=locale)
    login_to(desk, "floor", "pw-floor", f"/tournaments/{tid}/")
    form = desk.locator("#desk-add-table")
    expect(form.locator("legend")).to_have_text("Add a table" if lang == "en" else "Tisch eröffnen")
    form.locator("input[name=number]").fill("4")
    form.locator("input[name=seats]").fill("9")
    form.locator("button[type=submit]").click()
    for _ in range(50):
        counts, late, _dealers = snapshot(_state, tid)  # one picture: no move counted at both of its tables
        assert sum(counts.values()) == 27 + (late == "seated"), (counts, off_loop(_debug, tid))  # nobody sits twice
        if late == "seated" and len(counts) == 4 and sorted(counts.values()) == [7, 7, 7, 7]:
            break
        time.sleep(0.2)
    assert late == "seated" and sorted(counts.values()) == [7, 7, 7, 7], (counts, off_loop(_debug, tid))
    expect(desk.locator("#td-error")).to_be_hidden()
    dealer = desk.locator("#desk-dealer")
    expect(dealer.locator("select[name=table] option")).to_have_count(4)
    dealer.locator("select[name=table]").select_option("4")
    dealer.locator("input[name=username]").fill("anna")
    dealer.locator("button[type=submit]").click()
    _dealer_recorded(tid, 4, "anna")
    dealer.locator("input[name=username]").fill("floor")
    dealer.locator("button[type=submit]").click()
    expect(desk.locator("#td-error")).to_have_text(
        "floor is not a dealer." if lang == "en" else "floor ist kein Dealer."
    )
    # the director starts the next entry while the last one's answer is still on its way: the accepted
    # form is not cleared under the director's hands (the night's flake: dealer2 went to table 1)
    hold_answers(desk)
    dealer.locator("select[name=table]").select_option("3")
    dealer.locator("input[name=username]").fill("anna")
    dealer.locator("button[type=submit]").click()
    _dealer_recorded(tid, 3, "anna")
    dealer.locator("select[name=table]").select_option("2")
    dealer.locator("input[name=username]").fill("anna")
    release_answers(desk)
    expect(desk.locator("#td-error")).to_be_hidden()
    expect(dealer.locator("select[name=table]")).to_have_value("2")
    expect(dealer.locator("input[name=username]")).to_have_value("anna")
    # an entry answered with nothing changed since is cleared for the next one
    dealer.locator("button[type=submit]").click()
    expect(dealer.locator("input[name=username]")).to_have_value("")
    assert off_loop(_state, tid)[2][2] == "anna"
    for size in [(1920, 1080), (1280, 800), (390, 844)]:
        desk.set_viewport_size({"width": size[0], "height": size[1]})
        desk.locator("#desk-add-table").scroll_into_view_if_needed()
        desk.screenshot(path=str(SHOTS / f"desk-tables-{lang}-{size[0]}x{size[1]}.png"))
