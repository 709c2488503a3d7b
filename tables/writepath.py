"""The one write path of tables, room and tournaments.

Every mutation of a table, a room or a tournament is one *step*::

    with write_step(Table, table_id, expected_seq=..., client_id=..., find_duplicate=...) as step:
        if step.duplicate_seq is not None:       # client_id already applied: answer with its seq
            return ...
        row = step.row                            # the locked row
        seq = step.bump()                         # one new seq per log entry appended
        ...append the log entry with ``seq``...
        step.publish(broadcast, row)              # snapshot at the end, sent after the commit

:func:`write_step` opens ``transaction.atomic()``, locks the row (one
writer per table, room or tournament), answers a repeated ``client_id``,
checks the client's ``expected_seq`` and yields a :class:`WriteStep`.  When
the block ends without an error and the step bumped ``seq``, the new seq
(and the fields the caller named with :meth:`WriteStep.save`) is written
and the publisher runs, still inside the transaction (its snapshot sees
the step's writes); what it sends goes out through :func:`send_on_commit`,
after the commit, never before.  An error rolls everything back and sends
nothing.  Refusals raise :class:`ServiceError` with a machine code
(docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import OperationalError, connection, transaction

if TYPE_CHECKING:  # a model module: not imported before the apps are loaded
    from tables.sequenced import SequencedRow

M = TypeVar("M", bound="SequencedRow")

logger = logging.getLogger(__name__)


#: After a ``busy`` answer, when to send the message again (milliseconds; the answer's ``retry_after_ms``).
BUSY_RETRY_AFTER_MS = 500
#: PostgreSQL's SQLSTATE for a lock not obtained in time (``lock_timeout``) or at once (``NOWAIT``).
LOCK_NOT_AVAILABLE = "55P03"


class ServiceError(Exception):
    """A refused request: ``code`` is one of docs/protocol.md's error codes."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        """JSON form sent to clients: ``{"code", "message", ...extra}``."""
        return {"code": self.code, "message": self.message, **self.extra}


def send_on_commit(
    groups: list[str], payload: dict[str, Any], *, message_type: str = "table.update", **meta: Any
) -> None:
    """Send ``payload`` (a client message, see docs/protocol.md) to the
    channel ``groups`` once the current transaction commits, never before.

    It is serialised once here, not once per receiver: the channel message is
    ``{"type": message_type, **meta, "text": <payload as JSON>}`` and the
    consumers' handler of ``message_type`` (``table_update`` for the
    default) forwards the text as it is.  ``meta`` (e.g. ``seq``,
    ``table_id``) rides along outside the text."""
    text = json.dumps(payload, separators=(",", ":"), default=str)
    send_text_on_commit(groups, text, message_type=message_type, **meta)


def send_text_on_commit(groups: list[str], text: str, *, message_type: str = "table.update", **meta: Any) -> None:
    """:func:`send_on_commit` for a payload its caller serialised already (``text``: a JSON object)."""
    message = {"type": message_type, **meta, "text": text}
    send_messages_on_commit([(group, message) for group in groups])


def send_messages_on_commit(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send ready channel messages ``[(group, message), ...]`` in order once
    the current transaction commits (for messages shaped by their sender,
    e.g. one text per audience)."""

    def send() -> None:
        broadcaster = getattr(_thread, "broadcaster", None)
        if broadcaster is not None:
            broadcaster.submit(messages)
            return
        layer = get_channel_layer()
        if layer is None:
            return
        for group, message in messages:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send)


_thread = threading.local()


class Broadcaster:
    """Sends the channel messages of services that run in worker threads, in
    the order they were committed, from one task on the server's event loop.

    A service's thread hands its messages over (:meth:`submit`, one
    ``call_soon_threadsafe``) and returns at once instead of waiting for each
    ``group_send`` through ``async_to_sync`` (a thread hop and an executor per
    message).  One queue per event loop keeps the commit order, so a table's
    updates leave in ``seq`` order.  A failing send (a Redis server gone) is
    logged and skipped: clients see the seq gap and ask for a snapshot
    (docs/protocol.md).  Used by :func:`run_with_broadcaster`."""

    _by_loop: dict[asyncio.AbstractEventLoop, Broadcaster] = {}

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: asyncio.Queue[list[tuple[str, dict[str, Any]]]] = asyncio.Queue()
        self.task = loop.create_task(self._run())

    @classmethod
    def for_running_loop(cls) -> Broadcaster:
        """The broadcaster of the running event loop (made on first use)."""
        loop = asyncio.get_running_loop()
        broadcaster = cls._by_loop.get(loop)
        if broadcaster is None or broadcaster.task.done():
            broadcaster = cls._by_loop[loop] = cls(loop)
        return broadcaster

    def submit(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """Queue ``[(group, message), ...]`` for sending (thread-safe, returns at once)."""
        self.loop.call_soon_threadsafe(self.queue.put_nowait, messages)

    async def _run(self) -> None:
        while True:
            messages = await self.queue.get()
            layer = get_channel_layer()
            if layer is None:
                continue
            for group, message in messages:
                try:
                    await layer.group_send(group, message)
                except Exception:  # the layer's server is down: clients resync on the seq gap
                    logger.exception("group_send to %s failed", group)


def run_with_broadcaster(broadcaster: Broadcaster, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` in this worker thread, its committed
    messages handed to ``broadcaster`` instead of sent from the thread."""
    _thread.broadcaster = broadcaster
    try:
        return func(*args, **kwargs)
    finally:
        _thread.broadcaster = None


