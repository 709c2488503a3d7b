"""Rooms, games, tables, dealers, lobby display links and the room settings."""

from __future__ import annotations

import secrets
from typing import Any

from django.utils.translation import gettext as _

from room.models import (
    Call,
    Game,
    GameTable,
    LobbyDisplay,
    Room,
)
from room.services.base import (
    check_divisible,
    chip_unit_for,
    game_of_table,
    lobby_group,
    positive_int,
    room_step,
)
from room.services.calls import close_call, fill_open_seats
from tables import services
from tables.access import DEALER, MANAGER, roles_of
from tables.models import Table
from tables.writepath import ServiceError, send_messages_on_commit


def create_room(
    slug: str, name: str, *, call_seconds: int = 300, lobby_names: str = Room.Names.FULL, lobby_stacks: bool = False
) -> Room:
    """A new room.  ``call_seconds``: the called player's countdown (default
    5 minutes).  Errors: ``invalid``."""
    if lobby_names not in Room.Names.values:
        raise ServiceError("invalid", _("lobby_names must be one of %(values)s") % {"values": Room.Names.values})
    if not isinstance(call_seconds, int) or call_seconds < 10:
        raise ServiceError("invalid", _("the call countdown is at least 10 seconds"))
    if Room.objects.filter(slug=slug).exists():
        raise ServiceError("invalid", _("a room “%(slug)s” exists already") % {"slug": slug})
    return Room.objects.create(
        slug=slug, name=name, call_seconds=call_seconds, lobby_names=lobby_names, lobby_stacks=lobby_stacks
    )


#: The settings of the lists on the players' phones (issue 29; ``Room`` fields).
PHONE_SETTINGS = (
    "running_min_players",
    "remote_cap",
    "arrival_seconds",
    "more_time_seconds",
    "remote_no_show",
    "no_show_places",
)


def update_room(
    room_id: int,
    *,
    actor=None,
    call_seconds: int | None = None,
    lobby_names: str | None = None,
    lobby_stacks: bool | None = None,
    **phone: int | str,
) -> int:
    """Change the room settings (countdown seconds, names or initials on the
    lobby, stacks on the lobby) and the phone lists' (``phone``: any of
    :data:`PHONE_SETTINGS`, ranges checked by ``room.schemas.Settings``).
    Returns the room's seq; the change is logged and the lobby, the floor and
    the public page follow.  Errors: ``not_found``, ``invalid``."""
    unknown = set(phone) - set(PHONE_SETTINGS)
    if unknown:
        raise ServiceError("invalid", _("unknown room setting: %(names)s") % {"names": ", ".join(sorted(unknown))})
    if phone.get("remote_no_show", "down") not in ("down", "off"):
        raise ServiceError("invalid", _("a remote no-show moves down or leaves the list"))
    if lobby_names is not None and lobby_names not in Room.Names.values:
        raise ServiceError("invalid", _("lobby_names must be one of %(values)s") % {"values": Room.Names.values})
    if call_seconds is not None and (not isinstance(call_seconds, int) or call_seconds < 10):
        raise ServiceError("invalid", _("the call countdown is at least 10 seconds"))
    with room_step(room_id, actor) as step:
        changed: dict[str, Any] = {}
        for field, value in (
            ("call_seconds", call_seconds),
            ("lobby_names", lobby_names),
            ("lobby_stacks", lobby_stacks),
            *phone.items(),
        ):
            if value is not None:
                setattr(step.room, field, value)
                changed[field] = value
        step.write.save(*changed)
        step.log("settings", **changed)
        return step.finish()


def create_game(
    room_id: int,
    name: str,
    *,
    variant: str = Game.Variant.NLHE,
    small_blind: int,
    big_blind: int,
    min_buy_in: int,
    max_buy_in: int,
    chip_unit: int | None = None,
    rules_profile: str = "casino-cash",
    actor=None,
) -> Game:
    """A cash game of the room (000 Einsätze 2: limit form, blinds and the
    maximum buy-in fixed before play).  ``chip_unit`` defaults to
    :func:`chip_unit_for`.  Errors: ``not_found``, ``invalid``,
    ``indivisible`` (buy-ins not in whole units)."""
    if variant not in Game.Variant.values:
        raise ServiceError("invalid", _("unknown variant “%(variant)s”") % {"variant": variant})
    small_blind = positive_int(small_blind, "small blind")
    big_blind = positive_int(big_blind, "big blind")
    if small_blind > big_blind:
        raise ServiceError("invalid", _("the small blind is not above the big blind"))
    unit = positive_int(chip_unit if chip_unit is not None else chip_unit_for(small_blind, big_blind), "chip unit")
    min_buy_in = positive_int(min_buy_in, "minimum buy-in")
    max_buy_in = positive_int(max_buy_in, "maximum buy-in")
    if min_buy_in < big_blind or max_buy_in < min_buy_in:
        raise ServiceError("invalid", _("big blind <= minimum buy-in <= maximum buy-in (000 Einsätze 3)"))
    check_divisible(min_buy_in, unit)
    check_divisible(max_buy_in, unit)
    with room_step(room_id, actor) as step:
        if Game.objects.filter(room=step.room, name=name).exists():
            raise ServiceError("invalid", _("the room has a game “%(name)s” already") % {"name": name})
        game = Game.objects.create(
            room=step.room,
            name=name,
            variant=variant,
            small_blind=small_blind,
            big_blind=big_blind,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
            chip_unit=unit,
            rules_profile=rules_profile,
        )
        step.log(
            "game",
            game=game,
            name=name,
            variant=variant,
            blinds=[small_blind, big_blind],
            buy_in=[min_buy_in, max_buy_in],
            unit=unit,
        )
        step.finish()
    return game


