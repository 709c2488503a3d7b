"""The structure editor's page and its JSON endpoint (levels, breaks,
color-ups, windows; templates, copy, JSON import/export, a structure
generated from a target duration and the estimated end)."""

from __future__ import annotations

import re
import time
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from tables.writepath import ServiceError
from tournaments import services
from tournaments.http import json_body, refused, require_floor
from tournaments.models import Tournament
from tournaments.services import planning, structures

__all__ = ["structure", "structure_api"]


def _expected_players(t: Tournament) -> int:
    """The editor's first guess of the field: the entries paid so far, the capacity, else 30."""
    paid = t.entries.exclude(status__in=["reserved", "waitlisted", "expired", "cancelled"]).count()
    return max(paid, t.capacity or 0) if max(paid, t.capacity or 0) >= 2 else 30


def _start_today(text: Any, now):
    """The clock time ``"19:30"`` today in the room's time zone (settings.TIME_ZONE), or ``None``."""
    match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", str(text or "").strip())
    if match is None:
        return None
    return timezone.localtime(now).replace(hour=int(match[1]), minute=int(match[2]), second=0, microsecond=0)


def _estimate(t: Tournament, data: Any, players: Any, stack: Any, start: Any = None) -> dict[str, Any] | None:
    """The estimated end of structure ``data`` for ``players`` x ``stack`` chips
    (``planning.end_estimate``) as the editor shows it: ``{"period", "level", "seconds", "reached",
    "big_blind", "end": clock time in the room's time zone (settings.TIME_ZONE), "text"}``; before
    the clock starts from ``start`` (``"19:30"`` today, else now), once it runs from the time the
    clock has played.  ``None`` when the inputs are not numbers."""
    try:
        players, stack = int(players), int(stack)
        if players < 2 or stack < 1 or not isinstance(data, dict):
            return None
        estimate = planning.end_estimate(data, players, stack)
    except (TypeError, ValueError, AttributeError):
        return None
    now = timezone.now()
    elapsed = services.clock_of(t).elapsed(time.time()) if t.clock_started_at is not None else 0.0
    begin = (_start_today(start, now) if t.clock_started_at is None else None) or now
    end = timezone.localtime(planning.end_time(begin, estimate, elapsed))
    same_day = end.date() == timezone.localtime(now).date()
    clock_time = date_format(end, "H:i") if same_day else date_format(end, "D H:i")  # "Sat 03:20"
    values = {
        "end": clock_time,
        "level": estimate["level"],
        "bb": number_format(estimate["big_blind"], force_grouping=True),
        "players": number_format(players, force_grouping=True),
        "stack": number_format(stack, force_grouping=True),
    }
    if estimate["reached"]:
        text = _(
            "Estimated end: %(end)s, in level %(level)s (big blind %(bb)s or more: "
            "%(players)s players × %(stack)s chips ÷ 15)."
        )
    else:
        text = _(
            "The blinds do not reach %(bb)s (%(players)s players × %(stack)s chips ÷ 15) by the last level "
            "(level %(level)s, over at %(end)s): add levels."
        )
    return {**estimate, "end": clock_time, "text": text % values}


