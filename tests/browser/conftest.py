"""Browser tests: a real daphne serving the pytest-django test database, and
Playwright for Python driving Debian's chromium (never a downloaded browser).

Data is created in the tests through ``tables.services`` and committed
(``django_db(transaction=True)``) so that the daphne subprocess sees it.
Screenshots go to ``artifacts/`` at the top of the checkout (gitignored).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.waits import submit_login
from tests.conftest import ARTIFACTS

# Playwright's sync API runs an event loop in this thread; Django's ORM would
# then refuse synchronous queries made by the test itself.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

#: Debian's Chromium for the browser tests: its headless shell (package ``chromium-headless-shell``: the
#: same Chromium build without the desktop browser around it, the binary Playwright itself runs headless)
#: when it is installed, else ``/usr/bin/chromium``.  The shell takes about half the CPU of the full
#: browser in headless mode (bench/RESULTS.md, "The suite's time"), and on two cores the suite waits on
#: that CPU.  ``POKERFLOOR_CHROMIUM`` names another binary (e.g. ``/usr/bin/chromium``).
CHROMIUM = os.environ.get("POKERFLOOR_CHROMIUM") or next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(path).exists()),
    "/usr/bin/chromium",
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Milliseconds a page action (click, goto, navigation) or an ``expect`` waits before the test fails
#: (Playwright's defaults: 30 s and 5 s).  ``make test`` runs several xdist workers on two cores, each with
#: its daphne and Chromium, so a page may take seconds to answer; a passing test never waits this long.
PATIENCE_MS = 20_000


@pytest.fixture(autouse=True)
def patient_expect():
    """Every ``expect`` of a browser test waits up to :data:`PATIENCE_MS` (Playwright's default after)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=PATIENCE_MS)
    yield
    expect.set_options(timeout=5_000)


#: Screenshots are written only with ``POKERFLOOR_SCREENSHOTS=1`` in the environment (``artifacts/``, and the
#: folders the tests name): the pages to look at after a change, in every size and language the tests open.
#: Without it a test's ``screenshot`` calls return at once: encoding hundreds of PNGs (many of a whole
#: 1920x1080 page) is a good part of the browser tests' time, and nobody opens them in an ordinary run.
SCREENSHOTS = os.environ.get("POKERFLOOR_SCREENSHOTS", "") == "1"


def _no_screenshot(self, *args, **kwargs) -> bytes:
    """``Page.screenshot`` and ``Locator.screenshot`` without ``POKERFLOOR_SCREENSHOTS=1``: nothing taken."""
    return b""


@pytest.fixture(scope="package", autouse=True)
def screenshots_when_asked():
    """Make Playwright's ``screenshot`` a no-op for this package unless :data:`SCREENSHOTS`."""
    if SCREENSHOTS:
        yield
        return
    from playwright.sync_api import Locator, Page

    saved = Page.screenshot, Locator.screenshot
    Page.screenshot = Locator.screenshot = _no_screenshot  # type: ignore[method-assign,assignment]  # (see above)
    yield
    Page.screenshot, Locator.screenshot = saved  # type: ignore[method-assign]


@pytest.fixture(scope="package")
def browser():
    """One headless chromium for the browser tests (this package), not one per module: a launch costs
    2-3 s here, 43 times.  Package scope, not session: Playwright's sync API keeps an event loop running
    in the main thread while it is open, which would break the pytest-asyncio tests after it (pytest
    closes a package's fixtures after its last test, before the next folder's tests run).  Each test
    gets fresh contexts (``new_page``): nothing of one test's pages is seen by the next."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium-headless-shell)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, live_server_url):
    """Factory: ``new_page(viewport=(1280, 800))`` opens a page in a fresh
    browser context (its own cookies); everything is closed after the test."""
    contexts = []

    def make(viewport=(1280, 800), locale="en-US"):
        context = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            base_url=live_server_url,
            locale=locale,
            reduced_motion="reduce",  # no endless pulse repainting the page: static/css/app.css
        )
        context.set_default_timeout(PATIENCE_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: page_errors.append(str(exc)))
        return page

    page_errors: list[str] = []
    make.errors = page_errors
    yield make
    for context in contexts:
        context.close()
    assert not page_errors, f"JavaScript errors in the page: {page_errors}"


def login(page, username: str, password: str) -> None:
    """Log in through the real /login/ form (landing on the home page: ``waits.submit_login``)."""
    submit_login(page, username, password)


def settled(page) -> None:
    """Wait until the dealer tablet has its answer (ack or error) for the last message."""
    from playwright.sync_api import expect

    expect(page.locator("#dealer")).not_to_have_class(re.compile(r"\bbusy\b"))


def tap(page, selector: str) -> None:
    """Tap a control on the dealer tablet and wait for the server's answer."""
    page.locator(selector).click()
    settled(page)


def screenshot(page, name: str) -> Path:
    """Save a screenshot as a test artefact in artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def off_loop(func, *args, **kwargs):
    """Call ``func`` in a fresh thread and return its result.

    Playwright's sync API keeps an asyncio loop running in the test's thread,
    and ``tables.services`` broadcasts with ``async_to_sync`` after the
    commit, which refuses to run in a thread with a running loop.  (Those
    broadcasts reach only this process's in-memory channel layer, not the
    daphne subprocess: data made this way is seen by pages opened later.)
    """
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    def run():
        try:
            return func(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def snapshot(func, *args, **kwargs):
    """:func:`off_loop` with every read of ``func`` in one repeatable-read
    transaction: one consistent picture of the database.  A test that reads
    several rows one statement at a time (the seats of four tables, then the
    moves still to be made) would otherwise mix the states before and after
    a write that commits between its statements -- and see a player twice."""
    from django.db import connection, transaction

    def consistent():
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            return func(*args, **kwargs)

    return off_loop(consistent)


@pytest.fixture
def loaded_rulebooks(db):
    """The rulebooks of rules/rulebooks/*.json (the five house rulebooks and the TDA summaries)."""
    from rules.management.commands.load_rulebooks import load_rulebooks

    return off_loop(load_rulebooks)


@pytest.fixture
def mistaken_fold(dealer, floorman, loaded_rulebooks):
    """A floor call on a hand with a mistaken fold: Table 1 (004 MunotPoker), button 1, SB 3, BB 5;
    David (7) raised to 6, the dealer entered a fold for Anna (1), who says she called.  Returns the call."""
    from rules import services as floor
    from tables import services

    table = off_loop(
        services.create_table, "Table 1", small_blind=1, big_blind=2, dealer=dealer, rules_profile="munotpoker"
    )
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        off_loop(services.seat_player, table.id, seat, name, stack)
    off_loop(services.start_hand, table.id)
    off_loop(services.apply_action, table.id, {"type": "raise", "seat": 7, "to": 6})
    off_loop(services.apply_action, table.id, {"type": "fold", "seat": 1})
    return off_loop(floor.raise_floor_call, table.id, "dispute", seat=1, note="Anna says she called", actor=dealer)
