"""Clock: timestamps, pause/resume/adjust/jump, breaks, color-ups, late
registration, hand-for-hand (004 #77), new level from the next hand
(001 Neues Limit, 004 #23), big blind ante (004 #81)."""

import pytest

from poker.rulebooks import cite
from poker.tournament.clock import Break, Clock, ClockError, Level, Structure, level_for_hand, validate_structure
from poker.tournament.rules import MUNOT, WYNENTAL

T0 = 1_700_000_000.0


def structure():
    return Structure(
        (
            Level(100, 200, 1200),
            Level(200, 400, 1200, ante=400, ante_kind="big_blind_ante"),
            Break(600, color_up=(100,)),
            Level(300, 600, 1200, ante=600, ante_kind="big_blind_ante"),
        ),
        late_registration_until=2,
    )


def test_state_is_computed_from_timestamps():
    clock = Clock(structure()).start(T0)
    st = clock.state(T0 + 100)
    assert (st.period_index, st.level_number, st.seconds_left) == (0, 1, 1100)
    assert st.level.big_blind == 200 and st.next_level.big_blind == 400 and st.seconds_to_next_level == 1100
    assert st.running and not st.on_break and st.late_registration_open
    st = clock.state(T0 + 2500)
    assert st.on_break and st.level_number is None and st.color_up == (100,)
    assert st.level.big_blind == 600 and st.seconds_left == 500
    st = clock.state(T0 + 10_000)
    assert st.finished and st.period_index == 3 and st.seconds_left == 0
    assert not st.late_registration_open


def test_unstarted_clock_shows_first_level_full():
    st = Clock(structure()).state(T0)
    assert st.period_index == 0 and st.seconds_left == 1200 and not st.running


def test_pause_resume_adjust_jump_never_drift():
    clock = Clock(structure()).start(T0).pause(T0 + 100)
    assert clock.state(T0 + 5000).seconds_left == 1100  # paused: frozen
    clock = clock.resume(T0 + 400)
    assert clock.state(T0 + 500).seconds_left == 1000
    clock = clock.adjust(60, T0 + 500)
    assert clock.state(T0 + 500).seconds_left == 1060
    clock = clock.adjust(10_000, T0 + 500)  # capped to the full level
    assert clock.state(T0 + 500).seconds_left == 1200 and clock.state(T0 + 500).period_index == 0
    clock = clock.adjust(-2000, T0 + 500)  # ends the level: level 2 starts now
    st = clock.state(T0 + 500)
    assert st.level_number == 2 and st.seconds_left == 1200
    clock = clock.jump_to_level(3, T0 + 600)
    assert clock.state(T0 + 600).level_number == 3 and clock.state(T0 + 600).seconds_left == 1200
    clock = clock.jump_to(0, T0 + 700)
    assert clock.state(T0 + 710).seconds_left == 1190
    with pytest.raises(ClockError):
        clock.resume(T0)
    with pytest.raises(ClockError):
        clock.start(T0)
    with pytest.raises(ClockError):
        clock.jump_to_level(9, T0)


def test_many_pauses_sum_exactly():
    clock = Clock(structure()).start(T0)
    t = T0
    for _ in range(50):
        clock = clock.pause(t + 10).resume(t + 13)
        t += 13
    # 50 x 10 s running, 50 x 3 s paused
    assert clock.state(t).elapsed == 500


def test_wynental_neues_limit_new_level_applies_from_next_hand():
    """001 Neues Limit: the new limit "gilt ab der nächsten Hand"; a hand
    counts from its first shuffle."""
    clock = Clock(structure()).start(T0)
    before = level_for_hand(clock, T0 + 1199, WYNENTAL)  # shuffled one second before the level ends
    after = level_for_hand(clock, T0 + 1201, WYNENTAL)
    assert before.level.big_blind == 200 and before.level_number == 1
    assert after.level.big_blind == 400 and after.rule == cite("001 Neues Limit")


def test_munot_23_hand_started_on_a_break_plays_the_next_level():
    """004 #23: a hand starts at the first riffle; it plays the level of that moment."""
    clock = Clock(structure()).start(T0)
    hl = level_for_hand(clock, T0 + 2450, MUNOT)
    assert hl.level_number == 3 and hl.period_index == 3 and hl.rule == cite("004 #23")


def test_munot_77_hand_for_hand_clock_steps_per_hand():
    """004 #77: hand-for-hand at the bubble; the clock advances per completed hand."""
    clock = Clock(structure()).start(T0).enter_hand_for_hand(T0 + 100, seconds_per_hand=90)
    assert clock.state(T0 + 900).seconds_left == 1100 and clock.state(T0 + 900).hand_for_hand
    clock = clock.hand_completed().hand_completed()
    assert clock.state(T0 + 2000).seconds_left == 1100 - 180 and clock.hands_played == 2
    with pytest.raises(ClockError):
        clock.resume(T0 + 2000)
    clock = clock.leave_hand_for_hand(T0 + 2000)
    assert clock.state(T0 + 2010).seconds_left == 1100 - 180 - 10
    with pytest.raises(ClockError):
        clock.hand_completed()


def test_munot_81_big_blind_ante_equals_a_blind():
    """004 #81: the big blind ante equals the small or the big blind."""
    assert validate_structure(structure(), MUNOT) == [cite("004 #81")]
    bad = Structure((Level(100, 200, 600, ante=25, ante_kind="ante"),))
    with pytest.raises(ValueError):
        validate_structure(bad, MUNOT)
    assert validate_structure(bad, WYNENTAL) == []


def test_levels_reject_bad_values():
    with pytest.raises(ValueError):
        Level(200, 100, 600)
    with pytest.raises(ValueError):
        Level(100, 200, 600, ante=50)
    with pytest.raises(ValueError):
        Level(100.0, 200, 600)
    with pytest.raises(ValueError):
        Structure((Break(300), Level(100, 200, 600)))


def test_stored_fields_rebuild_the_same_clock():
    import json

    clock = Clock(structure()).start(T0).pause(T0 + 50).resume(T0 + 80).adjust(-30, T0 + 90)
    rebuilt = Clock(structure(), **json.loads(json.dumps(clock.stored_fields())))
    assert rebuilt == clock and rebuilt.state(T0 + 500) == clock.state(T0 + 500)
