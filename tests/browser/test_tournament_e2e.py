"""A whole tournament run from the director's desk, in the browser.

30 players at 4 tables of 8 (tables 1 and 2 have a dealer tablet, tables 3
and 4 have none).  The director starts the tournament on his page; at the
two tables without a tablet he enters the busts at the desk (one of them two
players out in the same hand, placed by their stacks at the start of the
hand: 001 Ende des Turniers, 003 Ausscheiden mehrerer Spieler); at the two
tablet tables the hands are played on the dealer tablets (their dealer
socket).  Balancing and breaking moves (001 Balancing, 004 #10, #11) and a
move the director makes by hand while a tablet table is in a hand go
pending -> moving -> done, confirmed on the tablets (004 #33), or by the
floor on the floor dashboard where a table has no tablet.  At the break
the director enters chip counts at the desk tables -- the check flags the
count that is off -- and races off the 100 chips at every table from the
chip-count page (001 Chip Race, 004 #24).  The payouts are computed from the
prize pool on the payout desk, and the final table is formed by the
rulebook's profile: 10 players under Wynental (001), 9 under MunotPoker
(004 #78).  The lobby TV and the seat-draw TV are screenshot at 1920x1080
into artifacts/screenshots/tournament-e2e/.

Registration (30 names) and the clock's jump into the break go through the
services: the test is not about them.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS, login, off_loop, snapshot
from tests.browser.waits import login_to
from tests.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = ARTIFACTS / "screenshots" / "tournament-e2e"
TABLETS = (1, 2)  # the tables with a dealer tablet; 3 and 4 have none

STRUCTURE = {
    "periods": [
        {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 30},
        {"kind": "level", "small_blind": 200, "big_blind": 400, "minutes": 30},
        {"kind": "break", "minutes": 15, "color_up": [100]},
        {"kind": "level", "small_blind": 500, "big_blind": 1000, "minutes": 30},
        {"kind": "level", "small_blind": 1000, "big_blind": 2000, "minutes": 30},
    ],
    "chips": [100, 500, 1000, 5000],
    "late_registration_until": None,
}

# One hand on the table's dealer socket (the tablet's own connection).
# start: deal a new hand first; else go on with the hand in progress.
# bust: the first player to act goes all in and the next one who covers him
# calls (the board runs out, the caller takes the pots); else everybody
# folds to the big blind.  Resolves with the final stacks.
PLAY_JS = """
async ([tableId, start, bust]) => {
  const ws = new WebSocket(`ws://${location.host}/ws/tables/${tableId}/dealer/`);
  let n = 0, shover = null, caller = null;
  const send = (m) => ws.send(JSON.stringify({client_id: `e2e${tableId}-${Date.now()}-${n++}`, ...m}));
  return await new Promise((resolve, reject) => {
    setTimeout(() => { ws.close(); reject(new Error("hand timed out")); }, 20000);
    const act = (snap) => {
      if (!snap.hand || snap.hand.status === "misdeal") return;
      const st = snap.hand.state;
      if (st.phase === "complete") { ws.close(); resolve(st.final_stacks); return; }
      if (st.phase === "board") { send({type: "action", action: {type: "board", cards: ""}}); return; }
      if (st.phase === "showdown") {
        const i = st.pots.findIndex((p, k) => !st.awards.some((a) => a.pot === k));
        const pot = st.pots[i];
        const winner = pot.eligible_seats.includes(caller) ? caller : pot.eligible_seats[0];
        send({type: "action", action: {type: "award", pot: i, winners: [winner]}});
        return;
      }
      const seat = st.to_act_seat, legal = st.legal;
      const me = st.players.find((p) => p.seat === seat);
      let type;
      if (bust && shover === null) { type = "all_in"; shover = seat; }
      else if (bust && caller === null) {
        const other = st.players.find((p) => p.seat === shover);
        if (me.stack + me.bet >= other.stack + other.bet) {
          type = legal.call_amount < me.stack ? "call" : "all_in"; caller = seat;
        } else type = legal.can_fold && legal.call_amount ? "fold" : "check";
      } else type = legal.can_fold && legal.call_amount ? "fold" : "check";
      send({type: "action", action: {type, seat}});
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "error") { ws.close(); reject(new Error(msg.code + ": " + msg.message)); return; }
      if (msg.type === "snapshot") {
        if (start) { start = false; send({type: "start_hand"}); } else act(msg.snapshot);
        return;
      }
      if (msg.type === "update" && msg.snapshot) act(msg.snapshot);
    };
    ws.onerror = () => reject(new Error("socket error"));
  });
}
"""

# Deal a hand and return as soon as it is live (the tablet then plays it on).
START_JS = """
async (tableId) => {
  const ws = new WebSocket(`ws://${location.host}/ws/tables/${tableId}/dealer/`);
  return await new Promise((resolve, reject) => {
    setTimeout(() => { ws.close(); reject(new Error("no hand")); }, 10000);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "error") { ws.close(); reject(new Error(msg.code + ": " + msg.message)); return; }
      if (msg.type === "snapshot") { ws.send(JSON.stringify({client_id: `s${tableId}-${Date.now()}`, type: "start_hand"})); return; }
      if (msg.type === "update" && msg.snapshot.hand && msg.snapshot.hand.status === "live") { ws.close(); resolve(true); }
    };
  });
}
"""


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


# ------------------------------------------------------------------ the server's side, read for the asserts


def _make(rulebook: str) -> int:
    from tournaments import services

    t = services.create_tournament(
        f"Sunday {rulebook}", rulebook, STRUCTURE, starting_stack=10_000, buy_in=100, max_seats=8, seed=29
    )
    for i in range(30):
        services.register(t.id, f"{rulebook[:3].title()} {i + 1:02d}")
    return t.id


def _state(tid: int) -> dict:
    """The floor as the database has it: open tables with their seats, moves in transit, finishes."""
    from tables.models import Seat
    from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentEvent, TournamentTable

    t = Tournament.objects.get(pk=tid)
    entries = dict(Entry.objects.filter(tournament=t, status="seated").values_list("player_id", "id"))
    tables = {}
    for tt in TournamentTable.objects.filter(tournament=t, broken=False).order_by("number"):
        seats = [
            {"seat": s.number, "player": s.player.name, "entry": entries.get(s.player_id), "stack": s.stack}
            for s in Seat.objects.filter(table_id=tt.table_id, player__isnull=False)
            .select_related("player")
            .order_by("number")
        ]
        tables[tt.number] = {"table_id": tt.table_id, "seats": [s for s in seats if s["entry"]]}
    ids = dict(TournamentTable.objects.filter(tournament=t).values_list("number", "table_id"))
    moves = []
    for i in Instruction.objects.filter(tournament=t, kind="move", status__in=("pending", "moving")).select_related(
        "entry__player"
    ):
        sides = set(
            TournamentEvent.objects.filter(tournament=t, kind="move_confirmed", payload__instruction=i.id).values_list(
                "payload__side", flat=True
            )
        )
        moves.append(
            {
                "id": i.id,
                "status": i.status,
                "from": i.from_table,
                "to": i.to_table,
                "player": i.entry.player.name,
                "confirmed": sides,
            }
        )
    finishes = [
        (f.entry.player.name, f.place, f.place_worst, f.stack_at_start)
        for f in Finish.objects.filter(tournament=t).select_related("entry__player").order_by("id")
    ]
    return {
        "status": t.status,
        "token": t.public_token,
        "tables": tables,
        "table_ids": ids,
        "moves": moves,
        "finishes": finishes,
        "players_left": Entry.objects.filter(tournament=t, status="seated").count(),
    }


def _move_sides(instruction_id: int) -> set:
    from tournaments.models import Instruction
    from tournaments.services.moves import confirmations

    return confirmations(Instruction.objects.get(pk=instruction_id))


def _move_status(instruction_id: int) -> str:
    from tournaments.models import Instruction

    return Instruction.objects.get(pk=instruction_id).status


def _move_story(instruction_id: int) -> tuple:
    """For a failed assert: the move, its confirmations and the tournament's events since it was issued."""
    from tournaments.models import Instruction, TournamentEvent

    i = Instruction.objects.get(pk=instruction_id)
    events = TournamentEvent.objects.filter(tournament_id=i.tournament_id, at__gte=i.at)
    return (
        (i.id, i.status, i.from_table, i.from_seat, i.to_table, i.to_seat),
        list(events.order_by("seq").values_list("seq", "kind", "payload")),
    )


