"""What the tournament services read: the rulebook profile, the structure and
clock, the payout table, which entry operations are allowed now, and the
floor as ``poker.tournament`` values.  No writes (``store_clock`` only
sets fields of the instance it is given)."""

from __future__ import annotations

import functools
import random
from typing import overload

from django.db import connection
from django.db.models import Count, F, Sum
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from poker import tournament as eng
from poker.rulebooks import Citation
from poker.tournament.buttons import Positions
from poker.tournament.clock import ANTE_KINDS
from tables.models import Seat
from tables.writepath import ServiceError
from tournaments.models import Entry, Instruction, Tournament, TournamentTable

__all__ = [
    "GONE_STATUSES",
    "ENTRY_OPS",
    "RULEBOOKS",
    "UNPAID",
    "add_on_chips",
    "add_on_cost",
    "clock_of",
    "draw_rng",
    "engine_rules",
    "entry_refusal",
    "floor_state",
    "level_dict",
    "parse_structure",
    "payout_table_from",
    "payout_table_of",
    "pool_amounts",
    "rebuy_chips",
    "rebuy_cost",
    "rebuy_stack_refusal",
    "store_clock",
    "table_positions",
    "tournament_group",
]

RULEBOOKS = {"wynental": "wynental", "munotpoker": "munot"}
"""Tournament.rulebook -> ``poker.tournament.rules_for`` name (and tables.Table.rules_profile)."""


def tournament_group(tournament_id: int) -> str:
    """Channels group of every screen of one tournament (director and lobby)."""
    return f"tournament.{tournament_id}"


def engine_rules(t: Tournament) -> eng.TournamentRules:
    """The engine profile of ``t``: 001 or 004 with the room's table size."""
    return _rules(RULEBOOKS[t.rulebook], t.max_seats)


@functools.lru_cache(maxsize=64)
def _rules(name: str, max_seats: int) -> eng.TournamentRules:
    return eng.rules_for(name, max_seats=max_seats)  # immutable: safe to share


def parse_structure(data: dict) -> eng.Structure:
    """``Tournament.structure`` JSON -> :class:`poker.tournament.Structure`.

    Minutes are ints; chips ints.  Raises ``ServiceError('invalid')``.
    """
    try:
        periods: list[eng.Level | eng.Break] = []
        for p in data["periods"]:
            if p.get("kind", "level") == "break":
                periods.append(eng.Break(int(p["minutes"]) * 60, tuple(int(c) for c in p.get("color_up", ()))))
            else:
                ante = int(p.get("ante", 0))
                kind = p.get("ante_kind") or ("none" if not ante else "ante")
                if kind not in ANTE_KINDS:
                    raise ValueError(f"unknown ante kind {kind!r}")
                periods.append(
                    eng.Level(int(p["small_blind"]), int(p["big_blind"]), int(p["minutes"]) * 60, ante, kind)
                )
        return eng.Structure(tuple(periods), data.get("late_registration_until"))
    except (KeyError, TypeError, ValueError) as exc:
        raise ServiceError("invalid", _("bad structure: %(exc)s") % {"exc": exc}) from None


def clock_of(t: Tournament) -> eng.Clock:
    """The tournament's clock rebuilt from its stored timestamps."""
    return eng.Clock(
        parse_structure(t.structure),
        started_at=t.clock_started_at,
        paused_at=t.clock_paused_at,
        paused_total=t.clock_paused_total,
        offset=t.clock_offset,
        hand_for_hand=t.hand_for_hand,
        seconds_per_hand=t.seconds_per_hand,
        hands_played=t.hands_played_h4h,
    )


def store_clock(t: Tournament, clock: eng.Clock) -> None:
    """Copy ``clock``'s state (start, pause, offset, hand-for-hand) into ``t``'s fields; the caller saves them."""
    t.clock_started_at = clock.started_at
    t.clock_paused_at = clock.paused_at
    t.clock_paused_total = clock.paused_total
    t.clock_offset = clock.offset
    t.hand_for_hand = clock.hand_for_hand
    t.hands_played_h4h = clock.hands_played


def draw_rng(t: Tournament) -> random.Random:
    """The random draw of ``t``'s next event: seeded from ``t.seed`` and the seq (repeatable in tests), else fresh."""
    return random.Random(t.seed * 1_000_003 + t.seq) if t.seed else random.Random()


@overload
def level_dict(level: eng.Level) -> dict: ...
@overload
def level_dict(level: None) -> None: ...
def level_dict(level: eng.Level | None) -> dict | None:
    """A level as the snapshots carry it: ``{"small_blind", "big_blind", "ante", "ante_kind", "seconds"}`` (chips, seconds), or None."""
    if level is None:
        return None
    return {
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "ante_kind": level.ante_kind,
        "seconds": level.duration_seconds,
    }


