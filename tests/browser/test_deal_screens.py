"""A deal's amounts on the screens (issue 23, finding 2): after an ICM deal
at three left, the lobby TV's payout panel, the director's results and the
payout slips show the deal's amounts, not the ladder's, in English and
German; the director corrects the bust order with the buttons beside the
results (places follow, logged).  Screenshots in ``/tmp/shots/places/``."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.conftest import off_loop
from tests.browser.waits import login_to
from tests.tournaments.test_services import LEVELS
from tournaments import services
from tournaments.models import Entry, Finish, Tournament, TournamentEvent
from tournaments.services import desk
from tournaments.services import payouts as pay

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/places")


def shot(page, name, full=True):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def dealt() -> tuple[int, dict[str, int]]:
    """Eight entries at 100 (800, paid 400/240/160), five out, an ICM deal
    at three left (30,000 / 20,000 / 10,000); then the short stack busts (3rd)."""
    t = services.create_tournament(
        "Friday Deal",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": None},
        starting_stack=10_000,
        buy_in=100,
        seed=9,
    )
    for name in (
        "Anna Meier",
        "Beat Huber",
        "Carla Rossi",
        "Dario Keller",
        "Elena Frei",
        "Fritz Vogt",
        "Gina Roth",
        "Hugo Graf",
    ):
        services.register(t.id, name)
    services.start(t.id)
    pay.set_payouts(t.id, [400, 240, 160])
    entries = list(Entry.objects.filter(tournament=t).order_by("id"))
    for e in entries[:5]:
        desk.desk_bust(t.id, [(e.id, None)])
    left = list(Entry.objects.filter(tournament=t, status="seated").order_by("id"))
    for e, stack in zip(left, (30_000, 20_000, 10_000)):
        Seat.objects.filter(player_id=e.player_id, table__tournament_table__tournament=t).update(stack=stack)
    preview = pay.deal_preview(t.id, "icm")
    pay.record_deal(t.id, "icm", [p["amount"] for p in preview["players"]])
    desk.desk_bust(t.id, [(left[2].id, None)])
    return t.id, {p["name"]: p["amount"] for p in preview["players"]}


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_tv_the_results_and_the_slips_show_the_deal(new_page, floorman, locale):
    tid, amounts = off_loop(dealt)
    lang = locale[:2]
    t = Tournament.objects.get(pk=tid)
    assert sorted(amounts.values(), reverse=True) != [400, 240, 160]
    for size in ((1920, 1080), (1280, 720)):
        tv = new_page(size, locale=locale)
        tv.goto(f"/tournaments/lobby/{t.public_token}/")
        side = tv.locator("#tl-side")
        expect(side.locator("li.deal")).to_have_count(3)
        for name, amount in amounts.items():
            expect(side).to_contain_text(name)
            expect(side).to_contain_text(str(amount))  # under 1,000: no grouping
        expect(side.locator("li.deal").first).to_contain_text("Deal")
        shot(tv, f"tv-deal-{lang}-{size[0]}x{size[1]}", full=False)
    page = new_page((1920, 1080), locale=locale)
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/payouts/")
    sheet = page.locator(".pd-sheet")
    for amount in amounts.values():
        expect(sheet).to_contain_text(str(amount))
    shot(page, f"payouts-results-{lang}-1920x1080")
    slips = new_page((1280, 800), locale=locale)
    login_to(slips, "floor", "pw-floor", f"/tournaments/{tid}/payouts/slips/")
    expect(slips.locator(".slip")).to_have_count(3)
    for name, amount in amounts.items():
        expect(slips.locator(".slip", has_text=name).locator(".slip-prize")).to_have_text(str(amount))
    shot(slips, f"slips-{lang}-1280x800")
    phone = new_page((390, 844), locale=locale)
    login_to(phone, "floor", "pw-floor", f"/tournaments/{tid}/payouts/slips/")
    shot(phone, f"slips-{lang}-390x844")
    phone.goto(f"/tournaments/{tid}/payouts/")
    shot(phone, f"payouts-{lang}-390x844")


def test_the_director_corrects_the_bust_order_with_the_buttons(new_page, floorman):
    tid, _amounts = off_loop(dealt)
    page = new_page((1280, 800))
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/payouts/")
    first_out = Finish.objects.filter(tournament_id=tid, place=8).select_related("entry__player").get()
    second_out = Finish.objects.filter(tournament_id=tid, place=7).select_related("entry__player").get()
    row = page.locator(".pd-sheet tr", has_text=second_out.entry.player.name)
    with page.expect_navigation():
        row.locator("button[value=earlier]").click()
    expect(page.locator(".pd-sheet tr", has_text=second_out.entry.player.name).locator("td").first).to_have_text("8")
    expect(page.locator(".pd-sheet tr", has_text=first_out.entry.player.name).locator("td").first).to_have_text("7")
    ev = TournamentEvent.objects.filter(tournament_id=tid, kind="bust_order").get()
    assert ev.actor.username == "floor"
    shot(page, "payouts-corrected-en-1280x800")
