"""A 33-entry MunotPoker (004) night from creation to the results sheet, in the browser (issue 23,
"Done when"), in English and in German.

The director creates the event on the desk's create form (re-entries, a rebuy and an add-on switched
on) and loads the "turbo" template in the structure editor; 27 players are registered (through the
services: typing names is not the point) and drawn to 3 tables of 9 by the desk's start button; the
desk assigns dealer logins to tables 1 and 2, whose tablets then play hands under those logins.  Four
late players register at the desk, wait, and "Seat the waitlist" opens table 4 for them (004 #8,
#73); two busted players re-enter (entries 32 and 33), one player rebuys and one takes the add-on
from their registration rows.  Busts come from the desk (the winner of the chips named, so the
chips-in-play check stays green: a count at a break proves it) and from hands dealt on the tablets;
balancing and breaking moves are confirmed on the tablets (both sides, 004 #33) or on the floor
dashboard.  Ten places are paid: at eleven left on two tables the desk starts hand-for-hand (004
#77) and the bubble bursts; at three left the payout desk records an ICM deal; two desk busts end
the night.  The results: places 1..33 each exactly once, the prizes add up to the pool, and the
deal's amounts are the same on the payout desk, the lobby TV, the results CSV and the payout slips.

Screenshots (desk; TV at a level, at a break, finished; payout slips and results) at 1920x1080,
1280x720 and 390x844 go to /tmp/shots/tourneynight/.
"""

from __future__ import annotations

import csv
import io
import re
import time as _time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS, login, off_loop
from tests.browser.test_tournament_e2e import Floor, _chip_check
from tests.browser.waits import login_to

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/tourneynight")
SIZES = ((1920, 1080), (1280, 720), (390, 844))
PAID = 10


def shots(page, name: str, full: bool = False) -> None:
    """The page at the three sizes (the viewport is put back afterwards); nothing without screenshots."""
    if not SCREENSHOTS:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{name}-{w}x{h}.png"), full_page=full)
    page.set_viewport_size(before)


# ------------------------------------------------------------------ the server's side


def _register(tid: int, names: list[str]) -> None:
    from tournaments import services

    for name in names:
        services.register(tid, name)


def _entries(tid: int) -> dict:
    from tournaments.models import Entry

    return {
        e.id: (e.player.name, e.status, e.rebuys, e.add_ons)
        for e in Entry.objects.filter(tournament_id=tid).select_related("player")
    }


def _pool(tid: int) -> int:
    from tournaments.models import Tournament
    from tournaments.services.payouts import pool_of

    return pool_of(Tournament.objects.get(pk=tid)).pool


def _clock(tid: int, *ops) -> None:
    from tournaments import services

    for op, kw in ops:
        services.clock_action(tid, op, **kw)


def _structure(tid: int) -> dict:
    from tournaments.models import Tournament

    return Tournament.objects.get(pk=tid).structure


def _hand_for_hand(tid: int) -> bool:
    from tournaments.models import Tournament

    return Tournament.objects.get(pk=tid).hand_for_hand


def _dealers(tid: int) -> dict:
    from tournaments.models import TournamentTable

    return {
        tt.number: (tt.table.dealer.username if tt.table.dealer_id else None)
        for tt in TournamentTable.objects.filter(tournament_id=tid).select_related("table__dealer")
    }


def _finishes(tid: int) -> list[tuple]:
    from tournaments.models import Finish

    return list(
        Finish.objects.filter(tournament_id=tid).order_by("place").values_list("entry__player__name", "place", "prize")
    )


