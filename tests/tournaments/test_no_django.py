"""The tournament engine is pure Python: no Django anywhere (DESIGN.md layers)."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "tournaments" / "engine"


def test_engine_modules_import_only_stdlib_and_each_other():
    allowed = set(sys.stdlib_module_names)
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative import inside the engine
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_django():
    code = "import sys, tournaments.engine; print(any(m.startswith('django') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parents[1], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
