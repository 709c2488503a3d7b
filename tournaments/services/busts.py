"""Busts and finishes: rebuys offered after a bust (004 #27), placing and
paying finishes (001 Ende des Turniers, 004 #79), the winner, hand-for-hand
rounds (004 #77), and how the floor reacts (waitlist, balancing)."""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from poker import tournament as eng
from tables.models import Hand
from tables.writepath import ServiceError, WriteStep, after_response
from tournaments.models import Entry, Finish, Instruction, StepMemo, Tournament, TournamentEvent, TournamentTable
from tournaments.services.delta import changed
from tournaments.services.moves import execute_moves, plan_moves
from tournaments.services.places import next_bust_order, refresh_places
from tournaments.services.reading import clock_of, engine_rules, entry_refusal, payout_table_of, store_clock
from tournaments.services.waitlist import fill_waitlist_locked
from tournaments.services.windows import window_open
from tournaments.services.writes import (
    caused_by,
    clear_busted_seats,
    instruct,
    locked_entry,
    record_event,
    tournament_step,
)

__all__ = [
    "after_busts",
    "decline_rebuy",
    "end_hand_for_hand_in_the_money",
    "finish_if_won",
    "offer_rebuys",
    "record_busts",
    "record_pending_busts",
    "step_hand_for_hand",
]


def offer_rebuys(
    t: Tournament, out: list[tuple[Entry, int]], hand: Hand, table_number: int
) -> tuple[list[tuple[Entry, int]], list[tuple[Entry, int]]]:
    """004 #27: in a rebuy tournament a rebuy must follow a bust at once.

    ``out`` -- ``(entry, stack at the start of the hand)`` of the players who
    lost their last chip in ``hand``.  Those whom :func:`entry_refusal`
    allows a rebuy now (rebuys left, the structure's rebuy window open,
    :func:`~tournaments.services.windows.window_open`; 001 Re-buy/Add-on:
    none unless the structure provides them) in a rebuy tournament (no
    re-entries: "entspricht nicht Re-entry") and not in hand-for-hand
    keep their seat with 0 chips and are marked ``rebuy_pending``; the tablet
    and the director are told.  Returns ``(bust now, rebuy pending)``.
    """
    if not out or t.hand_for_hand or not t.rebuys_allowed or t.re_entries_allowed:
        return out, []  # a re-entry tournament (004 #72) busts at once, as does one without rebuys
    rebuy_open = window_open(t, "rebuy")
    bust, pending = [], []
    for e, stack in out:
        player_entries = list(Entry.objects.filter(tournament=t, player_id=e.player_id))
        if not rebuy_open or entry_refusal(t, "rebuy", e, player_entries, True) is not None:
            bust.append((e, stack))
            continue
        e.rebuy_pending, e.rebuy_stack, e.rebuy_hand = True, stack, hand
        e.save(update_fields=["rebuy_pending", "rebuy_stack", "rebuy_hand"])
        changed(entries=[e.id])
        instruct(
            t,
            "rebuy",
            f"{e.player.name} may rebuy now, before the next hand (004 #27)",
            f"{e.player.name} kann jetzt rebuyen, vor der nächsten Hand (004 #27)",
            entry=e,
            status="pending",
            rule="004 #27",
            tables={table_number},
        )
        pending.append((e, stack))
    return bust, pending


def record_pending_busts(t: Tournament, entries: list[Entry]) -> None:
    """Record the busts of rebuy-pending ``entries`` (no rebuy, 004 #27) as
    a normal bust: placed by the stack at the start of the hand they busted
    in (001 Ende des Turniers / 003), paid, and their ``rebuy``
    instruction done.  Placed at once (not in a hand-for-hand round)."""
    for e in entries:
        e.rebuy_pending = False
        e.save(update_fields=["rebuy_pending"])
        offers = Instruction.objects.filter(tournament=t, kind="rebuy", entry=e, status="pending")
        changed(entries=[e.id], instructions=list(offers.values_list("id", flat=True)))
        offers.update(status="done")
    record_busts(t, engine_rules(t), [(e, e.rebuy_stack) for e in entries], hand=None)
    for e in entries:
        Finish.objects.filter(entry=e, hand__isnull=True).update(hand=e.rebuy_hand)


