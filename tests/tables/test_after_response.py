"""``tables.writepath.after_response``: the consequences of a committed step
that the client need not wait for (a bust's moves at other tables) run after
the dealer's answer on a socket, and at once everywhere else."""

import asyncio

import pytest
from django.db import transaction

from tables.writepath import Broadcaster, after_response, run_answering_first, run_jobs

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broadcaster():
    """A broadcaster on an event loop of its own (what a server process has)."""
    loop = asyncio.new_event_loop()
    broadcaster = Broadcaster(loop)
    yield broadcaster
    broadcaster.task.cancel()
    loop.run_until_complete(asyncio.gather(broadcaster.task, return_exceptions=True))
    loop.close()


def _service(log, fail=False):
    with transaction.atomic():
        transaction.on_commit(lambda: after_response(log.append, "moves made"))
    log.append("answered")
    if fail:
        raise RuntimeError("after the commit")
    return 42


def test_outside_a_socket_the_work_runs_at_once():
    log = []
    assert _service(log) == 42
    assert log == ["moves made", "answered"]


def test_on_a_socket_the_answer_comes_first_and_the_work_after_it(broadcaster):
    log = []
    result, jobs = run_answering_first(broadcaster, _service, log)
    assert (result, log) == (42, ["answered"])  # nothing of the work yet
    run_jobs(broadcaster, jobs)
    assert log == ["answered", "moves made"]


def test_a_service_that_fails_after_a_commit_still_has_its_committed_work_done(broadcaster):
    log = []
    with pytest.raises(RuntimeError):
        run_answering_first(broadcaster, _service, log, fail=True)
    assert log == ["answered", "moves made"]


def test_a_failing_job_does_not_stop_the_next_one(broadcaster):
    log = []

    def broken():
        raise ValueError("lost")

    run_jobs(broadcaster, [broken, lambda: log.append("second")])
    assert log == ["second"]
