"""``{% dealer_push table as push %}``: the dealer change waiting at the tablet's table (issue 28)."""

from __future__ import annotations

from django import template

from tables import dealers

register = template.Library()


@register.simple_tag(takes_context=True)
def dealer_push(context, table) -> dict:
    """``{"change": DealerChange | None, "mine": bool}``: the change waiting at ``table`` and whether the
    request's user is its incoming dealer (who takes over and records the decks, 001 6.24)."""
    request = context.get("request")
    change = dealers.pending_change(table.id)
    user = getattr(request, "user", None)
    return {"change": change, "mine": bool(change and user is not None and change.incoming_id == user.pk)}
