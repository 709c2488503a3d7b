"""A PHH hand of a flop game replayed through the engine: :func:`translate_action` (one PHH
action string to an engine action record, :mod:`.records`) and :func:`replay` (a stud hand goes
to :func:`.phh_stud.replay_stud`). See :mod:`.phh` for the translation table."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .errors import EngineError
from .phh_amounts import (
    apply_awards_from_winnings,
    chips,
    collected_after,
    parse_amount,
    seat_of_label,
    showdown_action,
)
from .phh_hand import PhhHand, load_phh
from .phh_inplace import Label, PhhLines, label_of
from .phh_records import show_unknown, winnings_mismatch
from .phh_result import ReplayResult, finishing_mismatch
from .phh_stud import StudPhhHand, replay_stud
from .records import (
    BETTING_TYPES,
    ActionRecord,
    AwardPot,
    Bet,
    Board,
    Call,
    Check,
    Fold,
    Hole,
    Raise,
    RunItTwice,
    SeatAction,
    Show,
)
from .rules import Rules
from .spec import HandSpec
from .state import HandState

__all__ = ["replay", "replay_in_place", "translate_action"]

#: PHH player labels by position: ``p1`` ...
LABELS = tuple(f"p{k}" for k in range(1, 100))
#: table seats per position -> ``{label: Label}`` (replay_in_place's, never changed)
_LABELS_BY_SEATS: dict[tuple[int, ...], dict[str, Label]] = {}


def translate_action(state: HandState, text: str, seats: tuple[int, ...] | None = None) -> ActionRecord | None:
    """Translate one PHH action string into an engine action record (:mod:`.records`).

    Args:
        state: the state the action applies to ('cc' and 'cbr' depend on it).
        text: e.g. ``"p3 cbr 600"``; a trailing ``# comment`` is ignored.
        seats: table seat per position (default ``state.spec``'s seats).

    Returns:
        The action record, or None for a pure comment / no-op.

    Raises:
        EngineError("bad_action") for actions this engine cannot express
        (draws, bring-ins, unknown words, bad player labels).
    """
    if "#" in text:
        body, _, comment = text.partition("#")
    else:
        body, comment = text, ""
    words = body.split()
    spec = state.spec
    if seats is None:
        seats = tuple(s.seat for s in spec.seats)
    count = len(words)
    # The common lines first, tested word by word (the same answers as the patterns below).
    if count == 2:
        verb = words[1]
        if verb == "f":
            return Fold(seat_of_label(words[0], seats, text))
        if verb == "cc":
            s = seat_of_label(words[0], seats, text)
            pos = spec.position_of(s)
            bets = state.bets
            due = state.phase == "betting" and bets[pos] < max(bets)
            return Call(s) if due else Check(s)
    elif count == 4 and words[1] == "dh" and words[0] == "d":
        return Hole(seat_of_label(words[2], seats, text), words[3])
    if not words:
        return _extension(comment.split(), seats, text)
    match words:
        case ["d", "dh", player, cards]:
            return Hole(seat_of_label(player, seats, text), cards)
        case ["d", "db", cards]:
            return Board("" if set(cards) <= {"?"} else cards)
        case [player, "f"]:
            return Fold(seat_of_label(player, seats, text))
        case [player, "cc"]:
            s = seat_of_label(player, seats, text)
            pos = spec.position_of(s)
            due = state.phase == "betting" and state.bets[pos] < max(state.bets)
            return Call(s) if due else Check(s)
        case [player, "cbr", amount]:
            value = parse_amount(amount, text)
            kind = Raise if state.phase == "betting" and max(state.bets) else Bet
            try:
                to = chips(value, "cbr")
            except EngineError as exc:
                raise EngineError("bad_action", f"{exc.message} ({text!r})") from None
            return kind(seat_of_label(player, seats, text), to)
        case [player, "sm", *shown] if len(shown) <= 1:
            action = showdown_action(player, shown[0] if shown else None, seats, text)
            if isinstance(action, Show) and action.cards is not None and "?" in action.cards:
                return show_unknown(state, action.seat, action.cards)
            return action
    raise EngineError("bad_action", f"Cannot translate PHH action {text!r} for {spec.game}.")


def _extension(words: list[str], seats: tuple[int, ...], text: str) -> ActionRecord | None:
    """The record of a pokerfloor comment line (``# award 0 p1 p2 / p3``, ``# board 2 Jc3d5c``,
    ``# run_it_twice pots 0 agreed p1 p2 floor``), or None for any other comment."""
    if words[:1] == ["award"] and len(words) >= 3:
        labels = words[2:]
        second = None
        if "/" in labels:
            cut = labels.index("/")
            second = tuple(seat_of_label(w, seats, text) for w in labels[cut + 1 :])
            labels = labels[:cut]
        return AwardPot(int(words[1]), tuple(seat_of_label(w, seats, text) for w in labels), second)
    if words[:2] == ["board", "2"] and len(words) == 3:
        cards = words[2]
        return Board("" if set(cards) <= {"?"} else cards, 2)
    if words[:1] == ["run_it_twice"]:
        pots: list[int] = []
        agreed: list[int] = []
        target = None
        for word in words[1:]:
            if word in ("pots", "agreed"):
                target = word
            elif word != "floor" and target == "pots":
                pots.append(int(word))
            elif word != "floor" and target == "agreed":
                agreed.append(seat_of_label(word, seats, text))
        return RunItTwice(tuple(agreed), tuple(pots), "floor" in words)
    return None


def _repair(state: HandState, action: ActionRecord, seats: tuple[int, ...]) -> tuple[HandState, list[str]]:
    """Insert checks/folds for players skipped before ``action`` (pokerkit's
    HandHistory repair), returning the new state and the inserted actions."""
    inserted = []
    target = action.seat if isinstance(action, SeatAction) else None
    while state.phase == "betting" and action.type in BETTING_TYPES and state.to_act_seat != target:
        seat = state.to_act_seat
        assert seat is not None  # phase "betting": a player is to act
        label = f"p{seats.index(seat) + 1}"
        if state.legal().can_check:
            state = state.check(seat)
            inserted.append(f"{label} cc")
        else:
            state = state.fold(seat)
            inserted.append(f"{label} f")
    return state, inserted


def replay_in_place(
    hand: PhhHand, spec: HandSpec, seats: tuple[int, ...]
) -> tuple[HandState, str | None, tuple[int, ...]] | None:
    """Replay ``hand``'s actions on one in-place state (:class:`.phh_inplace.PhhLines`, no state
    copied per action): the fast path of :func:`replay` for a record the engine takes as it is.

    Args:
        hand: a flop game's PHH hand; ``spec`` its engine spec (``hand.spec(rules)``: positions
            in PHH order); ``seats`` its table seat per position (``hand.seat_numbers()``).

    Returns:
        ``(state, phase_before, bets_before)``: the last state, frozen (an ordinary
        :class:`HandState`, history included, equal to the immutable replay's), and the phase and
        bets of the state before the last action that found the hand still running
        (:func:`.phh_amounts.collected_after`; None and ``()`` when no action applied); or None
        when any line fails (refused, untranslatable, unknown player): :func:`replay` then
        replays the hand the immutable way, which reports the failure exactly.

    The common lines are translated by :meth:`.phh_inplace.PhhLines.run` exactly as
    :func:`translate_action` does; every other line goes to it.
    """
    if len(spec.seats) != len(seats):
        return None
    # label -> Label (table seat, position, the player's fold, check and call): positions are the
    # PHH order (hand.spec() builds them so); one dict per seating, kept (read only) for the next
    # hands seated alike
    plain = type(seats) is tuple
    labels = _LABELS_BY_SEATS.get(seats) if plain else None
    if labels is None:
        labels = dict(zip(LABELS, map(label_of, seats, range(len(seats)))))
        if plain and len(_LABELS_BY_SEATS) < 10_000:
            _LABELS_BY_SEATS[seats] = labels
    try:
        state = PhhLines.begin(spec)
        state.run(hand.actions, labels, lambda now, text: translate_action(now, text, seats))
    except Exception:  # any failure: the immutable replay reports it exactly
        return None
    phase_before, bets_before = state.before
    return state.freeze(), phase_before, bets_before


def replay(
    hand: PhhHand | StudPhhHand | str | Path,
    rules: Rules | None = None,
    *,
    repair: bool = False,
    ante_trimming: bool | None = None,
) -> ReplayResult:
    """Replay a PHH hand through the engine.

    Args:
        hand: a :class:`PhhHand`, or a path/text for :func:`load_phh`; a
            stud hand goes to :func:`.phh_stud.replay_stud`.
        rules: house rules for the replay (default :class:`Rules`).

    Returns:
        :class:`ReplayResult`. Never raises for bad hand data: an action the
        engine refuses, a hand that does not complete, or final stacks that
        differ from ``finishing_stacks`` are reported, never repaired (no
        checks or folds are inserted).

    PHH hands list actions only up to the shows: the engine awards the pots
    from the known cards by itself.

    Diagnostics (off by default): ``repair=True`` inserts the checks/folds
    of players the record skipped, like pokerkit's HandHistory, and lists
    them in ``repairs`` (the result is then never ok); ``ante_trimming``
    overrides the file's ``ante_trimming_status``.
    """
    repairs: list[str] = []
    try:
        if not isinstance(hand, (PhhHand, StudPhhHand)):
            hand = load_phh(hand)
        if isinstance(hand, StudPhhHand):
            return replay_stud(hand, rules)
        spec = hand.spec(rules)
        if ante_trimming is not None:
            spec = dataclasses.replace(spec, ante_trimming=ante_trimming)
        seats = hand.seat_numbers()
        # the fast path first; a record it cannot take goes the immutable way, which reports why
        fast = None if repair else replay_in_place(hand, spec, seats)
        start = HandState.start(spec) if fast is None else None
    except EngineError as exc:
        return ReplayResult(False, None, None, f"{exc.code}: {exc.message}", exc.code, None)
    if fast is not None:
        state, phase_before, bets_before = fast
    else:
        assert start is not None  # set whenever the fast path gave nothing
        slow = _replay_immutable(hand, start, seats, repair, repairs)
        if isinstance(slow, ReplayResult):
            return slow
        state, before = slow
        phase_before, bets_before = (None, ()) if before is None else (before.phase, before.bets)
    return _check_result(hand, state, phase_before, bets_before, repairs)


def _replay_immutable(
    hand: PhhHand, state: HandState, seats: tuple[int, ...], repair: bool, repairs: list[str]
) -> tuple[HandState, HandState | None] | ReplayResult:
    """The actions of ``hand`` applied from ``state`` one immutable state after the other
    (``repair``: with the skipped checks and folds inserted into ``repairs``): ``(last state,
    the state before the last action that found the hand running)``, or the failed
    :class:`ReplayResult` of the first refused line."""
    expected = hand.finishing_stacks
    before = None
    for index, text in enumerate(hand.actions):
        try:
            action = translate_action(state, text, seats)
            if action is None:
                continue
            if repair:
                state, inserted = _repair(state, action, seats)
                repairs.extend(inserted)
            new = state.apply(action)
            if not state.is_complete:
                # the state before the action that ended the hand: shows
                # after an uncontested win do not move it (collected())
                before = state
            state = new
        except EngineError as exc:
            return ReplayResult(
                False,
                expected,
                state.final_stacks,
                f"{exc.code}: {exc.message} at action {index} {text!r}",
                exc.code,
                state,
                tuple(repairs),
            )
    return state, before


def _check_result(
    hand: PhhHand, state: HandState, phase_before: str | None, bets_before: tuple[int, ...], repairs: list[str]
) -> ReplayResult:
    """The :class:`ReplayResult` of a replay that applied every line: pots left open for lack of
    cards awarded from the recorded winnings, then the final stacks and winnings checked."""
    expected = hand.finishing_stacks
    unchecked: list[str] = []
    if state.phase == "showdown" and hand.winnings is not None:
        # hole cards unknown: award the open pots as the recorded winnings say
        try:
            state, unchecked = apply_awards_from_winnings(state, hand.winnings)
        except EngineError as exc:
            return ReplayResult(
                False, expected, None, f"{exc.code}: {exc.message} (awards from winnings)", exc.code, state
            )
    actual = state.final_stacks
    if actual is None:
        lacking = (
            ": the recorded winnings are all zero, so the record does not say who won"
            if state.phase == "showdown" and hand.winnings is not None and not any(hand.winnings)
            else ""
        )
        return ReplayResult(
            False,
            expected,
            None,
            f"incomplete: the hand stops in phase {state.phase!r} ({state.street}){lacking}",
            "incomplete",
            state,
            tuple(repairs),
        )
    checked: list[str] = []
    mismatch = finishing_mismatch(expected, actual, state, tuple(repairs), checked, unchecked)
    if mismatch is not None:
        return mismatch
    if hand.winnings is not None:
        checked.append("winnings")
        won = collected_after(state, phase_before, bets_before)
        if tuple(hand.winnings) != won:
            return ReplayResult(
                False,
                expected,
                actual,
                winnings_mismatch(hand.winnings, won),
                "mismatch",
                state,
                tuple(repairs),
                tuple(checked),
                tuple(unchecked),
            )
    if not checked:
        unchecked.append("no finishing_stacks or winnings recorded: the result is not checked")
    if repairs:
        return ReplayResult(
            False,
            expected,
            actual,
            f"repaired: actions missing from the record: {repairs}",
            "repaired",
            state,
            tuple(repairs),
            tuple(checked),
            tuple(unchecked),
        )
    return ReplayResult.matched(expected, actual, state, tuple(checked), tuple(unchecked))
