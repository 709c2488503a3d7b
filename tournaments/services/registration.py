"""Create a tournament, register, check in, re-enter, surrender, rebuy and
start it (seat draw, tables, clock)."""

from __future__ import annotations

import time
from collections.abc import Hashable

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from poker import tournament as eng
from tables import services as table_services
from tables.models import Hand, Player, Seat, name_key
from tables.players import check_may_play
from tables.services import SeatChange
from tables.writepath import ServiceError, WriteStep
from tournaments.models import Entry, Instruction, Tournament, TournamentTable
from tournaments.services.delta import changed
from tournaments.services.floor_tables import stakes_of
from tournaments.services.places import record_surrender
from tournaments.services.reading import (
    GONE_STATUSES,
    RULEBOOKS,
    add_on_chips,
    clock_of,
    draw_rng,
    engine_rules,
    entry_refusal,
    parse_structure,
    rebuy_chips,
    rebuy_stack_refusal,
    store_clock,
)
from tournaments.services.waitlist import fill_waitlist_locked, late_entry, promote_waitlist, re_entry_holds
from tournaments.services.windows import has_own_window, window_open, window_refusal
from tournaments.services.writes import locked_entry, record_event, seat_of, set_seat, tournament_step


def create_tournament(
    name: str,
    rulebook: str,
    structure: dict,
    *,
    starting_stack: int,
    buy_in: int = 0,
    max_seats: int | None = None,
    capacity: int = 0,
    re_entries_allowed: int = 0,
    rebuys_allowed: int = 0,
    add_ons_allowed: int = 0,
    rebuy_max_stack: int | None = None,
    fee: int = 0,
    seconds_per_hand: int = 120,
    seed: int = 0,
    guarantee: int = 0,
    rebuy_cost: int | None = None,
    rebuy_chips: int | None = None,
    add_on_cost: int | None = None,
    add_on_chips: int | None = None,
    double_rebuy: bool = False,
    template: str = "",
    actor=None,
) -> Tournament:
    """Create a tournament in registration.

    ``rulebook`` -- ``"wynental"`` (001) or ``"munotpoker"`` (004);
    ``structure`` -- see :class:`~tournaments.models.Tournament`; checked by
    ``validate_structure`` (004 #81: antes are big blind antes equal to SB
    or BB).  ``max_seats`` defaults to the rulebook's final-table size (001:
    10, 004 #78: 9).  Rebuys and add-ons only when allowed: 001
    "Re-buy/Add-on" allows none unless the Turnierreglement provides them.
    ``rebuy_max_stack`` -- a rebuy only while the stack is at or below this
    (chips; ``None``: the starting stack); ``fee`` -- the rake per buy-in.
    ``guarantee`` -- the least prize pool (currency units, 0: none);
    ``rebuy_cost`` / ``add_on_cost`` (currency units into the pool) and
    ``rebuy_chips`` / ``add_on_chips`` -- ``None``: the buy-in and the
    starting stack; ``double_rebuy`` -- two rebuys at once allowed; ``template`` -- the create
    form's template it came from (``turbo``, ``saved:<id>``), named in the ``created`` event.
    Raises ``ServiceError('invalid')``.
    """
    if rulebook not in RULEBOOKS:
        raise ServiceError("invalid", _("unknown rulebook %(rulebook)s") % {"rulebook": rulebook})
    if not name or starting_stack <= 0 or buy_in < 0:
        raise ServiceError("invalid", _("a tournament needs a name and a positive starting stack"))
    rules = eng.rules_for(RULEBOOKS[rulebook])
    seats = max_seats or rules.max_seats
    if not 2 <= seats <= 10:
        raise ServiceError("invalid", _("tables have 2 to 10 seats"))
    s = parse_structure(structure)
    try:
        eng.validate_structure(s, rules)
    except ValueError as exc:
        raise ServiceError("invalid", str(exc)) from None
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name,
            rulebook=rulebook,
            structure=structure,
            max_seats=seats,
            capacity=capacity,
            starting_stack=starting_stack,
            buy_in=buy_in,
            re_entries_allowed=re_entries_allowed,
            rebuys_allowed=rebuys_allowed,
            add_ons_allowed=add_ons_allowed,
            rebuy_max_stack=rebuy_max_stack,
            fee=fee,
            seconds_per_hand=seconds_per_hand,
            seed=seed,
            guarantee=guarantee,
            rebuy_cost=rebuy_cost,
            rebuy_chips=rebuy_chips,
            add_on_cost=add_on_cost,
            add_on_chips=add_on_chips,
            double_rebuy=double_rebuy,
        )
        step = WriteStep(t)  # a row nobody else sees yet: nothing to lock or check
        payload = {"rulebook": rulebook, "structure": structure} | ({"template": template} if template else {})
        record_event(step, "created", payload, actor)
        step.finish()
    return t


