"""Floor value types: validation and applying plans."""

import pytest

from poker.rulebooks import cite
from poker.tournament.model import Move, apply_moves, validate_tables

from .helpers import table

RULE = cite("004 #11")


def test_apply_moves_checks_every_move():
    floor = [table(1, [1, 2, 3]), table(2, [1, 2])]
    after = apply_moves(floor, [Move("T1s3", 1, 3, 2, 5, RULE)])
    assert after[1].seats[5] == "T1s3" and 3 not in after[0].seats and floor[0].seats[3] == "T1s3"
    with pytest.raises(ValueError):
        apply_moves(floor, [Move("T1s3", 1, 2, 2, 5, RULE)])  # not his seat
    with pytest.raises(ValueError):
        apply_moves(floor, [Move("T1s3", 1, 3, 2, 1, RULE)])  # seat taken
    with pytest.raises(ValueError):
        apply_moves(floor, [], broken=[2])  # broken table still seated
    with pytest.raises(ValueError):
        apply_moves(floor, [Move("T1s3", 1, 3, 9, 1, RULE)])  # no such table


def test_validate_tables_finds_double_bookings():
    validate_tables([table(1, [1, 2]), table(2, [1, 2])])
    with pytest.raises(ValueError):
        validate_tables([table(1, [1, 2]), table(2, [1], prefix="T1")])  # same player twice
    with pytest.raises(ValueError):
        validate_tables([table(1, [1, 10])])  # seat outside 1..9
    with pytest.raises(ValueError):
        validate_tables([table(1, [1]), table(1, [2])])