@login_required
def structure(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The structure editor (levels, breaks, color-ups, windows; templates, copy, JSON import/export)."""
    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    others = list(Tournament.objects.exclude(pk=t.pk).values("id", "name")[:100])
    return render(
        request,
        "tournaments/structure.html",
        {
            "t": t,
            "data": {
                "structure": structures.normalise(t.structure),
                "templates": [{"key": c["key"], "label": c["label"]} for c in structures.template_choices()],
                "others": others,
                "rulebook": t.rulebook,
                "started": t.clock_started_at is not None,
                # periods already played stay as they were (set_structure refuses a change): shown locked
                "played": services.clock_of(t).state(time.time()).period_index if t.clock_started_at else 0,
                "planning": {"players": _expected_players(t), "starting_stack": t.starting_stack},
                "labels": {
                    "level": _("Level"),
                    "break": _("Break"),
                    "none": _("none"),
                    "ante": _("ante"),
                    "big_blind_ante": _("big blind ante"),
                    "closed": _("not open"),
                    "end_of": _("to the end of period"),
                    "remove": _("Remove"),
                    "up": _("Move up"),
                    "good": _("The structure is good."),
                    "saved": _("Structure saved."),
                    "bad_file": _("The file is not JSON."),
                    "played": _("played"),
                    "played_hint": _("Played periods cannot change."),
                    "generated": _("Generated: check it, then save the structure."),
                    "template_saved": _(
                        "Saved as template “%(name)s”: it is offered on the form for a new tournament."
                    ),
                },
            },
        },
    )


@login_required
def structure_api(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET: the structure file (``?download=1`` as an attachment), a template
    (``?template=turbo`` or ``saved:<id>``) or another tournament's structure (``?from=<id>``).
    POST ``{"op": "check" | "save" | "import" | "copy", "structure" | "document" | "from"}``, or
    ``{"op": "generate", "hours", "level_minutes", "players", "starting_stack"}`` (a structure that
    reaches its end at the target duration, ``planning.generate``; not stored: answers ``"structure"``
    and ``"estimate"``), ``{"op": "estimate", "structure", "players", "starting_stack", "start"}`` (answers
    ``{"ok": true, "estimate"}``, see :func:`_estimate`),
    ``{"op": "save_template", "name", "structure"}`` (the structure as edited and the tournament's
    settings saved as a template, ``structures.save_template``; answers also ``"template": {"key",
    "name"}``):
    answers ``{"ok": true, "structure", "errors": []}`` or ``{"ok": false, "code",
    "message", "errors"}`` (400; nothing changed).  Floor and managers only."""
    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    try:
        if request.method == "GET":
            if "template" in request.GET:
                structure, _preset = structures.resolve_template(request.GET["template"])
                return JsonResponse({"ok": True, "structure": structures.normalise(structure)})
            if "from" in request.GET:
                other = Tournament.objects.filter(pk=int(request.GET["from"] or 0)).first()
                if other is None:
                    raise ServiceError("not_found", _("no such tournament"))
                return JsonResponse({"ok": True, "structure": structures.normalise(other.structure)})
            response = JsonResponse(structures.export_structure(t), json_dumps_params={"indent": 2})
            if request.GET.get("download"):
                response["Content-Disposition"] = f'attachment; filename="structure-{t.id}.json"'
            return response
        if request.method != "POST":
            return JsonResponse({"ok": False, "code": "invalid", "message": "GET or POST"}, status=405)
        body = json_body(request)
        op = body.get("op")
        if op == "check":
            errors = structures.check_structure(body.get("structure"), t.rulebook)
            return JsonResponse({"ok": not errors, "errors": errors}, status=200 if not errors else 400)
        if op == "generate":
            generated = _generated(body)
            stack, players = body.get("starting_stack"), body.get("players")
            estimate = _estimate(t, generated, players, stack, body.get("start"))
            return JsonResponse({"ok": True, "structure": generated, "errors": [], "estimate": estimate})
        if op == "estimate":
            estimate = _estimate(
                t, body.get("structure"), body.get("players"), body.get("starting_stack"), body.get("start")
            )
            return JsonResponse({"ok": True, "estimate": estimate})
        if op == "save_template":
            saved = structures.save_template(
                t.id, str(body.get("name") or ""), body.get("structure"), actor=request.user
            )
            return JsonResponse(
                {
                    "ok": True,
                    "structure": structures.normalise(t.structure),
                    "errors": [],
                    "template": {"key": f"{structures.SAVED_PREFIX}{saved.id}", "name": saved.name},
                }
            )
        if op == "save":
            t = structures.set_structure(t.id, body.get("structure"), actor=request.user)
        elif op == "import":
            t = structures.import_structure(t.id, body.get("document"), actor=request.user)
        elif op == "copy":
            source = body.get("from")
            if not isinstance(source, int) or isinstance(source, bool):
                raise ServiceError("invalid", _("name the tournament to copy from"))
            t = structures.copy_structure(t.id, source, actor=request.user)
        else:
            raise ServiceError("invalid", _("unknown operation %(op)s") % {"op": op})
    except ValueError:
        return refused(ServiceError("invalid", _("not a tournament number")))
    except ServiceError as exc:
        return refused(exc)
    return JsonResponse({"ok": True, "structure": structures.normalise(t.structure), "errors": []})


def _generated(body: dict) -> dict:
    """``planning.generate`` from the editor's generator fields; ``ServiceError('invalid')`` naming
    the fields' ranges for a value that is no number or out of range."""
    try:
        return planning.generate(
            hours=float(body["hours"]),
            level_minutes=int(body["level_minutes"]),
            players=int(body["players"]),
            starting_stack=int(body["starting_stack"]),
        )
    except (KeyError, TypeError, ValueError, OverflowError):
        message = _(
            "Generate needs a target duration of 0.5 to 24 hours, levels of 1 to 180 minutes, "
            "2 to 10,000 players and a starting stack of at least 100 chips."
        )
        raise ServiceError("invalid", message, errors=[message]) from None
