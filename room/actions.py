"""The floor's room actions (``POST /room/<slug>/act/``): one table from the ``op`` of a
message to its schema and the service that runs it (:data:`ACTIONS`).  The endpoint parses a
body with :data:`RoomAction` (built from the table's schemas, in its order) and runs
:func:`run`; ``manage.py protocol_doc`` documents the same adapter, so a new action is one row
here and one schema in :mod:`room.schemas`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Union, cast

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext as _
from pydantic import Field, TypeAdapter

from room import schemas as s
from room import services as r
from room.models import Room
from tables.access import MANAGER, roles_of
from tables.writepath import ServiceError

__all__ = ["ACTIONS", "Action", "RoomAction", "run"]


@dataclass(frozen=True)
class Action:
    """One room action: the message ``schema`` (a :class:`tables.schemas.Message` whose ``op``
    names it) and ``service(room, message, user)``, which raises ``ServiceError`` on a refusal
    and returns the extra fields of the reply (``{}`` for none)."""

    schema: type[s.Message]
    service: Callable[[Room, Any, Any], dict[str, Any]]


def _in_room(room: Room, **ids: int | None) -> None:
    """Refuse ids of another room (``not_found``).  Keywords: ``game_id``, ``table_id``,
    ``entry_id``, ``call_id``, ``change_id`` (None: not checked); see :func:`room.services.room_of`."""
    for key, value in ids.items():
        if value is not None and r.room_of(key.removesuffix("_id"), value) != room.id:
            raise ServiceError("not_found", _("not in this room"))


def _waitlist_add(room: Room, m: s.WaitlistAdd, user) -> dict[str, Any]:
    _in_room(room, game_id=m.game_id)
    who = m.player_id if m.player_id is not None else m.name  # the picked record first (issue 28)
    return {"entry_id": r.add_to_waitlist(m.game_id, who, source=m.source, actor=user).id}


def _waitlist_remove(room: Room, m: s.WaitlistRemove, user) -> dict[str, Any]:
    _in_room(room, entry_id=m.entry_id)
    r.remove_from_waitlist(m.entry_id, actor=user)
    return {}


def _call(room: Room, m: s.CallNext, user) -> dict[str, Any]:
    _in_room(room, game_id=m.game_id)
    r.call_open_seats(m.game_id, actor=user)
    return {}


def _answer(service: Callable[..., object]) -> Callable[[Room, Any, Any], dict[str, Any]]:
    """Accept or decline call ``m.call_id`` through ``service``."""

    def answer(room: Room, m: Any, user) -> dict[str, Any]:
        _in_room(room, call_id=m.call_id)
        service(m.call_id, actor=user)
        return {}

    return answer


def _sweep(room: Room, m: s.Sweep, user) -> dict[str, Any]:
    r.expire_calls(room.id, actor=user)
    return {}


def _seat(room: Room, m: s.SeatFromList, user) -> dict[str, Any]:
    _in_room(room, entry_id=m.entry_id, table_id=m.table_id)
    r.seat_from_list(m.entry_id, m.table_id, m.seat, actor=user)
    return {}


def _chips(service: Callable[..., object]) -> Callable[[Room, Any, Any], dict[str, Any]]:
    """A buy-in or an add-on of ``m.amount`` at ``m.table_id``, seat ``m.seat``, through ``service``."""

    def chips(room: Room, m: Any, user) -> dict[str, Any]:
        _in_room(room, table_id=m.table_id)
        service(m.table_id, m.seat, m.amount, actor=user)
        return {}

    return chips


def _leave(room: Room, m: s.Leave, user) -> dict[str, Any]:
    _in_room(room, table_id=m.table_id)
    r.leave_seat(m.table_id, m.seat, actor=user)
    return {}


def _move(room: Room, m: s.Move, user) -> dict[str, Any]:
    _in_room(room, table_id=m.from_table_id)
    _in_room(room, table_id=m.to_table_id)
    r.move_player(m.from_table_id, m.from_seat, m.to_table_id, m.to_seat, actor=user)
    return {}


def _absent(room: Room, m: s.Absent, user) -> dict[str, Any]:
    _in_room(room, table_id=m.table_id)
    r.set_absent(m.table_id, m.seat, m.absent, actor=user)
    return {}


def _table_open(room: Room, m: s.TableOpen, user) -> dict[str, Any]:
    _in_room(room, table_id=m.table_id)
    r.set_table_open(m.table_id, m.open, actor=user)
    return {}


def _dealer(room: Room, m: s.AssignDealer, user) -> dict[str, Any]:
    _in_room(room, table_id=m.table_id)
    dealer = None
    if m.username:
        dealer = User.objects.filter(username=m.username).first()
        if dealer is None:
            raise ServiceError("not_found", _("no user “%(username)s”") % {"username": m.username})
    r.assign_dealer(m.table_id, dealer, actor=user)
    return {}


def _change_request(room: Room, m: s.ChangeRequest, user) -> dict[str, Any]:
    _in_room(room, table_id=m.table_id)
    _in_room(room, table_id=m.to_table_id)
    return {"change_id": r.request_table_change(m.table_id, m.seat, m.to_table_id, actor=user).id}


def _change_approve(room: Room, m: s.ChangeApprove, user) -> dict[str, Any]:
    _in_room(room, change_id=m.change_id)
    r.approve_table_change(m.change_id, m.seat, actor=user)
    return {}


def _change_refuse(room: Room, m: s.ChangeRefuse, user) -> dict[str, Any]:
    _in_room(room, change_id=m.change_id)
    r.refuse_table_change(m.change_id, actor=user)
    return {}


def _display(room: Room, m: s.Display, user) -> dict[str, Any]:
    display = r.create_display(room.id, actor=user, label=m.label)
    return {
        "display_id": display.id,
        "label": display.label,
        "created_at": display.created_at.isoformat(),
        "token": display.token,
        "url": reverse("lobby", args=[display.token]),
    }


def _display_revoke(room: Room, m: s.DisplayRevoke, user) -> dict[str, Any]:
    r.revoke_display(room.id, m.display_id, actor=user)
    return {}


def _settings(room: Room, m: s.Settings, user) -> dict[str, Any]:
    if MANAGER not in roles_of(user):
        raise ServiceError("forbidden", _("only a manager changes the room settings"))
    r.update_room(room.id, actor=user, **m.model_dump(exclude={"op", "client_id", "expected_seq"}, exclude_none=True))
    return {}


ACTIONS: dict[str, Action] = {
    "waitlist_add": Action(s.WaitlistAdd, _waitlist_add),
    "waitlist_remove": Action(s.WaitlistRemove, _waitlist_remove),
    "call": Action(s.CallNext, _call),
    "accept": Action(s.Accept, _answer(r.accept_call)),
    "decline": Action(s.Decline, _answer(r.decline_call)),
    "sweep": Action(s.Sweep, _sweep),
    "seat": Action(s.SeatFromList, _seat),
    "buy_in": Action(s.BuyIn, _chips(r.buy_in)),
    "add_on": Action(s.BuyIn, _chips(r.add_on)),
    "leave": Action(s.Leave, _leave),
    "move": Action(s.Move, _move),
    "absent": Action(s.Absent, _absent),
    "table_open": Action(s.TableOpen, _table_open),
    "dealer": Action(s.AssignDealer, _dealer),
    "change_request": Action(s.ChangeRequest, _change_request),
    "change_approve": Action(s.ChangeApprove, _change_approve),
    "change_refuse": Action(s.ChangeRefuse, _change_refuse),
    "display": Action(s.Display, _display),
    "display_revoke": Action(s.DisplayRevoke, _display_revoke),
    "settings": Action(s.Settings, _settings),
}
"""``op`` -> :class:`Action`, in the order docs/protocol.md lists them."""

RoomAction: TypeAdapter[Any] = TypeAdapter(
    cast(  # a union built at run time from the table: no static type to give
        Any,
        Annotated[
            Union[tuple(dict.fromkeys(a.schema for a in ACTIONS.values()))],  # noqa: UP007  (a union built from the table)
            Field(discriminator="op"),
        ],
    )
)
"""The floor's room message: one of the table's schemas, told apart by ``op``."""


def run(room: Room, message: Any, user) -> dict[str, Any]:
    """Run one validated room action (a :data:`RoomAction` message) for ``user`` in ``room``: the
    service of its ``op`` in :data:`ACTIONS`.  Returns the extra fields of the reply.  Errors:
    those of the service, ``not_found`` for an id of another room, ``forbidden``."""
    return ACTIONS[message.op].service(room, message, user)