def _refuse(t: Tournament, op: str, entry: Entry) -> None:
    """Raise :func:`entry_refusal`'s error, if any, then the window's
    (:func:`~tournaments.services.windows.window_refusal`: re-entry 004 #72,
    rebuy 004 #27, add-on; 001 Re-buy/Add-on) -- inside the service's lock."""
    player_entries = list(Entry.objects.filter(tournament=t, player_id=entry.player_id))
    stack = None
    if op == "rebuy":  # a rebuy only on a short stack, as the event sets it (004 #27)
        stack = (
            Seat.objects.filter(player_id=entry.player_id, table__tournament_table__tournament=t)
            .values_list("stack", flat=True)
            .first()
        )
    if has_own_window(t, op):
        error = entry_refusal(t, op, entry, player_entries, True) or window_refusal(t, op)
    else:  # the late-registration window (entry_refusal names it)
        error = entry_refusal(t, op, entry, player_entries, window_open(t, op))
    if error is None and op == "rebuy":
        error = rebuy_stack_refusal(t, entry, stack)
    if error is not None:
        raise error


def clean_name(name: str) -> str:
    """A player's name as typed, its spacing normalised: ``"  Anna   Müller "`` -> ``"Anna Müller"``.
    Raises ``ServiceError('invalid')`` for an empty name or one over 100 characters."""
    name = " ".join((name or "").split())
    if not name or len(name) > 100:
        raise ServiceError("invalid", _("a player needs a name (up to 100 characters)"))
    return name


"""Entries no longer in the tournament (a name of theirs may register again)."""


def _same_name(t: Tournament, name: str, *, exclude_player: int | None = None) -> Entry | None:
    """An entry of ``t`` still in it (not busted, surrendered, lapsed or cancelled) whose player's name
    is ``name`` apart from case, spaces and accents (:func:`name_key`): one query through the players'
    indexed ``name_key``, whatever the size of the field."""
    entries = Entry.objects.filter(tournament=t, player__name_key=name_key(name)).exclude(status__in=GONE_STATUSES)
    if exclude_player is not None:
        entries = entries.exclude(player_id=exclude_player)
    return entries.select_related("player").order_by("id").first()


def _player(name: str, t: Tournament | None = None) -> Player:
    """The player of ``name`` (spacing normalised): one who played in ``t`` under the same name apart
    from case, spaces and accents, else the first with exactly this name, else a new one (each lookup
    one query on the indexed ``name_key``)."""
    name = clean_name(name)
    key = name_key(name)
    if t is not None:
        player = Player.objects.filter(name_key=key, entries__tournament=t).order_by("id").first()
        if player is not None:
            return player
    player = Player.objects.filter(name_key=key, name=name).order_by("id").first()
    return player or Player.objects.create(name=name)


def search_players(query: str, *, limit: int = 10) -> list[Player]:
    """Known players for the registration desk's autocomplete: those with a name word beginning with
    ``query`` apart from case, spaces and accents (``"ann"``, ``"MÜL"`` and ``"anna mu"`` find "Anna
    Müller"), and by player ID (``"#123"`` or ``"123"``: that player first).  At most ``limit``
    players, the ID's first, then by name; an empty query finds none."""
    query = (query or "").strip()
    found: list[Player] = []
    digits = query[1:] if query.startswith("#") else query
    by_id = digits.isascii() and digits.isdigit() and len(digits) < 10
    if by_id:
        found = list(Player.objects.filter(pk=int(digits)))
    key = name_key(digits if by_id else query)
    if key and limit > len(found):
        by_name = (
            Player.objects.filter(Q(name_key__startswith=key) | Q(name_key__contains=" " + key))
            .exclude(pk__in=[p.pk for p in found])
            .order_by("name_key", "id")[: limit - len(found)]
        )
        found += list(by_name)
    return found[:limit]


