"""Ranked rulings for a floor call (:func:`suggest_rulings`), built from the other floor
procedures and the chip-action interpreter. Standard library only."""

from __future__ import annotations

from poker.houserules import HouseRules, misdeal_still_possible
from poker.i18n import _N, _NC, both

from .clock import clock_policy, time_expired
from .common import (
    REASONS,
    ProcedureError,
    Suggestion,
    betting_events,
    book_citations,
    current_street,
    merge_citations,
    preflop_words,
    profile_citations,
)
from .guided import exposed_outcome, get_procedure
from .penalties import first_penalty
from .suggest_betting import (
    is_seat,
    play_on,
    suggest_chip_action,
    suggest_out_of_turn,
    titled,
)

__all__ = ["REASON_PARAMETERS", "REASON_TOPICS", "missing_facts", "reason_citations", "suggest_rulings"]


def _suggest_misdeal(profile: HouseRules, call: dict, betting, procedure: str = "misdeal") -> list[Suggestion]:
    words = preflop_words(betting)
    street = current_street(call, betting)
    cites = profile_citations(
        profile,
        "misdeal_until",
        "substantial_action",
        "misdeal_after_flop",
        extra=book_citations(profile, "misdeal_replay"),
    )
    if misdeal_still_possible(profile, words, street):
        return [
            Suggestion(
                "misdeal",
                *both(_N("Misdeal: deal the hand again")),
                *both(
                    _N(
                        "No substantial action yet: the hand can still be declared a misdeal; every chip goes back and "
                        "the same hand is dealt again with the same button and blinds."
                    )
                ),
                ({"type": "misdeal"},),
                cites,
                procedure=procedure,
            ),
            play_on(profile),
        ]
    if profile.misdeal_too_late == "faulty_hand_void":
        # 000 Allgemein 9: after two active actions the faulty hand is void, play goes on.
        seat = call.get("seat")
        return [
            Suggestion(
                "void_faulty_hand",
                *both(_N("Faulty hand void, play on")),
                *both(
                    _N(
                        "Two or more active actions were taken before the error was noticed: the faulty hand is "
                        "declared void and the hand is played on (after the flop the deal is never void)."
                    )
                ),
                ({"type": "kill", "seat": seat},) if isinstance(seat, int) else (),
                profile_citations(profile, "misdeal_too_late", "substantial_action", "misdeal_after_flop"),
                procedure=procedure,
            ),
            play_on(profile),
        ]
    return [
        play_on(
            profile,
            *both(
                _N("A misdeal is no longer possible (substantial action): the hand is played on.")
                if profile.misdeal_after_flop
                else _N(
                    "A misdeal is no longer possible (substantial action or the flop is out): the hand is played on."
                )
            ),
            cites,
        )
    ]


def _suggest_exposed(profile: HouseRules, call: dict, betting) -> list[Suggestion]:
    by = call.get("exposed_by") or ("dealer" if not preflop_words(betting) else "player")
    seat = call.get("seat")
    if by == "dealer":
        cites = profile_citations(profile, "exposed_card_on_deal")
        if profile.exposed_card_on_deal == "misdeal":
            out = _suggest_misdeal(profile, call, betting, "exposed_card")
        else:
            out = []
            if profile.exposed_card_on_deal == "replace_one_misdeal_two":
                out = [s for s in _suggest_misdeal(profile, call, betting, "exposed_card") if s.key == "misdeal"]
                out = [
                    Suggestion(
                        s.key,
                        *both(_N("Two or more cards exposed: misdeal")),
                        s.explanation_en,
                        s.explanation_de,
                        s.corrections,
                        merge_citations(s.citations, cites),
                        procedure="exposed_card",
                    )
                    for s in out
                ]
            outcome = exposed_outcome(profile)
            assert outcome is not None  # not a misdeal in this profile
            out.insert(
                0,
                Suggestion(
                    "replace_card",
                    *both(_N("Replace the exposed card")),
                    outcome.instructions_en,
                    outcome.instructions_de,
                    (),
                    cites,
                    procedure="exposed_card",
                ),
            )
            out.append(play_on(profile))
        return out
    pc = tuple(book_citations(profile, "player_exposes"))
    out = []
    if profile.rulebook == "casino-cash" and isinstance(seat, int):
        out.append(
            Suggestion(
                "kill",
                # 000 calls the hand invalid ("ungültig") where the other books say dead
                *both(_NC("casino-cash", "Seat %(seat)s's hand is dead"), seat=seat, context="casino-cash"),
                *both(
                    _N(
                        "000 Aktionen 10: a hand shown before the end is passive and may be declared dead; "
                        "exposed to provoke a reaction before acting, it counts as folded."
                    )
                ),
                ({"type": "kill", "seat": seat},),
                pc,
            )
        )
    out.append(play_on(profile, *both(_N("The hand stays live.")), pc))
    if isinstance(seat, int):
        out.append(first_penalty(profile, seat, list(pc)))
    if profile.rulebook == "casino-cash":
        out.sort(key=lambda s: s.key != "play_on")  # 000: passive first, killing is the floor's choice
    return out


