"""JSON endpoints for the dealer tablet's floor procedures.

Kept apart from ``tables/views.py`` so that the tablet's helpers stay in one
place; access is the tablet's own (:func:`tables.access.can_deal`).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404

from poker.floor.procedures import for_hand, procedures_for
from poker.houserules import get_profile
from tables import hooks
from tables.access import can_deal
from tables.models import Table
from tables.services.procedures import facts_of_table


@login_required
def procedures(request: HttpRequest, table_id: int) -> JsonResponse:
    """``GET /tables/<id>/procedures/``: the guided procedures of the table's
    house-rule profile (``poker.floor.procedures.procedures_for``: premature board,
    exposed card, misdeal), as ``{"profile": slug, "procedures": [Procedure.to_dict()]}``
    with a ``url`` added to every citation (the rule's permalink, or None).

    During a live hand the questions the hand answers (is the flop out, how many actions were
    taken, whose turn it is and whether that player faces an all-in) are left out (``poker.floor.guided.for_hand``); ``facts`` says what was read
    (``{"street", "actions", "to_act_seat", "facing_all_in"}`` or None between hands). An outcome with ``dealer_finishes`` is
    finished on the tablet (socket message ``procedure``), the others go to the floor.

    404 for an unknown table, 403 for a user who may not deal it.
    """
    table = get_object_or_404(Table.objects.select_related("dealer"), pk=table_id)
    if not can_deal(request.user, table):
        raise PermissionDenied
    profile = get_profile(table.rules_profile)
    facts = facts_of_table(table)
    procs = procedures_for(profile)
    if facts is not None:
        procs = [for_hand(p, facts) for p in procs]
    data = [p.to_dict() for p in procs]
    for proc in data:
        for step in proc["steps"].values():
            for option in step["options"]:
                outcome = option["next"]
                if outcome.get("kind") == "outcome":
                    outcome["citations"] = [dict(c, url=hooks.citation_url(c)) for c in outcome["citations"]]
    known = None
    if facts is not None:
        known = {
            "street": facts.street,
            "actions": list(facts.actions),
            "to_act_seat": facts.to_act_seat,
            "facing_all_in": facts.facing_all_in,
        }
    return JsonResponse({"profile": profile.slug, "procedures": data, "facts": known})
