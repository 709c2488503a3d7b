"""Chip counts: the director enters a table's counted stacks (at the end of a
level, at a break, for the final table), and the figures read from the
stacks: the chip-count leaderboard, average and median stack in big blinds,
and the chips in play checked against what was bought.

Chips are ints.  The chips that should be in play are
``starting_stack x (entries + rebuys + add-ons)`` -- a rebuy and an add-on
are a full starting stack each (``tournaments.services.registration.rebuy``)
-- less the stacks of surrendered entries, which leave play (004 #74), plus
the chips a color-up or the desk added or removed on purpose.
"""

from __future__ import annotations

import time
from statistics import median
from typing import Any

from django.utils.translation import gettext as _

from tables.models import Hand, Seat
from tables.services import SeatChange
from tables.writepath import ServiceError
from tournaments.models import ChipCount, ChipRaceRecord, Entry, Tournament, TournamentEvent, TournamentTable
from tournaments.services.reading import add_on_chips, clock_of, engine_rules, rebuy_chips
from tournaments.services.writes import record_event, set_seats, tournament_step

MOMENTS = ("level_end", "break", "final_table")
"""When a count is taken: at the end of a level, at a break, at the final table."""


def record_chip_counts(
    tournament_id: int, table_number: int, counts: dict[int, int], *, moment: str = "level_end", actor=None
) -> ChipCount:
    """Enter the counted stacks of table ``table_number``: ``counts`` maps
    every occupied seat to its chips (int >= 0).  The seats' stacks become
    the counts and a :class:`ChipCount` is recorded.  Only between hands (a
    live hand's stacks are the dealer's).  Errors: ``not_found``,
    ``invalid`` (unknown moment, a seat missing, an empty seat counted, a
    negative count), ``hand_in_progress``; nothing changes."""
    if moment not in MOMENTS:
        raise ServiceError("invalid", _("unknown moment of a chip count: %(moment)s") % {"moment": moment})
    with tournament_step(tournament_id) as step:
        t = step.row
        tt = TournamentTable.objects.filter(tournament=t, number=table_number, broken=False).first()
        if tt is None:
            raise ServiceError("not_found", _("no table %(n)s in play") % {"n": table_number})
        if Hand.objects.filter(pk=tt.table.current_hand_id or 0, status=Hand.Status.LIVE).exists():
            raise ServiceError(
                "hand_in_progress", _("Table %(n)s is playing a hand: count after it.") % {"n": table_number}
            )
        seated = dict(
            Seat.objects.filter(table_id=tt.table_id, player__isnull=False).values_list("number", "player_id")
        )
        given = {int(k): v for k, v in counts.items()}
        missing = sorted(set(seated) - set(given))
        extra = sorted(set(given) - set(seated))
        if missing or extra:
            raise ServiceError(
                "invalid",
                _("Counts are needed for the occupied seats %(seats)s only.")
                % {"seats": ", ".join(str(s) for s in sorted(seated))},
            )
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in given.values()):
            raise ServiceError("invalid", _("A count is a whole number of chips, 0 or more."))
        # the counted stacks; each seat keeps its absent flag
        set_seats(tt.table_id, [SeatChange(seat, seated[seat], stack) for seat, stack in sorted(given.items())])
        st = clock_of(t).state(time.time())
        record = ChipCount.objects.create(
            tournament=t,
            table_number=table_number,
            moment=moment,
            level_number=st.level_number,
            counts={str(k): v for k, v in sorted(given.items())},
            total=sum(given.values()),
            actor=actor if actor is not None and actor.is_authenticated else None,
        )
        record_event(step, "chip_count", {"table": table_number, "moment": moment, "counts": record.counts}, actor)
    return record


def show_chip_leaders(tournament_id: int, show: bool, *, actor=None) -> Tournament:
    """Show (or hide) the chip leaders on the TV.  Errors: ``not_found``."""
    with tournament_step(tournament_id, with_tables=False) as step:
        step.row.show_chip_leaders = bool(show)
        record_event(step, "show_chip_leaders", {"show": bool(show)}, actor, ("show_chip_leaders",))
    return step.row


