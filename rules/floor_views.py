"""Floor pages for floor calls, rulings and penalties.

- ``/rules/calls/<id>/``: one floor call: the hand's context (event log in
  words, stacks, pots, player to act), suggested rulings with citations, and
  the point-and-click correction: pick an action of the hand, pick what
  stands instead (void, replace with a legal alternative, adjust, return the
  action, kill, award, misdeal), see the corrected hand, apply it with the
  citations.  POST ``rule/`` applies it (``rules.services.make_ruling``);
  POST ``preview/`` answers the corrected hand (``rules.corrections.preview_correction``)
  as an HTML fragment in JSON, and changes nothing.
- ``/rules/rulings/``: rulings searchable by citation or text, table, player and date.
- ``/rules/rulings/<id>/``: one ruling.
- ``/rules/players/<id>/``: a player's rulings and penalties.

Access: floor and manager roles (:func:`rules.views.floor_required`).
"""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from poker.rulebooks import Citation
from rules import citations as rules_citations
from rules import corrections as rules_corrections
from rules import handwords, services
from rules.models import FloorCall, Ruling
from rules.views import floor_required, query_text
from tables import schemas
from tables.models import Player, Table
from tables.services import ServiceError, hand_events


def _localised(suggestion: dict) -> dict:
    german = (get_language() or "en").startswith("de")
    return dict(
        suggestion,
        title=suggestion["title_de"] if german else suggestion["title_en"],
        explanation=suggestion["explanation_de"] if german else suggestion["explanation_en"],
    )


def _local_labels(citations: list[dict]) -> list[dict]:
    """``citations`` (dicts with ``rulebook``, ``section``, ``label``) with each label in the
    page's language (:meth:`poker.rulebooks.Citation.label_in`: "TDA 2024 Regel 49")."""
    lang = (get_language() or "en")[:2]
    return [
        dict(c, label=Citation(c["rulebook"], c["section"]).label_in(lang)) if c.get("rulebook") else c
        for c in citations
    ]


def _cited(suggestions: list[dict]) -> list[dict]:
    """The citations of the suggestions, each once, in order (the floor ticks the ones he applies)."""
    out: list[dict] = []
    for s in suggestions:
        for c in s["citations"]:
            item = {k: c.get(k) for k in ("rulebook", "section", "label", "url")}
            if item not in out:
                out.append(item)
    return out


def _with_urls(ruling: Ruling) -> Ruling:
    ruling.cites = _local_labels([dict(c, url=rules_citations.citation_url(c)) for c in ruling.citations])
    return ruling


#: The fields of the correction form kept when the floor's submission is refused (one value each,
#: or a list for the check boxes).
KEPT_FIELDS = ("index", "ctype", "action", "amount", "seat", "citation_text", "decision")
KEPT_LISTS = ("held", "seats", "cite")


def _kept(data) -> dict:
    """What the floor had picked in a refused correction form, to show it again unchanged."""
    kept: dict = {name: str(data.get(name, "")) for name in KEPT_FIELDS}
    for name in KEPT_LISTS:
        kept[name] = [str(v) for v in data.getlist(name)]
    kept["posted"] = True
    return kept


def _fact_seats(call: FloorCall, names: dict[int, str]) -> list[dict]:
    """The seats the floor can pick when a call lacks its seat: the players dealt into the hand."""
    players = ((call.context.get("table", {}).get("hand") or {}).get("state") or {}).get("players") or []
    return [
        {"seat": p["seat"], "player": p.get("player") or names.get(p["seat"], ""), "folded": p.get("folded")}
        for p in players
        if isinstance(p, dict) and "seat" in p
    ]


