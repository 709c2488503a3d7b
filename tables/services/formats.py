"""Special formats of a cash hand: straddles (000 Aktionen 1), bomb pot, flip,
double board (000 Allgemein 14), run it twice (000 Aktionen 8).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from poker.hand import EngineError, HandSpec
from poker.hand.formats import Straddle, plan_straddles
from tables.models import Table
from tables.services.snapshots import STRADDLE_KINDS, table_straddle_kinds
from tables.services.steps import (
    Outcome,
    append_event,
    broadcast_on_commit,
    live_hand,
    live_replay,
    repeated_outcome,
    table_changed,
    table_step,
)
from tables.writepath import ServiceError

#: ``format["kind"]`` of ``start_hand``.
FORMAT_KINDS = ("standard", "bomb_pot", "flip")


_FORMAT_KEYS = frozenset({"kind", "amount", "double_board", "straddles"})


def _cite_000(section: str) -> dict[str, str]:
    """A citation of the casino cash-game rulebook (000) in the events' shape."""
    return {"rulebook": "casino-cash", "section": section, "label": f"000 {section}"}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def clean_format(data: Any) -> dict[str, Any] | None:
    """Check the shape of a ``start_hand`` format and normalise it.

    Args:
        data: None, or ``{"kind": "standard" | "bomb_pot" | "flip",
            "amount": chips each player posts (bomb pot and flip only, > 0),
            "double_board": bool, "straddles": [{"kind": "live" | "button"
            | "mississippi", "seat": seat number}, ...] (standard hands
            only)}``; every key is optional (kind defaults to standard).

    Returns:
        ``{"kind", "amount", "double_board", "straddles"}`` (amount 0 for a
        standard hand), or None when nothing special is asked for.

    Raises:
        ServiceError("bad_format") on any other shape; the table is not
        looked at (see :func:`apply_format` for the table's agreement).
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ServiceError("bad_format", "format must be an object")
    unknown = set(data) - _FORMAT_KEYS
    if unknown:
        raise ServiceError("bad_format", f"unknown format key(s): {', '.join(sorted(map(str, unknown)))}")
    kind = data.get("kind") or "standard"
    if kind not in FORMAT_KINDS:
        raise ServiceError("bad_format", f"format kind must be one of {', '.join(FORMAT_KINDS)}, not {kind!r}")
    amount = data.get("amount")
    if kind == "standard":
        if amount not in (None, 0):
            raise ServiceError("bad_format", "an amount is only for a bomb pot or a flip")
        amount = 0
    elif not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ServiceError(
            "bad_format",
            "a bomb pot or a flip needs the amount every player posts, a positive number of chips (000 Allgemein 14)",
        )
    double = data.get("double_board", False)
    if not isinstance(double, bool):
        raise ServiceError("bad_format", "double_board must be true or false")
    raw = data.get("straddles") or []
    if not isinstance(raw, list):
        raise ServiceError("bad_format", "straddles must be a list of {kind, seat}")
    straddles = []
    for item in raw:
        if (
            not isinstance(item, dict)
            or set(item) - {"kind", "seat"}
            or item.get("kind") not in STRADDLE_KINDS
            or not _is_int(item.get("seat"))
        ):
            raise ServiceError(
                "bad_format", f"a straddle is {{kind: {'|'.join(STRADDLE_KINDS)}, seat: number}}, not {item!r}"
            )
        straddles.append({"kind": item["kind"], "seat": item["seat"]})
    if straddles and kind != "standard":
        raise ServiceError("bad_format", "no straddles in a bomb pot or a flip (000 Allgemein 14)")
    if kind == "standard" and not double and not straddles:
        return None
    return {"kind": kind, "amount": amount, "double_board": double, "straddles": straddles}


def apply_format(table: Table, spec: HandSpec, fmt: dict[str, Any] | None) -> tuple[HandSpec, dict | None]:
    """The next cash hand's spec with the dealer's format applied on top of
    ``build_spec``.

    Args:
        table: the locked table (its stakes, ``straddle``, agreed
            ``straddle_kinds`` and ``run_it_twice_min_pot``).
        spec: the spec ``build_spec`` made.
        fmt: the output of :func:`clean_format`, or None.

    Returns:
        ``(spec, record)``: the new spec (``run_it_twice_min_pot`` from the
        table on every one-board hand, 000 Aktionen 8 c), and the record for
        the ``start`` event, None without a format:
        ``{"kind", "amount", "double_board", "straddles": [{"kind", "seat",
        "amount"}], "dropped": [{"kind", "seat", "reason"}], "citations"}``.
        A bomb pot or flip has no blinds, antes or straddles: every player
        posts ``amount`` (all-in when shorter; 000 Allgemein 14).  Straddles
        are planned by the engine (``formats.plan_straddles``): a live
        straddle takes precedence, button and Mississippi requests are then
        set aside and listed in ``dropped`` (000 Aktionen 1).  The table's
        own live straddle (``Table.straddle``) counts as a live request
        under the gun.

    Raises:
        ServiceError: ``straddle_not_agreed`` (a kind not agreed at the
        opening), ``bad_straddle`` (the engine's refusal: wrong seat, too
        few players, ...), ``bad_format`` (an amount not divisible by the
        chip unit, 000 Allgemein 8) or another engine ``bad_spec`` code.
    """

    changes: dict[str, Any] = {}
    if table.run_it_twice_min_pot is not None and not (fmt and fmt["double_board"]):
        changes["run_it_twice_min_pot"] = table.run_it_twice_min_pot
    record = None
    try:
        if fmt is not None:
            n = len(spec.seats)
            record = {
                "kind": fmt["kind"],
                "amount": fmt["amount"],
                "double_board": fmt["double_board"],
                "straddles": [],
                "dropped": [],
                "citations": [],
            }
            if fmt["kind"] != "standard":
                # no blinds, antes, straddles or owed big blinds: everyone posts the amount (the owed
                # big blind is covered by it, 000 Einsätze 4 / Allgemein 14)
                changes.update(
                    {
                        "blinds_or_straddles": (0,) * n,
                        "antes": (0,) * n,
                        "straddles": (),
                        "posts": (),
                        "stakes": (table.small_blind, table.big_blind),
                        fmt["kind"]: fmt["amount"],
                    }
                )
            if fmt["kind"] != "standard" or fmt["double_board"]:
                record["citations"].append(_cite_000("Allgemein 14"))
            if fmt["double_board"]:
                changes["boards"] = 2
            if fmt["straddles"]:
                agreed = table_straddle_kinds(table)
                for item in fmt["straddles"]:
                    if item["kind"] not in agreed:
                        raise ServiceError(
                            "straddle_not_agreed",
                            f"a {item['kind']} straddle was not agreed at this table's opening (000 Aktionen 1); "
                            f"agreed: {', '.join(agreed) or 'none'}",
                        )
                seats = [s.seat for s in spec.seats]
                requests = [Straddle(item["kind"], item["seat"]) for item in fmt["straddles"]]
                if table.straddle and n >= 3 and not any(r.kind == "live" and r.seat == seats[2] for r in requests):
                    requests.insert(0, Straddle("live", seats[2], table.straddle))
                plan = plan_straddles(seats, table.big_blind, requests, spec.rules)
                blinds = list(spec.blinds_or_straddles)
                for position, amount in plan.amounts.items():
                    blinds[position] = amount
                # a straddler owes no extra big blind: his straddle is his post (000 Einsätze 4)
                posts = tuple(p for p in spec.posts if blinds[seats.index(p[0])] == 0)
                changes.update(blinds_or_straddles=tuple(blinds), straddles=plan.applied, posts=posts)
                record["straddles"] = [{"kind": k, "seat": seat, "amount": a} for k, seat, a in plan.applied]
                record["dropped"] = [{"kind": r.kind, "seat": r.seat, "reason": reason} for r, reason in plan.dropped]
                record["citations"].append(_cite_000("Aktionen 1"))
        new = dataclasses.replace(spec, **changes) if changes else spec
    except EngineError as exc:
        raise ServiceError(exc.code, exc.message) from None
    if fmt is not None and fmt["amount"] % new.bet_unit:
        raise ServiceError(
            "bad_format", f"the amount must be divisible by the chip unit {new.bet_unit} (000 Allgemein 8)"
        )
    return new, record


def run_it_twice(
    table_id: int,
    agreed: list[int],
    *,
    pots: list[int] | None = None,
    floor: bool = False,
    actor=None,
    expected_seq: int | None = None,
    client_id: str | None = None,
) -> Outcome:
    """The players agree to run the rest of the board twice (000 Aktionen 8).

    Args:
        agreed: seat numbers of the players who declared it (b: every
            player in the chosen pots must).
        pots: pot indexes to run twice (0 = main pot; default every pot).
            Main and side pots are agreed separately: a pot left out is
            decided on the first board only.
        floor: the floor is present (e: needed with more than two players;
            the floor is informed by the update every dashboard receives, d).

    Recorded as an ``action`` event ``{"type": "run_it_twice", "agreed",
    "pots", "floor", "citations"}`` that the replay applies.  Each chosen
    pot is halved between the two run-outs, the odd chip to the worse
    position (f).

    Errors: ``not_found``, ``stale``, ``no_hand``, ``invalid`` (shapes), and
    the engine's ``run_twice_not_offered`` (the table has no run-it-twice
    minimum, or a double board), ``run_twice_action_possible`` (a),
    ``run_twice_not_agreed`` (b), ``run_twice_pot_too_small`` (c),
    ``run_twice_floor_absent`` (e), ``wrong_phase`` (already agreed, board
    complete), ``bad_action`` (pot indexes), ``no_such_seat``; nothing
    changes on error.
    """
    if (
        not isinstance(agreed, list)
        or not agreed
        or not all(_is_int(s) for s in agreed)
        or len(set(agreed)) != len(agreed)
    ):
        raise ServiceError("invalid", "agreed must be a non-empty list of distinct seat numbers")
    if pots is not None and (not isinstance(pots, list) or not all(_is_int(i) for i in pots)):
        raise ServiceError("invalid", "pots must be a list of pot indexes")
    if not isinstance(floor, bool):
        raise ServiceError("invalid", "floor must be true or false")
    with table_step(table_id, expected_seq, client_id) as step:
        if dup := repeated_outcome(step):
            return dup
        table, hand, state, last_index, info = live_replay(step)
        chosen = list(range(len(state.pots))) if pots is None else list(pots)
        payload = {
            "type": "run_it_twice",
            "agreed": sorted(agreed),
            "pots": chosen,
            "floor": floor,
            "citations": [_cite_000("Aktionen 8")],
        }
        try:
            new_state = state.apply(payload)
        except EngineError as exc:
            raise ServiceError(exc.code, exc.message) from None
        event = append_event(step, hand, last_index + 1, "action", payload, actor, client_id, new_state, info)
        step.publish(broadcast_on_commit, table, hand, event)
        return Outcome(table.id, table.seq)


def set_table_formats(
    table_id: int, *, straddle_kinds: list[str], run_it_twice_min_pot: int | None, expected_seq: int | None = None
) -> Outcome:
    """Agree the table's special formats with the floor at its opening:
    which straddles the players may post (000 Aktionen 1: "Nur in Absprache
    mit dem Floorman und bei Tischöffnung") and the chips worth EUR 500 from
    which they may run it twice (000 Aktionen 8 c; None = not offered).

    Only before the table's first hand or while it is closed.  Errors:
    ``not_found``, ``stale``, ``invalid``, ``hand_in_progress``,
    ``formats_locked`` (the table is open and has dealt hands).
    """
    if not isinstance(straddle_kinds, (list, tuple)) or any(k not in STRADDLE_KINDS for k in straddle_kinds):
        raise ServiceError("invalid", f"straddle kinds are a list of {', '.join(STRADDLE_KINDS)}")
    if run_it_twice_min_pot is not None and (not _is_int(run_it_twice_min_pot) or run_it_twice_min_pot < 0):
        raise ServiceError("invalid", "run_it_twice_min_pot must be None or chips (>= 0)")
    with table_step(table_id, expected_seq) as step:
        table = step.row
        if live_hand(table) is not None:
            raise ServiceError("hand_in_progress", "formats are agreed between hands")
        if table.status == Table.Status.OPEN and table.current_hand_id is not None:
            raise ServiceError(
                "formats_locked",
                "straddles and run it twice are agreed at the table's opening "
                "(000 Aktionen 1): close the table to agree new ones",
            )
        table.straddle_kinds = ",".join(k for k in STRADDLE_KINDS if k in straddle_kinds)
        table.run_it_twice_min_pot = run_it_twice_min_pot
        return table_changed(step, "straddle_kinds", "run_it_twice_min_pot")