def payout_table_of(t: Tournament, entries: list[Entry] | None = None) -> eng.PayoutTable | None:
    """The payout table: the edited amounts, or the house default from the
    prize pool (:func:`pool_amounts`: buy-ins of every entry, rebuys and add-ons at their cost, at
    least the guarantee)."""
    if entries is None:  # counted by the database: no entry read
        agg = (
            Entry.objects.filter(tournament=t)
            .exclude(status__in=UNPAID)
            .order_by()
            .aggregate(paid=Count("id"), rebuys=Sum("rebuys"), add_ons=Sum("add_ons"))
        )
        return payout_table_from(t, agg["paid"], agg["rebuys"] or 0, agg["add_ons"] or 0)
    paid = [e for e in entries if e.status not in UNPAID]
    return payout_table_from(t, len(paid), sum(e.rebuys for e in paid), sum(e.add_ons for e in paid))


UNPAID = (Entry.Status.RESERVED, Entry.Status.WAITLISTED, Entry.Status.EXPIRED, Entry.Status.CANCELLED)
"""Entry statuses that paid no buy-in, or had it refunded (not counted as entries, not in the prize pool)."""


def rebuy_cost(t: Tournament) -> int:
    """What one rebuy puts into the prize pool (currency units): ``Tournament.rebuy_cost``, else the buy-in."""
    return t.buy_in if t.rebuy_cost is None else t.rebuy_cost


def add_on_cost(t: Tournament) -> int:
    """What one add-on puts into the prize pool (currency units): ``Tournament.add_on_cost``, else the buy-in."""
    return t.buy_in if t.add_on_cost is None else t.add_on_cost


def rebuy_chips(t: Tournament) -> int:
    """The chips of one rebuy: ``Tournament.rebuy_chips``, else the starting stack (001 Re-buy/Add-on, 004 #27)."""
    return t.starting_stack if t.rebuy_chips is None else t.rebuy_chips


def add_on_chips(t: Tournament) -> int:
    """The chips of one add-on: ``Tournament.add_on_chips``, else the starting stack."""
    return t.starting_stack if t.add_on_chips is None else t.add_on_chips


def pool_amounts(t: Tournament, paid: int, rebuys: int, add_ons: int) -> tuple[int, int, int]:
    """The one place the prize pool is computed: ``(pool, collected, overlay)`` in currency units for
    ``paid`` entries (first entries and re-entries, 004 #72) that paid the buy-in, ``rebuys`` and
    ``add_ons`` at their cost (:func:`rebuy_cost`, :func:`add_on_cost`; 004 #27, 001 Re-buy/Add-on).
    ``collected`` -- what the buy-ins brought; ``pool`` -- what is paid out: ``max(collected,
    Tournament.guarantee)``; ``overlay`` -- what the house adds to reach the guarantee (0 when the
    buy-ins cover it).  Fees (the rake) are never in it."""
    collected = t.buy_in * paid + rebuy_cost(t) * rebuys + add_on_cost(t) * add_ons
    pool = max(collected, t.guarantee or 0)
    return pool, collected, pool - collected


@functools.lru_cache(maxsize=256)
def _payout_table(pool: int, paid: int, amounts: tuple[int, ...] | None) -> eng.PayoutTable:
    return eng.payout_table(pool, paid, amounts=list(amounts)) if amounts else eng.payout_table(pool, paid)


def payout_table_from(t: Tournament, paid: int, rebuys: int, add_ons: int) -> eng.PayoutTable | None:
    """The payout table of ``t`` with ``paid`` entries that paid a buy-in, ``rebuys`` and ``add_ons``
    among them (the pool of :func:`pool_amounts`, the guarantee included): the edited amounts when
    they still sum to the pool, else the house default (None under two entries)."""
    if paid < 2:
        return None
    pool = pool_amounts(t, paid, rebuys, add_ons)[0]
    if t.payouts and sum(t.payouts) == pool and len(t.payouts) <= paid:
        return _payout_table(pool, paid, tuple(t.payouts))
    return _payout_table(pool, paid, None)


ENTRY_OPS = ("re_enter", "surrender", "rebuy", "add_on")
"""What the director may do with one registration (the buttons of the page)."""

GONE_STATUSES = (Entry.Status.BUSTED, Entry.Status.SURRENDERED, Entry.Status.EXPIRED, Entry.Status.CANCELLED)
"""Statuses of an entry no longer in the tournament (out, given up, lapsed, refunded)."""


