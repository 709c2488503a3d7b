"""Every write to a tournament goes through a function of this module.

Each service runs in ``transaction.atomic()``.  Lock order, everywhere:
first the tournament's ``tables.Table`` rows (ascending id; the table
services lock them ``FOR NO KEY UPDATE``), then the ``Tournament`` row
(``FOR UPDATE``).  A dealer's hand holds its table and then, in the
``hand_completed`` receiver, the tournament, which is the same order.
Every mutation appends a :class:`~tournaments.models.TournamentEvent`, bumps
``Tournament.seq`` and broadcasts the tournament snapshot to the group
``tournament.<id>`` in ``transaction.on_commit``.  Instructions to dealers
go to the table groups (``tables.services.table_group``) on commit too.

Errors raise ``tables.services.ServiceError(code, message)`` and change
nothing.  The procedures come from ``poker.tournament`` and name the rule
they applied (001 = Wynental, 004 = MunotPoker).
"""

from __future__ import annotations

import functools
import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Count, Exists, F, Max, OuterRef

from tables import services as table_services
from poker.hand import HandSpec, SeatSpec
from tables.models import Hand, Player, Seat, Table
from tables.services import ServiceError, send_on_commit, table_group
from poker import tournament as eng
from poker.tournament.buttons import Positions, hands_until_button
from poker.tournament.clock import level_for_hand
from tournaments.models import (ChipRaceRecord, Entry, Finish, Instruction, Tournament, TournamentEvent,
                                TournamentTable)

RULEBOOKS = {"wynental": "wynental", "munotpoker": "munot"}
"""Tournament.rulebook -> ``poker.tournament.rules_for`` name (and tables.Table.rules_profile)."""


def tournament_group(tournament_id: int) -> str:
    """Channels group of every screen of one tournament (director and lobby)."""
    return f"tournament.{tournament_id}"


# ---------------------------------------------------------------------------
# Reading: rules, structure, clock

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
        periods = []
        for p in data["periods"]:
            if p.get("kind", "level") == "break":
                periods.append(eng.Break(int(p["minutes"]) * 60, tuple(int(c) for c in p.get("color_up", ()))))
            else:
                ante = int(p.get("ante", 0))
                kind = p.get("ante_kind") or ("none" if not ante else "ante")
                periods.append(eng.Level(int(p["small_blind"]), int(p["big_blind"]), int(p["minutes"]) * 60,
                                         ante, kind))
        return eng.Structure(tuple(periods), data.get("late_registration_until"))
    except (KeyError, TypeError, ValueError) as exc:
        raise ServiceError("invalid", f"bad structure: {exc}") from None


def clock_of(t: Tournament) -> eng.Clock:
    """The tournament's clock rebuilt from its stored timestamps."""
    return eng.Clock(parse_structure(t.structure), started_at=t.clock_started_at, paused_at=t.clock_paused_at,
                     paused_total=t.clock_paused_total, offset=t.clock_offset, hand_for_hand=t.hand_for_hand,
                     seconds_per_hand=t.seconds_per_hand, hands_played=t.hands_played_h4h)


def _store_clock(t: Tournament, clock: eng.Clock) -> None:
    t.clock_started_at = clock.started_at
    t.clock_paused_at = clock.paused_at
    t.clock_paused_total = clock.paused_total
    t.clock_offset = clock.offset
    t.hand_for_hand = clock.hand_for_hand
    t.hands_played_h4h = clock.hands_played


def _rng(t: Tournament) -> random.Random:
    return random.Random(t.seed * 1_000_003 + t.seq) if t.seed else random.Random()


def _level_dict(level: eng.Level | None) -> dict | None:
    if level is None:
        return None
    return {"small_blind": level.small_blind, "big_blind": level.big_blind, "ante": level.ante,
            "ante_kind": level.ante_kind, "seconds": level.duration_seconds}


# ---------------------------------------------------------------------------
# Locks, events, broadcasts

def _lock(tournament_id: int, *, with_tables: bool = True) -> Tournament:
    """Lock the tournament's tables (ascending id), then the tournament row."""
    if with_tables:
        ids = list(TournamentTable.objects.filter(tournament_id=tournament_id).order_by("table_id")
                   .values_list("table_id", flat=True))
        if ids:
            list(Table.objects.filter(id__in=ids).order_by("id").select_for_update(no_key=True)
                 .values_list("id", flat=True))
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise ServiceError("not_found", f"no tournament {tournament_id}")
    return t


@contextmanager
def _locked_entry(entry_id: int) -> Iterator[tuple[Tournament, Entry]]:
    """The opening of every service on one entry: inside one transaction,
    the entry's tournament locked (:func:`_lock`) and the entry read again
    under that lock (player selected).  Yields ``(tournament, entry)``.
    Errors: ``not_found``."""
    entry = Entry.objects.filter(pk=entry_id).select_related("player").first()
    if entry is None:
        raise ServiceError("not_found", f"no entry {entry_id}")
    with transaction.atomic():
        t = _lock(entry.tournament_id)
        entry.refresh_from_db()
        yield t, entry


def _record(t: Tournament, kind: str, payload: dict, actor=None, fields: tuple[str, ...] = ()) -> int:
    """Append an event, bump ``t.seq``, save ``fields`` and broadcast on commit."""
    t.seq += 1
    TournamentEvent.objects.create(tournament=t, seq=t.seq, kind=kind, payload=payload,
                                   actor=actor if actor is not None and actor.is_authenticated else None)
    t.save(update_fields=[*fields, "seq"])
    _broadcast_on_commit(t)
    return t.seq


def _broadcast_on_commit(t: Tournament) -> None:
    full = snapshot(t)
    public = public_snapshot(full)
    message = {"type": "tournament.update", "seq": t.seq,
               "full": json.dumps({"type": "update", "seq": t.seq, "snapshot": full}),
               "public": json.dumps({"type": "update", "seq": t.seq, "snapshot": public})}
    group = tournament_group(t.id)

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send)


def _instruction_message(i: Instruction) -> dict:
    return {"type": "instruction", "id": i.id, "kind": i.kind, "text_en": i.text_en, "text_de": i.text_de,
            "player": i.entry.player.name if i.entry_id else None,
            "from": {"table": i.from_table, "seat": i.from_seat} if i.from_table else None,
            "to": {"table": i.to_table, "seat": i.to_seat} if i.to_table else None,
            "status": i.status, "rule": i.rule, "cancelled": i.status == "cancelled",
            "at": i.at.isoformat() if i.at else None}


def _push_instruction(t: Tournament, i: Instruction, table_numbers: set[int] | None = None) -> None:
    """Send an instruction to the tablets of the tables it concerns (on commit)."""
    numbers = table_numbers or {n for n in (i.from_table, i.to_table) if n}
    ids = list(TournamentTable.objects.filter(tournament=t, number__in=numbers).values_list("table_id", flat=True))
    if not numbers:
        ids = list(TournamentTable.objects.filter(tournament=t, broken=False).values_list("table_id", flat=True))
    send_on_commit([table_group(table_id) for table_id in ids], _instruction_message(i))


def _instruct(t: Tournament, kind: str, text_en: str, text_de: str, *, entry: Entry | None = None,
              move: tuple[int, int, int, int] | None = None, status: str = "done", rule: str = "",
              stack: int = 0, undoes: Instruction | None = None, actor=None,
              tables: set[int] | None = None) -> Instruction:
    fr, fs, to, ts = move or (None, None, None, None)
    i = Instruction.objects.create(tournament=t, kind=kind, status=status, entry=entry, from_table=fr,
                                   from_seat=fs, to_table=to, to_seat=ts, text_en=text_en, text_de=text_de,
                                   rule=rule, stack=stack, undoes=undoes,
                                   actor=actor if actor is not None and actor.is_authenticated else None)
    _push_instruction(t, i, tables)
    return i


# ---------------------------------------------------------------------------
# Snapshots