class Night(Floor):
    """The e2e's floor (director, tablets, floor dashboard), with the tablets under dealer logins."""

    def open_dealer_tablets(self, st: dict, logins: dict[int, str]) -> None:
        for number, username in logins.items():
            tablet = self.new_page(viewport=(1280, 800), locale=self.locale)
            login_to(tablet, username, f"pw-{username}", f"/tables/{st['table_ids'][number]}/dealer/")
            tablet.wait_for_selector("#dealer .seat:not(.empty) >> nth=1")
            self.tablets[number] = tablet
        self.floor = self.new_page(viewport=(1280, 800), locale=self.locale)
        login_to(self.floor, "floor", "pw-floor", "/floor/")

    def desk_bust_won(self, victim: dict, winner: dict, note: str, *, placed: bool = True) -> int:
        """One player out at the desk, his chips won by ``winner`` (issue 23 #12: the check stays green).

        Gives how many places the victim had before (a player who re-entered has one already)."""
        d = self.director
        row = d.locator("#desk-bust .desk-bust-row").first
        row.locator(f"select option[value='{victim['entry']}']").wait_for(state="attached")
        row.locator("select").select_option(str(victim["entry"]))
        d.locator(f"#desk-bust select[name=won_by] option[value='{winner['entry']}']").wait_for(state="attached")
        d.select_option("#desk-bust select[name=won_by]", str(winner["entry"]))
        d.fill("#desk-bust input[name=note]", note)
        before = _finish_rows(d, victim["player"]).count()
        with d.expect_response(lambda r: "/action/" in r.url):
            d.click("#desk-bust button[type=submit]")
        expect(d.locator("#desk-bust input[name=note]")).to_have_value("")  # accepted: cleared for the next
        if placed:  # in a hand-for-hand round the place waits for the other tables' hands (004 #79)
            expect(_finish_rows(d, victim["player"])).to_have_count(before + 1)
        return before
        expect(d.locator("#td-error")).to_be_hidden()

    def bust_at_the_desk(self) -> None:
        """The shortest stack of the fullest table out at the desk, the biggest there wins his chips."""
        self.bust_somewhere(0)

    def bust_somewhere(self, turn: int) -> None:
        """One bust: on a tablet table every other turn (a hand dealt there), else at the desk."""
        st = self.state()
        tablets = [n for n in self.tablets if n in st["tables"] and len(st["tables"][n]["seats"]) >= 2]
        if turn % 2 and tablets:
            n = max(tablets, key=lambda x: len(st["tables"][x]["seats"]))
            before = st["players_left"]
            for _ in range(4):  # a hand where the all-in is covered busts somebody
                try:
                    if not self.play(n, self.state()):
                        break
                except Exception as exc:  # the table is being broken: its players are on the way
                    if "table_closed" not in str(exc):
                        raise
                    break
                if self.state()["players_left"] < before:
                    return
        st = self.state()
        n = max(st["tables"], key=lambda x: len(st["tables"][x]["seats"]))
        seats = st["tables"][n]["seats"]
        victim = min(seats, key=lambda s: (s["stack"], s["seat"]))
        winner = max((s for s in seats if s is not victim), key=lambda s: s["stack"])
        self.desk_bust_won(victim, winner, f"table {n}")


_T0 = [0.0]


def mark(what):
    print(f"{_time.monotonic() - _T0[0]:7.1f}s {what}", flush=True)


