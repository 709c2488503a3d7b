"""Seven Card Stud screens show stud, not hold'em (issue 24, finding 8): the tablet's header shows
the ante, the bring-in, the small and the big bet (not "1/4"); between hands the tablet offers no
bomb pot, flip or double board and does not say the blinds post themselves; the lobby TV shows
the bring-in and the bets (not "Blinds 1/4").

The table's stakes fields in stud (room.services.stakes.stud_spec, 000 Einsätze 2): ``ante`` the
ante, ``small_blind`` the bring-in, ``big_blind`` the small bet, the big bet twice the small bet.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from room import services as floor_room
from tables import services
from tables.models import Table
from tests.browser.conftest import off_loop
from tests.browser.waits import login_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def stud_room(dealer, roles):
    """Stud 4/8 (bring-in 1, small bet 4, big bet 8), ante 1: Anna 1, Ben 2, Clara 3; a lobby link."""
    from django.contrib.auth.models import User

    manager = User.objects.create_user("manager", password="pw-manager")
    manager.groups.add(roles["manager"])
    room = floor_room.create_room("stud-room", "Stud room")
    game = floor_room.create_game(
        room.id, "Stud 4/8", variant="stud", small_blind=1, big_blind=4, min_buy_in=40, max_buy_in=200
    )
    table = floor_room.open_table(game.id, "Stud 1", max_seats=8, dealer=dealer)
    Table.objects.filter(pk=table.id).update(ante=1)
    for seat, name in ((1, "Anna"), (2, "Ben"), (3, "Clara")):
        services.seat_player(table.id, seat, name, 0)
        floor_room.buy_in(table.id, seat, 100)
    display = floor_room.create_display(room.id, actor=manager, label="TV")
    return table, display.token


@pytest.mark.parametrize(
    ("locale", "stakes", "hint"),
    [
        ("en-US", "Ante 1 · Bring-in 1 · Small bet 4 · Big bet 8", "antes"),
        ("de-DE", "Ante 1 · Bring-in 1 · Kleiner Einsatz 4 · Grosser Einsatz 8", "Antes"),
    ],
)
def test_the_stud_tablet_between_hands_shows_stud(dealer, floorman, roles, new_page, locale, stakes, hint):
    table, _token = off_loop(stud_room, dealer, roles)
    page = new_page((1280, 800), locale=locale)
    login_to(page, "dealer", "pw-dealer", f"/tables/{table.id}/dealer/")
    expect(page.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    expect(page.locator(".dealer-title .stakes")).to_have_text(stakes)
    idle = page.locator('[data-view="idle"]')
    expect(idle).to_be_visible()
    expect(idle.locator('[data-format-kind="bomb_pot"]')).to_be_hidden()
    expect(idle.locator('[data-action="format-double"]')).to_be_hidden()
    start_hint = idle.locator('[data-field="start-hint"]')
    expect(start_hint).to_contain_text(hint)
    expect(start_hint).not_to_contain_text("blind")
    page.screenshot(path=f"/tmp/shots/tablet/stud-idle-{locale[:2]}.png")


def test_the_lobby_tv_shows_stud_stakes(dealer, floorman, roles, new_page):
    _table, token = off_loop(stud_room, dealer, roles)
    lobby = new_page((1920, 1080))
    lobby.goto(f"/lobby/{token}/")
    expect(lobby.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    stakes = lobby.locator(".lobby-game .lobby-stakes").first
    expect(stakes).to_contain_text("Bring-in 1 · Small bet 4 · Big bet 8")
    expect(stakes).not_to_contain_text("Blinds")
    lobby.screenshot(path="/tmp/shots/tablet/stud-lobby-tv.png")
