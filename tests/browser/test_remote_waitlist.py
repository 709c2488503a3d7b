"""The waitlist in the player's pocket (issue 29) in a real browser against a real daphne, on a phone
(390x844) in English and German: the public room page lists only running games; the player joins two
lists remotely with the code sent by SMS (``room.sms.FileSMSBackend``: a file of the run), is called live
with the countdown, answers "On my way", is confirmed at the desk (one tap on the dashboard in English,
the arrival QR's page in German) and seated; a remote no-show moves down the list as the room sets; the
lobby TV (1920x1080) shows the QR code of the room page.

Screenshots: artifacts/screenshots/issue29/<what>-<lang>.png.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from room import services as r
from room.models import Call, RemoteSession, Room
from tables import services
from tests.browser.conftest import off_loop
from tests.browser.waits import login_to
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The codes by SMS go to a file of this run (the daphne of the session inherits the environment; it
# starts after collection): daphne's log is shared with other runs on the machine.
SMS_FILE = Path(tempfile.gettempdir()) / f"pokerfloor-sms-{os.getpid()}.txt"
os.environ["POKERFLOOR_SMS_BACKEND"] = "room.sms.FileSMSBackend"
os.environ["POKERFLOOR_SMS_FILE"] = str(SMS_FILE)

SHOTS = ARTIFACTS / "screenshots" / "issue29"
PHONE = (390, 844)
LIVE = 15_000  # ms: a floor change must reach the phone within this time (loaded machine)
LANGS = {"en": "en-US", "de": "de-DE"}
TEXT = {
    "en": {
        "place": "1 of 1",
        "seat": "seat 3",
        "remote": "remote (phone)",
        "way": "On my way",
        "seated": "seated",
        "arrived": "Arrived: seat the player",
    },
    "de": {
        "place": "1 von 1",
        "seat": "Platz 3",
        "remote": "per Handy",
        "way": "Bin unterwegs",
        "seated": "am Tisch",
        "arrived": "Angekommen: Spieler setzen",
    },
}


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


@pytest.fixture
def casino(dealer, floorman, roles):
    """Room "casino": NLHE 1/2 and PLO 2/5 running (a 3-seat table each, full, dealt, stacks of 100), NLHE
    5/10 with a full table and no dealer (not running); a lobby display link."""
    from django.contrib.auth.models import User

    manager = User.objects.create_user("manager", password="pw-manager")
    manager.groups.add(roles["manager"])
    room = off_loop(r.create_room, "casino", "Casino Bregenz", call_seconds=300)
    tables = {}
    for name, sb, bb, dealt in [("NLHE 1/2", 1, 2, True), ("PLO 2/5", 2, 5, True), ("NLHE 5/10", 5, 10, False)]:
        game = off_loop(
            r.create_game, room.id, name, small_blind=sb, big_blind=bb, min_buy_in=20 * bb, max_buy_in=100 * bb
        )
        table = off_loop(r.open_table, game.id, f"{name} · 1", max_seats=3, dealer=dealer if dealt else None)
        for seat, player in [(1, "Anna Keller"), (2, "Ben Meier"), (3, "Clara Vogt")]:
            off_loop(services.seat_player, table.id, seat, f"{player} {bb}", 0)
            off_loop(r.buy_in, table.id, seat, 100 * bb)
        tables[name] = table
    display = off_loop(r.create_display, room.id, actor=manager, label="TV")
    return {"room": room, "tables": tables, "token": display.token}


def _code_from_sms(number: str, after: int) -> str:
    """The six-digit code sent to ``number`` by SMS after byte ``after`` of the run's SMS file."""
    for _ in range(100):
        text = SMS_FILE.read_bytes()[after:].decode() if SMS_FILE.exists() else ""
        found = re.findall(rf"^{re.escape(number)}\t.*?(\d{{6}})", text, re.M)
        if found:
            return found[-1]
        time.sleep(0.1)
    raise AssertionError(f"no SMS to {number} in {SMS_FILE}")


def join_remotely(phone, lists: list[str], nickname: str, number: str) -> None:
    phone.goto("/p/casino/")
    for name in lists:
        phone.get_by_label(name).check()
    phone.fill('input[name="nickname"]', nickname)
    phone.fill('input[name="contact"]', number)
    mark = SMS_FILE.stat().st_size if SMS_FILE.exists() else 0
    phone.click('.pub-join button[type="submit"]')
    expect(phone.locator('input[name="code"]')).to_be_visible()
    phone.fill('input[name="code"]', _code_from_sms(number.replace(" ", ""), mark))
    phone.click('.pub-join button[type="submit"]')
    expect(phone.locator("#phone")).to_be_visible()
    expect(phone.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=LIVE)