def _text(lang: str, en: str, de: str) -> str:
    return de if lang == "de" else en


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_33_entry_night_ends_with_the_right_results_sheet(new_page, floorman, dealer, other_dealer, lang):
    _T0[0] = _time.monotonic()
    locale = "de-DE" if lang == "de" else "en-US"
    d = new_page(viewport=(1600, 1000), locale=locale)
    login(d, "floor", "pw-floor")
    d.on("dialog", lambda dialog: dialog.accept())

    # created on the desk: MunotPoker, 10,000 chips for 100, a re-entry, a rebuy and an add-on
    d.goto("/tournaments/")
    d.fill("input[name=name]", f"Munot Night {lang}")
    d.select_option("select[name=rulebook]", "munotpoker")
    d.fill("input[name=starting_stack]", "10000")
    d.fill("input[name=buy_in]", "100")
    d.fill("input[name=max_seats]", "9")
    d.fill("input[name=re_entries]", "1")
    d.fill("input[name=rebuys]", "1")
    d.fill("input[name=add_ons]", "1")
    d.locator("form.td-create button[type=submit]").click()
    d.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tid = int(re.search(r"/tournaments/(\d+)/", d.url).group(1))

    mark("... from a templat")
    # ... from a template: the structure editor loads "turbo" and saves it
    d.goto(f"/tournaments/{tid}/structure/")
    d.select_option("#ts-template", "turbo")
    # the rows drawn before are marked: the template is loaded once every row is drawn anew from it
    d.evaluate("() => { for (const tr of document.querySelectorAll('#ts-rows tr')) tr.dataset.before = '1'; }")
    with d.expect_response(lambda r: "template=turbo" in r.url) as answer:
        d.click("#ts-load-template")
    periods = answer.value.json()["structure"]["periods"]
    expect(d.locator("#ts-rows tr")).to_have_count(len(periods))
    expect(d.locator("#ts-rows tr[data-before]")).to_have_count(0)
    # the template has no rebuy or add-on period: the director gives them the late registration's
    for window in ("rebuy_until", "add_on_until"):
        d.select_option(f"select[data-window={window}]", "7")
    d.click("#ts-save")
    expect(d.locator("#ts-saved")).not_to_be_empty()
    expect(d.locator("#ts-errors")).to_be_hidden()
    structure = off_loop(_structure, tid)
    assert structure["periods"][0]["small_blind"] == 50 and structure["late_registration_until"] == 7
    assert structure["rebuy_until"] == structure["add_on_until"] == 7

    mark("27 registered")
    # 27 registered; the desk's start button draws them to 3 tables of 9
    off_loop(_register, tid, [f"Spieler {i:02d}" for i in range(1, 28)])
    floor = Night.__new__(Night)
    floor.locale = locale
    Floor.__init__(floor, lambda **kw: new_page(**{"locale": locale, **kw}), tid, "munotpoker")
    d = floor.director
    d.on("dialog", lambda dialog: dialog.accept())
    d.click("button[data-op=start_tournament]")
    d.wait_for_selector("#td-tables .td-table >> nth=2")
    st = floor.state()
    assert sorted(len(tb["seats"]) for tb in st["tables"].values()) == [9, 9, 9]

    mark("dealer logins")
    # dealer logins assigned to tables 1 and 2 on the desk (issue 23 #7); their tablets open
    for number, username in ((1, "dealer"), (2, "dealer2")):
        d.locator(f"#desk-dealer select[name=table] option[value='{number}']").wait_for(state="attached")
        d.select_option("#desk-dealer select[name=table]", str(number))
        d.fill("#desk-dealer input[name=username]", username)
        d.click("#desk-dealer button[type=submit]")
        # the director sees the entry accepted: the form is cleared for the next one
        expect(d.locator("#desk-dealer input[name=username]")).to_have_value("")
        for _ in range(50):
            if off_loop(_dealers, tid).get(number) == username:
                break
            d.wait_for_timeout(100)
        expect(d.locator("#td-error")).to_be_hidden()
    assert off_loop(_dealers, tid)[1] == "dealer"
    floor.open_dealer_tablets(st, {1: "dealer", 2: "dealer2"})

    lobby = new_page(viewport=(1920, 1080), locale=locale)
    lobby.goto(f"/tournaments/lobby/{st['token']}/")
    lobby.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '27'")
    shots(lobby, f"tv-level-{lang}")

    mark("4 late")
    # 4 late registrations at the desk wait; "Seat the waitlist" opens table 4 for them (issue 23 #4)
    for i in range(1, 5):
        d.fill("#reg-form input[name=player]", f"Spät {i:02d}")
        d.click("#reg-form button[type=submit]")
        d.wait_for_selector(f"#td-entries tr:has-text('Spät {i:02d}')")
    expect(d.locator("#td-error")).to_be_hidden()
    expect(d.locator("#td-entries tr[data-status=waitlisted]")).to_have_count(4)
    with d.expect_response(lambda r: "/action/" in r.url):
        d.click("button[data-op=seat_waitlist]")
    expect(d.locator("#td-error")).to_be_hidden()
    d.wait_for_selector("#td-tables .td-table[data-table='4']", timeout=20_000)
    floor.confirm_moves()
    st = floor.state()
    assert st["players_left"] == 31 and len(st["tables"]) == 4
    assert (
        max(len(tb["seats"]) for tb in st["tables"].values()) - min(len(tb["seats"]) for tb in st["tables"].values())
        <= 1
    ), "the tables are balanced after the late entries"

    mark("a rebuy and")
    # a rebuy and an add-on from the registration rows
    entries = off_loop(_entries, tid)
    seated = sorted(e for e, v in entries.items() if v[1] == "seated")
    d.fill("#td-entries-search", entries[seated[0]][0])
    d.locator(f"#td-entries button[data-entry-op=rebuy][data-entry='{seated[0]}']:not([data-add-on])").click()
    d.fill("#td-entries-search", entries[seated[1]][0])
    d.locator(f"#td-entries button[data-entry-op=rebuy][data-add-on][data-entry='{seated[1]}']").click()
    for _ in range(50):
        entries = off_loop(_entries, tid)
        if entries[seated[0]][2] == 1 and entries[seated[1]][3] == 1:
            break
        d.wait_for_timeout(100)
    assert entries[seated[0]][2] == 1 and entries[seated[1]][3] == 1, "rebuy and add-on recorded"
    d.fill("#td-entries-search", "")
    expect(d.locator("#td-error")).to_be_hidden()

    mark("two players bust")
    # two players bust (desk, tablet) and re-enter from their rows: entries 32 and 33
    turn = 0
    for _ in range(2):
        before = {e for e, v in off_loop(_entries, tid).items() if v[1] == "busted"}
        while True:
            turn += 1
            floor.bust_somewhere(turn)
            floor.confirm_moves()
            busted = {e for e, v in off_loop(_entries, tid).items() if v[1] == "busted"} - before
            if busted:
                break
        out = busted.pop()
        name = off_loop(_entries, tid)[out][0]
        d.fill("#td-entries-search", name)
        d.locator(f"#td-entries button[data-entry-op=re_enter][data-entry='{out}']").click()
        for _ in range(50):
            if sum(1 for v in off_loop(_entries, tid).values() if v[0] == name) == 2:
                break
            d.wait_for_timeout(100)
        d.fill("#td-entries-search", "")
        expect(d.locator("#td-error")).to_be_hidden()
        d.click("button[data-op=seat_waitlist]")
        floor.confirm_moves()
    entries = off_loop(_entries, tid)
    assert len([v for v in entries.values() if v[1] != "cancelled"]) == 33
    pool = off_loop(_pool, tid)
    assert pool == 35 * 100  # 33 entries, a rebuy and an add-on

    mark("late registration ")
    # late registration closes (level 8); a break: the chip count of a table, the check green
    off_loop(_clock, tid, ("jump", {"level": 6}), ("adjust", {"seconds": -12 * 60}))
    lobby.reload()  # the clock was moved through the services: their broadcast stays in the test's process
    lobby.wait_for_selector("[data-f=players_left]")
    if SCREENSHOTS:
        lobby.wait_for_timeout(800)  # the break's picture settled for the screenshots
    shots(lobby, f"tv-break-{lang}")
    chips = new_page(viewport=(1600, 1000), locale=locale)
    login(chips, "floor", "pw-floor")
    with chips.expect_response(lambda r: "/chips/api/" in r.url):
        chips.goto(f"/tournaments/{tid}/chips/")
    st = floor.state()
    n = next(iter(st["tables"]))
    chips.select_option("#tc-table", str(n))
    for s in st["tables"][n]["seats"]:
        chips.locator(f"#tc-seats input[data-seat='{s['seat']}']").wait_for()
    chips.select_option("#tc-moment", "break")
    for s in st["tables"][n]["seats"]:
        chips.fill(f"#tc-seats input[data-seat='{s['seat']}']", str(s["stack"]))
    with chips.expect_response(lambda r: "/chips/api/" in r.url and r.request.method == "POST"):
        chips.click("#tc-form button[type=submit]")
    expect(chips.locator("#tc-error")).to_be_hidden()
    expect(chips.locator("[data-f=check]")).to_have_class(re.compile(r"\bmatch\b"))
    assert not off_loop(_chip_check, tid)["mismatch"]
    _clock_jump(d, 8)

    mark("ten places")
    # ten places paid, typed on the desk
    ladder = [1000, 700, 500, 350, 250, 200, 150, 130, 120, 100]
    assert sum(ladder) == pool and len(ladder) == PAID
    d.fill("#payout-input", " ".join(map(str, ladder)))
    d.click("#payout-form button[type=submit]")
    expect(d.locator("#td-error")).to_be_hidden()

    mark("down to the bubble")
    # down to the bubble: 11 left on two tables
    while floor.state()["players_left"] > PAID + 1:
        turn += 1
        floor.bust_somewhere(turn)
        floor.confirm_moves()
        assert turn < 120, "too many hands"
    st = floor.state()
    assert len(st["tables"]) == 2, st["tables"].keys()

    mark("hand-for-hand on")
    # hand-for-hand on the desk (004 #77) until somebody bursts the bubble
    _clock_button(d, "hand_for_hand")
    # one round: a player out at one table (the desk), the other table's hand played (tablet or desk)
    st = floor.state()
    here, there = sorted(st["tables"], key=lambda n: n in floor.tablets)
    seats = st["tables"][here]["seats"]
    victim = min(seats, key=lambda s: (s["stack"], s["seat"]))
    places_before = floor.desk_bust_won(
        victim, max((s for s in seats if s is not victim), key=lambda s: s["stack"]), "bubble", placed=False
    )
    if there in floor.tablets:
        floor.play(there, floor.state(), bust=False)
    else:
        d.select_option("#desk-h4h select[name=table]", str(there))
        d.click("#desk-h4h button[type=submit]")
    expect(_finish_rows(d, victim["player"])).to_have_count(places_before + 1)
    floor.confirm_moves()
    assert floor.state()["players_left"] == PAID
    # in the money: hand-for-hand ended with the bubble by itself (004 #77), nothing for the director to end
    # (a "leave hand-for-hand" click here is answered "Hand-for-hand is not on.")
    assert not off_loop(_hand_for_hand, tid)
    expect(d.locator("#td-error")).to_be_hidden()
    bubble = [f for f in off_loop(_finishes, tid) if f[1] == PAID + 1]
    assert bubble and all(f[2] == 0 for f in bubble), "the bubble gets nothing"

    mark("on to three")
    # on to three left; the ICM deal on the payout desk
    while floor.state()["players_left"] > 3:
        turn += 1
        floor.bust_somewhere(turn)
        floor.confirm_moves()
        assert turn < 200, "too many hands"
    pd = new_page(viewport=(1920, 1080), locale=locale)
    login(pd, "floor", "pw-floor")
    pd.on("dialog", lambda dialog: dialog.accept())  # "Record this deal? The payouts can no longer change"
    pd.goto(f"/tournaments/{tid}/payouts/")
    pd.select_option("#pd-method", "icm")
    with pd.expect_navigation():
        pd.click("#pd-preview")
    rows = pd.locator("#pd-record tbody tr")
    expect(rows).to_have_count(3)
    deal = {}
    for i in range(3):
        cells = rows.nth(i).locator("td")
        deal[cells.nth(0).inner_text().strip()] = int(re.sub(r"\D", "", cells.nth(3).inner_text()))
    with pd.expect_navigation():
        pd.click("#pd-record-btn")
    expect(pd.locator("#pd-deal-recorded")).to_be_visible()
    assert sum(deal.values()) == sum(ladder[:3])

    mark("the last two")
    # the last two out at the desk: the night is over
    while floor.state()["players_left"] > 1:
        floor.bust_at_the_desk()
    assert floor.state()["status"] == "finished"

    mark("the results:")
    # the results: places 1..33 once each, the prizes add up to the pool
    finishes = off_loop(_finishes, tid)
    assert sorted(p for _n, p, _z in finishes) == list(range(1, 34))
    assert sum(z for _n, _p, z in finishes) == pool
    prizes = {n: z for n, p, z in finishes if p <= 3}
    assert prizes == deal, (prizes, deal)

    # ... the same on the payout desk's results
    pd.goto(f"/tournaments/{tid}/payouts/")
    sheet = pd.locator(".pd-sheet tbody tr")
    expect(sheet).to_have_count(33)
    # a player who re-entered has two rows (his first entry's place too): the rows are found by place
    place_of = {n: p for n, p, _z in finishes if p <= 3}
    for name, amount in deal.items():
        row = pd.locator(".pd-sheet tbody tr").filter(
            has=pd.locator("td").first.filter(has_text=re.compile(rf"^\s*{place_of[name]}\s*$"))
        )
        expect(row.locator("td").nth(1)).to_have_text(name)
        assert int(re.sub(r"\D", "", row.locator("td").nth(2).inner_text())) == amount, name
    shots(pd, f"results-{lang}", full=True)

    # ... the CSV
    answer = pd.request.get(f"/tournaments/{tid}/payouts/results.csv")
    assert answer.ok
    table = list(csv.reader(io.StringIO(answer.text())))
    body = [r for r in table[1:] if r and r[0].strip().isdigit()]
    assert sorted(int(r[0]) for r in body) == list(range(1, 34)), table[:3]
    for name, amount in deal.items():
        row = next(r for r in body if int(r[0]) == place_of[name])
        assert name in row, (row, name)
        assert str(amount) in [re.sub(r"\D", "", c) for c in row], (row, amount)

    # ... the payout slips
    pd.goto(f"/tournaments/{tid}/payouts/slips/")
    for name, amount in deal.items():
        prize = pd.locator(".slip", has_text=name).locator(".slip-prize")
        assert int(re.sub(r"\D", "", prize.inner_text())) == amount, name
    shots(pd, f"slips-{lang}", full=True)

    # ... and the lobby TV, finished with the winner
    lobby.reload()
    for name, amount in deal.items():  # the final table's list: rank, name, prize (names end in digits)
        row = lobby.locator("li").filter(has=lobby.locator(".name", has_text=re.compile(rf"^{re.escape(name)}$")))
        expect(row.first.locator("b")).to_have_text(re.compile(rf"^\s*{_grouped(amount)}\s*$"))
    winner = next(n for n, p, _z in finishes if p == 1)
    expect(lobby.locator("body")).to_contain_text(winner)
    shots(lobby, f"tv-finished-{lang}")
    d.reload()
    d.wait_for_selector("#td-finishes li >> nth=30")
    for name in deal:
        expect(d.locator(f"#td-finishes li[value='{place_of[name]}']")).to_contain_text(name)
    # the desk's clock says the event is over and names the winner: no frozen level, time or clock buttons
    expect(d.locator('.td-clock [data-f="level"]')).to_have_text(
        "Turnier beendet" if lang == "de" else "Tournament over"
    )
    expect(d.locator('.td-clock [data-f="blinds"]')).to_contain_text(winner)
    expect(d.locator('.td-clock [data-f="next"]')).to_have_text("")
    expect(d.locator(".td-clock .clock-buttons")).to_be_hidden()
    expect(d.locator('.td-clock [data-f="time"]')).to_be_hidden()
    shots(d, f"desk-{lang}")


def _finish_rows(d, name: str):
    """The desk's list of places, the rows of ``name`` (a re-entered player has one per entry out)."""
    return d.locator("#td-finishes li").filter(has_text=re.compile(rf"\b{re.escape(name)}(?!\d)"))


def _grouped(amount: int) -> str:
    """A regex for ``amount`` written with or without a thousands separator (1,000 / 1'000 / 1 000)."""
    text = str(amount)
    if len(text) <= 3:
        return rf"(?<!\d){text}(?!\d)"
    return rf"(?<!\d){text[:-3]}[,.'’\u202f\u00a0 ]?{text[-3:]}(?!\d)"


def _clock_jump(d, level: int) -> None:
    """The director's clock jumps to ``level`` (the Level box and the Jump button)."""
    d.fill("#jump-level", str(level))
    _clock_button(d, "jump")


def _clock_button(d, clock: str) -> None:
    """The director's clock button ``clock``, and the server's answer to it: done, no error shown."""
    with d.expect_response(lambda r: "/action/" in r.url and r.request.method == "POST") as answer:
        d.click(f"button[data-clock={clock}]")
    assert answer.value.json()["ok"], answer.value.json()
    expect(d.locator("#td-error")).to_be_hidden()
