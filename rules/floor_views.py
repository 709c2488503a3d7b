"""Floor pages for floor calls, rulings and penalties.

- ``/rules/calls/<id>/``: one floor call: the hand's context (event log,
  stacks, pots, player to act), suggested rulings with citations, a form to
  apply one or write one.  POST applies it (``rules.services.make_ruling``).
- ``/rules/rulings/``: rulings searchable by table, player, rule and date.
- ``/rules/rulings/<id>/``: one ruling.
- ``/rules/players/<id>/``: a player's rulings and penalties.

Access: floor and manager roles (:func:`rules.views.floor_required`).
"""

from __future__ import annotations

import json
from datetime import date

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules import services
from rules.models import FloorCall, Ruling
from rules.views import floor_required, query_text, search_rules
from tables.models import Player, Table
from tables.services import ServiceError, hand_events


def _localised(suggestion: dict) -> dict:
    german = (get_language() or "en").startswith("de")
    return dict(
        suggestion,
        title=suggestion["title_de"] if german else suggestion["title_en"],
        explanation=suggestion["explanation_de"] if german else suggestion["explanation_en"],
    )


@floor_required
def floor_call(request, call_id):
    """One floor call with its context and suggested rulings."""
    call = get_object_or_404(FloorCall.objects.select_related("table", "hand", "raised_by", "answered_by"), pk=call_id)
    suggestions = [_localised(s) for s in services.suggestions_for(call)]
    table = Table.objects.select_related("current_hand").get(pk=call.table_id)
    hand_now = table.current_hand if table.current_hand_id == call.hand_id else call.hand
    return render(
        request,
        "rules/floor_call.html",
        {
            "call": call,
            "context_table": call.context.get("table", {}),
            "context_events": call.context.get("events", []),
            "now_state": hand_now.snapshot if hand_now is not None else None,
            "now_events": hand_events(hand_now) if hand_now is not None else [],
            "hand_now": hand_now,
            "suggestions": suggestions,
            "suggestions_json": json.dumps(suggestions),
            "rulings": call.rulings.all(),
            "correction_types": ["void", "adjust", "kill", "award", "misdeal", "penalty"],
        },
    )


@floor_required
@require_POST
def floor_call_answer(request, call_id):
    """The floorman takes the call (everyone sees he is on his way)."""
    try:
        services.answer_floor_call(call_id, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("rules:floor_call", call_id)


@floor_required
@require_POST
def floor_call_rule(request, call_id):
    """Apply a suggested ruling (``suggestion`` = its key) or the floorman's
    own (``decision`` text, ``citations`` as "rulebook:section" lines,
    ``corrections`` as JSON)."""
    call = get_object_or_404(FloorCall, pk=call_id)
    key = request.POST.get("suggestion", "")
    try:
        if key:
            chosen = next((s for s in services.suggestions_for(call) if s["key"] == key), None)
            if chosen is None:
                raise ServiceError("invalid", _("That suggestion no longer applies; reload the call."))
            services.make_ruling(
                call.table_id,
                floor_call_id=call.id,
                suggestion_key=key,
                decision=chosen["title_en"] + ". " + chosen["explanation_en"],
                decision_de=chosen["title_de"] + ". " + chosen["explanation_de"],
                citations=chosen["citations"],
                corrections=chosen["corrections"],
                actor=request.user,
            )
        else:
            citations = []
            for line in request.POST.get("citations", "").splitlines():
                if ":" in line:
                    book, section = line.split(":", 1)
                    citations.append({"rulebook": book.strip(), "section": section.strip()})
            raw = request.POST.get("corrections", "").strip() or "[]"
            try:
                corrections = json.loads(raw)
            except ValueError:
                raise ServiceError("invalid", _("The corrections are not valid JSON.")) from None
            services.make_ruling(
                call.table_id,
                floor_call_id=call.id,
                decision=request.POST.get("decision", ""),
                citations=citations,
                corrections=corrections,
                actor=request.user,
            )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("rules:floor_call", call_id)
    messages.success(request, _("Ruling applied."))
    return redirect("rules:floor_call", call_id)


@floor_required
@require_POST
def floor_call_cancel(request, call_id):
    """Withdraw a call resolved at the table."""
    try:
        services.cancel_floor_call(call_id, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("floor")


def _date(value: str):
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        return None


@floor_required
def rulings(request):
    """Rulings searchable by table, player, rule and date (``?table=``,
    ``?player=`` name part, ``?rule=`` text or number as in the rulebook
    search, ``?from=``/``?to=`` ISO dates)."""
    qs = Ruling.objects.select_related("table", "hand", "made_by").prefetch_related("players", "rules")
    table = query_text(request, "table")
    player = query_text(request, "player")
    rule = query_text(request, "rule")
    start, end = _date(query_text(request, "from")), _date(query_text(request, "to"))
    if table.isascii() and table.isdigit() and int(table) < 2**31:
        qs = qs.filter(table_id=int(table))
    if player:
        qs = qs.filter(players__name__icontains=player)
    if rule:
        qs = qs.filter(rules__in=search_rules(rule).values("pk"))
    if start:
        qs = qs.filter(made_at__date__gte=start)
    if end:
        qs = qs.filter(made_at__date__lte=end)
    page = Paginator(qs.distinct().order_by("-made_at"), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "rules/rulings.html",
        {
            "page": page,
            "tables": Table.objects.order_by("name"),
            "filters": {
                "table": table,
                "player": player,
                "rule": rule,
                "from": query_text(request, "from"),
                "to": query_text(request, "to"),
            },
        },
    )


@floor_required
def ruling(request, ruling_id):
    """One ruling: decision, citations, corrections, the hand."""
    item = get_object_or_404(Ruling.objects.select_related("table", "hand", "made_by", "floor_call"), pk=ruling_id)
    return render(
        request,
        "rules/ruling.html",
        {"ruling": item, "data": services.ruling_dict(item), "penalties": item.penalties.select_related("player")},
    )


@floor_required
def player(request, player_id):
    """A player's history: rulings and penalties."""
    who = get_object_or_404(Player, pk=player_id)
    return render(request, "rules/player.html", {"player": who, **services.player_history(who)})
