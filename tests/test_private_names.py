"""Private means private (issue 25): no module of tables, rules, room or pokerfloor takes a name
with a leading underscore from another module -- by ``from x import _y`` or by ``x._y`` on a
module it imported.  A name shared across modules is public (in its module's ``__all__``)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("tables", "rules", "room", "pokerfloor")
PROJECT = ("poker", "tables", "rules", "room", "tournaments", "office", "public", "pokerfloor")


def _private(name: str) -> bool:
    return name.startswith("_") and name != "_" and not name.startswith("__")


def private_imports(root: Path) -> list[str]:
    """``path:line: name`` of every private name a module under ``root`` imports from another
    module of the project, or reads as an attribute of a project module it imported (gettext's
    ``_`` and dunders aside; migrations skipped)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] in PROJECT):
                for alias in node.names:
                    if _private(alias.name):
                        found.append(f"{path.relative_to(root)}:{node.lineno}: {alias.name}")
                    modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in PROJECT:
                        modules.add(alias.asname or alias.name.split(".")[0])
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and _private(node.attr)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.value.id[:1].islower()  # a module, not a model's documented ``_meta``
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_the_checker_sees_both_ways_in(tmp_path):
    (tmp_path / "a.py").write_text(
        "from tables.services.steps import _append, lock_table\n"
        "from tables import services\n"
        "from django.utils.translation import gettext as _\n"
        "services._lock_table(1)\n"
        "services.lock_table(1)\n"
        "self._ok = 1\n"
    )
    assert private_imports(tmp_path) == ["a.py:1: _append", "a.py:4: services._lock_table"]


def test_no_private_name_crosses_a_module():
    found = [f"{package}/{hit}" for package in CHECKED for hit in private_imports(ROOT / package)]
    assert found == [], "make the name public (and list it in __all__):\n" + "\n".join(found)
