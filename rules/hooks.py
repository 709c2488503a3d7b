"""What the ``rules`` app adds to the tables through ``tables.hooks``
(registered in :meth:`rules.apps.RulesConfig.ready`): penalties at the deal
and the tablet's floor calls, chip reading and rule links."""

from __future__ import annotations

from typing import Any

from rules import citations, services
from rules.models import FloorCall, Penalty
from tables import hooks, probes
from tables.models import Seat, Table


def remove_disqualified(table: Table) -> None:
    """Before the deal (table locked): a disqualified player's chips are
    removed from play and his seat opens (000 Strafen 4, 001 6.37, 004 #71)."""
    for penalty in Penalty.objects.select_for_update().filter(table=table, kind="disqualification", chips_removed=0):
        seat = table.seats.filter(player_id=penalty.player_id).first()
        if seat is None:
            continue
        penalty.chips_removed = seat.stack
        penalty.save(update_fields=["chips_removed"])
        seat.player = None
        seat.stack = 0
        seat.save(update_fields=["player", "stack"])


def penalty_dead_hands(table: Table, seats: list[Seat], state: Any) -> list[dict[str, Any]]:
    """Kill actions for the players dealt in who sit out a penalty (004 #71,
    001 6.37: cards dealt and killed, blinds and antes posted; the penalty
    counts the hand, ``Penalty.hands_served`` goes up by one).  One kill per
    player, from his oldest active sit-out penalty."""
    dealt = {s.seat for s in state.spec.seats}
    by_player = {s.player_id: s for s in seats if s.player_id and s.number in dealt}
    kills = []
    sitting = (
        Penalty.objects.select_for_update()
        .filter(player_id__in=by_player, kind__in=["sit_out_hands", "sit_out_orbits"])
        .order_by("created_at")
    )
    done = set()
    for penalty in sitting:
        if not penalty.active or penalty.player_id in done:
            continue
        done.add(penalty.player_id)
        penalty.hands_served += 1
        penalty.save(update_fields=["hands_served"])
        kills.append(
            {
                "type": "kill",
                "seat": by_player[penalty.player_id].number,
                "reason": "penalty",
                "penalty": penalty.id,
                "hand_of": [penalty.hands_served, penalty.hands_total],
                "citations": penalty.ruling.citations,
            }
        )
    return kills


def open_calls_of(table_id: int | None) -> list[dict[str, Any]]:
    """Open floor calls (``rules.services.floor_call_dict``) of one table, or all."""
    return services.open_calls(table_id)


def floor_call(
    table_id: int,
    reason: str,
    *,
    seat: int | None = None,
    note: str = "",
    details: dict[str, Any] | None = None,
    actor=None,
) -> int:
    """The tablet calls the floor (``rules.services.raise_floor_call``); returns the call's id."""
    return services.raise_floor_call(table_id, reason, seat=seat, note=note, details=details, actor=actor).id


def register() -> None:
    """Register the hooks above and the rules services the tablet uses."""
    hooks.register_before_deal(remove_disqualified)
    hooks.register_dead_hands(penalty_dead_hands)
    penalty, seat = Penalty._meta.db_table, Seat._meta.db_table
    # Probes (tables.probes): only a table with a disqualified player's chips still in play, or a
    # seated player with a sit-out penalty still running, needs these hooks at the deal.
    probes.register(
        remove_disqualified,
        f"EXISTS (SELECT 1 FROM {penalty} p WHERE p.table_id = t.id AND p.kind = 'disqualification'"
        f" AND p.chips_removed = 0)",
    )
    probes.register(
        penalty_dead_hands,
        f"EXISTS (SELECT 1 FROM {penalty} p JOIN {seat} s ON s.player_id = p.player_id WHERE s.table_id = t.id"
        f" AND p.kind IN ('sit_out_hands', 'sit_out_orbits') AND p.hands_total IS NOT NULL"
        f" AND p.hands_served < p.hands_total)",
    )
    hooks.register_open_calls(open_calls_of)
    # A tablet's connect reads the floor calls only at a table with one still open (tables.tablet_open).
    probes.register_connect(
        open_calls_of,
        f"EXISTS (SELECT 1 FROM {FloorCall._meta.db_table} fc WHERE fc.table_id = t.id"
        f" AND fc.status IN ('{FloorCall.Status.OPEN.value}', '{FloorCall.Status.ANSWERED.value}'))",
    )
    hooks.register_floor_call(floor_call)
    hooks.register_interpreter(services.interpret_for_table)
    hooks.register_citation_url(citations.citation_url)
