"""Reading PHH texts: the tables and HandHistory objects pokerkit reads, decimals exact, errors as EngineError."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from poker.hand import phh_toml

PHH_ROOT = Path(__file__).resolve().parents[3].parent / "shared" / "phh"


def test_decimals_keep_their_places():
    table = phh_toml.loads("s = [40.60, 0.50]\n")
    assert table["s"] == [Decimal("40.60"), Decimal("0.50")]
    assert [v.as_tuple().exponent for v in table["s"]] == [-2, -2]


def test_hand_history_is_the_one_pokerkit_builds():
    from pokerkit import HandHistory

    paths = sorted(PHH_ROOT.rglob("*.phh"))
    assert paths, f"no PHH corpus at {PHH_ROOT}"
    for path in paths:
        text = path.read_text(encoding="utf-8")
        [(_, ours)] = phh_toml.histories(text, several=False)
        theirs = HandHistory.loads(text)
        assert type(ours) is HandHistory and ours.__dict__ == theirs.__dict__, path


def test_a_missing_field_or_an_unknown_one_is_reported_as_pokerkit_does():
    [(_, error)] = phh_toml.histories("variant = 'NT'\nantes = [0, 0]\nstarting_stacks = [1, 2]\n", several=False)
    assert error.code == "bad_spec" and "'actions' is missing" in error.message
    text = "variant = 'NT'\nantes = [0, 0]\nstarting_stacks = [1, 2]\nactions = []\nmin_bet = 2\nodd = 1\n"
    with pytest.warns(UserWarning, match="'odd' is an unexpected field"):
        [(_, history)] = phh_toml.histories(text, several=False)
    assert history.user_defined_fields == {"odd": 1}
