"""tests/schedule.py: the modules reach the xdist workers longest first, a module's tests stay together and
in order, and a module without a measured time counts as the median one."""

from __future__ import annotations

import json

from tests.schedule import load_durations, longest_first


def test_the_longest_module_goes_first_and_a_modules_tests_keep_their_order():
    ids = ["a.py::t1", "b.py::t1", "a.py::t2", "c.py::t1", "b.py::t2"]
    order = longest_first(ids, {"a.py": 1.0, "b.py": 60.0, "c.py": 5.0})
    assert [ids[i] for i in order] == ["b.py::t1", "b.py::t2", "c.py::t1", "a.py::t1", "a.py::t2"]


def test_a_new_module_counts_as_the_median():
    ids = ["new.py::t", "slow.py::t", "mid.py::t", "fast.py::t"]
    order = longest_first(ids, {"slow.py": 100.0, "mid.py": 10.0, "fast.py": 1.0})
    assert [ids[i] for i in order] == ["slow.py::t", "new.py::t", "mid.py::t", "fast.py::t"]


def test_a_missing_or_broken_file_leaves_the_collected_order(tmp_path):
    assert load_durations(tmp_path / "none.json") == {}
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert load_durations(tmp_path / "bad.json") == {}
    (tmp_path / "ok.json").write_text(json.dumps({"x.py": 3, "y.py": "slow"}))
    assert load_durations(tmp_path / "ok.json") == {"x.py": 3.0}
    assert longest_first(["x.py::a", "y.py::b"], {}) == [0, 1]
