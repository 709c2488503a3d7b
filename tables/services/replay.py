"""Replaying a hand's events: stored specs, the per-process state cache, the
table's house rules.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from poker.hand import AnySpec, AnyState, EngineError, HandState, Rules, corrections, load_spec
from poker.houserules import get_profile
from tables.models import Hand, Table
from tables.writepath import ServiceError


def spec_to_dict(spec: AnySpec) -> dict[str, Any]:
    """Serialise a ``HandSpec`` to JSON-able data (stored on ``Hand.spec``;
    ``HandSpec.to_dict``: game, formats and rules included)."""
    return spec.to_dict()


def spec_from_dict(data: dict[str, Any]) -> AnySpec:
    """Inverse of ``spec_to_dict`` (older stored dicts load with the
    defaults); raises ``ServiceError('invalid')`` on bad data."""
    try:
        return load_spec(data)  # a HandSpec, or a StudSpec for game "stud"
    except (KeyError, TypeError, ValueError, EngineError) as exc:
        raise ServiceError("invalid", f"malformed hand spec: {exc}") from None


_CACHE_SIZE = 512


state_cache: OrderedDict[int, tuple[int, HandState, dict]] = OrderedDict()
"""This process's replayed hands: hand id -> ``(last event index, state, info)``, the least recently
used first, at most ``_CACHE_SIZE`` (read and written under :data:`cache_lock`)."""


cache_lock = threading.Lock()
"""Guards :data:`state_cache` (the consumers' threads and the services share it)."""


def hand_state(hand: Hand) -> HandState:
    """Replay a hand's events through the engine and return its state."""
    return hand_state_and_index(hand)[0]


def empty_info() -> dict[str, Any]:
    """The replay ``info`` of a hand with nothing beyond the engine state (see :func:`hand_replay`)."""
    return {"held": {}, "voided": [], "corrected": False, "misdeal": False, "clock": None, "restricted": {}}


def hand_state_and_index(hand: Hand) -> tuple[HandState, int]:
    """The hand's state and the index of its last event (see :func:`hand_replay`)."""
    state, last, _ = hand_replay(hand)
    return state, last


def hand_replay(hand: Hand) -> tuple[HandState, int, dict[str, Any]]:
    """The hand's state, the index of its last event, and what the replay
    knows beyond the engine state (``info``: held out-of-turn actions,
    voided event indices, whether it was corrected or misdealt, the running
    "time" clock).

    A per-process cache keyed by hand id remembers the state after the last
    event index seen; it is used only if that index is still the hand's last
    (so several server processes stay correct).  Corrections are folded in
    by :func:`poker.hand.corrections.replay`.
    """
    last = hand.last_index
    with cache_lock:
        cached = state_cache.get(hand.id)
    if cached is not None and cached[0] == last:
        return cached[1], last, cached[2]
    events = list(hand.events.order_by("index").values_list("index", "kind", "payload"))
    result = corrections.replay(spec_from_dict(hand.spec), events)
    info: dict[str, Any] = {
        "held": result.held,
        "voided": sorted(result.voided),
        "corrected": result.corrected,
        "misdeal": result.misdeal,
        "clock": None,
        "restricted": {},
        "undone": result.undone,
    }
    for _index, kind, payload in events:
        if (
            kind == "note"
            and payload.get("type") == "out_of_turn_released"
            and "may_not_raise" in payload.get("restrictions", ())
            and payload.get("street") == result.state.street
        ):
            info["restricted"][payload["seat"]] = {
                "street": payload["street"],
                "citations": payload.get("citations", []),
            }
    for index, kind, payload in reversed(events):
        if kind in ("action", "correction"):
            break
        if kind == "clock" and payload.get("type") == "time_called":
            info["clock"] = dict(payload, index=index)
            break
    remember_state(hand.id, last, result.state, info)
    return result.state, last, info


def remember_state(hand_id: int, index: int, state: AnyState, info: dict[str, Any] | None = None) -> None:
    """Cache the state of hand ``hand_id`` after event ``index`` (and its replay ``info``) in
    :data:`state_cache`, dropping the least recently used hand beyond ``_CACHE_SIZE``."""
    with cache_lock:
        state_cache[hand_id] = (index, state, info if info is not None else empty_info())
        state_cache.move_to_end(hand_id)
        while len(state_cache) > _CACHE_SIZE:
            state_cache.popitem(last=False)


def house_profile(table: Table):
    """The house-rule profile of the table (:func:`poker.houserules.get_profile`);
    ``ServiceError('invalid')`` for an unknown profile slug."""
    try:
        return get_profile(table.rules_profile)
    except KeyError:
        raise ServiceError("invalid", f"unknown house-rule profile {table.rules_profile!r}") from None


def rules_for_table(table: Table) -> Rules:
    """The engine rules of the table's house-rule profile (``poker.houserules``,
    through ``Rules.from_house_rules``):
    the minimum raise reading (TDA last full raise, or 002 #4 "double the
    previous") and who may re-raise after a short all-in.  An unknown
    profile slug raises ``ServiceError('invalid')``."""

    try:
        profile = get_profile(table.rules_profile)
    except KeyError:
        raise ServiceError("invalid", f"unknown house-rule profile {table.rules_profile!r}") from None
    return Rules.from_house_rules(profile)