def _suggest_time(profile: HouseRules, call: dict) -> list[Suggestion]:
    seat = call.get("seat")
    snap = call.get("snapshot")
    if not isinstance(snap, dict):
        snap = {}
    if not isinstance(seat, int) or isinstance(seat, bool):
        seat = snap.get("to_act_seat")
    if not isinstance(seat, int):
        raise ProcedureError("bad_call", "a time call needs 'seat' or a snapshot with to_act_seat")
    legal = snap.get("legal") or {}
    facing = bool(legal.get("call_amount")) if legal else bool(call.get("facing_bet"))
    policy = clock_policy(profile)
    expiry = time_expired(profile, facing, seat)
    return [
        Suggestion(
            "time_expired",
            *(
                titled(_N("Time is up: %(action)s"), expiry.action["type"])
                if expiry.action
                else both(_N("Time is up: floor decides"))
            ),
            policy.explanation_en + " " + expiry.explanation_en,
            policy.explanation_de + " " + expiry.explanation_de,
            (),
            merge_citations(policy.citations, expiry.citations),
            expiry.action,
        ),
        play_on(profile, *both(_N("The player acted in time."))),
    ]


def missing_facts(call: dict) -> tuple[str, ...]:
    """The facts a floor call lacks before any ruling can be suggested (the floor supplies them on the
    call page; :func:`suggest_rulings` would refuse the call): ``("seat",)`` for an ``out_of_turn`` call
    with neither the skipped player's ``seat`` nor a ``held_action`` (000 Aktionen 2, 002 #8, 004 #53),
    a ``chip_action`` call whose chips belong to no seat (004 #43-45), a ``time`` call with no seat and
    nobody to act (004 #29); else ``()``.  ``call``: the input of :func:`suggest_rulings`."""
    if not isinstance(call, dict):
        return ()
    reason, seat = call.get("reason"), call.get("seat")
    if is_seat(seat):
        return ()
    if reason == "out_of_turn" and call.get("held_action") is None:
        return ("seat",)
    data = call.get("interpretation")
    if reason == "chip_action" and isinstance(data, dict) and not is_seat(data.get("seat")):
        return ("seat",)
    snap = call.get("snapshot")
    if reason == "time" and not (isinstance(snap, dict) and is_seat(snap.get("to_act_seat"))):
        return ("seat",)
    return ()


#: The house-rule parameters whose rules a floor call of each reason may apply (the call page offers
#: their citations to tick, in the table's own rulebook).
REASON_PARAMETERS: dict[str, tuple[str, ...]] = {
    "out_of_turn": ("out_of_turn_changed_by", "out_of_turn_check_restricts", "skipped_player_late"),
    "chip_action": (
        "oversized_chip_facing_bet",
        "oversized_chip_opening_bet",
        "multiple_chips",
        "verbal_vs_chips",
        "string_bet_counts_as",
        "short_raise_silent",
        "min_raise",
    ),
    "misdeal": ("misdeal_until", "substantial_action", "misdeal_after_flop"),
    "exposed_card": ("exposed_card_on_deal",),
    "premature_board": ("premature_board_card", "four_card_flop"),
    "time": ("clock_seconds", "clock_expiry"),
    "dispute": (),
    "other": (),
}
#: Topics of the rulebooks (``common.BOOK_RULES``) a call of each reason may apply, after the parameters.
REASON_TOPICS: dict[str, tuple[str, ...]] = {
    "out_of_turn": ("oot_penalty",),
    "misdeal": ("misdeal_replay",),
    "exposed_card": ("player_exposes",),
    "dispute": ("disputes",),
    "other": ("floor_discretion",),
}


