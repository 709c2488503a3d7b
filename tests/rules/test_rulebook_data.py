"""The shipped rulebook files (rules/rulebooks/*.json) against the German seeds."""

import json
import re
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "rules" / "rulebooks"
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _book(slug):
    return json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8"))


def _norm(text):
    return re.sub(r"\s+", " ", text.replace("**", "")).strip()


def test_it_ships_the_five_rulebooks_with_their_seed_files():
    files = {_book(p.stem)["source_file"] for p in DATA.glob("*.json") if p.stem != "tda-2024"}
    assert files == {
        "000_2b5ab8aade69ac44.txt",
        "001_7d5aa5fee60e41d9.txt",
        "002_4395399a61500fa3.txt",
        "003_a92767c2b39617bc.txt",
        "004_703829b529d7b378.txt",
    }


def test_it_numbers_000_by_chapter_and_item():
    numbers = [r["number"] for r in _book("casino-cash")["rules"]]
    assert numbers[:2] == ["Allgemein 1", "Allgemein 2"]
    assert {"Allgemein 8", "Allgemein 15", "Einsätze 2", "Einsätze 4", "Aktionen 3", "Aktionen 10", "Strafen 4"} <= set(
        numbers
    )
    assert len(numbers) == 15 + 4 + 10 + 4


def test_it_numbers_001_with_numbered_and_named_sections():
    numbers = {r["number"] for r in _book("wynental")["rules"]}
    assert {f"6.{n}" for n in range(10, 38)} <= numbers
    assert {
        "Chip Race",
        "Balancing",
        "Neues Limit",
        "Tischauflösung",
        "Sitzverteilung",
        "Odd Chips",
        "Heads up",
    } <= numbers


def test_it_numbers_002_and_004_with_hash_numbers():
    assert [r["number"] for r in _book("betting-rules")["rules"]] == [f"#{n}" for n in range(1, 18)]
    assert [r["number"] for r in _book("munotpoker")["rules"]] == [f"#{n}" for n in range(1, 84)]


def test_it_names_003_sections_by_their_headings():
    numbers = [r["number"] for r in _book("nlhe")["rules"]]
    assert "Showdown Reihenfolge" in numbers and "Pot Teilung / Odd-Chips" in numbers and "All-In" in numbers
    assert len(numbers) == len(set(numbers))


@pytest.mark.parametrize("slug", ["casino-cash", "wynental", "betting-rules", "nlhe", "munotpoker"])
def test_it_keeps_the_german_text_verbatim(slug):
    book = _book(slug)
    seed = _norm((SEEDS / book["source_file"]).read_text(encoding="utf-8"))
    for rule in book["rules"]:
        assert rule["text_de"].strip(), rule["number"]
        for line in rule["text_de"].splitlines():
            assert _norm(line) in seed, (rule["number"], line)


@pytest.mark.parametrize("slug", ["casino-cash", "wynental", "betting-rules", "nlhe", "munotpoker"])
def test_every_rule_has_an_english_summary(slug):
    for rule in _book(slug)["rules"]:
        assert len(rule["summary_en"]) > 15, rule["number"]


def test_key_rules_carry_their_text():
    """Spot checks that the sectioning put each text under the right number."""
    by = {r["number"]: r["text_de"] for r in _book("munotpoker")["rules"]}
    assert "25 Sekunden + einen 5 Sekunden Countdown" in by["#29"]
    assert "Keine bisherige Bet (nur Blinds)" in by["#44"]
    assert "Ante first" in by["#82"]
    w = {r["number"]: r["text_de"] for r in _book("wynental")["rules"]}
    assert "dreissig Sekunden" in w["6.13"]
    assert "keinen Small Blind" in w["6.10"]
    c = {r["number"]: r["text_de"] for r in _book("casino-cash")["rules"]}
    assert "Blinds von 20/40" in c["Aktionen 4"]
    assert "Im Limit 2/5" in c["Allgemein 8"]


def test_re_extracting_the_seeds_reproduces_the_shipped_files(tmp_path):
    """The extractor is deterministic and keeps the hand-written summaries."""
    import shutil

    from rules.rulebooks.extract import extract

    for p in DATA.glob("*.json"):
        shutil.copy(p, tmp_path / p.name)
    extract(SEEDS, tmp_path)
    for p in DATA.glob("*.json"):
        assert json.loads((tmp_path / p.name).read_text()) == json.loads(p.read_text()), p.name