def snapshot(t: Tournament, now: float | None = None) -> dict[str, Any]:
    """The director's view of a tournament (JSON-ready; chips and money ints).

    Keys: ``seq``, ``id``, ``name``, ``rulebook``, ``status``, ``server_now``,
    ``clock`` (stored timestamps, ``periods`` with start seconds, ``state``
    at ``server_now``), ``players_left``, ``entries`` (count), ``average_stack``,
    ``prize_pool``, ``payouts`` (by place), ``places_paid``, ``bubble``,
    ``tables`` (number, table_id, seats with player/stack/absent, broken,
    live), ``seat_draw`` (player -> table, seat), ``registrations`` (with
    ``can``: which of ``re_enter``, ``surrender``, ``rebuy``, ``add_on`` the
    services would accept now, see :func:`entry_refusal`; ``rebuy_pending``:
    busted in a rebuy tournament, may rebuy before his next hand, 004 #27 --
    seats carry the same flag), ``finishes``,
    ``instructions`` (newest 40), ``public_token``.

    Five SQL queries whatever the number of tables (tables with their live
    flag, seats, entries, finishes, instructions).
    """
    now = time.time() if now is None else now
    clock = clock_of(t)
    st = clock.state(now)
    s = clock.structure
    tts = list(TournamentTable.objects.filter(tournament=t).select_related("table").annotate(
        live=Exists(Hand.objects.filter(pk=OuterRef("table__current_hand_id"), status=Hand.Status.LIVE)))
        .order_by("number"))
    by_table: dict[int, list] = {}
    for row in Seat.objects.filter(table_id__in=[tt.table_id for tt in tts], player__isnull=False).order_by(
            "table_id", "number").values_list("table_id", "number", "player_id", "player__name", "stack", "absent"):
        by_table.setdefault(row[0], []).append(row)
    entries = list(Entry.objects.filter(tournament=t).select_related("player").order_by("id"))
    seated_players = {e.player_id: e for e in entries if e.status == Entry.Status.SEATED}
    tables, draw, stacks = [], [], []
    for tt in tts:
        rows = []
        for _table_id, number, player_id, name, stack, absent in by_table.get(tt.table_id, []):
            entry = seated_players.get(player_id)
            rows.append({"seat": number, "player": name, "stack": stack, "absent": absent,
                         "rebuy_pending": bool(entry and entry.rebuy_pending),
                         "entry": entry.id if entry else None, "waits": bool(entry and entry.wait_hands)})
            draw.append({"player": name, "table": tt.number, "seat": number})
            stacks.append(stack)
        tables.append({"number": tt.number, "table_id": tt.table_id, "name": tt.table.name, "broken": tt.broken,
                       "seats": rows, "players": len(rows), "max_seats": tt.table.max_seats,
                       "live": tt.live, "h4h_hands": tt.h4h_hands})
    draw.sort(key=lambda d: d["player"].lower())
    payouts = payout_table_of(t, entries)
    finishes = [{"player": f.entry.player.name, "place": f.place, "place_worst": f.place_worst, "prize": f.prize,
                 "rule": f.rule}
                for f in Finish.objects.filter(tournament=t).select_related("entry__player").order_by("place", "id")]
    in_play = [e for e in entries if e.status in (Entry.Status.SEATED, Entry.Status.REGISTERED)]
    players_left = len(in_play)
    by_player: dict[int, list[Entry]] = {}
    for e in entries:
        by_player.setdefault(e.player_id, []).append(e)
    late_open = st.late_registration_open
    periods, start = [], 0
    for p in s.periods:
        if isinstance(p, eng.Level):
            periods.append({"kind": "level", "start": start, **_level_dict(p)})
        else:
            periods.append({"kind": "break", "start": start, "seconds": p.duration_seconds,
                            "color_up": list(p.color_up)})
        start += p.duration_seconds
    return {
        "seq": t.seq, "id": t.id, "name": t.name, "rulebook": t.rulebook, "status": t.status,
        "public_token": t.public_token, "server_now": now,
        "clock": {
            "started": clock.started_at is not None, "running": clock.running, "elapsed": st.elapsed,
            "hand_for_hand": clock.hand_for_hand, "hands_played": clock.hands_played,
            "periods": periods, "period_index": st.period_index, "level_number": st.level_number,
            "level": _level_dict(st.level), "on_break": st.on_break, "seconds_left": st.seconds_left,
            "next_level": _level_dict(st.next_level), "next_level_number": st.next_level_number,
            "seconds_to_next_level": st.seconds_to_next_level, "finished": st.finished,
            "late_registration_open": st.late_registration_open, "color_up": list(st.color_up),
            "next_break_in": _next_break_in(s, st),
        },
        "players_left": players_left,
        "entries": sum(1 for e in entries if e.status not in (Entry.Status.RESERVED, Entry.Status.WAITLISTED,
                                                                Entry.Status.EXPIRED)),
        "average_stack": (sum(stacks) // len(stacks)) if stacks else (t.starting_stack if players_left else 0),
        "prize_pool": payouts.prize_pool if payouts else 0,
        "payouts": list(payouts.amounts) if payouts else [],
        "places_paid": payouts.places_paid if payouts else 0,
        "bubble": payouts.bubble if payouts else None,
        "tables": tables,
        "seat_draw": draw,
        "registrations": [{"id": e.id, "player": e.player.name, "number": e.number, "status": e.status,
                           "rebuy_pending": e.rebuy_pending, "priority": e.priority, "late": e.late, "rebuys": e.rebuys, "add_ons": e.add_ons,
                           "can": {op: entry_refusal(t, op, e, by_player[e.player_id], late_open) is None
                                   for op in ENTRY_OPS}} for e in entries],
        "finishes": finishes,
        "instructions": [_instruction_message(i) for i in
                         Instruction.objects.filter(tournament=t).select_related("entry__player")
                         .order_by("-id")[:40]],
        "starting_stack": t.starting_stack, "buy_in": t.buy_in,
    }


def _next_break_in(s: eng.Structure, st: eng.ClockState) -> float | None:
    for i in range(st.period_index + 1, len(s.periods)):
        if isinstance(s.periods[i], eng.Break):
            return s.starts[i] - st.elapsed
    return None


PUBLIC_KEYS = ("seq", "id", "name", "rulebook", "status", "server_now", "clock", "players_left", "entries",
               "average_stack", "prize_pool", "payouts", "places_paid", "bubble", "seat_draw", "finishes")


def public_snapshot(full: dict) -> dict:
    """What the lobby screen may show (no registrations, stacks or instructions):
    the keys of ``PUBLIC_KEYS`` plus ``tables`` as number and player count."""
    data = {k: full[k] for k in PUBLIC_KEYS}
    data["tables"] = [{"number": tb["number"], "players": tb["players"]} for tb in full["tables"]
                      if not tb["broken"]]
    return data


def payout_table_of(t: Tournament, entries: list[Entry] | None = None) -> eng.PayoutTable | None:
    """The payout table: the edited amounts, or the house default from the
    prize pool (buy-ins of every entry, rebuys and add-ons included)."""
    entries = entries if entries is not None else list(Entry.objects.filter(tournament=t))
    paid = [e for e in entries if e.status not in (Entry.Status.RESERVED, Entry.Status.WAITLISTED,
                                                    Entry.Status.EXPIRED)]
    if len(paid) < 2:
        return None
    pool = t.buy_in * (len(paid) + sum(e.rebuys + e.add_ons for e in paid))
    if t.payouts and sum(t.payouts) == pool and len(t.payouts) <= len(paid):
        return eng.payout_table(pool, len(paid), amounts=t.payouts)
    return eng.payout_table(pool, len(paid))


# ---------------------------------------------------------------------------
# Create and register

def create_tournament(name: str, rulebook: str, structure: dict, *, starting_stack: int, buy_in: int = 0,
                      max_seats: int | None = None, capacity: int = 0, re_entries_allowed: int = 0,
                      rebuys_allowed: int = 0, add_ons_allowed: int = 0, seconds_per_hand: int = 120,
                      seed: int = 0, actor=None) -> Tournament:
    """Create a tournament in registration.

    ``rulebook`` -- ``"wynental"`` (001) or ``"munotpoker"`` (004);
    ``structure`` -- see :class:`~tournaments.models.Tournament`; checked by
    ``validate_structure`` (004 #81: antes are big blind antes equal to SB
    or BB).  ``max_seats`` defaults to the rulebook's final-table size (001:
    10, 004 #78: 9).  Rebuys and add-ons only when allowed: 001
    "Re-buy/Add-on" allows none unless the Turnierreglement provides them.
    Raises ``ServiceError('invalid')``.
    """
    if rulebook not in RULEBOOKS:
        raise ServiceError("invalid", f"unknown rulebook {rulebook!r}")
    if not name or starting_stack <= 0 or buy_in < 0:
        raise ServiceError("invalid", "a tournament needs a name and a positive starting stack")
    rules = eng.rules_for(RULEBOOKS[rulebook])
    seats = max_seats or rules.max_seats
    if not 2 <= seats <= 10:
        raise ServiceError("invalid", "tables have 2 to 10 seats")
    s = parse_structure(structure)
    try:
        eng.validate_structure(s, rules)
    except ValueError as exc:
        raise ServiceError("invalid", str(exc)) from None
    with transaction.atomic():
        t = Tournament.objects.create(name=name, rulebook=rulebook, structure=structure, max_seats=seats,
                                      capacity=capacity, starting_stack=starting_stack, buy_in=buy_in,
                                      re_entries_allowed=re_entries_allowed, rebuys_allowed=rebuys_allowed,
                                      add_ons_allowed=add_ons_allowed, seconds_per_hand=seconds_per_hand,
                                      seed=seed)
        _record(t, "created", {"rulebook": rulebook, "structure": structure}, actor)
    return t


ENTRY_OPS = ("re_enter", "surrender", "rebuy", "add_on")
"""What the director may do with one registration (the buttons of the page)."""

_GONE = (Entry.Status.BUSTED, Entry.Status.SURRENDERED, Entry.Status.EXPIRED)


def entry_refusal(t: Tournament, op: str, entry: Entry, player_entries: list[Entry],
                  late_open: bool) -> ServiceError | None:
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
      Re-buy/Add-on: none unless provided; 004 #27), a seated player.
    * All: the tournament is running and the window is open.

    Codes: ``not_allowed``, ``invalid``, ``duplicate``, ``closed``.
    """
    rule = "001 Re-buy/Add-on" if t.rulebook == "wynental" else "004 72"
    if op == "re_enter":
        if engine_rules(t).late_entry == "none":
            return ServiceError("not_allowed", "001 Re-buy/Add-on: no late registration or re-entry in this rulebook")
        if entry.status != Entry.Status.BUSTED:
            return ServiceError("invalid", "only a busted player re-enters")
        if any(e.status not in _GONE for e in player_entries):
            return ServiceError("duplicate", f"{entry.player.name} has an entry already")
        if entry.number != max(e.number for e in player_entries):
            return ServiceError("invalid", "a player re-enters from his latest entry")
        if len(player_entries) - 1 >= t.re_entries_allowed:
            return ServiceError("not_allowed", "no re-entry left (004 #72)")
    elif op == "surrender":
        rule = "004 74"
        if t.rulebook != "munotpoker" or not t.re_entries_allowed:
            return ServiceError("not_allowed", "surrender exists only in MunotPoker re-entry tournaments (004 #74)")
        if entry.status != Entry.Status.SEATED or entry.rebuy_pending:
            return ServiceError("invalid", "only a seated player with chips surrenders")
        if len(player_entries) - 1 >= t.re_entries_allowed:
            return ServiceError("not_allowed", "no re-entry left (004 #74)")
    elif op in ("rebuy", "add_on"):
        rule = "001 Re-buy/Add-on" if t.rulebook == "wynental" else "004 27"
        allowed = t.add_ons_allowed if op == "add_on" else t.rebuys_allowed
        used = entry.add_ons if op == "add_on" else entry.rebuys
        if used >= allowed:
            word = "add-on" if op == "add_on" else "rebuy"
            return ServiceError("not_allowed", f"no {word} allowed ({rule})" if not allowed
                                else f"no {word} left ({rule})")
        if entry.status != Entry.Status.SEATED:
            return ServiceError("invalid", "only a seated player rebuys")
        if op == "add_on" and entry.rebuy_pending:
            return ServiceError("invalid", f"{entry.player.name} has lost his chips: rebuy or no rebuy first (004 27)")
    else:
        return ServiceError("invalid", f"unknown operation {op!r}")
    if t.status != Tournament.Status.RUNNING:
        return ServiceError("closed", "the tournament is not running")
    if not late_open:
        return ServiceError("closed", f"late registration has closed: no new stacks any more ({rule})")
    return None


def _refuse(t: Tournament, op: str, entry: Entry) -> None:
    """Raise :func:`entry_refusal`'s error, if any (inside the service's lock)."""
    player_entries = list(Entry.objects.filter(tournament=t, player_id=entry.player_id))
    error = entry_refusal(t, op, entry, player_entries, clock_of(t).state(time.time()).late_registration_open)
    if error is not None:
        raise error


def _player(name: str) -> Player:
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise ServiceError("invalid", "a player needs a name (up to 100 characters)")
    player = Player.objects.filter(name=name).order_by("id").first()
    return player or Player.objects.create(name=name)


def register(tournament_id: int, player_name: str, *, reserve: bool = False, actor=None) -> Entry:
    """Register (or reserve a place for) a player.

    Before the start: ``registered`` (or ``reserved`` with ``reserve``;
    reservations lapse at the start, 004 #73) unless the field is full
    (``capacity``), then ``waitlisted``.  After the start: late registration
    while the clock says it is open, with a full stack (004 #8), seated at
    once when a seat is free and nobody waits; else waitlisted (004 #73:
    the waitlist opens at the start).  001 has no late registration
    (``not_allowed``).  Errors: ``not_found``, ``invalid``, ``duplicate``,
    ``closed``, ``not_allowed``.
    """
    with transaction.atomic():
        t = _lock(tournament_id)
        player = _player(player_name)
        if Entry.objects.filter(tournament=t, player=player).exclude(
                status__in=[Entry.Status.BUSTED, Entry.Status.SURRENDERED, Entry.Status.EXPIRED]).exists():
            raise ServiceError("duplicate", f"{player.name} is already registered")
        if Entry.objects.filter(tournament=t, player=player).exists() and t.status != Tournament.Status.REGISTRATION:
            raise ServiceError("invalid", f"{player.name} busted before: that is a re-entry")
        number = Entry.objects.filter(tournament=t, player=player).count() + 1
        if t.status == Tournament.Status.REGISTRATION:
            full = t.capacity and Entry.objects.filter(
                tournament=t, status__in=[Entry.Status.REGISTERED, Entry.Status.RESERVED]).count() >= t.capacity
            status = Entry.Status.WAITLISTED if full else (Entry.Status.RESERVED if reserve else Entry.Status.REGISTERED)
            entry = Entry.objects.create(tournament=t, player=player, number=number, status=status)
            _record(t, "registered", {"entry": entry.id, "player": player.name, "status": status}, actor)
            return entry
        entry = Entry.objects.create(tournament=t, player=player, number=number, status=Entry.Status.WAITLISTED,
                                     late=True)
        _late_entry(t, entry, actor)
        return entry


def _late_entry(t: Tournament, entry: Entry, actor) -> None:
    """A late registration, re-entry or surrender's new entry (created
    waitlisted): allowed only while the clock's late registration is open
    and the rulebook has it; the waitlist is then worked off in its order
    (priority re-entries first, 004 #72; then by time, 004 #73), so the new
    entry is seated at once only when a place is free for it."""
    if t.status != Tournament.Status.RUNNING:
        raise ServiceError("closed", "the tournament is not running")
    rules = engine_rules(t)
    if rules.late_entry == "none":
        raise ServiceError("not_allowed", "001 Re-buy/Add-on: no late registration or re-entry in this rulebook")
    if not clock_of(t).state(time.time()).late_registration_open:
        raise ServiceError("closed", "late registration is closed")
    _clear_busted_seats(t)  # a re-entering player leaves his old seat first
    seated = {s["entry"]: s for s in _fill_waitlist(t, rules, fresh=entry.id)}
    _record(t, "late_entry", {"entry": entry.id, "player": entry.player.name, "priority": entry.priority,
                              "seated": seated.get(entry.id)}, actor)


def _re_entry_holds(t: Tournament) -> set[int]:
    """Busted entries whose player may still re-enter *at once* (004 #72):
    no hand has been dealt since at the table where he busted (that table
    still shows his last hand and is not broken), he has a re-entry left and
    has not re-entered, and late registration is open.  A place is kept for
    each of them: the waitlist does not take it (two queries)."""
    if t.rulebook != "munotpoker" or not t.re_entries_allowed or t.status != Tournament.Status.RUNNING:
        return set()
    if not clock_of(t).state(time.time()).late_registration_open:
        return set()
    rows = list(Finish.objects.filter(
        tournament=t, entry__status=Entry.Status.BUSTED, hand__isnull=False,
        hand__table__current_hand=F("hand"), hand__table__tournament_table__broken=False,
    ).values_list("entry_id", "entry__player_id", "entry__number"))
    if not rows:
        return set()
    counts = {p: (n, top) for p, n, top in Entry.objects.filter(tournament=t, player_id__in=[r[1] for r in rows])
              .values("player_id").annotate(n=Count("id"), top=Max("number")).values_list("player_id", "n", "top")}
    return {entry_id for entry_id, player_id, number in rows
            if counts[player_id][1] == number and counts[player_id][0] - 1 < t.re_entries_allowed}


def _places_free(t: Tournament, floor: list[eng.TableState]) -> int:
    """Places a waiting player could take now: free seats on the floor
    (pending moves applied), within the tournament's ``capacity``."""
    free = sum(ts.max_seats - len(ts.seats) for ts in floor)
    if t.capacity:
        free = min(free, t.capacity - Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count())
    return max(free, 0)


def _fill_waitlist(t: Tournament, rules: eng.TournamentRules, *, manual: bool = False,
                   fresh: int | None = None) -> list[dict]:
    """Seat waiting entries while places are free (inside the caller's lock).

    Order: priority re-entries made at once (004 #72), then by time of
    registration (004 #73); the first who cannot be seated stops the line.
    Places kept for busted players who may still re-enter at once
    (:func:`_re_entry_holds`) are not given to the others unless
    ``manual`` (the director's button).  Each seat is drawn at random
    among the free seats of the shortest tables (004 #8 with #7; between the
    small blind and the button he waits for the button), and the
    instruction goes to that table's tablet (``fresh``: the entry just
    registered, whose instruction says "late entry" rather than "from the
    waitlist").  Returns ``{"entry", "table", "seat", "waits", "rule"}`` for
    each seated entry.
    """
    waiting = list(Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED).select_related("player")
                   .order_by("-priority", "created_at", "id"))
    if not waiting or rules.late_entry == "none":
        return []
    floor, _ = _floor(t)
    free = _places_free(t, floor)
    held = 0 if manual else len(_re_entry_holds(t))
    seated = []
    for entry in waiting:
        if free - (0 if entry.priority else held) <= 0:
            break
        where = _seat_late(t, entry, rules, waitlist=entry.id != fresh)
        if where is None:
            break
        free -= 1
        seated.append({"entry": entry.id, **where})
    return seated


def _seat_late(t: Tournament, entry: Entry, rules: eng.TournamentRules, *, waitlist: bool = False) -> dict | None:
    """Draw a seat for a late entry (004 #8: as in #7, full stack; he waits
    for the button between the small blind and the button), seat him and
    instruct the table.  Returns ``{"table", "seat", "waits", "rule"}`` or
    None when no place is free."""
    floor, tts = _floor(t)
    if t.capacity and Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() >= t.capacity:
        return None
    # a seat a player is still to leave by a pending move is not free yet
    leaving: dict[int, dict[int, str]] = {}
    for number, seat in Instruction.objects.filter(tournament=t, kind="move", status="pending").exclude(
            from_table=0).values_list("from_table", "from_seat"):
        leaving.setdefault(number, {})[seat] = f"leaving {number}/{seat}"
    floor = [eng.TableState(ts.number, {**leaving.get(ts.number, {}), **ts.seats}, ts.max_seats, ts.positions)
             if ts.number in leaving else ts for ts in floor]
    try:
        late = eng.seat_late_entrant(entry.id, floor, rules, _rng(t))
    except ValueError:
        return None
    tt = tts[late.table]
    wait = 0
    table_state = next(ts for ts in floor if ts.number == late.table)
    if late.waits_for_button and table_state.positions is not None:
        wait = hands_until_button(late.seat, table_state.positions, [*table_state.seats, late.seat], rules)
    _take_seat(t, tt.table_id, late.seat, entry.player_id, t.starting_stack)
    entry.status = Entry.Status.SEATED
    entry.wait_hands = wait
    entry.save(update_fields=["status", "wait_hands"])
    if waitlist:
        how_en, how_de = "from the waitlist", "von der Warteliste"
    elif entry.number > 1:
        how_en, how_de = "re-entry", "Re-Entry"
    else:
        how_en, how_de = "late entry", "Späteinstieg"
    rule = f"{rules.cite('waitlist')}, {late.rule}" if waitlist else str(late.rule)
    text = f"{entry.player.name}: {how_en}, table {late.table} seat {late.seat}" + (
        ", waits for the button" if wait else "") + f" ({rule})"
    text_de = f"{entry.player.name}: {how_de}, Tisch {late.table} Platz {late.seat}" + (
        ", wartet auf den Button" if wait else "") + f" ({rule})"
    _instruct(t, "move", text, text_de, entry=entry, move=(0, 0, late.table, late.seat), rule=rule,
              stack=t.starting_stack)
    return {"table": late.table, "seat": late.seat, "waits": bool(wait), "rule": rule}


def check_in(entry_id: int, *, actor=None) -> Entry:
    """A reserved player checks in before the start (004 #73).  Errors:
    ``not_found``, ``invalid``."""
    with _locked_entry(entry_id) as (t, entry):
        if entry.status != Entry.Status.RESERVED or t.status != Tournament.Status.REGISTRATION:
            raise ServiceError("invalid", "only a reservation checks in, before the start")
        entry.status = Entry.Status.REGISTERED
        entry.save(update_fields=["status"])
        _record(t, "checked_in", {"entry": entry.id}, actor)
    return entry


def re_enter(entry_id: int, *, at_once: bool | None = None, actor=None) -> Entry:
    """A busted player enters again as a new registration (004 #72, 004 #27:
    "muss sich ... neu registrieren"), with a full stack (004 #8).

    Made at once after the bust it has priority over the waitlist (004 #72:
    "unmittelbar nach dem Ausscheiden"); ``at_once`` defaults to whether no
    hand has been dealt since at the table where he busted (see
    :func:`_held_for_re_entry`).  Seated at once when a place is free,
    else waitlisted.  Errors (``entry_refusal``): ``not_found``,
    ``invalid`` (not busted), ``duplicate``, ``not_allowed`` (no re-entries
    left, or 001), ``closed`` (not running, late registration over)."""
    with _locked_entry(entry_id) as (t, old):
        _refuse(t, "re_enter", old)
        if at_once is None:
            at_once = old.id in _re_entry_holds(t)
        count = Entry.objects.filter(tournament=t, player=old.player).count()
        entry = Entry.objects.create(tournament=t, player=old.player, number=count + 1,
                                     status=Entry.Status.WAITLISTED, priority=at_once, late=True)
        _late_entry(t, entry, actor)
    return entry


def surrender(entry_id: int, *, actor=None) -> Entry:
    """004 #74: a seated player gives up his stack for a new one in a
    re-entry tournament.  The old stack leaves play (004 #8); the new entry
    joins the waitlist without the priority of a re-entry, and the seat he
    left goes to the first player waiting (004 #73).  Errors
    (``entry_refusal``): ``not_found``, ``invalid``, ``not_allowed`` (001,
    no re-entries), ``closed``; ``hand_in_progress`` (he is in the live hand)."""
    with _locked_entry(entry_id) as (t, old):
        _refuse(t, "surrender", old)
        count = Entry.objects.filter(tournament=t, player=old.player).count()
        where = _seat_of(t, old.player_id)
        if where is not None:
            _set_seat(where[0].table_id, where[1], player_id=None)
        old.status = Entry.Status.SURRENDERED
        old.save(update_fields=["status"])
        entry = Entry.objects.create(tournament=t, player=old.player, number=count + 1,
                                     status=Entry.Status.WAITLISTED, priority=False, late=True)
        _record(t, "surrender", {"entry": old.id, "new_entry": entry.id, "rule": "004 74"}, actor)
        _late_entry(t, entry, actor)
    return entry


def seat_waitlist(tournament_id: int, *, actor=None) -> list[int]:
    """The director's button (a manual fallback: the waitlist is also worked
    off by itself whenever a place opens, :func:`fill_waitlist`): seat
    waitlisted entries while seats are free, priority re-entries first (004
    #72), then in order of registration (004 #73); places kept for an
    immediate re-entry are given away too.  Returns the seated entry ids.
    Errors: ``not_found``."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _clear_busted_seats(t)
        seated = [s["entry"] for s in _fill_waitlist(t, engine_rules(t), manual=True)]
        _record(t, "waitlist_seated", {"entries": seated, "manual": True}, actor)
    return seated


def fill_waitlist(tournament_id: int, *, actor=None) -> list[int]:
    """A place may have opened (a bust, a surrender, a hand dealt after a
    bust ends the re-entry priority): seat the first players of the waitlist
    in its order (004 #73, re-entries made at once first, 004 #72; see
    :func:`_fill_waitlist`).  Records an event only when somebody was
    seated.  Returns the seated entry ids.  Errors: ``not_found``."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Tournament.Status.RUNNING:
            return []
        _clear_busted_seats(t)
        seated = _fill_waitlist(t, engine_rules(t))
        if seated:
            _record(t, "waitlist_seated", {"entries": [s["entry"] for s in seated], "seats": seated}, actor)
    return [s["entry"] for s in seated]


def rebuy(entry_id: int, *, add_on: bool = False, actor=None) -> Entry:
    """A rebuy (or add-on) of a full starting stack, only where the structure
    allows it (001 Re-buy/Add-on: none unless provided; 004 #27: in a rebuy
    tournament at once, between hands), while late registration is open.
    A player who lost his chips (``rebuy_pending``, :func:`_offer_rebuys`)
    gets his stack in the same seat before his table's next hand, so he
    misses no hand and posts his blinds/antes at once (004 #27).
    Errors (``entry_refusal``): ``not_found``, ``not_allowed``, ``invalid``,
    ``closed``; ``hand_in_progress``."""
    with _locked_entry(entry_id) as (t, entry):
        _refuse(t, "add_on" if add_on else "rebuy", entry)
        rule = "001 Re-buy/Add-on" if t.rulebook == "wynental" else "004 27"
        tt, seat = _seat_of(t, entry.player_id)
        stack = Seat.objects.get(table_id=tt.table_id, number=seat).stack
        table_services.set_seat(tt.table_id, seat, player_id=entry.player_id, stack=stack + t.starting_stack)
        if add_on:
            entry.add_ons += 1
        else:
            entry.rebuys += 1
        was_pending = entry.rebuy_pending
        entry.rebuy_pending = False
        entry.save(update_fields=["add_ons", "rebuys", "rebuy_pending"])
        if was_pending:
            Instruction.objects.filter(tournament=t, kind="rebuy", entry=entry, status="pending").update(
                status="done")
        _record(t, "add_on" if add_on else "rebuy", {"entry": entry.id, "rule": rule, "after_bust": was_pending},
                actor)
    return entry


def _set_seat(table_id: int, number: int, *, player_id: int | None, stack: int = 0, absent: bool = False) -> None:
    """``tables.services.set_seat`` plus the seat's ``absent`` flag (which
    set_seat leaves alone): a seat emptied or given to a newcomer is not
    absent; a moved player keeps his.  A change of the flag goes to the
    table's tablet (:func:`_push_absent`)."""
    table_services.set_seat(table_id, number, player_id=player_id, stack=stack)
    if Seat.objects.filter(table_id=table_id, number=number).exclude(absent=absent).update(absent=absent):
        _push_absent(table_id)


def _take_seat(t: Tournament, table_id: int, number: int, player_id: int, stack: int) -> None:
    """Seat a newcomer; a busted player still sitting there (stack 0, no
    seated entry) leaves first."""
    holder = Seat.objects.filter(table_id=table_id, number=number).values_list("player_id", "stack").first()
    if holder and holder[0] not in (None, player_id) and holder[1] == 0 and not Entry.objects.filter(
            tournament=t, player_id=holder[0], status=Entry.Status.SEATED).exists():
        _set_seat(table_id, number, player_id=None)
    _set_seat(table_id, number, player_id=player_id, stack=stack)


def _clear_busted_seats(t: Tournament) -> int:
    """Busted (or surrendered) players still in a seat with no chips leave
    it.  Returns the seats cleared."""
    ids = list(TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True))
    seated = set(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).values_list("player_id", flat=True))
    gone = set(Entry.objects.filter(tournament=t).exclude(status=Entry.Status.SEATED)
               .values_list("player_id", flat=True)) - seated
    cleared = 0
    for table_id, number in Seat.objects.filter(table_id__in=ids, player_id__in=gone, stack=0).values_list(
            "table_id", "number"):
        _set_seat(table_id, number, player_id=None)
        cleared += 1
    return cleared


