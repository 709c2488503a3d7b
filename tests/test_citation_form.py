"""One citation form: a numbered rule of 002 and 004 is written "004 #77" everywhere
(issue 25), so ``grep "004 #77"`` finds every place that applies rule 77."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("poker", "tables", "rules", "room", "tournaments", "pokerfloor")
OLD_FORM = re.compile(r"(?<![\w#.])(00[24]) (\d+)\b(?!\.\d)")


def old_form_literals(root: Path) -> list[str]:
    """``path:line: text`` of every string literal under ``root`` that cites a numbered rule
    without its ``#`` (``"004 77"``); migrations aside."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and OLD_FORM.search(node.value):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {OLD_FORM.search(node.value).group(0)}")
    return found


def test_the_checker_finds_the_old_form(tmp_path):
    (tmp_path / "a.py").write_text('RULE = "004 77"\nOK = "004 #77"\nALSO = "001 6.10"\n')
    assert old_form_literals(tmp_path) == ["a.py:1: 004 77"]


def test_every_numbered_citation_carries_its_hash():
    found = [hit for package in PACKAGES for hit in old_form_literals(ROOT / package)]
    assert found == [], "write the citation as '004 #77':\n" + "\n".join(found)