def decline_rebuy(entry_id: int, *, actor=None) -> Entry:
    """The director records "No rebuy" for a rebuy-pending player (004 #27):
    his bust is recorded now as a normal bust (place by his stack at the
    start of the hand he busted in, payout, waitlist, balancing).
    Errors: ``not_found``, ``invalid`` (no rebuy pending)."""
    with locked_entry(entry_id) as (step, entry):
        t = step.row
        if not entry.rebuy_pending or entry.status != Entry.Status.SEATED:
            raise ServiceError("invalid", _("%(player)s has no rebuy pending") % {"player": entry.player.name})
        rules = engine_rules(t)
        record_pending_busts(t, [entry])
        payload = {"entry": entry.id, "stack_at_start": entry.rebuy_stack, "rule": "004 #27"}
        if not finish_if_won(step, rules, None, ("rebuy_declined", payload, actor, ())):
            after_busts(step, rules, True, "rebuy_declined", payload, actor)
    entry.refresh_from_db()
    return entry


def record_busts(
    t: Tournament, rules: eng.TournamentRules, out: list[tuple[Entry, int]], *, hand: Hand | None = None
) -> None:
    """The players of ``out`` (``(entry, stack before)`` pairs: his stack at
    the start of the hand, or before the chip race) are out: each entry is
    busted, a :class:`Finish` recorded with one bust order, and the group
    placed and paid (:func:`~tournaments.services.places.refresh_places`:
    001 Ende des Turniers: a higher stack before finishes better; 003
    Ausscheiden mehrerer Spieler; 004 #79) -- in a hand-for-hand round
    (004 #77) once every table has played it."""
    if not out:
        return
    h4h_round = t.hands_played_h4h if t.hand_for_hand and hand is not None else None
    order, players_before, waiting = next_bust_order(t, h4h_round, seated=True)  # one statement
    for e, stack in out:
        e.status = Entry.Status.BUSTED
        e.save(update_fields=["status"])
        f = Finish.objects.create(
            tournament=t,
            entry=e,
            hand=hand,
            stack_at_start=stack,
            players_before=players_before,
            h4h_round=h4h_round,
            bust_order=order,
        )
        changed(entries=[e.id], finishes=[f.id])
    refresh_places(t)
    # what finish_if_won and after_busts ask next in this step (the tournament is locked): not asked again
    # placed now unless hand-for-hand: the step's event need not ask again (places.refresh_if_needed)
    t.step_memo = StepMemo(players_before - len(out), waiting, places_fresh=h4h_round is None)


def finish_if_won(
    step: WriteStep[Tournament],
    rules: eng.TournamentRules,
    hand: Hand | None,
    event: tuple[str, dict, Any, tuple[str, ...]] | None = None,
) -> int | None:
    """One player left: he wins (001 Ende des Turniers), the clock stops,
    the tournament (``step.row``) is finished.

    ``event`` -- ``(kind, payload, actor, fields)`` of the step's own event
    (the hand or the desk entry whose bust leaves one player): recorded
    first, so the last bust is in the audit trail like any other; the
    ``finished`` event (``winner``, ``winner_entry``, ``hand``; by the
    system) names it as its cause.  Returns the seq of ``event`` (of
    ``finished`` without one) when the tournament is won, else ``None``."""
    t = step.row
    remaining = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED)
    known = t.step_memo.take_seated_after_busts() if t.step_memo else None  # counted by record_busts
    if (known if known is not None else remaining.count()) != 1:
        return None
    winner = remaining.select_related("player").first()
    if winner is None:  # counted one seated entry in this step: it is there
        raise ServiceError("invalid", _("no entry is seated"))
    won = Finish.objects.create(tournament=t, entry=winner, hand=hand, bust_order=next_bust_order(t))
    changed(finishes=[won.id])
    refresh_places(t)
    seq = None
    cause = ""
    if event is not None:
        cause, payload, actor, fields = event
        seq = record_event(step, cause, payload, actor, fields)
    t.status = Tournament.Status.FINISHED
    if t.clock_paused_at is None and t.clock_started_at is not None:
        store_clock(t, clock_of(t).pause(time.time()))
    finished = {"winner": winner.player.name, "winner_entry": winner.id, "hand": hand.id if hand else None}
    if seq is None:
        return record_event(step, "finished", finished, None, ("status", "clock_paused_at"))
    with caused_by(seq, cause):
        record_event(step, "finished", finished, None, ("status", "clock_paused_at"))
    return seq


