"""Pages of the tables app: dealer tablet, floor dashboard, hand history, PHH export."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from poker.hand.phh import export_phh, export_stud_phh
from poker.hand.stud_spec import StudSpec
from tables import dealers, handwords, hooks, services
from tables.access import can_deal, is_floor
from tables.models import Hand, Table


def _get_table_for_dealer(request: HttpRequest, table_id: int) -> Table:
    table = get_object_or_404(Table.objects.select_related("dealer"), pk=table_id)
    # The incoming dealer of a push opens the tablet to take over under their own login (issue 28).
    if not can_deal(request.user, table) and not dealers.is_incoming(request.user, table.id):
        raise PermissionDenied
    return table


def _require_floor(request: HttpRequest) -> None:
    if not is_floor(request.user):
        raise PermissionDenied


def dealer_tables(user) -> list[Table]:
    """The open tables ``user`` deals, in the order they were opened (``id``): the first is the one
    the dealer's login opens (:func:`home`, printed by ``load_demo``), all of them are the tablet's
    table switcher.  An empty list for a user who deals no table."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Table.objects.filter(dealer=user, status=Table.Status.OPEN).order_by("id"))


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Send floor staff to the floor dashboard and a dealer to their first table (:func:`dealer_tables`)."""
    if is_floor(request.user):
        return redirect("floor")
    table = next(iter(dealer_tables(request.user)), None)
    if table is not None:
        return redirect("dealer", table_id=table.id)
    return render(request, "tables/no_table.html", status=200)


@login_required
def dealer(request: HttpRequest, table_id: int) -> HttpResponse:
    """The dealer tablet of one table (live over ``/ws/tables/<id>/dealer/``)."""
    table = _get_table_for_dealer(request, table_id)
    # A dealer of several open tables switches between them in the header; one table needs no switcher.
    mine = dealer_tables(request.user)
    switch = mine if len(mine) > 1 and any(t.id == table.id for t in mine) else []
    # A stud table's stakes read as ante, bring-in, small and big bet (tables.hooks.table_stakes); None: blinds.
    stakes = hooks.table_stakes(table)
    return render(
        request,
        "tables/dealer.html",
        {"table": table, "my_tables": switch, "stud": stakes, "double_tap_ms": settings.TABLET_DOUBLE_TAP_MS},
    )


def live_tables():
    """The tables of the live floor: open, and not made to replay imported hands (``Table.imported``, or a
    hand recorded with ``metadata.source == "phh"`` by ``manage.py replay_phh``)."""
    replays = Hand.objects.filter(metadata__source="phh").values("table_id")
    return Table.objects.filter(imported=False).exclude(pk__in=replays)


@login_required
def floor(request: HttpRequest) -> HttpResponse:
    """The floor dashboard: every live table as a row of the room map or a live tile (``/ws/floor/``).

    Imported tables (PHH replays) never show here; they are listed on the archive
    (:func:`tables.archive_views.archive`)."""
    _require_floor(request)
    tables = live_tables().order_by("name")
    return render(
        request,
        "tables/floor.html",
        {
            "tables": tables.filter(status=Table.Status.OPEN),
            "closed_tables": tables.filter(status=Table.Status.CLOSED),
            "imported_count": Table.objects.count() - tables.count(),
            "rulebook_titles": rulebook_titles(),
        },
    )


def rulebook_titles() -> dict[str, str]:
    """``{profile slug: the rulebook's title}`` for the floor tiles ("Regelwerk: Turnierregeln der
    MunotPoker GmbH", never the slug ``munotpoker``): the house rulebooks' own (German) titles, the
    TDA's in the page's language (issue 24)."""
    return {
        "casino-cash": "Cash Game Reglement",
        "wynental": "Allgemeine Turnierregeln (Kartenfreunde Wynental)",
        "betting-rules": "Einsätze und Erhöhungen",
        "nlhe": "Texas Hold'em No Limit (NLHE)",
        "munotpoker": "Turnierregeln der MunotPoker GmbH",
        "tda-2024": _("TDA 2024 standard"),
    }


@login_required
def floor_moves(request: HttpRequest) -> JsonResponse:
    """GET ``/floor/moves/``: the players changing tables that the apps above
    report (``tables.hooks.pending_moves``: a tournament's moves waiting for
    the tablets, 004 #33), for the floor dashboard: ``{"ok": true, "moves": [...]}``."""
    _require_floor(request)
    return JsonResponse({"ok": True, "moves": hooks.pending_moves()})


@login_required
def hand_history(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's hands, newest first, each with its events and a PHH download."""
    _require_floor(request)
    table = get_object_or_404(Table, pk=table_id)
    hands = table.hands.order_by("-number")[:200]
    return render(request, "tables/history.html", {"table": table, "hands": hands})


@login_required
def hand_detail(request: HttpRequest, hand_id: int) -> HttpResponse:
    """One hand: its event log and final state."""
    _require_floor(request)
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    events = handwords.events_in_words(services.hand_events(hand), handwords.names_of(hand.spec), hand.spec.get("game"))
    return render(request, "tables/hand.html", {"hand": hand, "events": events})


def hand_phh_text(hand: Hand) -> str:
    """The hand as PHH (TOML) text: spec, actions, and our metadata."""
    spec = services.spec_from_dict(hand.spec)
    history = [e.payload for e in hand.events.filter(kind="action").order_by("index")]
    metadata = {"event": hand.table.name, "hand": hand.number, **hand.metadata}
    if isinstance(spec, StudSpec):  # Seven Card Stud: variant F7S
        return export_stud_phh(spec, history, **metadata)
    return export_phh(spec, history, **metadata)


@login_required
def hand_phh(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Download one hand as a ``.phh`` file."""
    _require_floor(request)
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    response = HttpResponse(hand_phh_text(hand), content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table{hand.table_id}-hand{hand.number}.phh"'
    return response
