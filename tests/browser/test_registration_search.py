"""The registration desk finds a returning player instead of retyping him (issue 23, "Player search
and autocomplete at registration (with a player ID)"): the director types "ann", the known players
are offered with country and player ID, he picks "Anna Müller #N" and the entry is hers -- no second
Anna Müller.  In English and German, director at 1920x1080 and on a phone (390x844)."""

import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop
from tests.browser.waits import hold_answers, login_to, release_answers
from tests.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

LEVELS = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}


def _make():
    """A new tournament; Anna Müller (CH) and Annika Berg played last week, Hanna Marianne Keller too."""
    from tables.models import Player
    from tournaments import services

    last = services.create_tournament("Last week", "munotpoker", LEVELS, starting_stack=1000)
    anna = Player.objects.create(name="Anna Müller", country="CH")
    services.register(last.id, player_id=anna.id)
    for name in ("Annika Berg", "Hanna Marianne Keller"):
        services.register(last.id, name)
    t = services.create_tournament("Search Cup", "munotpoker", LEVELS, starting_stack=1000)
    return t.id, anna.id


def _entries(tournament_id):
    from tournaments.models import Entry

    return list(Entry.objects.filter(tournament_id=tournament_id).values_list("player_id", "player__name"))


def _annas():
    from tables.models import Player

    return Player.objects.filter(name_key="anna muller").count()


@pytest.mark.parametrize(("lang", "viewport"), [("en", (1920, 1080)), ("de", (390, 844))])
def test_the_director_types_ann_and_registers_the_anna_mueller_he_picked(new_page, floorman, lang, viewport):
    tid, anna = off_loop(_make)
    page = new_page(viewport=viewport, locale="de-DE" if lang == "de" else "en-US")
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/")
    expect(page.locator("#tournament")).to_have_attribute("data-conn", "open", timeout=15_000)
    box = page.locator("#reg-form input[name=player]")
    expect(box).to_have_attribute("placeholder", "Player name or #ID" if lang == "en" else "Spielername oder #ID")
    box.press_sequentially("ann", delay=60)
    options = page.locator("#reg-suggest li[role=option]")
    expect(options).to_have_count(2)  # Anna and Annika: "Marianne" has no word beginning with "ann"
    anna_option = options.filter(has_text="Anna Müller")
    expect(anna_option).to_contain_text(f"#{anna}")
    expect(anna_option).to_contain_text("CH")
    expect(options.filter(has_text="Hanna Marianne Keller")).to_have_count(0)
    folder = ARTIFACTS / "screenshots" / "registration"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"search-{lang}-{viewport[0]}.png"))
    anna_option.click()
    expect(box).to_have_value("Anna Müller")
    expect(page.locator("#reg-form .reg-picked")).to_have_text(f"#{anna}")
    expect(page.locator("#reg-suggest")).to_be_hidden()
    page.locator("#reg-form button[type=submit]").click()
    expect(page.locator("#td-entries")).to_contain_text("Anna Müller", timeout=15_000)
    expect(box).to_have_value("")
    assert off_loop(_entries, tid) == [(anna, "Anna Müller")]  # her entry, not a new player's
    assert off_loop(_annas) == 1

    # typed again in another spelling, by keyboard: offered as registered, and refused as a duplicate
    box.press_sequentially("MÜL", delay=60)
    expect(options).to_have_count(1)
    expect(options.first).to_contain_text("registered" if lang == "en" else "angemeldet")
    box.press("ArrowDown")
    expect(options.first).to_have_attribute("aria-selected", "true")
    box.press("Enter")  # picks, does not submit
    expect(box).to_have_value("Anna Müller")
    page.locator("#reg-form button[type=submit]").click()
    expect(page.locator("#td-error")).to_be_visible()
    assert len(off_loop(_entries, tid)) == 1


def test_a_name_typed_and_sent_at_once_leaves_no_suggestions_over_the_desk(new_page, floorman):
    """A director types a known name and presses Enter before the search's keystroke pause: the
    search answered after the registration must not open a list over the buttons below (it covered
    "Seat the waitlist" in the 33-entry night)."""
    tid, _ = off_loop(_make)
    page = new_page(viewport=(1600, 1000))
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/")
    expect(page.locator("#tournament")).to_have_attribute("data-conn", "open", timeout=15_000)
    box = page.locator("#reg-form input[name=player]")

    def busy(route):  # a busy evening: the registration answers after the search's pause, the search later
        if route.request.method == "POST":
            time.sleep(0.3)
        elif "/players/" in route.request.url:
            time.sleep(0.6)
        route.continue_()

    page.route("**/tournaments/**", busy)
    for name in ("Annika Berg", "Anna Neu"):
        box.fill(name)
        box.press("Enter")
        expect(page.locator("#td-entries tr", has_text=name)).to_have_count(1)
    page.wait_for_timeout(600)  # longer than the keystroke pause and the search's answer
    expect(page.locator("#reg-suggest")).to_be_hidden()


def _names(tournament_id):
    from tournaments.models import Entry

    return sorted(Entry.objects.filter(tournament_id=tournament_id).values_list("player__name", flat=True))


def test_the_next_name_typed_while_the_last_registration_is_answered_is_kept(new_page, floorman):
    """A line at the desk: the director types the next player's name while the last registration's answer
    is still on its way.  The late answer clears the form only if nothing was typed since: the next name
    stays, and Enter registers him (before, it was wiped)."""
    tid, _ = off_loop(_make)
    page = new_page(viewport=(1600, 1000))
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/")
    expect(page.locator("#tournament")).to_have_attribute("data-conn", "open", timeout=15_000)
    hold_answers(page)
    box = page.locator("#reg-form input[name=player]")
    box.fill("Carla Neu")
    box.press("Enter")
    for _ in range(50):
        if "Carla Neu" in off_loop(_names, tid):
            break
        time.sleep(0.1)
    box.fill("Dora Neu")  # the answer for Carla has not come yet
    release_answers(page)
    expect(page.locator("#td-entries tr", has_text="Carla Neu")).to_have_count(1)
    expect(box).to_have_value("Dora Neu")
    box.press("Enter")
    expect(page.locator("#td-entries tr", has_text="Dora Neu")).to_have_count(1)
    expect(box).to_have_value("")  # accepted with nothing typed since: cleared for the next player
    assert off_loop(_names, tid) == ["Carla Neu", "Dora Neu"]