def _seat_of(t: Tournament, player_id: int) -> tuple[TournamentTable, int] | None:
    seat = Seat.objects.filter(player_id=player_id, table__tournament_table__tournament=t,
                               table__tournament_table__broken=False).first()
    if seat is None:
        return None
    return TournamentTable.objects.get(table_id=seat.table_id), seat.number


# ---------------------------------------------------------------------------
# Start: seat draw, tables, clock

def start(tournament_id: int, *, start_clock: bool = True, actor=None) -> Tournament:
    """Start: reservations not checked in lapse and the waitlist opens (004
    #73): the places they release go to the waitlist in its order, and
    those players draw seats with everybody; every registered player draws a seat card (001 Sitzverteilung, 004
    #7); tables are opened (``tables.Table`` with the rulebook's house-rule
    profile); the first button is drawn (001 Dealerbutton) or on seat 1
    (004 #75); the clock starts.  Errors: ``invalid`` (not in registration,
    fewer than two players)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Tournament.Status.REGISTRATION:
            raise ServiceError("invalid", "the tournament has started already")
        expired = Entry.objects.filter(tournament=t, status=Entry.Status.RESERVED).update(status=Entry.Status.EXPIRED)
        promoted = _promote_waitlist(t)
        entries = list(Entry.objects.filter(tournament=t, status=Entry.Status.REGISTERED).select_related("player"))
        if len(entries) < 2:
            raise ServiceError("invalid", "at least two registered players are needed")
        rules = engine_rules(t)
        draw = eng.draw_seats([e.id for e in entries], rules, _rng(t))
        first = parse_structure(t.structure).periods[0]
        by_id = {e.id: e for e in entries}
        seats_total = rules.final_table_seats
        for ts in draw.tables:
            table = table_services.create_table(
                f"{t.name[:40]} #{t.id} T{ts.number}", small_blind=first.small_blind, big_blind=first.big_blind,
                max_seats=seats_total, rules_profile=t.rulebook)
            TournamentTable.objects.create(tournament=t, table=table, number=ts.number,
                                           first_button=ts.positions.button if ts.positions else None)
            for seat, entry_id in ts.seats.items():
                table_services.set_seat(table.id, seat, player_id=by_id[entry_id].player_id, stack=t.starting_stack)
        Entry.objects.filter(pk__in=list(by_id)).update(status=Entry.Status.SEATED)
        t.status = Tournament.Status.RUNNING
        fields = ["status"]
        if start_clock:
            _store_clock(t, clock_of(t).start(time.time()))
            fields += ["clock_started_at"]
        _record(t, "started", {"expired_reservations": expired, "from_waitlist": promoted,
                               "rules": [str(c) for c in draw.rules],
                               "cards": [[c.player, c.table, c.seat] for c in draw.cards]}, actor, tuple(fields))
    return t


def _promote_waitlist(t: Tournament) -> list[int]:
    """At the start (004 #73): places released by lapsed reservations go to
    the waitlist in its order (``capacity``); those entries become
    registered and draw a seat.  Returns their ids."""
    waiting = list(Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED).order_by("created_at", "id"))
    if not waiting:
        return []
    if t.capacity:
        room = t.capacity - Entry.objects.filter(tournament=t, status=Entry.Status.REGISTERED).count()
        waiting = waiting[:max(room, 0)]
    ids = [e.id for e in waiting]
    Entry.objects.filter(pk__in=ids).update(status=Entry.Status.REGISTERED)
    return ids


# ---------------------------------------------------------------------------
# Clock

def clock_action(tournament_id: int, op: str, *, seconds: int = 0, level: int | None = None,
                 actor=None) -> Tournament:
    """Operate the clock: ``op`` is ``start``, ``pause``, ``resume``,
    ``adjust`` (``seconds``, +/-), ``jump`` (1-based ``level``),
    ``hand_for_hand`` (enter, 004 #77) or ``leave_hand_for_hand``.  The
    clock is stored as timestamps; a new level applies from the next hand
    (001 Neues Limit, 004 #23).  Errors: ``invalid`` (``ClockError``)."""
    with transaction.atomic():
        t = _lock(tournament_id, with_tables=False)
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
                clock = clock.jump_to_level(int(level), now)
            elif op == "hand_for_hand":
                if t.rulebook != "munotpoker":
                    raise ServiceError("not_allowed", "hand-for-hand is a rule of 004 (#77)")
                clock = clock.enter_hand_for_hand(now, t.seconds_per_hand)
                TournamentTable.objects.filter(tournament=t).update(h4h_hands=0)
            elif op == "leave_hand_for_hand":
                clock = clock.leave_hand_for_hand(now)
            else:
                raise ServiceError("invalid", f"unknown clock operation {op!r}")
        except (eng.ClockError, TypeError, ValueError) as exc:
            raise ServiceError("invalid", str(exc)) from None
        _store_clock(t, clock)
        _record(t, f"clock_{op}", {"seconds": seconds, "level": level, "at": now}, actor,
                ("clock_started_at", "clock_paused_at", "clock_paused_total", "clock_offset", "hand_for_hand",
                 "hands_played_h4h"))
        if op in ("hand_for_hand", "jump"):
            st = clock.state(now)
            if op == "hand_for_hand":
                _instruct(t, "hand_for_hand", "Hand-for-hand: finish the hand and wait for all tables (004 #77)",
                          "Hand für Hand: Hand beenden und auf alle Tische warten (004 #77)", rule="004 77")
            elif st.level is not None:
                lv = st.level
                _instruct(t, "level", f"Level {st.level_number}: {lv.small_blind}/{lv.big_blind}"
                          f"{' ante ' + str(lv.ante) if lv.ante else ''} from the next hand",
                          f"Level {st.level_number}: {lv.small_blind}/{lv.big_blind}"
                          f"{' Ante ' + str(lv.ante) if lv.ante else ''} ab der nächsten Hand",
                          rule=str(engine_rules(t).cite("new_level")))
    return t


# ---------------------------------------------------------------------------
# The floor as engine values

def _floor(t: Tournament, *, pending: bool = True) -> tuple[list[eng.TableState], dict[int, TournamentTable]]:
    """The floor as ``TableState`` values (player id = entry id), with the
    pending moves already applied (their seats are taken)."""
    tts = {tt.number: tt for tt in TournamentTable.objects.filter(tournament=t, broken=False)}
    entry_of = dict(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).values_list("player_id", "id"))
    seats: dict[int, dict[int, int]] = {n: {} for n in tts}
    number_of = {tt.table_id: n for n, tt in tts.items()}
    for table_id, number, player_id, stack in Seat.objects.filter(
            table_id__in=number_of, player__isnull=False).values_list("table_id", "number", "player_id", "stack"):
        if player_id in entry_of:
            seats[number_of[table_id]][number] = entry_of[player_id]
    rules = engine_rules(t)
    floor = []
    for n, tt in sorted(tts.items()):
        size = rules.final_table_seats if len(tts) == 1 else t.max_seats
        floor.append(eng.TableState(n, seats[n], max(size, max(seats[n], default=0)), _positions(tt)))
    if pending:
        moves = [eng.Move(i.entry_id, i.from_table, i.from_seat, i.to_table, i.to_seat, ("", ""))
                 for i in Instruction.objects.filter(tournament=t, kind="move", status="pending")
                 .exclude(from_table=0)]
        moves = [m for m in moves if m.from_table in tts and m.to_table in tts]
        if moves:
            try:
                floor = eng.apply_moves(floor, moves)
            except ValueError:
                pass
    return floor, tts


def _positions(tt: TournamentTable) -> Positions | None:
    p = tt.positions
    if not p:
        return None
    return Positions(p["button"], p["small_blind"], p["big_blind"], p.get("dead_button", False),
                     p.get("dead_small_blind", False), p.get("heads_up", False))


# ---------------------------------------------------------------------------
# Hands: the spec provider and the hand_completed receiver

def spec_provider(table: Table, seats: list[Seat]) -> HandSpec | None:
    """``tables.services.SPEC_PROVIDERS`` entry: the next hand of a tournament
    table, or ``None`` for other tables.

    * Button and blinds: first hand at the drawn button (001 Dealerbutton)
      or seat 1 (004 #75); then dead button (001 6.10) or none (004 #32);
      heads-up (001 Heads up, 004 #34).
    * Blinds and ante of the level running now: a new level applies from the
      next hand (001 Neues Limit, 004 #23).  Big blind ante posted by the
      big blind, no reduction short-handed, ante first when short (004
      #81-82: the engine posts antes before blinds).
    * Players waiting for the button (001 Tischauflösung, 004 #8) are not
      dealt in; absent players are (their hands are killed after the blinds
      by ``tables.services``: 001 Sitzverteilung, 004 #30).
    * A player of this table still ``rebuy_pending`` (004 #27) missed his
      rebuy: his bust is recorded now, as a normal bust.
    * A hand dealt after a bust here ends that player's priority for an
      immediate re-entry (004 #72): after the commit the waitlist takes the
      place kept for him (:func:`fill_waitlist`).
    Errors (``ServiceError``): ``not_started``, ``on_break``,
    ``moves_pending`` (a player must leave first), ``hand_for_hand_wait``,
    ``not_enough_players``.
    """
    tt = TournamentTable.objects.filter(table_id=table.id).select_related("tournament").first()
    if tt is None:
        return None
    t = tt.tournament
    rules = engine_rules(t)
    if t.status != Tournament.Status.RUNNING or t.clock_started_at is None:
        raise ServiceError("not_started", "the tournament clock has not started")
    if tt.broken:
        raise ServiceError("table_closed", "this table has been broken")
    if Instruction.objects.filter(tournament=t, kind="move", status="pending", from_table=tt.number).exists():
        raise ServiceError("moves_pending", "a player must change tables before the next hand")
    clock = clock_of(t)
    now = time.time()
    st = clock.state(now)
    if st.on_break:
        raise ServiceError("on_break", "the tournament is on a break")
    if clock.hand_for_hand and tt.h4h_hands > clock.hands_played:
        raise ServiceError("hand_for_hand_wait", "hand-for-hand: wait until every table has finished (004 #77)")
    try:
        hl = level_for_hand(clock, now, rules)
    except eng.ClockError as exc:
        raise ServiceError("invalid", str(exc)) from None
    waiting = set(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED, wait_hands__gt=0)
                  .values_list("player_id", flat=True))
    live = [s for s in seats if s.player_id is not None and s.stack > 0 and s.player_id not in waiting]
    occupied = [s.number for s in live]
    if len(occupied) < 2:
        raise ServiceError("not_enough_players", "at least two players with chips are needed")
    prev = _positions(tt)
    if prev is None:
        button = tt.first_button if tt.first_button in occupied else eng.draw_button(occupied, rules, _rng(t))[0]
        pos = eng.first_hand_positions(button, occupied, rules)
    else:
        pos = eng.next_positions(prev, occupied, rules)
    spec = build_hand_spec(pos, [SeatSpec(s.number, s.player.name, s.stack) for s in live], hl.level,
                           table_services.rules_for_table(table))
    tt.positions = {"button": pos.button, "small_blind": pos.small_blind, "big_blind": pos.big_blind,
                    "dead_button": pos.dead_button, "dead_small_blind": pos.dead_small_blind,
                    "heads_up": pos.heads_up, "rules": [str(c) for c in pos.rules],
                    "level": hl.level_number, "level_rule": str(hl.rule)}
    tt.save(update_fields=["positions"])
    if table.current_hand_id and Finish.objects.filter(hand_id=table.current_hand_id,
                                                       entry__status=Entry.Status.BUSTED).exists() \
            and Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED).exists():
        # 004 #72: a hand is dealt here after a bust, so a re-entry now is no
        # longer "at once": the place kept for it goes to the waitlist (004 #73).
        tournament_id = t.id
        transaction.on_commit(lambda: fill_waitlist(tournament_id), robust=True)
    lapsed = list(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED, rebuy_pending=True,
                                       player_id__in=[s.player_id for s in seats if s.player_id is not None])
                  .select_related("player"))
    if lapsed:
        # 004 #27: the next hand starts without their rebuy -- they are out.
        t = Tournament.objects.select_for_update().get(pk=t.id)
        _record_pending_busts(t, lapsed)
        payload = {"table": tt.number, "entries": [e.id for e in lapsed], "rule": "004 27"}
        if not _finish_if_won(t, rules, None):
            _after_busts(t, rules, True, "rebuy_lapsed", payload, None)
    return spec


