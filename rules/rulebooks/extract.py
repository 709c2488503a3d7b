"""Extract the five German rulebooks in ``../shared/seeds`` into JSON files.

Run once (and again only when a seed changes)::

    .venv/bin/python -m rules.rulebooks.extract [SEEDS_DIR]

For each rulebook this writes ``rules/rulebooks/<slug>.json``::

    {"slug": ..., "title": ..., "source_file": ..., "scope": ..., "preamble_de": ...,
     "rules": [{"number": ..., "chapter": ..., "title": ..., "text_de": ...,
                "summary_en": ...}, ...]}

The German text of each rule is copied verbatim from the seed (only the
Markdown emphasis ``**`` of 004 and the line breaks inside a rule are
normalised; the login boilerplate at the top of 000 and the signature line
at the end of 001 are not rules and are left out).  English summaries are
hand-written in the JSON files; re-running this script keeps every summary
whose rule number still exists, so the review work is never lost.

Uses only the standard library (no Django), so it can run anywhere.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SEEDS = HERE.parent.parent.parent / "shared" / "seeds"

BOOKS = [
    {
        "slug": "casino-cash",
        "file": "000_2b5ab8aade69ac44.txt",
        "title": "Cash Game Reglement",
        "scope": "cash",
    },
    {
        "slug": "wynental",
        "file": "001_7d5aa5fee60e41d9.txt",
        "title": "Allgemeine Turnierregeln (Kartenfreunde Wynental)",
        "scope": "tournament",
    },
    {
        "slug": "betting-rules",
        "file": "002_4395399a61500fa3.txt",
        "title": "Einsätze und Erhöhungen",
        "scope": "betting",
    },
    {
        "slug": "nlhe",
        "file": "003_a92767c2b39617bc.txt",
        "title": "Texas Hold'em No Limit (NLHE)",
        "scope": "nlhe",
    },
    {
        "slug": "munotpoker",
        "file": "004_703829b529d7b378.txt",
        "title": "Turnierregeln der MunotPoker GmbH",
        "scope": "tournament",
    },
]


def _clean(text: str) -> str:
    """Join the lines of one rule: strip each line, drop empty ones, keep bullets on their own line."""
    lines = [line.strip() for line in text.replace("**", "").splitlines()]
    return "\n".join(line for line in lines if line)


# --------------------------------------------------------------------------- 000
_000_CHAPTERS = {
    "Allgemeine Regeln": "Allgemein",
    "Einsätze": "Einsätze",
    "Aktionen": "Aktionen",
    "Strafen und Etiketten": "Strafen",
}
# Items whose title is not separated from the text by a dash.
_000_TITLES = {("Allgemein", "3"): "Sprache am Tisch", ("Allgemein", "6"): "Am Sitzplatz"}


def parse_000(text: str) -> tuple[str, list[dict]]:
    """Numbered items under four chapters; the number is "<chapter> <n>"."""
    rules: list[dict] = []
    chapter = None
    current: dict | None = None
    buf: list[str] = []

    def flush():
        if current is not None:
            current["text_de"] = _clean("\n".join(buf))
            rules.append(current)

    for line in text.splitlines():
        stripped = line.strip()
        if stripped in _000_CHAPTERS:
            flush()
            current, buf = None, []
            chapter = _000_CHAPTERS[stripped]
            continue
        if chapter is None:
            continue  # login boilerplate and the document title
        m = re.match(r"^  (\d+)\.\s+(.*)$", line)
        if m:
            flush()
            n, body = m.group(1), m.group(2)
            title = _000_TITLES.get((chapter, n))
            if title is None:
                title = re.split(r"\s+[–-]\s+", body, maxsplit=1)[0].strip()
            current = {"number": f"{chapter} {n}", "chapter": chapter, "title": title}
            buf = [body]
        elif current is not None:
            buf.append(line)
    flush()
    return "Cash Game Reglement", rules


# --------------------------------------------------------------------------- 001
# (marker as it appears in the text, number, title, chapter); markers are found in order.
_001_SECTIONS = [
    ("Kartendeck", "Kartendeck", "Kartendeck", "Vor dem Spiel"),
    ("Dealerbutton", "Dealerbutton", "Dealerbutton", "Vor dem Spiel"),
    ("Blinds\n", "Blinds", "Blinds", "Vor dem Spiel"),
    ("Ante\n", "Ante", "Ante", "Vor dem Spiel"),
    ("Dealer", "Dealer", "Dealer", "Weiteres"),
    ("Floorman", "Floorman", "Floorman", "Weiteres"),
    ("Spielablauf", "Spielablauf", "Spielablauf", "Spielablauf"),
    ("Rangfolge der Hände", "Rangfolge der Hände", "Rangfolge der Hände", "Rangfolge der Hände"),
    (
        "Weiterer Spielablauf und Ende des Turnieres",
        "Ende des Turniers",
        "Weiterer Spielablauf und Ende des Turnieres",
        "Weiterer Spielablauf",
    ),
    ("Re-buy/Add-on", "Re-buy/Add-on", "Re-buy/Add-on", "Spielregeln"),
    ("Chiprace\n", "Chip Race", "Chiprace", "Spielregeln"),
    ("Heads up\n", "Heads up", "Heads up", "Spielregeln"),
    ("Sitzverteilung\n", "Sitzverteilung", "Sitzverteilung", "Spielregeln"),
    ("Ausgleichen der Tische (Balancing)\n", "Balancing", "Ausgleichen der Tische (Balancing)", "Spielregeln"),
    ("Tischauflösung\n", "Tischauflösung", "Tischauflösung", "Spielregeln"),
    ("Neues Limit\n", "Neues Limit", "Neues Limit", "Spielregeln"),
    ("Side Pots\n", "Side Pots", "Side Pots", "Spielregeln"),
    ("Odd Chips\n", "Odd Chips", "Odd Chips", "Spielregeln"),
]
_001_CHAPTER_MARKERS = ("- Vor dem Spiel:", "- Weiteres", "- Spielregeln", "- ")


def parse_001(text: str) -> tuple[str, list[dict]]:
    """Named sections run together with their text, then numbered sections 6.10-6.37."""
    text = text.replace("Die Turnierleitung Kartenfreunde Wynental in Gränichen", "")
    markers: list[tuple[int, int, str, str, str]] = []
    pos = 0
    for marker, number, title, chapter in _001_SECTIONS:
        start = text.find(marker, pos)
        if start < 0:
            raise ValueError(f"001: section marker {marker!r} not found")
        markers.append((start, start + len(marker), number, title, chapter))
        pos = start + len(marker)
    for m in re.finditer(r"^(6\.\d+) (.+)$", text, flags=re.M):
        markers.append((m.start(), m.end(), m.group(1), m.group(2).strip(), "Spielregeln"))
    markers.sort()
    rules = []
    for i, (_, end, number, title, chapter) in enumerate(markers):
        stop = markers[i + 1][0] if i + 1 < len(markers) else len(text)
        body = text[end:stop]
        for cm in _001_CHAPTER_MARKERS:
            body = body.rstrip()
            if body.endswith(cm.rstrip()):
                body = body[: -len(cm.rstrip())]
        body = re.sub(r"\n- (Vor dem Spiel:|Weiteres|Spielregeln)?\s*$", "", body)
        body = re.sub(r"(^|\n)- ?(Weiteres|Spielregeln)?$", "", body.rstrip())
        rules.append({"number": number, "chapter": chapter, "title": title, "text_de": _clean(body).rstrip(" -")})
    return "Allgemeine Turnierregeln", rules


# --------------------------------------------------------------------------- 002
_002_TITLES = {
    1: "Check-Raise",
    2: "Anzahl der Erhöhungen",
    3: "Mindesteinsatz",
    4: "Mindesterhöhung",
    5: "Mündliche Ankündigung",
    6: "50%-Regel",
    7: "Klopfen",
    8: "Handeln außerhalb der Reihe",
    9: "Übergangener Spieler",
    10: "Gesetzte Chips sind verbindlich",
    11: "Einzelner höherer Chip",
    12: "Multiple Chips",
    13: "String-Bets",
    14: "Ungenügende Einsätze",
    15: "All-in with Hidden Chips",
    16: "Ein Beispiel",
    17: "Ausnahme",
}


def parse_002(text: str) -> tuple[str, list[dict]]:
    """Seventeen numbered items; the number is "#n" (titles are editorial except #12, #15-#17)."""
    rules = []
    for m in re.finditer(r"^  (\d+)\.\s+(.*?)(?=^  \d+\.|\Z)", text, flags=re.M | re.S):
        n = int(m.group(1))
        rules.append(
            {
                "number": f"#{n}",
                "chapter": "Einsätze und Erhöhungen",
                "title": _002_TITLES[n],
                "text_de": _clean(m.group(2)),
            }
        )
    return "Einsätze und Erhöhungen", rules


# --------------------------------------------------------------------------- 003
# (heading line, number, chapter). The document has no numbers: its headings are the section names.
_003_SECTIONS = [
    ("Hand Ranking (Absteigend)", "Hand Ranking", "Hand Ranking"),
    ("Grundregeln", "Grundregeln", "Grundregeln"),
    ("Pre-Flop", "Pre-Flop", "Grundregeln"),
    ("Flop", "Flop", "Grundregeln"),
    ("Turn", "Turn", "Grundregeln"),
    ("River", "River", "Grundregeln"),
    ("Allgemeine Regeln", "Table Stakes", "Table Stakes"),
    ("All-In", "All-In", "Table Stakes"),
    ("Die Kartenausgabe", "Die Kartenausgabe", "Der Spielablauf"),
    ("Die Setzrunden", "Die Setzrunden", "Der Spielablauf"),
    ("Der Showdown", "Der Showdown", "Der Spielablauf"),
    ("Einsätze und Annoncen", "Einsätze und Annoncen", "Der Spielablauf"),
    (
        "Ausserordentliche und ordentliche Handlungen der Spieler",
        "Ausserordentliche und ordentliche Handlungen der Spieler",
        "Der Spielablauf",
    ),
    ("Hole Cards", "Hole Cards", "Der Spielablauf"),
    ("Schutz der Hand des Spielers", "Schutz der Hand des Spielers", "Der Spielablauf"),
    ("Burn Cards", "Burn Cards", "Der Dealer"),
    ("Community Cards", "Community Cards", "Der Dealer"),
    ("Miss-Deal", "Miss-Deal", "Der Dealer"),
    ("Showdown Reihenfolge", "Showdown Reihenfolge", "Der Showdown"),
    ("Zeigen der beteiligten Hände", "Zeigen der beteiligten Hände", "Der Showdown"),
    ("Die Karten sprechen für sich", "Die Karten sprechen für sich", "Der Showdown"),
    ("Ermittlung der Gewinnerhand", "Ermittlung der Gewinnerhand", "Der Showdown"),
    ("Zuteilung des Pots", "Zuteilung des Pots", "Der Showdown"),
    ("Pot Teilung / Odd-Chips", "Pot Teilung / Odd-Chips", "Der Showdown"),
    ("Einwände", "Einwände", "Der Showdown"),
    ("Ausscheiden mehrerer Spieler", "Ausscheiden mehrerer Spieler", "Der Showdown"),
    ("Heads-Up", "Heads-Up", "Allgemeines"),
    ("Nicht gesetzter Blind", "Nicht gesetzter Blind", "Allgemeines"),
]
_003_CHAPTER_LINES = {"Table Stakes", "Der Spielablauf", "Der Dealer", "Der Showdown", "Allgemeines"}
_003_FINAL = "Bei Unklarheit obliegt"


def parse_003(text: str) -> tuple[str, list[dict]]:
    """Sections named by their headings; the closing paragraphs become "Auslegung"."""
    lines = text.splitlines()
    rules: list[dict] = []
    wanted = list(_003_SECTIONS)
    current: dict | None = None
    buf: list[str] = []
    seen_showdown_section = False

    def flush():
        if current is not None:
            current["text_de"] = _clean("\n".join(buf))
            rules.append(current)

    for line in lines[1:]:
        stripped = line.strip()
        if wanted and stripped == wanted[0][0]:
            heading, number, chapter = wanted.pop(0)
            if number == "Der Showdown":
                seen_showdown_section = True
            flush()
            current, buf = {"number": number, "chapter": chapter, "title": heading}, []
            continue
        if stripped in _003_CHAPTER_LINES and (stripped != "Der Showdown" or seen_showdown_section):
            continue
        if stripped.startswith(_003_FINAL):
            flush()
            current, buf = {"number": "Auslegung", "chapter": "Allgemeines", "title": "Auslegung der Regeln"}, []
        buf.append(line)
    flush()
    return "Texas Hold'em No Limit (NLHE)", rules


# --------------------------------------------------------------------------- 004
_004_HEAD = re.compile(r"^#{0,4}\s*\**\s*(\d+):\s*(.+?)\**\s*$")
_004_INLINE = re.compile(r"^\*\*(\d+):\s*(.+?)\*\*\s+(.*)$")
_004_CHAPTER = re.compile(r"^#{2,4}\s*(?:\*\*)?([^\d*#][^*]*?)(?:\*\*)?\s*$")
# Headings whose quotes were cut off in the source (title only; the text stays verbatim).
_004_TITLES = {
    "#12": "„card speaks“",
    "#29": "„Time“ rufen",
    "#54": "„Pot“ bei Pot-Limit und No-Limit",
    "#83": "„show one show all“",
}


def parse_004(text: str) -> tuple[str, list[dict]]:
    """Rules "#1".."#83" under Markdown chapter headings; the bold intro is the preamble."""
    rules: list[dict] = []
    chapter = ""
    current: dict | None = None
    buf: list[str] = []
    preamble: list[str] = []

    def flush():
        if current is not None:
            current["text_de"] = _clean("\n".join(buf))
            rules.append(current)

    for line in text.splitlines():
        stripped = line.strip()
        inline = _004_INLINE.match(stripped)
        head = _004_HEAD.match(stripped) if stripped.startswith("#") else None
        chap = _004_CHAPTER.match(stripped)
        if chap and chap.group(1).startswith("Beispiel"):
            chap = None  # a bold example line inside rule #62, not a chapter
        if inline:
            flush()
            current = {
                "number": f"#{inline.group(1)}",
                "chapter": chapter,
                "title": inline.group(2).strip().strip('„“"'),
            }
            buf = [inline.group(3)]
        elif head:
            flush()
            current = {
                "number": f"#{head.group(1)}",
                "chapter": chapter,
                "title": head.group(2).replace("**", "").strip().strip('„“"'),
            }
            buf = []
        elif chap:
            flush()
            current, buf = None, []
            chapter = chap.group(1).strip()
        elif current is None:
            preamble.append(line)
        elif stripped.startswith("###"):
            buf.append(stripped.lstrip("#").strip())
        else:
            buf.append(line)
    flush()
    for rule in rules:
        rule["title"] = _004_TITLES.get(rule["number"], rule["title"])
    return _clean("\n".join(preamble)), rules


PARSERS = {
    "casino-cash": parse_000,
    "wynental": parse_001,
    "betting-rules": parse_002,
    "nlhe": parse_003,
    "munotpoker": parse_004,
}


def extract(seeds: Path = DEFAULT_SEEDS, out_dir: Path = HERE) -> list[Path]:
    """Parse every seed and write its JSON file, keeping existing English summaries.

    Returns the paths written. Raises ValueError when a seed does not have the
    expected structure (a heading is missing, or a rule number repeats).
    """
    written = []
    for book in BOOKS:
        text = (seeds / book["file"]).read_text(encoding="utf-8")
        preamble, rules = PARSERS[book["slug"]](text)
        numbers = [r["number"] for r in rules]
        if len(numbers) != len(set(numbers)):
            raise ValueError(f"{book['file']}: duplicate rule numbers")
        path = out_dir / f"{book['slug']}.json"
        old: dict[str, dict] = {}
        if path.exists():
            old = {r["number"]: r for r in json.loads(path.read_text())["rules"]}
        for rule in rules:
            rule["summary_en"] = old.get(rule["number"], {}).get("summary_en", "")
            if old.get(rule["number"], {}).get("summary_de"):
                rule["summary_de"] = old[rule["number"]]["summary_de"]
        data = {
            "slug": book["slug"],
            "title": book["title"],
            "source_file": book["file"],
            "scope": book["scope"],
            "preamble_de": preamble if book["slug"] == "munotpoker" else "",
            "rules": rules,
        }
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in extract(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SEEDS):
        print(p)
