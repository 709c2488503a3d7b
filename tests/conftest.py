"""Shared fixtures: the three standing users (dealer, floor, outsider) and a demo table.

Imports of Django code stay inside fixtures so that the pure-engine tests can
run with ``-p no:django``.
"""

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
#: The pytest-xdist worker running this process ("gw0", "gw1", ...; "" without xdist).  pytest-django
#: gives each worker its own test database (``POKERFLOOR_TEST_DB`` or test_pokerfloor, then ``_gw0``...).
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def artifact_log(name: str) -> Path:
    """``artifacts/<name>.log``, with the xdist worker in the name (``daphne-gw1.log``) so that the
    servers of parallel workers do not write into one file."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / (f"{name}-{XDIST_WORKER}.log" if XDIST_WORKER else f"{name}.log")


def pytest_configure(config):
    """Test users get cheap password hashes (PBKDF2 costs about a second per
    user here), in this process and in the daphne the browser tests start
    (it inherits the environment; see pokerfloor/settings.py)."""
    os.environ["POKERFLOOR_FAST_PASSWORDS"] = "1"
    if not config.pluginmanager.hasplugin("django"):
        return
    from django.conf import settings

    if not settings.configured:
        return
    from django.contrib.auth import hashers

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()
    patient_communicators()
    fast_flush()


#: Tables a test flush keeps: the rows ``migrate`` made for every model (content types, permissions), which
#: no test changes.  Django's flush empties them and then makes them again (the ``post_migrate`` signal):
#: about 0.45 s after every transactional test here.
KEPT_BY_FLUSH = frozenset({"django_content_type", "auth_permission"})


def fast_flush() -> None:
    """Make the flush after each ``django_db(transaction=True)`` test cheap, in this test process only
    (the app's ``manage.py flush`` stays Django's).

    Django empties the database after such a test with one ``TRUNCATE`` of every table and then sends
    ``post_migrate``, which makes the content types and permissions again.  On this machine that cost
    0.4-1.5 s a test (``create_permissions`` alone about 0.4 s), the larger part of the suite's time.
    Here the flush deletes the rows of every table but :data:`KEPT_BY_FLUSH` (``DELETE`` of the few rows
    a test made costs milliseconds, where a ``TRUNCATE`` gives each of the ~60 tables new files), and
    ``post_migrate`` is not sent: the rows it would make were never deleted.  The flush runs in one
    transaction, and Django's foreign keys on PostgreSQL are ``DEFERRABLE INITIALLY DEFERRED``, so the
    order of the tables does not matter.  A flush that resets sequences keeps ``TRUNCATE ... RESTART
    IDENTITY`` (of the same tables)."""
    from django.core.management.commands import flush
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        tables = [table for table in tables if table not in KEPT_BY_FLUSH]
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]  # (test process only, see above)
    flush.emit_post_migrate_signal = lambda *args, **kwargs: None  # type: ignore[attr-defined]  # (see above)


#: Seconds a Channels test communicator waits for a consumer (connect, receive, an HTTP response) before the
#: test fails; Channels' default is 1.  ``make test`` runs several xdist workers on two cores, where a
#: consumer's database thread can wait for the CPU longer than a second; a passing test never waits this
#: long.  ``receive_nothing`` keeps its own short wait, and calls that pass a timeout keep theirs.
COMMUNICATOR_TIMEOUT = 10.0


def patient_communicators() -> None:
    """Give the Channels/asgiref test communicators' default timeouts :data:`COMMUNICATOR_TIMEOUT` (a
    default that is no longer Channels' 1 s is left alone)."""
    from asgiref.testing import ApplicationCommunicator
    from channels.testing import HttpCommunicator, WebsocketCommunicator

    for method in (
        ApplicationCommunicator.receive_output,
        WebsocketCommunicator.connect,
        WebsocketCommunicator.receive_from,
        WebsocketCommunicator.receive_json_from,
        HttpCommunicator.get_response,
    ):
        if method.__defaults__ == (1,):
            method.__defaults__ = (COMMUNICATOR_TIMEOUT,)


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts and ends in the site's default language: a test that activates German (a page
    view, a German tablet message) must not leave its messages German for the next test of the process
    (under pytest-xdist a module follows whichever module ran before it on that worker)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _loop_connections():
    """The database connections a test's event loop opened for dealers' actions
    (``pokerfloor.runtime.loopdb``) end with the test: the test database's flush and its drop at the
    end of the run find no session left open."""
    yield
    from pokerfloor.runtime import loopdb

    loopdb.close_all()


