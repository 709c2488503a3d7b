"""Who may do what: roles are the Django groups ``dealer``, ``floor`` and ``manager``."""

from __future__ import annotations

from tables.models import Table

DEALER, FLOOR, MANAGER = "dealer", "floor", "manager"


def roles_of(user) -> set[str]:
    """The role names of ``user`` (empty for anonymous users)."""
    if user is None or not user.is_authenticated:
        return set()
    names = set(user.groups.values_list("name", flat=True))
    if user.is_superuser:
        names |= {FLOOR, MANAGER}
    return names & {DEALER, FLOOR, MANAGER}


def is_floor(user) -> bool:
    """Floor staff and managers see every table and may act at any of them."""
    return bool(roles_of(user) & {FLOOR, MANAGER})


def can_deal(user, table: Table) -> bool:
    """A dealer acts only at the table assigned to them; floor and managers anywhere."""
    if is_floor(user):
        return True
    return DEALER in roles_of(user) and table.dealer_id == user.id
