"""The room's reports for the manager (issue 28), computed from what was recorded: the hands (table hours,
hands per hour, player hours), the dealers' downs, the room's log (waitlist joins, call-ups, no-shows, waits)
and the tournaments' entries, finishes and deals.  Every figure is for a period ``[start, end)``; times
in seconds, money in the tournament's currency units (ints).  :func:`report` gathers them for the page and
the CSV export."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from office.hours import live_hands, sessions_by_player
from poker.staff.hours import HandRecord, hours, sessions
from room.models import GameTable, RoomLog
from tables.models import DealerDown, Player, Table
from tournaments.models import Finish, Tournament
from tournaments.services.payouts import pool_of


@dataclass
class TableRow:
    """One table's figures: ``seconds`` dealing (its hands' sessions), ``hands``, ``players`` dealt in summed
    over the hands (for the occupancy)."""

    table: str
    game: str
    seconds: int
    hands: int
    players: int

    @property
    def hours(self) -> float:
        """Table hours, two decimals."""
        return hours(self.seconds)

    @property
    def hands_per_hour(self) -> float:
        """Hands per hour dealt (one decimal; 0 without time)."""
        return round(self.hands * 3600 / self.seconds, 1) if self.seconds else 0.0

    @property
    def occupancy(self) -> float:
        """Players dealt in per hand on average (one decimal)."""
        return round(self.players / self.hands, 1) if self.hands else 0.0


def game_names() -> dict[int, str]:
    """Table id -> its game's name (cash tables), or the tournament's name (tournament tables)."""
    names = {gt.table_id: gt.game.name for gt in GameTable.objects.select_related("game")}
    for t in Tournament.objects.prefetch_related("tables"):
        for tt in t.tables.all():
            names.setdefault(tt.table_id, t.name)
    return names


def table_rows(start: datetime, end: datetime) -> list[TableRow]:
    """Per table with hands in the period: hours (its hands' sessions, a break over 30 minutes ends one),
    hands, hands per hour and players per hand; by game, then table name."""
    records: dict[int, list[HandRecord]] = defaultdict(list)
    players: Counter = Counter()
    for table_id, started, ended, meta in live_hands(start, end).values_list(
        "table_id", "started_at", "ended_at", "metadata"
    ):
        records[table_id].append(HandRecord(table_id, started, ended))
        players[table_id] += len((meta or {}).get("player_ids", {}))
    names = dict(Table.objects.filter(pk__in=list(records)).values_list("id", "name"))
    games = game_names()
    rows = [
        TableRow(
            names[tid],
            games.get(tid, ""),
            sum(s.seconds for s in sessions(recs)),
            len(recs),
            players[tid],
        )
        for tid, recs in records.items()
    ]
    return sorted(rows, key=lambda r: (r.game, r.table))


def game_rows(tables: list[TableRow]) -> list[TableRow]:
    """The table rows summed per game (``table`` empty)."""
    by_game: dict[str, TableRow] = {}
    for row in tables:
        acc = by_game.setdefault(row.game, TableRow("", row.game, 0, 0, 0))
        acc.seconds += row.seconds
        acc.hands += row.hands
        acc.players += row.players
    return [by_game[g] for g in sorted(by_game)]


@dataclass
class DealerRow:
    """One dealer's downs in the period: ``downs``, ``seconds`` dealing, ``hands`` dealt."""

    dealer: str
    downs: int = 0
    seconds: int = 0
    hands: int = 0

    @property
    def hours(self) -> float:
        """Dealing hours, two decimals."""
        return hours(self.seconds)


def dealer_rows(start: datetime, end: datetime, now: datetime | None = None) -> list[DealerRow]:
    """Per dealer: the downs begun in the period, their time (an open down counts to ``now`` or the period's end,
    whichever is first) and the hands
    started at the down's table during it; by dealer name."""
    now = now or timezone.now()
    rows: dict[str, DealerRow] = {}
    downs = DealerDown.objects.filter(started_at__gte=start, started_at__lt=end).select_related("dealer")
    hands_by_table: dict[int, list[datetime]] = defaultdict(list)
    for table_id, started in live_hands(start, end).values_list("table_id", "started_at"):
        hands_by_table[table_id].append(started)
    for down in downs:
        row = rows.setdefault(down.dealer.username, DealerRow(down.dealer.username))
        finish = down.ended_at or min(now, end)  # a down still open counts to now, or to the period's end
        row.downs += 1
        row.seconds += int((finish - down.started_at).total_seconds())
        row.hands += sum(1 for s in hands_by_table[down.table_id] if down.started_at <= s < finish)
    return [rows[k] for k in sorted(rows)]


@dataclass
class PlayerRow:
    """One player's hours from his hands in the period."""

    player_id: int
    name: str
    sessions: int
    hands: int
    seconds: int

    @property
    def hours(self) -> float:
        """Hours played, two decimals."""
        return hours(self.seconds)


def player_rows(start: datetime, end: datetime) -> list[PlayerRow]:
    """Per player dealt in during the period: sessions, hands and hours (from the hands); most hours first."""
    found = sessions_by_player(start, end)
    names = dict(Player.objects.filter(pk__in=list(found)).values_list("id", "name"))
    rows = [
        PlayerRow(pid, names.get(pid, f"#{pid}"), len(ss), sum(s.hands for s in ss), sum(s.seconds for s in ss))
        for pid, ss in found.items()
    ]
    return sorted(rows, key=lambda r: (-r.seconds, r.name))


@dataclass
class WaitlistRow:
    """One game's waitlist figures: joins, call-ups, no-shows, seated from the list and the median wait
    (seconds from joining to the seat; None without a seat)."""

    game: str
    joins: int = 0
    calls: int = 0
    no_shows: int = 0
    waits: list[int] = field(default_factory=list)

    @property
    def seated(self) -> int:
        """Players seated from the list."""
        return len(self.waits)

    @property
    def median_wait_minutes(self) -> float | None:
        """The median wait in minutes (one decimal), None without a seat."""
        return round(statistics.median(self.waits) / 60, 1) if self.waits else None


def waitlist_rows(start: datetime, end: datetime) -> list[WaitlistRow]:
    """Per game, from the room's log in the period: ``waitlist_add`` (joins), ``call`` (call-ups),
    ``no_show``, and for each join the first ``seat`` of that player in that game after it (the wait)."""
    rows: dict[str, WaitlistRow] = {}
    log = (
        RoomLog.objects.filter(at__gte=start, at__lt=end, game__isnull=False)
        .filter(kind__in=["waitlist_add", "call", "no_show", "seat"])
        .select_related("game")
        .order_by("at", "id")
    )
    waiting: dict[tuple[int, int], datetime] = {}
    for entry in log:
        if entry.game is None:  # a room entry without a game (none of these kinds)
            continue
        row = rows.setdefault(entry.game.name, WaitlistRow(entry.game.name))
        key = (entry.game.id, entry.player_id or 0)
        if entry.kind == "waitlist_add":
            row.joins += 1
            waiting.setdefault(key, entry.at)
        elif entry.kind == "call":
            row.calls += 1
        elif entry.kind == "no_show":
            row.no_shows += 1
        elif entry.kind == "seat" and key in waiting:
            row.waits.append(int((entry.at - waiting.pop(key)).total_seconds()))
    return [rows[g] for g in sorted(rows)]


@dataclass
class TournamentRow:
    """One tournament's money: entries, re-entries, rebuys, add-ons, fees, prize pool, payouts (the prizes
    of its finishes) and whether a deal was made."""

    name: str
    entries: int
    re_entries: int
    rebuys: int
    add_ons: int
    fees: int
    pool: int
    payouts: int
    deal: bool


def tournament_rows(start: datetime, end: datetime) -> list[TournamentRow]:
    """The tournaments created in the period, by name."""
    found = Tournament.objects.filter(created_at__gte=start, created_at__lt=end).order_by("name")
    rows = []
    for t in found:
        pool = pool_of(t)
        paid = sum(Finish.objects.filter(tournament=t).values_list("prize", flat=True))
        rows.append(
            TournamentRow(
                t.name,
                pool.entries,
                pool.re_entries,
                pool.rebuys,
                pool.add_ons,
                pool.fees,
                pool.pool,
                paid,
                bool(t.deal),
            )
        )
    return rows


def hands_by_hour(start: datetime, end: datetime) -> tuple[list[str], dict[str, list[int]]]:
    """Hands started per clock hour of the period, per table: the hour labels (``"20:00"``, local time) and
    ``{table name: [count per hour]}`` (for the chart of hands per hour by table over a shift)."""
    hours_seen: list[datetime] = []
    counts: dict[str, Counter] = defaultdict(Counter)
    for name, started in live_hands(start, end).values_list("table__name", "started_at"):
        slot = timezone.localtime(started).replace(minute=0, second=0, microsecond=0)
        counts[name][slot] += 1
        hours_seen.append(slot)
    if not hours_seen:
        return [], {}
    first, last = min(hours_seen), max(hours_seen)
    slots = []
    slot = first
    while slot <= last:
        slots.append(slot)
        slot = slot + timedelta(hours=1)
    return [s.strftime("%H:%M") for s in slots], {n: [c[s] for s in slots] for n, c in sorted(counts.items())}


@dataclass
class Report:
    """Everything the reports page and its CSV show for a period."""

    start: datetime
    end: datetime
    tables: list[TableRow]
    games: list[TableRow]
    dealers: list[DealerRow]
    players: list[PlayerRow]
    waitlists: list[WaitlistRow]
    tournaments: list[TournamentRow]


def report(start: datetime, end: datetime, now: datetime | None = None) -> Report:
    """All the figures of the period ``[start, end)``."""
    tables = table_rows(start, end)
    return Report(
        start,
        end,
        tables,
        game_rows(tables),
        dealer_rows(start, end, now),
        player_rows(start, end),
        waitlist_rows(start, end),
        tournament_rows(start, end),
    )


def dealer_users():
    """Users of the ``dealer`` group, by name (the roster's choices)."""
    return get_user_model().objects.filter(groups__name="dealer").order_by("username")
