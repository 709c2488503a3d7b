"""The director's payout desk: prize pool, payout table, final-table deal,
result sheet.

* Prize pool (:func:`pool_of`): every entry counted by the tournament's
  records (first entries and re-entries, 004 #72) times ``Tournament.buy_in``,
  rebuys and add-ons (004 #27 / 001 Re-buy/Add-on) at their cost, and at
  least the guarantee (the house pays the overlay); the fee
  (``Tournament.fee``, the rake) is paid on top of each buy-in and kept
  apart.  Computed by ``reading.pool_amounts``, as ``reading.payout_table_of``.
* Payout table: the house curve (``poker.tournament.payouts.percentage_table``,
  no rulebook gives one) rounded to ``Tournament.payout_unit`` with the rest
  to first place (:func:`compute_payouts`), or the director's own amounts
  (:func:`set_payouts`: whole, adding up to the pool, not increasing).
* Deal (:func:`deal_preview`, :func:`record_deal`): the players left share
  the prizes still open by chip chop or ICM (``poker.tournament.icm``);
  neither rulebook regulates a deal (004 #79 names the players' agreed
  "Bubble-Deal" only).  After a deal the players may play on for the title:
  their places come from their busts, their prizes from the deal.

Every write is one step (``tables.writepath.write_step`` through
``writes.tournament_step``) with its event: ``payouts`` or ``deal``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from poker import tournament as eng
from poker.tournament import icm
from poker.tournament.payouts import percentage_table
from tables.models import Seat
from tables.writepath import ServiceError
from tournaments.models import Entry, Finish, Tournament, TournamentTable
from tournaments.services.reading import add_on_cost, payout_table_of, pool_amounts, rebuy_cost
from tournaments.services.writes import record_event, tournament_step

DEAL_RULE = "004 #79"
"""Citation recorded with a deal: the only rulebook text on deals (the players' "Bubble-Deal")."""

_COUNTED = (Entry.Status.RESERVED, Entry.Status.WAITLISTED, Entry.Status.EXPIRED, Entry.Status.CANCELLED)
"""Entry statuses that paid nothing (excluded from the pool)."""


@dataclass(frozen=True)
class Pool:
    """The prize pool counted from the records.

    ``entries`` first entries, ``re_entries``, ``rebuys``, ``add_ons``
    (counts); ``buy_ins`` their sum; ``collected`` = entrants x ``buy_in`` + rebuys x
    ``rebuy_cost`` + add-ons x ``add_on_cost``; ``pool`` = max(collected, ``guarantee``),
    ``overlay`` the house's part of it; ``fees`` = ``buy_ins * fee`` (currency units, kept
    apart); ``entrants`` the entries that play for places (first entries plus re-entries).
    """

    entries: int
    re_entries: int
    rebuys: int
    add_ons: int
    buy_in: int
    fee: int
    rebuy_cost: int = 0
    add_on_cost: int = 0
    guarantee: int = 0
    collected: int = 0

    @property
    def entrants(self) -> int:
        """Entries playing for a place."""
        return self.entries + self.re_entries

    @property
    def buy_ins(self) -> int:
        """Every payment counted: entries, re-entries, rebuys, add-ons."""
        return self.entrants + self.rebuys + self.add_ons

    @property
    def pool(self) -> int:
        """The prize pool paid out (currency units): the buy-ins, at least the guarantee."""
        return max(self.collected, self.guarantee)

    @property
    def overlay(self) -> int:
        """What the house adds to the buy-ins to pay the guarantee (currency units, 0: none)."""
        return self.pool - self.collected

    @property
    def fees(self) -> int:
        """Fees (rake) kept apart from the pool (currency units)."""
        return self.buy_ins * self.fee


def pool_of(t: Tournament) -> Pool:
    """Count the prize pool of ``t`` from its entries (see :class:`Pool`)."""
    paid = list(
        Entry.objects.filter(tournament=t).exclude(status__in=_COUNTED).values_list("number", "rebuys", "add_ons")
    )
    rebuys, add_ons = sum(r for _n, r, _a in paid), sum(a for _n, _r, a in paid)
    _pool, collected, _overlay = pool_amounts(t, len(paid), rebuys, add_ons)
    return Pool(
        entries=sum(1 for n, _r, _a in paid if n == 1),
        re_entries=sum(1 for n, _r, _a in paid if n > 1),
        rebuys=rebuys,
        add_ons=add_ons,
        buy_in=t.buy_in,
        fee=t.fee,
        rebuy_cost=rebuy_cost(t),
        add_on_cost=add_on_cost(t),
        guarantee=t.guarantee,
        collected=collected,
    )


def compute_payouts(tournament_id: int, *, unit: int, fee: int | None = None, actor=None) -> Tournament:
    """Set the fee (when given) and the payout unit, and store the house
    curve for the current pool and field as the payout table (rounded down
    to ``unit``, the rest to first place).

    * ``unit`` -- positive int, the smallest amount paid (e.g. 5 or 10);
    * ``fee`` -- int 0 or more, the rake per buy-in kept apart from the pool.

    Event ``payouts`` with ``{"amounts", "unit", "fee", "pool", "fees",
    "source": "standard"}``.  Errors: ``invalid`` (bad unit or fee, fewer
    than two entrants, a deal already recorded), ``not_found``.
    """
    if not isinstance(unit, int) or isinstance(unit, bool) or unit < 1 or unit > 10**9:
        raise ServiceError("invalid", _("The payout unit must be a whole amount of 1 or more."))
    if fee is not None and (not isinstance(fee, int) or isinstance(fee, bool) or fee < 0 or fee > 10**9):
        raise ServiceError("invalid", _("The fee must be a whole amount of 0 or more."))
    with tournament_step(tournament_id, with_tables=False) as step:
        t = step.row
        _refuse_after_deal(t)
        if fee is not None:
            t.fee = fee
        pool = pool_of(t)
        if pool.entrants < 2:
            raise ServiceError("invalid", _("There is no prize pool yet: fewer than two entries."))
        table = eng.payout_table(pool.pool, pool.entrants, percentages=percentage_table(pool.entrants), unit=unit)
        t.payouts = list(table.amounts)
        t.payout_unit = unit
        payload = {
            "amounts": t.payouts,
            "unit": unit,
            "fee": t.fee,
            "pool": pool.pool,
            "fees": pool.fees,
            "source": "standard",
        }
        record_event(step, "payouts", payload, actor, ("payouts", "payout_unit", "fee"))
    return t


def amounts_problem(amounts: list, pool: int, entrants: int, unit: int = 1) -> str | None:
    """Why the director's ``amounts`` (prize by place, first place first)
    cannot be the payout table, translated; ``None`` when they can.  They
    must be whole amounts of 0 or more, no more places than ``entrants``,
    not increase with the place, add up to ``pool``, and (but for first
    place, which takes the rounding rest) be multiples of ``unit``."""
    if any(not isinstance(a, int) or isinstance(a, bool) or a < 0 for a in amounts):
        return _("Every prize must be a whole amount of 0 or more.")
    if len(amounts) > entrants:
        return _("%(places)s places paid, but only %(entrants)s entries.") % {
            "places": len(amounts),
            "entrants": entrants,
        }
    for place, (better, worse) in enumerate(zip(amounts, amounts[1:]), start=2):
        if worse > better:
            return _("Place %(place)s would get more than place %(better)s.") % {"place": place, "better": place - 1}
    if sum(amounts) != pool:
        return _(
            "The payouts must add up to the prize pool of %(pool)s; these add up to %(total)s (%(diff)s to distribute)."
        ) % {"pool": pool, "total": sum(amounts), "diff": pool - sum(amounts)}
    for place, amount in enumerate(amounts[1:], start=2):
        if amount % unit:
            return _("Place %(place)s is not a multiple of the payout unit %(unit)s.") % {"place": place, "unit": unit}
    return None


def set_payouts(tournament_id: int, amounts: list[int], *, actor=None) -> Tournament:
    """Replace the payout table by ``amounts`` (ints by place, first place
    first: :func:`amounts_problem`).  An empty list restores the house
    default.  Event ``payouts`` with ``{"amounts", "source": "edited"}``.
    Errors: ``invalid`` (nothing changes), ``not_found``."""
    with tournament_step(tournament_id, with_tables=False) as step:
        t = step.row
        _refuse_after_deal(t)
        if amounts:
            pool = pool_of(t)
            if pool.entrants < 2:
                raise ServiceError("invalid", _("no prize pool yet"))
            problem = amounts_problem(list(amounts), pool.pool, pool.entrants, t.payout_unit)
            if problem:
                raise ServiceError("invalid", problem)
            try:
                eng.payout_table(pool.pool, pool.entrants, amounts=amounts)
            except (TypeError, ValueError) as exc:
                raise ServiceError(
                    "invalid", _("These payouts are not possible: %(reason)s") % {"reason": exc}
                ) from None
        t.payouts = [int(a) for a in amounts]
        record_event(
            step, "payouts", {"amounts": t.payouts, "source": "edited" if amounts else "default"}, actor, ("payouts",)
        )
    return t


def _refuse_after_deal(t: Tournament) -> None:
    if t.deal:
        raise ServiceError("invalid", _("A deal is recorded: the payouts can no longer change."))


def players_left(t: Tournament) -> list[dict]:
    """The players still in (seated entries), biggest stack first:
    ``[{"entry", "name", "stack"}]`` (stack in chips, from their seats)."""
    entries = {
        e.player_id: e for e in Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).select_related("player")
    }
    table_ids = TournamentTable.objects.filter(tournament=t, broken=False).values_list("table_id", flat=True)
    stacks = dict(
        Seat.objects.filter(table_id__in=list(table_ids), player_id__in=list(entries)).values_list("player_id", "stack")
    )
    rows: list[dict[str, Any]] = [
        {"entry": e.id, "name": e.player.name, "stack": stacks.get(pid, 0)} for pid, e in entries.items()
    ]
    rows.sort(key=lambda r: (-r["stack"], r["name"].lower()))
    return rows


