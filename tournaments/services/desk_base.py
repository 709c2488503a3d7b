"""What every desk service shares (:mod:`.desk`, :mod:`.desk_seats`): the
desk's event kinds, the chip-change rules, the log texts' number format and
citation, and the checks on the player a desk step concerns (seated, not in
a live hand)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tables.models import Hand, Seat, Table
from tables.writepath import ServiceError
from tournaments.models import Entry, Instruction, Tournament, TournamentTable
from tournaments.services.delta import changed
from tournaments.services.writes import seat_of

__all__ = [
    "CHIP_REASONS",
    "CHIP_RULES",
    "DESK_KINDS",
    "H4H_FIELDS",
    "chips_de",
    "chips_en",
    "cite_rule",
    "count_h4h_hand",
    "live_seats",
    "require_free_seat",
    "require_running",
    "seated_entry",
]


DESK_KINDS = ("desk_bust", "desk_chips", "desk_move", "desk_break", "desk_seat")
"""The event kinds of the desk's steps that the director may undo (:func:`.desk.desk_undo`)."""


CHIP_REASONS = ("penalty", "found_chips", "dq", "correction")
"""The reasons a desk chip change (:func:`.desk.desk_chips`) may give."""


#: The rule a chip change applies, by rulebook and reason (``""``: a plain correction cites none).
#: 001 6.37 / 004 #71: penalties, and a disqualified player's chips leave play;
#: 004 #64: found chips may be taken out of play; 001 6.11: chips not kept visible are taken out.
CHIP_RULES = {
    "wynental": {"penalty": "001 6.37", "dq": "001 6.37", "found_chips": "001 6.11", "correction": ""},
    "munotpoker": {"penalty": "004 #71", "dq": "004 #71", "found_chips": "004 #64", "correction": ""},
}


def chips_en(n: int, sign: str = "") -> str:
    """Chips in the English log text: ``1,000`` (``sign="+"``: ``+1,000`` / ``-1,000``), as the pages show them."""
    return f"{n:{sign},}"


def chips_de(n: int, sign: str = "") -> str:
    """Chips in the German log text: ``1.000`` (``sign="+"``: ``+1.000``), as the German pages show them."""
    return f"{n:{sign},}".replace(",", ".")


def cite_rule(rule: str) -> str:
    """``"004 #64"`` -> ``" (004 #64)"``; ``"001 6.37"`` -> ``" (001 6.37)"``; ``""`` -> ``""``."""
    if not rule:
        return ""
    book, _sep, section = rule.partition(" ")
    return f" ({book} #{section})" if section.isdigit() else f" ({rule})"


def require_running(t: Tournament) -> None:
    """Errors: ``not_started`` unless ``t`` runs."""
    if t.status != Tournament.Status.RUNNING:
        raise ServiceError("not_started", _("the tournament is not running"))


def live_seats(table_id: int) -> set[int]:
    """Seats dealt in the live hand of a table (empty between hands)."""
    table = Table.objects.select_related("current_hand").get(pk=table_id)
    hand = table.current_hand
    if hand is None or hand.status != Hand.Status.LIVE:
        return set()
    return {int(s["seat"]) for s in hand.spec.get("seats", [])}


def seated_entry(t: Tournament, entry_id: int) -> tuple[Entry, TournamentTable, Seat]:
    """A seated entry of ``t`` with its table and seat, not in a live hand."""
    entry = Entry.objects.filter(pk=entry_id, tournament=t).select_related("player").first()
    if entry is None:
        raise ServiceError("not_found", _("no entry %(entry_id)s") % {"entry_id": entry_id})
    where = seat_of(t, entry.player_id) if entry.status == Entry.Status.SEATED else None
    if where is None:
        raise ServiceError("invalid", _("%(player)s is not seated") % {"player": entry.player.name})
    tt, number = where
    if number in live_seats(tt.table_id):
        raise ServiceError(
            "hand_in_progress",
            _("%(player)s is playing a hand at table %(table)s: wait for its end")
            % {"player": entry.player.name, "table": tt.number},
        )
    return entry, tt, Seat.objects.get(table_id=tt.table_id, number=number)


def count_h4h_hand(t: Tournament, tt: TournamentTable) -> None:
    """Count the hand-for-hand hand of the running round as played at
    ``tt`` (once per round: a table whose tablet counted it already, or that
    was counted before, stays as it is)."""
    tt.refresh_from_db(fields=["h4h_hands"])
    if tt.h4h_hands <= t.hands_played_h4h:
        tt.h4h_hands = t.hands_played_h4h + 1
        tt.save(update_fields=["h4h_hands"])
        changed(tables=[tt.table_id])


#: Tournament fields a hand-for-hand round that completes changes (the clock steps, 004 #77).
H4H_FIELDS = ("hand_for_hand", "hands_played_h4h", "clock_offset")


def require_free_seat(t: Tournament, tt: TournamentTable, seat: int) -> None:
    """Errors: ``invalid`` unless seat ``seat`` of the open table ``tt`` is
    free and held for no pending move."""
    if tt.broken:
        raise ServiceError("invalid", _("table %(table)s has been broken") % {"table": tt.number})
    if not 1 <= seat <= tt.table.max_seats:
        raise ServiceError("invalid", _("table %(table)s has no seat %(seat)s") % {"table": tt.number, "seat": seat})
    taken = Seat.objects.filter(table_id=tt.table_id, number=seat, player__isnull=False).exists()
    coming = Instruction.objects.filter(
        tournament=t, kind="move", status="pending", to_table=tt.number, to_seat=seat
    ).exists()
    if taken or coming:
        raise ServiceError(
            "invalid", _("seat %(seat)s at table %(table)s is taken") % {"seat": seat, "table": tt.number}
        )