def _call_page(request, call: FloorCall, kept: dict | None = None, status: int = 200):
    """The floor call page; ``kept``: the correction form as the floor had filled it (a refused apply)."""
    needs = services.call_needs(call)
    suggestions = [] if needs else [_localised(s) for s in services.suggestions_for(call)]
    table = Table.objects.select_related("current_hand").get(pk=call.table_id)
    hand_now = table.current_hand if table.current_hand_id == call.hand_id else call.hand
    shown = hand_now or call.hand
    names = rules_corrections.seat_names(shown)
    game = shown.spec.get("game") if shown is not None else None
    context_state = (call.context.get("table", {}).get("hand") or {}).get("state")
    is_open = call.status in (FloorCall.Status.OPEN, FloorCall.Status.ANSWERED)
    now_events = handwords.events_in_words(hand_events(hand_now), names, game) if hand_now is not None else []
    by_index = {e["index"]: e for e in now_events}
    for s in suggestions:
        s["corrections_text"] = [handwords.correction_text(c, names, by_index) for c in s["corrections"]]
        s["citations"] = _local_labels(s["citations"])
    citations = _cited(suggestions)
    for c in _local_labels(services.reason_citations(call)):
        if c not in citations:
            citations.append(c)
    citations = _local_labels(citations)
    for c in citations:
        c["value"] = f"{c['rulebook']}|{c['section']}"
    return render(
        request,
        "rules/floor_call.html",
        {
            "call": call,
            "is_open": is_open,
            "needs": needs,
            "fact_seats": _fact_seats(call, names) if needs else [],
            "context_state": context_state,
            "context_phase": handwords.phase_text(context_state),
            "context_events": handwords.events_in_words(call.context.get("events", []), names, game),
            "now_state": hand_now.snapshot if hand_now is not None else None,
            "now_phase": handwords.phase_text(hand_now.snapshot if hand_now is not None else None),
            "now_events": now_events,
            "hand_now": hand_now,
            "suggestions": suggestions,
            "citations": citations,
            "options": rules_corrections.correction_options(call) if is_open else None,
            "rulings": [_with_urls(r) for r in call.rulings.all()],
            "kept": kept or {},
        },
        status=status,
    )


@floor_required
def floor_call(request, call_id):
    """One floor call with its context, suggested rulings and the point-and-click correction; a call
    that lacks a fact (:func:`rules.services.call_needs`) asks for it instead of suggesting rulings."""
    call = get_object_or_404(FloorCall.objects.select_related("table", "hand", "raised_by", "answered_by"), pk=call_id)
    return _call_page(request, call)