def leave_seat_3(floor, table_id: int) -> None:
    seat3 = floor.locator(f'.room-table[data-table-id="{table_id}"] .rseat[data-seat="3"]')
    floor.once("dialog", lambda dialog: dialog.accept())
    seat3.locator('button[data-op="leave"]').click()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_join_two_lists_be_called_on_my_way_confirmed_at_the_desk_and_seated(casino, new_page, lang):
    text = TEXT[lang]
    nlhe = casino["tables"]["NLHE 1/2"]
    phone = new_page(PHONE, locale=LANGS[lang])
    phone.goto("/p/casino/")
    games = phone.locator(".pub-game h3")
    expect(games).to_have_count(2)
    expect(games.nth(0)).to_contain_text("NLHE 1/2")
    expect(games.nth(1)).to_contain_text("PLO 2/5")
    assert "NLHE 5/10" not in phone.locator("#live").inner_text()  # no dealer: not running
    assert "Keller" not in phone.content()  # the seated players are nobody's business here
    shot(phone, f"public-room-{lang}")

    join_remotely(phone, ["NLHE 1/2", "PLO 2/5"], "Ace", "+41 79 555 00 11")
    mine = phone.locator("#mine li")
    expect(mine).to_have_count(2)
    expect(mine.nth(0)).to_contain_text("NLHE 1/2")
    expect(mine.nth(1)).to_contain_text("PLO 2/5")
    expect(mine.nth(1)).to_contain_text(text["place"])
    expect(phone.locator("#call")).to_be_hidden()
    shot(phone, f"phone-joined-{lang}")

    # the floor sees the remote entries; Clara leaves NLHE 1/2 and Ace is called at once on the phone
    floor = new_page((1280, 800), locale=LANGS[lang])
    login_to(floor, "floor", "pw-floor", "/room/casino/")
    expect(floor.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    expect(floor.locator('[data-f="waitlist"]').first).to_contain_text(text["remote"])
    leave_seat_3(floor, nlhe.id)
    call = phone.locator("#call")
    expect(call).to_be_visible(timeout=LIVE)
    expect(call.locator('[data-f="where"]')).to_contain_text("NLHE 1/2")
    expect(call.locator('[data-f="where"]')).to_contain_text(text["seat"])
    expect(call.locator('[data-f="count"]')).to_have_text(re.compile(r"^(5:00|4:[0-5]\d)$"))
    shot(phone, f"phone-called-{lang}")

    call.get_by_role("button", name=text["way"]).click()
    expect(call.locator('[data-answer="on_my_way"]')).to_be_hidden(timeout=LIVE)
    expect(call.locator('[data-f="count"]')).to_have_text(re.compile(r"^1[45]:[0-5]\d$"))  # the arrival window
    shot(phone, f"phone-on-my-way-{lang}")

    # at the desk: one tap on the dashboard (en) or the arrival QR's page (de)
    if lang == "en":
        floor.locator('li.call button[data-op="accept"]').click()
    else:
        token = off_loop(lambda: RemoteSession.objects.get(nickname="Ace").arrival_token)
        floor.goto(f"/p/casino/arrive/{token}/")
        expect(floor.locator(".pub-arrive")).to_contain_text("Ace")
        floor.get_by_role("button", name=text["arrived"]).click()
        floor.wait_for_url("**/room/casino/")
    seat3 = floor.locator(f'.room-table[data-table-id="{nlhe.id}"] .rseat[data-seat="3"]')
    expect(seat3).to_contain_text("Ace", timeout=LIVE)
    expect(call).to_be_hidden(timeout=LIVE)
    expect(mine.nth(0)).to_contain_text(text["seated"], timeout=LIVE)
    expect(mine.nth(1)).not_to_contain_text(text["seated"])  # still on the PLO list
    shot(phone, f"phone-seated-{lang}")
    assert off_loop(lambda: Call.objects.get(entry__player__name="Ace").status) == "accepted"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_remote_no_show_moves_down_the_list_as_the_room_sets(casino, new_page, lang):
    room = casino["room"]
    off_loop(lambda: Room.objects.filter(pk=room.id).update(remote_no_show="down", no_show_places=2))
    nlhe = casino["tables"]["NLHE 1/2"]
    phone = new_page(PHONE, locale=LANGS[lang])
    join_remotely(phone, ["NLHE 1/2"], "Zed", "+41 79 555 00 22")
    game_id = off_loop(lambda: nlhe.game_table.game_id)
    for name in ("Walt In", "Wendy In", "Will In"):
        off_loop(r.add_to_waitlist, game_id, name)
    floor = new_page((1280, 800), locale=LANGS[lang])
    login_to(floor, "floor", "pw-floor", "/room/casino/")
    expect(floor.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    leave_seat_3(floor, nlhe.id)
    expect(phone.locator("#call")).to_be_visible(timeout=LIVE)
    # Zed neither answers nor comes: the countdown runs out and the floor's sweep records the no-show
    off_loop(lambda: Call.objects.filter(status="open").update(deadline="2000-01-01T00:00:00Z"))
    floor.evaluate(
        """async () => {
            const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
            await fetch('/room/casino/act/', {method: 'POST', headers: {'Content-Type': 'application/json',
              'X-CSRFToken': csrf}, body: JSON.stringify({op: 'sweep'})});
        }"""
    )
    expect(phone.locator("#call")).to_be_hidden(timeout=LIVE)
    # two places down: behind Walt (called now) and Wendy, ahead of Will
    expect(phone.locator("#mine li").first).to_contain_text("3", timeout=LIVE)
    expect(floor.locator("li.call")).to_contain_text("Walt In")
    names = floor.locator('[data-f="waitlist"]').first.inner_text()
    assert names.index("Wendy In") < names.index("Zed") < names.index("Will In"), names
    shot(phone, f"phone-no-show-moved-down-{lang}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_public_page_drops_a_game_that_stops_running_and_the_lobby_tv_shows_the_qr(casino, new_page, lang):
    phone = new_page(PHONE, locale=LANGS[lang])
    phone.goto("/p/casino/")
    expect(phone.locator(".pub-game h3")).to_have_count(2)
    off_loop(r.assign_dealer, casino["tables"]["PLO 2/5"].id, None)  # the dealer goes on a break
    phone.goto("/p/casino/")
    expect(phone.locator(".pub-game h3")).to_have_count(1)
    assert "PLO 2/5" not in phone.locator("#live").inner_text()
    feed = phone.request.get("/p/casino/feed.json").json()
    assert [g["name"] for g in feed["games"]] == ["NLHE 1/2"]

    tv = new_page((1920, 1080), locale=LANGS[lang])
    tv.goto(f"/lobby/{casino['token']}/")
    expect(tv.locator('[data-field="conn"]')).to_have_attribute("data-state", "open", timeout=LIVE)
    qr = tv.locator(".lobby-qr img")
    expect(qr).to_be_visible()
    tv.wait_for_function("() => document.querySelector('.lobby-qr img').naturalWidth > 0")
    box = qr.bounding_box()
    assert box["width"] >= 80 and box["height"] >= 80, box
    shot(tv, f"lobby-tv-qr-{lang}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_manager_sets_the_players_for_a_running_game_and_the_phone_page_follows(casino, new_page, lang):
    """The manager's settings form on the room dashboard (issue 29 "as the room sets"): with four players
    asked for a running game, the 3-seat tables with three players seated no longer run and the phone page
    lists none of their games."""

    phone = new_page(PHONE, locale=LANGS[lang])
    phone.goto("/p/casino/")
    expect(phone.locator("body")).to_contain_text("PLO 2/5")
    desk = new_page((1920, 1080), locale=LANGS[lang])
    login_to(desk, "manager", "pw-manager", "/room/casino/")
    form = desk.locator('form[data-form="settings"]')
    expect(form.locator('input[name="running_min_players"]')).to_have_value("2")
    form.locator('input[name="running_min_players"]').fill("4")
    form.locator('input[name="arrival_minutes"]').fill("10")
    with desk.expect_response(lambda r: r.url.endswith("/room/casino/act/")) as answer:
        form.locator('button[type="submit"]').click()
    assert answer.value.json()["ok"], answer.value.json()
    shot(desk, f"room-settings-{lang}")
    room = off_loop(Room.objects.get, slug="casino")
    assert (room.running_min_players, room.arrival_seconds) == (4, 600)
    phone.goto("/p/casino/")
    expect(phone.locator("body")).not_to_contain_text("PLO 2/5")  # three seated are no longer a running game