def build_hand_spec(pos: Positions, seats: list[SeatSpec], level: eng.Level, rules) -> HandSpec:
    """The engine ``HandSpec`` for ``pos`` (button may be dead, the small
    blind may be missing, 001 6.10) with the level's blinds and ante.

    ``seats`` -- the players dealt in (any order).  A ``big_blind_ante`` is
    posted by the big blind only (004 #81); the engine posts it before the
    blind, so a short big blind pays the ante first (004 #82).
    """
    bba = level.ante if level.ante_kind == "big_blind_ante" else 0
    ante = level.ante if level.ante_kind == "ante" else 0
    ordered = sorted(seats, key=lambda s: s.seat)
    if pos.heads_up or len(ordered) == 2:
        return HandSpec.standard(ordered, button=pos.button, small_blind=level.small_blind,
                                 big_blind=level.big_blind, ante=ante, big_blind_ante=bba, rules=rules)
    after = [s for s in ordered if s.seat > pos.button] + [s for s in ordered if s.seat <= pos.button]
    blinds = [0] * len(after)
    antes = [ante] * len(after)
    index = {s.seat: i for i, s in enumerate(after)}
    if not pos.dead_small_blind and pos.small_blind in index:
        blinds[index[pos.small_blind]] = level.small_blind
    blinds[index[pos.big_blind]] = level.big_blind
    antes[index[pos.big_blind]] += bba
    return HandSpec(seats=tuple(after), blinds_or_straddles=tuple(blinds), antes=tuple(antes),
                    min_bet=level.big_blind, rules=rules, button_seat=pos.button)


