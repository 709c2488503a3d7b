"""Pages of the tournaments app: the list, the director's page, the lobby
screen (no login: ``/tournaments/lobby/<public_token>/``, an unguessable
link), the director's JSON action endpoint and the tablet's absent-player
endpoint.  Writes go through ``tournaments.services``."""

from __future__ import annotations

import re
import time
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables import schemas, throttle
from tables.access import can_deal, is_floor
from tables.models import Seat, Table
from tables.services import ServiceError
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.schemas import AbsentBody, DirectorAction, MoveConfirmBody, parse_desk
from tournaments.services import chipcounts, desk, planning, registration, structures
from tournaments.services import floor_tables as tables_desk
from tournaments.services.registration import search_players

DEFAULT_STRUCTURE = {
    "periods": [
        {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
        {"kind": "level", "small_blind": 200, "big_blind": 400, "minutes": 20},
        {
            "kind": "level",
            "small_blind": 300,
            "big_blind": 600,
            "ante": 600,
            "ante_kind": "big_blind_ante",
            "minutes": 20,
        },
        {"kind": "break", "minutes": 10, "color_up": [100]},
        {
            "kind": "level",
            "small_blind": 400,
            "big_blind": 800,
            "ante": 800,
            "ante_kind": "big_blind_ante",
            "minutes": 20,
        },
        {
            "kind": "level",
            "small_blind": 500,
            "big_blind": 1000,
            "ante": 1000,
            "ante_kind": "big_blind_ante",
            "minutes": 20,
        },
    ],
    "late_registration_until": 2,
}
"""House default structure (chips; big blind antes equal to the big blind, 004 #81)."""


def _require_floor(request: HttpRequest) -> None:
    if not is_floor(request.user):
        raise PermissionDenied


def _form_int(post, key: str, label: str, default: int | None, *, low: int = 0, high: int = 10**9) -> int | None:
    """A whole number from the create form: ASCII digits only (``"²"`` or ``"20k"`` is refused, not
    read), ``default`` when the box is empty, else ``ServiceError('invalid')`` naming ``label``."""
    text = (post.get(key) or "").strip().replace("'", "").replace("’", "")
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ServiceError(
            "invalid",
            _("%(field)s: enter a whole number from %(low)s to %(high)s.")
            % {
                "field": label,
                "low": number_format(low, force_grouping=True),
                "high": number_format(high, force_grouping=True),
            },
        )
    return int(text)


FORM_SETTINGS = (
    # (form field, tournament setting, house default when neither the form nor the template says)
    ("starting_stack", "starting_stack", 20000),
    ("buy_in", "buy_in", 100),
    ("fee", "fee", 0),
    ("max_seats", "max_seats", None),
    ("re_entries", "re_entries_allowed", 0),
    ("rebuys", "rebuys_allowed", 0),
    ("add_ons", "add_ons_allowed", 0),
    ("rebuy_max_stack", "rebuy_max_stack", None),
    ("guarantee", "guarantee", 0),
    ("rebuy_cost", "rebuy_cost", None),
    ("rebuy_chips", "rebuy_chips", None),
    ("add_on_cost", "add_on_cost", None),
    ("add_on_chips", "add_on_chips", None),
)
"""The create form's number fields: an empty field takes the picked template's setting, else the default."""


def _form_settings(post, preset: dict[str, Any]) -> dict[str, Any]:
    """The create form's settings: each field as typed, an empty one from ``preset`` (the template's
    settings, :func:`structures.resolve_template`), else the house default; ``ServiceError('invalid')``
    for a field that is no whole number in its range."""
    labels = {
        "starting_stack": (_("Starting stack"), 1, 10**9),
        "buy_in": (_("Buy-in"), 0, 10**9),
        "fee": (_("Fee per buy-in"), 0, 10**9),
        "max_seats": (_("Seats per table"), 2, 10),
        "re_entries": (_("Re-entries"), 0, 100),
        "rebuys": (_("Rebuys"), 0, 100),
        "add_ons": (_("Add-ons"), 0, 100),
        "rebuy_max_stack": (_("Rebuy only at or below (chips)"), 0, 10**9),
        "guarantee": (_("Guarantee"), 0, 10**9),
        "rebuy_cost": (_("Rebuy cost"), 0, 10**9),
        "rebuy_chips": (_("Rebuy chips"), 1, 10**9),
        "add_on_cost": (_("Add-on cost"), 0, 10**9),
        "add_on_chips": (_("Add-on chips"), 1, 10**9),
    }
    out: dict[str, Any] = {}
    for field, key, default in FORM_SETTINGS:
        label, low, high = labels[field]
        value = preset.get(key, default)
        out[key] = _form_int(post, field, label, value if value is not None else None, low=low, high=high)
    double = (post.get("double_rebuy") or "").strip()
    out["double_rebuy"] = double == "1" if double else bool(preset.get("double_rebuy", False))
    return out


@login_required
def index(request: HttpRequest) -> HttpResponse:
    """Tournaments, newest first; floor staff create one from a template (the house default, a
    built-in structure or one the director saved with its settings: ``template`` = ``""``, ``turbo``,
    ``saved:<id>``): stack, buy-in and fee, seats per table, guarantee, re-entries, rebuys and add-ons
    (how many, their cost and chips, double rebuys; a rebuy only at or below a stack the event sets,
    001 Re-buy/Add-on, 004 #27; their windows are set in the structure editor).  A field left empty
    takes the template's setting (the page's script fills them in when a template is picked)."""
    _require_floor(request)
    error = None
    if request.method == "POST":
        p = request.POST
        try:
            key = (p.get("template") or "").strip()
            structure, preset = structures.resolve_template(key) if key else (DEFAULT_STRUCTURE, {})
            rulebook = p.get("rulebook", "") or preset.get("rulebook", "")
            t = services.create_tournament(
                p.get("name", "").strip(),
                rulebook,
                structure,
                **_form_settings(p, preset),
                template=key,
                actor=request.user,
            )
            return redirect("tournaments:director", tournament_id=t.id)
        except ServiceError as exc:
            error = exc.message
    return render(
        request,
        "tournaments/index.html",
        {
            "tournaments": Tournament.objects.all()[:100],
            "error": error,
            "form": request.POST or None,
            "templates": structures.template_choices(),
        },
    )


@login_required
def director(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament director's page (live over ``/ws/tournaments/<id>/``)."""
    _require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    dealers = User.objects.filter(groups__name="dealer", is_active=True).order_by("username")  # issue 23 #7
    return render(
        request, "tournaments/director.html", {"t": t, "dealers": dealers.values_list("username", flat=True)[:500]}
    )


@throttle.limit_token_lookups  # unknown tokens count against the client's address
def lobby(request: HttpRequest, token: str) -> HttpResponse:
    """The lobby screen (1920×1080), public, by its unguessable link."""
    t = get_object_or_404(Tournament, public_token=token)
    return render(request, "tournaments/lobby.html", {"t": t})


def _run(tournament_id: int, m: Any, user) -> None:
    """Run one validated director action (``tournaments.schemas.DirectorAction``)."""
    op = m.op
    if op == "register":
        services.register(tournament_id, m.player, player_id=m.player_id, reserve=m.reserve, actor=user)
    elif op == "cancel":
        services.cancel_entry(m.entry, note=m.note, actor=user)
    elif op == "rename":
        services.rename_entry(m.entry, m.player, note=m.note, actor=user)
    elif op == "check_in":
        services.check_in(m.entry, actor=user)
    elif op == "re_enter":
        services.re_enter(m.entry, actor=user)
    elif op == "surrender":
        services.surrender(m.entry, actor=user)
    elif op == "no_rebuy":
        services.decline_rebuy(m.entry, actor=user)
    elif op == "rebuy":
        services.rebuy(m.entry, add_on=m.add_on, double=m.double, actor=user)
    elif op == "seat_waitlist":
        services.seat_waitlist(tournament_id, actor=user)
    elif op == "start":
        services.start(tournament_id, actor=user)
    elif op == "rebalance":
        services.rebalance(tournament_id, actor=user)
    elif op == "execute_moves":
        services.execute_moves(tournament_id, actor=user)
    elif op == "clock":
        services.clock_action(tournament_id, m.clock, seconds=m.seconds, level=m.level, actor=user)
    elif op == "undo_move":
        services.undo_move(m.instruction, actor=user)
    elif op == "chip_race":
        services.chip_race(tournament_id, m.table, m.removed, m.new, cards=m.cards or None, again=m.again, actor=user)
    elif op == "payouts":
        services.set_payouts(tournament_id, list(m.amounts), actor=user)
    elif op == "desk_bust":
        desk.desk_bust(
            tournament_id, [(b.entry, b.stack_at_start) for b in m.busts], won_by=m.won_by, note=m.note, actor=user
        )
    elif op == "desk_chips":
        desk.desk_chips(tournament_id, m.entry, m.amount, m.reason, note=m.note, actor=user)
    elif op == "desk_move":  # a player waiting for a seat is seated there, a seated one moved
        if desk.waiting_for_seat(tournament_id, m.entry):
            desk.desk_seat(tournament_id, m.entry, m.table, m.seat, note=m.note, actor=user)
        else:
            desk.desk_move(tournament_id, m.entry, m.table, m.seat, note=m.note, actor=user)
    elif op == "desk_break":
        desk.desk_break(tournament_id, m.table, note=m.note, actor=user)
    elif op == "desk_hand_played":
        desk.desk_hand_played(tournament_id, m.table, note=m.note, actor=user)
    elif op == "desk_undo":
        desk.desk_undo(tournament_id, m.event, note=m.note, actor=user)
    elif op == "confirm_move":
        desk.confirm_move(m.instruction, "director", actor=user)
    elif op == "absent":
        tt = TournamentTable.objects.filter(tournament_id=tournament_id, number=m.table).first()
        if tt is None:
            raise ServiceError("not_found", _("no table %(table)s") % {"table": m.table})
        services.set_absent(tt.table_id, m.seat, m.absent, actor=user)
    elif op == "dealer":
        tables_desk.assign_dealer(tournament_id, m.table, m.username, actor=user)
    elif op == "add_table":
        tables_desk.add_table(tournament_id, number=m.number or None, seats=m.seats or None, actor=user)


@login_required
@require_POST
def action(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """POST ``{"op": ..., ...}`` (``tournaments.schemas.DirectorAction``); answers ``{"ok": true}`` or
    ``{"ok": false, "code", "message"}`` (status 400).  Floor and managers only."""
    _require_floor(request)
    get_object_or_404(Tournament, pk=tournament_id)
    try:
        _run(tournament_id, parse_desk(DirectorAction, request.body or b"{}"), request.user)
    except (ServiceError, schemas.MessageError) as exc:
        return JsonResponse({"ok": False, **exc.as_dict()}, status=400)
    return JsonResponse({"ok": True})


@login_required
def players_search(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """GET ``/tournaments/<id>/players/?q=ann``: the registration desk's autocomplete -- up to 10
    known players (``services.registration.search_players``: a name word's beginning apart from case
    and accents, or the player ID ``#123`` / ``123``) as ``{"ok": true, "players": [{"id", "name",
    "country", "label": "#123", "status"}]}``; ``status`` is the player's entry in this tournament
    still in it (``registered``, ``seated`` ...) or ``""``.  Floor and managers only."""
    _require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    found = search_players(request.GET.get("q", "")[:100])
    status = dict(
        Entry.objects.filter(tournament=t, player__in=found)
        .exclude(status__in=registration._GONE)
        .values_list("player_id", "status")
    )
    players = [
        {"id": p.id, "name": p.name, "country": p.country, "label": f"#{p.id}", "status": status.get(p.id, "")}
        for p in found
    ]
    return JsonResponse({"ok": True, "players": players})


@login_required
def desk_state(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """GET ``/tournaments/<id>/desk/``: the desk's audit trail and the moves
    waiting for a confirmation (``services.desk.desk_state``), for the
    director's page.  Floor and managers only."""
    _require_floor(request)
    try:
        return JsonResponse({"ok": True, **desk.desk_state(tournament_id)})
    except ServiceError as exc:
        return JsonResponse({"ok": False, **exc.as_dict()}, status=404)


def _absent_labels() -> dict[str, str]:
    """The tablet's words for the absent control (the tablet page belongs to
    the tables app; its strings for this come with the state)."""
    return {
        "title": _("Away from the seat"),
        "away": _("Mark away"),
        "back": _("Mark present"),
        "tag": _("absent"),
        "hint": _("dealt in, blinds and antes posted, hand dead ({rule})."),
    }


@login_required
def absent(request: HttpRequest, table_id: int) -> JsonResponse:
    """``/tournaments/tables/<table_id>/absent/``: the absent players of a
    tournament table, for its tablet (001 Sitzverteilung, 004 #30).

    GET answers ``{"ok": true, "tournament", "table", "seats", "players",
    "rule", "rule_label", "labels"}``; POST ``{"seat": n, "absent": bool}`` marks the
    player away or back (``services.set_absent``) and answers the same, or
    ``{"ok": false, "code", "message"}`` (400).  404 for a table of no
    tournament; 403 unless the user may deal at the table (its dealer, the
    floor, managers)."""
    return _tablet_endpoint(
        request,
        table_id,
        AbsentBody,
        lambda body: services.set_absent(table_id, body.seat, body.absent, actor=request.user),
        lambda: services.absent_state(table_id),
        _absent_labels,
    )


def _tablet_endpoint(request: HttpRequest, table_id: int, body_schema, post, get, labels) -> JsonResponse:
    """A tournament table's tablet endpoint: 403 unless the user may deal at
    the table; GET answers ``get()``, POST parses the body with
    ``body_schema`` and answers ``post(body)``, each as ``{"ok": true,
    **state, "labels": labels()}``; bad input or a refusal answers ``{"ok":
    false, "code", "message"}`` (400; 404 for ``not_found``; 405 for
    another method)."""
    table = get_object_or_404(Table, pk=table_id)
    if not can_deal(request.user, table):
        raise PermissionDenied
    try:
        if request.method == "POST":
            state = post(parse_desk(body_schema, request.body or b"{}"))
        elif request.method == "GET":
            state = get()
        else:
            return JsonResponse({"ok": False, "code": "invalid", "message": "GET or POST"}, status=405)
    except schemas.MessageError as exc:
        return JsonResponse({"ok": False, **exc.as_dict()}, status=400)
    except ServiceError as exc:
        return JsonResponse({"ok": False, **exc.as_dict()}, status=404 if exc.code == "not_found" else 400)
    return JsonResponse({"ok": True, **state, "labels": labels()})


def _json_body(request: HttpRequest) -> dict:
    """The request's JSON object; raises ``ServiceError('invalid')``."""
    try:
        body = schemas.load_json(request.body or b"{}")
    except schemas.MessageError as exc:  # not JSON, too deep or long, a non-finite number
        raise ServiceError("invalid", _("the body is not JSON") + f" ({exc.message})") from None
    if not isinstance(body, dict):
        raise ServiceError("invalid", _("the body is not a JSON object"))
    return body


def _refused(exc: ServiceError) -> JsonResponse:
    return JsonResponse({"ok": False, **exc.as_dict()}, status=404 if exc.code == "not_found" else 400)


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
    _require_floor(request)
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
    _require_floor(request)
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
        body = _json_body(request)
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
            saved = structures.save_template(t.id, body.get("name"), body.get("structure"), actor=request.user)
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
        return _refused(ServiceError("invalid", _("not a tournament number")))
    except ServiceError as exc:
        return _refused(exc)
    return JsonResponse({"ok": True, "structure": structures.normalise(t.structure), "errors": []})


def _generated(body: dict) -> dict:
    """``planning.generate`` from the editor's generator fields; ``ServiceError('invalid')`` naming
    the fields' ranges for a value that is no number or out of range."""
    try:
        return planning.generate(
            hours=float(body.get("hours")),
            level_minutes=int(body.get("level_minutes")),
            players=int(body.get("players")),
            starting_stack=int(body.get("starting_stack")),
        )
    except (TypeError, ValueError, OverflowError):
        message = _(
            "Generate needs a target duration of 0.5 to 24 hours, levels of 1 to 180 minutes, "
            "2 to 10,000 players and a starting stack of at least 100 chips."
        )
        raise ServiceError("invalid", message, errors=[message]) from None


@login_required
def chip_counts(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The chip-count desk: enter a table's counts, the leaderboard, average and median in big blinds, the check."""
    _require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    labels = {
        "seat": _("Seat %(n)s"),
        "table": _("Table %(n)s"),
        "players_n": _("%(n)s players"),
        "in_bb": _("%(n)s BB"),
        "expected": _("expected %(n)s"),
        "match": _("The chips in play match the chips bought."),
        "mismatch": _("Chip count off by %(n)s against entries, rebuys and add-ons."),
        "level_end": _("counted at the end of a level"),
        "break": _("counted at a break"),
        "final_table": _("counted for the final table"),
        "not_counted": _("not counted yet"),
        "recount": _("recount (desk bust)"),  # its chips were credited to no one (issue 23 #12)
        "recount_tables": _("recount table %(tables)s"),
        "race_break": _("Break: the %(chips)s chips leave play (%(rule)s)."),
        "race_no_break": _("The clock is not on a break: a color-up is normally raced at a break (%(rule)s)."),
        "race_title": _("Table %(n)s: %(removed)s → %(new)s"),
        "race_out": _("out"),
        "race_keeps": _("keeps one chip"),
        "race_rounded": _("rounded up"),
        "race_none": _("No chip race yet."),
        "race_again": _("Run it again anyway?"),
    }
    return render(request, "tournaments/chipcounts.html", {"t": t, "labels": labels})


def _chip_state(t: Tournament) -> dict:
    seats = (
        Seat.objects.filter(table__tournament_table__tournament=t, table__tournament_table__broken=False)
        .filter(player__isnull=False)
        .order_by("table__tournament_table__number", "number")
        .values_list("table__tournament_table__number", "number", "player__name", "stack")
    )
    tables: dict[int, list] = {}
    for number, seat, name, stack in seats:
        tables.setdefault(number, []).append({"seat": seat, "player": name, "stack": stack})
    return {
        "ok": True,
        **chipcounts.chip_stats(t),
        "seats": [{"number": n, "seats": s} for n, s in sorted(tables.items())],
        "show_chip_leaders": t.show_chip_leaders,
        "color_up": chipcounts.color_up_state(t),
    }


@login_required
def chip_counts_api(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """GET: the figures (``chipcounts.chip_stats``) and every table's seats.
    POST ``{"op": "count", "table", "moment", "counts": {"<seat>": chips}}``,
    ``{"op": "chip_race", "table", "removed", "new", "again"}`` (a color-up at the
    table, the app dealing the cards: 001 Chip Race, 004 #24; the same race in the
    same period is refused with ``duplicate`` unless ``again``) or
    ``{"op": "leaders", "show": bool}``; answers the GET state or ``{"ok": false,
    "code", "message"}`` (400/404, nothing changed).  Floor and managers only."""
    _require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    try:
        if request.method == "POST":
            body = _json_body(request)
            if body.get("op") == "count":
                counts = body.get("counts")
                table = body.get("table")
                if not isinstance(counts, dict) or not isinstance(table, int) or isinstance(table, bool):
                    raise ServiceError("invalid", _("a count names the table and the chips by seat"))
                try:
                    by_seat = {int(k): v for k, v in counts.items()}
                except ValueError:
                    raise ServiceError("invalid", _("seats are numbers")) from None
                chipcounts.record_chip_counts(
                    t.id, table, by_seat, moment=str(body.get("moment") or ""), actor=request.user
                )
            elif body.get("op") == "chip_race":
                values = [body.get(k) for k in ("table", "removed", "new")]
                if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values):
                    raise ServiceError("invalid", _("a chip race names the table, the chip removed and the new chip"))
                services.chip_race(
                    t.id, values[0], values[1], values[2], again=body.get("again") is True, actor=request.user
                )
            elif body.get("op") == "leaders":
                chipcounts.show_chip_leaders(t.id, body.get("show") is True, actor=request.user)
            else:
                raise ServiceError("invalid", _("unknown operation %(op)s") % {"op": body.get("op")})
            t.refresh_from_db()
    except ServiceError as exc:
        return _refused(exc)
    return JsonResponse(_chip_state(t))


def _moves_labels() -> dict[str, str]:
    """The tablet's words for the move confirmations (see :func:`_absent_labels`)."""
    return {
        "title": _("Players changing tables"),
        "leaving": _("Leaving"),
        "arriving": _("Arriving"),
        "confirm_left": _("Confirm: has left"),
        "confirm_arrived": _("Confirm: has arrived"),
        "waiting": _("confirmed here, waiting for the other table"),
        "hint": _("not dealt in at either table until confirmed ({rule})."),
    }


@login_required
def moves(request: HttpRequest, table_id: int) -> JsonResponse:
    """``/tournaments/tables/<table_id>/moves/``: the moves a tournament
    table's tablet confirms (004 #33).

    GET answers ``{"ok": true, "table", "moves", "rule", "labels"}``
    (``services.desk.table_moves``); POST ``{"instruction": id}`` confirms
    this table's side (the player left or arrived) and answers the same, or
    ``{"ok": false, "code", "message"}`` (400).  404 for a table of no
    tournament; 403 unless the user may deal at the table."""
    return _tablet_endpoint(
        request,
        table_id,
        MoveConfirmBody,
        lambda body: desk.confirm_at_table(table_id, body.instruction, actor=request.user),
        lambda: desk.table_moves(table_id),
        _moves_labels,
    )
