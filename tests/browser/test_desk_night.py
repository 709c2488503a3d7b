"""The director's desk in the browser on a tournament night (issue 23, findings 3, 5, 11, 13): the
clock buttons work with the Level box empty; the registration list says where a seated player sits;
a registration is renamed and cancelled (refund) from its row; the entry buttons stay inside the
registration panel at 1440 px; the structure editor locks the periods already played; the create
form switches rebuys and add-ons on.  English and German; screenshots to /tmp/shots/desk/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop
from tests.browser.waits import login_to

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/desk")

STRUCTURE = {
    "periods": [
        {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
        {"kind": "level", "small_blind": 200, "big_blind": 400, "minutes": 20},
        {"kind": "break", "minutes": 10, "color_up": [100]},
        {"kind": "level", "small_blind": 300, "big_blind": 600, "minutes": 20},
    ],
    "late_registration_until": 1,
}


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def _night():
    """A running 004 re-entry event: 20 seated on 3 tables, one late registration waiting to be
    seated by hand is not needed; returns (tournament id, {name: (entry, table, seat)})."""
    from tables.models import Seat
    from tournaments import services
    from tournaments.models import Entry

    t = services.create_tournament(
        "Desk Night",
        "munotpoker",
        STRUCTURE,
        starting_stack=10_000,
        buy_in=50,
        seed=5,
        re_entries_allowed=2,
        rebuys_allowed=1,
    )
    for i in range(20):
        services.register(t.id, f"Night Player {i + 1:02d}")
    services.start(t.id)
    where = {}
    for seat in Seat.objects.filter(table__tournament_table__tournament=t, player__isnull=False).select_related(
        "player", "table__tournament_table"
    ):
        e = Entry.objects.get(tournament=t, player=seat.player, status="seated")
        where[seat.player.name] = (e.id, seat.table.tournament_table.number, seat.number)
    return t.id, where


def _state(tid):
    from tournaments.models import Entry, Tournament, TournamentEvent

    t = Tournament.objects.get(pk=tid)
    return {
        "paused": t.clock_paused_at is not None,
        "clock_events": list(
            TournamentEvent.objects.filter(tournament=t, kind__startswith="clock_").values_list("kind", flat=True)
        ),
        "entries": {
            e.id: (e.player.name, e.status) for e in Entry.objects.filter(tournament=t).select_related("player")
        },
    }


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_desk_on_a_night(new_page, floorman, lang):
    tid, where = off_loop(_night)
    locale = "de-DE" if lang == "de" else "en-US"
    page = new_page(viewport=(1440, 900), locale=locale)
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/")
    page.wait_for_selector("#td-entries tr[data-status=seated]")
    error = page.locator("#td-error")

    # finding 3: an empty Level box does not stop the clock buttons
    page.fill("#jump-level", "")
    page.locator("button[data-clock=pause]").click()
    for _ in range(50):
        if off_loop(_state, tid)["paused"]:
            break
        page.wait_for_timeout(100)
    expect(error).to_be_hidden()
    assert off_loop(_state, tid)["paused"]
    page.locator("button[data-clock=resume]").click()
    page.locator("button[data-clock=adjust][data-seconds='60']").click()
    page.locator("button[data-clock=adjust][data-seconds='-60']").click()
    for _ in range(50):  # each click is one POST: wait until the four are in
        state = off_loop(_state, tid)
        if len(state["clock_events"]) == 4:
            break
        page.wait_for_timeout(100)
    expect(error).to_be_hidden()
    assert state["clock_events"] == ["clock_pause", "clock_resume", "clock_adjust", "clock_adjust"]
    assert not state["paused"]
    # a jump without a level says so, in words
    page.locator("button[data-clock=jump]").click()
    expect(error).to_be_visible()
    assert "Input should" not in error.text_content()
    expect(error).to_contain_text("Level")

    # finding 11: a seated player's row says where he sits
    name, (entry, table, seat) = sorted(where.items())[0]
    row = page.locator(f"#td-entries tr[data-entry-row='{entry}']")
    expected = f"table {table}, seat {seat}" if lang == "en" else f"Tisch {table}, Platz {seat}"
    expect(row).to_contain_text(expected)

    # finding 11: the entry buttons stay inside the registration panel at 1440 px
    panel = page.locator("section.td-reg").bounding_box()
    for button in page.locator("#td-entries tr[data-status=seated] button").all()[:40]:
        box = button.bounding_box()
        assert box["x"] >= panel["x"] - 1 and box["x"] + box["width"] <= panel["x"] + panel["width"] + 1, (
            button.text_content(),
            box,
            panel,
        )
    row.scroll_into_view_if_needed()
    shot(page, f"desk_registrations_1440_{lang}")

    # finding 5: rename from the row (the name typed with extra spaces is normalised)
    page.once("dialog", lambda d: d.accept("  Nina   Nachname "))
    row.locator("button[data-entry-op=rename]").click()
    expect(page.locator(f"#td-entries tr[data-entry-row='{entry}']")).to_contain_text("Nina Nachname")
    assert off_loop(_state, tid)["entries"][entry] == ("Nina Nachname", "seated")
    # a second registration of a name typed in other case is refused in words
    page.fill("#reg-form input[name=player]", "NIGHT player 02")
    page.locator("#reg-form button[type=submit]").click()
    expect(error).to_be_visible()
    expect(error).to_contain_text("Night Player 02")

    # finding 5: cancel (refund) from the row, after a confirmation
    other_name, (other, _t, _s) = sorted(where.items())[1]
    pool_before = page.locator("[data-f=pool]").text_content()
    page.once("dialog", lambda d: d.accept())
    page.locator(f"#td-entries tr[data-entry-row='{other}'] button[data-entry-op=cancel]").click()
    expect(page.locator(f"#td-entries tr[data-entry-row='{other}']")).to_have_attribute("data-status", "cancelled")
    expect(page.locator("[data-f=pool]")).not_to_have_text(pool_before)
    assert off_loop(_state, tid)["entries"][other] == (other_name, "cancelled")
    page.set_viewport_size({"width": 1920, "height": 1080})
    shot(page, f"desk_1920_{lang}")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("section.td-reg").scroll_into_view_if_needed()
    shot(page, f"desk_registrations_390_{lang}")


def _jump(tid, level):
    from tournaments import services

    services.clock_action(tid, "jump", level=level)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_structure_editor_locks_the_periods_played(new_page, floorman, lang):
    tid, _where = off_loop(_night)
    off_loop(_jump, tid, 2)  # period 1 has been played
    page = new_page(viewport=(1280, 800), locale="de-DE" if lang == "de" else "en-US")
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/structure/")
    rows = page.locator("#ts-rows tr")
    expect(rows.first).to_have_attribute("data-played", "1")
    expect(rows.nth(1)).to_have_attribute("data-played", "0")
    assert rows.first.locator("input").first.is_disabled()
    assert rows.first.locator("button").first.is_disabled()
    assert rows.nth(1).locator("input").first.is_enabled()
    shot(page, f"structure_played_{lang}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_create_form_switches_rebuys_and_add_ons_on(new_page, floorman, lang):
    page = new_page(viewport=(1280, 800), locale="de-DE" if lang == "de" else "en-US")
    login_to(page, "floor", "pw-floor", "/tournaments/")
    page.fill("input[name=name]", f"Rebuy Night {lang}")
    page.select_option("select[name=rulebook]", "munotpoker")
    page.fill("input[name=starting_stack]", "20k")
    page.fill("input[name=rebuys]", "2")
    page.fill("input[name=add_ons]", "1")
    page.fill("input[name=rebuy_max_stack]", "5000")
    shot(page, f"create_form_{lang}")
    page.evaluate("document.querySelector('form.td-create').noValidate = true")
    page.locator("form.td-create button[type=submit]").click()
    error = page.locator("p.error")
    expect(error).to_be_visible()
    assert "invalid literal" not in error.text_content()
    expect(page.locator("input[name=rebuys]")).to_have_value("2")  # what was typed is kept
    page.fill("input[name=starting_stack]", "20000")
    page.locator("form.td-create button[type=submit]").click()
    page.wait_for_url("**/tournaments/*/")
    page.wait_for_selector("#td-entries")
    assert off_loop(_settings, f"Rebuy Night {lang}") == (2, 1, 5000, 20000)


def _settings(name):
    from tournaments.models import Tournament

    t = Tournament.objects.get(name=name)
    return (t.rebuys_allowed, t.add_ons_allowed, t.rebuy_max_stack, t.starting_stack)


def _token(tid):
    from tournaments.models import Tournament

    return Tournament.objects.get(pk=tid).public_token


@pytest.mark.parametrize("lang, text", [("en", "50.0"), ("de", "50,0")])
def test_the_tv_writes_big_blinds_as_its_language_does(new_page, lang, text):
    """Issue 23 #11: "40.7 BB" on the German TV; 20 x 10,000 chips at 100/200 average 50.0 big blinds."""
    tid, _where = off_loop(_night)
    page = new_page(viewport=(1920, 1080), locale="de-DE" if lang == "de" else "en-US")
    page.goto(f"/tournaments/lobby/{off_loop(_token, tid)}/")
    expect(page.locator("[data-f=average_bb]")).to_contain_text(text)