def _to_the_break(tid: int) -> None:
    from tournaments import services

    services.clock_action(tid, "jump", level=2)
    services.clock_action(tid, "adjust", seconds=-30 * 60)  # level 2 is over: the break with its color-up


def _chip_check(tid: int) -> dict:
    from tournaments.models import ChipRaceRecord, Tournament
    from tournaments.services import chipcounts

    t = Tournament.objects.get(pk=tid)
    return {
        **chipcounts.chip_stats(t),
        "races": list(ChipRaceRecord.objects.filter(tournament=t).values_list("table_number", flat=True)),
    }


# ------------------------------------------------------------------ the users' side


class Floor:
    """The pages the staff have open: the director's page, the two dealer tablets, the floor dashboard."""

    def __init__(self, new_page, tid: int, rulebook: str):
        self.new_page = new_page
        self.tid = tid
        self.rulebook = rulebook
        self.director = new_page(viewport=(1600, 1000))
        login_to(self.director, "floor", "pw-floor", f"/tournaments/{tid}/")
        self.tablets: dict[int, object] = {}
        self.floor = None
        self.seen_pending = False
        self.tablet_confirmed = 0
        self.floor_confirmed = 0

    def state(self) -> dict:
        return snapshot(_state, self.tid)  # one consistent picture of the floor

    def open_tablets(self, st: dict) -> None:
        for number in TABLETS:
            tablet = self.new_page(viewport=(1280, 800))
            login_to(tablet, "floor", "pw-floor", f"/tables/{st['table_ids'][number]}/dealer/")
            tablet.wait_for_selector("#dealer .seat:not(.empty) >> nth=1")
            self.tablets[number] = tablet
        self.floor = self.new_page(viewport=(1280, 800))
        login_to(self.floor, "floor", "pw-floor", "/floor/")

    def tablet_tables(self, st: dict) -> list[int]:
        return [n for n in TABLETS if n in st["tables"]]

    def desk_tables(self, st: dict) -> list[int]:
        return [n for n in st["tables"] if n not in TABLETS]

    # -- the desk
    def desk_bust(self, rows: list[tuple[dict, int | None]], note: str) -> None:
        """Enter at the desk the players ``rows`` (seat dicts, stack at the start of the hand) out in one hand."""
        d = self.director
        d.locator("#desk-bust .desk-bust-row").first.wait_for()
        for i, (seat, stack) in enumerate(rows):
            if i:
                d.click("#desk-bust button[data-desk-add-row]")
            row = d.locator("#desk-bust .desk-bust-row").nth(i)
            row.locator(f"select option[value='{seat['entry']}']").wait_for(state="attached")
            row.locator("select").select_option(str(seat["entry"]))
            if stack is not None:
                row.locator("input[name=stack]").fill(str(stack))
        d.fill("#desk-bust input[name=note]", note)
        d.click("#desk-bust button[type=submit]")
        for seat, _stack in rows:
            d.wait_for_selector(f"#td-finishes li:has-text('{seat['player']}')")
        expect(d.locator("#td-error")).to_be_hidden()
        # accepted: the form is cleared for the next bust (a late answer never clears what is typed next)
        expect(d.locator("#desk-bust input[name=note]")).to_have_value("")

    # -- the tablets
    def play(self, number: int, st: dict, *, bust: bool = True, start: bool = True) -> bool:
        """Play a hand at tablet table ``number`` through its tablet's dealer socket (False: too few dealt in)."""
        table_id = st["table_ids"][number]
        for _ in range(20):
            try:
                self.tablets[number].evaluate(PLAY_JS, [table_id, start, bust])
                return True
            except Exception as exc:  # a move still to be made first, or too few players dealt in
                if "not_enough_players" in str(exc):
                    return False
                if "moves_pending" not in str(exc):
                    raise
                self.tablets[number].wait_for_timeout(300)
        raise AssertionError(f"table {number} could not deal")

    # -- moves
    def confirm_moves(self) -> None:
        """Confirm every move in transit: on the tablets where both tables have one, else on the floor dashboard."""
        for _ in range(60):
            st = self.state()
            if not st["moves"]:
                return
            confirmed = False
            for m in st["moves"]:
                if m["status"] == "pending":
                    continue  # the source table is in a hand: made after it
                confirmed = True
                # a seat change at one table (the final table's redraw) is confirmed once, on its tablet
                sides = {"to": m["to"]} if m["from"] == m["to"] else {"from": m["from"], "to": m["to"]}
                on_tablets = all(n in self.tablets and n in st["tables"] for n in sides.values())
                if on_tablets:
                    for side, n in sides.items():
                        if side in m["confirmed"]:
                            continue
                        tablet = self.tablets[n]
                        button = tablet.locator(f".notice-moves [data-move='{m['id']}'] button")
                        button.wait_for()
                        try:
                            button.click()
                        except Exception:
                            shot(tablet, "debug-tablet")
                            raise
                        for _wait in range(50):
                            if side in off_loop(_move_sides, m["id"]) or off_loop(_move_status, m["id"]) == "done":
                                break
                            tablet.wait_for_timeout(100)
                        if not m["confirmed"] and len(sides) == 2:
                            assert off_loop(_move_status, m["id"]) == "moving"  # one tablet is not enough (004 #33)
                        m["confirmed"].add(side)
                    self.tablet_confirmed += 1
                else:
                    button = self.floor.locator(f"#floor-moves button[data-confirm-move='{m['id']}']")
                    button.wait_for(timeout=15_000)
                    expect(self.floor.locator(f"#floor-moves li[data-move='{m['id']}']")).to_contain_text(m["player"])
                    button.click()
                    self.floor.wait_for_selector(
                        f"#floor-moves li[data-move='{m['id']}']", state="detached", timeout=15_000
                    )
                    self.floor_confirmed += 1
                assert off_loop(_move_status, m["id"]) == "done", off_loop(_move_story, m["id"])
            if not confirmed:  # only moves still pending: their tables' hands end first
                self.director.wait_for_timeout(200)
        raise AssertionError("moves left unconfirmed")