@pytest.fixture
def roles(db):
    """Create the Django groups ``dealer``, ``floor`` and ``manager``."""
    from django.contrib.auth.models import Group

    return {name: Group.objects.get_or_create(name=name)[0] for name in ("dealer", "floor", "manager")}


def _user(username, group, roles):
    from django.contrib.auth.models import User

    user = User.objects.create_user(username=username, password="pw-" + username)
    if group:
        user.groups.add(roles[group])
    return user


@pytest.fixture
def dealer(roles):
    """A user in the ``dealer`` group (password ``pw-dealer``)."""
    return _user("dealer", "dealer", roles)


@pytest.fixture
def other_dealer(roles):
    """A second dealer, assigned to no table."""
    return _user("dealer2", "dealer", roles)


@pytest.fixture
def floorman(roles):
    """A user in the ``floor`` group (password ``pw-floor``)."""
    return _user("floor", "floor", roles)


@pytest.fixture
def outsider(roles):
    """A logged-in user with no role."""
    return _user("outsider", None, roles)


def database_url(settings_dict: dict) -> str:
    """A libpq URL for the database described by a Django ``settings_dict``
    (a Unix socket directory as HOST goes into the ``host`` query parameter)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    name = quote(settings_dict["NAME"], safe="")
    # dj-database-url keeps a socket directory given as ?host= in OPTIONS
    host = settings_dict.get("HOST") or (settings_dict.get("OPTIONS") or {}).get("host") or ""
    port = settings_dict.get("PORT") or ""
    auth = f"{user}:{password}@" if user else ""
    if host.startswith("/"):
        query = f"?host={quote(host, safe='/')}" + (f"&port={port}" if port else "")
        return f"postgresql://{auth}/{name}{query}"
    netloc = host + (f":{port}" if port else "")
    return f"postgresql://{auth}{netloc}/{name}"


#: The worker's program when its clock is ahead (:func:`floor_worker_process`): ``manage.py`` with
#: ``time_machine.travel`` started first.  ``sys.argv[1]``: the seconds ahead; the rest: the command's arguments.
_WORKER_AHEAD = (
    "import sys, time, time_machine\n"
    "time_machine.travel(time.time() + float(sys.argv[1]), tick=True).start()\n"
    "from django.core.management import execute_from_command_line\n"
    "execute_from_command_line(['manage.py', *sys.argv[2:]])\n"
)


@contextlib.contextmanager
def floor_worker_process(poll: float = 1.0, extra_env: dict[str, str] | None = None, *, clock_ahead_seconds: float = 0):
    """Run ``manage.py run_worker`` (the floor's clock: waitlist no-shows)
    against the test database while the block runs; stop it with SIGTERM
    after.  Start it only where a test needs the server's clock: a
    session-wide worker would act on every test's data.  Its log is in
    ``artifacts/worker.log`` (``worker-gw0.log`` under xdist).  ``extra_env``: e.g. the ``REDIS_URL`` of a
    daphne whose pages must see the worker's updates (:func:`redis_server`).

    ``clock_ahead_seconds`` (seconds, a float; 0: the real clock): the
    worker's wall clock is that far ahead of the real one and ticks on from
    there (``time_machine.travel(now + ahead, tick=True)`` started before the
    command), so a deadline recorded in the database (a "Time" clock's, a
    waitlist call's) falls due in the worker that much sooner: a test need
    not sit out the rule's 30 s, and nothing recorded is rewritten.  Only
    ``time.time()`` and ``datetime.now()`` move (``timezone.now()`` with
    them), not ``time.monotonic()`` nor the worker's sleeps.  What the worker
    records or sends carries its clock (an event's time; channels_redis scores
    a message by ``time.time()``, so on a shared Redis it queues behind what
    the daphne sends the same channel within that many seconds): keep it under
    a minute (the layer's message expiry).  Such a worker appends to the log
    (it usually takes over from another in the same test)."""
    from django.db import connection

    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "pokerfloor.settings"),
        **(extra_env or {}),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    python = str(ROOT / ".venv" / "bin" / "python")
    command = ["run_worker", "--poll", str(poll)]
    if clock_ahead_seconds:
        argv = [python, "-c", _WORKER_AHEAD, repr(float(clock_ahead_seconds)), *command]
    else:
        argv = [python, "manage.py", *command]
    with open(artifact_log("worker"), "a" if clock_ahead_seconds else "w") as log:
        if clock_ahead_seconds:
            log.write(f"--- a floor worker with its clock {clock_ahead_seconds:.1f} s ahead ---\n")
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def floor_worker(transactional_db):
    """The floor's background worker running against the test database for
    one test (its data must be committed: ``transactional_db``)."""
    with floor_worker_process() as proc:
        yield proc


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_status(url: str) -> int | None:
    """The HTTP status of a GET of ``url`` (an error status too), None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return None


@contextlib.contextmanager
def redis_server(folder: Path):
    """A ``redis-server`` on a Unix socket in ``folder`` (no persistence) while the block runs, as
    ``make run`` starts one; yields its ``REDIS_URL``.  Skips the test when redis-server is not
    installed (Debian: apt-get install redis-server)."""
    import shutil

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    sock = folder / "redis.sock"
    proc = subprocess.Popen(
        ["redis-server", "--port", "0", "--unixsocket", str(sock), "--save", "", "--appendonly", "no"]
        + ["--dir", str(folder), "--loglevel", "warning"],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not sock.exists():
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield f"unix://{sock}"
    finally:
        proc.kill()
        proc.wait(10)


#: The ``application_name`` of the database sessions of the servers the tests start (libpq reads it from
#: ``PGAPPNAME``): their sessions are ended by that name when they stop (:func:`end_server_sessions`), never
#: this process's own -- ending those too left a dead connection on a thread of this process, and the next
#: test whose first statement there was in a transaction failed with "terminating connection due to
#: administrator command" (Django cannot replace a connection inside ``atomic``).
SERVER_APP_NAME = "pokerfloor-test-server"


def end_server_sessions(cursor) -> None:
    """End the database sessions the tests' servers left (their backends may outlive them a moment)."""
    cursor.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND application_name = %s",
        [SERVER_APP_NAME],
    )


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, whose drop at the end of the run finds no other session left: the
    worker threads of the consumers (``pokerfloor.runtime.threads``) keep their connections, and
    PostgreSQL's ``DROP DATABASE`` waits 5 s for other sessions before it gives up (every run ended with
    those 5 s and "database ... is being accessed by other users")."""
    yield
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


#: The dealer tablet's double-tap guard on the test servers (``TABLET_DOUBLE_TAP_MS``, milliseconds; a room's
#: default is 400): every betting tap after the player to act changed waited out the room's 400 ms, which
#: was half the time of the tablet tests.  The tests of the guard itself give their page the room's 400 ms
#: (``tests.browser.waits.house_double_tap``).
TEST_DOUBLE_TAP_MS = "100"

#: Seconds a test's daphne may take to answer its first request (the parallel workers of ``make test`` start
#: theirs at the same moment, with their browsers and migrations, on two cores).
DAPHNE_START_TIMEOUT = 120


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker):
    """Start daphne on a free port against the test database; yield its base URL."""
    with daphne_server(django_db_blocker) as base:
        yield base


@contextlib.contextmanager
def daphne_server(
    django_db_blocker, extra_env: dict[str, str] | None = None, *, session: bool = True, log_name: str = "daphne"
):
    """daphne on a free port against the test database while the block runs; yields its base URL.
    ``extra_env``: e.g. ``REDIS_URL`` (a channel layer shared with a floor worker).  ``session``: it
    is the session's server, so the test database's other backends are ended after it (the
    database is dropped next).  ``log_name``: its log, ``artifacts/<log_name>-gwN.log``; a test's own
    server names its own, so that it does not overwrite the session server's log of the tests before."""
    from django.conf import settings
    from django.db import connection

    url = database_url(connection.settings_dict)
    log_path = artifact_log(log_name)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "pokerfloor.settings"),
        "DEBUG": "false",  # as served for real: no query log, no static files looked up again per request
        "SECRET_KEY": settings.SECRET_KEY,  # sessions the tests make (force_login) verify there too
        "PYTHONUNBUFFERED": "1",
        "PGAPPNAME": SERVER_APP_NAME,
        "TABLET_DOUBLE_TAP_MS": TEST_DOUBLE_TAP_MS,
        **(extra_env or {}),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # The listening socket is bound here (a free port) and handed to daphne (``daphne --fd``, as
    # pokerfloor/serve.py does): no other process, such as a parallel xdist worker's daphne, can take
    # the port between finding it and daphne listening on it.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        port = listener.getsockname()[1]
        with open(log_path, "w") as log:
            proc = subprocess.Popen(
                [str(ROOT / ".venv" / "bin" / "daphne"), "--fd", str(listener.fileno()), "pokerfloor.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(listener.fileno(),),
            )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + DAPHNE_START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"daphne exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(base + "/login/", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"daphne did not answer within {DAPHNE_START_TIMEOUT} s:\n{log_path.read_text()}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if session:  # daphne's backends may outlive it for a moment; the test database is dropped next
            with django_db_blocker.unblock(), connection.cursor() as cursor:  # every other session: nothing runs after
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
