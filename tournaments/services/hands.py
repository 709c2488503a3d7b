"""The tournament's side of a table's hands: the next hand's spec (dead
button, blinds of the level) and what a completed hand changes (busts,
hand-for-hand, players waiting for the button)."""

from __future__ import annotations

import time
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from poker import tournament as eng
from poker.hand import HandSpec, SeatSpec
from poker.tournament.buttons import Positions
from poker.tournament.clock import level_for_hand
from tables import services as table_services
from tables.models import Hand, HandEvent, Seat, Table
from tables.writepath import ServiceError
from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentTable
from tournaments.services.busts import (
    after_busts,
    finish_if_won,
    offer_rebuys,
    record_busts,
    record_pending_busts,
    step_hand_for_hand,
)
from tournaments.services.delta import changed
from tournaments.services.floor_tables import follow_level
from tournaments.services.moves import IN_TRANSIT
from tournaments.services.reading import clock_of, draw_rng, engine_rules, table_positions
from tournaments.services.waitlist import fill_waitlist
from tournaments.services.writes import push_absent, tournament_step


def spec_provider(table: Table, seats: list[Seat]) -> HandSpec | None:
    """``tables.hooks.register_spec_provider`` hook: the next hand of a
    tournament table (``button_seat`` set), or ``None`` for other tables.

    * Button and blinds: first hand at the drawn button (001 Dealerbutton)
      or seat 1 (004 #75); then dead button (001 6.10) or none (004 #32);
      heads-up (001 Heads up, 004 #34).
    * Blinds and ante of the level running now: a new level applies from the
      next hand (001 Neues Limit, 004 #23).  Big blind ante posted by the
      big blind, no reduction short-handed, ante first when short (004
      #81-82: the engine posts antes before blinds).
    * Players waiting for the button (001 Tischauflösung, 004 #8) are not
      dealt in, nor is a player on his way to another table (a move
      ``pending`` or ``moving`` until the tablets or the director confirm
      his arrival: he is dealt in at neither table, 004 #33); absent
      players are (their hands are killed after the blinds
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
        raise ServiceError("not_started", _("the tournament clock has not started"))
    if tt.broken:
        raise ServiceError("table_closed", _("this table has been broken"))
    if Instruction.objects.filter(tournament=t, kind="move", status="pending", from_table=tt.number).exists():
        raise ServiceError("moves_pending", _("a player must change tables before the next hand"))
    clock = clock_of(t)
    now = time.time()
    st = clock.state(now)
    if st.on_break:
        raise ServiceError("on_break", _("the tournament is on a break"))
    if clock.hand_for_hand and tt.h4h_hands > clock.hands_played:
        raise ServiceError("hand_for_hand_wait", _("hand-for-hand: wait until every table has finished (004 #77)"))
    try:
        hl = level_for_hand(clock, now, rules)
    except eng.ClockError as exc:
        raise ServiceError("invalid", str(exc)) from None
    follow_level(table, hl.level)  # the header and the floor tile show the stakes dealt (001 Neues Limit, 004 #23)
    waiting = set(
        Entry.objects.filter(tournament=t, status=Entry.Status.SEATED, wait_hands__gt=0).values_list(
            "player_id", flat=True
        )
    )
    # 004 #33: a player changing tables is dealt in at neither table until his arrival is confirmed.
    waiting |= set(
        Instruction.objects.filter(tournament=t, kind="move", status__in=IN_TRANSIT).values_list(
            "entry__player_id", flat=True
        )
    )
    live = [s for s in seats if s.player_id is not None and s.stack > 0 and s.player_id not in waiting]
    occupied = [s.number for s in live]
    if len(occupied) < 2:
        raise ServiceError("not_enough_players", _("at least two players with chips are needed"))
    prev = table_positions(tt)
    if prev is None:
        button = tt.first_button if tt.first_button in occupied else eng.draw_button(occupied, rules, draw_rng(t))[0]
        pos = eng.first_hand_positions(button, occupied, rules)
    else:
        pos = eng.next_positions(prev, occupied, rules)
    spec = build_hand_spec(
        pos,
        [SeatSpec(s.number, s.occupant.name, s.stack) for s in live],
        hl.level,
        table_services.rules_for_table(table),
    )
    tt.positions = {
        "button": pos.button,
        "small_blind": pos.small_blind,
        "big_blind": pos.big_blind,
        "dead_button": pos.dead_button,
        "dead_small_blind": pos.dead_small_blind,
        "heads_up": pos.heads_up,
        "rules": [str(c) for c in pos.rules],
        "level": hl.level_number,
        "level_rule": str(hl.rule),
    }
    tt.save(update_fields=["positions"])
    if (
        table.current_hand_id
        and Finish.objects.filter(hand_id=table.current_hand_id, entry__status=Entry.Status.BUSTED).exists()
        and Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED).exists()
    ):
        # 004 #72: a hand is dealt here after a bust, so a re-entry now is no
        # longer "at once": the place kept for it goes to the waitlist (004 #73).
        tournament_id = t.id
        transaction.on_commit(lambda: fill_waitlist(tournament_id), robust=True)
    lapsed = list(
        Entry.objects.filter(
            tournament=t,
            status=Entry.Status.SEATED,
            rebuy_pending=True,
            player_id__in=[s.player_id for s in seats if s.player_id is not None],
        ).select_related("player")
    )
    if lapsed:
        # 004 #27: the next hand starts without their rebuy -- they are out.
        with tournament_step(t.id, with_tables=False) as step:  # the hand holds this table already
            record_pending_busts(step.row, lapsed)
            payload = {"table": tt.number, "entries": [e.id for e in lapsed], "rule": "004 #27"}
            if not finish_if_won(step, rules, None, ("rebuy_lapsed", payload, None, ())):
                after_busts(step, rules, True, "rebuy_lapsed", payload, None)
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
        return HandSpec.standard(
            ordered,
            button=pos.button,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=ante,
            big_blind_ante=bba,
            rules=rules,
        )
    after = [s for s in ordered if s.seat > pos.button] + [s for s in ordered if s.seat <= pos.button]
    blinds = [0] * len(after)
    antes = [ante] * len(after)
    index = {s.seat: i for i, s in enumerate(after)}
    if not pos.dead_small_blind and pos.small_blind in index:
        blinds[index[pos.small_blind]] = level.small_blind
    blinds[index[pos.big_blind]] = level.big_blind
    antes[index[pos.big_blind]] += bba
    return HandSpec(
        seats=tuple(after),
        blinds_or_straddles=tuple(blinds),
        antes=tuple(antes),
        min_bet=level.big_blind,
        rules=rules,
        button_seat=pos.button,
    )


def on_hand_completed(
    *, table: Table, hand: Hand, start_stacks: dict[int, int], final_stacks: dict[int, int], actor=None
) -> None:
    """``tables.hooks.register_hand_completed`` hook (inside the table's
    transaction, the table locked): ``start_stacks`` and ``final_stacks`` are
    ``{seat number: chips}``; ``actor`` the login entering the action that
    completed the hand (the audit trail's actor of its busts).

    Records busts (:func:`record_busts`: placed by the stacks at the start
    of the hand, 001 Ende des Turniers / 003; after hand-for-hand is
    announced busts of one hand share, 004 #79) -- a player who was absent
    and blinded out busts the same way (001 Sitzverteilung, 004 #30) --,
    empties the busted players' seats at once (their table's snapshot after
    this hand shows them gone; a player offered a rebuy keeps his seat),
    counts the hand for hand-for-hand (004 #77), counts down players waiting
    for the button, and after the commit works off the waitlist (004 #73,
    :func:`fill_waitlist`), plans balancing/breaking moves and makes the
    moves whose source table is between hands.
    """
    tt = TournamentTable.objects.filter(table_id=table.id).first()
    if tt is None or hand.status != Hand.Status.COMPLETE:
        return
    with tournament_step(tt.tournament_id, with_tables=False) as step:  # the hand holds this table already
        changed(tables=[table.id])  # the seats' new stacks (settled in one UPDATE) go in the delta
        t = step.row
        rules = engine_rules(t)
        busted_seats = [s for s, stack in final_stacks.items() if stack == 0 and start_stacks.get(s, 0) > 0]
        dealt_names = {int(s["seat"]): s["player"] for s in hand.spec["seats"]}
        payload: dict[str, Any] = {"table": tt.number, "hand": hand.id, "busts": []}
        if busted_seats:
            # the seated entries of the busted seats' players, with their seat (one statement)
            busted: list[Entry] = list(
                Entry.objects.filter(
                    tournament=t,
                    status=Entry.Status.SEATED,
                    player__seats__table=table,
                    player__seats__number__in=busted_seats,
                )
                .annotate(seat_number=F("player__seats__number"), seat_absent=F("player__seats__absent"))
                .select_related("player")
            )
            by_seat = {getattr(e, "seat_number"): e for e in busted}  # noqa: B009 (annotated)
            away = {getattr(e, "seat_number") for e in busted if getattr(e, "seat_absent")}  # noqa: B009 (annotated)
            out = [(by_seat[s], start_stacks[s]) for s in busted_seats if s in by_seat]
            out, pending = offer_rebuys(t, out, hand, tt.number)
            record_busts(t, rules, out, hand=hand)
            payload["rebuy_pending"] = [e.id for e, _stack in pending]
            out_players = {e.player_id for e, _stack in out}
            gone = [s for s in busted_seats if s in by_seat and by_seat[s].player_id in out_players]
            if gone:  # they leave the felt with this hand (their table is locked by it)
                was_absent = set(gone) & away
                table_services.vacate_seats(table, gone)
                if was_absent:  # an emptied seat is not absent: the tablet's absent seats changed
                    push_absent(table.id)
            payload["busts"] = [
                {"player": dealt_names.get(s), "seat": s, "stack_at_start": start_stacks[s]} for s in gone
            ]
        # a hand played here counts down the players of this table waiting for the button: one statement
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Entry._meta.db_table} e SET wait_hands = e.wait_hands - 1 "
                f"WHERE e.tournament_id = %s AND e.status = %s AND e.wait_hands > 0 AND EXISTS "
                f"(SELECT 1 FROM {Seat._meta.db_table} st WHERE st.player_id = e.player_id AND st.table_id = %s) "
                f"RETURNING e.id",
                [t.id, Entry.Status.SEATED.value, table.id],
            )
            changed(entries=[entry_id for (entry_id,) in cursor.fetchall()])
        if t.hand_for_hand:
            tt.h4h_hands += 1
            tt.save(update_fields=["h4h_hands"])
            changed(tables=[tt.table_id])
            step_hand_for_hand(t, rules)
        fields = ("hand_for_hand", "hands_played_h4h", "clock_offset")
        # who entered the hand: the audit trail's actor of its busts (the last action's, else the latest known)
        dealer = actor if actor is not None and actor.is_authenticated else _dealer(hand)
        if finish_if_won(step, rules, hand, ("hand_completed", payload, dealer, fields)):
            return
        after_busts(step, rules, bool(payload["busts"]), "hand_completed", payload, dealer, fields)


def _dealer(hand: Hand):
    """The person who entered the last action of ``hand`` (a dealer's or
    the floor's login), or ``None``."""
    event = HandEvent.objects.filter(hand=hand, actor__isnull=False).select_related("actor").order_by("-seq").first()
    return event.actor if event is not None else None
