"""The director's payout desk in the browser: the director computes the
payouts from the prize pool (fee kept apart), edits one place, previews and
records an ICM deal among the three players left (004 #79 names the players'
"Bubble-Deal"; no rulebook regulates a deal) and downloads the result sheet
as CSV.  Screenshots in English and German at the four page sizes."""

import csv
import io

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.conftest import off_loop
from tests.browser.waits import login_to
from tests.conftest import ARTIFACTS
from tests.tournaments.test_services import LEVELS
from tournaments import services
from tournaments.models import Entry, Finish, Tournament, TournamentTable

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = ARTIFACTS / "screenshots" / "payouts"
SIZES = [(1920, 1080), (390, 844), (1280, 800), (800, 1280)]


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def three_left() -> int:
    """Twelve entries at 100, nine of them out (places 12 to 4, as the bust
    service records them), three players left with 60,000/36,000/24,000."""
    t = services.create_tournament(
        "Sunday 100",
        "munotpoker",
        {"periods": LEVELS, "late_registration_until": None},
        starting_stack=10_000,
        buy_in=100,
        seed=11,
    )
    for name in ("Anna", "Beat", "Carla", "Dario", "Elena", "Fritz", "Gina", "Hugo", "Ines", "Jonas", "Karin", "Luca"):
        services.register(t.id, name)
    services.start(t.id)
    table_ids = list(TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True))
    entries = list(Entry.objects.filter(tournament=t).select_related("player").order_by("player__name"))
    for place, e in zip(range(12, 3, -1), entries[3:]):
        Seat.objects.filter(table_id__in=table_ids, player=e.player).update(player=None, stack=0)
        Entry.objects.filter(pk=e.pk).update(status=Entry.Status.BUSTED)
        Finish.objects.create(
            tournament=t, entry=e, place=place, place_worst=place, players_before=place, rule="004 #79"
        )
    for e, stack in zip(entries[:3], (60_000, 36_000, 24_000)):
        Seat.objects.filter(table_id__in=table_ids, player=e.player).update(stack=stack)
    return t.id


def test_the_director_computes_edits_deals_and_downloads_the_results(new_page, floorman):
    tid = off_loop(three_left)
    page = new_page(viewport=(1920, 1080))
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/")
    page.click("#payouts-link")
    expect(page.locator("#pd-pool")).to_have_text("1200")

    page.fill("#pd-fee", "20")
    page.fill("#pd-unit", "10")
    page.click("#pd-compute")
    expect(page.locator("#pd-fees")).to_contain_text("12 × 20 = 240")
    amounts = page.locator(".pd-amount")
    expect(amounts).to_have_count(3)
    assert [amounts.nth(i).input_value() for i in range(3)] == ["600", "360", "240"]
    shot(page, "computed-en-1920x1080")

    # place 3 above place 2: the sum line says so before saving, the server refuses, nothing changes
    amounts.nth(2).fill("400")
    expect(page.locator("#pd-sum")).to_contain_text("place 3 is above place 2")
    page.click("#pd-save")
    expect(page.locator("#pd-error")).to_contain_text("would get more than place 2")
    assert off_loop(lambda: Tournament.objects.get(pk=tid).payouts) == [600, 360, 240]

    page.locator(".pd-amount").nth(1).fill("380")
    page.locator(".pd-amount").nth(2).fill("220")
    expect(page.locator("#pd-sum")).to_have_class("pd-sum good")
    page.click("#pd-save")
    expect(page.locator("#pd-error")).to_have_count(0)
    assert off_loop(lambda: Tournament.objects.get(pk=tid).payouts) == [600, 380, 220]

    page.select_option("#pd-method", "icm")
    page.click("#pd-preview")
    preview = page.locator("#pd-record")
    expect(preview).to_contain_text("ICM (Malmuth-Harville)")
    # 5:3:2 stacks, prizes 600/380/220: exact equities 464.29 / 394.00 / 341.71; in units of 10 the 10 left goes to the largest rest (Malmuth-Harville)
    expect(preview).to_contain_text("464.29")
    shot(page, "preview-en-1920x1080")
    assert off_loop(lambda: Tournament.objects.get(pk=tid).deal) == {}  # a preview records nothing
    for locale, lang, (width, height) in (
        ("de-DE", "de", SIZES[0]),
        ("en-US", "en", SIZES[1]),
        ("de-DE", "de", SIZES[1]),
    ):
        other = new_page(viewport=(width, height), locale=locale)
        login_to(other, "floor", "pw-floor", f"/tournaments/{tid}/payouts/")
        other.select_option("#pd-method", "icm")
        other.click("#pd-preview")
        expect(other.locator("#pd-record")).to_contain_text("464.29")
        shot(other, f"preview-{lang}-{width}x{height}")

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#pd-record-btn")
    expect(page.locator("#pd-deal-recorded")).to_contain_text("ICM deal recorded")
    deal = off_loop(lambda: Tournament.objects.get(pk=tid).deal)
    assert [p["amount"] for p in deal["players"]] == [470, 390, 340] and deal["method"] == "icm"
    expect(page.locator(".pd-sheet tbody tr")).to_have_count(12)
    expect(page.locator("#pd-save")).to_be_disabled()

    with page.expect_download() as download:
        page.click("#pd-csv")
    rows = list(csv.reader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    assert rows[0] == ["Place", "Name", "Prize"] and len(rows) == 13
    assert rows[1] == ["1", "Anna", "470"] and rows[-1][0] == "12" and rows[-1][2] == "0"
    shot(page, "recorded-en-1920x1080")
    page.emulate_media(media="print")
    shot(page, "print-en")

    for locale, lang in (("en-US", "en"), ("de-DE", "de")):
        for width, height in SIZES:
            view = new_page(viewport=(width, height), locale=locale)
            login_to(view, "floor", "pw-floor", f"/tournaments/{tid}/payouts/")
            expect(view.locator("#pd-deal-recorded")).to_be_visible()
            if lang == "de":
                expect(view.locator("#pd-deal-recorded")).to_contain_text("ICM-Deal erfasst")
            shot(view, f"recorded-{lang}-{width}x{height}")


def test_the_director_pays_one_more_place(new_page, floorman):
    tid = off_loop(three_left)
    page = new_page(viewport=(390, 844), locale="de-DE")
    login_to(page, "floor", "pw-floor", f"/tournaments/{tid}/payouts/")
    expect(page.locator(".pd-amount")).to_have_count(3)  # house default for 12 entries: 50/30/20
    page.click("#pd-add-place")
    expect(page.locator("#pd-add-place")).to_have_text("+ Platz")
    amounts = page.locator(".pd-amount")
    expect(amounts).to_have_count(4)
    amounts.nth(2).fill("140")
    expect(page.locator("#pd-sum")).to_contain_text("100 noch zu verteilen")
    amounts.nth(3).fill("100")
    expect(page.locator("#pd-sum")).to_have_class("pd-sum good")
    shot(page, "add-place-de-390x844")
    page.click("#pd-save")
    expect(page.locator(".pd-amount")).to_have_count(4)
    assert off_loop(lambda: Tournament.objects.get(pk=tid).payouts) == [600, 360, 140, 100]
