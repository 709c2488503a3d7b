"""The dealers' rotation (issue 28): the roster's shifts, the push and the takeover on the tablet.

The floor pushes (:func:`push`): the plan of :func:`poker.staff.rotation.plan_push` becomes one pending
:class:`~tables.models.DealerChange` per table.  The tablet of that table shows the incoming dealer, who
takes over under their own login (:func:`take_over`) and records the deck change or recount 001 6.24 asks
for ("Kartendecks werden bei jedem Dealerwechsel getauscht oder neu ausgezählt"); only then is the table
theirs (``Table.dealer``) and the outgoing dealer's down ends.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from poker.staff.rotation import Move, plan_push
from tables.access import FLOOR, MANAGER, roles_of
from tables.models import DealerChange, DealerDown, DealerShift, Hand, PushSchedule, Table
from tables.services import commit_table_change, lock_table, table_group
from tables.writepath import ServiceError, send_on_commit

DECK_CITATION = "001 6.24"


def schedule() -> PushSchedule:
    """The room's push schedule (made with 30 minutes on first use)."""
    found = PushSchedule.objects.order_by("id").first()
    return found or PushSchedule.objects.create()


def push_tables() -> list[Table]:
    """The tables the push runs through, in order: the schedule's ``tables`` where set, else every open
    live table (not imported) by name."""
    order = schedule().tables
    tables = Table.objects.filter(status=Table.Status.OPEN, imported=False)
    if order:
        by_id = {t.id: t for t in tables.filter(pk__in=order)}
        return [by_id[i] for i in order if i in by_id]
    return list(tables.order_by("name"))


@dataclass
class RotationState:
    """What the board shows: ``tables`` in push order, ``at_table`` (table id -> dealer user or None),
    ``resting`` (dealer user -> since when on a break), ``pending`` (table id -> its change waiting for the
    takeover), ``plan`` (the next push's moves, users and table ids)."""

    tables: list[Table]
    at_table: dict[Hashable, User | None]
    resting: dict[Hashable, datetime]
    pending: dict[int, DealerChange]
    plan: list[Move]


def on_shift(now: datetime | None = None) -> list:
    """The dealers (users) whose shift is on at ``now``, by name."""
    now = now or timezone.now()
    ids = DealerShift.objects.filter(starts_at__lte=now, ends_at__gt=now).values_list("dealer_id", flat=True)
    return list(get_user_model().objects.filter(pk__in=list(ids)).order_by("username"))


def rotation_state(now: datetime | None = None) -> RotationState:
    """The rotation as it stands and the next push's plan.  A pending change counts as done for the plan
    (its incoming dealer is at the table, its outgoing one resting from the push)."""
    now = now or timezone.now()
    tables = push_tables()
    pending = {c.table_id: c for c in DealerChange.objects.filter(taken_at=None).select_related("incoming", "outgoing")}
    at_table: dict[Hashable, User | None] = {}  # by table id (the plan's keys are any hashable)
    for table in tables:
        change = pending.get(table.id)
        at_table[table.id] = change.incoming if change else table.dealer
    dealing = {d.pk for d in at_table.values() if d is not None}
    resting: dict[Hashable, datetime] = {}
    for dealer in on_shift(now):
        if dealer.pk in dealing:
            continue
        last = DealerDown.objects.filter(dealer=dealer, ended_at__isnull=False).order_by("-ended_at").first()
        went = DealerChange.objects.filter(outgoing=dealer).order_by("-pushed_at").first()
        first_shift = DealerShift.objects.filter(dealer=dealer).order_by("starts_at").first()
        since = max(
            [t for t in (last.ended_at if last else None, went.pushed_at if went else None) if t is not None],
            default=first_shift.starts_at if first_shift else now,  # on shift: he has one
        )
        resting[dealer] = since
    plan = plan_push([t.id for t in tables], at_table, resting)
    return RotationState(tables, at_table, resting, pending, plan)


@transaction.atomic
def push(*, actor=None, now: datetime | None = None) -> list[DealerChange]:
    """The floor's one tap: the next push's moves become pending dealer changes (one per table a dealer
    moves onto), each waiting on the table's tablet for the incoming dealer's takeover.  Returns them.
    Errors: ``nothing_to_push`` (no dealer resting and no table empty), ``push_pending`` (the last push is
    not taken over everywhere yet)."""
    now = now or timezone.now()
    if DealerChange.objects.filter(taken_at=None).exists():
        raise ServiceError("push_pending", _("the last push is not taken over at every table yet"))
    state = rotation_state(now)
    if not state.plan:
        raise ServiceError("nothing_to_push", _("no dealer is on a break to come in"))
    made = []
    for move in state.plan:
        if move.target is None:
            continue
        table = next(t for t in state.tables if t.id == move.target)
        made.append(
            DealerChange.objects.create(
                table=table,
                outgoing=table.dealer,
                incoming=cast(User, move.dealer),  # the plan moves the users given in at_table and resting
                pushed_at=now,
                pushed_by=actor,
            )
        )
    sched = schedule()
    sched.last_push_at = now
    sched.save(update_fields=["last_push_at"])
    for change in made:
        announce(change.table_id, change)
    return made


def change_json(change: DealerChange | None) -> dict | None:
    """A dealer change as the tablet reads it: ``{"id", "incoming", "outgoing"}`` (usernames; ``outgoing``
    None for a table that had no dealer), or None for no change waiting."""
    if change is None:
        return None
    return {
        "id": change.id,
        "incoming": change.incoming.username,
        "outgoing": change.outgoing.username if change.outgoing is not None else None,
    }