def submit(page, selector: str) -> None:
    """Click a chip-count form's button and wait for the server's answer (the page re-renders with it)."""
    with page.expect_response(lambda r: "/chips/api/" in r.url and r.request.method == "POST"):
        page.click(selector)


@pytest.mark.parametrize("rulebook, final_size", [("wynental", 10), ("munotpoker", 9)])
def test_a_30_player_tournament_from_the_desk_and_the_tablets_to_the_final_table(
    new_page, floorman, rulebook, final_size
):
    tid = off_loop(_make, rulebook)
    floor = Floor(new_page, tid, rulebook)
    d = floor.director

    # the director starts it: 30 players draw seats at 4 tables of 8
    d.click("button[data-op=start_tournament]")
    d.wait_for_selector("#td-tables .td-table >> nth=3")
    st = floor.state()
    assert sorted(len(tb["seats"]) for tb in st["tables"].values()) == [7, 7, 8, 8]
    floor.open_tablets(st)

    # the TVs at the start: the lobby and the seat draw, in large type, no input box
    lobby = new_page(viewport=(1920, 1080))
    lobby.goto(f"/tournaments/lobby/{st['token']}/")
    lobby.wait_for_function("document.querySelector('[data-f=players_left]').textContent === '30'")
    assert lobby.locator("input").count() == 0
    shot(lobby, f"{rulebook}-lobby-start-1920x1080")
    draw = new_page(viewport=(1920, 1080))
    draw.goto(f"/tournaments/lobby/{st['token']}/?view=draw")
    draw.wait_for_selector("#tl-draw li >> nth=20")
    first = sorted((s["player"], n, s["seat"]) for n, tb in st["tables"].items() for s in tb["seats"])[0]
    assert re.search(rf"{first[0]}\s*{first[1]} / {first[2]}", draw.locator("#tl-draw li").first.inner_text())
    shot(draw, f"{rulebook}-seat-draw-1920x1080")

    # two players out in one hand at table 3 (no tablet): the bigger stack at the start finishes better
    st = floor.state()
    a, b = st["tables"][3]["seats"][:2]
    floor.desk_bust([(a, 2_000), (b, 6_000)], "table 3 has no tablet")
    st = floor.state()
    places = {name: place for name, place, _w, _s in st["finishes"]}
    assert places[b["player"]] == 29 and places[a["player"]] == 30
    expect(d.locator("#td-finishes li", has_text=b["player"])).to_contain_text("29")
    expect(d.locator("#td-desk-log li[data-kind=desk_bust]").first).to_contain_text("table 3 has no tablet")
    floor.confirm_moves()

    # a move by hand while table 1's tablet deals a hand: pending until the hand ends (004 #33)
    st = floor.state()
    mover = st["tables"][1]["seats"][-1]
    target = 2 if len(st["tables"][2]["seats"]) < 8 else 4
    free = next(n for n in range(1, 9) if n not in {s["seat"] for s in st["tables"][target]["seats"]})
    d.evaluate(START_JS, st["table_ids"][1])
    d.locator(f"#desk-move select[name=entry] option[value='{mover['entry']}']").wait_for(state="attached")
    d.select_option("#desk-move select[name=entry]", str(mover["entry"]))
    d.fill("#desk-move input[name=table]", str(target))
    d.fill("#desk-move input[name=seat]", str(free))
    d.fill("#desk-move input[name=note]", "asked for a seat near the window")
    d.click("#desk-move button[type=submit]")
    d.wait_for_selector(f"#td-desk-log li[data-kind=desk_move]:has-text('{mover['player']}')")
    move = next(m for m in floor.state()["moves"] if m["player"] == mover["player"])
    assert move["status"] == "pending"
    row = floor.floor.locator(f"#floor-moves li[data-move='{move['id']}']")
    expect(row).to_have_attribute("data-status", "pending", timeout=15_000)
    expect(row).to_contain_text(mover["player"])
    shot(floor.floor, f"{rulebook}-floor-move-pending-1280x800")
    floor.play(1, floor.state(), bust=False, start=False)  # the tablet finishes its hand: the move is made
    expect(row).to_have_attribute("data-status", "moving", timeout=15_000)
    assert off_loop(_move_status, move["id"]) == "moving"
    floor.confirm_moves()
    assert off_loop(_move_status, move["id"]) == "done"

    # busts at the desk and on the tablets until the break
    turn = 0
    while floor.state()["players_left"] > 25:
        st = floor.state()
        turn += 1
        if turn % 2:
            n = max(floor.desk_tables(st), key=lambda x: len(st["tables"][x]["seats"]))
            victim = min(st["tables"][n]["seats"], key=lambda s: (s["stack"], s["seat"]))
            floor.desk_bust([(victim, None)], f"bust at table {n}")
        else:
            n = max(floor.tablet_tables(st), key=lambda x: len(st["tables"][x]["seats"]))
            if not floor.play(n, st):
                continue
        floor.confirm_moves()
        assert turn < 30

    # the break: chip counts at the desk tables, flagged until they add up; the 100s raced off everywhere
    off_loop(_to_the_break, tid)
    chips = new_page(viewport=(1600, 1000))
    login(chips, "floor", "pw-floor")
    with chips.expect_response(lambda r: "/chips/api/" in r.url):
        chips.goto(f"/tournaments/{tid}/chips/")
    check = chips.locator("[data-f=check]")
    before = off_loop(_chip_check, tid)
    missing = before["expected"] - before["in_play"]
    assert missing > 0  # the desk's busted stacks went to the others at their tables: not counted yet
    expect(check).to_have_class(re.compile("mismatch"))
    st = floor.state()
    counted = floor.desk_tables(st) or list(st["tables"])
    odd = [300, -200, 100, 400, -600]
    for k, n in enumerate(counted):
        seats = st["tables"][n]["seats"]
        share = missing // len(counted) if k < len(counted) - 1 else missing - missing // len(counted) * k
        counts = {s["seat"]: s["stack"] for s in seats}
        counts[seats[0]["seat"]] += share
        deep = [s for s in seats[1:] if s["stack"] >= 2_000]  # odd 100s for the race, never below zero
        for s, o in zip(deep, odd):
            counts[s["seat"]] += o
        counts[seats[0]["seat"]] -= sum(odd[: len(deep)])
        wrong = k == len(counted) - 1
        chips.select_option("#tc-table", str(n))
        for seat in counts:  # the form shows this table's seats
            chips.locator(f"#tc-seats input[data-seat='{seat}']").wait_for()
        chips.select_option("#tc-moment", "break")
        for seat, value in counts.items():
            off = 500 if wrong and seat == seats[0]["seat"] else 0  # one stack counted 500 too high
            chips.fill(f"#tc-seats input[data-seat='{seat}']", str(value + off))
        submit(chips, "#tc-form button[type=submit]")
        expect(chips.locator("#tc-error")).to_be_hidden()
        if wrong:  # 500 too many at the last table: flagged
            expect(check).to_contain_text("500")
            expect(check).to_have_class(re.compile("mismatch"))
            shot(chips, f"{rulebook}-chip-count-mismatch-1600x1000")
            for seat, value in counts.items():
                chips.fill(f"#tc-seats input[data-seat='{seat}']", str(value))
            submit(chips, "#tc-form button[type=submit]")
    expect(check).to_have_class(re.compile(r"\bmatch\b"))
    expect(chips.locator("[data-f=race_hint]")).to_contain_text("100")
    for n in st["tables"]:
        chips.select_option("#tc-race-table", str(n))
        expect(chips.locator("#tc-race-removed")).to_have_value("100")
        expect(chips.locator("#tc-race-new")).to_have_value("500")
        submit(chips, "#tc-race-form button[type=submit]")
        chips.wait_for_selector(f"#tc-races .tc-race[data-table='{n}']")
    race = chips.locator(f"#tc-races .tc-race[data-table='{counted[0]}']")
    expect(race).to_contain_text("001 Chip Race" if rulebook == "wynental" else "004 #24")
    new_stacks = [int(re.sub(r"\D", "", x)) for x in race.locator(".tc-new-stack").all_text_contents()]
    assert new_stacks and all(x % 500 == 0 for x in new_stacks)  # no 100 chip left
    assert race.locator("td.tc-cards").all_text_contents().count("") < len(new_stacks)  # cards were dealt
    expect(check).to_have_class(re.compile(r"\bmatch\b"))  # the race's rounding is no mismatch
    after = off_loop(_chip_check, tid)
    assert not after["mismatch"] and sorted(after["races"]) == sorted(st["tables"])
    shot(chips, f"{rulebook}-chip-race-1600x1000")
    floor_stacks = floor.state()
    assert all(s["stack"] % 500 == 0 for tb in floor_stacks["tables"].values() for s in tb["seats"])

    # level 3 (500/1000) on the director's clock; play on to the final table
    d.fill("#jump-level", "3")
    d.click("button[data-clock=jump]")
    # the level itself, not only its blinds: during the break the blinds shown are already the next level's
    # (the test once went on while the jump was still on its way and the tablet's deal met "on a break")
    d.wait_for_function(r"/^Level 3\b/.test(document.querySelector('[data-f=level]').textContent)")
    d.wait_for_function(r"/500 \/ 1\D?000/.test(document.querySelector('[data-f=blinds]').textContent)")
    while floor.state()["players_left"] > final_size:
        st = floor.state()
        turn += 1
        tablets = [n for n in floor.tablet_tables(st) if len(st["tables"][n]["seats"]) >= 2]
        desks = [n for n in floor.desk_tables(st) if st["tables"][n]["seats"]]
        if (turn % 2 or not tablets) and desks:
            n = max(desks, key=lambda x: len(st["tables"][x]["seats"]))
            victim = min(st["tables"][n]["seats"], key=lambda s: (s["stack"], s["seat"]))
            floor.desk_bust([(victim, None)], f"bust at table {n}")
        else:
            n = max(tablets, key=lambda x: len(st["tables"][x]["seats"]))
            if not floor.play(n, st) and desks:
                n = desks[0]
                floor.desk_bust([(min(st["tables"][n]["seats"], key=lambda s: s["stack"]), None)], "bust")
        floor.confirm_moves()
        assert turn < 90, "too many hands"

    # the final table: one table of the profile's size (001: 10, 004 #78: 9), everybody seated there
    st = floor.state()
    assert st["players_left"] == final_size and len(st["tables"]) == 1
    ((final_number, final),) = st["tables"].items()
    assert len(final["seats"]) == final_size
    d.wait_for_function("document.querySelectorAll('#td-tables .td-table').length === 1")
    table = d.locator(f"#td-tables .td-table[data-table='{final_number}']")
    for s in final["seats"]:
        expect(table).to_contain_text(s["player"])
    expect(d.locator("#td-pending-moves li.empty")).to_be_visible()
    assert floor.tablet_confirmed >= 1 and floor.floor_confirmed >= 1

    # the places: 30 down to the first player not at the final table, each once
    assert sorted(p for _n, p, _w, _s in st["finishes"]) == list(range(final_size + 1, 31))
    expect(d.locator("#td-finishes li")).to_have_count(30 - final_size)
    expect(d.locator("#td-finishes li", has_text=a["player"])).to_contain_text("30")

    # payouts from the pool (30 x 100) on the payout desk
    d.click("#payouts-link")
    expect(d.locator("#pd-pool")).to_have_text(re.compile(r"3[' ,]?000"))
    d.click("#pd-compute")
    amounts = d.locator(".pd-amount")
    expect(amounts.first).to_be_visible()
    values = [int(amounts.nth(i).input_value()) for i in range(amounts.count())]
    assert sum(values) == 3_000 and values == sorted(values, reverse=True) and 3 <= len(values) <= final_size
    d.click("#pd-save")
    expect(d.locator("#pd-error")).to_have_count(0)
    shot(d, f"{rulebook}-payouts-1600x1000")

    # the TVs at the final table
    lobby.wait_for_function(f"document.querySelector('[data-f=players_left]').textContent === '{final_size}'")
    expect(lobby.locator("[data-f=paid]")).to_have_text(str(len(values)))
    if SCREENSHOTS:
        lobby.wait_for_timeout(500)  # the final table's picture settled for the screenshot
    shot(lobby, f"{rulebook}-lobby-final-table-1920x1080")
    draw.wait_for_function(f"document.querySelectorAll('#tl-draw li').length === {final_size}")
    shot(draw, f"{rulebook}-seat-draw-final-table-1920x1080")
    shot(floor.tablets[1] if 1 in floor.tablets else d, f"{rulebook}-tablet-end-1280x800")


