"""The modules of poker/hand import each other one way: no cycle, no import
inside a function (a lazy import hides a cycle), no module over 800 lines."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "poker" / "hand"
MAX_LINES = 800


def _module(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """Modules an import statement in ``module`` loads (absolute names)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        parts = module.split(".")
        base = parts if is_package else parts[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    # "from . import formats" imports the module poker.hand.formats
    return [prefix] + [f"{prefix}.{a.name}" for a in node.names]


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    nested: list[str] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges = graph.setdefault(name, set())
        parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            up = parents.get(node)
            while up is not None:
                if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    nested.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                    break
                up = parents.get(up)
            edges.update(m for m in _imported(node, name, path.name == "__init__.py") if m in modules and m != name)
    return graph, nested


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle as a list of modules, or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_no_import_inside_a_function():
    assert _graph()[1] == []


def test_the_import_graph_has_no_cycle():
    graph, _ = _graph()
    assert "poker.hand.state" in graph and "poker.hand.formats" in graph["poker.hand.dealing"]
    assert _cycle(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_no_module_is_over_the_line_limit():
    long = {
        p.name: n for p in PACKAGE.rglob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_formats_reads_no_private_field_of_the_state():
    text = (PACKAGE / "formats.py").read_text(encoding="utf-8")
    assert "state._" not in text and "from .state" not in text
