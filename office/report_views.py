"""The reports page and its CSV export (issue 28).  Floor staff and managers only."""

from __future__ import annotations

import csv
from datetime import date, datetime, time, timedelta

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from office import charts
from office.reports import Report, hands_by_hour, report
from office.views import require_staff


def period(request: HttpRequest) -> tuple[date, date, datetime, datetime]:
    """The period asked for: ``from`` and ``to`` (ISO dates, both included; default today), as local
    midnights ``[start, end)``."""
    today = timezone.localdate()

    def day(name: str) -> date:
        try:
            return date.fromisoformat(request.GET.get(name, ""))
        except ValueError:
            return today

    first, last = day("from"), day("to")
    if last < first:
        first, last = last, first
    start = timezone.make_aware(datetime.combine(first, time.min))
    end = timezone.make_aware(datetime.combine(last + timedelta(days=1), time.min))
    return first, last, start, end


@login_required
def reports(request: HttpRequest) -> HttpResponse:
    """``/office/reports/?from=&to=``: table hours and hands per hour per table and game, dealers' hours,
    downs and hands, players' hours, waitlist figures and tournament money, with two charts."""
    require_staff(request)
    first, last, start, end = period(request)
    data = report(start, end)
    labels, series = hands_by_hour(start, end)
    no_data = _("No hands in this period")
    return render(
        request,
        "office/reports.html",
        {
            "first": first,
            "last": last,
            "r": data,
            "chart_hands": charts.hands_per_hour_chart(_("Hands per hour by table"), labels, series, no_data),
            "chart_occupancy": charts.occupancy_chart(_("Players per hand by game"), data.games, no_data),
        },
    )


def csv_rows(data: Report) -> list[list]:
    """The report as CSV rows: one block per section, a header row each (English keys, numbers plain)."""
    rows: list[list] = [["section", "name", "game", "hours", "hands", "hands_per_hour", "players_per_hand"]]
    for row in data.tables:
        rows.append(["table", row.table, row.game, row.hours, row.hands, row.hands_per_hour, row.occupancy])
    for row in data.games:
        rows.append(["game", "", row.game, row.hours, row.hands, row.hands_per_hour, row.occupancy])
    rows.append(["section", "dealer", "downs", "hours", "hands"])
    for d in data.dealers:
        rows.append(["dealer", d.dealer, d.downs, d.hours, d.hands])
    rows.append(["section", "player_id", "player", "sessions", "hands", "hours"])
    for p in data.players:
        rows.append(["player", p.player_id, p.name, p.sessions, p.hands, p.hours])
    rows.append(["section", "game", "joins", "call_ups", "no_shows", "seated", "median_wait_minutes"])
    for w in data.waitlists:
        rows.append(["waitlist", w.game, w.joins, w.calls, w.no_shows, w.seated, w.median_wait_minutes])
    rows.append(
        ["section", "tournament", "entries", "re_entries", "rebuys", "add_ons", "fees", "prize_pool", "payouts", "deal"]
    )
    for t in data.tournaments:
        rows.append(
            ["tournament", t.name, t.entries, t.re_entries, t.rebuys, t.add_ons, t.fees, t.pool, t.payouts, t.deal]
        )
    return rows


@login_required
def reports_csv(request: HttpRequest) -> HttpResponse:
    """``/office/reports.csv?from=&to=``: the report's figures as CSV (``text/csv``, a download)."""
    require_staff(request)
    first, last, start, end = period(request)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="pokerfloor-report-{first}-{last}.csv"'
    writer = csv.writer(response)
    writer.writerows(csv_rows(report(start, end)))
    return response
