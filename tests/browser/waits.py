"""Waits on exact conditions of the pages, for the browser tests (instead of fixed sleeps)."""

from __future__ import annotations

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
