"""The layers of the project, read from the import statements (``ast``, lazy imports included):

    poker  <-  tables  <-  rules, room, tournaments  <-  pokerfloor

``poker`` (the pure core) imports no app; ``tables`` (the ground floor)
imports none of the apps above it, which reach it through ``tables.hooks``;
the top-level packages import each other without a cycle.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("poker", "tables", "rules", "room", "tournaments", "public", "office", "pokerfloor")
#: What each package must not import.
FORBIDDEN = {
    "poker": {"tables", "rules", "room", "tournaments", "public", "office", "pokerfloor"},
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
        found.update(name.split(".")[0] for name in names if name.split(".")[0] in PACKAGES)
    return found


def import_edges() -> dict[tuple[str, str], list[str]]:
    """``(importer package, imported package) -> [files]`` over every module of ``PACKAGES``."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
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


def test_no_cycle_between_top_level_packages():
    cycle = _cycle(set(import_edges()))
    assert cycle is None, f"import cycle: {' -> '.join(cycle)}"


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_lower_layers_import_nothing_above_them(package):
    found = [(path, imported) for path, imported in _violations() if path.startswith(package + "/")]
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
