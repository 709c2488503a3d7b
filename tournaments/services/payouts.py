"""The director edits the payout table."""

from __future__ import annotations

from django.utils.translation import gettext as _

from poker import tournament as eng
from tables.writepath import ServiceError
from tournaments.models import Tournament
from tournaments.services.reading import payout_table_of
from tournaments.services.writes import _record, _step


def set_payouts(tournament_id: int, amounts: list[int], *, actor=None) -> Tournament:
    """Replace the payout table by ``amounts`` (ints by place, first place
    first; they must add up to the prize pool and not increase).  An empty
    list restores the house default.  Errors: ``invalid``."""
    with _step(tournament_id, with_tables=False) as step:
        t = step.row
        table = payout_table_of(t)
        if amounts:
            if table is None:
                raise ServiceError("invalid", _("no prize pool yet"))
            if any(not isinstance(a, int) or a < 0 for a in amounts) or sum(amounts) != table.prize_pool:
                message = _(
                    "The payouts must be whole amounts of 0 or more that add up to the prize pool of "
                    "%(pool)s; these add up to %(total)s."
                ) % {"pool": table.prize_pool, "total": sum(a for a in amounts if isinstance(a, int))}
                raise ServiceError("invalid", message)
            try:
                eng.payout_table(table.prize_pool, table.entrants, amounts=amounts)
            except (TypeError, ValueError) as exc:
                raise ServiceError(
                    "invalid", _("These payouts are not possible: %(reason)s") % {"reason": exc}
                ) from None
        t.payouts = [int(a) for a in amounts]
        _record(step, "payouts", {"amounts": t.payouts}, actor, ("payouts",))
    return t
