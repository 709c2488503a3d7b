"""Pages of the cash-game floor: the room dashboard (floor and managers),
its one action endpoint, and the lobby screen (no login: display token).

Every change goes through ``room.services``; the views only authorise, parse
and answer JSON.  Live updates come over ``room.consumers``' websockets.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from pokerfloor.runtime import throttle
from room import actions
from room.actions import RoomAction
from room.models import LobbyDisplay, Room
from tables import schemas
from tables.access import MANAGER, is_floor, roles_of
from tables.db import rows as prepared_rows
from tables.writepath import ServiceError


def _get_room_for_floor(request: HttpRequest, slug: str) -> Room:
    if not is_floor(request.user):
        raise PermissionDenied
    return get_object_or_404(Room, slug=slug)


@login_required
def room_index(request: HttpRequest) -> HttpResponse:
    """The first room's dashboard (most houses have one room)."""
    if not is_floor(request.user):
        raise PermissionDenied
    room = Room.objects.order_by("name").first()
    if room is None:
        return render(request, "room/room_none.html")
    return redirect("room_dashboard", slug=room.slug)


@login_required
def room_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The room at a glance for the floor: tables with their seats, lists,
    calls and must-move order, live over ``/ws/room/<slug>/``."""
    room = _get_room_for_floor(request, slug)
    is_manager = MANAGER in roles_of(request.user)
    displays = list(room.displays.filter(revoked=False).order_by("-created_at")) if is_manager else []
    dealers = list(User.objects.filter(groups__name="dealer").order_by("username").values_list("username", flat=True))
    return render(
        request, "room/room.html", {"room": room, "is_manager": is_manager, "displays": displays, "dealers": dealers}
    )


@throttle.limit_token_lookups  # unknown tokens count against the client's address
def lobby(request: HttpRequest, token: str) -> HttpResponse:
    """The lobby screen (TV, 1920×1080) of a room: no login, the display
    link's token is the key; live over ``/ws/lobby/<token>/``."""
    display = LobbyDisplay.objects.select_related("room").filter(token=token, revoked=False).first()
    if display is None:
        raise Http404
    return render(request, "room/lobby.html", {"room": display.room, "token": token})


@login_required
@require_POST
def room_act(request: HttpRequest, slug: str) -> JsonResponse:
    """One floor action on the room: a JSON body ``{"op": ..., ...}`` (see
    :data:`room.actions.ACTIONS`).  Answers ``{"ok": true, "seq", ...}`` or, with status
    400, ``{"ok": false, "code", "message", ...}``; a refused action changes
    nothing.  Floor and manager roles only (403 otherwise)."""
    room = _get_room_for_floor(request, slug)
    try:
        message = schemas.parse(RoomAction, request.body or b"{}")
        extra = actions.run(room, message, request.user)
    except (ServiceError, schemas.MessageError) as exc:
        return JsonResponse({"ok": False, **exc.as_dict()}, status=400)
    ((seq,),) = prepared_rows(f"SELECT seq FROM {Room._meta.db_table} WHERE id = %s", [room.id])
    return JsonResponse({"ok": True, "seq": seq, **extra})
