"""The tablet's side of the dealer push (issue 28): the change waiting at a table, and the incoming dealer's
takeover with the deck record of 001 6.24 ("Kartendecks werden bei jedem Dealerwechsel getauscht oder neu
ausgezählt")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect

from tables import dealers
from tables.access import can_deal
from tables.models import Table
from tables.writepath import ServiceError


@login_required
def dealer_change(request: HttpRequest, table_id: int) -> HttpResponse:
    """``GET /tables/<id>/dealer-change/``: ``{"pending": {"id", "incoming", "outgoing"} | null}`` (the
    tablet's slow fallback beside the socket's ``dealer_push``); ``POST`` with ``deck`` (``swapped`` or ``recounted``):
    the incoming dealer takes over under their own login (:func:`tables.dealers.take_over`), then the tablet
    again.  403 for a user who neither deals the table nor comes in; 404 for an unknown table."""
    table = get_object_or_404(Table, pk=table_id)
    if not can_deal(request.user, table) and not dealers.is_incoming(request.user, table.id):
        raise PermissionDenied
    if request.method == "POST":
        try:
            dealers.take_over(table.id, request.user, request.POST.get("deck", ""))
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("dealer", table_id=table.id)
    return JsonResponse({"pending": dealers.change_json(dealers.pending_change(table.id))})
