"""JSON endpoints for the dealer tablet's floor procedures.

Kept apart from ``tables/views.py`` so that the tablet's helpers stay in one
place; access is the tablet's own (:func:`tables.access.can_deal`).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404

from poker.floor.procedures import procedures_for
from poker.houserules import get_profile
from tables import hooks
from tables.access import can_deal
from tables.models import Table


@login_required
def procedures(request: HttpRequest, table_id: int) -> JsonResponse:
    """``GET /tables/<id>/procedures/``: the guided procedures of the table's
    house-rule profile (``poker.floor.procedures.procedures_for``: premature board,
    exposed card, misdeal), as ``{"profile": slug, "procedures": [Procedure.to_dict()]}``
    with a ``url`` added to every citation (the rule's permalink, or None).

    404 for an unknown table, 403 for a user who may not deal it.
    """
    table = get_object_or_404(Table.objects.select_related("dealer"), pk=table_id)
    if not can_deal(request.user, table):
        raise PermissionDenied
    profile = get_profile(table.rules_profile)
    data = [p.to_dict() for p in procedures_for(profile)]
    for proc in data:
        for step in proc["steps"].values():
            for option in step["options"]:
                outcome = option["next"]
                if outcome.get("kind") == "outcome":
                    outcome["citations"] = [dict(c, url=hooks.citation_url(c)) for c in outcome["citations"]]
    return JsonResponse({"profile": profile.slug, "procedures": data})
