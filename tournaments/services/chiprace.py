"""Chip race (color-up) at one table, between hands (001 Chip Race, 004 #24)."""

from __future__ import annotations

import time
from collections.abc import Hashable

from django.utils.translation import gettext as _

from poker import tournament as eng
from tables.models import Hand, Seat
from tables.services import SeatChange
from tables.writepath import ServiceError
from tournaments.models import ChipRaceRecord, Entry, TournamentEvent, TournamentTable
from tournaments.services.busts import after_busts, finish_if_won, record_busts
from tournaments.services.reading import clock_of, draw_rng, engine_rules
from tournaments.services.writes import instruct, record_event, set_seats, tournament_step


def chip_race(
    tournament_id: int,
    table_number: int,
    removed: int,
    new: int,
    *,
    cards: dict[str, list[str]] | None = None,
    removed_chips: dict[str, int] | None = None,
    again: bool = False,
    actor=None,
) -> ChipRaceRecord:
    """Color up ``removed`` chips into ``new`` chips at one table, between hands.

    ``cards`` -- the cards the dealer dealt, by player name (001 Chip Race:
    one per player with odd chips; 004 #24 / TDA: one per odd chip); when
    omitted the app draws them.  ``removed_chips`` -- chips of ``removed``
    each player holds (default: the odd value of his stack, ``stack % new``).
    The result is recorded and applied to the seats.  A player raced out
    under 001 busts: his finish is recorded, placed and paid exactly like a
    bust in a hand (:func:`record_busts`; two raced out together are ranked
    by their stacks before the race), and the waitlist and balancing react
    as after a hand.  Under 004 #24 nobody busts: he keeps one chip of the
    new denomination.  The same race (table, chip removed) in the same
    period of the clock (one break) is refused unless ``again``: a race run
    twice by mistake would hand out the odd chips twice.  Errors:
    ``not_found``, ``invalid``, ``hand_in_progress``, ``duplicate``.
    """
    with tournament_step(tournament_id) as step:
        t = step.row
        tt = TournamentTable.objects.filter(tournament=t, number=table_number, broken=False).first()
        if tt is None:
            raise ServiceError("not_found", _("no table %(table_number)s") % {"table_number": table_number})
        if Hand.objects.filter(table_id=tt.table_id, status=Hand.Status.LIVE).exists():
            raise ServiceError("hand_in_progress", _("race the chips between hands"))
        if new <= removed or new % removed:
            raise ServiceError(
                "invalid",
                _("The new chip must be a larger multiple of the chip removed (%(removed)s → %(new)s).")
                % {"removed": removed, "new": new},
            )
        period = clock_of(t).state(time.time()).period_index
        if (
            not again
            and TournamentEvent.objects.filter(
                tournament=t,
                kind="chip_race",
                payload__table=table_number,
                payload__removed=removed,
                payload__period=period,
            ).exists()
        ):
            raise ServiceError(
                "duplicate",
                _(
                    "The %(removed)s chips were already raced at table %(table)s in this period: "
                    "race again only to repeat it on purpose"
                )
                % {"removed": removed, "table": table_number},
            )
        rules = engine_rules(t)
        seats = list(
            Seat.objects.filter(table_id=tt.table_id, player__isnull=False, stack__gt=0).select_related("player")
        )
        removed_chips = removed_chips or {}
        try:
            entries = [
                eng.ChipRaceEntry(
                    s.occupant.name,
                    s.number,
                    s.stack,
                    int(removed_chips.get(s.occupant.name, (s.stack % new) // removed)),
                )
                for s in seats
            ]
            # by player name (the engine takes any hashable key)
            dealt: dict[Hashable, list[str]] | None = {name: c for name, c in cards.items()} if cards else None
            result = eng.chip_race(entries, removed, new, rules, cards=dealt, rng=None if cards else draw_rng(t))
        except ValueError:  # the engine's English stays out of the desk: say what to put right
            raise ServiceError(
                "invalid", _("The chip race cannot be run with these cards or chip counts: check them.")
            ) from None
        set_seats(
            tt.table_id,
            [
                SeatChange(s.number, s.player_id, line.new_stack)
                for line, s in zip(sorted(result.lines, key=lambda ln: ln.seat), sorted(seats, key=lambda s: s.number))
                if line.new_stack != s.stack
            ],
        )
        data = {
            "lines": [
                {
                    "player": ln.player,
                    "seat": ln.seat,
                    "stack": ln.stack,
                    "odd_value": ln.odd_value,
                    "rounded_up": ln.rounded_up,
                    "cards": [str(c) for c in ln.cards],
                    "chips_won": ln.chips_won,
                    "protected": ln.protected,
                    "new_stack": ln.new_stack,
                    "eliminated": ln.eliminated,
                }
                for ln in result.lines
            ],
            "chips_awarded": result.chips_awarded,
            "chip_value_change": result.chip_value_change,
        }
        record = ChipRaceRecord.objects.create(
            tournament=t,
            table_number=table_number,
            removed_denomination=removed,
            new_denomination=new,
            cards_from="dealer" if cards else "app",
            result=data,
            rule=str(result.rule),
            actor=actor if actor is not None and actor.is_authenticated else None,
        )
        winners = ", ".join(f"{ln.player} +{ln.chips_won * new}" for ln in result.lines if ln.chips_won) or "-"
        out_en = "".join(f"; {ln.player} is out" for ln in result.lines if ln.eliminated)
        out_de = "".join(f"; {ln.player} scheidet aus" for ln in result.lines if ln.eliminated)
        kept_en = "".join(f"; {ln.player} keeps one {new} chip" for ln in result.lines if ln.protected)
        kept_de = "".join(f"; {ln.player} behält einen {new}er Chip" for ln in result.lines if ln.protected)
        instruct(
            t,
            "chip_race",
            f"Chip race table {table_number}: {removed} chips out; {winners}{out_en}{kept_en} ({result.rule})",
            f"Chiprace Tisch {table_number}: {removed}er Chips raus; {winners}{out_de}{kept_de} ({result.rule})",
            rule=str(result.rule),
            tables={table_number},
            actor=actor,
        )
        # 001 Chip Race: a player whose last chips are raced away is out, placed
        # and paid like a bust in a hand (001 Ende des Turniers); 004 #24: nobody is.
        by_seat = {s.number: s.occupant.id for s in seats}
        raced_out = {by_seat[ln.seat]: ln.stack for ln in result.lines if ln.eliminated}
        out = [
            (e, raced_out[e.player_id])
            for e in Entry.objects.filter(
                tournament=t, status=Entry.Status.SEATED, player_id__in=raced_out
            ).select_related("player")
        ]
        record_busts(t, rules, out)
        payload = {
            "table": table_number,
            "record": record.id,
            "removed": removed,
            "period": period,
            "again": again,
            **data,
        }
        if Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() == 1:
            record_event(step, "chip_race", payload, actor)
            finish_if_won(step, rules, None)
        else:
            after_busts(step, rules, bool(out), "chip_race", payload, actor)
    return record
