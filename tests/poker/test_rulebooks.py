"""One citation type and one map of rulebooks (poker/rulebooks.py)."""

import json

import pytest

from poker.rulebooks import RULEBOOKS, TDA, Citation, cite, rulebook


@pytest.mark.parametrize(
    "label,slug,section",
    [
        ("004 #44", "munotpoker", "#44"),
        ("000 Aktionen 4", "casino-cash", "Aktionen 4"),
        ("001 6.10", "wynental", "6.10"),
        ("002 #8", "betting-rules", "#8"),
        ("003 Showdown Reihenfolge", "nlhe", "Showdown Reihenfolge"),
        ("TDA 2024 Rule 44", TDA, "TDA 2024 Rule 44"),
        ("house payout structure", "house", "payout structure"),
    ],
)
def test_a_citation_is_written_as_its_label(label, slug, section):
    c = cite(label)
    assert c == Citation(slug, section) == Citation.parse(label)
    assert c.label == str(c) == label
    assert c.to_dict() == {"rulebook": slug, "section": section, "label": label}


def test_unknown_labels_are_refused():
    for bad in ("", "005 #1", "004", "munotpoker #44"):
        with pytest.raises(ValueError):
            cite(bad)


def test_one_written_form():
    """The tournament form ("004", "11") / "004 11" is gone: every citation is its label."""
    import poker.rulebooks as rb

    assert not hasattr(rb, "LegacyCitation") and not hasattr(Citation, "legacy")
    assert str(cite("004 #11")) == "004 #11" and json.dumps(cite("004 #11").to_dict())


def test_one_map_of_slugs_prefixes_and_seed_files():
    assert [b.prefix for b in RULEBOOKS.values() if b.seed] == ["000", "001", "002", "003", "004"]
    for b in RULEBOOKS.values():
        if b.seed:
            assert b.seed.startswith(b.prefix + "_")
            assert rulebook(b.prefix) is b and rulebook(b.seed) is b and rulebook(b.seed.split(".")[0]) is b
    assert rulebook("munot").slug == "munotpoker" and rulebook("TDA").slug == TDA
    with pytest.raises(KeyError):
        rulebook("wsop")
