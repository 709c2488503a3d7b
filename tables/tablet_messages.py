"""The dealer tablet's messages (``/ws/tables/<id>/dealer/``): one table from a message's ``type`` to its
schema and the handler that runs it (:data:`TABLET_MESSAGES`).

The socket (:class:`tables.consumers.DealerConsumer`) parses a message with :data:`DealerMessage`, built
from this table's schemas and the snapshot request, and hands it to the row of its ``type``;
``manage.py protocol_doc`` documents the same adapter.  A new tablet message is one schema in
:mod:`tables.schemas` and one row here, as the room's actions are (:mod:`room.actions`).

A handler gets the socket (:class:`TabletSocket`), the validated message, its ``client_id`` and the
``expected_seq`` the tablet saw.  It returns the service's ``Outcome``, which the socket acknowledges
(``ack`` with the new seq), or None when it sent its own reply (a floor call's id, an interpretation,
the undo options).  Refusals are the services' ``ServiceError``; a right lost since the socket opened is
``tables.revocation.RightLost`` (docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, Union, cast, get_args

from pydantic import Field, TypeAdapter

from tables import hooks, schemas, services
from tables.services.procedures import finish_procedure

__all__ = ["DealerMessage", "TABLET_MESSAGES", "TabletMessage", "TabletSocket", "hook_handler"]


class TabletSocket(Protocol):
    """What a handler uses of the dealer tablet's socket."""

    user: Any
    table_id: int

    async def run_action(self, action: dict[str, Any], client_id: str | None, expected_seq: int | None) -> Any:
        """A dealer's action (the engine's dict) through the one-statement fast path when it can."""

    async def run_deal(self, client_id: str | None, expected_seq: int | None) -> Any:
        """The dealer's "start" of the next hand (no format, no spec): in one statement from the table kept
        in memory when it can (``tables.services.fastdeal``), else :func:`services.start_hand`'s step."""

    async def run_service(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``func(*args, **kwargs)`` in a service thread, behind a fresh check of the socket's right."""

    async def run_step(self, service: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``service(*args, **kwargs)``, one write step of the socket's table that locks it before it
        reads or writes anything else, in a service thread; the socket's right is read by that locked
        read (``tables.access.run_in_step``) where it can, else as :meth:`run_service` reads it."""

    async def send_json(self, content: dict[str, Any]) -> None:
        """Send one JSON message to the tablet."""


Handler = Callable[[TabletSocket, Any, "str | None", "int | None"], Awaitable[Any]]


@dataclass(frozen=True)
class TabletMessage:
    """One tablet message: its ``schema`` (a :class:`tables.schemas.Message` whose ``type`` names it) and
    ``handle(socket, message, client_id, expected_seq)``."""

    schema: type[schemas.Message]
    handle: Handler


def hook_handler(name: str) -> Callable[..., Any]:
    """The handler of a one-handler hook (``tables.hooks``: ``floor_call``, ``interpreter``).

    Errors: ``ServiceError('invalid')`` when no app registered one."""
    fn = hooks.handler(name)
    if fn is None:
        raise services.ServiceError("invalid", f"no {name.replace('_', ' ')} service is installed")
    return fn


async def _action(socket: TabletSocket, m: schemas.ActionMessage, client_id, expected_seq) -> Any:
    return await socket.run_action(schemas.dump(m.action), client_id, expected_seq)


def _step(service: Callable[..., Any], arguments: Callable[[Any], tuple[tuple, dict]] = lambda m: ((), {})) -> Handler:
    """The handler of a message that is one write step of the table (``tables.writepath``):
    ``service(table_id, *args, actor=<the dealer>, expected_seq=..., client_id=..., **kwargs)`` with
    ``(args, kwargs) = arguments(message)``, run by :meth:`TabletSocket.run_step` (the service locks the
    table first: ``tables.services.steps.table_step``)."""

    async def handle(socket: TabletSocket, m: Any, client_id: str | None, expected_seq: int | None) -> Any:
        args, kwargs = arguments(m)
        return await socket.run_step(
            service,
            socket.table_id,
            *args,
            actor=socket.user,
            expected_seq=expected_seq,
            client_id=client_id,
            **kwargs,
        )

    return handle


_start_step = _step(services.start_hand, lambda m: ((), {"spec": m.spec, "format": m.format}))


async def _start_hand(socket: TabletSocket, m: schemas.StartHand, client_id, expected_seq) -> Any:
    if m.spec is None and m.format is None:  # the next hand as the table deals it
        return await socket.run_deal(client_id, expected_seq)
    return await _start_step(socket, m, client_id, expected_seq)


async def _time_expired(socket: TabletSocket, m: schemas.TimeExpired, client_id, expected_seq) -> Any:
    # the house rule's effect, by nobody: the server's clock decides
    return await socket.run_step(services.expire_time, socket.table_id, actor=None, client_id=client_id)


async def _floor_call(socket: TabletSocket, m: schemas.FloorCallMessage, client_id, expected_seq) -> None:
    call_id = await socket.run_service(
        hook_handler("floor_call"),
        socket.table_id,
        m.reason,
        seat=m.seat,
        note=m.note,
        details=m.details,
        actor=socket.user,
    )
    await socket.send_json({"type": "ack", "client_id": client_id, "floor_call": call_id})


async def _interpret(socket: TabletSocket, m: schemas.Interpret, client_id, expected_seq) -> None:
    result = await socket.run_service(hook_handler("interpreter"), socket.table_id, schemas.dump(m.observed))
    await socket.send_json({"type": "interpretation", "client_id": client_id, "result": result})


async def _undo_options(socket: TabletSocket, m: schemas.UndoOptions, client_id, expected_seq) -> None:
    options = await socket.run_service(services.hands.undo_options, socket.table_id)
    await socket.send_json({"type": "undo_options", "client_id": client_id, **options})


_ROWS: tuple[TabletMessage, ...] = (
    TabletMessage(schemas.ActionMessage, _action),
    TabletMessage(schemas.StartHand, _start_hand),
    TabletMessage(schemas.OutOfTurn, _step(services.record_out_of_turn, lambda m: ((schemas.dump(m.action),), {}))),
    TabletMessage(schemas.CallTime, _step(services.call_time, lambda m: ((m.seat,), {}))),
    TabletMessage(schemas.TimeExpired, _time_expired),
    TabletMessage(schemas.FloorCallMessage, _floor_call),
    TabletMessage(schemas.Interpret, _interpret),
    TabletMessage(
        schemas.RunItTwice,
        _step(services.run_it_twice, lambda m: ((list(m.agreed),), {"pots": m.pots, "floor": m.floor})),
    ),
    TabletMessage(schemas.Undo, _step(services.hands.undo_action, lambda m: ((m.index,), {}))),
    TabletMessage(schemas.UndoOptions, _undo_options),
    # an exposed card or a misdeal the house rules let the dealer finish
    TabletMessage(schemas.FinishProcedure, _step(finish_procedure, lambda m: ((m.procedure, list(m.answers)), {}))),
)

#: The tablet's messages by ``type`` (a schema's ``type`` literal), in the protocol's order.
TABLET_MESSAGES: dict[str, TabletMessage] = {
    get_args(row.schema.model_fields["type"].annotation)[0]: row for row in _ROWS
}

#: Every message the tablet may send: the table's and the snapshot request (answered by the socket itself).
DealerMessage: TypeAdapter[Any] = TypeAdapter(
    cast(  # a union built at run time from the table: no static type to give
        Any,
        Annotated[
            Union[tuple(row.schema for row in _ROWS) + (schemas.SnapshotRequest,)],  # noqa: UP007  (a union built from the table)
            Field(discriminator="type"),
        ],
    )
)