def entry_refusal(
    t: Tournament, op: str, entry: Entry, player_entries: list[Entry], late_open: bool, *, stack: int | None = None
) -> ServiceError | None:
    """Why ``op`` (one of :data:`ENTRY_OPS`) is refused for ``entry`` now,
    or ``None`` when it is allowed.  Pure: no query.

    ``player_entries`` -- every entry of the player in ``t``;
    ``late_open`` -- the structure's late-registration window is open (it
    is also the re-entry, surrender and rebuy period).

    * ``re_enter`` -- 004 #72: a busted player, from his latest entry, with
      re-entries left (``re_entries_allowed``); 001 has none (001 Re-buy/Add-on).
    * ``surrender`` -- 004 #74: only MunotPoker re-entry tournaments, a
      seated player with a re-entry left; 001 has no such rule.
    * ``rebuy`` / ``add_on`` -- only as many as the structure allows (001
      Re-buy/Add-on: none unless provided; 004 #27), a seated player; a
      rebuy only while his ``stack`` (chips, when given) is at or below the
      event's ``rebuy_max_stack`` (default: the starting stack).
    * All: the tournament is running and the window is open.

    Codes: ``not_allowed``, ``invalid``, ``duplicate``, ``closed``.
    """
    rule = "001 Re-buy/Add-on" if t.rulebook == "wynental" else "004 #72"
    if op == "re_enter":
        if engine_rules(t).late_entry == "none":
            return ServiceError(
                "not_allowed", _("001 Re-buy/Add-on: no late registration or re-entry in this rulebook")
            )
        if entry.status != Entry.Status.BUSTED:
            return ServiceError("invalid", _("only a busted player re-enters"))
        if any(e.status not in GONE_STATUSES for e in player_entries):
            return ServiceError("duplicate", _("%(player)s has an entry already") % {"player": entry.player.name})
        if entry.number != max(e.number for e in player_entries):
            return ServiceError("invalid", _("a re-entry is made from the latest entry only"))
        if len(player_entries) - 1 >= t.re_entries_allowed:
            return ServiceError("not_allowed", _("no re-entry left (004 #72)"))
    elif op == "surrender":
        rule = "004 #74"
        if t.rulebook != "munotpoker" or not t.re_entries_allowed:
            return ServiceError("not_allowed", _("surrender exists only in MunotPoker re-entry tournaments (004 #74)"))
        if entry.status != Entry.Status.SEATED or entry.rebuy_pending:
            return ServiceError("invalid", _("only a seated player with chips surrenders"))
        if len(player_entries) - 1 >= t.re_entries_allowed:
            return ServiceError("not_allowed", _("no re-entry left (004 #74)"))
    elif op in ("rebuy", "add_on"):
        rule = "001 Re-buy/Add-on" if t.rulebook == "wynental" else "004 #27"
        allowed = t.add_ons_allowed if op == "add_on" else t.rebuys_allowed
        used = entry.add_ons if op == "add_on" else entry.rebuys
        if used >= allowed:
            if op == "add_on":
                message = _("no add-on allowed (%(rule)s)") if not allowed else _("no add-on left (%(rule)s)")
            else:
                message = _("no rebuy allowed (%(rule)s)") if not allowed else _("no rebuy left (%(rule)s)")
            return ServiceError("not_allowed", message % {"rule": rule})
        if entry.status != Entry.Status.SEATED:
            return ServiceError("invalid", _("only a seated player rebuys"))
        if op == "add_on" and entry.rebuy_pending:
            return ServiceError(
                "invalid",
                _("%(player)s has lost all chips: rebuy or no rebuy first (004 #27)") % {"player": entry.player.name},
            )
    else:
        return ServiceError("invalid", _("unknown operation %(op)s") % {"op": op})
    if t.status != Tournament.Status.RUNNING:
        return ServiceError("closed", _("the tournament is not running"))
    if not late_open:
        return ServiceError(
            "closed", _("late registration has closed: no new stacks any more (%(rule)s)") % {"rule": rule}
        )
    if op == "rebuy":
        return rebuy_stack_refusal(t, entry, stack)
    return None


def rebuy_stack_refusal(t: Tournament, entry: Entry, stack: int | None) -> ServiceError | None:
    """``not_allowed`` when ``stack`` (the player's chips; ``None``: unknown, allowed) is above the
    event's condition for a rebuy: at or below ``rebuy_max_stack`` chips, by default the starting
    stack -- never a rebuy on more than a full stack (001 Re-buy/Add-on: as the Turnierreglement
    provides; 004 #27)."""
    limit = t.starting_stack if t.rebuy_max_stack is None else t.rebuy_max_stack  # 001, 004 #27
    if stack is None or stack <= limit:
        return None
    return ServiceError(
        "not_allowed",
        _("a rebuy only at or below %(limit)s chips: %(player)s has %(stack)s (%(rule)s)")
        % {
            "limit": number_format(limit, force_grouping=True),
            "player": entry.player.name,
            "stack": number_format(stack, force_grouping=True),
            "rule": "001 Re-buy/Add-on" if t.rulebook == "wynental" else "004 #27",
        },
    )


