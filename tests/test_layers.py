"""The layers of the project, read from the import statements (``ast``, lazy imports included):

    poker  <-  tables  <-  rules, room, tournaments  <-  public, office, pokerfloor
    runtime (pokerfloor/runtime/)  <-  tables and everything above it

``poker`` (the pure core) imports no app; ``tables`` (the ground floor)
imports none of the apps above it, which reach it through ``tables.hooks``;
the top-level packages import each other without a cycle.  ``pokerfloor.runtime``
(the server's performance machinery: thread pools, dispatch, channel layers) is
a leaf of its own: it imports no package of ours, so the consumers of every app
may use it, while the rest of ``pokerfloor`` stays above all apps.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("poker", "runtime", "tables", "rules", "room", "tournaments", "public", "office", "pokerfloor")
#: Where a package's modules are, when not in the folder of its name.
FOLDERS = {"runtime": "pokerfloor/runtime"}
#: What each package must not import.
FORBIDDEN = {
    "poker": {"runtime", "tables", "rules", "room", "tournaments", "public", "office", "pokerfloor"},
    # The runtime machinery is a leaf: Django and Channels only.
    "runtime": {"poker", "tables", "rules", "room", "tournaments", "public", "office", "pokerfloor"},
    "tables": {"rules", "room", "tournaments", "public", "office", "pokerfloor"},
    # The apps above the ground floor stand side by side: none imports another (they meet in tables.hooks).
    "rules": {"room", "tournaments", "public", "office", "pokerfloor"},
    "room": {"rules", "tournaments", "public", "office", "pokerfloor"},
    "tournaments": {"rules", "room", "public", "office", "pokerfloor"},
    # The public room pages (issue 29) stand on the apps (room, tournaments, tables), never the project.
    "public": {"pokerfloor"},
    # The office (players, dealers, reports, issue 28) reads all the apps and stands beside the project.
    "office": {"pokerfloor"},
}


def _imported_packages(path: Path) -> set[str]:
    """Top-level packages of ``PACKAGES`` that the module at ``path`` imports (anywhere in it)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found.update(package for name in names if (package := _package_of(name)))
    return found


def _package_of(module: str) -> str | None:
    """The package of ``PACKAGES`` that module ``module`` (dotted) belongs to, or None (not ours)."""
    if module == "pokerfloor.runtime" or module.startswith("pokerfloor.runtime."):
        return "runtime"
    top = module.split(".")[0]
    return top if top in PACKAGES else None


def _folder(package: str) -> str:
    return FOLDERS.get(package, package)


def import_edges() -> dict[tuple[str, str], list[str]]:
    """``(importer package, imported package) -> [files]`` over every module of ``PACKAGES``."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    nested = {folder for folder in FOLDERS.values()}
    for package in PACKAGES:
        for path in sorted((ROOT / _folder(package)).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if package not in FOLDERS and any(relative.startswith(folder + "/") for folder in nested):
                continue  # a module of a nested package (pokerfloor/runtime) counts for that one
            for imported in _imported_packages(path) - {package}:
                edges[(package, imported)].append(str(path.relative_to(ROOT)))
    return edges


def _cycle(edges) -> list[str] | None:
    """One cycle of the package graph, or None."""
    graph = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in PACKAGES:
        if node not in state and (found := visit(node)):
            return found
    return None


def _violations() -> list[tuple[str, str]]:
    return sorted(
        (path, imported)
        for (package, imported), paths in import_edges().items()
        if imported in FORBIDDEN.get(package, ())
        for path in paths
    )


def _owner(path: str) -> str:
    """The package a module's path (``pokerfloor/runtime/threads.py``) counts for."""
    for package, folder in FOLDERS.items():
        if path.startswith(folder + "/"):
            return package
    return path.split("/")[0]


def test_no_cycle_between_top_level_packages():
    cycle = _cycle(set(import_edges()))
    assert cycle is None, f"import cycle: {' -> '.join(cycle)}"


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_lower_layers_import_nothing_above_them(package):
    found = [(path, imported) for path, imported in _violations() if _owner(path) == package]
    assert not found, "imports against the layers:\n" + "\n".join(f"{p} imports {i}" for p, i in found)


def test_the_check_sees_an_import_against_the_layers(tmp_path):
    """The check itself can fail: a module of ``room`` importing ``tournaments`` is reported."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "room" / "bad.py").write_text("from tournaments.models import Tournament\n", encoding="utf-8")
    globals()["ROOT"], saved = tmp_path, ROOT
    try:
        assert ("room/bad.py", "tournaments") in _violations()
    finally:
        globals()["ROOT"] = saved


def test_the_runtime_is_a_leaf_the_apps_may_use(tmp_path):
    """``tables`` may import ``pokerfloor.runtime`` (not the rest of ``pokerfloor``); the runtime imports
    nothing of ours: its importing ``tables`` is reported, and so is ``tables`` importing ``pokerfloor.urls``."""
    for package in PACKAGES:
        (tmp_path / _folder(package)).mkdir(parents=True, exist_ok=True)
    (tmp_path / "tables" / "uses_runtime.py").write_text("from pokerfloor.runtime.threads import x\n", encoding="utf-8")
    (tmp_path / "tables" / "uses_project.py").write_text("from pokerfloor import urls\n", encoding="utf-8")
    (tmp_path / "pokerfloor" / "runtime" / "bad.py").write_text("import tables.models\n", encoding="utf-8")
    globals()["ROOT"], saved = tmp_path, ROOT
    try:
        found = _violations()
    finally:
        globals()["ROOT"] = saved
    assert ("tables/uses_project.py", "pokerfloor") in found
    assert ("pokerfloor/runtime/bad.py", "tables") in found
    assert not [v for v in found if v[0] == "tables/uses_runtime.py"]