def after_busts(
    step: WriteStep[Tournament],
    rules: eng.TournamentRules,
    busted: bool,
    kind: str,
    payload: dict,
    actor,
    fields: tuple[str, ...] = (),
) -> None:
    """Record ``kind`` on the step's tournament; then the floor reacts to the places that opened.
    When players wait on the waitlist and somebody busted, the waitlist is
    worked off first (004 #73) and balancing is planned after it, both
    after the commit under the tournament's locks (:func:`_seat_and_plan`);
    else balancing/breaking is planned now.  Pending moves are made after
    the commit."""
    t = step.row
    tournament_id = t.id
    waiting = t.step_memo.take_waitlisted() if t.step_memo else None  # known when record_busts ran
    if waiting is None and busted:
        waiting = Entry.objects.filter(tournament=t, status=Entry.Status.WAITLISTED).exists()
    if busted and waiting:
        seq = record_event(step, kind, payload, actor, fields)
        transaction.on_commit(lambda: _seat_and_plan(tournament_id, seq, kind), robust=True)
    else:
        plan_moves(t, rules)
        seq = record_event(step, kind, payload, actor, fields)

    def moves() -> None:  # made by the system, caused by this event (the audit trail says so)
        with caused_by(seq, kind):
            execute_moves(tournament_id)

    # the moves at other tables: after the dealer's answer (tables.writepath.after_response)
    transaction.on_commit(lambda: after_response(moves), robust=True)


def _seat_and_plan(tournament_id: int, cause_seq: int, cause_kind: str) -> None:
    """After busts with a waitlist: seat the waitlist, then plan balancing;
    the ``waitlist_seated`` event names the bust's event as its cause."""
    with tournament_step(tournament_id) as step, caused_by(cause_seq, cause_kind):
        t = step.row
        if t.status != Tournament.Status.RUNNING:
            return
        rules = engine_rules(t)
        clear_busted_seats(t)
        seated = fill_waitlist_locked(t, rules)
        plan_moves(t, rules)
        record_event(step, "waitlist_seated", {"entries": [s["entry"] for s in seated], "seats": seated})


def step_hand_for_hand(t: Tournament, rules: eng.TournamentRules) -> None:
    """004 #77: when every table has finished the hand, step the clock and
    place the round's busts together (004 #79)."""
    active = TournamentTable.objects.filter(tournament=t, broken=False)
    if any(tt.h4h_hands <= t.hands_played_h4h for tt in active):
        return
    store_clock(t, clock_of(t).hand_completed())
    refresh_places(t)  # the round's busts are placed together (004 #79)
    if _in_the_money(t):  # the bubble burst: hand-for-hand ends after this step (004 #77)
        tournament_id = t.id
        transaction.on_commit(lambda: end_hand_for_hand_in_the_money(tournament_id), robust=True)


def _in_the_money(t: Tournament) -> bool:
    """Every player still in ``t`` is paid: players seated <= places paid (the stored or default payout table)."""
    table = payout_table_of(t)
    if table is None or not table.places_paid:
        return False
    return Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() <= table.places_paid


def end_hand_for_hand_in_the_money(tournament_id: int) -> bool:
    """004 #77: hand-for-hand is the mode "an der direkten Bubble" -- once the
    bubble has burst (the players left are all in the money), it ends and the
    clock runs in real time again.  Recorded by the system as ``hand_for_hand_ended``
    (``rule`` ``"004 #77"``, ``players_left``, ``places_paid``, ``text_en``,
    ``text_de``), caused by the event that completed the round.  Returns
    whether it ended (``False``: not in hand-for-hand, not running, or not
    every player is paid yet)."""
    with tournament_step(tournament_id, with_tables=False) as step:
        t = step.row
        if t.status != Tournament.Status.RUNNING or not t.hand_for_hand or not _in_the_money(t):
            return False
        last = TournamentEvent.objects.filter(tournament=t).order_by("-seq").first()
        store_clock(t, clock_of(t).leave_hand_for_hand(time.time()))
        left = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count()
        table = payout_table_of(t)
        paid = table.places_paid if table is not None else 0
        payload = {
            "rule": "004 #77",
            "players_left": left,
            "places_paid": paid,
            "text_en": f"The bubble burst: {left} players left, all in the money; hand-for-hand ends (004 #77)",
            "text_de": f"Die Bubble ist geplatzt: {left} Spieler übrig, alle im Geld; Hand für Hand endet (004 #77)",
        }
        fields = ("clock_started_at", "clock_paused_at", "clock_paused_total", "clock_offset", "hand_for_hand")
        if last is None:
            record_event(step, "hand_for_hand_ended", payload, None, fields)
        else:
            with caused_by(last.seq, last.kind):
                record_event(step, "hand_for_hand_ended", payload, None, fields)
    return True
