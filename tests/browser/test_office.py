"""Players and dealers in a real browser (issue 28), in English and in German:

- a push on the rotation board moves three dealers, and each tablet asks its incoming dealer, signed in
  under their own login, for the deck change or recount (001 6.24), which is recorded;
- a player's record shows the hours the player was dealt in across two tables;
- a barred player is refused at the waitlist, with the reason shown to the floor;
- duplicate players merged keep all their history.

Screenshots (artifacts/screenshots/issue28/): the player page, the rotation board and the reports at
1920x1080 in both languages, the tablet's prompt at 1280x800.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import login, off_loop
from tests.browser.waits import login_to
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "screenshots" / "issue28"
WAIT = 20_000  # ms: the machine is loaded
T = {
    "en": {
        "push": "Push now",
        "incoming": "Incoming dealer",
        "swapped": "Decks swapped",
        "recounted": "Decks recounted",
        "sign_in": "Sign in as",
        "merge": "Merge into the first",
        "barred": "is barred",
    },
    "de": {
        "push": "Jetzt pushen",
        "incoming": "Neuer Dealer",
        "swapped": "Decks getauscht",
        "recounted": "Decks neu ausgezählt",
        "sign_in": "anmelden",
        "merge": "In den ersten zusammenführen",
        "barred": "ist gesperrt",
    },
}


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def locale(lang: str) -> str:
    return "de-DE" if lang == "de" else "en-US"


def make_room(floorman, tables: int, players: dict[int, tuple[str, ...]] | None = None):
    """Room "casino", NLHE 1/2 with ``tables`` tables "Main 1".. (6 seats), players seated with 100."""
    from room import services as r
    from tables import services

    room = r.create_room("casino", "Casino Bregenz", call_seconds=300)
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200, actor=floorman)
    made = [r.open_table(game.id, f"Main {n}", max_seats=6, actor=floorman) for n in range(1, tables + 1)]
    for index, names in (players or {}).items():
        for seat, name in enumerate(names, start=1):
            services.seat_player(made[index].id, seat, name, 0)
            r.buy_in(made[index].id, seat, 100)
    return room, game, made


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_push_moves_three_dealers_and_each_tablet_asks_for_the_deck_change(lang, floorman, roles, new_page):
    from django.contrib.auth.models import User

    from tables import dealers
    from tables.models import DealerChange, DealerShift

    _room, _game, tables = off_loop(make_room, floorman, 3)
    crew = {}
    now = timezone.now()
    for name in ("d1", "d2", "d3", "d4"):
        user = User.objects.create_user(name, password="pw-" + name)
        user.groups.add(roles["dealer"])
        DealerShift.objects.create(dealer=user, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(hours=7))
        crew[name] = user
    for table, name in zip(tables, ("d1", "d2", "d3")):
        off_loop(dealers.start_down, table.id, crew[name])
    words = T[lang]

    # d3 deals Main 3 and keeps the tablet open: after the push it shows the incoming dealer (d2).
    old = new_page((1280, 800), locale=locale(lang))
    login_to(old, "d3", "pw-d3", f"/tables/{tables[2].id}/dealer/")
    expect(old.locator("#dealer-push")).to_be_hidden()
    expect(old.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=WAIT)
    # Only the socket may tell it (issue 28): the tablet's slow poll of the dealer change is cut off.
    old.route("**/dealer-change/", lambda route: route.abort())

    floor = new_page((1920, 1080), locale=locale(lang))
    login_to(floor, "floor", "pw-floor", "/office/rotation/")
    board = floor.locator("table.rotation")
    expect(board.locator('tr[data-table="Main 1"] td.next')).to_have_text("d4")
    expect(board.locator('tr[data-table="Main 2"] td.next')).to_have_text("d1")
    expect(board.locator('tr[data-table="Main 3"] td.next')).to_have_text("d2")
    shot(floor, f"rotation-board-{lang}-1920x1080")
    pushed = time.monotonic()
    floor.get_by_role("button", name=words["push"]).click()
    expect(floor.locator('[data-field="waiting"]')).to_be_visible()
    assert DealerChange.objects.filter(taken_at=None).count() == 3

    expect(old.locator("#dealer-push")).to_be_visible(timeout=WAIT)  # told over its socket, reloaded
    print(f"outgoing tablet shows the push {time.monotonic() - pushed:.1f} s after the tap")
    expect(old.locator('#dealer-push [data-field="incoming"]')).to_have_text("d2")
    expect(old.locator("#dealer-push")).to_contain_text(words["sign_in"])

    for table, incoming, deck in (
        (tables[0], "d4", "swapped"),
        (tables[1], "d1", "recounted"),
        (tables[2], "d2", "swapped"),
    ):
        tablet = new_page((1280, 800), locale=locale(lang))
        login_to(tablet, incoming, "pw-" + incoming, f"/tables/{table.id}/dealer/")
        prompt = tablet.locator("#dealer-push")
        expect(prompt).to_be_visible()
        expect(prompt).to_contain_text(words["incoming"])
        expect(prompt.locator('[data-field="incoming"]')).to_have_text(incoming)
        if table == tables[0]:
            shot(tablet, f"tablet-deck-prompt-{lang}-1280x800")
        with tablet.expect_navigation():
            tablet.get_by_role("button", name=words[deck]).click()
        expect(tablet.locator("#dealer-push")).to_be_hidden()
        expect(tablet.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=WAIT)
        change = DealerChange.objects.get(table=table)
        assert (change.incoming.username, change.deck, change.citation) == (incoming, deck, "001 6.24")
    for table, name in zip(tables, ("d4", "d1", "d2")):
        table.refresh_from_db()
        assert table.dealer.username == name
    floor.goto("/office/rotation/")
    expect(floor.locator('[data-resting="d3"]')).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_players_record_shows_the_hours_dealt_in_across_two_tables(lang, floorman, new_page):
    from room import services as r
    from tables import services
    from tables.models import Player
    from tests.office.night import EVENING, play_hands_at

    _room, _game, tables = off_loop(make_room, floorman, 2, {0: ("Anna Keller", "Ben"), 1: ("Clara", "Dora")})
    anna = Player.objects.get(name="Anna Keller")
    anna.card_number, anna.nickname = "C-1042", "Annie"
    anna.save()

    def night():
        play_hands_at(tables[0], EVENING, 6, timedelta(minutes=4), timedelta(minutes=3))  # 20:00-20:23
        r.leave_seat(tables[0].id, 1, actor=floorman)
        r.leave_seat(tables[1].id, 1, actor=floorman)
        services.seat_player(tables[1].id, 1, anna, 0)
        r.buy_in(tables[1].id, 1, 100)
        play_hands_at(tables[1], EVENING + timedelta(hours=1), 5, timedelta(minutes=6), timedelta(minutes=4))

    off_loop(night)  # Main 2 from 21:00 to 21:28
    page = new_page((1920, 1080), locale=locale(lang))
    login_to(page, "floor", "pw-floor", "/office/players/")
    page.fill('input[name="q"]', "kel")
    expect(page.locator("#player-suggest option")).to_have_count(1, timeout=WAIT)  # the autocomplete answered
    page.locator('input[name="q"]').press("Enter")
    page.get_by_role("link", name="Anna Keller").click()
    expect(page.locator("h1")).to_contain_text("Anna Keller")
    # 23 minutes at Main 1 + 28 at Main 2 = 51 minutes = 0.85 h, 11 hands
    expect(page.locator('[data-field="total-hours"]')).to_have_text("0.85" if lang == "en" else re.compile(r"0[.,]85"))
    expect(page.locator('[data-field="total-hands"]')).to_have_text("11")
    expect(page.locator('table.sessions tr[data-table="Main 1"]')).to_have_count(1)
    expect(page.locator('table.sessions tr[data-table="Main 2"]')).to_have_count(1)
    shot(page, f"player-page-{lang}-1920x1080")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_reports_of_a_scripted_night(lang, floorman, roles, new_page):
    """The night of tests/office/test_reports.py on the page: tables, dealers, waitlist and tournament money,
    two charts and the CSV export."""
    from tests.office.night import EVENING, scripted_night

    off_loop(scripted_night, floorman, roles)
    page = new_page((1920, 1080), locale=locale(lang))
    login(page, "floor", "pw-floor")
    day = EVENING.date().isoformat()
    page.goto(f"/office/reports/?from={day}&to={day}")
    expect(page.locator('[data-chart="hands"] svg')).to_be_visible()
    expect(page.locator('[data-chart="occupancy"] svg')).to_be_visible()
    expect(page.locator('table[data-report="tables"] tbody tr')).to_have_count(3)  # two tables and the game
    expect(page.locator('table[data-report="dealers"] tbody tr')).to_have_count(3)
    waitlist = page.locator('table[data-report="waitlists"] tbody tr td')
    expect(waitlist).to_have_text(["NLHE 1/2", "3", "3", "1", "2", "16.5" if lang == "en" else "16,5"])
    expect(page.locator('table[data-report="tournaments"]')).to_contain_text("Friday Deepstack")
    shot(page, f"reports-{lang}-1920x1080")
    with page.expect_download() as download:
        page.locator('a[href*="reports.csv"]').click()
    text = open(download.value.path(), encoding="utf-8").read()
    assert "waitlist,NLHE 1/2,3,3,1,2,16.5" in text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_barred_player_is_refused_at_the_waitlist_with_the_reason_shown_to_staff(lang, floorman, new_page):
    from room.models import QueueEntry
    from tables.models import Player

    off_loop(make_room, floorman, 1, {0: ("Anna", "Ben", "Clara", "Dora", "Emil", "Fritz")})
    Player.objects.create(name="Max Muster", standing=Player.Standing.BARRED, standing_reason="marked cards, 2 Oct")
    page = new_page((1280, 800), locale=locale(lang))
    login_to(page, "floor", "pw-floor", "/room/casino/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=WAIT)
    page.fill('form[data-form="waitlist"] input[name="name"]', "Max Muster")
    page.click('form[data-form="waitlist"] button[type="submit"]')
    error = page.locator('[data-field="error"]')
    expect(error).to_be_visible(timeout=WAIT)
    expect(error).to_contain_text(T[lang]["barred"])
    expect(error).to_contain_text("marked cards, 2 Oct")
    assert not QueueEntry.objects.filter(player__name="Max Muster").exists()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_duplicate_players_merged_keep_all_their_history(lang, floorman, new_page):
    from tables.models import Player
    from tests.office.night import EVENING, play_hands_at

    _room, _game, tables = off_loop(make_room, floorman, 2, {0: ("Jörg Huber", "Ben"), 1: ("jorg  huber", "Dora")})
    keep = Player.objects.get(name="Jörg Huber")
    dup = Player.objects.get(name="jorg  huber")
    off_loop(play_hands_at, tables[0], EVENING, 3, timedelta(minutes=4), timedelta(minutes=3))
    off_loop(play_hands_at, tables[1], EVENING + timedelta(hours=2), 2, timedelta(minutes=5), timedelta(minutes=4))
    page = new_page((1920, 1080), locale=locale(lang))
    login_to(page, "floor", "pw-floor", "/office/players/")
    row = page.locator(f'form.dup[data-duplicate="{dup.pk}"]')
    expect(row).to_contain_text("Jörg Huber")
    with page.expect_navigation():
        row.get_by_role("button", name=T[lang]["merge"]).click()
    expect(page.locator("h1")).to_contain_text("Jörg Huber")
    expect(page.locator('[data-field="total-hands"]')).to_have_text("5")
    expect(page.locator('table.sessions tr[data-table="Main 1"]')).to_have_count(1)
    expect(page.locator('table.sessions tr[data-table="Main 2"]')).to_have_count(1)
    page.goto(f"/office/players/{dup.pk}/")  # the duplicate's old link finds the record kept
    expect(page.locator("h1")).to_contain_text("Jörg Huber")
    dup.refresh_from_db()
    assert dup.merged_into_id == keep.pk


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_waitlist_form_finds_a_returning_player_by_card_number_and_marks_a_barred_one(lang, floorman, new_page):
    """The room dashboard's waitlist form: the floorman types a card number, picks the returning player from
    the suggestions (there are two "Anna Keller"), and the list gets that record; a barred player shows as
    barred in the suggestions and, picked, is refused with the reason shown to the floor."""
    from room.models import QueueEntry
    from tables.models import Player

    off_loop(make_room, floorman, 1, {0: ("Ben", "Clara", "Dora", "Emil", "Fritz", "Gabi")})
    Player.objects.create(name="Anna Keller")  # another Anna Keller, older: the name alone finds her
    anna = Player.objects.create(name="Anna Keller", nickname="Annie", card_number="C-1042")
    Player.objects.create(name="Max Muster", standing=Player.Standing.BARRED, standing_reason="marked cards, 2 Oct")
    for size in ((1280, 800), (390, 844)):
        page = new_page(size, locale=locale(lang))
        login_to(page, "floor", "pw-floor", "/room/casino/")
        expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=WAIT)
        form = page.locator('form[data-form="waitlist"]')
        box = form.locator('input[name="name"]')
        if size[0] == 390:
            box.scroll_into_view_if_needed()
        box.fill("max")
        barred = form.locator('.reg-suggest li[data-status="barred"]')
        expect(barred).to_contain_text("Max Muster", timeout=WAIT)
        expect(barred).to_contain_text(T[lang]["barred"].split()[-1])  # "barred" / "gesperrt"
        shot(page, f"waitlist-picker-barred-{lang}-{size[0]}x{size[1]}")
        box.fill("C-1042")
        option = form.locator(f'.reg-suggest li[data-player-id="{anna.pk}"]')
        expect(option).to_contain_text("Anna Keller", timeout=WAIT)
        expect(option).to_contain_text("Annie")
        shot(page, f"waitlist-picker-{lang}-{size[0]}x{size[1]}")
        if size[0] == 390:
            continue
        option.click()
        expect(box).to_have_value("Anna Keller")
        expect(form.locator('[data-f="picked"]')).to_contain_text(f"#{anna.pk}")
        shot(page, f"waitlist-picked-{lang}-{size[0]}x{size[1]}")
        form.locator('button[type="submit"]').click()
        expect(page.locator('[data-f="waitlist"] li')).to_contain_text(["Anna Keller"], timeout=WAIT)
        assert QueueEntry.objects.get().player_id == anna.pk
        expect(box).to_have_value("")
        box.press_sequentially("Max M")
        form.locator('.reg-suggest li[data-status="barred"]').click()
        form.locator('button[type="submit"]').click()
        error = page.locator('[data-field="error"]')
        expect(error).to_be_visible(timeout=WAIT)
        expect(error).to_contain_text(T[lang]["barred"])
        expect(error).to_contain_text("marked cards, 2 Oct")
        assert QueueEntry.objects.count() == 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_player_pages_figures_fit_their_boxes(lang, floorman, new_page):
    """The player page's figures (hours, hands, sessions, tournament entries -- "Turniereinträge" --,
    penalties): every label inside its box and the row inside the screen, on a phone and a tablet."""
    from tables.models import Player

    anna = Player.objects.create(name="Anna Keller", nickname="Annie", card_number="C-1042")
    for size in ((390, 844), (1280, 800)):
        page = new_page(size, locale=locale(lang))
        login_to(page, "floor", "pw-floor", f"/office/players/{anna.pk}/")
        facts = page.locator("dl.facts")
        expect(facts.locator("dt")).to_have_count(5)
        expect(facts).to_contain_text("Turniereinträge" if lang == "de" else "Tournament entries")
        shot(page, f"player-figures-{lang}-{size[0]}x{size[1]}")
        overflow = page.evaluate(
            """() => {
                const out = [];
                const width = document.documentElement.clientWidth;
                for (const box of document.querySelectorAll("dl.facts > div")) {
                    const r = box.getBoundingClientRect();
                    for (const el of box.querySelectorAll("dt, dd")) {
                        const e = el.getBoundingClientRect();
                        if (el.scrollWidth > el.clientWidth + 1 || e.right > r.right + 1 || e.left < r.left - 1)
                            out.push(`${el.textContent.trim()}: ${Math.round(e.width)} px in a ${Math.round(r.width)} px box`);
                    }
                    if (r.right > width + 1) out.push(`box ${box.textContent.trim()} ends at ${Math.round(r.right)} > ${width}`);
                }
                if (document.documentElement.scrollWidth > width + 1) {
                    out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
                    for (const el of document.querySelectorAll("body *")) {
                        const e = el.getBoundingClientRect();
                        if (e.right > width + 1 && el.children.length < 3) out.push(`wider than the screen: ${el.tagName}.${el.className} ${Math.round(e.left)}-${Math.round(e.right)}`);
                    }
                }
                return out;
            }"""
        )
        assert overflow == [], f"{lang} {size}: {overflow}"
