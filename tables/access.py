"""Who may do what: roles are the Django groups ``dealer``, ``floor`` and ``manager``."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session

from tables.db import rows
from tables.models import Table

DEALER, FLOOR, MANAGER = "dealer", "floor", "manager"


def roles_of(user) -> set[str]:
    """The role names of ``user`` (empty for anonymous users).

    Read once per user object (one query) and kept on it: a request's or a
    websocket's user is loaded per request or per connection, so a change of
    groups applies from the next one."""
    if user is None or not user.is_authenticated:
        return set()
    cached = getattr(user, "_pokerfloor_roles", None)
    if cached is not None:
        return set(cached)
    return set(keep_roles(user, roles_from(user.groups.values_list("name", flat=True), user.is_superuser)))


def keep_roles(user, roles: frozenset[str]) -> frozenset[str]:
    """Keep ``roles`` on ``user`` for :func:`roles_of` (read with the user: ``tables.tablet_open``);
    returns them."""
    try:
        user._pokerfloor_roles = roles
    except AttributeError:  # a user object that takes no attributes: read each time
        pass
    return roles


def roles_from(group_names, is_superuser: bool) -> frozenset[str]:
    """The role names of a user in the groups ``group_names`` (an iterable of str): a superuser is floor
    staff and manager too."""
    names = set(group_names)
    if is_superuser:
        names |= {FLOOR, MANAGER}
    return frozenset(names & {DEALER, FLOOR, MANAGER})


def deals_at(roles, user_id: int | None, dealer_id: int | None) -> bool:
    """May a user of ``roles`` (role names) and id ``user_id`` act at a table whose dealer is ``dealer_id``?
    Floor staff and managers anywhere, a dealer at the table assigned to them."""
    return bool(roles & {FLOOR, MANAGER}) or (DEALER in roles and dealer_id is not None and dealer_id == user_id)


def is_floor(user) -> bool:
    """Floor staff and managers see every table and may act at any of them."""
    return bool(roles_of(user) & {FLOOR, MANAGER})


def can_deal(user, table: Table) -> bool:
    """A dealer acts only at the table assigned to them; floor and managers anywhere."""
    return deals_at(roles_of(user), user.id, table.dealer_id)


def fresh_roles(user) -> set[str]:
    """The role names of ``user`` read from the database now (one query), never from the cache on the
    user object: empty when the user was deleted or deactivated since it was loaded.  For the checks an
    open connection repeats (``tables.revocation``)."""
    if user is None or not user.is_authenticated or user.pk is None:
        return set()
    rows = list(get_user_model().objects.filter(pk=user.pk, is_active=True).values_list("is_superuser", "groups__name"))
    if not rows:
        return set()
    names = {name for _, name in rows if name}
    if rows[0][0]:
        names |= {FLOOR, MANAGER}
    return names & {DEALER, FLOOR, MANAGER}


def may_deal_now(user, table_id: int) -> bool:
    """:func:`can_deal` read from the database now (roles and the table's dealer, one or two queries):
    False when the table is gone, the dealer was reassigned or the user lost the role."""
    roles = fresh_roles(user)
    if roles & {FLOOR, MANAGER}:
        return Table.objects.filter(pk=table_id).exists()
    return DEALER in roles and Table.objects.filter(pk=table_id, dealer_id=user.pk).exists()


def is_floor_now(user) -> bool:
    """:func:`is_floor` read from the database now (one query)."""
    return bool(fresh_roles(user) & {FLOOR, MANAGER})


def _auth_tables() -> tuple[str, str, str]:
    """The database tables of the users, their group memberships and the groups."""
    user_model = get_user_model()
    return user_model._meta.db_table, user_model.groups.through._meta.db_table, Group._meta.db_table


def _staff_condition(user_expr: str, session_expr: str, dealer_of: str | None) -> str:
    """The SQL of :func:`_staff_right_sql` over SQL expressions: ``user_expr`` gives the user's id,
    ``session_expr`` the session key (NULL: not checked); its only placeholders are the group names
    (floor, manager, and dealer given ``dealer_of``)."""
    user_table, groups, group = _auth_tables()
    dealer = f" OR (g.name = %s AND {dealer_of} = u.id)" if dealer_of else ""
    return (
        f"EXISTS (SELECT 1 FROM {user_table} u WHERE u.id = {user_expr} AND u.is_active"
        f" AND ({session_expr} IS NULL OR EXISTS (SELECT 1 FROM {Session._meta.db_table} s"
        f"   WHERE s.session_key = {session_expr} AND s.expire_date > now()))"
        f" AND (u.is_superuser OR EXISTS (SELECT 1 FROM {groups} ug JOIN {group} g ON g.id = ug.group_id"
        f"   WHERE ug.user_id = u.id AND (g.name IN (%s, %s){dealer}))))"
    )


def _staff_right_sql(user_pk: int, session_key: str | None, dealer_of: str | None) -> tuple[str, list[Any]]:
    """``(sql, params)``: the user ``user_pk`` exists and is active, the session ``session_key`` (None:
    not checked) exists and has not expired, and the user is a superuser, floor or manager -- or, with
    ``dealer_of`` (a SQL column holding a user id, e.g. a table's ``dealer_id``), the dealer it names."""
    sql = _staff_condition("%s", "%s::text", dealer_of)
    return sql, [user_pk, session_key, session_key, FLOOR, MANAGER, *([DEALER] if dealer_of else [])]


def deal_right_columns(user_col: str, session_col: str, dealer_col: str) -> tuple[str, list[Any]]:
    """The right to deal of :func:`deal_right_sql` over SQL columns, for a statement that writes the
    actions of several dealers at once (``tables.sql.event_batch_statement``): ``user_col`` holds the
    user's id, ``session_col`` the session key (NULL: not checked), ``dealer_col`` the table's
    ``dealer_id``.  ``(sql, params)``; the params are the role names."""
    return _staff_condition(user_col, session_col, dealer_col), [FLOOR, MANAGER, DEALER]


def deal_right_sql(user, session_key: str | None, dealer_of: str | None = None) -> tuple[str, list[Any]] | None:
    """The right to deal as a SQL condition on a row of the tables' table (unaliased
    ``tables_table``, or the column ``dealer_of`` holding its dealer, e.g. ``"t.dealer_id"``), for a
    statement that writes only while the right holds (``tables.services.fastpath``): ``(sql,
    params)``, or None for an anonymous user.

    The user exists and is active, the session ``session_key`` (None: not checked) exists and has
    not expired, and the user is a superuser, floor or manager, or a dealer assigned to that table
    (:func:`right_in_session` asks the same)."""
    if user is None or not user.is_authenticated or user.pk is None:
        return None
    return _staff_right_sql(user.pk, session_key, dealer_of or f"{Table._meta.db_table}.dealer_id")


@dataclass
class StepRight:
    """A dealer socket's right to deal at ``table_id``, to be found true by the locked read of that
    table's write step (``tables.services.steps.lock_table``) instead of a statement of its own before
    the step: one round trip less for every write step of the tablet (a deal, a dealer's action that
    takes the locked way such as a hand's end, a call for time, an undo:
    ``tables.consumers.DealerConsumer``).  ``sql`` and ``params`` state it over the table's row
    aliased ``t`` (:func:`step_right`); ``lost()`` is the exception raised, inside the step's
    transaction, when it does not hold (nothing is written); ``checked`` is set once a locked read has
    found it true.  Set for the step with :data:`STEP_RIGHT`."""

    table_id: int
    sql: str
    params: list[Any]
    lost: Callable[[], Exception]
    checked: bool = False


#: The right the write step running in this context must find in its table's locked read (or None).
STEP_RIGHT: ContextVar[StepRight | None] = ContextVar("step_right", default=None)


def run_in_step(right: StepRight, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)``, a write step of ``right.table_id`` that locks the table before it
    reads or writes anything else (``tables.services.steps.table_step``: ``start_hand``, ``apply_action``
    ...), with the socket's
    right read by that locked read (:data:`STEP_RIGHT`): ``right.lost()`` raised there rolls the step
    back, nothing is written.  One round trip less than reading the right first."""
    token = STEP_RIGHT.set(right)
    try:
        return func(*args, **kwargs)
    finally:
        STEP_RIGHT.reset(token)


def step_right(user, session_key: str | None, table_id: int, lost: Callable[[], Exception]) -> StepRight | None:
    """:class:`StepRight` of ``user`` in the session ``session_key`` at ``table_id``: the condition of
    :func:`deal_right_sql` over the row ``t``; None for an anonymous user."""
    right = deal_right_sql(user, session_key, dealer_of="t.dealer_id")
    return None if right is None else StepRight(table_id, *right, lost)


def right_in_session(user, session_key: str | None, *, table_id: int | None = None) -> bool:
    """The right a staff socket checks before each message, read from the database now in ONE statement.

    With ``table_id``: may ``user`` deal at that table (floor and managers anywhere, a dealer only at the
    table assigned; :func:`deal_right_sql` on that table's row); without: is ``user`` floor staff.  Either
    way the user must still be active and the session ``session_key`` (None: no session to check) must
    still exist and not have expired (a logout deletes it).  One prepared statement instead of the session
    load, the role query and the table query of :func:`may_deal_now` / :func:`is_floor_now` plus
    ``tables.revocation.session_alive``.  Sessions must be stored in the database (Django's default
    engine); otherwise use those three checks."""
    if user is None or not user.is_authenticated or user.pk is None:
        return False
    if table_id is None:
        sql, params = _staff_right_sql(user.pk, session_key, None)
        return bool(rows(f"SELECT {sql}", params)[0][0])
    sql, params = _staff_right_sql(user.pk, session_key, f"{Table._meta.db_table}.dealer_id")
    found = rows(f"SELECT {sql} FROM {Table._meta.db_table} WHERE id = %s", [*params, table_id])
    return bool(found and found[0][0])