def open_table(
    game_id: int, name: str, *, kind: str = GameTable.Kind.MAIN, max_seats: int = 9, dealer=None, actor=None
) -> Table:
    """Open a new table of the game (the game's blinds and house rules) as
    its main table or a must-move table (000 Allgemein 15).  Open seats are
    offered to the lists at once.  Errors: ``not_found``, ``invalid``."""
    if kind not in GameTable.Kind.values:
        raise ServiceError("invalid", _("unknown table kind “%(kind)s”") % {"kind": kind})
    game = Game.objects.select_related("room").filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", _("no game %(game_id)s") % {"game_id": game_id})
    with room_step(game.room_id, actor) as step:
        if Table.objects.filter(name=name).exists():
            raise ServiceError("invalid", _("a table “%(name)s” exists already") % {"name": name})
        table = services.create_table(
            name,
            small_blind=game.small_blind,
            big_blind=game.big_blind,
            max_seats=max_seats,
            rules_profile=game.rules_profile,
            dealer=dealer,
        )
        GameTable.objects.create(game=game, table=table, kind=kind)
        step.log("open_table", game=game, table=table.id, name=name, table_kind=kind)
        fill_open_seats(step, game)
        step.finish()
    return table


def set_table_open(table_id: int, is_open: bool, *, actor=None) -> int:
    """Open or close a table of a game (``tables.services.set_table_status``;
    closed only between hands).  Open calls to a closed table are cancelled.
    Returns the room's seq.  Errors: ``no_game``, ``hand_in_progress``."""
    gt = game_of_table(table_id)
    with room_step(gt.game.room_id, actor) as step:
        services.set_table_status(table_id, Table.Status.OPEN if is_open else Table.Status.CLOSED)
        step.log("table_open" if is_open else "table_close", game=gt.game, table=table_id)
        if not is_open:
            for call in Call.objects.select_for_update().filter(table_id=table_id, status=Call.Status.OPEN):
                close_call(step, call, Call.Status.CANCELLED)
        fill_open_seats(step, gt.game)
        return step.finish()


def assign_dealer(table_id: int, dealer, *, actor=None) -> int:
    """The floor assigns a dealer (a user in the ``dealer`` group) or nobody
    (None) to a table.  Returns the room's seq.  Errors: ``no_game``,
    ``invalid``."""
    if dealer is not None and DEALER not in roles_of(dealer):
        raise ServiceError("invalid", _("%(dealer)s is not a dealer") % {"dealer": dealer.username})
    gt = game_of_table(table_id)
    with room_step(gt.game.room_id, actor) as step:
        table = services.lock_table(table_id)
        table.dealer = dealer
        services.commit_table_change(table, ("dealer",))
        step.log("dealer", game=gt.game, table=table_id, dealer=dealer.username if dealer else None)
        return step.finish()


def create_display(room_id: int, *, actor, label: str = "") -> LobbyDisplay:
    """A new unguessable display link for the room's lobby screen (managers
    only).  Errors: ``forbidden``, ``not_found``."""
    if MANAGER not in roles_of(actor):
        raise ServiceError("forbidden", _("only a manager makes display links"))
    with room_step(room_id, actor) as step:
        display = LobbyDisplay.objects.create(
            room=step.room, token=secrets.token_urlsafe(24), label=label[:80], created_by=actor
        )
        step.log("display", display=display.id, label=display.label)
        step.finish()
        return display


def revoke_display(room_id: int, display_id: int, *, actor) -> LobbyDisplay:
    """Revoke a display link of the room (managers only): its page answers 404 from now on and its
    open lobby screens close with 4404 once the change commits (``lobby.revoke`` on the room's lobby
    group).  Revoking a revoked link changes nothing.  Errors: ``forbidden``, ``not_found`` (no such
    link in this room)."""
    if MANAGER not in roles_of(actor):
        raise ServiceError("forbidden", _("only a manager revokes display links"))
    with room_step(room_id, actor) as step:
        display = LobbyDisplay.objects.select_for_update().filter(pk=display_id, room_id=room_id).first()
        if display is None:
            raise ServiceError(
                "not_found", _("no display link %(display_id)s in this room") % {"display_id": display_id}
            )
        if display.revoked:
            return display
        display.revoked = True
        display.save(update_fields=["revoked"])
        step.log("display_revoke", display=display.id, label=display.label)
        send_messages_on_commit([(lobby_group(step.room.slug), {"type": "lobby.revoke", "token": display.token})])
        step.finish()
        return display
