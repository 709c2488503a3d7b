"""``{% load staff_nav %}{% staff_nav as nav %}``: which top-bar links the user's roles may open."""

from __future__ import annotations

from django import template

from tables.access import DEALER, FLOOR, MANAGER, roles_of

register = template.Library()


@register.simple_tag(takes_context=True)
def staff_nav(context) -> dict[str, bool]:
    """``{"floor": bool, "rules": bool}`` for the request's user: ``floor`` for the floor staff's pages (floor
    dashboard, room, tournaments: the ``floor`` and ``manager`` roles, :mod:`tables.access`), ``rules`` for
    the rulebooks (dealers read them too).  No user (anonymous): both False."""
    request = context.get("request")
    user = getattr(request, "user", None)
    roles = roles_of(user)
    return {
        "floor": bool(roles & {FLOOR, MANAGER}),
        "rules": bool(roles & {DEALER, FLOOR, MANAGER}) or bool(getattr(user, "is_staff", False)),
    }
