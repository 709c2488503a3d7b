"""Production settings from the environment, the 404 page without DEBUG,
login throttling, the rate limit on lobby-link lookups and the websocket
origin check."""

import os
import subprocess
import sys

import pytest
import websockets.exceptions
import websockets.sync.client
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client

from pokerfloor.routing import websocket_urlpatterns
from room import services as r
from room.models import LobbyDisplay
from tests.conftest import ROOT

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x7Qm2-vR9kLp4sTz8bWn3cYh6jDf1gEa5uKo0iXq_NeMrBtPlVwS",
    "ALLOWED_HOSTS": "poker.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://poker.example.org",
    "BEHIND_HTTPS_PROXY": "1",
}


def _django(code: str, **env_vars: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python with the settings read from exactly
    ``env_vars`` (no test-suite markers; a database URL that is never opened)."""
    # DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests for Playwright's loop, never in production.
    dropped = ("POKERFLOOR_FAST_PASSWORDS", "DJANGO_ALLOW_ASYNC_UNSAFE", *PRODUCTION, "HTTPS")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(DATABASE_URL="postgresql://nobody@localhost:1/nothing", DJANGO_SETTINGS_MODULE="pokerfloor.settings")
    env.update(env_vars)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


SHOW = "from django.conf import settings as s; print(s.DEBUG, s.ALLOWED_HOSTS, s.SECURE_SSL_REDIRECT)"


def test_check_deploy_reports_nothing_with_the_documented_production_variables():
    done = _django(
        "from django.core.management import execute_from_command_line as run; run(['m', 'check', '--deploy'])",
        **PRODUCTION,
    )
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout, done.stdout + done.stderr


def test_debug_is_off_unless_set_and_then_the_server_needs_a_secret_key():
    done = _django("import pokerfloor.asgi")
    assert done.returncode != 0 and "SECRET_KEY must be set when DEBUG is off" in done.stderr
    assert _django("import pokerfloor.asgi", SECRET_KEY=PRODUCTION["SECRET_KEY"]).returncode == 0
    done = _django(SHOW, SECRET_KEY=PRODUCTION["SECRET_KEY"])
    assert done.stdout.split() == ["False", "['127.0.0.1',", "'localhost']", "False"], done.stderr
    done = _django(SHOW, DEBUG="1")  # make run's demo
    assert done.stdout.split() == ["True", "['127.0.0.1',", "'localhost',", "'testserver']", "False"], done.stderr
    done = _django(SHOW, **PRODUCTION)
    assert done.stdout.split() == ["False", "['poker.example.org']", "True"], done.stderr


@pytest.mark.parametrize(
    "name,value",
    [
        ("DEBUG", "maybe"),
        ("BEHIND_HTTPS_PROXY", "2"),
        ("SECURE_HSTS_SECONDS", "a year"),
        ("SERVICE_THREADS", "abc"),
        ("SERVICE_THREADS", "0"),
        ("HTTP_THREADS", "four"),
    ],
)
def test_a_bad_value_stops_the_settings_with_its_name(name, value):
    done = _django(SHOW, **{**PRODUCTION, name: value})
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and name in done.stderr


@pytest.mark.django_db
def test_the_404_page_lists_no_urls_with_debug_off(settings):
    settings.DEBUG = False
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "admin/" not in page and "URLconf" not in page and "lobby/" not in page
    settings.DEBUG = True  # what make run used to serve to anyone
    assert "URLconf" in Client().get("/no-such-page/").content.decode()


# --- login throttling --------------------------------------------------------------


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


def _login(username, password, ip="10.0.0.1", lang="en"):
    client = Client(REMOTE_ADDR=ip, headers={"accept-language": lang})
    return client.post("/login/", {"username": username, "password": password})


@pytest.mark.django_db
def test_five_failed_logins_refuse_that_user_from_that_address_for_fifteen_minutes(floorman, dealer):
    for _ in range(5):
        response = _login("floor", "wrong")
        assert response.status_code == 200 and "Please enter a correct username" in response.content.decode()
    refused = _login("floor", "pw-floor")  # the right password, too late
    assert refused.status_code == 429
    assert "Too many failed logins for this user name from your address: try again in 15 minutes." in (
        refused.content.decode()
    )
    assert "_auth_user_id" not in refused.client.session
    german = _login("floor", "pw-floor", lang="de")
    assert german.status_code == 429
    assert "Zu viele fehlgeschlagene Anmeldungen" in german.content.decode()
    # the same user from another address, another user from this one: not refused
    assert _login("floor", "pw-floor", ip="10.0.0.2").status_code == 302
    assert _login("dealer", "pw-dealer").status_code == 302


@pytest.mark.django_db
def test_a_good_login_forgets_the_earlier_failures(floorman):
    for _ in range(4):
        _login("floor", "wrong")
    assert _login("floor", "pw-floor").status_code == 302
    for _ in range(4):
        _login("floor", "wrong")
    assert _login("floor", "pw-floor").status_code == 302


@pytest.mark.django_db
def test_the_admin_login_is_throttled_too(floorman):
    client = Client(REMOTE_ADDR="10.0.0.3")
    for _ in range(5):
        client.post("/admin/login/", {"username": "floor", "password": "wrong"})
    page = client.post("/admin/login/", {"username": "floor", "password": "pw-floor"}).content.decode()
    assert "Too many failed logins" in page


# --- lobby-link guessing -------------------------------------------------------


@pytest.fixture
def display(db):
    room = r.create_room("casino", "Casino")
    return LobbyDisplay.objects.create(room=room, token="known-display-token-0123456789", label="TV")


@pytest.mark.django_db
def test_guessing_lobby_links_is_refused_after_the_limit(display, settings):
    settings.LOBBY_TOKEN_MISS_LIMIT = 3
    guesser, other = Client(REMOTE_ADDR="10.0.0.9"), Client(REMOTE_ADDR="10.0.0.10")
    assert guesser.get(f"/lobby/{display.token}/").status_code == 200  # known links do not count
    for n in range(3):
        assert guesser.get(f"/lobby/guess-{n}/").status_code == 404
    refused = guesser.get(f"/lobby/{display.token}/")
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert guesser.get("/lobby/guess-9/").status_code == 429
    assert other.get(f"/lobby/{display.token}/").status_code == 200


async def _lobby_socket(token, ip):
    ws = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/lobby/{token}/")
    ws.scope["client"] = (ip, 40000)
    connected, code = await ws.connect()
    await ws.disconnect()
    return connected, code


@pytest.mark.django_db(transaction=True)
async def test_guessing_lobby_sockets_is_refused_after_the_limit(display, settings):
    settings.LOBBY_TOKEN_MISS_LIMIT = 3
    assert (await _lobby_socket(display.token, "10.0.0.9"))[0]
    for n in range(3):
        assert await _lobby_socket(f"guess-{n}", "10.0.0.9") == (False, 4404)
    assert await _lobby_socket(display.token, "10.0.0.9") == (False, 4429)
    assert (await _lobby_socket(display.token, "10.0.0.10"))[0]


# --- websocket origins ---------------------------------------------------------------


def _open(url, origin):
    try:
        with websockets.sync.client.connect(url, origin=origin, open_timeout=10) as ws:
            ws.recv(timeout=10)  # the snapshot
            return "open"
    except websockets.exceptions.InvalidStatus as error:
        return error.response.status_code


@pytest.mark.django_db(transaction=True)
def test_a_websocket_opens_only_from_the_pages_own_origin_port_included(live_server_url, display):
    port = int(live_server_url.rsplit(":", 1)[1])
    url = f"ws://127.0.0.1:{port}/ws/lobby/{display.token}/"
    assert _open(url, f"http://127.0.0.1:{port}") == "open"
    assert _open(url, f"http://127.0.0.1:{port + 1}") == 403  # another service on an allowed host
    assert _open(url, "http://127.0.0.1") == 403
    assert _open(url, f"https://127.0.0.1:{port}") == 403
    assert _open(url, f"http://evil.example:{port}") == 403


# --- tournament lobby links -------------------------------------------------------------


@pytest.fixture
def tournament(db):
    from tournaments import services as ts

    levels = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}
    return ts.create_tournament("Open", "munotpoker", levels, starting_stack=1000)


@pytest.mark.django_db
def test_guessing_tournament_lobby_links_is_refused_after_the_limit(tournament, settings):
    settings.LOBBY_TOKEN_MISS_LIMIT = 3
    guesser, other = Client(REMOTE_ADDR="10.0.1.9"), Client(REMOTE_ADDR="10.0.1.10")
    known = f"/tournaments/lobby/{tournament.public_token}/"
    assert guesser.get(known).status_code == 200
    for n in range(3):
        assert guesser.get(f"/tournaments/lobby/guess-{n}/").status_code == 404
    assert guesser.get(known).status_code == 429
    assert other.get(known).status_code == 200


async def _tournament_lobby_socket(token, ip):
    ws = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tournaments/lobby/{token}/")
    ws.scope["client"] = (ip, 40000)
    connected, code = await ws.connect()
    await ws.disconnect()
    return connected, code


@pytest.mark.django_db(transaction=True)
async def test_guessing_tournament_lobby_sockets_is_refused_after_the_limit(tournament, settings):
    settings.LOBBY_TOKEN_MISS_LIMIT = 3
    assert (await _tournament_lobby_socket(tournament.public_token, "10.0.1.9"))[0]
    for n in range(3):
        assert await _tournament_lobby_socket(f"guess-{n}", "10.0.1.9") == (False, 4404)
    assert await _tournament_lobby_socket(tournament.public_token, "10.0.1.9") == (False, 4429)
    assert (await _tournament_lobby_socket(tournament.public_token, "10.0.1.10"))[0]
