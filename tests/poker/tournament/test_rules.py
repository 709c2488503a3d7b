"""The two rule profiles carry their parameters and citations."""

import pytest

from poker.rulebooks import cite
from poker.tournament.rules import MUNOT, WYNENTAL, Citation, UnsupportedByRulebook, rules_for


def test_profiles_cite_their_rulebooks():
    assert WYNENTAL.cite("balancing") == cite("001 Balancing")
    assert MUNOT.cite("balancing") == cite("004 #11")
    assert MUNOT.cite("final_table") == cite("004 #78")
    assert MUNOT.citations["final_table"] == cite("004 #78")


def test_results_carry_the_one_written_form():
    """A procedure's citation is written "004 #10" like every other citation (no "004 10")."""
    assert str(MUNOT.cite("breaking")) == "004 #10" and MUNOT.cite("breaking") == cite("004 #10")
    assert str(MUNOT.cite("balancing")) == "004 #11"
    assert str(WYNENTAL.cite("dead_button")) == "001 6.10"
    assert isinstance(MUNOT.cite("balancing"), Citation)


def test_rules_for_accepts_slug_prefix_and_old_spelling():
    assert rules_for("munotpoker") is MUNOT and rules_for("munot") is MUNOT and rules_for("004") is MUNOT
    assert MUNOT.rulebook == "munotpoker"


def test_parameters_read_from_the_texts():
    # 001 Balancing: stop at 5 free seats, final table of 10; 004 #78: nine.
    assert WYNENTAL.stop_at_free_seats == 5 and WYNENTAL.final_table_size == 10
    assert MUNOT.final_table_size == 9 and MUNOT.registration_break_excess == 2
    # 001 Chiprace: Kreuz, Pik, Herz, Karo -- clubs highest.
    assert WYNENTAL.chip_race_suit_order == "cshd"
    assert WYNENTAL.button_mode == "dead_button" and MUNOT.button_mode == "moving_button"


def test_missing_rule_raises_and_room_settings_override():
    with pytest.raises(UnsupportedByRulebook):
        WYNENTAL.cite("late_entry")
    nine = rules_for("wynental", max_seats=9)
    assert nine.max_seats == 9 and nine.final_table_seats == 10 and WYNENTAL.max_seats == 10
    with pytest.raises(KeyError):
        rules_for("tda")


def test_every_result_names_the_rule_it_applied():
    """Each procedure's result carries a (file, section) citation of its rulebook."""
    import random

    from poker.tournament import (
        Bust,
        ChipRaceEntry,
        Clock,
        Level,
        Structure,
        chip_race,
        draw_seats,
        level_for_hand,
        next_positions,
        place_busts,
        plan_balancing,
        plan_breaks,
    )

    for rules, book in ((WYNENTAL.with_(max_seats=9), "001"), (MUNOT, "004")):
        rng = random.Random(1)
        draw = draw_seats(list(range(30)), rules, rng)
        tables = list(draw.tables)
        cited = [*draw.rules, *plan_breaks(tables, rules, rng).rules, plan_balancing(tables, rules, rng).rule]
        t = tables[0]
        cited += next_positions(t.positions, t.seats, rules).rules
        cited.append(level_for_hand(Clock(Structure((Level(1, 2, 60),))).start(0), 1, rules).rule)
        race = chip_race([ChipRaceEntry("a", 1, 25, 1), ChipRaceEntry("b", 2, 50, 2)], 25, 100, rules, rng=rng)
        cited.append(race.rule)
        cited += [f.rule for f in place_busts([Bust("a", 1)], 5, rules).finishes]
        assert all(isinstance(c, Citation) and str(c).split()[0] in (book, "003") for c in cited), cited


def test_citations_resolve_in_the_shipped_rulebooks():
    """Every citation of both profiles names a rule of ``rules/rulebooks/*.json``
    (skipped while that data is not in the checkout)."""
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parents[3] / "rules" / "rulebooks"
    if not (folder / "wynental.json").exists():
        pytest.skip("rules/rulebooks not present")
    numbers = {}
    for path in folder.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data.get("rules", []) if isinstance(data, dict) else data
        numbers[path.stem] = {str(r.get("number")) for r in items if isinstance(r, dict)}
    for profile in (WYNENTAL, MUNOT):
        for citation in profile.citations.values():
            assert citation.section in numbers.get(citation.rulebook, set()), citation
