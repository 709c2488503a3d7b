"""The pure core's texts go through the gettext catalogue (poker/i18n.py): every msgid
marked with ``_N``/``_NC`` under poker/ has its German in locale/de/LC_MESSAGES/django.mo."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from poker.floor.procedures import clock_policy, get_procedure, suggest_rulings
from poker.houserules import get_profile
from poker.i18n import _N, catalogue, translate

POKER = Path(__file__).resolve().parents[2] / "poker"
PLACEHOLDER = re.compile(r"%\((\w+)\)")


def _marked() -> list[tuple[str, int, str | None, str]]:
    """``(file, line, context, msgid)`` of every ``_N(...)``/``_NC(...)`` call under poker/."""
    found = []
    for path in sorted(POKER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_N", "_NC")):
                continue
            where = f"{path.relative_to(POKER.parent)}:{node.lineno}"
            args = node.args
            literal = all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args)
            if path.name == "i18n.py" and not literal:
                continue  # the markers' own definitions and docstrings
            assert literal, f"{where}: a marked msgid must be a string literal, or makemessages cannot extract it"
            context = args[0].value if node.func.id == "_NC" else None
            found.append((where, node.lineno, context, args[-1].value))
    return found


MARKED = _marked()


def test_the_core_marks_its_texts():
    assert len(MARKED) > 150


@pytest.mark.parametrize("where,line,context,msgid", MARKED, ids=[m[0] for m in MARKED])
def test_every_marked_msgid_has_its_german(where, line, context, msgid):
    de = catalogue("de")
    german = de.pgettext(context, msgid) if context else de.gettext(msgid)
    assert german != msgid, f"{where}: no German for {msgid!r}"
    # the German fills the same placeholders as the English
    assert set(PLACEHOLDER.findall(german)) == set(PLACEHOLDER.findall(msgid)), where
    params = {name: "X" for name in PLACEHOLDER.findall(msgid)}
    assert "%(" not in translate(msgid, "de", context, **params)


def test_translate_falls_back_to_the_english_msgid():
    assert _N("Nothing like this is in the catalogue") == "Nothing like this is in the catalogue"
    assert translate("Nothing like this is in the catalogue", "de") == "Nothing like this is in the catalogue"
    assert translate("Seat %(seat)s's hand is dead", "fr", seat=3) == "Seat 3's hand is dead"
    assert translate("Seat %(seat)s's hand is dead", "en", seat=3) == "Seat 3's hand is dead"


def test_german_and_english_come_from_one_msgid():
    munot = get_profile("munotpoker")
    policy = clock_policy(munot)
    assert policy.explanation_en == 'After "time" the player has 25 seconds plus a 5-second countdown (30 s in all).'
    assert (
        policy.explanation_de == "Nach „Time“ hat der Spieler 25 Sekunden plus 5 Sekunden Countdown (30 s insgesamt)."
    )
    proc = get_procedure(munot, "misdeal").to_dict()
    assert (proc["title_en"], proc["title_de"]) == ("Misdeal", "Miss-Deal")


def test_a_rulebook_can_word_one_english_text_its_own_way():
    call = {"reason": "exposed_card", "exposed_by": "player", "seat": 4, "events": []}
    (kill,) = [s for s in suggest_rulings(get_profile("casino-cash"), call) if s.key == "kill"]
    assert (kill.title_en, kill.title_de) == ("Seat 4's hand is dead", "Die Hand von Platz 4 ist ungültig")