def _compute_deal(t: Tournament, method: str) -> dict:
    """The deal ``method`` would give now: ``{"method", "pool", "unit",
    "prizes", "players": [{"entry", "name", "stack", "share", "amount"}]}``
    (``share`` the exact share as text with two decimals).  Errors: ``invalid``."""
    if method not in icm.METHODS:
        raise ServiceError("invalid", _("Unknown deal method."))
    if t.status != Tournament.Status.RUNNING:
        raise ServiceError("invalid", _("A deal is made while the tournament is running."))
    if t.deal:
        raise ServiceError("duplicate", _("A deal is recorded already."))
    players = players_left(t)
    if len(players) < 2:
        raise ServiceError("invalid", _("A deal needs at least two players left."))
    if any(p["stack"] <= 0 for p in players):
        raise ServiceError("invalid", _("Every player in a deal needs chips; record the busts first."))
    if method == "icm" and len(players) > icm.MAX_ICM_PLAYERS:
        raise ServiceError("invalid", _("ICM is computed for at most %(n)s players.") % {"n": icm.MAX_ICM_PLAYERS})
    table = payout_table_of(t)
    if table is None:
        raise ServiceError("invalid", _("no prize pool yet"))
    prizes = list(table.amounts[: len(players)])
    result = icm.deal(method, [p["stack"] for p in players], prizes, max(1, t.payout_unit))
    return {
        "method": method,
        "pool": result.pool,
        "unit": result.unit,
        "prizes": prizes,
        "players": [
            {**p, "share": f"{float(share):.2f}", "amount": amount}
            for p, share, amount in zip(players, result.shares, result.amounts)
        ],
    }


