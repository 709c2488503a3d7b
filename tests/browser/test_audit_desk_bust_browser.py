"""A bust at the desk asks who won the chips (issue 23, finding 12): the
director names the winner at the same table and the chip-count check stays
green; naming nobody marks the table for a recount.  English and German,
screenshots in ``/tmp/shots/places/``."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop
from tests.browser.test_director_desk import _make
from tests.browser.waits import login_to

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/places")


def _stacks(tid):
    from tables.models import Seat

    return dict(
        Seat.objects.filter(table__tournament_table__tournament_id=tid, player__isnull=False).values_list(
            "player__name", "stack"
        )
    )


def _count_table(tid, table, extra_to):
    """The director counts ``table``: every stack as it is, ``extra_to`` holding the chips he won."""
    from tables.models import Seat
    from tournaments.models import TournamentTable
    from tournaments.services import chipcounts

    tt = TournamentTable.objects.get(tournament_id=tid, number=table)
    counts = dict(Seat.objects.filter(table_id=tt.table_id, player__isnull=False).values_list("number", "stack"))
    seat = Seat.objects.get(table_id=tt.table_id, player__name=extra_to).number
    counts[seat] += 10_000
    chipcounts.record_chip_counts(tid, table, counts)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_director_names_who_won_the_chips_of_a_desk_bust(new_page, floorman, lang):
    locale = "de-DE" if lang == "de" else "en-US"
    tid, players = off_loop(_make)
    page = new_page(viewport=(1920, 1080), locale=locale)
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/")
    page.wait_for_selector("#desk-bust select[name=won_by] option >> nth=5", state="attached")
    first = page.locator("#desk-bust select[name=won_by] option").first
    expect(first).to_contain_text("recount" if lang == "en" else "nachzählen")
    ordered = sorted(players.items())
    # a bust naming nobody: the table is to be recounted, the check says which
    loser, (entry, table, _tid, _n) = ordered[0]
    mate = next(k for k, v in ordered if v[1] == table and k != loser)
    page.select_option("#desk-bust .desk-bust-row select", str(entry))
    page.click("#desk-bust button[type=submit]")
    page.wait_for_selector(f"#td-desk-log li[data-kind=desk_bust]:has-text('{loser}')")
    expect(page.locator("#desk-bust .desk-bust-row select")).to_have_value("")  # accepted: cleared for the next
    chips = new_page(viewport=(1280, 800), locale=locale)
    login_to(chips, "floor", "pw-floor", f"/tournaments/{tid}/chips/")
    expect(chips.locator("[data-f=check]")).to_have_class("tc-check mismatch")
    expect(chips.locator("[data-f=check]")).to_contain_text(
        f"recount table {table}" if lang == "en" else f"Tisch {table} nachzählen"
    )
    expect(chips.locator(".tc-recount")).to_have_count(1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    chips.screenshot(path=str(SHOTS / f"chips-recount-{lang}-1280x800.png"), full_page=True)
    off_loop(_count_table, tid, table, mate)  # the count finds the chips with the player who won them
    chips.reload()
    expect(chips.locator("[data-f=check]")).to_have_class("tc-check match")
    expect(chips.locator(".tc-recount")).to_have_count(0)
    # a bust naming the winner at the same table: credited at once, the check stays green
    loser2, (entry2, table2, _t2, _n2) = next((k, v) for k, v in ordered if k not in (loser, mate))
    winner = next(k for k, v in ordered if v[1] == table2 and k not in (loser, mate, loser2))
    before = off_loop(_stacks, tid)[winner]
    page.select_option("#desk-bust .desk-bust-row select", str(entry2))
    page.select_option("#desk-bust select[name=won_by]", str(players[winner][0]))
    page.locator("#desk-bust").screenshot(path=str(SHOTS / f"desk-bust-won-by-{lang}.png"))
    page.click("#desk-bust button[type=submit]")
    page.wait_for_selector(f"#td-desk-log li[data-kind=desk_bust]:has-text('{loser2}')")
    expect(page.locator("#td-desk-log li[data-kind=desk_bust]").first).to_contain_text(winner)
    assert off_loop(_stacks, tid)[winner] == before + 10_000
    chips.reload()
    expect(chips.locator("[data-f=check]")).to_have_class("tc-check match")
