"""The hand archive's pages (issue 27): ``/floor/archive/`` lists the hands ``manage.py import_phh`` archived
(:class:`tables.models.ArchivedHand`), searchable by player, table, date and pot and paged, beside the tables
``manage.py replay_phh`` made; one archived hand in words; downloads as ``.phh`` and, for any filtered set
(a table's session, a player's hands, a day), as one ``.phhs``.  Floor staff only."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, F, Q, QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify

from tables import handwords
from tables.access import is_floor
from tables.models import ArchivedHand, ArchivedHandPlayer, Hand, Table, name_key
from tables.phh_import import archived_phh, iter_phhs

#: Hands per archive page.
PAGE_SIZE = 50
#: The most hands one ``.phhs`` download holds (a bigger set: narrow the filters).
EXPORT_LIMIT = 20_000


def _require_floor(request: HttpRequest) -> None:
    if not is_floor(request.user):
        raise PermissionDenied


def _day(value: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        return None


def _chips(value: str) -> int | None:
    try:
        return int(value.strip())
    except ValueError:
        return None


def archive_filters(params: Any) -> dict[str, str]:
    """The archive's search fields from a query string: ``player`` (a name, or the beginning of one of its
    words; case, accents and extra spaces do not count), ``table`` (part of the record's table or event name), ``file`` (one
    source file: a table's session), ``date_from``/``date_to`` (``YYYY-MM-DD``, the day played),
    ``pot_min``/``pot_max`` (chips).  Blank fields are left out."""
    keys = ("player", "table", "file", "date_from", "date_to", "pot_min", "pot_max")
    return {k: params.get(k, "").strip() for k in keys if params.get(k, "").strip()}


def archived_hands(filters: dict[str, str]) -> QuerySet[ArchivedHand]:
    """The archived hands the filters (:func:`archive_filters`) select, newest played first (hands without
    a date last); an unreadable date or pot is ignored."""
    hands = ArchivedHand.objects.all()
    if key := name_key(filters.get("player", "")):
        # a name or the beginning of one of its words ("ras" finds Brian Rast)
        named = ArchivedHandPlayer.objects.filter(Q(name_key__startswith=key) | Q(name_key__contains=f" {key}"))
        hands = hands.filter(pk__in=named.values("hand_id"))
    if table := filters.get("table"):
        hands = hands.filter(Q(table_name__icontains=table) | Q(event__icontains=table))
    if file := filters.get("file"):
        hands = hands.filter(source_file=file)
    if day := _day(filters.get("date_from", "")):
        hands = hands.filter(played_at__date__gte=day)
    if day := _day(filters.get("date_to", "")):
        hands = hands.filter(played_at__date__lte=day)
    if (pot := _chips(filters.get("pot_min", ""))) is not None:
        hands = hands.filter(pot__gte=pot)
    if (pot := _chips(filters.get("pot_max", ""))) is not None:
        hands = hands.filter(pot__lte=pot)
    return hands.order_by(F("played_at").desc(nulls_last=True), "source_file", "number")


def imported_tables() -> QuerySet[Table]:
    """The tables ``manage.py replay_phh`` made (``Table.imported`` or a hand recorded from a PHH file), newest
    first, with their hand counts: never on the live floor."""
    replays = Hand.objects.filter(metadata__source="phh").values("table_id")
    return (
        Table.objects.filter(Q(imported=True) | Q(pk__in=replays))
        .annotate(hand_count=Count("hands"))
        .order_by("-created_at", "-id")
    )


@login_required
def archive(request: HttpRequest) -> HttpResponse:
    """GET ``/floor/archive/``: the archived hands matching the search (:func:`archive_filters`), 50 a page
    (``?page=N``), each linking to its page and its ``.phh``; the whole set as one ``.phhs``; below, the
    tables ``replay_phh`` made (their hand histories)."""
    _require_floor(request)
    filters = archive_filters(request.GET)
    page = Paginator(archived_hands(filters).prefetch_related("seats"), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "tables/archive.html",
        {
            "page": page,
            "filters": filters,
            "query": urlencode(filters),  # the search without blank fields, for the page and export links
            "tables": imported_tables()[:200],
        },
    )


@login_required
def archive_export(request: HttpRequest) -> StreamingHttpResponse:
    """GET ``/floor/archive/export.phhs?<filters>``: every archived hand the search selects (up to
    :data:`EXPORT_LIMIT`), in the archive's order, as one ``.phhs`` file (``[1]``, ``[2]`` ...), which
    ``import_phh`` reads back to the same results."""
    _require_floor(request)
    filters = archive_filters(request.GET)
    hands = archived_hands(filters)[:EXPORT_LIMIT]
    name = slugify("-".join(filters.values())) or "all"
    # streamed hand by hand: a big set is never held whole in memory
    response = StreamingHttpResponse(
        iter_phhs(hands.iterator(chunk_size=500)), content_type="application/toml; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="archive-{name[:60]}.phhs"'
    return response


@login_required
def archived_hand(request: HttpRequest, hand_id: int) -> HttpResponse:
    """GET ``/floor/archive/<id>/``: one archived hand: where it comes from, its players and result, and its
    actions in words (:func:`tables.handwords.events_in_words`)."""
    _require_floor(request)
    hand = get_object_or_404(ArchivedHand, pk=hand_id)
    events = [{"index": i, "kind": "action", "payload": a} for i, a in enumerate(hand.actions)]
    words = handwords.events_in_words(events, handwords.names_of(hand.spec), hand.spec.get("game"))
    return render(request, "tables/archived_hand.html", {"hand": hand, "events": words})


@login_required
def archived_hand_phh(request: HttpRequest, hand_id: int) -> HttpResponse:
    """GET ``/floor/archive/<id>/phh/``: one archived hand as a ``.phh`` file."""
    _require_floor(request)
    hand = get_object_or_404(ArchivedHand, pk=hand_id)
    response = HttpResponse(archived_phh(hand), content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="archive-{hand.pk}.phh"'
    return response