def deal_preview(tournament_id: int, method: str) -> dict:
    """The deal ``method`` (``"chip_chop"`` or ``"icm"``) among the players
    left, for the director to look at (nothing is written): see
    :func:`_compute_deal`.  Errors: ``invalid``, ``duplicate`` (a deal is
    recorded), ``not_found``."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise ServiceError("not_found", _("no tournament %(tournament_id)s") % {"tournament_id": tournament_id})
    return _compute_deal(t, method)


def record_deal(tournament_id: int, method: str, seen: list[int], *, actor=None) -> Tournament:
    """Record the deal the director previewed.

    * ``seen`` -- the amounts of the preview (ints, biggest stack first):
      the deal is computed again under the lock and must give them, else
      the stacks or the payouts changed and nothing is recorded.

    Stores ``Tournament.deal`` (the :func:`_compute_deal` dict plus
    ``"rule"``) and appends the event ``deal``.  Errors: ``invalid``,
    ``stale`` (preview again), ``duplicate``, ``not_found``.
    """
    with tournament_step(tournament_id) as step:
        t = step.row
        result = _compute_deal(t, method)
        if [p["amount"] for p in result["players"]] != list(seen):
            raise ServiceError("stale", _("The stacks or the payouts changed since the preview: preview again."))
        t.deal = {**result, "rule": DEAL_RULE}
        record_event(step, "deal", t.deal, actor, ("deal",))
    return t


def result_rows(t: Tournament) -> list[dict]:
    """The result sheet, best place first: ``[{"place", "place_worst",
    "name", "country", "prize", "entry"}]`` (prize in currency units).
    Every finish as :mod:`tournaments.services.places` stored it -- the one
    source the director, the TV, the CSV and the payout slips read; after a
    deal its players' prizes are the deal's amounts.  Players of a recorded
    deal still playing are listed above every finish by their stack at the
    deal (``place`` their rank among them, ``final`` false); other players
    still playing are not listed."""
    rows: list[dict[str, Any]] = []
    finished = set()
    for f in Finish.objects.filter(tournament=t, place__isnull=False).select_related("entry__player"):
        finished.add(f.entry_id)
        rows.append(
            {
                "place": f.place,
                "place_worst": f.place_worst or f.place,
                "name": f.entry.player.name,
                "country": f.entry.player.country,
                "prize": f.prize,
                "entry": f.entry_id,
                "final": True,
            }
        )
    still = [p for p in (t.deal or {}).get("players", []) if p["entry"] not in finished]
    countries = dict(Entry.objects.filter(id__in=[p["entry"] for p in still]).values_list("id", "player__country"))
    for place, p in enumerate(still, start=1):
        rows.append(
            {
                "place": place,
                "place_worst": place,
                "name": p["name"],
                "country": countries.get(p["entry"], ""),
                "prize": p["amount"],
                "entry": p["entry"],
                "final": False,
            }
        )
    rows.sort(key=lambda r: (r["place"], r["name"].lower()))
    return rows


def result_csv(t: Tournament) -> str:
    """The result sheet as CSV text (``place,name,prize``; a shared place
    as ``5-6``; header in the active language)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([_("Place"), _("Name"), _("Prize")])
    for r in result_rows(t):
        place = str(r["place"]) if r["place_worst"] == r["place"] else f"{r['place']}-{r['place_worst']}"
        writer.writerow([place, r["name"], r["prize"]])
    return out.getvalue()


RANKING_HEADER = ("Place", "Name", "Country", "Prize")
"""The columns player-ranking sites import, in their (English) names."""


def ranking_csv(t: Tournament) -> str:
    """The results in the column layout player-ranking sites take:
    ``Place,Name,Country,Prize`` (English header whatever the language;
    place a whole number -- a shared place gives each player its best
    place; country ISO 3166-1 alpha-2 or blank; prize a whole amount)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(RANKING_HEADER)
    for r in result_rows(t):
        writer.writerow([r["place"], r["name"], r["country"], r["prize"]])
    return out.getvalue()


def payout_slips(t: Tournament) -> list[dict]:
    """One slip per player paid (prize above 0), best place first: the rows
    of :func:`result_rows` with the tournament's name, so a slip says the
    same amount as the desk, the TV and the CSV."""
    return [{**r, "tournament": t.name} for r in result_rows(t) if r["prize"] > 0]
