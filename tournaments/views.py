"""Pages of the tournaments app: the list, the director's page, the lobby
screen (no login: ``/tournaments/lobby/<public_token>/``, an unguessable
link), the director's JSON action endpoint and the tablet's absent-player
endpoint.  The structure editor is :mod:`tournaments.structure_views`, the
chip-count desk :mod:`tournaments.chip_views`, payouts and prints
:mod:`tournaments.payout_views`.  Writes go through ``tournaments.services``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pokerfloor.runtime import throttle
from tables import schemas
from tables.access import can_deal
from tables.models import Table
from tables.services import ServiceError
from tournaments import services
from tournaments.actions import DirectorAction
from tournaments.actions import run as run_action
from tournaments.http import require_floor
from tournaments.models import Entry, Tournament
from tournaments.schemas import AbsentBody, MoveConfirmBody, parse_desk
from tournaments.services import desk, structures
from tournaments.services.reading import GONE_STATUSES
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
    require_floor(request)
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
    require_floor(request)
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


@login_required
@require_POST
def action(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """POST ``{"op": ..., ...}`` (``tournaments.actions.DirectorAction``, run by the service
    its ``op`` names in ``tournaments.actions.ACTIONS``); answers ``{"ok": true}`` or
    ``{"ok": false, "code", "message"}`` (status 400).  Floor and managers only."""
    require_floor(request)
    get_object_or_404(Tournament, pk=tournament_id)
    try:
        run_action(tournament_id, parse_desk(DirectorAction, request.body or b"{}"), request.user)
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
    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    found = search_players(request.GET.get("q", "")[:100])
    status = dict(
        Entry.objects.filter(tournament=t, player__in=found)
        .exclude(status__in=GONE_STATUSES)
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
    require_floor(request)
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
