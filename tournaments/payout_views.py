"""The director's payout desk: ``/tournaments/<id>/payouts/`` (prize pool,
payout table, final-table deal, printable result sheet) and
``/tournaments/<id>/payouts/results.csv``, the export for player-ranking
sites ``.../payouts/ranking.csv`` and the payout slips ``.../payouts/slips/``.
Floor staff and managers only.

The page is plain HTML forms (POST with ``op``: ``compute``, ``edit``,
``preview``, ``deal``, ``bust_order``: ``entry`` and ``move``, a correction of
the order the players went out in); a write redirects back to the page, a refusal
renders the page again with the message (status 400) and changes nothing.
Writes go through ``tournaments.services.payouts``.

The print-styled pages (the results, the payout slips, the seat cards and the
table sheets) answer ``?format=pdf`` with the same page as a PDF download
(:mod:`tournaments.pdf`).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tables.writepath import ServiceError
from tournaments.http import require_floor
from tournaments.models import Tournament
from tournaments.pdf import pdf_response, wants_pdf
from tournaments.services import payouts as desk
from tournaments.services import places
from tournaments.services.reading import payout_table_of


def _whole(text: str, label: str) -> int:
    """``text`` as an int 0..10**12, else ``ServiceError("invalid")`` naming ``label``."""
    text = (text or "").strip().replace("'", "").replace("’", "")
    if not (text.isascii() and text.isdigit()) or len(text) > 12:  # "²" passes isdigit(), not int()
        raise ServiceError("invalid", _("%(field)s: enter a whole number.") % {"field": label})
    return int(text)


def _post(request: HttpRequest, t: Tournament) -> dict | None:
    """Run the POSTed ``op``; returns a deal preview, or ``None`` after a write."""
    op = request.POST.get("op")
    if op == "compute":
        desk.compute_payouts(
            t.id,
            unit=_whole(request.POST.get("unit", ""), _("Payout unit")),
            fee=_whole(request.POST.get("fee", ""), _("Fee per buy-in")),
            actor=request.user,
        )
    elif op == "edit":
        texts = request.POST.getlist("amount")
        if len(texts) > 1000:
            raise ServiceError("invalid", _("Too many places."))
        amounts = [_whole(x, _("Place %(place)s") % {"place": i}) for i, x in enumerate(texts, start=1)]
        while amounts and amounts[-1] == 0:
            amounts.pop()  # places left at 0 at the end are not paid
        if not amounts:
            raise ServiceError("invalid", _("Every prize must be a whole amount of 0 or more."))
        desk.set_payouts(t.id, amounts, actor=request.user)
    elif op == "preview":
        return desk.deal_preview(t.id, request.POST.get("method", ""))
    elif op == "deal":
        seen = [_whole(x, _("Amount")) for x in request.POST.getlist("seen")]
        desk.record_deal(t.id, request.POST.get("method", ""), seen, actor=request.user)
    elif op == "bust_order":  # the director corrects the order of the busts (audited; places follow)
        entry = _whole(request.POST.get("entry", ""), _("Player"))
        note = (request.POST.get("note") or "")[:200]
        places.correct_bust_order(t.id, entry, request.POST.get("move", ""), note=note, actor=request.user)
    else:
        raise ServiceError("invalid", _("Unknown request."))
    return None


@login_required
def payouts(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The payout desk (GET), or one of its forms (POST, see the module)."""
    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    error = preview = None
    status = 200
    if request.method == "POST":
        try:
            preview = _post(request, t)
            if preview is None:
                return redirect("tournaments:payouts", tournament_id=t.id)
        except ServiceError as exc:
            error, status = exc.message, 400
        t.refresh_from_db()
    pool = desk.pool_of(t)
    table = payout_table_of(t)
    places = []
    if table is not None:
        for place, amount in enumerate(table.amounts, start=1):
            share = f"{100 * amount / table.prize_pool:.2f}" if table.prize_pool else "0.00"
            places.append({"place": place, "amount": amount, "percent": share})
    context = {
        "t": t,
        "pool": pool,
        "table": table,
        "places": places,
        "stored": bool(t.payouts) and table is not None and list(table.amounts) == list(t.payouts),
        "players": desk.players_left(t),
        "preview": preview,
        "deal": t.deal or None,
        "results": desk.result_rows(t),
        "error": error,
    }
    if wants_pdf(request) and request.method == "GET":  # the printed result sheet as a file
        return pdf_response(request, "tournaments/payouts.html", context, f"results-{t.id}.pdf")
    return render(request, "tournaments/payouts.html", context, status=status)


@login_required
def results_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The result sheet as CSV (``place,name,prize``), as a download."""
    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    response = HttpResponse(desk.result_csv(t), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="results-{t.id}.csv"'
    return response


@login_required
def ranking_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The results for player-ranking sites (``Place,Name,Country,Prize``), as a download."""
    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    response = HttpResponse(desk.ranking_csv(t), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ranking-{t.id}.csv"'
    return response


@login_required
def payout_slips(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The payout slips, one per player paid, as a print-styled page
    (:func:`tournaments.services.payouts.payout_slips`)."""
    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    context = {"t": t, "slips": desk.payout_slips(t)}
    if wants_pdf(request):
        return pdf_response(request, "tournaments/payout_slips.html", context, f"payout-slips-{t.id}.pdf")
    return render(request, "tournaments/payout_slips.html", context)


SEAT_CARD_PAGE = "@page { size: 80mm 75mm; margin: 4mm; }"
"""The PDF's page for a seat card: 80 mm wide like the receipt paper (a PDF page needs a height)."""


@login_required
def seat_cards(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Seat cards for an 80 mm receipt printer, one per seated player (tournament,
    table, seat, name), by table and seat: a print-styled page from the desk."""
    from tables.models import Seat

    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    seats = (
        Seat.objects.filter(table__tournament_table__tournament=t, player__isnull=False)
        .select_related("player", "table__tournament_table")
        .order_by("table__tournament_table__number", "number")
    )
    cards = [{"table": s.table.tournament_table.number, "seat": s.number, "name": s.occupant.name} for s in seats]
    context = {"t": t, "cards": cards}
    if wants_pdf(request):  # one 80 mm wide page per card, as the receipt printer cuts them
        return pdf_response(
            request, "tournaments/print_seat_cards.html", context, f"seat-cards-{t.id}.pdf", page_css=SEAT_CARD_PAGE
        )
    return render(request, "tournaments/print_seat_cards.html", context)


@login_required
def table_sheets(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Table sheets: each table's seats and players (one printed page per table),
    a print-styled page from the desk."""
    from tables.models import Seat
    from tournaments.models import TournamentTable

    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    names = {
        (s.table_id, s.number): s.occupant.name
        for s in Seat.objects.filter(table__tournament_table__tournament=t, player__isnull=False).select_related(
            "player"
        )
    }
    sheets = []
    for tt in TournamentTable.objects.filter(tournament=t).select_related("table").order_by("number"):
        seats = [{"seat": n, "name": names.get((tt.table_id, n), "")} for n in range(1, tt.table.max_seats + 1)]
        if any(s["name"] for s in seats):
            sheets.append({"number": tt.number, "seats": seats})
    context = {"t": t, "sheets": sheets}
    if wants_pdf(request):
        return pdf_response(request, "tournaments/print_table_sheets.html", context, f"table-sheets-{t.id}.pdf")
    return render(request, "tournaments/print_table_sheets.html", context)