def on_hand_completed(sender, table: Table, hand: Hand, start_stacks: dict, final_stacks: dict, **kwargs) -> None:
    """``tables.signals.hand_completed`` receiver (inside the table's transaction).

    Records busts (:func:`_record_busts`: placed by the stacks at the start
    of the hand, 001 Ende des Turniers / 003; after hand-for-hand is
    announced busts of one hand share, 004 #79) -- a player who was absent
    and blinded out busts the same way (001 Sitzverteilung, 004 #30) --,
    counts the hand for hand-for-hand (004 #77), counts down players waiting
    for the button, and after the commit works off the waitlist (004 #73,
    :func:`fill_waitlist`), plans balancing/breaking moves and makes the
    moves whose source table is between hands.
    """
    tt = TournamentTable.objects.filter(table_id=table.id).first()
    if tt is None or hand.status != Hand.Status.COMPLETE:
        return
    t = Tournament.objects.select_for_update().get(pk=tt.tournament_id)
    rules = engine_rules(t)
    busted_seats = [s for s, stack in final_stacks.items() if stack == 0 and start_stacks.get(s, 0) > 0]
    dealt_names = {int(s["seat"]): s["player"] for s in hand.spec["seats"]}
    seat_players = dict(table.seats.filter(number__in=busted_seats).values_list("number", "player_id"))
    payload: dict[str, Any] = {"table": tt.number, "hand": hand.id, "busts": []}
    if busted_seats:
        entries = {e.player_id: e for e in Entry.objects.filter(
            tournament=t, status=Entry.Status.SEATED, player_id__in=seat_players.values()).select_related("player")}
        out = [(entries[seat_players[s]], start_stacks[s]) for s in busted_seats if seat_players.get(s) in entries]
        out, pending = _offer_rebuys(t, out, hand, tt.number)
        _record_busts(t, rules, out, hand=hand)
        payload["rebuy_pending"] = [e.id for e, _stack in pending]
        out_players = {e.player_id for e, _stack in out}
        payload["busts"] = [{"player": dealt_names.get(s), "seat": s, "stack_at_start": start_stacks[s]}
                            for s in busted_seats if seat_players.get(s) in out_players]
    wait_done = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED, wait_hands__gt=0,
                                     player__seats__table=table)
    for e in wait_done:
        e.wait_hands -= 1
        e.save(update_fields=["wait_hands"])
    if t.hand_for_hand:
        tt.h4h_hands += 1
        tt.save(update_fields=["h4h_hands"])
        _step_hand_for_hand(t, rules)
    if _finish_if_won(t, rules, hand):
        return
    _after_busts(t, rules, bool(payload["busts"]), "hand_completed", payload, None,
                 ("hand_for_hand", "hands_played_h4h", "clock_offset"))