def register(
    tournament_id: int, player_name: str = "", *, player_id: int | None = None, reserve: bool = False, actor=None
) -> Entry:
    """Register (or reserve a place for) a player: ``player_name`` (a returning player of the
    tournament under that name apart from case, spaces and accents, else one known by exactly that
    name, else a new player), or the known player ``player_id`` (the desk's search picked him:
    :func:`search_players`).

    Before the start: ``registered`` (or ``reserved`` with ``reserve``;
    reservations lapse at the start, 004 #73) unless the field is full
    (``capacity``), then ``waitlisted``.  A barred or self-excluded player is refused (``barred``,
    :func:`tables.players.check_may_play`).  After the start: late registration
    while the clock says it is open, with a full stack (004 #8), seated at
    once when a seat is free and nobody waits; else waitlisted (004 #73:
    the waitlist opens at the start).  001 has no late registration
    (``not_allowed``).  Errors: ``not_found``, ``invalid``, ``duplicate``,
    ``closed``, ``not_allowed``.
    """
    with tournament_step(tournament_id) as step:
        t = step.row
        known = None
        if player_id is not None:
            known = Player.objects.filter(pk=player_id).first()
            if known is None:
                raise ServiceError("not_found", _("no player #%(id)s") % {"id": player_id})
        same = _same_name(t, known.name if known else clean_name(player_name))
        if same is not None:
            raise ServiceError(
                "duplicate",
                _("%(player)s is already registered (a name differing only in case, spaces or accents)")
                % {"player": same.player.name},
            )
        player = known or _player(player_name, t)
        check_may_play(player)  # barred or self-excluded: refused, the reason to the desk (issue 28)
        if (
            Entry.objects.filter(tournament=t, player=player).exclude(status=Entry.Status.CANCELLED).exists()
            and t.status != Tournament.Status.REGISTRATION
        ):
            raise ServiceError("invalid", _("%(player)s busted before: that is a re-entry") % {"player": player.name})
        number = Entry.objects.filter(tournament=t, player=player).count() + 1
        if t.status == Tournament.Status.REGISTRATION:
            full = (
                t.capacity
                and Entry.objects.filter(
                    tournament=t, status__in=[Entry.Status.REGISTERED, Entry.Status.RESERVED]
                ).count()
                >= t.capacity
            )
            status = Entry.Status.WAITLISTED if full else Entry.Status.RESERVED if reserve else Entry.Status.REGISTERED
            entry = Entry.objects.create(tournament=t, player=player, number=number, status=status)
            changed(entries=[entry.id])
            record_event(step, "registered", {"entry": entry.id, "player": player.name, "status": status}, actor)
            return entry
        entry = Entry.objects.create(
            tournament=t, player=player, number=number, status=Entry.Status.WAITLISTED, late=True
        )
        changed(entries=[entry.id])
        late_entry(step, entry, actor)
        return entry


def check_in(entry_id: int, *, actor=None) -> Entry:
    """A reserved player checks in before the start (004 #73).  Errors:
    ``not_found``, ``invalid``."""
    with locked_entry(entry_id) as (step, entry):
        t = step.row
        if entry.status != Entry.Status.RESERVED or t.status != Tournament.Status.REGISTRATION:
            raise ServiceError("invalid", _("only a reservation checks in, before the start"))
        entry.status = Entry.Status.REGISTERED
        entry.save(update_fields=["status"])
        changed(entries=[entry.id])
        record_event(step, "checked_in", {"entry": entry.id}, actor)
    return entry


