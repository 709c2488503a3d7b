"""The German catalogue is complete: every entry of locale/de/LC_MESSAGES/django.po and djangojs.po has a
German text (no empty ``msgstr``, no ``fuzzy`` entry, which Django would not use), and the compiled .mo
files hold every translated entry (``manage.py compilemessages -l de`` was run)."""

from __future__ import annotations

import ast
import gettext
from dataclasses import dataclass, field
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale" / "de" / "LC_MESSAGES"
CATALOGUES = ["django.po", "djangojs.po"]


@dataclass
class Entry:
    """One catalogue entry: its flags (``#,`` line), msgctxt, msgid, msgid_plural and msgstr(s)."""

    flags: set[str] = field(default_factory=set)
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def msgid(self) -> str:
        return self.fields.get("msgid", "")

    def translations(self) -> list[str]:
        return [v for k, v in self.fields.items() if k == "msgstr" or k.startswith("msgstr[")]


def read_po(path: Path) -> list[Entry]:
    """The entries of a gettext .po file (obsolete ``#~`` entries left out; the header is the entry with
    an empty msgid)."""
    entries: list[Entry] = []
    current = Entry()
    key = None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if current.fields:
                entries.append(current)
            current, key = Entry(), None
        elif line.startswith("#,"):
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            current.fields[key] += ast.literal_eval(line)
        else:
            key, _, value = line.partition(" ")
            current.fields[key] = ast.literal_eval(value)
    return entries


def untranslated(path: Path) -> list[str]:
    """The msgids of ``path`` that a German user would see in English."""
    missing = []
    for entry in read_po(path):
        if not entry.msgid:
            continue
        if "fuzzy" in entry.flags:
            missing.append(f"fuzzy: {entry.msgid!r}")
        elif not entry.translations() or not all(entry.translations()):
            missing.append(repr(entry.msgid))
    return missing


@pytest.mark.parametrize("name", CATALOGUES)
def test_every_entry_has_a_german_text(name):
    missing = untranslated(LOCALE / name)
    assert not missing, f"{len(missing)} untranslated entries in {name}:\n" + "\n".join(missing)


@pytest.mark.parametrize("name", CATALOGUES)
def test_the_compiled_catalogue_holds_every_translation(name):
    mo = LOCALE / name.replace(".po", ".mo")
    assert mo.exists(), f"{mo.name} is missing: run manage.py compilemessages -l de"
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for entry in read_po(LOCALE / name):
        if not entry.msgid or "fuzzy" in entry.flags or not all(entry.translations() or [""]):
            continue
        if "msgid_plural" in entry.fields:
            found = compiled.ngettext(entry.msgid, entry.fields["msgid_plural"], 1)
        elif "msgctxt" in entry.fields:
            found = compiled.pgettext(entry.fields["msgctxt"], entry.msgid)
        else:
            found = compiled.gettext(entry.msgid)
        if found == entry.msgid and entry.translations()[0] != entry.msgid:
            stale.append(entry.msgid)
    assert not stale, f"{mo.name} lacks {len(stale)} translations (run manage.py compilemessages -l de): {stale[:5]}"
