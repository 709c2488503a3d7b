"""The public room pages (issue 29), no login: the room for phones (running games, open seats, waitlists
with initials or nicknames, waits, tournaments), the JSON and iCalendar feeds, the QR code and the
printable poster; the remote join (lists, nickname, contact, one-time code) and the player's phone page
with the call and its answers; the desk's arrival page behind the QR of the phone page (floor login).

Every change goes through ``room.services.remote`` (or the room's ``accept_call``); bad input is answered
400 with ``{"ok": false, "code", "message"}`` (JSON) or the form again, and changes nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import segno
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from icalendar import Calendar, Event

from pokerfloor.runtime import throttle
from public.tournaments_feed import public_tournaments
from room import services as floor_room
from room.models import PushSubscription, RemoteSession, Room
from room.services import remote
from room.services.push import vapid_public_key
from tables import schemas
from tables.access import is_floor
from tables.writepath import ServiceError


def _room(slug: str) -> Room:
    return get_object_or_404(Room, slug=slug[:50])


def _public_url(request: HttpRequest, room: Room) -> str:
    return request.build_absolute_uri(reverse("public_room", args=[room.slug]))


def _context(request: HttpRequest, room: Room, **extra: Any) -> dict[str, Any]:
    data = remote.public_room(room)
    return {
        "room": room,
        "data": data,
        "tournaments": public_tournaments(),
        "public_url": _public_url(request, room),
        **extra,
    }


@require_GET
def room_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The room on a phone: running games with open seats, waitlists and waits, tournaments, the join form.
    ``?part=live`` answers only the live part (the page refreshes it every 15 seconds)."""
    room = _room(slug)
    template = "public/live.html" if request.GET.get("part") == "live" else "public/room.html"
    return render(request, template, _context(request, room))


@require_GET
def feed_json(request: HttpRequest, slug: str) -> JsonResponse:
    """The open JSON feed: ``{"room", "server_time", "games": [...], "tournaments": [...]}`` as
    :func:`room.services.remote.public_room` and :func:`public.tournaments_feed.public_tournaments`;
    no names beyond initials or nicknames.  CORS-open (aggregators)."""
    room = _room(slug)
    response = JsonResponse({**remote.public_room(room), "tournaments": public_tournaments()})
    response["Access-Control-Allow-Origin"] = "*"
    return response