def _offer_rebuys(t: Tournament, out: list[tuple[Entry, int]], hand: Hand,
                  table_number: int) -> tuple[list[tuple[Entry, int]], list[tuple[Entry, int]]]:
    """004 #27: in a rebuy tournament a rebuy must follow a bust at once.

    ``out`` -- ``(entry, stack at the start of the hand)`` of the players who
    lost their last chip in ``hand``.  Those whom :func:`entry_refusal`
    allows a rebuy now (rebuys left, the rebuy period open; 001 Re-buy/Add-on:
    none unless the structure provides them) in a rebuy tournament (no
    re-entries: "entspricht nicht Re-entry") and not in hand-for-hand
    keep their seat with 0 chips and are marked ``rebuy_pending``; the tablet
    and the director are told.  Returns ``(bust now, rebuy pending)``.
    """
    if not out or t.hand_for_hand or not t.rebuys_allowed or t.re_entries_allowed:
        return out, []  # a re-entry tournament (004 #72) busts at once, as does one without rebuys
    late_open = clock_of(t).state(time.time()).late_registration_open
    bust, pending = [], []
    for e, stack in out:
        player_entries = list(Entry.objects.filter(tournament=t, player_id=e.player_id))
        if entry_refusal(t, "rebuy", e, player_entries, late_open) is not None:
            bust.append((e, stack))
            continue
        e.rebuy_pending, e.rebuy_stack, e.rebuy_hand = True, stack, hand
        e.save(update_fields=["rebuy_pending", "rebuy_stack", "rebuy_hand"])
        _instruct(t, "rebuy", f"{e.player.name} may rebuy now, before the next hand (004 #27)",
                  f"{e.player.name} kann jetzt rebuyen, vor der nächsten Hand (004 #27)", entry=e,
                  status="pending", rule="004 27", tables={table_number})
        pending.append((e, stack))
    return bust, pending


def _record_pending_busts(t: Tournament, entries: list[Entry]) -> None:
    """Record the busts of rebuy-pending ``entries`` (no rebuy, 004 #27) as
    a normal bust: placed by the stack at the start of the hand they busted
    in (001 Ende des Turniers / 003), paid, and their ``rebuy``
    instruction done.  Placed at once (not in a hand-for-hand round)."""
    for e in entries:
        e.rebuy_pending = False
        e.save(update_fields=["rebuy_pending"])
        Instruction.objects.filter(tournament=t, kind="rebuy", entry=e, status="pending").update(status="done")
    _record_busts(t, engine_rules(t), [(e, e.rebuy_stack) for e in entries], hand=None)
    for e in entries:
        Finish.objects.filter(entry=e, hand__isnull=True).update(hand=e.rebuy_hand)


def decline_rebuy(entry_id: int, *, actor=None) -> Entry:
    """The director records "No rebuy" for a rebuy-pending player (004 #27):
    his bust is recorded now as a normal bust (place by his stack at the
    start of the hand he busted in, payout, waitlist, balancing).
    Errors: ``not_found``, ``invalid`` (no rebuy pending)."""
    with _locked_entry(entry_id) as (t, entry):
        if not entry.rebuy_pending or entry.status != Entry.Status.SEATED:
            raise ServiceError("invalid", f"{entry.player.name} has no rebuy pending")
        rules = engine_rules(t)
        _record_pending_busts(t, [entry])
        payload = {"entry": entry.id, "stack_at_start": entry.rebuy_stack, "rule": "004 27"}
        if not _finish_if_won(t, rules, None):
            _after_busts(t, rules, True, "rebuy_declined", payload, actor)
        else:
            _record(t, "rebuy_declined", payload, actor)
    entry.refresh_from_db()
    return entry


def _record_busts(t: Tournament, rules: eng.TournamentRules, out: list[tuple[Entry, int]], *,
                  hand: Hand | None = None) -> None:
    """The players of ``out`` (``(entry, stack before)`` pairs: his stack at
    the start of the hand, or before the chip race) are out: each entry is
    busted, a :class:`Finish` recorded, and the group placed and paid at
    once (001 Ende des Turniers: a higher stack before finishes better; 003
    Ausscheiden mehrerer Spieler; 004 #79) -- or, in a hand-for-hand round
    (004 #77), when every table has played it."""
    if not out:
        return
    players_before = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count()
    h4h_round = t.hands_played_h4h if t.hand_for_hand and hand is not None else None
    busts = []
    for e, stack in out:
        e.status = Entry.Status.BUSTED
        e.save(update_fields=["status"])
        Finish.objects.create(tournament=t, entry=e, hand=hand, stack_at_start=stack,
                              players_before=players_before, h4h_round=h4h_round)
        busts.append(eng.Bust(e.id, stack))
    if h4h_round is None:
        _place(t, busts, players_before, rules, hand_for_hand=False)


