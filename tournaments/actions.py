"""The director's desk actions (``POST /tournaments/<id>/action/``): one
table from the ``op`` of a message to its schema and the service that runs
it (:data:`ACTIONS`).  The endpoint parses a body with :data:`DirectorAction`
(built from the table's schemas, in its order) and runs :func:`run`;
``manage.py protocol_doc`` documents the same adapter, so a new action is
one row here and one schema in :mod:`tournaments.schemas`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Union, cast

from django.utils.translation import gettext as _
from pydantic import Field, TypeAdapter

from tables.writepath import ServiceError
from tournaments import schemas as s
from tournaments import services
from tournaments.models import TournamentTable
from tournaments.services import desk
from tournaments.services import floor_tables as tables_desk

__all__ = ["ACTIONS", "Action", "DirectorAction", "run"]


@dataclass(frozen=True)
class Action:
    """One desk action: the message ``schema`` (a :class:`tables.schemas.Message`
    whose ``op`` names it) and ``service(tournament_id, message, user)``,
    which raises ``ServiceError`` on a refusal."""

    schema: type[s.Message]
    service: Callable[[int, Any, Any], object]


def _desk_move(tournament_id: int, m: s.DeskMove, user) -> object:
    """A player waiting for a seat is seated there by hand, a seated one moved."""
    if desk.waiting_for_seat(tournament_id, m.entry):
        return desk.desk_seat(tournament_id, m.entry, m.table, m.seat, note=m.note, actor=user)
    return desk.desk_move(tournament_id, m.entry, m.table, m.seat, note=m.note, actor=user)


def _absent(tournament_id: int, m: s.DeskAbsent, user) -> object:
    """Mark the player at table ``m.table`` (the tournament's number), seat ``m.seat`` away or back."""
    tt = TournamentTable.objects.filter(tournament_id=tournament_id, number=m.table).first()
    if tt is None:
        raise ServiceError("not_found", _("no table %(table)s") % {"table": m.table})
    return services.set_absent(tt.table_id, m.seat, m.absent, actor=user)


ACTIONS: dict[str, Action] = {
    "register": Action(
        s.Register,
        lambda tid, m, user: services.register(tid, m.player, player_id=m.player_id, reserve=m.reserve, actor=user),
    ),
    "cancel": Action(s.CancelEntry, lambda tid, m, user: services.cancel_entry(m.entry, note=m.note, actor=user)),
    "rename": Action(
        s.RenameEntry, lambda tid, m, user: services.rename_entry(m.entry, m.player, note=m.note, actor=user)
    ),
    "check_in": Action(s.EntryOp, lambda tid, m, user: services.check_in(m.entry, actor=user)),
    "re_enter": Action(s.EntryOp, lambda tid, m, user: services.re_enter(m.entry, actor=user)),
    "surrender": Action(s.EntryOp, lambda tid, m, user: services.surrender(m.entry, actor=user)),
    "no_rebuy": Action(s.EntryOp, lambda tid, m, user: services.decline_rebuy(m.entry, actor=user)),
    "rebuy": Action(
        s.Rebuy, lambda tid, m, user: services.rebuy(m.entry, add_on=m.add_on, double=m.double, actor=user)
    ),
    "seat_waitlist": Action(s.TournamentOp, lambda tid, m, user: services.seat_waitlist(tid, actor=user)),
    "start": Action(s.TournamentOp, lambda tid, m, user: services.start(tid, actor=user)),
    "rebalance": Action(s.TournamentOp, lambda tid, m, user: services.rebalance(tid, actor=user)),
    "execute_moves": Action(s.TournamentOp, lambda tid, m, user: services.execute_moves(tid, actor=user)),
    "clock": Action(
        s.ClockOp,
        lambda tid, m, user: services.clock_action(tid, m.clock, seconds=m.seconds, level=m.level, actor=user),
    ),
    "undo_move": Action(s.UndoMove, lambda tid, m, user: services.undo_move(m.instruction, actor=user)),
    "chip_race": Action(
        s.ChipRace,
        lambda tid, m, user: services.chip_race(
            tid, m.table, m.removed, m.new, cards=m.cards or None, again=m.again, actor=user
        ),
    ),
    "payouts": Action(s.Payouts, lambda tid, m, user: services.set_payouts(tid, list(m.amounts), actor=user)),
    "desk_bust": Action(
        s.DeskBust,
        lambda tid, m, user: desk.desk_bust(
            tid, [(b.entry, b.stack_at_start) for b in m.busts], won_by=m.won_by, note=m.note, actor=user
        ),
    ),
    "desk_chips": Action(
        s.DeskChips,
        lambda tid, m, user: desk.desk_chips(tid, m.entry, m.amount, m.reason, note=m.note, actor=user),
    ),
    "desk_move": Action(s.DeskMove, _desk_move),
    "desk_break": Action(s.DeskBreak, lambda tid, m, user: desk.desk_break(tid, m.table, note=m.note, actor=user)),
    "desk_hand_played": Action(
        s.DeskHandPlayed, lambda tid, m, user: desk.desk_hand_played(tid, m.table, note=m.note, actor=user)
    ),
    "desk_undo": Action(s.DeskUndo, lambda tid, m, user: desk.desk_undo(tid, m.event, note=m.note, actor=user)),
    "confirm_move": Action(
        s.ConfirmMove, lambda tid, m, user: desk.confirm_move(m.instruction, "director", actor=user)
    ),
    "absent": Action(s.DeskAbsent, _absent),
    "dealer": Action(
        s.AssignDealer, lambda tid, m, user: tables_desk.assign_dealer(tid, m.table, m.username, actor=user)
    ),
    "add_table": Action(
        s.AddTable,
        lambda tid, m, user: tables_desk.add_table(tid, number=m.number or None, seats=m.seats or None, actor=user),
    ),
}
"""``op`` -> :class:`Action`, in the order docs/protocol.md lists them."""

DirectorAction: TypeAdapter[Any] = TypeAdapter(
    cast(  # a union built at run time from the table: no static type to give
        Any,
        Annotated[
            Union[tuple(dict.fromkeys(a.schema for a in ACTIONS.values()))],  # noqa: UP007  (a union built from the table)
            Field(discriminator="op"),
        ],
    )
)
"""The desk's message: one of the table's schemas, told apart by ``op``."""


def run(tournament_id: int, message: Any, user) -> None:
    """Run one validated desk action (a :data:`DirectorAction` message) for
    ``user``: the service of its ``op`` in :data:`ACTIONS`.  Errors: those
    of the service (``ServiceError``)."""
    ACTIONS[message.op].service(tournament_id, message, user)
