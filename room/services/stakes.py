"""Table stakes and seats: buy-ins and add-ons (000 Einsätze 1-3, 000 Allgemein 8), leaving a game (departures), absent
players (000 Allgemein 6) and the big blind owed after a seat change (000 Einsätze 4) in the next hand's spec.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from poker.hand import EngineError, HandSpec, StudSpec
from room.models import (
    BlindDue,
    Departure,
    Game,
    GameTable,
    LeaveAfterHand,
    QueueEntry,
)
from room.services.base import (
    between_hands,
    check_divisible,
    game_of_table,
    locked_seat,
    minimum_buy_in,
    positive_int,
    room_step,
)
from room.services.calls import fill_open_seats
from tables import services
from tables.models import Seat, Table
from tables.writepath import ServiceError


def buy_in(table_id: int, seat_number: int, amount: int, *, actor=None) -> int:
    """The seated player's buy-in: chips put on the table before they play.

    ``amount`` (chips) must be divisible by the game's unit (000 Allgemein
    8; the excess is named for the dealer to return), at least the game's
    minimum and the big blind (000 Einsätze 3), at least the stake they
    left this game with today if that was above the minimum (000 Einsätze
    1), and at most the game's maximum (000 Einsätze 2).  Only for a seat
    with no chips yet, between hands.  Returns the room's seq.  Errors:
    ``no_game``, ``empty_seat``, ``no_such_seat``, ``indivisible``,
    ``below_minimum``, ``above_maximum``, ``already_bought_in``,
    ``hand_in_progress``, ``invalid``."""
    amount = positive_int(amount, "the buy-in")
    gt = game_of_table(table_id)
    game = gt.game
    with room_step(game.room_id, actor) as step:
        table, seat = locked_seat(table_id, seat_number)
        between_hands(table, _("buy-ins"))
        if seat.stack > 0:
            raise ServiceError(
                "already_bought_in",
                _("%(player)s has %(stack)s on the table: add chips with an add-on")
                % {"player": seat.occupant.name, "stack": seat.stack},
            )
        check_divisible(amount, game.chip_unit)
        minimum, source = minimum_buy_in(game, seat.player)
        if amount < minimum:
            raise ServiceError(
                "below_minimum",
                _("the buy-in is at least %(minimum)s (%(source)s)") % {"minimum": minimum, "source": source},
                minimum=minimum,
            )
        if amount > game.max_buy_in:
            raise ServiceError(
                "above_maximum",
                _("the buy-in is at most %(max_buy_in)s (000 Einsätze 2)") % {"max_buy_in": game.max_buy_in},
                maximum=game.max_buy_in,
            )
        seat.stack = amount
        seat.save(update_fields=["stack"])
        services.commit_table_change(table)
        step.log("buy_in", game=game, player=seat.player, table=table_id, seat=seat_number, amount=amount)
        return step.finish()


def add_on(table_id: int, seat_number: int, amount: int, *, actor=None) -> int:
    """Add ``amount`` chips to a seated player's table stake: only between
    hands, in whole units, up to the game's maximum (000 Einsätze 1, 000
    Allgemein 8).  Chips never come off the table except by leaving
    (:func:`leave_seat`): a negative amount is refused with
    ``chips_off_table``.  Returns the room's seq.  Errors: as
    :func:`buy_in`, plus ``chips_off_table`` and ``not_bought_in``."""
    if isinstance(amount, int) and not isinstance(amount, bool) and amount < 0:
        raise ServiceError("chips_off_table", _("no chips come off the table except when leaving (000 Einsätze 1)"))
    amount = positive_int(amount, "the add-on")
    gt = game_of_table(table_id)
    game = gt.game
    with room_step(game.room_id, actor) as step:
        table, seat = locked_seat(table_id, seat_number)
        between_hands(table, _("chips are added"))
        if seat.stack == 0:
            raise ServiceError("not_bought_in", _("%(player)s buys in first") % {"player": seat.occupant.name})
        check_divisible(amount, game.chip_unit)
        if seat.stack + amount > game.max_buy_in:
            room_left = max(0, game.max_buy_in - seat.stack)
            message = _(
                "the table stake may reach at most %(max_buy_in)s: add at most %(room_left)s (000 Einsätze 2)"
            ) % {"max_buy_in": game.max_buy_in, "room_left": room_left}
            raise ServiceError("above_maximum", message, maximum=room_left)
        seat.stack += amount
        seat.save(update_fields=["stack"])
        services.commit_table_change(table)
        step.log(
            "add_on", game=game, player=seat.player, table=table_id, seat=seat_number, amount=amount, stack=seat.stack
        )
        return step.finish()


def leave_seat(table_id: int, seat_number: int, *, actor=None) -> int:
    """A player ends their game and takes their whole stake (000 Einsätze 1):
    the departure and its cash-out (the whole stake, ``cash_out`` in the room
    log) are recorded (the stake bounds their next buy-in in this
    game today), the player leaves the must-move order, and the open seat
    is offered to the next in line.  While a hand runs at the table the
    player is marked to leave after it instead (:class:`LeaveAfterHand`,
    ``leave_after_hand`` in the room log; the floor snapshot's seat shows
    ``leaving``): players leave between hands, and :func:`hand_ended`
    makes the departure with the stake he then has.  Returns the room's
    seq.  Errors: ``no_game``, ``empty_seat``."""
    gt = game_of_table(table_id)
    game = gt.game
    with room_step(game.room_id, actor) as step:
        table, seat = locked_seat(table_id, seat_number)
        if services.live_hand(table) is not None:
            LeaveAfterHand.objects.get_or_create(
                table_id=table_id, seat_number=seat_number, defaults={"player": seat.occupant, "at": timezone.now()}
            )
            step.log("leave_after_hand", game=game, player=seat.occupant, table=table_id, seat=seat_number)
            return step.finish()
        LeaveAfterHand.objects.filter(table_id=table_id, seat_number=seat_number).delete()
        player, stack = seat.occupant, seat.stack
        Departure.objects.create(game=game, player=player, table=table, stack=stack, at=timezone.now())
        services.unseat_player(table_id, seat_number)
        Seat.objects.filter(table_id=table_id, number=seat_number).update(absent=False)
        step.log("leave", game=game, player=player, table=table_id, seat=seat_number, stack=stack, cash_out=stack)
        for mm in QueueEntry.objects.select_for_update().filter(
            game=game, player=player, queue=QueueEntry.Queue.MUST_MOVE, status=QueueEntry.Status.WAITING
        ):
            mm.status = QueueEntry.Status.REMOVED
            mm.save(update_fields=["status"])
            step.log("must_move_remove", game=game, player=player, entry=mm.id)
        fill_open_seats(step, game)
        return step.finish()


def hand_ended(*, table: Table, hand, start_stacks: dict[int, int], final_stacks: dict[int, int], actor=None) -> None:
    """``tables.hooks.register_hand_completed``: the players marked to leave after this hand
    (:func:`leave_seat` during it) leave once its transaction has committed, each through
    :func:`leave_seat` in a step of its own (the room row is locked before the table's, as every
    room step does; here the table is already locked).  A mark on a seat that holds another
    player now is dropped; a leave refused (a new hand started meanwhile) keeps its mark for
    the end of that hand."""
    marks = list(LeaveAfterHand.objects.filter(table_id=table.id).values_list("seat_number", "player_id"))
    if not marks:
        return
    table_id = table.id

    def leave() -> None:
        for seat_number, player_id in marks:
            if not Seat.objects.filter(table_id=table_id, number=seat_number, player_id=player_id).exists():
                LeaveAfterHand.objects.filter(table_id=table_id, seat_number=seat_number).delete()
                continue
            with contextlib.suppress(ServiceError):
                leave_seat(table_id, seat_number)

    transaction.on_commit(leave)


def publish_stacks(
    *, table: Table, hand, start_stacks: dict[int, int], final_stacks: dict[int, int], actor=None
) -> None:
    """``tables.hooks.register_hand_completed``: the room of a game's table is published again once
    the hand's transaction has committed, so the floor's room page and the lobby TV (a room that shows
    stacks) show the stacks the hand left instead of those before it.  One room step without a log
    entry (a seq bump and the snapshot); a table of no game (a tournament's) publishes nothing."""
    if start_stacks == final_stacks:
        return
    table_id = table.id

    def publish() -> None:
        gt = GameTable.objects.select_related("game").filter(table_id=table_id).first()
        if gt is None:
            return
        with room_step(gt.game.room_id, None) as step:
            step.finish()

    transaction.on_commit(publish)


def set_absent(table_id: int, seat_number: int, absent: bool, *, actor=None) -> int:
    """Mark a seated player away from (or back at) their seat.  An absent
    player is still dealt in and the blinds are taken from their stake,
    but their hand is dead (000 Allgemein 6; the hand start does that).
    Returns the room's seq.  Errors: ``no_game``, ``empty_seat``,
    ``no_such_seat``."""
    gt = game_of_table(table_id)
    with room_step(gt.game.room_id, actor) as step:
        table, seat = locked_seat(table_id, seat_number)
        seat.absent = bool(absent)
        seat.save(update_fields=["absent"])
        services.commit_table_change(table)
        step.log("absent" if absent else "back", game=gt.game, player=seat.player, table=table_id, seat=seat_number)
        return step.finish()


def table_stakes(table: Table) -> dict[str, Any] | None:
    """The stakes of a Seven Card Stud game's table as stud names them (000 Einsätze 2; the
    fields as :func:`stud_spec` reads them): ``{"game": "stud", "ante", "bring_in", "small_bet",
    "big_bet"}`` in chips, the big bet twice the small bet.  ``None`` for a table of a game of
    blinds or of no game (registered as ``tables.hooks.register_table_stakes``)."""
    gt = GameTable.objects.select_related("game").filter(table_id=table.id).first()
    if gt is None or gt.game.variant != Game.Variant.STUD:
        return None
    return {
        "game": "stud",
        "ante": table.ante,
        "bring_in": table.small_blind,
        "small_bet": table.big_blind,
        "big_bet": 2 * table.big_blind,
    }


def stud_spec(table: Table, spec: HandSpec) -> StudSpec:
    """The Seven Card Stud spec of a stud game's next hand, from the hold'em
    spec ``build_spec`` made (its seats, button and house rules).

    The table's stakes fields mean, in stud (fixed limit, 000 Einsätze 2):
    ``Table.ante`` the ante every player antes, ``Table.small_blind`` the
    bring-in, ``Table.big_blind`` the small bet (third and fourth street);
    the big bet (fifth to seventh street) is twice the small bet.  The
    button is the dealer position: the deal starts left of it.  Straddles,
    blinds owed after a seat change and special formats do not apply.

    Raises:
        ServiceError("bad_spec") when the stakes are out of order (the
        bring-in must be above 0 and below the small bet) or fewer than 2 or
        more than 8 players are dealt in.
    """
    dealer = spec.button_seat if spec.button_seat is not None else spec.seats[-1].seat
    try:
        return StudSpec.standard(
            list(spec.seats),
            dealer=dealer,
            ante=table.ante,
            bring_in=table.small_blind,
            small_bet=table.big_blind,
            rules=spec.rules,
        )
    except EngineError as exc:
        raise ServiceError(exc.code, exc.message) from None


def adjust_spec(table: Table, seats: list[Seat], spec: HandSpec) -> HandSpec | StudSpec:
    """The cash-floor part of the next hand's spec (called by
    ``tables.services.build_spec``): the game's variant (when the engine's
    ``HandSpec`` has a ``game`` field; likewise ``chip_unit``), and the big
    blind owed after a seat change two or more occupied seats away from the
    button (000 Einsätze 4) as a live post (``HandSpec.posts``: the player
    acts in turn, the post is his call, capped at the current big blind)
    unless they post a blind or straddle anyway (and not in a bomb pot or
    flip).  Tables of no game keep ``spec``; a Seven Card Stud game's table
    gets a :class:`StudSpec` (:func:`stud_spec`)."""
    gt = GameTable.objects.select_related("game").filter(table_id=table.id).first()
    if gt is None:
        return spec
    if gt.game.variant == Game.Variant.STUD:
        return stud_spec(table, spec)
    names = {f.name for f in dataclasses.fields(HandSpec)}
    changes: dict[str, Any] = {}
    if "game" in names:
        changes["game"] = gt.game.variant
    if "chip_unit" in names:
        changes["chip_unit"] = gt.game.chip_unit
    dues = blinds_due(table, seats)
    if dues and "posts" in names and not (spec.bomb_pot or spec.flip):
        blinds = spec.blinds_or_straddles
        big_blind = blinds[1] or spec.min_bet
        dealt = {s.seat: i for i, s in enumerate(spec.seats)}
        posts = []
        for seat_number, amount in sorted(dues.items()):
            pos = dealt.get(seat_number)
            if pos is not None and pos >= 2 and blinds[pos] == 0 and amount > 0:
                posts.append((seat_number, min(amount, big_blind)))
        if posts:
            changes["posts"] = tuple(posts)
    return dataclasses.replace(spec, **changes) if changes else spec


def blinds_due(table: Table, seats: list[Seat]) -> dict[int, int]:
    """Big blinds owed in the table's next hand (seat number -> chips) after
    a seat change (000 Einsätze 4): recorded since the table's last hand
    started, by the player still in that seat."""
    dues = BlindDue.objects.filter(table_id=table.id)
    if table.current_hand_id is not None:
        hand = table.current_hand
        if hand is not None and hand.started_at is not None:
            dues = dues.filter(at__gt=hand.started_at)
    players = {s.number: s.player_id for s in seats}
    return {d.seat_number: d.amount for d in dues if players.get(d.seat_number) == d.player_id}