def _finish_if_won(t: Tournament, rules: eng.TournamentRules, hand: Hand | None) -> bool:
    """One player left: he wins (001 Ende des Turniers), the clock stops,
    the tournament is finished.  Returns whether it is."""
    remaining = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED)
    if remaining.count() != 1:
        return False
    winner = remaining.select_related("player").first()
    payouts = payout_table_of(t)
    f = eng.payouts.winner_finish(winner.id, payouts, rules)
    Finish.objects.create(tournament=t, entry=winner, hand=hand, place=1, place_worst=1, prize=f.prize,
                          rule=str(f.rule))
    t.status = Tournament.Status.FINISHED
    if t.clock_paused_at is None and t.clock_started_at is not None:
        _store_clock(t, clock_of(t).pause(time.time()))
    _record(t, "finished", {"winner": winner.player.name}, None, ("status", "clock_paused_at"))
    return True


def _after_busts(t: Tournament, rules: eng.TournamentRules, busted: bool, kind: str, payload: dict, actor,
                 fields: tuple[str, ...] = ()) -> None:
    """Record ``kind``; then the floor reacts to the places that opened.
    When players wait on the waitlist and somebody busted, the waitlist is
    worked off first (004 #73) and balancing is planned after it, both
    after the commit under the tournament's locks (:func:`_seat_and_plan`);
    else balancing/breaking is planned now.  Pending moves are made after
    the commit."""
    tournament_id = t.id
    if busted and Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED).exists():
        _record(t, kind, payload, actor, fields)
        transaction.on_commit(lambda: _seat_and_plan(tournament_id), robust=True)
    else:
        _plan(t, rules)
        _record(t, kind, payload, actor, fields)
    transaction.on_commit(lambda: execute_moves(tournament_id), robust=True)


def _seat_and_plan(tournament_id: int) -> None:
    """After busts with a waitlist: seat the waitlist, then plan balancing."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Tournament.Status.RUNNING:
            return
        rules = engine_rules(t)
        _clear_busted_seats(t)
        seated = _fill_waitlist(t, rules)
        _plan(t, rules)
        _record(t, "waitlist_seated", {"entries": [s["entry"] for s in seated], "seats": seated})


def _place(t: Tournament, busts: list[eng.Bust], players_before: int, rules: eng.TournamentRules,
           hand_for_hand: bool) -> None:
    payouts = payout_table_of(t)
    result = eng.place_busts(busts, players_before, rules, payouts, hand_for_hand=hand_for_hand)
    for f in result.finishes:
        Finish.objects.filter(entry_id=f.player, place__isnull=True).update(
            place=f.places[0], place_worst=f.places[1], prize=f.prize, rule=str(f.rule))


def _step_hand_for_hand(t: Tournament, rules: eng.TournamentRules) -> None:
    """004 #77: when every table has finished the hand, step the clock and
    place the round's busts together (004 #79)."""
    active = TournamentTable.objects.filter(tournament=t, broken=False)
    if any(tt.h4h_hands <= t.hands_played_h4h for tt in active):
        return
    round_no = t.hands_played_h4h
    pending = list(Finish.objects.filter(tournament=t, h4h_round=round_no, place__isnull=True))
    if pending:
        before = max(f.players_before for f in pending)
        _place(t, [eng.Bust(f.entry_id, f.stack_at_start) for f in pending], before, rules, hand_for_hand=True)
    _store_clock(t, clock_of(t).hand_completed())


def _plan(t: Tournament, rules: eng.TournamentRules, actor=None) -> None:
    """Plan breaking (001 Balancing / 004 #10, final table 001 / 004 #78) or
    else balancing (001 Balancing / 004 #11) on the floor with pending moves
    applied, and record each move as a pending instruction."""
    floor, tts = _floor(t)
    if len(floor) <= 1:
        return
    reg_open = clock_of(t).state(time.time()).late_registration_open and rules.late_entry != "none"
    plan = eng.plan_breaks(floor, rules, _rng(t), registration_open=reg_open)
    names = dict(Entry.objects.filter(tournament=t).values_list("id", "player__name"))
    if plan.broken_tables:
        for number in plan.broken_tables:
            tt = tts[number]
            tt.broken = True
            tt.save(update_fields=["broken"])
            _instruct(t, "break_table", f"Table {number} breaks: players take new seats by draw ({plan.rules[0]})",
                      f"Tisch {number} wird aufgelöst: neue Plätze per Los ({plan.rules[0]})", rule=str(plan.rules[0]),
                      tables={number}, actor=actor)
        if plan.final_table is not None:
            final = tts[plan.final_table]
            if plan.final_table_button is not None:
                final.first_button = plan.final_table_button
                final.positions = {}
                final.save(update_fields=["first_button", "positions"])
        for m in plan.moves:
            if (m.from_table, m.from_seat) == (m.to_table, m.to_seat):
                continue
            _move_instruction(t, m, names, actor)
        return
    balance = eng.plan_balancing(floor, rules, _rng(t))
    for m in balance.moves:
        _move_instruction(t, m, names, actor)


def _move_instruction(t: Tournament, m: eng.Move, names: dict, actor) -> Instruction:
    name = names.get(m.player, str(m.player))
    wait_en = f", sits out {m.hands_to_wait} hand(s) until the button" if m.waits_for_button else ""
    wait_de = f", setzt {m.hands_to_wait} Hand/Hände bis zum Button aus" if m.waits_for_button else ""
    return _instruct(
        t, "move", f"Move {name}: table {m.from_table} seat {m.from_seat} → table {m.to_table} seat {m.to_seat}"
        f"{wait_en} ({m.rule[0]} {m.rule[1]})",
        f"{name} umsetzen: Tisch {m.from_table} Platz {m.from_seat} → Tisch {m.to_table} Platz {m.to_seat}"
        f"{wait_de} ({m.rule[0]} {m.rule[1]})",
        entry=Entry.objects.get(pk=m.player), move=(m.from_table, m.from_seat, m.to_table, m.to_seat),
        status="pending", rule=f"{m.rule[0]} {m.rule[1]}", stack=m.hands_to_wait, actor=actor)


def execute_moves(tournament_id: int, *, actor=None) -> int:
    """Make every pending move whose source table is between hands: the
    player leaves with his stack and takes the new seat (during a hand there
    he waits for the next one).  Broken tables left empty are closed.
    Returns the number of moves made."""
    done = 0
    with transaction.atomic():
        t = _lock(tournament_id)
        tts = {tt.number: tt for tt in TournamentTable.objects.filter(tournament=t).select_related("table")}
        pending = list(Instruction.objects.filter(tournament=t, kind="move", status="pending")
                       .exclude(from_table=0).select_related("entry__player").order_by("id"))
        live = set(Table.objects.filter(pk__in=[tt.table_id for tt in tts.values()],
                                        current_hand__status=Hand.Status.LIVE).values_list("id", flat=True))
        _clear_busted_seats(t)  # busted players leave their seats first (a mover may take the seat)
        for i in pending:
            src, dst = tts[i.from_table], tts[i.to_table]
            if src.table_id in live:
                continue
            seat = Seat.objects.filter(table_id=src.table_id, number=i.from_seat).first()
            if seat is None or seat.player_id != i.entry.player_id:
                i.status = "cancelled"
                i.save(update_fields=["status"])
                _push_instruction(t, i)
                continue
            if Seat.objects.filter(table_id=dst.table_id, number=i.to_seat, player__isnull=False).exists():
                continue  # the seat is still held by a player who moves away later
            stack, absent = seat.stack, seat.absent  # an absent player stays absent at his new seat
            _set_seat(src.table_id, i.from_seat, player_id=None)
            _set_seat(dst.table_id, i.to_seat, player_id=i.entry.player_id, stack=stack, absent=absent)
            if i.stack:  # hands to wait for the button (001 Tischauflösung)
                Entry.objects.filter(pk=i.entry_id).update(wait_hands=i.stack)
            i.status = "done"
            i.save(update_fields=["status"])
            _push_instruction(t, i)
            done += 1
        for tt in tts.values():
            if tt.broken and tt.table.status == Table.Status.OPEN and not Seat.objects.filter(
                    table_id=tt.table_id, player__isnull=False).exists() and tt.table_id not in live:
                table_services.set_table_status(tt.table_id, Table.Status.CLOSED)
        if done:
            _record(t, "moves_made", {"moves": done}, actor)
    return done


def undo_move(instruction_id: int, *, actor=None) -> Instruction:
    """Undo a move: a pending move is cancelled; a move made is reversed by a
    new pending move back to the old seat (the audit trail keeps both).
    Errors: ``not_found``, ``invalid`` (not a move, undone already, or the
    player is no longer where the move put him or the old seat is taken)."""
    i = Instruction.objects.filter(pk=instruction_id).select_related("entry__player").first()
    if i is None:
        raise ServiceError("not_found", f"no instruction {instruction_id}")
    with transaction.atomic():
        t = _lock(i.tournament_id)
        i.refresh_from_db()
        if i.kind != "move" or not i.from_table or Instruction.objects.filter(undoes=i).exists():
            raise ServiceError("invalid", "only a move is undone, once")
        if i.status == "pending":
            i.status = "cancelled"
            i.save(update_fields=["status"])
            _push_instruction(t, i)
            _record(t, "move_cancelled", {"instruction": i.id}, actor)
            return i
        if i.status != "done":
            raise ServiceError("invalid", "this move was cancelled")
        tts = {tt.number: tt for tt in TournamentTable.objects.filter(tournament=t)}
        if tts[i.from_table].broken:
            raise ServiceError("invalid", "the old table has been broken")
        if not Seat.objects.filter(table_id=tts[i.to_table].table_id, number=i.to_seat,
                                   player_id=i.entry.player_id).exists():
            raise ServiceError("invalid", "the player is no longer in that seat")
        if Seat.objects.filter(table_id=tts[i.from_table].table_id, number=i.from_seat, player__isnull=False).exists():
            raise ServiceError("invalid", "the old seat is taken")
        name = i.entry.player.name
        back = _instruct(t, "move", f"Undo: move {name} back: table {i.to_table} seat {i.to_seat} → table "
                         f"{i.from_table} seat {i.from_seat}",
                         f"Rückgängig: {name} zurück: Tisch {i.to_table} Platz {i.to_seat} → Tisch "
                         f"{i.from_table} Platz {i.from_seat}", entry=i.entry,
                         move=(i.to_table, i.to_seat, i.from_table, i.from_seat), status="pending",
                         rule=i.rule, undoes=i, actor=actor)
        _record(t, "move_undone", {"instruction": i.id, "reverse": back.id}, actor)
    execute_moves(t.id, actor=actor)
    return back


