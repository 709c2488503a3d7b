"""Seat cards (issue 23): on each 80 mm card the labels "Table" and "Seat" stand centred over their
numbers, and the tournament, the numbers' pair and the name are centred on the card, on screen and in
print, in English and German; on screen the cards are centred on the page (they stood flush against its
left edge). Screenshots go to artifacts/ (seat-cards-<lang>)."""

import pytest

from tests.browser.conftest import login, off_loop, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

STRUCTURE = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}

CENTRES_JS = """() => [...document.querySelectorAll('.seat-card')].slice(0, 3).map((card) => {
  const mid = (el) => { const r = el.getBoundingClientRect(); return (r.left + r.right) / 2; };
  const text = (el) => { const range = document.createRange(); range.selectNodeContents(el);
    const r = range.getBoundingClientRect(); return (r.left + r.right) / 2; };
  const c = mid(card);
  const pairs = [...card.querySelectorAll('dl > div')].map((d) => [text(d.querySelector('dt')), text(d.querySelector('dd'))]);
  const dl = card.querySelector('dl').getBoundingClientRect();
  return {card: c, pairs, dl: (dl.left + dl.right) / 2, tournament: text(card.querySelector('.sc-tournament')),
          name: text(card.querySelector('.sc-name'))};
})"""

ROW_JS = """() => {
  const cards = [...document.querySelectorAll('.seat-card')].map((c) => c.getBoundingClientRect());
  const row = cards.filter((r) => Math.abs(r.top - cards[0].top) < 1);
  const width = document.documentElement.clientWidth;
  return {left: row[0].left, right: width - row[row.length - 1].right, cards: row.length};
}"""


def _started():
    from tournaments import services

    t = services.create_tournament("Friday Deepstack", "munotpoker", STRUCTURE, starting_stack=20_000, seed=5)
    for i in range(12):
        services.register(t.id, f"Player {i:02d}")
    services.start(t.id)
    return t


@pytest.mark.parametrize("media", ["screen", "print"])
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_seat_card_labels_are_centred_over_their_numbers(new_page, floorman, locale, media):
    t = off_loop(_started)
    page = new_page((1280, 800), locale=locale)
    login(page, "floor", "pw-floor")
    page.goto(f"/tournaments/{t.id}/print/seat-cards/", wait_until="load")  # its stylesheet applied
    page.emulate_media(media=media)
    for card in page.evaluate(CENTRES_JS):
        for label, number in card["pairs"]:
            assert abs(label - number) <= 1.5, card  # "Table" / "Seat" centred over the number
        for key in ("dl", "tournament", "name"):
            assert abs(card[key] - card["card"]) <= 1.5, (key, card)
    if media == "screen":  # the first row of cards: as much room left of it as right of it
        row = page.evaluate(ROW_JS)
        assert row["left"] >= 8 and abs(row["left"] - row["right"]) <= 2, row
        page.locator(".seat-card").first.screenshot(path=str(screenshot(page, f"seat-cards-{locale[:2]}")))
