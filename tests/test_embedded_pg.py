"""The embedded PostgreSQL heals itself: a server process started just after
the database died waits for it instead of exiting, and a running daphne
starts a killed database again and answers requests a few seconds later.

Everything runs against a throwaway data directory (``POKERFLOOR_PGDATA``),
never the shared ``.pgdata`` server the rest of the suite uses."""

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import ARTIFACTS, ROOT, _free_port, http_status

PYTHON = str(ROOT / ".venv" / "bin" / "python")


@pytest.fixture(scope="module")
def pgdata():
    """A migrated embedded server of its own in a short /tmp directory (Unix
    socket paths are limited to about 100 characters); stopped and removed after."""
    path = Path(tempfile.mkdtemp(prefix="pfpg", dir="/tmp"))
    env = _env(path)
    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True, timeout=180)
    yield path
    pid = _postmaster_pid(path)
    if pid:
        with _ignore_gone():
            os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    shutil.rmtree(path, ignore_errors=True)


class _ignore_gone:
    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        return kind is ProcessLookupError


def _env(pgdata: Path) -> dict:
    env = {**os.environ, "POKERFLOOR_PGDATA": str(pgdata), "DEBUG": "true", "PYTHONUNBUFFERED": "1"}
    env["LOBBY_TOKEN_MISS_LIMIT"] = "100000"  # the test polls an unknown lobby link many times
    for name in ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "POKERFLOOR_TEST_DB"):
        env.pop(name, None)
    return env


def _postmaster_pid(pgdata: Path) -> int | None:
    try:
        return int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    except (FileNotFoundError, ValueError):
        return None


def _kill_postmaster(pgdata: Path) -> int:
    pid = _postmaster_pid(pgdata)
    assert pid, "the embedded server is not running"
    os.kill(pid, signal.SIGKILL)
    return pid


def test_a_server_started_right_after_the_database_died_waits_for_it(pgdata):
    _kill_postmaster(pgdata)
    # at once: the dead postmaster's children still hold its shared memory
    started = subprocess.run(
        [PYTHON, "-c", "from pokerfloor.embedded_pg import embedded_database_url; print(embedded_database_url())"],
        cwd=ROOT,
        env=_env(pgdata),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip().endswith(f"/pokerfloor?host={pgdata}")
    assert _postmaster_pid(pgdata)


def test_daphne_restarts_a_killed_database_and_answers_again(pgdata):
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / "daphne-embedded-pg.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "daphne"), "-b", "127.0.0.1", "-p", str(port), "pokerfloor.asgi:application"],
            cwd=ROOT,
            env=_env(pgdata),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    # an unknown lobby link is looked up in the database: 404 when it answers, 500 when it is down
    url = f"http://127.0.0.1:{port}/lobby/no-such-display/"
    try:
        deadline = time.monotonic() + 60
        while http_status(url) != 404:
            assert proc.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)
        for _ in range(5):  # every HTTP thread holds a connection to the server about to die
            assert http_status(url) == 404

        killed = _kill_postmaster(pgdata)
        died = time.monotonic()
        statuses = []
        while True:
            statuses.append(http_status(url))
            if statuses[-1] == 404 and _postmaster_pid(pgdata) not in (None, killed):
                break
            assert time.monotonic() - died < 15, f"no answer 15 s after the kill: {statuses}\n{log_path.read_text()}"
            time.sleep(0.1)
        recovered = time.monotonic() - died
        # every thread's connection is replaced: several requests in a row answer
        assert [http_status(url) for _ in range(8)] == [404] * 8
        assert proc.poll() is None
        assert "is not running: starting it again" in log_path.read_text()
        print(f"answering again {recovered:.1f} s after the kill; statuses meanwhile: {sorted(set(statuses))}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
