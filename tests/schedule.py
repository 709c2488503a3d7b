"""The order in which the test modules reach the xdist workers: the longest first.

``make test`` runs ``pytest -n 2 --dist loadfile``: a module is one unit of work, and a worker that is
done takes the next unit from one queue.  xdist orders that queue by the number of tests per module
(its ``--loadscope-reorder``), which puts the browser nights (one or two tests, one or two minutes each)
last: the run ended with one worker in the cash night while the other was idle.  This plugin orders the
modules by their measured time instead, longest first (the longest-processing-time rule of scheduling),
and the Makefile passes ``--no-loadscope-reorder`` so that xdist keeps this order.

The times are ``tests/durations.json``: ``{"tests/browser/test_cash_night.py": 109.7, ...}``, seconds
of setup, call and teardown per module.  A module not in it (a new one) counts as the median module.
``pytest --store-durations`` (with or without ``-n``) writes the file anew from the run's reports; the
order of the tests inside a module does not change.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store-durations",
        action="store_true",
        help="write each module's time (setup, call and teardown, in seconds) to tests/durations.json",
    )


def module_of(nodeid: str) -> str:
    """The module part of a test's node id (``tests/x/test_y.py::test_z[1]`` -> ``tests/x/test_y.py``)."""
    return nodeid.split("::", 1)[0]


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    """The stored seconds per module; ``{}`` when the file is missing or not a JSON object of numbers."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): float(v) for k, v in data.items() if isinstance(v, (int, float))}


def longest_first(nodeids: list[str], durations: dict[str, float]) -> list[int]:
    """The indexes of ``nodeids`` with the modules in descending stored time, ties and the tests of one
    module in their collected order; an unknown module counts as the median of the known ones."""
    default = statistics.median(durations.values()) if durations else 0.0
    return sorted(range(len(nodeids)), key=lambda i: -durations.get(module_of(nodeids[i]), default))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    durations = load_durations()
    if not durations:
        return
    order = longest_first([item.nodeid for item in items], durations)
    items[:] = [items[i] for i in order]


class _Recorder:
    """Adds up each module's report durations and writes them at the session's end (on the xdist
    controller, which sees every worker's reports, or in a run without workers)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[module_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.seconds:
            return
        rounded = {module: round(s, 1) for module, s in sorted(self.seconds.items(), key=lambda kv: -kv[1])}
        DURATIONS.write_text(json.dumps(rounded, indent=1) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("store_durations") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Recorder(), "store-durations")
