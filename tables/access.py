"""Who may do what: roles are the Django groups ``dealer``, ``floor`` and ``manager``."""

from __future__ import annotations

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
    names = set(user.groups.values_list("name", flat=True))
    if user.is_superuser:
        names |= {FLOOR, MANAGER}
    roles = frozenset(names & {DEALER, FLOOR, MANAGER})
    try:
        user._pokerfloor_roles = roles
    except AttributeError:  # a user object that takes no attributes: read each time
        pass
    return set(roles)


def is_floor(user) -> bool:
    """Floor staff and managers see every table and may act at any of them."""
    return bool(roles_of(user) & {FLOOR, MANAGER})


def can_deal(user, table: Table) -> bool:
    """A dealer acts only at the table assigned to them; floor and managers anywhere."""
    if is_floor(user):
        return True
    return DEALER in roles_of(user) and table.dealer_id == user.id