def cancel_entry(entry_id: int, *, note: str = "", actor=None) -> Entry:
    """Take a registration back and refund its buy-in (a mistake at the desk:
    the wrong player, the wrong tournament, paid twice).  The entry becomes
    ``cancelled``: it is no entry of the tournament, its buy-in, rebuys and
    add-ons leave the prize pool, it takes no place, and the player may
    register again.  A reservation, a registration or a waitlisted entry is
    cancelled at any time; a seated one only if he has not been in a hand
    since (a late entry sat down by mistake): his seat is emptied, his chips
    leave play, and the place goes to the waitlist (004 #73).  A busted or
    surrendered entry took its place and stays.  Audited
    (``entry_cancelled``, with ``note``).  Errors: ``not_found``,
    ``invalid``, ``hand_in_progress``."""
    with locked_entry(entry_id) as (step, entry):
        t = step.row
        if entry.status not in (
            Entry.Status.RESERVED,
            Entry.Status.REGISTERED,
            Entry.Status.WAITLISTED,
            Entry.Status.SEATED,
        ):
            raise ServiceError(
                "invalid",
                _("only a registration still in play is cancelled (%(player)s is %(status)s)")
                % {"player": entry.player.name, "status": entry.get_status_display()},
            )
        where = seat_of(t, entry.player_id) if entry.status == Entry.Status.SEATED else None
        stack = 0
        if where is not None:
            tt, seat = where
            if Hand.objects.filter(table_id=tt.table_id, status=Hand.Status.LIVE).exists():
                raise ServiceError(
                    "hand_in_progress",
                    _("a hand is live at table %(table)s: cancel between hands") % {"table": tt.number},
                )
            stack = Seat.objects.get(table_id=tt.table_id, number=seat).stack
            set_seat(tt.table_id, seat, player_id=None)
        before = entry.status
        entry.status = Entry.Status.CANCELLED
        entry.priority = False
        entry.rebuy_pending = False
        entry.save(update_fields=["status", "priority", "rebuy_pending"])
        changed(entries=[entry.id])
        record_event(
            step,
            "entry_cancelled",
            {
                "entry": entry.id,
                "player": entry.player.name,
                "status": before,
                "table": where[0].number if where else None,
                "seat": where[1] if where else None,
                "stack": stack,
                "refund_buy_ins": 1 + entry.rebuys + entry.add_ons,
                "note": note,
            },
            actor,
        )
        if where is not None and t.status == Tournament.Status.RUNNING:
            fill_waitlist_locked(t, engine_rules(t))
    return entry


def rename_entry(entry_id: int, name: str, *, note: str = "", actor=None) -> Entry:
    """Put right the name of a registration's player (spacing normalised).
    The player's entries in this tournament (re-entries too) and his seat
    follow; a player who also played elsewhere keeps his old name there (a
    new player takes the new name here).  Refused when another registration
    of the tournament has that name apart from case, spaces and accents.
    Audited (``entry_renamed``: from, to, ``note``).  Errors:
    ``not_found``, ``invalid``, ``duplicate``."""
    with locked_entry(entry_id) as (step, entry):
        t = step.row
        new = clean_name(name)
        old = entry.player
        previous = old.name
        if new == old.name:
            raise ServiceError("invalid", _("%(player)s has this name already") % {"player": new})
        same = _same_name(t, new, exclude_player=old.id)
        if same is not None:
            raise ServiceError(
                "duplicate",
                _("%(player)s is already registered (a name differing only in case, spaces or accents)")
                % {"player": same.player.name},
            )
        if Entry.objects.filter(player=old).exclude(tournament=t).exists():
            player = Player.objects.create(name=new)
            where = seat_of(t, old.id)
            Entry.objects.filter(tournament=t, player=old).update(player=player)
            if where is not None:
                seat = Seat.objects.get(table_id=where[0].table_id, number=where[1])
                set_seat(where[0].table_id, where[1], player_id=player.id, stack=seat.stack, absent=seat.absent)
        else:
            old.name = new
            old.save(update_fields=["name"])
        entry.refresh_from_db()
        entry.save(update_fields=["player"])
        changed(whole=True)  # his name on every row: the registrations, his seat, the draw
        record_event(step, "entry_renamed", {"entry": entry.id, "from": previous, "to": new, "note": note}, actor)
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
    with locked_entry(entry_id) as (step, old):
        t = step.row
        _refuse(t, "re_enter", old)
        if at_once is None:
            at_once = old.id in re_entry_holds(t)
        count = Entry.objects.filter(tournament=t, player=old.player).count()
        entry = Entry.objects.create(
            tournament=t,
            player=old.player,
            number=count + 1,
            status=Entry.Status.WAITLISTED,
            priority=at_once,
            late=True,
        )
        changed(entries=[entry.id])
        late_entry(step, entry, actor)
    return entry


