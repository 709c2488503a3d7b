"""The director's desk in the browser: a bust and a chip correction entered
by hand (001 Ende des Turniers / 003, 004 #64), a balancing move (004 #11)
confirmed on both dealer tablets before the player is dealt in (004 #33),
away toggles that say what they do; in English and German, director at
1920x1080 and tablets at 1280x800."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import off_loop
from tests.browser.waits import login_to
from tests.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

STRUCTURE = {
    "periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30}],
    "late_registration_until": None,
}


def _make():
    """20 players, 7/7/6 at three tables; returns the tournament id and ``{name: (entry, table number, table id)}``."""
    from tables.models import Seat
    from tournaments import services
    from tournaments.models import Entry, TournamentTable

    t = services.create_tournament("Desk Cup", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=50, seed=3)
    for i in range(20):
        services.register(t.id, f"Desk {i + 1:02d}")
    services.start(t.id)
    out = {}
    for tt in TournamentTable.objects.filter(tournament=t):
        for seat in Seat.objects.filter(table_id=tt.table_id, player__isnull=False).select_related("player"):
            e = Entry.objects.get(tournament=t, player=seat.player)
            out[seat.player.name] = (
                e.id,
                tt.number,
                tt.table_id,
                len(Seat.objects.filter(table_id=tt.table_id, player__isnull=False)),
            )
    return t.id, out


def screenshot(page, name):
    """artifacts/screenshots/desk/<name>.png"""
    folder = ARTIFACTS / "screenshots" / "desk"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


def _move():
    from tournaments.models import Instruction

    i = Instruction.objects.filter(kind="move").order_by("-id").first()
    return (i.id, i.status, i.from_table, i.to_table, i.entry.player.name) if i else None


def _table_ids(tournament_id):
    from tournaments.models import TournamentTable

    return dict(TournamentTable.objects.filter(tournament_id=tournament_id).values_list("number", "table_id"))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_director_enters_a_bust_and_chips_and_the_tablets_confirm_the_move(new_page, floorman, lang):
    locale = "de-DE" if lang == "de" else "en-US"
    tid, players = off_loop(_make)
    director = new_page(viewport=(1920, 1080), locale=locale)
    login_to(director, "floor", "pw-floor", f"/tournaments/{tid}/")
    expect(director.locator("html")).to_have_attribute("lang", lang)
    director.wait_for_selector("#desk-bust .desk-bust-row select option >> nth=5", state="attached")
    # the away toggles say what they do
    first_toggle = director.locator("#td-tables button.away-toggle").first
    expect(first_toggle).to_have_text("Mark away" if lang == "en" else "Als abwesend markieren")
    first_toggle.click()
    expect(director.locator("#td-tables button.away-toggle").first).to_have_text(
        "Mark present" if lang == "en" else "Als anwesend markieren"
    )

    # a bust at the table of six (no tablet there): 7/7/5 -> balancing moves one player (004 #11)
    name, (entry, table, _table_id, _n) = next((k, v) for k, v in sorted(players.items()) if v[3] == 6)
    director.select_option("#desk-bust .desk-bust-row select", str(entry))
    director.fill("#desk-bust input[name=stack]", "10000")
    director.fill("#desk-bust input[name=note]", "table without tablet")
    director.click("#desk-bust button[type=submit]")
    director.wait_for_selector(f"#td-desk-log li[data-kind=desk_bust]:has-text('{name}')")
    director.wait_for_selector(f"#td-finishes li:has-text('{name}')")
    expect(director.locator("#td-desk-log li[data-kind=desk_bust]")).to_contain_text("table without tablet")
    expect(director.locator("#td-desk-log li[data-kind=desk_bust]")).to_contain_text("floor")

    # a chip correction: found chips taken out of play (004 #64)
    other, (other_entry, *_rest) = next((k, v) for k, v in sorted(players.items()) if k != name)
    director.select_option("#desk-chips select[name=entry]", str(other_entry))
    director.fill("#desk-chips input[name=amount]", "-500")
    director.select_option("#desk-chips select[name=reason]", "found_chips")
    director.fill("#desk-chips input[name=note]", "chips under the table")
    director.click("#desk-chips button[type=submit]")
    director.wait_for_selector("#td-desk-log li[data-kind=desk_chips]")
    expect(director.locator("#td-desk-log li[data-kind=desk_chips]")).to_contain_text("(004 #64)")
    # chips as the page's language writes them (issue 23 #11: no "+1'000 ... 25000" mix)
    expect(director.locator("#td-desk-log li[data-kind=desk_chips]")).to_contain_text(
        "10,000 → 9,500" if lang == "en" else "10.000 → 9.500"
    )

    # the balancing move waits for the tablets (004 #33)
    move_id, status, from_table, to_table, mover = off_loop(_move)
    assert status == "moving" and to_table == table
    director.wait_for_selector(f"#td-pending-moves li[data-move='{move_id}']")
    screenshot(director, f"director_desk_{lang}_1920x1080")

    ids = off_loop(_table_ids, tid)
    tablets = {}
    for side, number in (("to", to_table), ("from", from_table)):
        tablet = new_page(viewport=(1280, 800), locale=locale)
        login_to(tablet, "floor", "pw-floor", f"/tables/{ids[number]}/dealer/")
        tablet.wait_for_selector(f".notice-moves [data-move='{move_id}'] button")
        tablets[side] = tablet
    expect(tablets["to"].locator(".notice-moves")).to_contain_text(mover)
    screenshot(tablets["to"], f"tablet_move_arriving_{lang}_1280x800")
    tablets["to"].click(f".notice-moves [data-move='{move_id}'] button")
    tablets["to"].wait_for_selector(f".notice-moves [data-move='{move_id}'] .hint")
    assert off_loop(_move)[1] == "moving"  # one tablet is not enough
    tablets["from"].click(f".notice-moves [data-move='{move_id}'] button")
    tablets["from"].wait_for_selector(".notice-moves", state="hidden")
    assert off_loop(_move)[1] == "done"
    director.wait_for_selector(f"#td-instructions li[data-kind=move][data-status=done]:has-text('{mover}')")
    expect(director.locator("#td-pending-moves li.empty")).to_be_visible()
    screenshot(tablets["from"], f"tablet_after_move_{lang}_1280x800")

    # the chip correction is undone: the chips are back, both entries stay in the log
    director.once("dialog", lambda d: d.accept())
    director.click("#td-desk-log li[data-kind=desk_chips] button[data-desk-undo]")
    director.wait_for_selector("#td-desk-log li[data-kind=desk_undone]")
    expect(director.locator("#td-desk-log li[data-kind=desk_chips]")).to_have_class("undone")
    screenshot(director, f"director_desk_undone_{lang}_1920x1080")
    for width, height in ((1280, 800), (800, 1280), (390, 844)):
        director.set_viewport_size({"width": width, "height": height})
        director.locator("#td-desk").scroll_into_view_if_needed()
        screenshot(director, f"director_desk_{lang}_{width}x{height}")
        assert director.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (width, height)


def _four_players():
    from tournaments import services
    from tournaments.models import TournamentTable

    t = services.create_tournament("Felt Cup", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=50, seed=5)
    for i in range(4):
        services.register(t.id, f"Felt {i + 1}")
    services.start(t.id)
    return TournamentTable.objects.get(tournament=t).table_id


def _busted_names(table_id):
    from tournaments.models import Entry, TournamentTable

    t = TournamentTable.objects.get(table_id=table_id).tournament
    return list(Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).values_list("player__name", flat=True))


def test_a_busted_player_leaves_the_felt_of_the_tablet_at_once(new_page, floorman):
    from tests.browser.test_tournament import BUST_HAND_JS

    table_id = off_loop(_four_players)
    tablet = new_page(viewport=(1280, 800))
    login_to(tablet, "floor", "pw-floor", f"/tables/{table_id}/dealer/")
    tablet.wait_for_selector("#dealer .seat:not(.empty) >> nth=3")
    tablet.evaluate(BUST_HAND_JS, table_id)
    busted = off_loop(_busted_names, table_id)
    assert len(busted) == 1
    # the hand is over: his seat is empty on the felt now, not after the next hand
    expect(tablet.locator("#dealer .seat:not(.empty)")).to_have_count(3)
    expect(tablet.locator("#dealer .seat .seat-name", has_text=busted[0])).to_have_count(0)
    screenshot(tablet, "tablet_after_bust_en_1280x800")