def announce(table_id: int, change: DealerChange | None) -> None:
    """Tell the table's tablets over their socket, after the commit, that a dealer change waits (``change``)
    or was taken over (None): ``{"type": "dealer_push", "table_id", "change": {"id", "incoming",
    "outgoing"} | null}`` on the table's group (docs/protocol.md); the tablet then shows the incoming dealer
    or clears the prompt (``static/js/dealer_push.js``)."""
    send_on_commit(
        [table_group(table_id)], {"type": "dealer_push", "table_id": table_id, "change": change_json(change)}
    )


def next_push_at() -> datetime | None:
    """When the schedule's next push is due (aware datetime): the last push (the floor's first tap of the
    night starts the clock) plus the schedule's minutes; None before the first push."""
    sched = schedule()
    if sched.last_push_at is None:
        return None
    return sched.last_push_at + timedelta(minutes=sched.minutes)


def push_if_due(now: datetime | None = None) -> list[DealerChange]:
    """The push by the clock (the floor worker asks every look, ``pokerfloor.worker``): when the schedule's
    next push is due at ``now`` (:func:`next_push_at`) and the last push is taken over everywhere, push as
    the floor's tap would, by nobody -- ``pushed_by`` None, shown as "system" on the rotation board.  Returns
    the changes made ([] when nothing is due, a push still waits for its takeovers, or no dealer is on a
    break to come in).  Two workers at once push once: the schedule's row is locked and the due time
    checked again under the lock."""
    now = now or timezone.now()
    with transaction.atomic():
        sched = PushSchedule.objects.select_for_update().filter(pk=schedule().pk).first()
        if sched is None or sched.last_push_at is None:
            return []
        if now < sched.last_push_at + timedelta(minutes=sched.minutes):
            return []
        if DealerChange.objects.filter(taken_at=None).exists():
            return []
        try:
            with transaction.atomic():
                return push(actor=None, now=now)
        except ServiceError:
            return []  # nobody on a break to come in: the next look tries again


def pending_change(table_id: int) -> DealerChange | None:
    """The dealer change waiting at table ``table_id`` for its takeover, or None."""
    return DealerChange.objects.filter(table_id=table_id, taken_at=None).select_related("incoming", "outgoing").first()


def is_incoming(user, table_id: int) -> bool:
    """Whether ``user`` is the incoming dealer of a change waiting at table ``table_id`` (the tablet opens
    for them so that they take over under their own login)."""
    return bool(
        getattr(user, "is_authenticated", False)
        and DealerChange.objects.filter(table_id=table_id, taken_at=None, incoming_id=user.pk).exists()
    )


@transaction.atomic
def take_over(table_id: int, user, deck: str, *, now: datetime | None = None) -> DealerChange:
    """The incoming dealer takes the table over on its tablet, recording the decks ``deck``
    (``"swapped"`` or ``"recounted"``, 001 6.24): the change is done, the outgoing dealer's down ends and
    the incoming one's begins, and the table is theirs (``Table.dealer``, seq bumped and broadcast).  Only
    the incoming dealer (their own login) or the floor may.  Errors: ``not_found`` (no change waiting),
    ``forbidden``, ``invalid`` (a deck word other than the two)."""
    now = now or timezone.now()
    if deck not in DealerChange.Deck.values:
        raise ServiceError("invalid", _("the decks are swapped or recounted (001 6.24)"))
    table = lock_table(table_id)
    change = DealerChange.objects.select_for_update().filter(table_id=table_id, taken_at=None).first()
    if change is None:
        raise ServiceError("not_found", _("no dealer change is waiting at this table"))
    if user.pk != change.incoming_id and not roles_of(user) & {FLOOR, MANAGER}:
        raise ServiceError("forbidden", _("the incoming dealer takes over under their own login"))
    change.deck = deck
    change.taken_at = now
    change.save(update_fields=["deck", "taken_at"])
    DealerDown.objects.filter(table_id=table_id, ended_at=None).update(ended_at=now)
    DealerDown.objects.filter(dealer_id=change.incoming_id, ended_at=None).update(ended_at=now)
    DealerDown.objects.create(table_id=table_id, dealer_id=change.incoming_id, started_at=now)
    table.dealer_id = change.incoming_id
    commit_table_change(table, ("dealer",))
    announce(table_id, None)
    return change


def start_down(table_id: int, dealer, *, now: datetime | None = None) -> DealerDown:
    """Open a down for ``dealer`` at table ``table_id`` without a push (the first dealer of the night,
    assigned by the floor): the table's open down ends, the table is the dealer's."""
    now = now or timezone.now()
    with transaction.atomic():
        table = lock_table(table_id)
        DealerDown.objects.filter(Q(table_id=table_id) | Q(dealer=dealer), ended_at=None).update(ended_at=now)
        down = DealerDown.objects.create(table_id=table_id, dealer=dealer, started_at=now)
        table.dealer_id = dealer.pk
        commit_table_change(table, ("dealer",))
    return down


def hands_in_down(down: DealerDown) -> int:
    """The hands dealt in ``down``: the table's hands started from its start to its end (or now)."""
    hands = Hand.objects.filter(table_id=down.table_id, started_at__gte=down.started_at)
    if down.ended_at is not None:
        hands = hands.filter(started_at__lt=down.ended_at)
    return hands.count()
