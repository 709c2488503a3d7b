"""Seat draw (001 Sitzverteilung, 004 #7) and late entrants (004 #8)."""

import random

import pytest

from poker.rulebooks import cite
from poker.tournament.model import validate_tables
from poker.tournament.rules import MUNOT, WYNENTAL, UnsupportedByRulebook
from poker.tournament.seating import draw_seats, seat_late_entrant, table_sizes

from .helpers import all_players, spread, table


def test_table_sizes_wsop_day():
    sizes = table_sizes(10_000, 9)
    assert len(sizes) == 1112 and sum(sizes) == 10_000 and set(sizes) == {8, 9}


def test_wynental_sitzverteilung_seat_cards_drawn_at_random():
    """001 Sitzverteilung: each player draws a card with table and seat number;
    001 Dealerbutton: the first button is drawn."""
    players = [f"p{i}" for i in range(23)]
    draw = draw_seats(players, WYNENTAL, random.Random(7))
    assert draw.rules == (cite("001 Sitzverteilung"), cite("001 Dealerbutton"))
    assert [c.player for c in draw.cards] == players
    assert len(draw.tables) == 3 and spread(draw.tables) <= 1
    validate_tables(draw.tables)
    assert draw == draw_seats(players, WYNENTAL, random.Random(7))  # injectable rng: reproducible
    assert draw.cards != draw_seats(players, WYNENTAL, random.Random(8)).cards
    for t in draw.tables:
        assert t.positions.button in t.seats


def test_munot_7_random_seats_and_75_button_on_seat_one():
    """004 #7 random seating; 004 #75 the button starts on seat 1, which the
    draw never leaves empty (004 #32: no dead button)."""
    draw = draw_seats(list(range(40)), MUNOT, random.Random(3))
    assert draw.rules == (cite("004 #7"), cite("004 #75"))
    assert len(draw.tables) == 5
    for t in draw.tables:
        assert 1 in t.seats and t.positions.button == 1


def test_munot_8_late_entrant_dealt_in_unless_between_small_blind_and_button():
    """004 #8: "erhält sofort Karten ausser er steigt zwischen Small Blind und Button ein"."""
    # Last hand: button 1, SB 3, BB 5.  Next hand: button 3, SB 5, BB 6.
    # Free seats 2, 4, 9: seat 4 lies between the next button (3) and SB (5).
    t = table(1, [1, 3, 5, 6, 7, 8], button=1, sb=3, bb=5)
    other = table(2, [1, 2, 3, 4, 5, 6, 7, 8, 9])
    outcomes = {}
    for seed in range(60):
        late = seat_late_entrant("new", [t, other], MUNOT, random.Random(seed))
        assert late.table == 1 and late.rule == cite("004 #8")
        outcomes[late.seat] = (late.dealt_in, late.waits_for_button)
    assert outcomes == {2: (True, False), 4: (False, True), 9: (True, False)}


def test_late_entrant_errors():
    full = table(1, range(1, 10))
    with pytest.raises(ValueError):
        seat_late_entrant("x", [full], MUNOT, random.Random(1))
    with pytest.raises(ValueError):
        seat_late_entrant("T1s1", [table(1, [1, 2])], MUNOT, random.Random(1))
    with pytest.raises(UnsupportedByRulebook):
        seat_late_entrant("x", [table(1, [1, 2])], WYNENTAL, random.Random(1))


@pytest.mark.parametrize("rules", [WYNENTAL, MUNOT], ids=["wynental", "munot"])
def test_property_every_player_seated_exactly_once(rules):
    rng = random.Random(11)
    for _ in range(150):
        n = rng.randint(2, 250)
        r = rules.with_(max_seats=rng.randint(2, 10))
        players = list(range(n))
        draw = draw_seats(players, r, rng)
        validate_tables(draw.tables)  # no seat double-booked, no player twice
        assert sorted(all_players(draw.tables)) == players
        assert len({(c.table, c.seat) for c in draw.cards}) == n
        assert spread(draw.tables) <= 1
        assert len(draw.tables) == -(-n // r.max_seats)
    with pytest.raises(ValueError):
        draw_seats([1, 1, 2], rules, rng)