def _seat_of(tid, entry):
    from tables.models import Seat
    from tournaments.models import Entry, Finish

    e = Entry.objects.select_related("player").get(pk=entry)
    seat = Seat.objects.filter(player=e.player, table__tournament_table__tournament_id=tid).first()
    finish = Finish.objects.filter(entry=e).first()
    return {"status": e.status, "stack": seat.stack if seat else None, "finished": finish is not None}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_seat_quick_buttons_open_the_desk_forms_with_the_player(new_page, floorman, lang):
    """What a director expects (issue 23): a seat's Out / Move / Chips buttons, no long list of
    every player; Out asks who won the chips among the players of his table."""
    tid, where = off_loop(_night)
    page = new_page(viewport=(1920, 1080), locale="de-DE" if lang == "de" else "en-US")
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/")
    page.wait_for_selector("#td-tables .seat-tools button")
    (name, (entry, table, _seat)), (winner, (winner_entry, winner_table, _s2)) = next(
        (a, b) for a in sorted(where.items()) for b in sorted(where.items()) if a[1][1] == b[1][1] and a != b
    )
    assert winner_table == table
    card = page.locator(f"#td-tables .td-table[data-table='{table}']")
    card.locator(f"button[data-seat-tool=chips][data-entry='{entry}']").click()
    expect(page.locator("#desk-chips select[name=entry]")).to_have_value(str(entry))
    expect(page.locator("#desk-chips input[name=amount]")).to_be_focused()
    card.locator(f"button[data-seat-tool=move][data-entry='{entry}']").click()
    expect(page.locator("#desk-move select[name=entry]")).to_have_value(str(entry))
    expect(page.locator("#desk-move input[name=table]")).to_be_focused()
    card.locator(f"button[data-seat-tool=bust][data-entry='{entry}']").click()
    expect(page.locator("#desk-bust .desk-bust-row select").first).to_have_value(str(entry))
    winners = page.locator("#desk-bust select[data-winners]")
    expect(winners).to_be_focused()
    options = winners.locator("option").all_text_contents()
    same_table = [n for n, (_e, tb, _s) in where.items() if tb == table and n != name]
    assert len(options) == 1 + len(same_table) and all(any(n in o for o in options) for n in same_table), options
    assert not any(name in o for o in options)
    shot(page, f"desk_quick_bust_{lang}")
    winners.select_option(str(winner_entry))
    page.locator("#desk-bust button[type=submit]").click()
    for _ in range(50):
        if off_loop(_seat_of, tid, entry)["finished"]:
            break
        page.wait_for_timeout(100)
    assert off_loop(_seat_of, tid, entry)["status"] == "busted"
    assert off_loop(_seat_of, tid, winner_entry)["stack"] == 20_000  # his chips went to the winner
