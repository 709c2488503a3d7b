"""The chip-count desk: a table's counts, the leaderboard, average and
median in big blinds, the chips-in-play check, the chip race and the chip
leaders on the TV."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tables.models import Seat
from tables.writepath import ServiceError
from tournaments import services
from tournaments.http import json_body, refused, require_floor
from tournaments.models import Tournament
from tournaments.services import chipcounts

__all__ = ["chip_counts", "chip_counts_api"]


@login_required
def chip_counts(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The chip-count desk: enter a table's counts, the leaderboard, average and median in big blinds, the check."""
    require_floor(request)
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
    require_floor(request)
    t = get_object_or_404(Tournament, pk=tournament_id)
    try:
        if request.method == "POST":
            body = json_body(request)
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
                numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool) and v > 0]
                if len(numbers) != 3:
                    raise ServiceError("invalid", _("a chip race names the table, the chip removed and the new chip"))
                services.chip_race(
                    t.id, numbers[0], numbers[1], numbers[2], again=body.get("again") is True, actor=request.user
                )
            elif body.get("op") == "leaders":
                chipcounts.show_chip_leaders(t.id, body.get("show") is True, actor=request.user)
            else:
                raise ServiceError("invalid", _("unknown operation %(op)s") % {"op": body.get("op")})
            t.refresh_from_db()
    except ServiceError as exc:
        return refused(exc)
    return JsonResponse(_chip_state(t))
