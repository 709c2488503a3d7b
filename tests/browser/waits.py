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


#: Counts, by ``type``, the websocket messages the page has handled (``window.__handled``): each is counted in
#: a task queued from the socket's first listener, so after every listener of the page has run for it.
_MESSAGE_WATCH = """(() => {
  if (window.__handled) return;
  const Native = window.WebSocket;
  window.__handled = {};
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        let kind = null;
        try { kind = JSON.parse(event.data).type; } catch (e) { return; }
        setTimeout(() => { window.__handled[kind] = (window.__handled[kind] || 0) + 1; }, 0);
      });
    }
  };
})();"""


def watch_messages(page) -> None:
    """Count the websocket messages the pages ``page`` opens from now on handle (:func:`message_handled`)."""
    page.add_init_script(_MESSAGE_WATCH)


def message_handled(page, kind: str, times: int = 1) -> None:
    """Wait until the page has handled ``times`` websocket messages of type ``kind`` (:func:`watch_messages`
    before the page was opened)."""
    page.wait_for_function(f"() => ((window.__handled || {{}})[{kind!r}] || 0) >= {times}")
