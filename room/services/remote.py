"""The waitlist in the player's pocket (issue 29): joining lists from a phone, the one-time code, the
phone's view of its entries and calls, and the player's answers to a call.

A player picks one or several running games (:func:`public_room`'s ``games``), gives a nickname and a
phone number or e-mail address (:func:`start_join`: a six-digit code is sent, by Django's mail or the SMS
backend of ``room.sms``), and types the code (:func:`confirm_code`: a player is made for the nickname and
put on each list with the source ``remote``).  The phone page (``public``) and socket
(``room.phone_consumer``) show :func:`phone_state`.  When the floor calls the entry the phone answers
(:func:`answer`): "On my way" gives the room's arrival window (``Room.arrival_seconds``) from now, "Need
more time" (once per call) adds ``Room.more_time_seconds``, "Leave the list" takes the entry off.  The desk
confirms the arrival with the room's ``accept`` (one tap or the QR of the phone page): the player is
seated.  A call that runs out is a no-show (``room.services.noshow``).

Limits: ``JOINS_PER_HOUR`` joins per client address, ``SENDS_PER_HOUR`` codes per contact, ``MAX_ATTEMPTS``
wrong codes per session, codes valid ``CODE_MINUTES``; at most ``Room.remote_cap`` remote entries on the
room's lists at once.  Errors are ``ServiceError`` with the codes named in each function; nothing changes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pokerfloor.runtime import throttle
from room import sms
from room.models import Call, Game, QueueEntry, RemoteEntry, RemoteSession, Room
from room.services.base import room_step
from room.services.snapshot import room_snapshot, table_running
from room.services.wait_estimate import estimate, game_rate
from room.services.waitlists import add_to_waitlist, remove_from_waitlist
from tables.models import Player
from tables.writepath import ServiceError

JOINS_PER_HOUR = 10
SENDS_PER_HOUR = 3
MAX_ATTEMPTS = 5
CODE_MINUTES = 15
NICKNAME_RE = re.compile(r"^[\w .'-]{2,20}$")
EMAIL_RE = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,189}\.[^@\s.]{2,}$")
PHONE_RE = re.compile(r"^\+?[0-9 ]{6,20}$")
ACTIVE = (QueueEntry.Status.WAITING, QueueEntry.Status.CALLED)


def initials(name: str) -> str:
    """``"Anna Maria Keller"`` -> ``"A.M.K."`` (what the public sees of a walk-in)."""
    parts = [p for p in name.replace("-", " ").split() if p]
    return "".join(p[0].upper() + "." for p in parts) or "?"


def public_room(room: Room) -> dict[str, Any]:
    """The room as the public sees it (no login): ``{"room": {slug, name}, "server_time", "games": [{"id",
    "name", "variant_label", "small_blind", "big_blind", "min_buy_in", "max_buy_in", "tables" (running
    ones), "open_seats", "waitlist": [{"position", "name", "called", "remote", "wait": {low, high}}],
    "rate"}]}``.  Only running games (a table with a dealer and at least ``Room.running_min_players``
    seated; open seats of running tables only); names are initials, or the nickname of a remote entry."""
    floor = room_snapshot(room, lobby=False)
    games = []
    for g in floor["games"]:
        running = [t for t in g["tables"] if table_running(t, room.running_min_players)]
        if not running:
            continue
        open_seats = sum(t["open_seats"] for t in running)
        free = max(0, open_seats - len(g["calls"]))
        rate = game_rate(Game(pk=g["id"], room=room))
        waitlist = []
        remote_ids = set(
            QueueEntry.objects.filter(
                id__in=[e["id"] for e in g["waitlist"]], source=QueueEntry.Source.REMOTE
            ).values_list("id", flat=True)
        )
        waiting_place = 0
        for i, e in enumerate(g["waitlist"], start=1):
            remote = e["id"] in remote_ids
            item = {"position": i, "name": e["name"] if remote else initials(e["name"]), "called": e["called"]}
            item["remote"] = remote
            if not e["called"]:
                waiting_place += 1
                item["wait"] = estimate(waiting_place, free, rate).as_dict()
            waitlist.append(item)
        games.append(
            {
                "id": g["id"],
                "name": g["name"],
                "variant_label": g["variant_label"],
                "small_blind": g["small_blind"],
                "big_blind": g["big_blind"],
                "min_buy_in": g["min_buy_in"],
                "max_buy_in": g["max_buy_in"],
                "tables": len(running),
                "open_seats": open_seats,
                "waitlist": waitlist,
                "rate": round(rate, 1),
                "next_wait": estimate(waiting_place + 1, free, rate).as_dict(),
            }
        )
    return {"room": {"slug": room.slug, "name": room.name}, "server_time": floor["server_time"], "games": games}


def _code_hash(token: str, code: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), f"{token}:{code}".encode(), hashlib.sha256).hexdigest()


def _contact(value: str) -> tuple[str, str]:
    value = value.strip()
    if EMAIL_RE.match(value):
        return "email", value.lower()
    digits = value.replace(" ", "")
    if PHONE_RE.match(value) and sum(c.isdigit() for c in digits) >= 6:
        return "sms", digits
    raise ServiceError("invalid", _("give a phone number or an e-mail address"), field="contact")


def _send_code(kind: str, contact: str, code: str, room: Room) -> None:
    text = _("Your code for the waitlist of %(room)s: %(code)s (valid %(minutes)s minutes)") % {
        "room": room.name,
        "code": code,
        "minutes": CODE_MINUTES,
    }
    if kind == "email":
        send_mail(_("Your waitlist code"), text, None, [contact])
    else:
        sms.backend().send(contact, text)


def start_join(room: Room, game_ids: list[int], nickname: str, contact: str, *, client: str) -> RemoteSession:
    """Ask to join the lists of ``game_ids`` (running games of ``room``, 1..5 of them) as ``nickname``
    (2..20 letters, digits, spaces, ``.'-``); a code goes to ``contact`` (phone or e-mail).  ``client``:
    the caller's address (rate limit).  Errors: ``invalid`` (``field`` names it), ``not_running``,
    ``rate_limited``, ``room_full``."""
    nickname = " ".join(nickname.split())
    if not NICKNAME_RE.match(nickname):
        raise ServiceError("invalid", _("a nickname has 2 to 20 letters, digits or spaces"), field="nickname")
    kind, contact = _contact(contact)
    ids = sorted(set(game_ids))
    if not 1 <= len(ids) <= 5:
        raise ServiceError("invalid", _("pick one to five lists"), field="games")
    running = {g["id"] for g in public_room(room)["games"]}
    if not set(ids) <= running:
        raise ServiceError("not_running", _("that game is not running now"), field="games")
    if throttle.hit(f"remote-join:{client}", 3600) > JOINS_PER_HOUR:
        raise ServiceError("rate_limited", _("too many joins from your address: try again in an hour"))
    if throttle.hit(f"remote-send:{contact}", 3600) > SENDS_PER_HOUR:
        raise ServiceError("rate_limited", _("too many codes for that contact: try again in an hour"))
    if remote_count(room) + len(ids) > room.remote_cap:
        raise ServiceError("room_full", _("the room takes no more remote entries now: come to the desk"))
    code = f"{secrets.randbelow(10**6):06d}"
    token = secrets.token_urlsafe(32)
    session = RemoteSession.objects.create(
        room=room,
        token=token,
        arrival_token=secrets.token_urlsafe(32),
        nickname=nickname,
        contact_kind=kind,
        contact=contact,
        code_hash=_code_hash(token, code),
        code_expires_at=timezone.now() + dt.timedelta(minutes=CODE_MINUTES),
        games=ids,
    )
    _send_code(kind, contact, code, room)
    return session


def remote_count(room: Room) -> int:
    """How many remote entries are on the room's lists now (waiting or called)."""
    return QueueEntry.objects.filter(game__room=room, source=QueueEntry.Source.REMOTE, status__in=ACTIVE).count()


def confirm_code(token: str, code: str) -> RemoteSession:
    """Confirm a session with its one-time ``code``: a player is made for the nickname and put on each list
    asked for (``remote``), on those still running.  Errors: ``not_found``, ``expired``, ``bad_code``,
    ``too_many_attempts``, ``room_full`` (and the waitlist's errors, e.g. ``already_listed``)."""
    with transaction.atomic():
        session = RemoteSession.objects.select_for_update().filter(token=token).first()
        if session is None:
            raise ServiceError("not_found", _("no such join"))
        if session.verified_at is not None:
            return session
        if session.attempts >= MAX_ATTEMPTS:
            raise ServiceError("too_many_attempts", _("too many wrong codes: start again"))
        if session.code_expires_at <= timezone.now():
            raise ServiceError("expired", _("the code has run out: start again"))
        if not hmac.compare_digest(session.code_hash, _code_hash(token, str(code).strip())):
            session.attempts += 1
            session.save(update_fields=["attempts"])
            bad = True
        else:
            bad = False
            room = session.room
            if remote_count(room) + len(session.games) > room.remote_cap:
                raise ServiceError("room_full", _("the room takes no more remote entries now: come to the desk"))
            running = {g["id"] for g in public_room(room)["games"]}
            session.player = Player.objects.create(name=session.nickname)
            session.verified_at = timezone.now()
            session.save(update_fields=["player", "verified_at"])
            for game_id in session.games:
                if game_id in running:
                    entry = add_to_waitlist(game_id, session.player, source=QueueEntry.Source.REMOTE)
                    RemoteEntry.objects.create(entry=entry, session=session)
    if bad:
        raise ServiceError("bad_code", _("that is not the code we sent"))
    return session


def verified_session(token: str) -> RemoteSession:
    """The confirmed session of a phone page's ``token``.  Errors: ``not_found``."""
    session = RemoteSession.objects.select_related("room", "player").filter(token=token).first()
    if session is None or session.verified_at is None:
        raise ServiceError("not_found", _("no such phone page"))
    return session


def phone_state(session: RemoteSession) -> dict[str, Any]:
    """What the phone page shows: ``{"nickname", "room", "server_time", "arrival_token", "entries": [{"id",
    "game", "status" (waiting, called, seated, off), "position", "of", "wait": {low, high}, "call": null |
    {"id", "table", "seat", "deadline", "on_my_way", "more_time_used", "seconds"}}]}`` (times ISO 8601)."""
    room = session.room
    now = timezone.now()
    entries = []
    for remote in (
        RemoteEntry.objects.filter(session=session)
        .select_related("entry", "entry__game")
        .order_by("entry__game__big_blind", "id")
    ):
        entry = remote.entry
        item: dict[str, Any] = {"id": entry.id, "game": entry.game.name, "call": None}
        if entry.status in ACTIVE:
            ahead = list(
                QueueEntry.objects.filter(game=entry.game, queue=entry.queue, status__in=ACTIVE)
                .order_by("joined_at", "id")
                .values_list("id", "status")
            )
            ids = [i for i, _s in ahead]
            item["position"] = ids.index(entry.id) + 1
            item["of"] = len(ids)
            waiting_before = sum(1 for i, s in ahead[: ids.index(entry.id)] if s == QueueEntry.Status.WAITING)
            open_seats = (
                sum(t["open_seats"] for t in _game_tables(room, entry.game_id) if t["status"] == "open")
                - Call.objects.filter(game=entry.game, status=Call.Status.OPEN).count()
            )
            item["wait"] = estimate(waiting_before + 1, max(open_seats, 0), game_rate(entry.game, now)).as_dict()
            item["status"] = entry.status
        else:
            item["status"] = "seated" if entry.status == QueueEntry.Status.DONE else "off"
        call = Call.objects.select_related("table").filter(entry=entry, status=Call.Status.OPEN).order_by("-id").first()
        if call is not None:
            item["call"] = {
                "id": call.pk,
                "table": call.table.name,
                "seat": call.seat_number,
                "deadline": call.deadline.isoformat(),
                "seconds": max(0, int((call.deadline - now).total_seconds())),
                "on_my_way": remote.on_my_way_at is not None,
                "more_time_used": remote.more_time_used,
            }
        entries.append(item)
    return {
        "nickname": session.nickname,
        "room": {"slug": room.slug, "name": room.name},
        "server_time": now.isoformat(),
        "arrival_token": session.arrival_token,
        "entries": entries,
    }


def _game_tables(room: Room, game_id: int) -> list[dict[str, Any]]:
    from room.models import GameTable

    return [
        {"status": gt.table.status, "open_seats": gt.table.seats.filter(player__isnull=True).count()}
        for gt in GameTable.objects.select_related("table").filter(game_id=game_id)
    ]


ANSWERS = ("on_my_way", "more_time", "leave")


def answer(session: RemoteSession, entry_id: int, what: str) -> None:
    """The player's answer for entry ``entry_id`` (theirs): ``on_my_way`` (an open call: the deadline
    becomes now + the room's arrival window, if later), ``more_time`` (an open call, once: the deadline
    moves ``more_time_seconds`` on), ``leave`` (off that list; an open call goes to the next).  Recorded in
    the room log as ``remote_answer``.  Errors: ``invalid``, ``not_found``, ``no_call``,
    ``more_time_used``."""
    if what not in ANSWERS:
        raise ServiceError("invalid", _("unknown answer"), field="answer")
    remote = RemoteEntry.objects.filter(session=session, entry_id=entry_id).select_related("entry").first()
    if remote is None or remote.entry.status not in ACTIVE:
        raise ServiceError("not_found", _("you are not on that list"))
    if what == "leave":
        with room_step(session.room.pk, None) as step:
            step.log("remote_answer", game=remote.entry.game, player=remote.entry.player, entry=entry_id, answer=what)
            step.finish()
        remove_from_waitlist(entry_id)
        return
    with room_step(session.room.pk, None) as step:
        call = Call.objects.select_for_update(of=("self",)).filter(entry_id=entry_id, status=Call.Status.OPEN).first()
        remote = RemoteEntry.objects.select_for_update().get(pk=remote.pk)
        if call is None:
            raise ServiceError("no_call", _("you have not been called yet"))
        now = timezone.now()
        if what == "on_my_way":
            remote.on_my_way_at = now
            call.deadline = max(call.deadline, now + dt.timedelta(seconds=step.room.arrival_seconds))
        else:
            if remote.more_time_used:
                raise ServiceError("more_time_used", _("you asked for more time already"))
            remote.more_time_used = True
            call.deadline = call.deadline + dt.timedelta(seconds=step.room.more_time_seconds)
        remote.save(update_fields=["on_my_way_at", "more_time_used"])
        call.save(update_fields=["deadline"])
        step.log(
            "remote_answer",
            game=remote.entry.game,
            player=remote.entry.player,
            entry=entry_id,
            call=call.pk,
            answer=what,
            deadline=call.deadline.isoformat(),
        )
        step.finish()


def call_for_arrival(room: Room, arrival_token: str) -> Call | None:
    """The open call of the phone whose arrival QR (``arrival_token``) the desk scanned, in ``room``."""
    session = RemoteSession.objects.filter(room=room, arrival_token=arrival_token).first()
    if session is None:
        return None
    return (
        Call.objects.select_related("table", "game", "entry__player")
        .filter(entry__remote__session=session, status=Call.Status.OPEN)
        .order_by("id")
        .first()
    )