def surrender(entry_id: int, *, actor=None) -> Entry:
    """004 #74: a seated player gives up his stack for a new one in a
    re-entry tournament.  The old stack leaves play (004 #8); the new entry
    joins the waitlist without the priority of a re-entry, and the seat he
    left goes to the first player waiting (004 #73).  Errors
    (``entry_refusal``): ``not_found``, ``invalid``, ``not_allowed`` (001,
    no re-entries), ``closed``; ``hand_in_progress`` (he is in the live hand)."""
    with locked_entry(entry_id) as (step, old):
        t = step.row
        _refuse(t, "surrender", old)
        count = Entry.objects.filter(tournament=t, player=old.player).count()
        where = seat_of(t, old.player_id)
        stack = 0
        if where is not None:
            stack = Seat.objects.get(table_id=where[0].table_id, number=where[1]).stack
            set_seat(where[0].table_id, where[1], player_id=None)
        old.status = Entry.Status.SURRENDERED
        old.save(update_fields=["status"])
        record_surrender(t, old, stack)  # the entry given up takes its place (tournaments.services.places)
        entry = Entry.objects.create(
            tournament=t, player=old.player, number=count + 1, status=Entry.Status.WAITLISTED, priority=False, late=True
        )
        changed(entries=[old.id, entry.id])
        record_event(step, "surrender", {"entry": old.id, "new_entry": entry.id, "rule": "004 #74"}, actor)
        late_entry(step, entry, actor)
    return entry


def rebuy(entry_id: int, *, add_on: bool = False, double: bool = False, actor=None) -> Entry:
    """A rebuy (or add-on) of its chips (``Tournament.rebuy_chips`` / ``add_on_chips``, by default
    the starting stack; into the pool at its cost, ``reading.pool_amounts``), only where the structure
    allows it (001 Re-buy/Add-on: none unless provided; 004 #27: in a rebuy
    tournament at once, between hands), while late registration is open.
    A player who lost his chips (``rebuy_pending``, :func:`offer_rebuys`)
    gets his stack in the same seat before his table's next hand, so he
    misses no hand and posts his blinds/antes at once (004 #27).
    ``double`` -- a double rebuy (two at once, twice the chips, counted as two rebuys) where the event
    allows it (``Tournament.double_rebuy``) and two rebuys are left (``not_allowed`` otherwise).
    Errors (``entry_refusal``): ``not_found``, ``not_allowed``, ``invalid``,
    ``closed``; ``hand_in_progress``."""
    with locked_entry(entry_id) as (step, entry):
        t = step.row
        _refuse(t, "add_on" if add_on else "rebuy", entry)
        count = _rebuy_count(t, entry, add_on, double)
        rule = "001 Re-buy/Add-on" if t.rulebook == "wynental" else "004 #27"
        place = seat_of(t, entry.player_id)
        if place is None:
            raise ServiceError("invalid", _("%(player)s has no seat") % {"player": entry.player.name})
        tt, seat = place
        stack = Seat.objects.get(table_id=tt.table_id, number=seat).stack
        chips = (add_on_chips(t) if add_on else rebuy_chips(t)) * count
        table_services.set_seat(tt.table_id, seat, player_id=entry.player_id, stack=stack + chips)
        changed(tables=[tt.table_id], entries=[entry.id])
        if add_on:
            entry.add_ons += 1
        else:
            entry.rebuys += count
        was_pending = entry.rebuy_pending
        entry.rebuy_pending = False
        entry.save(update_fields=["add_ons", "rebuys", "rebuy_pending"])
        if was_pending:
            offers = Instruction.objects.filter(tournament=t, kind="rebuy", entry=entry, status="pending")
            changed(instructions=list(offers.values_list("id", flat=True)))
            offers.update(status="done")
        record_event(
            step,
            "add_on" if add_on else "rebuy",
            {"entry": entry.id, "rule": rule, "after_bust": was_pending, "count": count, "chips": chips},
            actor,
        )
    return entry


