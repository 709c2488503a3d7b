"""Moves waiting for the tablets' or the director's confirmation (004 #33):
what a tablet must confirm and its confirmation, the pending list of a
tournament and of the whole floor (:mod:`tournaments.services.desk` offers
them too).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tables.writepath import ServiceError
from tournaments.models import Instruction, Tournament, TournamentTable
from tournaments.services.moves import IN_TRANSIT, confirm_move, confirmations


def table_moves(table_id: int) -> dict[str, Any]:
    """The moves a tablet must confirm: ``{"table", "moves": [{"id",
    "player", "side" ("from": leaving, "to": arriving -- also a seat change
    at this table), "from", "to",
    "status", "confirmed" (sides confirmed), "text_en", "text_de"}],
    "rule": "004 #33"}``.  Errors: ``not_found`` (no tournament table)."""
    tt = TournamentTable.objects.filter(table_id=table_id).first()
    if tt is None:
        raise ServiceError("not_found", _("table %(table_id)s plays in no tournament") % {"table_id": table_id})
    moves = []
    for i in (
        Instruction.objects.filter(tournament_id=tt.tournament_id, kind="move", status__in=IN_TRANSIT)
        .select_related("entry__player")
        .order_by("id")
    ):
        # a seat change at this table (a redraw of the final table) is one confirmation here: "to"
        side = "to" if i.to_table == tt.number else "from" if i.from_table == tt.number else None
        if side is None:
            continue
        moves.append(
            {
                "id": i.id,
                "player": i.entry.player.name if i.entry is not None else "",
                "side": side,
                "from": {"table": i.from_table, "seat": i.from_seat},
                "to": {"table": i.to_table, "seat": i.to_seat},
                "status": i.status,
                "confirmed": sorted(confirmations(i)),
                "text_en": i.text_en,
                "text_de": i.text_de,
            }
        )
    return {"table": tt.number, "moves": moves, "rule": "004 #33"}


def confirm_at_table(table_id: int, instruction_id: int, *, actor=None) -> dict[str, Any]:
    """The tablet of ``table_id`` confirms its side of a move (leaving or
    arriving, :func:`~tournaments.services.moves.confirm_move`); a seat
    change at this same table (the final table's redraw, 001 / 004 #78) is
    confirmed for both sides at once -- the one tablet saw the player leave
    his seat and take the new one (004 #33).  Returns :func:`table_moves`.  Errors: ``not_found``, ``invalid`` (the move is
    not this table's)."""
    state = table_moves(table_id)
    move = next((m for m in state["moves"] if m["id"] == instruction_id), None)
    if move is None:
        raise ServiceError("invalid", _("this table has no such move to confirm"))
    if move["from"]["table"] == move["to"]["table"]:  # a seat change here: this tablet saw him leave and arrive
        if "from" not in move["confirmed"]:
            confirm_move(instruction_id, "from", actor=actor)
        if Instruction.objects.filter(pk=instruction_id, status__in=IN_TRANSIT).exists():
            confirm_move(instruction_id, "to", actor=actor)
    else:
        confirm_move(instruction_id, move["side"], actor=actor)
    return table_moves(table_id)


def pending_moves(t: Tournament) -> list[dict[str, Any]]:
    """Moves waiting for a confirmation, oldest first: ``{"id", "player",
    "from", "to", "status" ("pending": not made yet, "moving": seated at the
    new table), "confirmed" (sides), "text_en", "text_de", "rule"}``."""
    return [
        {
            "id": i.id,
            "player": i.entry.player.name if i.entry is not None else "",
            "from": {"table": i.from_table, "seat": i.from_seat},
            "to": {"table": i.to_table, "seat": i.to_seat},
            "status": i.status,
            "confirmed": sorted(confirmations(i)),
            "text_en": i.text_en,
            "text_de": i.text_de,
            "rule": i.rule,
        }
        for i in Instruction.objects.filter(tournament=t, kind="move", status__in=IN_TRANSIT)
        .select_related("entry__player")
        .order_by("id")
    ]


def floor_moves() -> list[dict[str, Any]]:
    """``tables.hooks.register_pending_moves`` hook: the moves of every
    running tournament waiting for a confirmation (004 #33), oldest first,
    as :func:`pending_moves` rows plus ``"event"`` (the tournament's name),
    ``"tournament"`` (its id), the tables' ids (``from.table_id``,
    ``to.table_id``, ``None`` for a late entry) and ``"confirm_url"`` (the
    director's action endpoint: ``{"op": "confirm_move", "instruction": id}``)."""
    from django.urls import reverse

    out = []
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    for t in running.filter(instructions__kind="move", instructions__status__in=IN_TRANSIT).distinct():
        ids = dict(TournamentTable.objects.filter(tournament=t).values_list("number", "table_id"))
        url = reverse("tournaments:action", args=[t.id])
        for m in pending_moves(t):
            m["from"]["table_id"] = ids.get(m["from"]["table"])
            m["to"]["table_id"] = ids.get(m["to"]["table"])
            out.append({**m, "event": t.name, "tournament": t.id, "confirm_url": url})
    return out
