"""Replay of a hand's events, floor corrections included (pure Python).

A hand is stored as append-only events (``tables.models.HandEvent``).  The
kinds that change the hand are:

- ``"action"``: an engine action dict (``poker.hand.HandState.apply``, which reads it into its
  record, :mod:`poker.hand.records`; the payload keeps the keys the engine does not read, as
  ``out_of_turn``, ``cause``, ``corrected_by``, ``citations``);
- ``"correction"``: a floor correction that cites a ruling; payload
  ``{"type": ..., "ruling": <id>, ...}`` in the vocabulary below;
- ``"out_of_turn"``: an action a player took out of turn, held (not applied)
  until the action reaches him (``{"action": {...}}``); resolved later by an
  ``"action"`` event (binding) or a ``"note"`` event
  ``{"type": "out_of_turn_released", "of": <index>}``.

Other kinds (``"start"``, ``"note"``, ``"clock"``) do not change the cards
or chips.

Correction vocabulary (payload ``type``):

- ``void`` ``{"index": i}``: the action recorded as event ``i`` did not
  happen;
- ``undo`` ``{"index": i, "seat", "action", "citations"}``: the dealer took
  back a wrong entry at the table (no ruling; ``poker.hand.undo`` decides
  when it may); replayed like ``void``;
- ``replace`` ``{"index": i, "action": {...}}``: the action at ``i`` stands
  as this action of the same seat instead (e.g. the interpreter's reading of
  chips: 000 Aktionen 4, 004 #44–#45);
- ``adjust`` ``{"index": i, "to": N}``: the bet or raise at ``i`` is a bet or
  raise to ``N`` chips instead;
- ``return_action`` ``{"index": i, "held": [j, ...]}``: the action at ``i``
  was recorded for a player who never acted; it is voided and the later
  actions ``j`` become out-of-turn actions held for their turn (004 #53,
  000 Aktionen 2, 002 #8);
- ``kill`` ``{"seat": S}``: S's hand is dead (engine action ``kill``);
- ``award`` ``{"seats": [S, ...]}``: the floor gives the whole pot to these
  seats now (engine action ``floor_award``);
- ``misdeal`` ``{}``: the hand is void, every chip goes back; the service
  marks the hand ``misdeal`` and deals it again with the same button and
  blinds (001 6.25, 003 "Miss-Deal", 004 #35);
- ``penalty`` ``{...}``: recorded on the hand for the history; the penalty
  itself lives in ``rules.models.Penalty``.

Nothing recorded is rewritten: a correction only changes which recorded
actions the replay applies and how.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError
from .records import ActionRecord, ActionType
from .state import AnySpec, HandState, start_hand

__all__ = ["CORRECTION_TYPES", "CorrectionError", "Replay", "replay", "effective_actions"]

#: Correction types and whether they need a rebuild of the hand from its start.
CORRECTION_TYPES = ("void", "undo", "replace", "adjust", "return_action", "kill", "award", "misdeal", "penalty")


class CorrectionError(ValueError):
    """A correction that cannot stand: ``code`` is ``"bad_correction"`` (the
    correction is malformed or names an event that is not an action) or
    ``"correction_conflict"`` (after it a later recorded action would be
    illegal; the message names it, so the floor can void it as well)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class Replay:
    """The result of replaying a hand.

    Fields:
        state: the :class:`HandState` after every effective action.
        effective: ``[(event index, action dict), ...]`` the actions that
            stand, in order.
        voided: event indices of recorded actions that no longer stand.
        held: ``{event index: action}`` out-of-turn actions still waiting for
            their player's turn.
        misdeal: True when a ``misdeal`` correction was recorded.
        corrected: True when any correction was recorded.
        undone: event indices of actions the dealer took back at the table
            (``undo`` corrections), in order.
    """

    state: HandState
    effective: list[tuple[int, dict]] = field(default_factory=list)
    voided: set[int] = field(default_factory=set)
    held: dict[int, dict] = field(default_factory=dict)
    misdeal: bool = False
    corrected: bool = False
    undone: list[int] = field(default_factory=list)


def _index(payload: dict, key: str = "index") -> int:
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorrectionError("bad_correction", f"{key!r} must be an event index")
    return value


