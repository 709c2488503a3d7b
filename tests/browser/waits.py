"""Waits on exact conditions of the pages (instead of fixed sleeps) and logins without detours, for the browser tests."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

#: True when the dealer tablet takes a tap on its action pad: no message in flight (class ``busy``), the
#: update of the last acknowledged one shown (until then the visible buttons of ``#panel`` are
#: ``aria-disabled``, static/js/dealer/main.js and stud.js), and the double-tap guard after the player to act
#: changed over (class ``settling``, static/js/dealer/connection.js: a tap then is dropped as a double tap;
#: its length is the server's ``TABLET_DOUBLE_TAP_MS``, :data:`tests.conftest.TEST_DOUBLE_TAP_MS` in the tests).
_PAD_READY = """() => {
  const root = document.getElementById("dealer");
  if (!root || root.classList.contains("busy") || root.classList.contains("settling")) return false;
  return ![...root.querySelectorAll('#panel button[aria-disabled="true"]')].some((b) => b.checkVisibility());
}"""


def pad_ready(page) -> None:
    """Wait until the dealer tablet's pad takes a tap (:data:`_PAD_READY`): the exact end of the wait a
    ``wait_for_timeout(450)`` before a tap stood for."""
    page.wait_for_function(_PAD_READY)


def house_double_tap(page, ms: int = 400) -> None:
    """Give the dealer tablet ``page`` the double-tap guard a room has by default (``TABLET_DOUBLE_TAP_MS``,
    400 ms) instead of the test server's shorter one, for a test of the guard itself: the tablet reads
    the page's ``data-double-tap-ms`` each time the player to act changes."""
    page.evaluate("(ms) => { document.getElementById('dealer').dataset.doubleTapMs = String(ms); }", ms)


def same_login(page, other) -> None:
    """Give ``page``'s browser context the cookies of ``other``'s (its session: the same user logged in),
    instead of a second walk through the login form for a user the test has logged in once already."""
    page.context.add_cookies(other.context.cookies())


def submit_login(page, username: str, password: str, url: str = "/login/"):
    """Open the real login form at ``url``, log in as ``username`` and wait for the page it leads to; fails
    the test when the form is shown again (a refused login).  Returns the response of that page."""
    page.goto(url)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation() as landed:
        page.click("button[type=submit]")
    assert "/login/" not in page.url, f"login as {username} failed"
    return landed.value


def login_to(page, username: str, password: str, path: str):
    """Log in through the real /login/ form and land on ``path`` (the form's ``next``), where the test goes
    anyway: the login otherwise lands on the home page first (the floor dashboard, or the dealer's tablet,
    with its sockets), a whole live page loaded for nothing before the test's own ``goto``.  Returns the
    response of ``path`` (as ``page.goto`` does)."""
    response = submit_login(page, username, password, "/login/?" + urlencode({"next": path}))
    assert urlsplit(page.url).path == urlsplit(path).path, (page.url, path)
    return response


#: One watcher of the page's websockets (a subclass, so the page's own code sees an ordinary ``WebSocket``):
#: ``window.__sockets`` has, per socket, whether it has heard a message or closed (:func:`page_settled`);
#: ``window.__handled`` counts, by ``type``, the messages the page has handled, each counted in a task
#: queued from the socket's first listener, so after every listener of the page has run for it
#: (:func:`message_handled`).
_SOCKET_WATCH = """(() => {
  if (window.__sockets) return;
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__handled = {};
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      const seen = { heard: false, closed: false };
      window.__sockets.push(seen);
      this.addEventListener("message", (event) => {
        seen.heard = true;
        let kind = null;
        try { kind = JSON.parse(event.data).type; } catch (e) { return; }
        setTimeout(() => { window.__handled[kind] = (window.__handled[kind] || 0) + 1; }, 0);
      });
      this.addEventListener("close", () => { seen.closed = true; });
    }
  };
})();"""

_SETTLED = "() => (window.__sockets || []).every((s) => s.heard || s.closed)"


def watch_sockets(page) -> None:
    """Let :func:`page_settled` and :func:`message_handled` see the websockets of the pages ``page`` opens from
    now on (:data:`_SOCKET_WATCH`, an init script of its browser context, added once per context)."""
    context = page.context
    if not getattr(context, "_pokerfloor_sockets", False):
        context.add_init_script(_SOCKET_WATCH)
        context._pokerfloor_sockets = True


def page_settled(page) -> None:
    """Wait until the page has loaded, each websocket it opened has its first message (the snapshot every live
    page is sent on connect) or has closed, and two frames are drawn after that.

    This replaces Playwright's ``networkidle``, which waits until no request was made for 500 ms: at least
    half a second a page, although a live page's data comes over its socket, which ``networkidle`` ignores.
    Pages opened before :func:`watch_sockets` count as having no socket."""
    page.wait_for_load_state("load")
    page.wait_for_function(_SETTLED)
    two_frames(page)


def goto_settled(page, path: str):
    """Open ``path`` (:func:`watch_sockets` first) and wait for :func:`page_settled`; returns the response."""
    watch_sockets(page)
    response = page.goto(path)
    page_settled(page)
    return response


def message_handled(page, kind: str, times: int = 1) -> None:
    """Wait until the page has handled ``times`` websocket messages of type ``kind`` (:func:`watch_sockets`
    before the page was opened)."""
    page.wait_for_function(f"() => ((window.__handled || {{}})[{kind!r}] || 0) >= {times}")


def two_frames(page) -> None:
    """Wait until the page has drawn two frames (what was queued before, a promise's continuation
    included, has run and is on the screen)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


_HOLD_ANSWERS = """() => {
    window.__hold = new Promise((release) => { window.__release = release; });
    const fetch = window.fetch;
    window.fetch = async (...args) => {
        const answer = await fetch(...args);
        if (args[1] && args[1].method === "POST") await window.__hold;
        return answer;
    };
}"""


def hold_answers(page) -> None:
    """From now on the page's POSTs reach the server at once, but the page gets their answers only after
    :func:`release_answers`: a late answer on a busy night, while the person goes on typing."""
    page.evaluate(_HOLD_ANSWERS)


def release_answers(page) -> None:
    """Hand the held answers to the page, wait until it has handled them (:func:`two_frames`), and let
    every later answer through at once."""
    page.evaluate("() => { window.__release(); window.__hold = Promise.resolve(); }")
    two_frames(page)
