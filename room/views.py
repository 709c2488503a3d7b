"""Pages of the cash-game floor: the room dashboard (floor and managers),
its one action endpoint, and the lobby screen (no login: display token).

Every change goes through ``room.services``; the views only authorise, parse
and answer JSON.  Live updates come over ``room.consumers``' websockets.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from room import services as floor_room
from room.models import LobbyDisplay, Room
from room.schemas import RoomAction
from tables import schemas, throttle
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


def _check_room(room: Room, **ids: int | None) -> None:
    """Refuse ids of another room (``not_found``).  Keywords: ``game_id``,
    ``table_id``, ``entry_id``, ``call_id``, ``change_id`` (None: not
    checked); see :func:`room.services.room_of`."""
    for key, value in ids.items():
        if value is not None and floor_room.room_of(key.removesuffix("_id"), value) != room.id:
            raise ServiceError("not_found", _("not in this room"))


def _dispatch(room: Room, user, m: Any) -> dict[str, Any]:
    """Run one validated room action (``room.schemas.RoomAction``); returns the extra reply fields."""
    r, op = floor_room, m.op
    if op == "waitlist_add":
        game_id = m.game_id
        _check_room(room, game_id=game_id)
        entry = r.add_to_waitlist(game_id, m.name, source=m.source, actor=user)
        return {"entry_id": entry.id}
    if op == "waitlist_remove":
        _check_room(room, entry_id=m.entry_id)
        r.remove_from_waitlist(m.entry_id, actor=user)
    elif op == "call":
        _check_room(room, game_id=m.game_id)
        r.call_open_seats(m.game_id, actor=user)
    elif op in ("accept", "decline"):
        _check_room(room, call_id=m.call_id)
        (r.accept_call if op == "accept" else r.decline_call)(m.call_id, actor=user)
    elif op == "sweep":
        r.expire_calls(room.id, actor=user)
    elif op == "seat":
        _check_room(room, entry_id=m.entry_id, table_id=m.table_id)
        r.seat_from_list(m.entry_id, m.table_id, m.seat, actor=user)
    elif op in ("buy_in", "add_on"):
        _check_room(room, table_id=m.table_id)
        (r.buy_in if op == "buy_in" else r.add_on)(m.table_id, m.seat, m.amount, actor=user)
    elif op == "leave":
        _check_room(room, table_id=m.table_id)
        r.leave_seat(m.table_id, m.seat, actor=user)
    elif op == "move":
        _check_room(room, table_id=m.from_table_id)
        _check_room(room, table_id=m.to_table_id)
        r.move_player(m.from_table_id, m.from_seat, m.to_table_id, m.to_seat, actor=user)
    elif op == "absent":
        _check_room(room, table_id=m.table_id)
        r.set_absent(m.table_id, m.seat, m.absent, actor=user)
    elif op == "table_open":
        _check_room(room, table_id=m.table_id)
        r.set_table_open(m.table_id, m.open, actor=user)
    elif op == "dealer":
        _check_room(room, table_id=m.table_id)
        username = m.username
        dealer = None
        if username:
            dealer = User.objects.filter(username=username).first()
            if dealer is None:
                raise ServiceError("not_found", _("no user “%(username)s”") % {"username": username})
        r.assign_dealer(m.table_id, dealer, actor=user)
    elif op == "change_request":
        _check_room(room, table_id=m.table_id)
        _check_room(room, table_id=m.to_table_id)
        change = r.request_table_change(m.table_id, m.seat, m.to_table_id, actor=user)
        return {"change_id": change.id}
    elif op == "change_approve":
        _check_room(room, change_id=m.change_id)
        r.approve_table_change(m.change_id, m.seat, actor=user)
    elif op == "change_refuse":
        _check_room(room, change_id=m.change_id)
        r.refuse_table_change(m.change_id, actor=user)
    elif op == "display":
        display = r.create_display(room.id, actor=user, label=m.label)
        return {
            "display_id": display.id,
            "label": display.label,
            "created_at": display.created_at.isoformat(),
            "token": display.token,
            "url": reverse("lobby", args=[display.token]),
        }
    elif op == "display_revoke":
        r.revoke_display(room.id, m.display_id, actor=user)
    elif op == "settings":
        if MANAGER not in roles_of(user):
            raise ServiceError("forbidden", _("only a manager changes the room settings"))
        r.update_room(
            room.id, actor=user, call_seconds=m.call_seconds, lobby_names=m.lobby_names, lobby_stacks=m.lobby_stacks
        )
    else:
        raise ServiceError("invalid", _("unknown operation “%(op)s”") % {"op": op})
    return {}


@login_required
@require_POST
def room_act(request: HttpRequest, slug: str) -> JsonResponse:
    """One floor action on the room: a JSON body ``{"op": ..., ...}`` (see
    ``_dispatch``).  Answers ``{"ok": true, "seq", ...}`` or, with status
    400, ``{"ok": false, "code", "message", ...}``; a refused action changes
    nothing.  Floor and manager roles only (403 otherwise)."""
    room = _get_room_for_floor(request, slug)
    try:
        message = schemas.parse(RoomAction, request.body or b"{}")
        extra = _dispatch(room, request.user, message)
    except (ServiceError, schemas.MessageError) as exc:
        return JsonResponse({"ok": False, **exc.as_dict()}, status=400)
    ((seq,),) = prepared_rows(f"SELECT seq FROM {Room._meta.db_table} WHERE id = %s", [room.id])
    return JsonResponse({"ok": True, "seq": seq, **extra})