def _desk_scene() -> int:
    """20 players (7, 7, 6), a bust at the short table (a balancing move to confirm), the break, one chip race."""
    from tables.models import Seat
    from tournaments import services
    from tournaments.models import Entry, TournamentTable
    from tournaments.services import chipcounts, desk

    t = services.create_tournament("Desk Cup", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=100, seed=3)
    for i in range(20):
        services.register(t.id, f"Spieler {i + 1:02d}")
    services.start(t.id)
    tts = list(TournamentTable.objects.filter(tournament=t).order_by("number"))
    short = min(tts, key=lambda tt: Seat.objects.filter(table_id=tt.table_id, player__isnull=False).count())
    seat = Seat.objects.filter(table_id=short.table_id, player__isnull=False).order_by("number").first()
    desk.desk_bust(t.id, [(Entry.objects.get(tournament=t, player=seat.player).id, None)], note="no tablet")
    _to_the_break(t.id)
    first = tts[0]
    seats = list(Seat.objects.filter(table_id=first.table_id, player__isnull=False).order_by("number"))
    counts = {s.number: s.stack for s in seats}
    counts[seats[0].number] += 300
    counts[seats[1].number] -= 300
    counts[seats[2].number] += 200
    counts[seats[3].number] -= 200
    chipcounts.record_chip_counts(t.id, first.number, counts, moment="break")
    services.chip_race(t.id, first.number, 100, 500)
    return t.id


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_desk_pages_at_four_sizes(new_page, floorman, lang):
    """The floor dashboard's players changing tables and the chip-count page's chip race, in English and German."""
    tid = off_loop(_desk_scene)
    folder = ARTIFACTS / "screenshots" / "desk"
    folder.mkdir(parents=True, exist_ok=True)
    locale = "de-DE" if lang == "de" else "en-US"
    for width, height in ((1280, 800), (800, 1280), (1920, 1080), (390, 844)):
        page = new_page(viewport=(width, height), locale=locale)
        login_to(page, "floor", "pw-floor", "/floor/")
        moves = page.locator("#floor-moves")
        expect(moves).to_be_visible()
        expect(moves.locator("li.move")).to_have_count(1)
        expect(moves.locator("h2")).to_have_text(
            "Players changing tables" if lang == "en" else "Spieler beim Tischwechsel"
        )
        expect(moves.locator("button[data-confirm-move]")).to_have_text(
            "Confirm arrival" if lang == "en" else "Ankunft bestätigen"
        )
        page.screenshot(path=str(folder / f"floor_moves_{lang}_{width}x{height}.png"))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (width, height)
        page.goto(f"/tournaments/{tid}/chips/")
        race = page.locator("#tc-races .tc-race")
        expect(race).to_have_count(1)
        expect(page.locator("#tc-race h2")).to_have_text(
            "Color-up: chip race" if lang == "en" else "Chip-Wechsel: Chiprace"
        )
        expect(page.locator("[data-f=race_hint]")).to_contain_text("(004 #24)")
        page.locator("#tc-race").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / f"chip_race_{lang}_{width}x{height}.png"))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (width, height)


