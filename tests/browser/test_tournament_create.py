"""A director creates a tournament from a template he saved (issue 23, what a director also expects):
in the structure editor of last week's event he edits the first level and saves the structure with the
event's settings as a template; on the tournaments page he picks it, sees the form filled with its
settings, changes the buy-in and creates next week's event, which has the template's structure and
settings.  English and German."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login, off_loop
from tests.browser.waits import login_to

pytestmark = pytest.mark.django_db(transaction=True)


def _last_week():
    from tournaments import services
    from tournaments.services import structures

    return services.create_tournament(
        "Munot Monday",
        "munotpoker",
        structures.template("standard"),
        starting_stack=25_000,
        buy_in=120,
        fee=15,
        max_seats=8,
        re_entries_allowed=1,
        rebuys_allowed=2,
        add_ons_allowed=1,
        guarantee=3_000,
        rebuy_chips=15_000,
        double_rebuy=True,
    )


def _created(name: str):
    from tournaments.models import StructureTemplate, Tournament

    return Tournament.objects.get(name=name), StructureTemplate.objects.get()


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_a_director_creates_next_weeks_event_from_a_saved_template(new_page, floorman, locale):
    t = off_loop(_last_week)
    lang = locale[:2]
    page = new_page((1440, 900), locale=locale)
    login(page, "floor", "pw-floor")

    # the structure editor: the first level made 25 minutes, saved as a template (not on the event)
    page.goto(f"/tournaments/{t.id}/structure/")
    first_minutes = page.locator("#ts-rows tr").first.locator("input[data-key=minutes]")
    first_minutes.fill("25")
    page.fill("#ts-template-name", "Monday Standard")
    page.click("#ts-save-as-template")
    expect(page.locator("#ts-saved")).to_contain_text("Monday Standard")
    expect(page.locator("#ts-saved")).to_contain_text("Vorlage" if lang == "de" else "template")
    expect(page.locator("#ts-errors")).to_be_hidden()
    expect(page.locator("#ts-template option", has_text="Monday Standard")).to_have_count(1)

    # the tournaments page: picking the template fills the form with its settings
    page.goto("/tournaments/")
    page.fill("input[name=name]", "Munot Monday II")
    page.select_option("#td-template", label="Monday Standard")
    expect(page.locator("input[name=starting_stack]")).to_have_value("25000")
    expect(page.locator("input[name=buy_in]")).to_have_value("120")
    expect(page.locator("input[name=fee]")).to_have_value("15")
    expect(page.locator("input[name=guarantee]")).to_have_value("3000")
    expect(page.locator("input[name=max_seats]")).to_have_value("8")
    expect(page.locator("input[name=rebuys]")).to_have_value("2")
    expect(page.locator("input[name=rebuy_chips]")).to_have_value("15000")
    expect(page.locator("input[name=rebuy_cost]")).to_have_value("")
    expect(page.locator("select[name=rulebook]")).to_have_value("munotpoker")
    expect(page.locator("select[name=double_rebuy]")).to_have_value("1")
    page.fill("input[name=buy_in]", "150")  # this week's price
    page.locator("form.td-create button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))

    new, saved = off_loop(_created, "Munot Monday II")
    assert new.structure == saved.structure and new.structure["periods"][0]["minutes"] == 25
    assert (new.rulebook, new.starting_stack, new.buy_in, new.fee, new.max_seats) == ("munotpoker", 25000, 150, 15, 8)
    assert (new.re_entries_allowed, new.rebuys_allowed, new.add_ons_allowed, new.guarantee) == (1, 2, 1, 3000)
    assert (new.rebuy_chips, new.rebuy_cost, new.double_rebuy) == (15000, None, True)


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_editor_generates_a_structure_for_a_target_duration_with_its_end_time(new_page, floorman, locale):
    t = off_loop(_last_week)
    lang = locale[:2]
    page = new_page((1440, 900), locale=locale)
    login_to(page, "floor", "pw-floor", f"/tournaments/{t.id}/structure/")
    end = page.locator("#ts-end")
    # the stored structure (standard, 18 levels to 5,000/10,000) never reaches 30 x 25,000 / 15 = 50,000
    page.fill("#ts-players", "30")
    expect(end).to_contain_text("Levels hinzufügen" if lang == "de" else "add levels")
    page.fill("#ts-hours", "4")
    page.fill("#ts-level-minutes", "20")
    page.click("#ts-generate-button")
    expect(page.locator("#ts-saved")).to_contain_text("Erzeugt" if lang == "de" else "Generated")
    expect(end).to_contain_text("Voraussichtliches Ende" if lang == "de" else "Estimated end")
    rows = page.locator("#ts-rows tr:not(.break)")
    expect(rows).to_have_count(11)  # 11 x 20 minutes + 2 breaks of 10 = 4 hours
    last_bb = page.locator("#ts-rows tr:not(.break)").last.locator("input[data-key=big_blind]")
    assert int(last_bb.input_value()) >= 50_000
    # an edit of the structure moves the estimate: without the last level the blinds stop short
    page.locator("#ts-rows tr").last.locator("button", has_text="✕").click()
    expect(end).to_contain_text("Levels hinzufügen" if lang == "de" else "add levels")
    page.fill("#ts-players", "15")  # fewer players: 15 x 25,000 / 15 = 25,000 is reached again
    expect(end).to_contain_text("Voraussichtliches Ende" if lang == "de" else "Estimated end")
    page.click("#ts-save")
    expect(page.locator("#ts-saved")).to_contain_text("gespeichert" if lang == "de" else "saved")
    expect(page.locator("#ts-errors")).to_be_hidden()


def _guaranteed(n: int):
    from tournaments import services
    from tournaments.models import Tournament

    t = Tournament.objects.get(name="Guaranteed Friday")
    for i in range(n):
        services.register(t.id, f"Spieler {i:02d}")
    return t


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_a_guarantee_set_on_the_form_shows_its_overlay_on_the_desk_and_the_payout_page(new_page, floorman, locale):
    lang = locale[:2]
    page = new_page((1440, 900), locale=locale)
    login_to(page, "floor", "pw-floor", "/tournaments/")
    page.fill("input[name=name]", "Guaranteed Friday")
    page.select_option("select[name=rulebook]", "munotpoker")
    page.fill("input[name=buy_in]", "100")
    page.fill("input[name=guarantee]", "2000")
    page.locator("form.td-create button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    t = off_loop(_guaranteed, 12)  # 1,200 collected: the house adds 800
    page.goto(f"/tournaments/{t.id}/")
    pool = page.locator('[data-f="pool"]')
    expect(pool).to_contain_text("2")
    expect(pool).to_contain_text("Overlay" if lang == "de" else "overlay")
    expect(pool).to_contain_text("800")
    page.goto(f"/tournaments/{t.id}/payouts/")
    expect(page.locator("#pd-pool")).to_have_text("2000")
    expect(page.locator("#pd-overlay")).to_have_text("800")
    expect(page.locator(".pd-overlay th")).to_contain_text("vom Haus" if lang == "de" else "paid by the house")


def _rebuy_night():
    from tournaments import services
    from tournaments.services import structures

    t = services.create_tournament(
        "Double Rebuy Night",
        "munotpoker",
        structures.template("turbo") | {"rebuy_until": 7},
        starting_stack=10_000,
        buy_in=50,
        rebuys_allowed=2,
        double_rebuy=True,
        rebuy_cost=40,
        rebuy_chips=8_000,
        seed=3,
    )
    for i in range(4):
        services.register(t.id, f"Spieler {i}")
    services.start(t.id)
    return t


def _after_rebuy(tid: int, entry_id: int):
    from tables.models import Seat
    from tournaments.models import Entry, Tournament
    from tournaments.services import payouts

    entry = Entry.objects.get(pk=entry_id)
    stack = Seat.objects.get(table__tournament_table__tournament_id=tid, player_id=entry.player_id).stack
    return entry.rebuys, stack, payouts.pool_of(Tournament.objects.get(pk=tid)).pool


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_desk_sells_a_double_rebuy_at_its_own_cost_and_chips(new_page, floorman, locale):
    t = off_loop(_rebuy_night)
    lang = locale[:2]
    page = new_page((1600, 1000), locale=locale)
    login_to(page, "floor", "pw-floor", f"/tournaments/{t.id}/")
    double = page.locator('button[data-entry-op="rebuy"][data-double="1"]')
    expect(double).to_have_count(4)
    expect(double.first).to_have_text("Doppel-Rebuy" if lang == "de" else "Double rebuy")
    entry_id = int(double.first.get_attribute("data-entry"))
    double.first.click()
    expect(page.locator(f'button[data-entry-op="rebuy"][data-double="1"][data-entry="{entry_id}"]')).to_have_count(0)
    rebuys, stack, pool = off_loop(_after_rebuy, t.id, entry_id)
    assert (rebuys, stack, pool) == (2, 10_000 + 2 * 8_000, 4 * 50 + 2 * 40)
