"""The director operates the clock (start, pause, adjust, jump, hand-for-hand)."""

from __future__ import annotations

import time

from django.db import transaction
from django.utils.translation import gettext as _

from poker import tournament as eng
from tables.writepath import ServiceError
from tournaments.models import Tournament, TournamentTable
from tournaments.services.delta import changed
from tournaments.services.reading import clock_of, engine_rules, store_clock
from tournaments.services.writes import instruct, record_event, tournament_step


def _clock_refusal(engine_text: str, level: int | None) -> str:
    """The director's words for a refusal of the clock (``poker.tournament.ClockError``'s
    English developer text never reaches the page)."""
    known = {
        "the clock is already started": _("The clock is running already."),
        "the clock is not running": _("The clock is not running."),
        "the clock is not paused": _("The clock is not paused."),
        "in hand-for-hand the clock steps per hand; leave hand-for-hand first": _(
            "In hand-for-hand the clock steps by hands: end hand-for-hand first (004 #77)."
        ),
        "the clock is not started": _("The clock has not been started."),
        "already hand-for-hand": _("Hand-for-hand is on already."),
        "not hand-for-hand": _("Hand-for-hand is not on."),
        "no level left to play": _("No level left to play."),
    }
    if engine_text in known:
        return known[engine_text]
    if engine_text.startswith("no level") or engine_text.startswith("no period"):
        return _("Level: this structure has no level %(level)s.") % {"level": level}
    return _("The clock cannot do that now.")


def clock_action(tournament_id: int, op: str, *, seconds: int = 0, level: int | None = None, actor=None) -> Tournament:
    """Operate the clock: ``op`` is ``start``, ``pause``, ``resume``,
    ``adjust`` (``seconds``, +/-), ``jump`` (1-based ``level``),
    ``hand_for_hand`` (enter, 004 #77) or ``leave_hand_for_hand``.  The
    clock is stored as timestamps; a new level applies from the next hand
    (001 Neues Limit, 004 #23).  Errors: ``invalid`` (``ClockError``)."""
    with tournament_step(tournament_id, with_tables=False) as step:
        t = step.row
        clock, now = clock_of(t), time.time()
        try:
            if op == "start":
                clock = clock.start(now)
            elif op == "pause":
                clock = clock.pause(now)
            elif op == "resume":
                clock = clock.resume(now)
            elif op == "adjust":
                clock = clock.adjust(int(seconds), now)
            elif op == "jump":
                if level is None:
                    raise ServiceError("invalid", _("Level: enter the number of the level to jump to."))
                clock = clock.jump_to_level(int(level), now)
            elif op == "hand_for_hand":
                if t.rulebook != "munotpoker":
                    raise ServiceError("not_allowed", _("hand-for-hand is a rule of 004 (#77)"))
                if TournamentTable.objects.filter(tournament=t, broken=False).count() < 2:
                    raise ServiceError(
                        "not_allowed", _("hand-for-hand needs more than one table: the final table plays on (004 #77)")
                    )
                clock = clock.enter_hand_for_hand(now, t.seconds_per_hand)
                TournamentTable.objects.filter(tournament=t).update(h4h_hands=0)
                changed(whole=True)  # every table's hand-for-hand count
            elif op == "leave_hand_for_hand":
                clock = clock.leave_hand_for_hand(now)
            else:
                raise ServiceError("invalid", _("unknown clock operation %(op)s") % {"op": op})
        except (eng.ClockError, TypeError, ValueError) as exc:
            raise ServiceError("invalid", _clock_refusal(str(exc), level)) from None
        store_clock(t, clock)
        record_event(
            step,
            f"clock_{op}",
            {"seconds": seconds, "level": level, "at": now},
            actor,
            (
                "clock_started_at",
                "clock_paused_at",
                "clock_paused_total",
                "clock_offset",
                "hand_for_hand",
                "hands_played_h4h",
            ),
        )
        if op in ("hand_for_hand", "jump"):
            st = clock.state(now)
            if op == "hand_for_hand":
                instruct(
                    t,
                    "hand_for_hand",
                    "Hand-for-hand: finish the hand and wait for all tables (004 #77)",
                    "Hand für Hand: Hand beenden und auf alle Tische warten (004 #77)",
                    rule="004 #77",
                )
            elif st.level is not None:
                lv = st.level
                instruct(
                    t,
                    "level",
                    f"Level {st.level_number}: {lv.small_blind}/{lv.big_blind}"
                    f"{' ante ' + str(lv.ante) if lv.ante else ''} from the next hand",
                    f"Level {st.level_number}: {lv.small_blind}/{lv.big_blind}"
                    f"{' Ante ' + str(lv.ante) if lv.ante else ''} ab der nächsten Hand",
                    rule=str(engine_rules(t).cite("new_level")),
                )
        if op in _LEVEL_OPS:  # the tablets' headers and the floor tiles show the level now in force
            transaction.on_commit(lambda: push_level_to_tables(tournament_id), robust=True)
    return t


#: Clock operations that can change the level the next hand plays.
_LEVEL_OPS = frozenset({"start", "resume", "adjust", "jump", "leave_hand_for_hand"})


def push_level_to_tables(tournament_id: int, now: float | None = None) -> list[int]:
    """Show the level in force (the one the next hand plays, 001 Neues Limit,
    004 #23) at once on every open table of the tournament between hands: the
    table's stakes (tablet header, floor tile) follow it and its snapshot is
    sent, without waiting for the next hand.  A table playing a hand keeps the
    hand's stakes; its next hand takes the level as it starts.  Returns the
    ids of the tables changed.  ``now``: epoch seconds (default the server
    clock; the floor worker's look, ``pokerfloor.worker.push_due_levels``)."""
    from tables.models import Table
    from tables.services import commit_table_change, live_hand, lock_table
    from tables.writepath import write_step
    from tournaments.services.floor_tables import current_level, follow_level, stakes_of

    t = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).first()
    if t is None:
        return []
    level = current_level(t, now)
    changed = []
    for table_id in TournamentTable.objects.filter(tournament=t, broken=False).values_list("table_id", flat=True):
        with write_step(Table, table_id, lock=lock_table) as step:  # the table's lock, with the lock timeout
            table = step.row
            if live_hand(table) is None and follow_level(table, level):
                commit_table_change(table, tuple(stakes_of(level)))
                changed.append(table_id)
    return changed