def chip_adjustments(t: Tournament) -> int:
    """Chips the floor put into or took out of play on purpose (int, + added):
    every color-up's rounding (``ChipRaceRecord`` ``chip_value_change``: 001
    Chip Race rounds up to the next chip, 004 #24) and every chip change at
    the desk that was not undone (penalties 001 6.37 / 004 #71, found chips
    004 #64, a disqualified player's stack, corrections)."""
    raced = sum(
        int(r.get("chip_value_change", 0))
        for r in ChipRaceRecord.objects.filter(tournament=t).values_list("result", flat=True)
    )
    undone = set(
        TournamentEvent.objects.filter(tournament=t, kind="desk_undone").values_list("payload__undoes", flat=True)
    )
    desk = sum(
        int(amount or 0)
        for seq, amount in TournamentEvent.objects.filter(tournament=t, kind="desk_chips").values_list(
            "seq", "payload__amount"
        )
        if seq not in undone
    )
    return raced + desk


def expected_chips(t: Tournament, entries: list[Entry] | None = None) -> int:
    """Chips that should be in play: starting stack x entries + rebuy chips x rebuys + add-on chips x
    add-ons (``reading.rebuy_chips``, ``add_on_chips``: by default the starting stack), surrendered
    entries' stacks left out (004 #74), plus the chips the floor added or removed on purpose
    (:func:`chip_adjustments`)."""
    entries = entries if entries is not None else list(Entry.objects.filter(tournament=t))
    counted = [e for e in entries if e.status in (Entry.Status.REGISTERED, Entry.Status.SEATED, Entry.Status.BUSTED)]
    return (
        t.starting_stack * len(counted)
        + rebuy_chips(t) * sum(e.rebuys for e in counted)
        + add_on_chips(t) * sum(e.add_ons for e in counted)
        + chip_adjustments(t)
    )


def _recount_due(t: Tournament, last: dict[int, ChipCount]) -> set[int]:
    """Tables a desk bust marked for a recount (its chips credited to no
    one, ``desk.desk_bust``), not undone and not counted since (``last``:
    the last count by table number)."""
    undone = set(
        TournamentEvent.objects.filter(tournament=t, kind="desk_undone").values_list("payload__undoes", flat=True)
    )
    due: set[int] = set()
    for seq, at, tables in TournamentEvent.objects.filter(
        tournament=t, kind="desk_bust", payload__recount__isnull=False
    ).values_list("seq", "at", "payload__recount"):
        if seq in undone:
            continue
        due |= {n for n in tables or [] if n not in last or last[n].at < at}
    return due