def _h4h_scene() -> tuple[int, int]:
    """MunotPoker, 20 players at 3 tables, hand-for-hand; tables 1 and 2 have played the round's hand."""
    from tests.tournaments.play import bust_hand
    from tournaments import services
    from tournaments.models import TournamentTable

    t = services.create_tournament("Bubble Cup", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=100, seed=3)
    for i in range(20):
        services.register(t.id, f"Blase {i + 1:02d}")
    services.start(t.id)
    services.clock_action(t.id, "hand_for_hand")
    tts = list(TournamentTable.objects.filter(tournament=t).order_by("number"))
    for tt in tts[:2]:
        bust_hand(tt.table_id, folds_only=True)
    return t.id, tts[2].number


def _h4h_round(tid: int) -> int:
    from tournaments.models import Tournament

    return Tournament.objects.get(pk=tid).hands_played_h4h


def test_the_director_reports_the_hand_for_hand_hand_of_a_table_without_tablet(new_page, floorman):
    """004 #77: every table plays one hand per round; the table with no tablet reports it at the desk."""
    tid, table = off_loop(_h4h_scene)
    d = new_page(viewport=(1920, 1080), locale="de-DE")
    login_to(d, "floor", "pw-floor", f"/tournaments/{tid}/")
    form = d.locator("#desk-h4h")
    expect(form.locator("legend")).to_have_text("Hand für Hand: Hand an einem Tisch ohne Tablet gespielt")
    form.locator(f"select option[value='{table}']").wait_for(state="attached")
    form.locator("select").select_option(str(table))
    form.locator("button[type=submit]").click()
    d.wait_for_selector("#td-desk-log li[data-kind=desk_hand_played]")
    expect(d.locator("#td-desk-log li[data-kind=desk_hand_played]")).to_contain_text("(004 #77)")
    assert off_loop(_h4h_round, tid) == 1  # the round is complete
    form.scroll_into_view_if_needed()
    folder = ARTIFACTS / "screenshots" / "desk"
    folder.mkdir(parents=True, exist_ok=True)
    d.screenshot(path=str(folder / "director_h4h_hand_played_de_1920x1080.png"))