def after_response(fn: Callable[..., Any], /, *args: Any) -> None:
    """Run ``fn(*args)`` once the request being served is answered: a
    consequence of a committed step that the client need not wait for
    (after a bust, the moves it makes at other tables).  Called on commit
    (``transaction.on_commit``).  In a thread run by :func:`run_answering_first`
    (a dealer's socket) ``fn`` runs after the answer, in another worker
    thread; anywhere else (a view, a test, a management command) at once."""
    jobs = getattr(_thread, "after_response", None)
    if jobs is None:
        fn(*args)
    else:
        jobs.append(functools.partial(fn, *args))


def run_answering_first(
    broadcaster: Broadcaster, func: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, list[Callable[[], Any]]]:
    """:func:`run_with_broadcaster` collecting the :func:`after_response`
    work of ``func``: returns ``(result, jobs)``; the caller answers, then
    runs the jobs (:func:`run_jobs`).  When ``func`` raises, the jobs its
    committed steps left run here before the error goes on (nothing
    committed goes without its consequences)."""
    _thread.after_response = []
    try:
        result = run_with_broadcaster(broadcaster, func, *args, **kwargs)
    except BaseException:
        jobs, _thread.after_response = _thread.after_response, None
        run_jobs(broadcaster, jobs)
        raise
    jobs, _thread.after_response = _thread.after_response, None
    return result, jobs


def run_jobs(broadcaster: Broadcaster, jobs: list[Callable[[], Any]]) -> None:
    """Run :func:`after_response` jobs in this worker thread, in order, their
    messages handed to ``broadcaster``; a failing job is logged, the next
    one runs."""
    for job in jobs:
        try:
            run_with_broadcaster(broadcaster, job)
        except Exception:
            logger.exception("after-response job %r failed", job)


def lock_timeout_ms() -> int:
    """The longest a step waits for a row lock, in milliseconds (``settings.WRITE_LOCK_TIMEOUT_MS``; 0: no
    limit)."""
    return max(0, int(getattr(settings, "WRITE_LOCK_TIMEOUT_MS", 2000)))


#: True inside a step whose transaction has its lock_timeout set (:func:`write_step`)
_TIMEOUT_SET: ContextVar[bool] = ContextVar("write_step_lock_timeout_set", default=False)


def lock_timeout_interval() -> str | None:
    """:func:`lock_timeout_ms` as a PostgreSQL interval (``"2000ms"``), or None when there is no limit."""
    timeout = lock_timeout_ms()
    return f"{timeout}ms" if timeout else None


def set_lock_timeout() -> None:
    """``SET LOCAL lock_timeout`` for the transaction running (as pretix's ``lock_objects`` does): a row
    lock not obtained within :func:`lock_timeout_ms` raises instead of waiting without limit behind a
    long step (a tournament's moves holding its tables)."""
    timeout = lock_timeout_interval()
    if timeout:
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [timeout])


def is_lock_timeout(exc: BaseException) -> bool:
    """True when ``exc`` (a Django ``OperationalError``) is PostgreSQL's "lock not available"."""
    cause = exc.__cause__ or exc
    return getattr(cause, "sqlstate", None) == LOCK_NOT_AVAILABLE


def busy_error() -> ServiceError:
    """The ``busy`` refusal: the row is locked by another step; nothing changed, send the same message
    (same ``client_id``) again after ``retry_after_ms``."""
    return ServiceError(
        "busy", "the table is busy with another step; send it again", retry_after_ms=BUSY_RETRY_AFTER_MS
    )


def check_seq(row: Any, expected_seq: int | None) -> None:
    """Refuse a client that saw an older state: ``ServiceError('stale')``
    (with the row's ``seq``) unless ``expected_seq`` is None or the row's seq."""
    if expected_seq is not None and expected_seq != row.seq:
        raise ServiceError(
            "stale", f"expected seq {expected_seq}, {type(row).__name__.lower()} is at {row.seq}", seq=row.seq
        )


def lock_row(model: type[M], pk: int) -> M:
    """Lock one row (``SELECT ... FOR NO KEY UPDATE``) and load it; raises
    ``ServiceError('not_found')``."""
    row = model._default_manager.select_for_update(no_key=True).filter(pk=pk).first()
    if row is None:
        raise ServiceError("not_found", f"no {model._meta.verbose_name} {pk}")
    return row


