"""The lobby TV with five games (issue 24, finding 7): at 1920x1080 and 1280x720 no card cuts off its
must-move order or its table list, and a game with no open table says so instead of "Full".

Screenshots (artifacts/, copied to /tmp/shots/robust/): lobby-five-games-<size>-<locale>."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from room import services as r
from tables import services
from tests.browser.conftest import off_loop, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [
    ("NLHE 1/2", "nlhe", 1, 2),
    ("NLHE 2/5", "nlhe", 2, 5),
    ("PLO 1/2", "plo", 1, 2),
    ("NLHE 5/10", "nlhe", 5, 10),
    ("PLO 5/5", "plo", 5, 5),
]


def _five_games(roles):
    from django.contrib.auth.models import User

    manager = User.objects.create_user("manager", password="pw-manager")
    manager.groups.add(roles["manager"])
    room = r.create_room("casino", "Casino Bregenz", call_seconds=300, lobby_names="full", lobby_stacks=True)
    for g, (name, variant, sb, bb) in enumerate(GAMES):
        game = r.create_game(
            room.id, name, variant=variant, small_blind=sb, big_blind=bb, min_buy_in=40 * bb, max_buy_in=200 * bb
        )
        if g == 4:  # the last game has no open table: waiting list only
            for n in range(3):
                r.add_to_waitlist(game.id, f"Lonely Waiter {n + 1}")
            continue
        for kind, label in (("main", "Main"), ("must_move", "Must-Move")):
            table = r.open_table(game.id, f"{name} {label}", kind=kind, max_seats=6)
            for seat in range(1, 7):
                services.seat_player(table.id, seat, f"Player {g}{kind[0]}{seat} Longname", 0)
                r.buy_in(table.id, seat, 40 * bb)
            # a running table: a dealer deals it (a table without one is "not running" on the screen)
            dealer = User.objects.create_user(f"dealer-{table.id}", password="pw-dealer")
            dealer.groups.add(roles["dealer"])
            r.assign_dealer(table.id, dealer)
        for n in range(7):
            r.add_to_waitlist(game.id, f"Waiting Player {g}-{n + 1}")
    display = r.create_display(room.id, actor=manager, label="TV")
    return display.token


@pytest.fixture
def five_games(roles):
    return off_loop(_five_games, roles)


OVERFLOW = """() => {
  const out = [];
  for (const card of document.querySelectorAll('.lobby-game')) {
    const box = card.getBoundingClientRect();
    if (card.scrollHeight > card.clientHeight + 1 || card.scrollWidth > card.clientWidth + 1)
      out.push(`${card.querySelector('h2').textContent}: content ${card.scrollWidth}x${card.scrollHeight} in ${card.clientWidth}x${card.clientHeight}`);
    for (const el of card.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      if (r.bottom > box.bottom + 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.left < box.left - 1)
        out.push(`${card.querySelector('h2').textContent}: ${el.tagName}.${el.className} "${el.textContent.slice(0, 40)}" outside its card`);
    }
  }
  const screen = document.documentElement;
  if (screen.scrollHeight > innerHeight + 1) out.push(`the page is ${screen.scrollHeight} px high`);
  return out;
}"""


WORDS = {
    "en-US": ("Full", "No table open · waiting list only"),
    "de-DE": ("Voll", "Kein Tisch offen · nur Warteliste"),
}


@pytest.mark.parametrize(
    ("viewport", "locale"),
    [((1920, 1080), "en-US"), ((1280, 720), "en-US"), ((1920, 1080), "de-DE"), ((1280, 720), "de-DE")],
)
def test_five_games_fit_their_cards_on_the_tv(five_games, new_page, viewport, locale):
    full, no_table = WORDS[locale]
    tv = new_page(viewport, locale=locale)
    tv.goto(f"/lobby/{five_games}/")
    expect(tv.locator('[data-field="conn"]')).to_have_attribute("data-state", "open")
    cards = tv.locator(".lobby-game")
    expect(cards).to_have_count(5)
    tv.wait_for_timeout(300)
    problems = tv.evaluate(OVERFLOW)
    screenshot(tv, f"lobby-five-games-{viewport[0]}x{viewport[1]}-{locale}-check")
    assert problems == [], "\n".join(problems)
    for name, *_ in GAMES[:4]:
        card = cards.filter(has=tv.locator("h2", has_text=name)).first
        expect(card.locator('[data-f="must-move"] h3')).to_be_visible()
        expect(card.locator(".lobby-tables li").first).to_be_visible()
        expect(card.locator('[data-f="open"]')).to_have_text(full)
    last = cards.filter(has=tv.locator("h2", has_text=GAMES[4][0]))
    expect(last.locator('[data-f="open"]')).to_have_text(no_table)
    expect(last.locator(".lobby-list.waitlist li").first).to_have_text("Lonely Waiter 1")
    # the text stays legible: nothing under 14 px
    smallest = tv.evaluate(
        "() => Math.min(...[...document.querySelectorAll('.lobby-game *')].filter((e) => e.childNodes.length"
        " && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))"
        ".map((e) => parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 14, smallest
    screenshot(tv, f"lobby-five-games-{viewport[0]}x{viewport[1]}-{locale}")
