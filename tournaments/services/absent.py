"""Absent players at tournament tables (001 Sitzverteilung, 004 #30)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tables.models import Seat
from tables.writepath import ServiceError
from tournaments.models import TournamentTable
from tournaments.services.delta import changed
from tournaments.services.reading import engine_rules
from tournaments.services.writes import absent_seats, push_absent, record_event, tournament_step


def absent_state(table_id: int) -> dict[str, Any]:
    """The absent seats of a tournament table: ``{"tournament", "table"
    (number), "seats" (absent seat numbers), "players" ({seat: name}),
    "rule", "rule_label"}`` (stored form ``"004 #30"``, as the rulebook writes it
    ``"004 #30"``; ``"001 Sitzverteilung"``).  Errors:
    ``not_found`` (not a tournament table)."""
    tt = TournamentTable.objects.filter(table_id=table_id).select_related("tournament").first()
    if tt is None:
        raise ServiceError("not_found", _("table %(table_id)s plays in no tournament") % {"table_id": table_id})
    rule = engine_rules(tt.tournament).cite("absent")
    players = dict(Seat.objects.filter(table_id=table_id, player__isnull=False).values_list("number", "player__name"))
    return {
        "tournament": tt.tournament_id,
        "table": tt.number,
        "seats": absent_seats(table_id),
        "players": players,
        "rule": str(rule),
        "rule_label": rule.label,
    }


def set_absent(table_id: int, seat_number: int, absent: bool, *, actor=None) -> dict[str, Any]:
    """Mark the player of a seat at a tournament table away from (or back
    at) his seat, from the tablet.  While absent his stack stays in play:
    he is dealt in, his blinds and antes are posted and his hand is killed
    at once (001 Sitzverteilung: "die Blinds werden automatisch bezahlt und
    die Karten gefoldet", with 6.14; 004 #30: not at the table when the last
    card of the initial deal is dealt, "ist die Hand tot").  The mark counts
    from the next deal.  A player blinded out busts as in any hand.

    Appends a tournament event citing the rule and tells the tablet.
    Returns :func:`absent_state`.  Errors: ``not_found`` (not a tournament
    table), ``table_closed`` (broken), ``no_such_seat``, ``empty_seat``.
    Marking twice changes nothing.
    """
    tt = TournamentTable.objects.filter(table_id=table_id).first()
    if tt is None:
        raise ServiceError("not_found", _("table %(table_id)s plays in no tournament") % {"table_id": table_id})
    with tournament_step(tt.tournament_id) as step:
        t = step.row
        tt.refresh_from_db()
        if tt.broken:
            raise ServiceError("table_closed", _("this table has been broken"))
        seat = Seat.objects.filter(table_id=table_id, number=seat_number).select_related("player").first()
        if seat is None:
            raise ServiceError("no_such_seat", _("table has no seat %(seat_number)s") % {"seat_number": seat_number})
        if seat.player_id is None:
            raise ServiceError("empty_seat", _("seat %(seat_number)s is empty") % {"seat_number": seat_number})
        if seat.absent != bool(absent):
            seat.absent = bool(absent)
            seat.save(update_fields=["absent"])
            changed(tables=[table_id])
            rule = str(engine_rules(t).cite("absent"))
            record_event(
                step,
                "absent" if absent else "back",
                {"table": tt.number, "seat": seat_number, "player": seat.occupant.name, "rule": rule},
                actor,
            )
            push_absent(table_id)
    return absent_state(table_id)
