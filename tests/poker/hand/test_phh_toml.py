"""The fast PHH TOML reader gives what tomllib (with pokerkit's value parser) gives, or leaves the text to it."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from pokerkit.utilities import parse_value

from poker.hand import phh_toml

PHH_ROOT = Path(__file__).resolve().parents[3].parent / "shared" / "phh"


def _reference(text: str):
    return tomllib.loads(text, parse_float=parse_value)


PLAIN = [
    "variant = 'NT'\nantes = [0, 0]\nmin_bet = 2",
    'players = ["O\'Brien", \'Ann "A"\']\n',
    "starting_stacks = [40.60, 0.50, 1]\nfinishing_stacks = [-0.0, +3]\n",
    "ante_trimming_status = false\nx = true\n\n# a comment line\n  \t\n",
    "actions = ['d dh p1 AsKs', 'p1 cbr 600',]  # trailing comma, comment\n",
    "actions = []\nempty = ''\nhash = '# not a comment'\n",
    "a=1\nb-c_d = [ 'x' , \"y\" ]",
    "stacks = [+3, -0, 12 , ]\nnames = ['a','b' ,]\n",
    "city = 'Zürich\tOst'\n",
]

NOT_PLAIN = [
    # left to tomllib: its result or its error
    "actions = [\n  'p1 f',  # Ivey\n]\n",
    "[1]\nvariant = 'NT'\n",
    "x = 1_000\n",
    "x = 1e3\n",
    "x = 'a'\r\ny = 2\r\n",
    "date = 2019-07-01\n",
    's = "a\\tb"\n',
    "a.b = 1\n",
    "x = 1\nx = 2\n",
    "x = 007\n",
    "x = [,]\n",
    "x = 'a' y = 2\n",
    "x = 'unterminated\n",
    "x = inf\n",
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_text_is_read_by_the_fast_reader_as_tomllib_reads_it(text):
    assert phh_toml.loads_plain(text) is not None
    table = phh_toml.loads(text)
    assert table == _reference(text)
    assert [type(v) for v in table.values()] == [type(v) for v in _reference(text).values()]


def test_decimals_keep_their_places():
    table = phh_toml.loads("s = [40.60, 0.50]\n")
    assert table["s"] == [Decimal("40.60"), Decimal("0.50")]
    assert [v.as_tuple().exponent for v in table["s"]] == [-2, -2]


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_other_text_goes_to_tomllib_with_its_result_or_error(text):
    assert phh_toml.loads_plain(text) is None
    try:
        expected = _reference(text)
    except tomllib.TOMLDecodeError:
        with pytest.raises(tomllib.TOMLDecodeError):
            phh_toml.loads(text)
    else:
        assert phh_toml.loads(text) == expected


@pytest.mark.skipif(not PHH_ROOT.is_dir(), reason="no PHH corpus on this machine")
def test_every_corpus_file_reads_as_with_tomllib():
    files = sorted(PHH_ROOT.rglob("*.phh"))
    plain = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert phh_toml.loads(text) == _reference(text), path
        plain += phh_toml.loads_plain(text) is not None
    assert plain >= len(files) - 5  # nearly every file is read by the fast reader


@pytest.mark.skipif(not PHH_ROOT.is_dir(), reason="no PHH corpus on this machine")
def test_hand_history_is_the_one_pokerkit_builds():
    from pokerkit import HandHistory

    for path in sorted(PHH_ROOT.rglob("*.phh")):
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