@floor_required
@require_POST
def floor_call_fact(request, call_id):
    """The floor supplies the fact the call lacked (``seat``); the suggestions follow on the call page."""
    raw = request.POST.get("seat", "").strip()
    try:
        seat = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else None
        services.supply_call_fact(call_id, seat=seat, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("rules:floor_call", call_id)


@floor_required
@require_POST
def floor_call_preview(request, call_id):
    """The hand as it would stand after the correction picked on the call page (the same form fields as
    ``rule/``): JSON ``{"ok": true, "html": fragment, "text": correction in words}`` or
    ``{"ok": false, "error": message}``.  Changes nothing."""
    call = get_object_or_404(FloorCall, pk=call_id)
    try:
        item = rules_corrections.correction_from_form(call, request.POST)
    except ServiceError as exc:
        return JsonResponse({"ok": False, "error": exc.message})
    result = rules_corrections.preview_correction(call, item)
    if not result["ok"]:
        return JsonResponse({"ok": False, "error": result["error"], "text": result.get("text", "")})
    html = render_to_string(
        "rules/_preview.html",
        {"preview": result, "state": result["state"], "phase": handwords.phase_text(result["state"])},
        request=request,
    )
    return JsonResponse({"ok": True, "html": html, "text": result["text"]})


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
    """Apply a suggested ruling (``suggestion`` = its key), the correction picked on the page
    (``ctype`` and its fields, :func:`rules.corrections.correction_from_form`; ``cite`` = ticked
    "rulebook|section" values, ``citation_text`` = typed citations, ``decision`` optional), or for
    API use the floorman's own ruling (``decision`` text, ``citations`` as "rulebook:section" or
    label lines, ``corrections`` as a JSON list)."""
    call = get_object_or_404(FloorCall, pk=call_id)
    key = request.POST.get("suggestion", "")
    from_form = not key and bool(request.POST.get("ctype"))
    try:
        if from_form:
            item = rules_corrections.correction_from_form(call, request.POST)
            citations = []
            for value in request.POST.getlist("cite"):
                book, _sep, section = value.partition("|")
                citations.append(rules_citations.parse_citation(f"{book}:{section}"))
            for c in rules_citations.parse_citations([request.POST.get("citation_text", "")]):
                if c not in citations:
                    citations.append(c)
            if not citations:
                raise ServiceError("invalid", _("Cite the rule you apply: tick a citation or type one (e.g. 004 #35)."))
            decision_en, decision_de = rules_corrections.correction_decision(call, item)
            own = request.POST.get("decision", "").strip()
            services.make_ruling(
                call.table_id,
                floor_call_id=call.id,
                decision=own or decision_en,
                decision_de="" if own else decision_de,
                citations=citations,
                corrections=[item],
                actor=request.user,
            )
        elif key:
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
            citations = rules_citations.parse_citations(request.POST.get("citations", "").splitlines())
            raw = request.POST.get("corrections", "").strip() or "[]"
            try:
                corrections = schemas.load_json(raw)
            except schemas.MessageError:
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
        message = exc.message
        if exc.code == "correction_conflict":
            message = rules_corrections.conflict_text(call.hand, exc.code, exc.message)
        messages.error(request, message)
        if from_form:  # the form as the floor filled it, to mend the one field refused
            call = FloorCall.objects.select_related("table", "hand", "raised_by", "answered_by").get(pk=call_id)
            return _call_page(request, call, kept=_kept(request.POST), status=400)
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
    """Rulings searchable by citation or text (``?q=``: "004 #35", "#35", "tda-2024:35",
    "misdeal", "Overchip", a word of the decision; ``?rule=`` is the same), table (``?table=`` id),
    player (``?player=`` name part) and date (``?from=``/``?to=`` ISO dates)."""
    table = query_text(request, "table")
    player = query_text(request, "player")
    text = query_text(request, "q") or query_text(request, "rule")
    start, end = _date(query_text(request, "from")), _date(query_text(request, "to"))
    qs = rules_citations.search_rulings(
        text,
        table=int(table) if table.isascii() and table.isdigit() and int(table) < 2**31 else None,
        player=player,
        start=start,
        end=end,
    ).select_related("table", "hand", "made_by")
    page = Paginator(qs.prefetch_related("players"), 50).get_page(request.GET.get("page"))
    german = (get_language() or "en").startswith("de")
    for r in page:
        r.shown_decision = r.decision_de if german and r.decision_de else r.decision
    params = request.GET.copy()
    params.pop("page", None)
    return render(
        request,
        "rules/rulings.html",
        {
            "page": page,
            "query": params.urlencode(),
            "tables": Table.objects.order_by("name"),
            "filters": {
                "q": text,
                "table": table,
                "player": player,
                "from": query_text(request, "from"),
                "to": query_text(request, "to"),
            },
        },
    )


@floor_required
def ruling(request, ruling_id):
    """One ruling: decision, citations with their rules' summaries, corrections in words, the hand."""
    item = get_object_or_404(Ruling.objects.select_related("table", "hand", "made_by", "floor_call"), pk=ruling_id)
    return render(
        request,
        "rules/ruling.html",
        {
            "ruling": item,
            "view": rules_citations.ruling_view(item),
            "penalties": item.penalties.select_related("player"),
        },
    )


@floor_required
def player(request, player_id):
    """A player's history: rulings and penalties."""
    who = get_object_or_404(Player, pk=player_id)
    return render(request, "rules/player.html", {"player": who, **services.player_history(who)})