def floor_counts(t: Tournament) -> list[list[int]]:
    """The players seated at each open table of ``t`` (table order), as counted by :func:`floor_state`
    (seated entries), in two statements that read no seat map: ``[counts]``, and when moves are pending
    also ``[counts, counts with the pending moves made]`` (``floor_state`` makes them when it can, and
    leaves them out when they no longer fit).  For :func:`poker.tournament.moves_due`: a bust that leaves
    nothing to do need not read the whole floor."""
    # one round trip: the counts (kind 0: table, players) and the pending moves (kind 1: from, to)
    sql = (
        f"SELECT 0, tt.number, COUNT(e.id) FROM {TournamentTable._meta.db_table} tt "
        f"LEFT JOIN {Seat._meta.db_table} st ON st.table_id = tt.table_id "
        f"LEFT JOIN {Entry._meta.db_table} e ON e.player_id = st.player_id AND e.tournament_id = %s AND e.status = %s "
        f"WHERE tt.tournament_id = %s AND NOT tt.broken GROUP BY tt.number "
        f"UNION ALL SELECT 1, i.from_table, i.to_table FROM {Instruction._meta.db_table} i "
        f"WHERE i.tournament_id = %s AND i.kind = 'move' AND i.status = 'pending' AND i.from_table IS DISTINCT FROM 0 "
        f"ORDER BY 1, 2"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [t.id, Entry.Status.SEATED.value, t.id, t.id])
        rows = cursor.fetchall()
    counts = {number: players for kind, number, players in rows if kind == 0}
    pending = [(source, target) for kind, source, target in rows if kind == 1]
    moved = dict(counts)
    for source, target in pending:
        if source in moved and target in moved:
            moved[source] -= 1
            moved[target] += 1
    return [list(counts.values())] + ([list(moved.values())] if moved != counts else [])


def floor_state(t: Tournament, *, pending: bool = True) -> tuple[list[eng.TableState], dict[int, TournamentTable]]:
    """The floor as ``TableState`` values (player id = entry id), with the
    pending moves already applied (their seats are taken)."""
    # the table's own size as one annotated column, not the whole ``tables.Table`` row (select_related): this runs
    # on every bust, over every open table of the field (bench/tournament.py --floor)
    tts: dict[int, TournamentTable] = {
        tt.number: tt
        for tt in TournamentTable.objects.filter(tournament=t, broken=False).annotate(table_seats=F("table__max_seats"))
    }
    seats: dict[int, dict[int, int]] = {n: {} for n in tts}
    number_of = {tt.table_id: n for n, tt in tts.items()}
    # the seats of seated entries, with the entry's id (a player has one seated entry at most): one statement
    sql = (
        f"SELECT st.table_id, st.number, e.id FROM {Seat._meta.db_table} st JOIN {Entry._meta.db_table} e "
        f"ON e.player_id = st.player_id AND e.tournament_id = %s AND e.status = %s WHERE st.table_id = ANY(%s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [t.id, Entry.Status.SEATED.value, list(number_of)])
        for table_id, number, entry_id in cursor.fetchall():
            seats[number_of[table_id]][number] = entry_id
    rules = engine_rules(t)
    floor = []
    for n, tt in sorted(tts.items()):
        # a table the director opened may seat fewer (tournaments.services.floor_tables.add_table)
        table_seats: int = getattr(tt, "table_seats")  # noqa: B009 (the annotation above, unknown to the model's type)
        size = min(rules.final_table_seats if len(tts) == 1 else t.max_seats, table_seats)
        floor.append(
            eng.TableState(n, seats[n], max(size, max(seats[n], default=0)), table_positions(tt), tt.first_button)
        )
    if pending:
        moves = [
            eng.Move(m.entry.id, m.from_table, m.from_seat, m.to_table, m.to_seat, Citation("", ""))
            for m in (
                i.seat_move()
                for i in Instruction.objects.filter(tournament=t, kind="move", status="pending")
                .exclude(from_table=0)
                .select_related("entry")
            )
        ]
        moves = [m for m in moves if m.from_table in tts and m.to_table in tts]
        if moves:
            try:
                floor = eng.apply_moves(floor, moves)
            except ValueError:
                pass
    return floor, tts


def table_positions(tt: TournamentTable) -> Positions | None:
    """The button, blinds and dead-button flag stored for ``tt``'s last hand (``Positions``), or None before its first."""
    p = tt.positions
    if not p:
        return None
    return Positions(
        p["button"],
        p["small_blind"],
        p["big_blind"],
        p.get("dead_button", False),
        p.get("dead_small_blind", False),
        p.get("heads_up", False),
    )