def effective_actions(
    events: Iterable[tuple[int, str, dict]],
) -> tuple[list[tuple[int, dict]], set[int], dict[int, dict], bool]:
    """Fold the corrections into the list of actions that stand.

    Args:
        events: ``(index, kind, payload)`` in index order.

    Returns:
        ``(effective, voided, held, misdeal)`` as in :class:`Replay`.

    Raises:
        CorrectionError("bad_correction") for an unknown correction type or
        one that names an index that is not a standing action.
    """
    effective: list[tuple[int, dict]] = []
    voided: set[int] = set()
    held: dict[int, dict] = {}
    misdeal = False

    def position(index: int) -> int:
        for k, (i, _) in enumerate(effective):
            if i == index:
                return k
        raise CorrectionError("bad_correction", f"event {index} is not an action that stands")

    for index, kind, payload in events:
        if kind == "action":
            effective.append((index, payload))
            if "out_of_turn" in payload:
                held.pop(payload["out_of_turn"], None)
        elif kind == "out_of_turn":
            held[index] = payload.get("action") or {}
        elif kind == "note" and payload.get("type") == "out_of_turn_released":
            if payload.get("of") is not None:
                held.pop(payload["of"], None)
        elif kind == "correction":
            ctype = payload.get("type")
            if ctype in ("void", "undo"):
                k = position(_index(payload))
                voided.add(effective.pop(k)[0])
            elif ctype == "replace":
                k = position(_index(payload))
                action = payload.get("action")
                if not isinstance(action, dict) or action.get("seat") != effective[k][1].get("seat"):
                    raise CorrectionError("bad_correction", "a replacement must be an action of the same seat")
                effective[k] = (effective[k][0], dict(action, corrected_by=index))
            elif ctype == "adjust":
                k = position(_index(payload))
                old = effective[k][1]
                to = payload.get("to")
                if old.get("type") not in ("bet", "raise") or not isinstance(to, int) or to <= 0:
                    raise CorrectionError("bad_correction", "only a bet or raise can be adjusted, to a positive amount")
                effective[k] = (effective[k][0], dict(old, to=to, corrected_by=index))
            elif ctype == "return_action":
                k = position(_index(payload))
                voided.add(effective.pop(k)[0])
                for j in payload.get("held", []):
                    kk = position(j)
                    _, action = effective.pop(kk)
                    voided.add(j)
                    held[j] = action
            elif ctype == "kill":
                effective.append((index, {"type": "kill", "seat": payload.get("seat")}))
            elif ctype == "award":
                effective.append((index, {"type": "floor_award", "seats": payload.get("seats")}))
            elif ctype == "misdeal":
                misdeal = True
            elif ctype == "penalty":
                pass
            else:
                raise CorrectionError("bad_correction", f"unknown correction type {ctype!r}")
    return effective, voided, held, misdeal


def replay(spec: AnySpec, events: Iterable[tuple[int, str, dict]]) -> Replay:
    """Replay a hand from its spec and its events (corrections folded in).

    Args:
        spec: the hand's :class:`HandSpec` (or ``StudSpec``).
        events: ``(index, kind, payload)`` in index order (any iterable).

    Returns:
        A :class:`Replay`.

    Raises:
        CorrectionError: ``bad_correction`` (see :func:`effective_actions`) or
        ``correction_conflict`` when a standing action is illegal after the
        corrections (the message names its event index and the engine's
        reason).
    """
    events = list(events)
    effective, voided, held, misdeal = effective_actions(events)
    state = start_hand(spec)  # the one HandState, whatever the game
    for index, action in effective:
        try:
            state = state.apply(action)
        except EngineError as exc:
            raise CorrectionError(
                "correction_conflict",
                f"after the correction the action recorded as event {index} ({action.get('type')}"
                f"{' seat ' + str(action['seat']) if 'seat' in action else ''}) is not legal: {exc.message}",
            ) from None
    return Replay(
        state=state,
        effective=effective,
        voided=voided,
        held=held,
        misdeal=misdeal,
        corrected=any(kind == "correction" for _, kind, _ in events),
        undone=[p["index"] for _, kind, p in events if kind == "correction" and p.get("type") == "undo"],
    )


#: The betting words of :func:`acted_words`, by action type.
_WORDS = {
    ActionType.FOLD: "fold",
    ActionType.CHECK: "check",
    ActionType.CALL: "call",
    ActionType.BET: "bet",
    ActionType.RAISE: "raise",
    ActionType.ALL_IN: "all-in",
}


def acted_words(effective: list[tuple[int, ActionRecord]]) -> list[str]:
    """The betting words of the standing actions (``["fold", "call", ...]``)
    for ``poker.houserules.is_substantial_action`` (blinds are not actions).

    Args:
        effective: ``(index, record)`` of the actions that stand, e.g. a state's
            ``history`` enumerated."""
    return [_WORDS[a.type] for _, a in effective if a.type in _WORDS]


def describe(payload: dict[str, Any]) -> str:
    """A short English line for a correction payload (history pages, logs)."""
    ctype = payload.get("type")
    if ctype in ("void", "undo", "replace", "adjust", "return_action"):
        return f"{ctype} event {payload.get('index')}"
    if ctype == "kill":
        return f"kill seat {payload.get('seat')}"
    if ctype == "award":
        return f"award to seats {payload.get('seats')}"
    return str(ctype)
