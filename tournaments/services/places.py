"""Finishing places and prizes, derived from the bust order: one source of truth.

A :class:`~tournaments.models.Finish` records the fact -- who went out, in
which hand, with which stack at its start, and the ``bust_order`` (players
out in one hand, one hand-for-hand round or one desk entry share it).  The
place, the prize and the rule applied are derived here from that order, the
paid entries, the payout table and the deal, and stored on the finish for
every reader (director, TV, results sheet and CSV, payout slips) by
:func:`refresh_places`, the only writer of those columns.

How places are counted (issue 23, TDA practice, 004 is "based on TDA 2019"):

* counting down from the entries that paid a buy-in -- first entries,
  re-entries (004 #72: "gilt als neuer Spieler") and the entry a player gave
  up by a surrender (004 #74), which is out like a bust -- in bust order: the
  k players of the n-th group out take the k worst places still open.  Who
  sits down from the waitlist meanwhile (004 #73) changes nothing of that.
* While late registration (and its waitlist) still brings entries, the total
  is not known: each new entry moves every place given so far one down, so
  that once the last entry is in, the places are final and every place
  1..entries is given exactly once.  A place read during late registration
  is therefore provisional; it is never a place another player holds.
* Players out together (:func:`poker.tournament.place_busts`): 001 Ende des
  Turniers and, for 004 before hand-for-hand, 003 Ausscheiden mehrerer
  Spieler (TDA: the same) -- the bigger stack at the start of the hand
  finishes better, equal stacks share; 004 #79 -- once hand-for-hand (or the
  bubble) is announced they are "gleichwertig" and share the places and
  their prizes.  A single bust cites no rule (but in a hand-for-hand
  round: 004 #79).  The places of a hand-for-hand
  round stay open (``None``) until every table has played its hand (004 #77).
* The last player left is first (001 Ende des Turniers).
* After a deal (``Tournament.deal``) its players are paid the deal's amount,
  whatever their place; places still come from the busts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.utils.translation import gettext as _

from poker import tournament as eng
from tables.writepath import ServiceError
from tournaments.models import Entry, Finish, Tournament
from tournaments.services.delta import changed as name_changed
from tournaments.services.reading import UNPAID, engine_rules, payout_table_from, payout_table_of

PLACE_KINDS = frozenset({"payouts", "deal", "rebuy", "add_on", "bust_order", "finished"})
"""Tournament events after which prizes may change although no place did
(the pool or the payout table or the deal changed): :func:`refresh_if_needed`
refreshes after them without looking."""

_OUT = (Entry.Status.BUSTED, Entry.Status.SURRENDERED)


def entrants(t: Tournament) -> int:
    """The entries that play for a place: every entry that paid a buy-in
    (first entries, re-entries; not reserved, waitlisted or lapsed ones)."""
    return Entry.objects.filter(tournament=t).exclude(status__in=UNPAID).count()


def next_bust_order(t: Tournament, h4h_round: int | None = None, *, seated: bool = False):
    """The ``bust_order`` for players going out now: the next number, or,
    in a hand-for-hand round (``h4h_round``, 004 #77), that of the round's
    busts recorded so far (they go out "innerhalb einer Hand", 004 #79).
    With ``seated``: ``(bust order, players seated now, whether anybody is
    waitlisted)``, read in the same statement (a bust's ``players_before``,
    and whether the waitlist takes the places it opens)."""
    finish, entry = Finish._meta.db_table, Entry._meta.db_table
    counts = (
        f"(SELECT count(*) FILTER (WHERE status = %s) FROM {entry} WHERE tournament_id = %s AND status IN (%s, %s)), "
        f"EXISTS(SELECT 1 FROM {entry} WHERE tournament_id = %s AND status = %s)"
    )
    params: list[Any] = (
        [Entry.Status.SEATED, t.id, Entry.Status.SEATED, Entry.Status.SEATED, t.id, Entry.Status.WAITLISTED]
        if seated
        else []
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT f.bust_order, f.h4h_round, e.status, f.place, {counts if seated else '0, false'} "
            f"FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT bust_order, h4h_round, entry_id, place FROM {finish} "
            f"WHERE tournament_id = %s ORDER BY bust_order DESC LIMIT 1) AS f ON true "
            f"LEFT JOIN {entry} AS e ON e.id = f.entry_id",
            [*params, t.id],
        )
        order, round_no, status, place, players, waiting = cursor.fetchone()
    number = _next_order(t, h4h_round, order, round_no, status, place)
    return (number, players, waiting) if seated else number


def _next_order(t: Tournament, h4h_round, order, round_no, status, place) -> int:
    """:func:`next_bust_order` from the latest finish's columns (``order`` None: no finish yet)."""
    if order is None:
        return 1
    if h4h_round is not None and round_no == h4h_round and status in _OUT and place is None and t.hand_for_hand:
        return order  # the round is still being played: not placed yet
    return order + 1


def record_surrender(t: Tournament, entry: Entry, stack: int) -> Finish:
    """004 #74: the entry a player gives up by a surrender is out, like a
    bust of his stack (``stack``, chips, leaving play): it takes the next
    place in bust order, as any paid entry does.  ``entry`` is already
    ``surrendered``.  Returns the finish."""
    f = Finish.objects.create(
        tournament=t, entry=entry, stack_at_start=stack, bust_order=next_bust_order(t), rule="004 #74"
    )
    name_changed(finishes=[f.id])
    refresh_places(t)
    return f


def _pending(t: Tournament, group: list[dict], last: bool) -> bool:
    """Whether ``group`` is a hand-for-hand round still being played (004
    #77): the latest group, of the running round."""
    round_no = group[0]["h4h_round"]
    return last and round_no is not None and t.hand_for_hand and round_no >= t.hands_played_h4h


_UNSET = object()


def compute_places(t: Tournament, rows: list[dict], paid: int, gone: int = 0, *, table=_UNSET) -> dict[int, tuple]:
    """The derived columns of ``t``'s finishes: ``{finish id: (place,
    place_worst, prize, rule)}`` from ``rows`` (dicts with ``id``,
    ``entry_id``, ``bust_order``, ``stack_at_start``, ``h4h_round``,
    ``entry__status``) and ``paid`` entries; ``gone`` -- players out before
    the first of ``rows`` (when only the latest busts are placed); ``table``
    -- the payout table (``payout_table_of``, read when not given).  See the module."""
    rules = engine_rules(t)
    if table is _UNSET:
        table = payout_table_of(t)
    deal = {p["entry"]: int(p["amount"]) for p in (t.deal or {}).get("players", [])}
    groups: dict[tuple[int, int], list[dict]] = defaultdict(list)
    winners: list[dict] = []
    for r in rows:  # a finish written without a bust order (0: by hand, in a test) is a bust of its own, by id
        key = (r["bust_order"], r["id"] if r["bust_order"] == 0 else 0)
        (groups[key] if r["entry__status"] in _OUT else winners).append(r)
    out: dict[int, tuple] = {}
    orders = sorted(groups)
    for n, order in enumerate(orders):
        group = sorted(groups[order], key=lambda r: r["id"])
        k = len(group)
        before = max(paid - gone, k + 1)  # never fewer than one player left behind them
        h4h = group[0]["h4h_round"] is not None
        gone += k
        if k == 1 and not h4h:  # one player out (most busts): the place open, its prize, no rule -- no engine call
            r = group[0]
            prize = deal.get(r["entry_id"], table.prize(before) if table else 0)
            out[r["id"]] = (before, before, prize, "004 #74" if r["entry__status"] == Entry.Status.SURRENDERED else "")
            continue
        result = eng.place_busts(
            [eng.Bust(r["entry_id"], r["stack_at_start"]) for r in group], before, rules, table, hand_for_hand=h4h
        )
        pending = _pending(t, group, n == len(orders) - 1)
        by_entry = {f.player: f for f in result.finishes}
        for r in group:
            f = by_entry[r["entry_id"]]
            if pending:
                out[r["id"]] = (None, None, 0, "")
            else:
                if k > 1 or h4h:  # placed together (001, 003), or in a hand-for-hand round (004 #79)
                    rule = str(f.rule)
                else:  # a single bust: no rule on several players out applies
                    rule = "004 #74" if r["entry__status"] == Entry.Status.SURRENDERED else ""
                out[r["id"]] = (f.places[0], f.places[1], deal.get(r["entry_id"], f.prize), rule)
    for r in winners:
        f = eng.payouts.winner_finish(r["entry_id"], table, rules)
        out[r["id"]] = (1, 1, deal.get(r["entry_id"], f.prize), str(f.rule))
    return out


_FIELDS = (
    "id",
    "entry_id",
    "bust_order",
    "stack_at_start",
    "h4h_round",
    "entry__status",
    "place",
    "place_worst",
    "prize",
    "rule",
)


def _write(t: Tournament, changed: list[tuple]) -> None:
    """``changed`` -- ``(id, place, place_worst, prize, rule)``: one UPDATE
    statement from a VALUES list (Django's ``bulk_update`` writes a CASE per
    row and column: seconds for a field of thousands), and the rows go in
    the tournament's next delta."""
    table = Finish._meta.db_table
    values = ", ".join(["(%s::bigint, %s::integer, %s::integer, %s::integer, %s::varchar)"] * len(changed))
    sql = (
        f'UPDATE "{table}" AS f SET place = v.place, place_worst = v.place_worst, prize = v.prize, rule = v.rule '
        f"FROM (VALUES {values}) AS v(id, place, place_worst, prize, rule) WHERE f.id = v.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [x for row in changed for x in row])
    name_changed(finishes=[row[0] for row in changed])


def _state(t: Tournament) -> dict:
    """What :func:`refresh_places` and :func:`places_stale` decide on, in one statement: ``paid``
    entries (:func:`entrants`) with their ``rebuys`` and ``add_ons`` (the pool), the finishes ``n``,
    ``unplaced``, the ``worst`` place given, the ``first_open`` bust order without a place, whether a
    finish from it on is ``placed_after`` it, and the players out before it (``gone``)."""
    finish, entry = Finish._meta.db_table, Entry._meta.db_table
    unpaid, out = [str(s) for s in UNPAID], [str(s) for s in _OUT]
    sql = (
        f"WITH a AS (SELECT count(*) AS n, count(*) FILTER (WHERE place IS NULL) AS unplaced, "
        f"max(place_worst) AS worst, min(bust_order) FILTER (WHERE place IS NULL) AS first_open "
        f"FROM {finish} WHERE tournament_id = %s), "
        f"p AS (SELECT count(*) AS paid, coalesce(sum(rebuys), 0) AS rebuys, coalesce(sum(add_ons), 0) AS add_ons "
        f"FROM {entry} WHERE tournament_id = %s AND NOT status = ANY(%s)) "
        f"SELECT p.paid, p.rebuys, p.add_ons, a.n, a.unplaced, a.worst, a.first_open, "
        f"CASE WHEN a.first_open IS NULL OR a.worst IS DISTINCT FROM p.paid THEN NULL ELSE EXISTS("
        f"SELECT 1 FROM {finish} f JOIN {entry} e ON e.id = f.entry_id WHERE f.tournament_id = %s "
        f"AND f.bust_order >= a.first_open AND f.place IS NOT NULL AND e.status = ANY(%s)) END, "
        f"CASE WHEN a.first_open IS NULL OR a.worst IS DISTINCT FROM p.paid THEN NULL ELSE ("
        f"SELECT count(*) FROM {finish} f JOIN {entry} e ON e.id = f.entry_id WHERE f.tournament_id = %s "
        f"AND f.bust_order < a.first_open AND e.status = ANY(%s)) END "
        f"FROM a, p"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [t.id, t.id, unpaid, t.id, out, t.id, out])
        row = cursor.fetchone()
    keys = ("paid", "rebuys", "add_ons", "n", "unplaced", "worst", "first_open", "placed_after", "gone")
    return dict(zip(keys, row, strict=True))


def _finish_values(t: Tournament, from_bust_order: int | None = None) -> list[dict[str, Any]]:
    """``t``'s finishes (those from ``from_bust_order`` on, or all) as dicts of
    :data:`_FIELDS`: one plain statement (every bust reads its own so)."""
    columns = ", ".join("e.status" if name == "entry__status" else f"f.{name}" for name in _FIELDS)
    sql = (
        f"SELECT {columns} FROM {Finish._meta.db_table} f JOIN {Entry._meta.db_table} e ON e.id = f.entry_id "
        f"WHERE f.tournament_id = %s"
        + (" AND f.bust_order >= %s" if from_bust_order is not None else "")
        + " ORDER BY f.place, f.id"  # Finish's own ordering
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [t.id] + ([from_bust_order] if from_bust_order is not None else []))
        return [dict(zip(_FIELDS, row, strict=True)) for row in cursor.fetchall()]


def refresh_places(t: Tournament, *, full: bool = False) -> set[int]:
    """Store the places, prizes and rules of ``t``'s finishes as
    :func:`compute_places` derives them; only changed rows are written (one
    statement).  They go in the tournament's next delta.  Returns the ids
    of the finishes changed.

    While the places given agree with the entries (the first player out
    holds the last place) and nothing but new busts is to place, only those
    are read and placed (a bust in a field of thousands reads a few rows);
    else -- or with ``full`` -- every finish is derived again."""
    state = _state(t)  # one statement: the entries, the pool and how far the places are given
    paid, first_open, worst = state["paid"], state["first_open"], state["worst"]
    table = payout_table_from(t, paid, state["rebuys"], state["add_ons"])
    rows = None
    if not full:
        if not state["n"]:
            return set()  # no finish
        if worst == paid and first_open is None:
            return set()  # every place given and right
        if worst == paid and first_open and not state["placed_after"]:
            # only the latest busts wait for their places: those are read and placed
            rows = _finish_values(t, first_open)
            derived = compute_places(t, rows, paid, state["gone"], table=table)
    if rows is None:
        rows = _finish_values(t)
        if not rows:
            return set()
        derived = compute_places(t, rows, paid, table=table)
    changed = [
        (r["id"], *d) for r in rows if (d := derived[r["id"]]) != (r["place"], r["place_worst"], r["prize"], r["rule"])
    ]
    if changed:
        _write(t, changed)
    return {row[0] for row in changed}


def places_stale(t: Tournament) -> bool:
    """Whether a finish of ``t`` waits for its place or the entries changed
    since the places were given (one statement)."""
    state = _state(t)
    if not state["n"]:
        return False
    return bool(state["unplaced"]) or state["worst"] != max(state["paid"], 1)


SEAT_KINDS = frozenset({"moves_made", "move_confirmed"})
"""Tournament events whose steps change seats and instructions only, never an entry's status, a
finish, the pool or the deal: no place can have changed, :func:`refresh_if_needed` does not look
(a statement less for each round of moves after a bust)."""


def refresh_if_needed(t: Tournament, kind: str = "") -> set[int]:
    """:func:`refresh_places` after an event of ``kind`` when it may change
    a prize (:data:`PLACE_KINDS`: every finish again) or :func:`places_stale`; else
    (after :data:`SEAT_KINDS`, or when ``busts.record_busts`` placed the step's
    busts, ``t.step_memo.places_fresh``) nothing."""
    if kind in PLACE_KINDS:
        return refresh_places(t, full=True)
    if kind in SEAT_KINDS:
        return set()
    if t.step_memo is not None and t.step_memo.take_places_fresh():
        return set()  # busts.record_busts placed this step's busts already; nothing else changed an entry
    if places_stale(t):
        return refresh_places(t)
    return set()


def finish_rows(finishes: Iterable[Finish]) -> list[dict]:
    """``[{"place", "place_worst", "name", "prize", "entry"}]`` of placed
    ``finishes`` (entry player loaded), as stored."""
    return [
        {
            "place": f.place,
            "place_worst": f.place_worst or f.place,
            "name": f.entry.player.name,
            "prize": f.prize,
            "entry": f.entry_id,
        }
        for f in finishes
        if f.place is not None
    ]


BUST_MOVES = ("earlier", "later", "with_earlier", "with_later")
"""How the director may correct one player's bust (:func:`correct_bust_order`)."""


def _regroup(groups: list[list[int]], entry_id: int, move: str) -> list[list[int]] | None:
    """``groups`` (entry ids by bust order, earliest first) with ``entry_id``
    moved by ``move`` (:data:`BUST_MOVES`); ``None`` when it cannot move so
    (the first or last bust)."""
    i = next(n for n, g in enumerate(groups) if entry_id in g)
    rest = [e for e in groups[i] if e != entry_id]
    out = [list(g) for g in groups]
    if move in ("with_earlier", "with_later"):
        j = i - 1 if move == "with_earlier" else i + 1
        if not 0 <= j < len(groups):
            return None
        out[j].append(entry_id)
        out[i] = rest
    elif rest:  # out of a shared bust: just before or after the others of it
        out[i : i + 1] = [[entry_id], rest] if move == "earlier" else [rest, [entry_id]]
    else:
        j = i - 1 if move == "earlier" else i + 1
        if not 0 <= j < len(groups):
            return None
        out[i], out[j] = out[j], out[i]
    return [g for g in out if g]


def correct_bust_order(tournament_id: int, entry_id: int, move: str, *, note: str = "", actor=None) -> dict:
    """The director corrects the order the players went out in: the bust
    of ``entry_id`` is put ``earlier`` or ``later`` (past the next bust;
    out of a shared bust, just before or after the others of it), or
    ``with_earlier`` / ``with_later`` (out in the same hand as that bust).
    The places and prizes are derived again (:func:`refresh_places`; who
    went out together is placed by 001 Ende des Turniers / 003 / 004 #79).
    The winner's finish does not move.

    One event ``bust_order`` (the audit trail: ``entry``, ``player``,
    ``move``, ``changes`` -- ``[{"player", "before", "after"}]`` places as
    ``"5"`` or ``"4-5"`` --, ``text_en``, ``text_de``, ``note``; the actor
    and the time on the event).  Returns the payload.  Errors:
    ``not_found``, ``invalid`` (unknown move, not busted, no bust to move
    past), nothing changes."""
    from tournaments.services.writes import record_event, tournament_step  # writes calls this module: imported here

    if move not in BUST_MOVES:
        raise ServiceError("invalid", _("Unknown correction of the bust order."))
    with tournament_step(tournament_id, with_tables=False) as step:
        t = step.row
        rows = list(
            Finish.objects.filter(tournament=t, entry__status__in=_OUT)
            .order_by("bust_order", "id")
            .values("id", "entry_id", "bust_order", "place", "place_worst", "entry__player__name")
        )
        target = next((r for r in rows if r["entry_id"] == entry_id), None)
        if target is None:
            raise ServiceError("invalid", _("Only a player who is out can move in the bust order."))
        if any(r["place"] is None for r in rows):
            raise ServiceError("invalid", _("A hand-for-hand round is being played: correct the order after it."))
        groups: dict[int, list[int]] = {}
        for r in rows:
            groups.setdefault(r["bust_order"], []).append(r["entry_id"])
        new = _regroup(list(groups.values()), entry_id, move)
        if new is None:
            raise ServiceError("invalid", _("There is no bust to move past."))
        order_of = {e: n for n, g in enumerate(new, start=1) for e in g}
        changed = [Finish(id=r["id"], bust_order=order_of[r["entry_id"]]) for r in rows]
        Finish.objects.bulk_update(changed, ["bust_order"])
        winner = Finish.objects.filter(tournament=t).exclude(entry__status__in=_OUT)
        winner.update(bust_order=len(new) + 1)
        name_changed(whole=True)  # the bust order of every finish may change
        refresh_places(t, full=True)
        after = {
            f["entry_id"]: (f["place"], f["place_worst"])
            for f in Finish.objects.filter(tournament=t).values("entry_id", "place", "place_worst")
        }

        def text(p, w):
            return str(p) if p == w else f"{p}-{w}"

        changes = [
            {
                "player": r["entry__player__name"],
                "before": text(r["place"], r["place_worst"]),
                "after": text(*after[r["entry_id"]]),
            }
            for r in rows
            if (r["place"], r["place_worst"]) != after[r["entry_id"]]
        ]
        moved = ", ".join(f"{c['player']} {c['before']} → {c['after']}" for c in changes)
        name = target["entry__player__name"]
        payload = {
            "entry": entry_id,
            "player": name,
            "move": move,
            "changes": changes,
            "text_en": f"Bust order corrected ({name}): {moved or 'no place changed'}",
            "text_de": f"Reihenfolge des Ausscheidens korrigiert ({name}): {moved or 'kein Platz geändert'}",
            "note": note,
        }
        payload["seq"] = record_event(step, "bust_order", payload, actor)
    return payload
