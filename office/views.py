"""The player record's pages (issue 28): search with autocomplete, duplicates and merge, a player's page
(sessions, hours, tournaments, rulings, penalties), the record's edit, the standing (barred, self-excluded)
and the erase.  Floor staff and managers only."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from office.hours import player_sessions
from poker.staff.hours import hours, seconds_by_day
from room.models import QueueEntry
from rules.models import Penalty, Ruling
from tables.access import is_floor
from tables.models import Hand, Player, Table
from tables.players import duplicate_groups, erase_player, find_players, merge_players
from tables.writepath import ServiceError
from tournaments.models import Entry


def require_staff(request: HttpRequest) -> None:
    """Floor staff and managers only (:func:`tables.access.is_floor`), else 403."""
    if not is_floor(request.user):
        raise PermissionDenied


class PlayerForm(forms.ModelForm):
    """The record's fields the staff edit (as little personal data as the job needs)."""

    class Meta:
        model = Player
        fields = ["name", "nickname", "card_number", "phone", "email", "standing", "standing_reason"]
        widgets = {"standing_reason": forms.Textarea(attrs={"rows": 2})}
        help_texts = {"standing_reason": gettext_lazy("Shown to staff only, never to the player.")}


@login_required
def players(request: HttpRequest) -> HttpResponse:
    """``GET /office/players/?q=``: the search (name, nickname, card number, #ID) and the duplicates
    suggested for merging (names one apart from case, spacing and accents)."""
    require_staff(request)
    query = request.GET.get("q", "")
    return render(
        request,
        "office/players.html",
        {"query": query, "found": find_players(query, limit=50), "duplicates": duplicate_groups()},
    )


@login_required
def player_search(request: HttpRequest) -> JsonResponse:
    """``GET /office/players/search.json?q=``: the player record's autocomplete (the room dashboard's
    waitlist form and the office's search box), in the shape ``static/js/player_picker.js`` reads (the
    registration desk's): ``{"ok": true, "players": [{"id", "name", "label", "country", "status",
    "nickname", "card_number", "standing"}]}`` -- at most 10 (:func:`tables.players.find_players`: name,
    nickname, card number, ``#ID``).  ``label`` names the record (``"#12 · C-1042 · Annie"``); ``status``
    is the standing when the player may not play (``"barred"``, ``"self_excluded"``), else ``""``, so the
    list shows a barred player as such (the reason stays on the player's page).  Floor and managers only."""
    require_staff(request)
    found = find_players(request.GET.get("q", "")[:100], limit=10)
    return JsonResponse({"ok": True, "players": [search_row(p) for p in found]})


def search_row(p: Player) -> dict:
    """One player of the autocomplete's answer (see :func:`player_search`)."""
    return {
        "id": p.pk,
        "name": p.name,
        "label": " · ".join(x for x in (f"#{p.pk}", p.card_number, p.nickname) if x),
        "country": p.country,
        "status": "" if p.standing == Player.Standing.OK else p.standing,
        "nickname": p.nickname,
        "card_number": p.card_number,
        "standing": p.standing,
    }


@login_required
def merge(request: HttpRequest) -> HttpResponse:
    """``POST /office/players/merge/`` with ``keep`` and ``duplicate`` (player ids): merge the duplicate
    into the kept player (:func:`tables.players.merge_players`), then show the kept player's page."""
    require_staff(request)
    if request.method != "POST":
        return redirect("office:players")
    try:
        keep, dup = int(request.POST["keep"]), int(request.POST["duplicate"])
        merge_players(keep, dup)
    except (KeyError, ValueError):
        messages.error(request, _("Pick the player to keep and the duplicate."))
        return redirect("office:players")
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("office:players")
    messages.success(request, _("Merged: all the history is on this record now."))
    return redirect("office:player", player_id=keep)


@login_required
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """``/office/players/<id>/``: the record (editable), its sessions and hours from the hands (per session
    and day), tournaments, rulings and penalties; a merged player's page shows the record he is in."""
    require_staff(request)
    record = get_object_or_404(Player, pk=player_id)
    if record.merged_into_id and request.method == "GET":
        return redirect("office:player", player_id=record.merged_into_id)
    form = PlayerForm(request.POST or None, instance=record)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saved."))
        return redirect("office:player", player_id=record.pk)
    found = player_sessions(record.pk)
    names: dict[Hashable, str] = {
        pk: name for pk, name in Table.objects.filter(pk__in={s.table for s in found}).values_list("id", "name")
    }
    sessions = [
        {
            "table": names.get(s.table, ""),
            "start": s.start,
            "end": s.end,
            "hands": s.hands,
            "hours": hours(s.seconds),
        }
        for s in reversed(found)
    ]
    days = [
        {"day": day, "hours": hours(secs)}
        for day, secs in reversed(list(seconds_by_day(found, day_of=lambda m: timezone.localtime(m).date()).items()))
    ]
    hand_ids = list(
        Hand.objects.extra(  # a constant SQL fragment, the id a parameter
            where=[
                "EXISTS (SELECT 1 FROM jsonb_each(tables_hand.metadata->'player_ids') e"
                " WHERE e.value = to_jsonb(%s::int))"
            ],
            params=[record.pk],
        ).values_list("id", flat=True)
    )
    penalties = list(Penalty.objects.filter(player=record).select_related("ruling", "table").order_by("-created_at"))
    rulings = list(
        Ruling.objects.filter(
            pk__in={p.ruling_id for p in penalties}
            | set(Ruling.objects.filter(hand_id__in=hand_ids).values_list("id", flat=True))
        )
        .select_related("table", "hand")
        .order_by("-made_at")
    )
    entries = list(Entry.objects.filter(player=record).select_related("tournament").order_by("-created_at"))
    prizes = defaultdict(int)
    for entry in entries:
        finish = getattr(entry, "finish", None)
        if finish is not None:
            prizes[entry.pk] = finish.prize
    return render(
        request,
        "office/player.html",
        {
            "record": record,
            "form": form,
            "sessions": sessions,
            "days": days,
            "total_hours": hours(sum(s.seconds for s in found)),
            "total_hands": sum(s.hands for s in found),
            "entries": [(e, prizes.get(e.pk)) for e in entries],
            "rulings": rulings,
            "penalties": penalties,
            "waits": QueueEntry.objects.filter(player=record).select_related("game").order_by("-joined_at")[:20],
            "merged_from": list(record.merged_from.all()),
        },
    )


@login_required
def erase(request: HttpRequest, player_id: int) -> HttpResponse:
    """``POST /office/players/<id>/erase/`` with ``confirm``: erase the personal data, keep the hands
    anonymised (:func:`tables.players.erase_player`)."""
    require_staff(request)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        erase_player(player_id)
        messages.success(request, _("Erased: the hands stay, under an anonymous name."))
    return redirect("office:player", player_id=player_id)