def reason_citations(profile: HouseRules, reason: str) -> tuple:
    """The rules a floor call of ``reason`` may apply, in the table's rulebook (its parameters'
    citations, then its topics', then the floor's discretion): e.g. for ``munotpoker`` a chip dispute
    cites 004 #43-45, an out-of-turn call 004 #53; for ``betting-rules`` 002 #8.  Unknown parameters
    of a profile are skipped.  Returns a tuple of :class:`~poker.houserules.Citation`, each once."""
    out: list = []
    for name in REASON_PARAMETERS.get(reason, ()):
        try:
            found = profile_citations(profile, name)
        except KeyError:
            continue
        out.extend(c for c in found if c not in out)
    for topic in (*REASON_TOPICS.get(reason, ()), "floor_discretion"):
        out.extend(c for c in book_citations(profile, topic) if c not in out)
    return tuple(out)


def suggest_rulings(profile: HouseRules, call: dict) -> list[Suggestion]:
    """Ranked rulings for a floor call, best first.

    Args:
        profile: the table's :class:`HouseRules`.
        call: ``{"reason": one of REASONS, "snapshot": hand snapshot or None,
            "events": [{"index", "kind", "payload"}, ...], "seat": int or None,
            "interpretation": poker.floor.interpret input or None}``; optional
            ``"held_action"`` (out_of_turn: an action taken out of turn and not
            recorded), ``"exposed_by"`` (exposed_card: ``"dealer"`` | ``"player"``).

    For ``out_of_turn`` ``seat`` is the skipped player whose recorded action
    did not happen (-> ``return_action`` with the later actions held; after
    substantial action per ``skipped_player_late``); for ``chip_action`` the
    player whose chips are read (-> ``replace`` / ``adjust`` / ``void`` of his
    last action this street, or an ``action`` to enter); ``misdeal`` only while
    :func:`~poker.houserules.misdeal_still_possible`; ``time`` gives the action
    after the clock runs out. A "play_on" suggestion is always included.

    Raises:
        ProcedureError("bad_call") for a malformed call (unknown reason, events
        not a list, missing seat where one is needed).
    """
    if not isinstance(call, dict):
        raise ProcedureError("bad_call", "call must be a dict")
    reason = call.get("reason")
    if reason not in REASONS:
        raise ProcedureError("bad_call", f"reason must be one of {', '.join(REASONS)}")
    betting = betting_events(call.get("events"))
    if reason == "out_of_turn":
        return suggest_out_of_turn(profile, call, betting)
    if reason == "chip_action":
        return suggest_chip_action(profile, call, betting)
    if reason == "misdeal":
        return _suggest_misdeal(profile, call, betting)
    if reason == "exposed_card":
        return _suggest_exposed(profile, call, betting)
    if reason == "premature_board":
        proc = get_procedure(profile, "premature_board")
        return [
            Suggestion(
                "procedure",
                proc.title_en,
                proc.title_de,
                *both(_N("Walk the dealer through the procedure for this house's rules.")),
                (),
                profile_citations(profile, "premature_board_card", "four_card_flop"),
                procedure=proc.key,
            ),
            play_on(profile),
        ]
    if reason == "time":
        return _suggest_time(profile, call)
    if reason == "dispute":
        return [
            play_on(
                profile,
                *both(_N("The floor decides in the interest of fairness; objections come before the pot is awarded.")),
                book_citations(profile, "disputes"),
            )
        ]
    return [play_on(profile)]