def _rebuy_count(t: Tournament, entry: Entry, add_on: bool, double: bool) -> int:
    """How many rebuys one purchase counts: 2 for a double rebuy (only where ``Tournament.double_rebuy``
    allows it and two rebuys are left, 001 Re-buy/Add-on, 004 #27), else 1; ``ServiceError('not_allowed')``."""
    if not double:
        return 1
    rule = "001 Re-buy/Add-on" if t.rulebook == "wynental" else "004 #27"
    if add_on or not t.double_rebuy:
        raise ServiceError("not_allowed", _("no double rebuy in this tournament (%(rule)s)") % {"rule": rule})
    if t.rebuys_allowed - entry.rebuys < 2:
        raise ServiceError("not_allowed", _("a double rebuy needs two rebuys left (%(rule)s)") % {"rule": rule})
    return 2


def start(tournament_id: int, *, start_clock: bool = True, actor=None) -> Tournament:
    """Start: reservations not checked in lapse and the waitlist opens (004
    #73): the places they release go to the waitlist in its order, and
    those players draw seats with everybody; every registered player draws a seat card (001 Sitzverteilung, 004
    #7); tables are opened (``tables.Table`` with the rulebook's house-rule
    profile); the first button is drawn (001 Dealerbutton) or on seat 1
    (004 #75); the clock starts.  Errors: ``invalid`` (not in registration,
    fewer than two players)."""
    with tournament_step(tournament_id) as step:
        t = step.row
        if t.status != Tournament.Status.REGISTRATION:
            raise ServiceError("invalid", _("the tournament has started already"))
        expired = Entry.objects.filter(tournament=t, status=Entry.Status.RESERVED).update(status=Entry.Status.EXPIRED)
        promoted = promote_waitlist(t)
        entries = list(Entry.objects.filter(tournament=t, status=Entry.Status.REGISTERED).select_related("player"))
        if len(entries) < 2:
            raise ServiceError("invalid", _("at least two registered players are needed"))
        rules = engine_rules(t)
        draw = eng.draw_seats([e.id for e in entries], rules, draw_rng(t))
        first = parse_structure(t.structure).first_level
        by_id: dict[Hashable, Entry] = {e.id: e for e in entries}  # the engine's player ids are entry ids
        seats_total = rules.final_table_seats
        for ts in draw.tables:
            table = table_services.create_table(
                f"{t.name[:40]} #{t.id} T{ts.number}",
                **stakes_of(first),  # blinds and ante of level 1 (issue 23 #8)
                max_seats=seats_total,
                rules_profile=t.rulebook,
            )
            TournamentTable.objects.create(
                tournament=t, table=table, number=ts.number, first_button=ts.positions.button if ts.positions else None
            )
            table_services.set_seats(
                table.id,
                [
                    SeatChange(seat, by_id[entry_id].player_id, t.starting_stack)
                    for seat, entry_id in sorted(ts.seats.items())
                ],
            )
        Entry.objects.filter(pk__in=list(by_id)).update(status=Entry.Status.SEATED)
        changed(whole=True)  # the whole field is drawn: the start sends the whole snapshot
        t.status = Tournament.Status.RUNNING
        fields = ["status"]
        if start_clock:
            store_clock(t, clock_of(t).start(time.time()))
            fields += ["clock_started_at"]
        record_event(
            step,
            "started",
            {
                "expired_reservations": expired,
                "from_waitlist": promoted,
                "rules": [str(c) for c in draw.rules],
                "cards": [[c.player, c.table, c.seat] for c in draw.cards],
            },
            actor,
            tuple(fields),
        )
    return t