def chip_stats(t: Tournament, now: float | None = None) -> dict[str, Any]:
    """The chip-count page's figures (JSON-ready).

    ``leaders`` -- seated players with chips by stack, biggest first: ``player``,
    ``table``, ``seat``, ``stack``, ``bb`` (stack in big blinds, 1 decimal);
    ``big_blind`` -- of the level on the clock (the next level on a break);
    ``average`` / ``median`` -- chips, ``average_bb`` / ``median_bb``;
    ``in_play`` -- the stacks' sum; ``expected`` (:func:`expected_chips`);
    ``difference`` = in_play - expected; ``mismatch`` -- it is not 0;
    ``tables`` -- per table ``number``, ``players``, ``total``, ``recount``
    (a desk bust left chips uncredited there since its last count) and
    ``counted`` (the last count: ``moment``, ``level_number``, ``at`` ISO)
    or null; ``recount`` -- those tables' numbers.
    """
    st = clock_of(t).state(time.time() if now is None else now)
    bb = st.level.big_blind if st.level else 0
    tts = {tt.table_id: tt.number for tt in TournamentTable.objects.filter(tournament=t, broken=False)}
    rows = list(
        Seat.objects.filter(table_id__in=tts, player__isnull=False, stack__gt=0)
        .order_by("-stack", "player__name")
        .values_list("table_id", "number", "player__name", "stack")
    )
    stacks = [r[3] for r in rows]
    entries = list(Entry.objects.filter(tournament=t))
    expected = expected_chips(t, entries)
    in_play = sum(stacks)
    last: dict[int, ChipCount] = {}
    for c in ChipCount.objects.filter(tournament=t).order_by("id"):
        last[c.table_number] = c
    recount = _recount_due(t, last)
    per_table: dict[int, list[int]] = {}
    for table_id, _seat, _name, stack in rows:
        per_table.setdefault(tts[table_id], []).append(stack)

    def in_bb(chips: float) -> float | None:
        return round(chips / bb, 1) if bb else None

    average = in_play / len(stacks) if stacks else 0
    middle = float(median(stacks)) if stacks else 0
    return {
        "leaders": [
            {"player": name, "table": tts[table_id], "seat": seat, "stack": stack, "bb": in_bb(stack)}
            for table_id, seat, name, stack in rows
        ],
        "big_blind": bb,
        "level_number": st.level_number,
        "players": len(stacks),
        "average": round(average),
        "median": round(middle),
        "average_bb": in_bb(average),
        "median_bb": in_bb(middle),
        "in_play": in_play,
        "expected": expected,
        "difference": in_play - expected,
        "mismatch": bool(stacks) and in_play != expected,
        "recount": sorted(recount),
        "tables": [
            {
                "number": number,
                "players": len(per_table.get(number, [])),
                "total": sum(per_table.get(number, [])),
                "recount": number in recount,
                "counted": (
                    {
                        "moment": last[number].moment,
                        "level_number": last[number].level_number,
                        "at": last[number].at.isoformat(),
                    }
                    if number in last
                    else None
                ),
            }
            for number in sorted(tts.values())
        ],
    }


def _cited(rule: str) -> str:
    """``"004 #24"`` -> ``"004 #24"`` (a numbered rule); ``"001 Chip Race"`` stays."""
    book, _sep, section = rule.partition(" ")
    return f"{book} #{section}" if section.isdigit() else rule


def color_up_state(t: Tournament, now: float | None = None) -> dict[str, Any]:
    """What the chip-count page offers for a color-up (001 Chip Race, 004
    #24): ``on_break`` (the clock is on a break), ``removed`` (the chips the
    running break colors up, else the smallest chip of the structure's
    ``chips``), ``new`` (the smallest larger chip of ``chips`` that is a
    multiple of the largest removed one), ``rule`` (``"004 #24"``) and ``races`` -- the
    color-ups recorded, newest first: ``table``, ``removed``, ``new``,
    ``rule``, ``at`` (ISO), ``cards_from`` and ``lines`` (seat order:
    ``player``, ``seat``, ``stack``, ``odd_value``, ``cards``,
    ``chips_won``, ``new_stack``, ``eliminated``, ``protected``)."""
    st = clock_of(t).state(time.time() if now is None else now)
    chips = sorted(int(c) for c in (t.structure or {}).get("chips") or [25, 100, 500, 1000, 5000, 25000])
    removed = sorted(int(c) for c in st.color_up) if st.on_break and st.color_up else chips[:1]
    top = max(removed) if removed else 0
    new = next((c for c in chips if top and c > top and c % top == 0), top * 5 if top else None)
    rule = engine_rules(t).cite("chip_race")
    races = [
        {
            "table": r.table_number,
            "removed": r.removed_denomination,
            "new": r.new_denomination,
            "rule": _cited(r.rule),
            "at": r.at.isoformat(),
            "cards_from": r.cards_from,
            "lines": sorted(r.result.get("lines", []), key=lambda ln: ln["seat"]),
        }
        for r in ChipRaceRecord.objects.filter(tournament=t).order_by("-id")[:20]
    ]
    return {
        "on_break": st.on_break,
        "removed": removed,
        "new": new,
        "rule": _cited(str(rule)),
        "races": races,
    }