class WriteStep(Generic[M]):
    """One mutation of a locked row with a ``seq`` (see the module docstring).

    Attributes:
        row: the locked model instance.
        duplicate_seq: the seq at which the step's ``client_id`` was first
            applied, or None; when set, the caller answers with it and
            changes nothing.
    """

    def __init__(self, row: M, duplicate_seq: int | None = None) -> None:
        self.row = row
        self.duplicate_seq = duplicate_seq
        self._stored_seq = row.seq
        self._fields: list[str] = []
        self._publisher: tuple[Callable[..., Any], tuple, dict] | None = None

    @property
    def seq(self) -> int:
        """The row's seq now."""
        return self.row.seq

    def bump(self) -> int:
        """The next seq of the row (one per log entry appended); written at the end of the step."""
        self.row.seq += 1
        return self.row.seq

    def stored(self) -> None:
        """The caller wrote the row's current seq itself (a hot path that
        batches its statements): the step does not write it again."""
        self._stored_seq = self.row.seq

    def save(self, *fields: str) -> None:
        """Fields of the row the caller changed, saved with the seq at the end of the step."""
        self._fields.extend(f for f in fields if f not in self._fields)

    def publish(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> None:
        """The broadcast of the step: ``fn(*args, **kwargs)`` runs at its end
        (inside the transaction, after the seq is written) and sends with
        :func:`send_on_commit`.  A later call replaces an earlier one."""
        self._publisher = (fn, args, kwargs)

    def finish(self) -> None:
        """Write the seq (and saved fields) and run the publisher; done by
        :func:`write_step` when its block ends without an error.  Nothing
        happens when the step changed nothing."""
        row = self.row
        if self._fields:
            row.save(update_fields=[*self._fields, "seq"])
        elif row.seq != self._stored_seq:
            meta = row._meta
            with connection.cursor() as cursor:  # plain SQL: the hot path of every table action
                cursor.execute(f'UPDATE {meta.db_table} SET seq = %s WHERE "{meta.pk.column}" = %s', [row.seq, row.pk])
        self._stored_seq = row.seq
        self._fields = []
        if self._publisher is not None:
            fn, args, kwargs = self._publisher
            self._publisher = None
            fn(*args, **kwargs)


@contextlib.contextmanager
def write_step(
    model: type[M],
    pk: int,
    *,
    expected_seq: int | None = None,
    client_id: str | None = None,
    find_duplicate: Callable[[M, str], int | None] | None = None,
    lock: Callable[[int], M] | None = None,
    lock_sets_timeout: bool = False,
) -> Iterator[WriteStep[M]]:
    """One mutation of the row ``pk`` of ``model`` (a model with an integer ``seq``).

    Args:
        model: Table, Room, Tournament, ... .
        pk: the row's primary key.
        expected_seq: the seq the client saw, or None (no check).
        client_id: the client's id of the message, or None.
        find_duplicate: ``fn(row, client_id) -> seq | None``: the seq at
            which ``client_id`` was applied before (it may raise
            ``ServiceError``, e.g. an id used at another table).
        lock: ``fn(pk) -> row`` locking and loading the row (default
            :func:`lock_row`); raises ``ServiceError('not_found')``.
        lock_sets_timeout: ``lock`` takes ``lock_timeout=`` (a PostgreSQL interval such as
            ``"2000ms"``, or None) and sets it for the transaction in its own statement, before
            it waits for the row (``tables.services.steps.lock_table``): one round trip less
            than :func:`set_lock_timeout` first.

    Yields:
        The :class:`WriteStep`; with ``duplicate_seq`` set the seq is not checked.

    Raises:
        ServiceError: ``not_found``, ``stale``, ``busy`` (a row lock of the step not obtained within
        :func:`lock_timeout_ms`: nothing changed, the client sends the message again) and whatever the
        block raises (the transaction is rolled back, nothing is sent).
    """
    try:
        with transaction.atomic():
            # a step inside another (a tournament's from a table's hand) is in the transaction whose
            # lock_timeout the outer one set: SET LOCAL lasts until that transaction ends
            token = None if _TIMEOUT_SET.get() else _TIMEOUT_SET.set(True)
            try:
                if lock is not None and lock_sets_timeout:  # an outer step's transaction has it set already
                    timeout = lock_timeout_interval() if token is not None else None
                    row = lock(pk, lock_timeout=timeout)  # type: ignore[call-arg]
                else:
                    if token is not None:
                        set_lock_timeout()
                    row = (lock or (lambda key: lock_row(model, key)))(pk)
                duplicate = find_duplicate(row, client_id) if client_id and find_duplicate is not None else None
                if duplicate is None:
                    check_seq(row, expected_seq)
                step = WriteStep(row, duplicate)
                yield step
                if duplicate is None:
                    step.finish()
            finally:
                if token is not None:  # before the transaction ends (its on_commit work may open steps)
                    _TIMEOUT_SET.reset(token)
    except OperationalError as exc:
        if is_lock_timeout(exc):
            raise busy_error() from None
        raise