def rebalance(tournament_id: int, *, actor=None) -> int:
    """Plan breaking/balancing now (the director's button) and make the
    moves that can be made.  Returns the moves made."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _plan(t, engine_rules(t), actor)
        _record(t, "rebalance", {}, actor)
    return execute_moves(tournament_id, actor=actor)


# ---------------------------------------------------------------------------
# Absent players (001 Sitzverteilung, 004 #30)

def _absent_seats(table_id: int) -> list[int]:
    return list(Seat.objects.filter(table_id=table_id, player__isnull=False, absent=True).order_by("number")
                .values_list("number", flat=True))


def _push_absent(table_id: int) -> None:
    """Tell the table's tablet which seats are absent now (on commit;
    ``{"type": "absent", "table_id", "seats"}``, no seq: like an instruction)."""
    send_on_commit([table_group(table_id)], {"type": "absent", "table_id": table_id,
                                             "seats": _absent_seats(table_id)})


def absent_state(table_id: int) -> dict[str, Any]:
    """The absent seats of a tournament table: ``{"tournament", "table"
    (number), "seats" (absent seat numbers), "players" ({seat: name}),
    "rule"}`` (``"001 Sitzverteilung"`` or ``"004 30"``).  Errors:
    ``not_found`` (not a tournament table)."""
    tt = TournamentTable.objects.filter(table_id=table_id).select_related("tournament").first()
    if tt is None:
        raise ServiceError("not_found", f"table {table_id} plays in no tournament")
    players = dict(Seat.objects.filter(table_id=table_id, player__isnull=False).values_list("number", "player__name"))
    return {"tournament": tt.tournament_id, "table": tt.number, "seats": _absent_seats(table_id),
            "players": players, "rule": str(engine_rules(tt.tournament).cite("absent"))}


def set_absent(table_id: int, seat_number: int, absent: bool, *, actor=None) -> dict[str, Any]:
    """Mark the player of a seat at a tournament table away from (or back
    at) his seat, from the tablet.  While absent his stack stays in play:
    he is dealt in, his blinds and antes are posted and his hand is killed
    at once (001 Sitzverteilung: "die Blinds werden automatisch bezahlt und
    die Karten gefoldet", with 6.14; 004 #30: not at the table when the last
    card of the initial deal is dealt, "ist die Hand tot").  The mark counts
    from the next deal.  A player blinded out busts as in any hand.

    Appends a tournament event citing the rule and tells the tablet.
    Returns :func:`absent_state`.  Errors: ``not_found`` (not a tournament
    table), ``table_closed`` (broken), ``no_such_seat``, ``empty_seat``.
    Marking twice changes nothing.
    """
    tt = TournamentTable.objects.filter(table_id=table_id).first()
    if tt is None:
        raise ServiceError("not_found", f"table {table_id} plays in no tournament")
    with transaction.atomic():
        t = _lock(tt.tournament_id)
        tt.refresh_from_db()
        if tt.broken:
            raise ServiceError("table_closed", "this table has been broken")
        seat = Seat.objects.filter(table_id=table_id, number=seat_number).select_related("player").first()
        if seat is None:
            raise ServiceError("no_such_seat", f"table has no seat {seat_number}")
        if seat.player_id is None:
            raise ServiceError("empty_seat", f"seat {seat_number} is empty")
        if seat.absent != bool(absent):
            seat.absent = bool(absent)
            seat.save(update_fields=["absent"])
            rule = str(engine_rules(t).cite("absent"))
            _record(t, "absent" if absent else "back", {"table": tt.number, "seat": seat_number,
                                                        "player": seat.player.name, "rule": rule}, actor)
            _push_absent(table_id)
    return absent_state(table_id)


# ---------------------------------------------------------------------------
# Chip race, payouts

def chip_race(tournament_id: int, table_number: int, removed: int, new: int, *,
              cards: dict[str, list[str]] | None = None, removed_chips: dict[str, int] | None = None,
              actor=None) -> ChipRaceRecord:
    """Color up ``removed`` chips into ``new`` chips at one table, between hands.

    ``cards`` -- the cards the dealer dealt, by player name (001 Chip Race:
    one per player with odd chips; 004 #24 / TDA: one per odd chip); when
    omitted the app draws them.  ``removed_chips`` -- chips of ``removed``
    each player holds (default: the odd value of his stack, ``stack % new``).
    The result is recorded and applied to the seats.  A player raced out
    under 001 busts: his finish is recorded, placed and paid exactly like a
    bust in a hand (:func:`_record_busts`; two raced out together are ranked
    by their stacks before the race), and the waitlist and balancing react
    as after a hand.  Under 004 #24 nobody busts: he keeps one chip of the
    new denomination.  Errors: ``not_found``, ``invalid``, ``hand_in_progress``.
    """
    with transaction.atomic():
        t = _lock(tournament_id)
        tt = TournamentTable.objects.filter(tournament=t, number=table_number, broken=False).first()
        if tt is None:
            raise ServiceError("not_found", f"no table {table_number}")
        if Hand.objects.filter(table_id=tt.table_id, status=Hand.Status.LIVE).exists():
            raise ServiceError("hand_in_progress", "race the chips between hands")
        rules = engine_rules(t)
        seats = list(Seat.objects.filter(table_id=tt.table_id, player__isnull=False, stack__gt=0)
                     .select_related("player"))
        removed_chips = removed_chips or {}
        try:
            entries = [eng.ChipRaceEntry(s.player.name, s.number, s.stack,
                                         int(removed_chips.get(s.player.name, (s.stack % new) // removed)))
                       for s in seats]
            result = eng.chip_race(entries, removed, new, rules, cards=cards, rng=None if cards else _rng(t))
        except ValueError as exc:
            raise ServiceError("invalid", str(exc)) from None
        for line, s in zip(sorted(result.lines, key=lambda ln: ln.seat), sorted(seats, key=lambda s: s.number)):
            if line.new_stack != s.stack:
                table_services.set_seat(tt.table_id, s.number, player_id=s.player_id, stack=line.new_stack)
        data = {"lines": [{"player": ln.player, "seat": ln.seat, "stack": ln.stack, "odd_value": ln.odd_value,
                           "rounded_up": ln.rounded_up, "cards": [str(c) for c in ln.cards],
                           "chips_won": ln.chips_won, "protected": ln.protected, "new_stack": ln.new_stack,
                           "eliminated": ln.eliminated} for ln in result.lines],
                "chips_awarded": result.chips_awarded, "chip_value_change": result.chip_value_change}
        record = ChipRaceRecord.objects.create(tournament=t, table_number=table_number, removed_denomination=removed,
                                               new_denomination=new, cards_from="dealer" if cards else "app",
                                               result=data, rule=str(result.rule),
                                               actor=actor if actor is not None and actor.is_authenticated else None)
        winners = ", ".join(f"{ln.player} +{ln.chips_won * new}" for ln in result.lines if ln.chips_won) or "-"
        out_en = "".join(f"; {ln.player} is out" for ln in result.lines if ln.eliminated)
        out_de = "".join(f"; {ln.player} scheidet aus" for ln in result.lines if ln.eliminated)
        kept_en = "".join(f"; {ln.player} keeps one {new} chip" for ln in result.lines if ln.protected)
        kept_de = "".join(f"; {ln.player} behält einen {new}er Chip" for ln in result.lines if ln.protected)
        _instruct(t, "chip_race", f"Chip race table {table_number}: {removed} chips out; {winners}{out_en}{kept_en} "
                  f"({result.rule})",
                  f"Chiprace Tisch {table_number}: {removed}er Chips raus; {winners}{out_de}{kept_de} ({result.rule})",
                  rule=str(result.rule), tables={table_number}, actor=actor)
        # 001 Chip Race: a player whose last chips are raced away is out, placed
        # and paid like a bust in a hand (001 Ende des Turniers); 004 #24: nobody is.
        by_seat = {s.number: s.player_id for s in seats}
        raced_out = {by_seat[ln.seat]: ln.stack for ln in result.lines if ln.eliminated}
        out = [(e, raced_out[e.player_id]) for e in Entry.objects.filter(
            tournament=t, status=Entry.Status.SEATED, player_id__in=raced_out).select_related("player")]
        _record_busts(t, rules, out)
        payload = {"table": table_number, "record": record.id, **data}
        if Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() == 1:
            _record(t, "chip_race", payload, actor)
            _finish_if_won(t, rules, None)
        else:
            _after_busts(t, rules, bool(out), "chip_race", payload, actor)
    return record


def set_payouts(tournament_id: int, amounts: list[int], *, actor=None) -> Tournament:
    """Replace the payout table by ``amounts`` (ints by place, first place
    first; they must add up to the prize pool and not increase).  An empty
    list restores the house default.  Errors: ``invalid``."""
    with transaction.atomic():
        t = _lock(tournament_id, with_tables=False)
        table = payout_table_of(t)
        if amounts:
            if table is None:
                raise ServiceError("invalid", "no prize pool yet")
            try:
                eng.payout_table(table.prize_pool, table.entrants, amounts=amounts)
            except (TypeError, ValueError) as exc:
                raise ServiceError("invalid", str(exc)) from None
        t.payouts = [int(a) for a in amounts]
        _record(t, "payouts", {"amounts": t.payouts}, actor, ("payouts",))
    return t
