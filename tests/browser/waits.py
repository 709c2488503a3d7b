"""Waits on exact conditions of the pages (instead of fixed sleeps) and logins without detours, for the browser tests."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

#: True when the dealer tablet takes a tap on its action pad: no message in flight (class ``busy``), the
#: update of the last acknowledged one shown (until then the visible buttons of ``#panel`` are
#: ``aria-disabled``, static/js/dealer/main.js and stud.js), and the 400 ms after the player to act changed
#: over (class ``settling``, static/js/dealer/connection.js: a tap then is dropped as a double tap).
_PAD_READY = """() => {
  const root = document.getElementById("dealer");
  if (!root || root.classList.contains("busy") || root.classList.contains("settling")) return false;
  return ![...root.querySelectorAll('#panel button[aria-disabled="true"]')].some((b) => b.checkVisibility());
}"""


def pad_ready(page) -> None:
    """Wait until the dealer tablet's pad takes a tap (:data:`_PAD_READY`): the exact end of the wait a
    ``wait_for_timeout(450)`` before a tap stood for."""
    page.wait_for_function(_PAD_READY)


def same_login(page, other) -> None:
    """Give ``page``'s browser context the cookies of ``other``'s (its session: the same user logged in),
    instead of a second walk through the login form for a user the test has logged in once already."""
    page.context.add_cookies(other.context.cookies())


def login_to(page, username: str, password: str, path: str):
    """Log in through the real /login/ form and land on ``path`` (the form's ``next``), where the test goes
    anyway: the login otherwise lands on the home page first (the floor dashboard, or the dealer's tablet,
    with its sockets), a whole live page loaded for nothing before the test's own ``goto``.  Returns the
    response of ``path`` (as ``page.goto`` does)."""
    page.goto("/login/?" + urlencode({"next": path}))
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation() as landed:
        page.click("button[type=submit]")
    assert "/login/" not in page.url, f"login as {username} failed"
    assert urlsplit(page.url).path == urlsplit(path).path, (page.url, path)
    return landed.value
