"""The pure core imports no Django, Channels or app (docs/architecture.md).

Checked two ways: every ``import`` statement under ``poker/`` names the
standard library, ``poker`` itself or an allowed third-party library; and
importing every module of the package in a fresh interpreter loads no Django.
"""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "poker"
ALLOWED_THIRD_PARTY = {"pokerkit", "phevaluator", "tomli"}  # hand evaluation and PHH files: well-kept libraries


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            yield node.module or ""


def test_core_modules_import_only_stdlib_the_core_and_allowed_libraries():
    allowed = set(sys.stdlib_module_names) | {"poker"} | ALLOWED_THIRD_PARTY
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in CORE.rglob("*.py")
        for name in _imports(path)
        if name.split(".")[0] not in allowed
    ]
    assert offenders == []


def test_importing_every_core_module_loads_no_django_or_channels():
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in CORE.rglob("*.py")
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'channels', 'tables', 'rules', "
        "'room', 'tournaments', 'pokerfloor'))\n"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