@require_GET
def tournaments_ics(request: HttpRequest, slug: str) -> HttpResponse:
    """The iCalendar feed (RFC 5545) of the tournaments open or running: one event each, from the clock's
    start (or the time it was created, before the start) for four hours."""
    room = _room(slug)
    cal = Calendar()
    cal.add("prodid", "-//pokerfloor//public room//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{room.name}: {_('Tournaments')}")
    for t in public_tournaments():
        start = dt.datetime.fromisoformat(t["starts"] or t["created"])
        event = Event()
        event.add("uid", f"tournament-{t['id']}@{room.slug}.pokerfloor")
        event.add("summary", t["name"])
        event.add("dtstart", start)
        event.add("dtend", start + dt.timedelta(hours=4))
        event.add("dtstamp", timezone.now())
        event.add("description", f"{t['status_label']} · {_('buy-in')} {t['buy_in']} + {t['fee']}")
        event.add("url", _public_url(request, room))
        cal.add_component(event)
    response = HttpResponse(cal.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _qr_svg(url: str, scale: int = 8, dark: str = "#000", light: str = "#fff") -> str:
    """An SVG QR code of ``url`` (segno, error correction M), as text for inlining."""
    # viewBox only (no width and height): the page's CSS sizes it, the whole code stays in view
    return segno.make(url, error="m").svg_inline(scale=scale, dark=dark, light=light, border=2, omitsize=True)


@require_GET
def qr_svg(request: HttpRequest, slug: str) -> HttpResponse:
    """The QR code of the public room page, as SVG (the lobby TV and the poster show it)."""
    room = _room(slug)
    svg = _qr_svg(_public_url(request, room)).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return HttpResponse(svg, content_type="image/svg+xml")


@require_GET
def poster(request: HttpRequest, slug: str) -> HttpResponse:
    """The printable poster (A4): the room's name, the QR code of its public page and the address."""
    room = _room(slug)
    url = _public_url(request, room)
    return render(request, "public/poster.html", {"room": room, "url": url, "qr": _qr_svg(url, scale=14)})


def _client(request: HttpRequest) -> str:
    return throttle.client_ip(request)


def _game_ids(values: list[str]) -> list[int]:
    ids = []
    for value in values[:10]:
        if not value.isascii() or not value.isdigit() or len(value) > 18:
            raise ServiceError("invalid", _("pick one to five lists"), field="games")
        ids.append(int(value))
    return ids


@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    """The join form (lists ``game``, ``nickname``, ``contact``): a code is sent, then the code page."""
    room = _room(slug)
    try:
        fields = {k: request.POST.get(k, "") for k in ("nickname", "contact")}
        for value in fields.values():
            if "\x00" in value or len(value) > 254 or any("\ud800" <= c <= "\udfff" for c in value):
                raise ServiceError("invalid", _("give a phone number or an e-mail address"))
        session = remote.start_join(
            room,
            _game_ids(request.POST.getlist("game")),
            fields["nickname"],
            fields["contact"],
            client=_client(request),
        )
    except ServiceError as exc:
        context = _context(request, room, error=exc.message, form=request.POST)
        return render(request, "public/room.html", context, status=429 if exc.code == "rate_limited" else 400)
    return redirect("public_code", slug=room.slug, token=session.token)


@require_http_methods(["GET", "POST"])
def code(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """Type the one-time code: the lists are joined and the phone page opens."""
    room = _room(slug)
    session = RemoteSession.objects.filter(room=room, token=token[:100]).first()
    if session is None:
        raise Http404
    if session.verified_at is not None:
        return redirect("public_phone", slug=room.slug, token=session.token)
    error = None
    if request.method == "POST":
        try:
            value = request.POST.get("code", "")
            if not (value.isascii() and value.strip().isdigit() and len(value.strip()) == 6):  # not a guess
                raise ServiceError("bad_code", _("that is not the code we sent"))
            remote.confirm_code(session.token, value)
            return redirect("public_phone", slug=room.slug, token=session.token)
        except ServiceError as exc:
            error = exc.message
    masked = session.contact[:2] + "…" + session.contact[-2:]
    return render(
        request,
        "public/code.html",
        {"room": room, "session": session, "masked": masked, "error": error},
        status=400 if error else 200,
    )


def _session(room: Room, token: str) -> RemoteSession:
    try:
        session = remote.verified_session(token[:100])
    except ServiceError:
        raise Http404 from None
    if session.room_id != room.id:
        raise Http404
    return session


@require_GET
def phone(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's phone page: their lists, places and waits, the call with its countdown and answers, and
    the QR the desk scans on arrival; live over ``/ws/phone/<token>/``."""
    room = _room(slug)
    session = _session(room, token)
    arrive_url = request.build_absolute_uri(reverse("public_arrive", args=[room.slug, session.arrival_token]))
    return render(
        request,
        "public/phone.html",
        {
            "room": room,
            "session": session,
            "state": remote.phone_state(session),
            "arrive_qr": _qr_svg(arrive_url, scale=6),
            "vapid_key": vapid_public_key(),
        },
    )


def _json_body(request: HttpRequest) -> dict[str, Any]:
    data = schemas.load_json(request.body or b"{}")
    if not isinstance(data, dict):
        raise schemas.MessageError("a JSON object is expected")
    return data


def _refused(exc: ServiceError | schemas.MessageError) -> JsonResponse:
    return JsonResponse({"ok": False, **exc.as_dict()}, status=400)


@require_POST
def phone_answer(request: HttpRequest, slug: str, token: str) -> JsonResponse:
    """The player's answer to a call: ``{"entry_id": int, "answer": "on_my_way" | "more_time" | "leave"}``
    (:func:`room.services.remote.answer`).  ``{"ok": true}`` or 400 with the code."""
    room = _room(slug)
    session = _session(room, token)
    try:
        data = _json_body(request)
        entry_id, what = data.get("entry_id"), data.get("answer")
        if not isinstance(entry_id, int) or isinstance(entry_id, bool) or not 1 <= entry_id <= schemas.MAX_BIGINT:
            raise schemas.MessageError("entry_id must be a positive whole number", "entry_id")
        if not isinstance(what, str) or what not in remote.ANSWERS:
            raise schemas.MessageError("answer is on_my_way, more_time or leave", "answer")
        remote.answer(session, entry_id, what)
    except (ServiceError, schemas.MessageError) as exc:
        return _refused(exc)
    return JsonResponse({"ok": True})


@require_POST
def phone_push(request: HttpRequest, slug: str, token: str) -> JsonResponse:
    """Keep the phone's Web Push subscription: ``{"endpoint": "https://...", "keys": {"p256dh", "auth"}}``
    (the browser's ``PushSubscription.toJSON()``); at most five per phone."""
    room = _room(slug)
    session = _session(room, token)
    try:
        data = _json_body(request)
        endpoint, keys = data.get("endpoint"), data.get("keys")
        if not isinstance(endpoint, str) or not endpoint.startswith(("https://", "http://")) or len(endpoint) > 500:
            raise schemas.MessageError("endpoint must be an http(s) address", "endpoint")
        if not isinstance(keys, dict) or not all(
            isinstance(keys.get(k), str) and 0 < len(keys[k]) <= 200 and keys[k].isascii() for k in ("p256dh", "auth")
        ):
            raise schemas.MessageError("keys must hold p256dh and auth", "keys")
        if "\x00" in endpoint or not endpoint.isascii():
            raise schemas.MessageError("endpoint must be an http(s) address", "endpoint")
        if session.push_subscriptions.count() >= 5:
            raise ServiceError("too_many", _("this phone has enough push subscriptions"))
        PushSubscription.objects.update_or_create(
            session=session, endpoint=endpoint, defaults={"p256dh": keys["p256dh"], "auth": keys["auth"][:100]}
        )
    except (ServiceError, schemas.MessageError) as exc:
        return _refused(exc)
    return JsonResponse({"ok": True})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The phone page's service worker (Web Push: shows the call as a notification), served from ``/p/``."""
    response = render(
        request, "public/sw.js", {"title": _("Your seat is ready")}, content_type="application/javascript"
    )
    response["Service-Worker-Allowed"] = "/p/"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def arrive(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The desk's page behind the QR of a player's phone page (floor login): the player's open call, and one
    tap to confirm the arrival (the room's ``accept_call``: the player is seated)."""
    if not is_floor(request.user):
        raise PermissionDenied
    room = _room(slug)
    call = remote.call_for_arrival(room, token[:100])
    error = None
    if request.method == "POST" and call is not None:
        try:
            floor_room.accept_call(call.id, actor=request.user)
            return redirect("room_dashboard", slug=room.slug)
        except ServiceError as exc:
            error = exc.message
            call = remote.call_for_arrival(room, token[:100])
    return render(request, "public/arrive.html", {"room": room, "call": call, "error": error})
