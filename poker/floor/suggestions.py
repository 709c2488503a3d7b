"""Ranked rulings for a floor call (:func:`suggest_rulings`), built from the other floor
procedures and the chip-action interpreter. Standard library only."""

from __future__ import annotations

from poker.houserules import HouseRules, is_substantial_action, misdeal_still_possible
from poker.i18n import _N, _NC, both, translate

from .clock import clock_policy, time_expired
from .common import (
    REASONS,
    ProcedureError,
    Suggestion,
    _betting_events,
    _book,
    _cites,
    _label,
    _last_action_of,
    _merge,
    _preflop_words,
    _street,
    _street_actions,
    _word,
)
from .guided import _exposed_outcome, get_procedure
from .out_of_turn import _check_action, resolve_out_of_turn
from .penalties import _first_penalty

# --------------------------------------------------------------------------- suggestions
# The action words inside a suggestion's title, as the floor says them ("Time is up: fold",
# German "Zeit abgelaufen: Passen"); an unknown type is named as it is.
_ACTION_WORDS = {
    "fold": _NC("poker action", "fold"),
    "check": _NC("poker action", "check"),
    "call": _NC("poker action", "call"),
    "bet": _NC("poker action", "bet"),
    "raise": _NC("poker action", "raise"),
    "all_in": _NC("poker action", "all-in"),
}


def _action_both(action_type: str) -> tuple[str, str]:
    """``(English, German)`` word for an engine action type (``"fold"`` -> ``("fold", "Passen")``)."""
    msgid = _ACTION_WORDS.get(action_type)
    return both(msgid, context="poker action") if msgid else (action_type, action_type)


def _titled(msgid: str, action_type: str, **params: object) -> tuple[str, str]:
    """``(English, German)`` title ``msgid`` with its ``%(action)s`` named in each language."""
    en, de = _action_both(action_type)
    return translate(msgid, "en", None, action=en, **params), translate(msgid, "de", None, action=de, **params)


def _play_on(profile: HouseRules, en: str = "", de: str = "", cites=None) -> Suggestion:
    """The "play on" suggestion; ``en``/``de``: its explanation (default: the hand stands)."""
    default_en, default_de = both(_N("The hand stands as recorded."))
    return Suggestion(
        "play_on",
        *both(_N("No correction, play on")),
        en or default_en,
        de or default_de,
        (),
        tuple(cites) if cites is not None else tuple(_book(profile, "floor_discretion")),
    )


def _engine_action(ruling, seat: int) -> dict | None:
    act = ruling.action
    if act == "none":
        return None
    if act == "all-in":
        return {"type": "all_in", "seat": seat}
    if act in ("bet", "raise"):
        return {"type": act, "seat": seat, "to": ruling.amount}
    return {"type": act, "seat": seat}


def _same(a: dict, b: dict) -> bool:
    if a.get("type") != b.get("type") or a.get("seat") != b.get("seat"):
        return False
    return a.get("to") == b.get("to") if a.get("type") in ("bet", "raise") else True


def _suggest_chip_action(profile: HouseRules, call: dict, betting) -> list[Suggestion]:
    from poker.floor.interpret import InterpretError, interpret, parse  # local: interpret imports profiles

    data = call.get("interpretation")
    if not isinstance(data, dict):
        return [_play_on(profile)]
    seat = call.get("seat")
    if not _is_seat(seat):
        seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_call", "a chip_action call needs the 'seat' concerned")
    try:
        ruling = interpret(profile, *parse(data))
    except InterpretError as exc:
        raise ProcedureError("bad_call", f"interpretation: {exc}") from None
    action = _engine_action(ruling, seat)
    cites = tuple(ruling.citations)
    recorded = _last_action_of(seat, _street_actions(betting))
    out: list[Suggestion] = []
    if recorded is None:
        out.append(
            Suggestion(
                "interpretation",
                *both(_N("Enter the action as ruled")),
                ruling.explanation_en,
                ruling.explanation_de,
                (),
                cites,
                action,
                tuple(ruling.restrictions),
            )
        )
        out.append(_play_on(profile))
        return out
    index, rec = recorded
    if action is None:
        out.append(
            Suggestion(
                "void",
                *both(_N("Void the recorded action: the player acts again")),
                ruling.explanation_en,
                ruling.explanation_de,
                ({"type": "void", "index": index},),
                cites,
            )
        )
    elif _same(action, rec):
        out.append(
            Suggestion(
                "interpretation",
                *both(_N("The recorded action is correct")),
                ruling.explanation_en,
                ruling.explanation_de,
                (),
                cites,
                None,
                tuple(ruling.restrictions),
            )
        )
    elif action["type"] == rec.get("type") and action["type"] in ("bet", "raise"):
        adjust = _N("Adjust the %(action)s to %(amount)s")
        out.append(
            Suggestion(
                "adjust",
                translate(adjust, "en", action=_action_both(action["type"])[0], amount=f"{action['to']:,}"),
                translate(
                    adjust, "de", action=_action_both(action["type"])[1], amount=f"{action['to']:,}".replace(",", ".")
                ),
                ruling.explanation_en,
                ruling.explanation_de,
                ({"type": "adjust", "index": index, "to": action["to"]},),
                cites,
                None,
                tuple(ruling.restrictions),
            )
        )
    else:
        out.append(
            Suggestion(
                "replace",
                *_titled(_N("The action stands as %(action)s"), action["type"]),
                ruling.explanation_en,
                ruling.explanation_de,
                ({"type": "replace", "index": index, "action": action},),
                cites,
                None,
                tuple(ruling.restrictions),
            )
        )
    if out[0].corrections:
        out.append(_play_on(profile))
    return out


def _suggest_out_of_turn(profile: HouseRules, call: dict, betting) -> list[Suggestion]:
    seat = call.get("seat")
    held = call.get("held_action")
    out: list[Suggestion] = []
    oot_cites = _cites(
        profile,
        "out_of_turn_changed_by",
        *(("out_of_turn_check_restricts",) if profile.out_of_turn_check_restricts else ()),
    )
    if held is not None:
        # The out-of-turn action was seen but not recorded: it is held for its turn.
        held = _check_action(held)
        preview = resolve_out_of_turn(profile, held, [], None)
        hold = _N(
            "The action goes back to the player in turn. %(preview)s It is re-checked when the player's turn comes: a bet or raise in between releases it."
        )
        out.append(
            Suggestion(
                "hold",
                *both(_N("Hold seat %(seat)s's action until that seat's turn"), seat=held["seat"]),
                translate(hold, "en", preview=preview.explanation_en),
                translate(hold, "de", preview=preview.explanation_de),
                (),
                preview.citations,
                None,
                preview.restrictions,
            )
        )
        out.append(_play_on(profile))
        out.append(_first_penalty(profile, held["seat"], _book(profile, "oot_penalty")))
        return out
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_call", "an out_of_turn call needs 'seat' (the skipped player) or 'held_action'")
    street = _street_actions(betting)
    recorded = _last_action_of(seat, street)
    if recorded is None:
        out.append(
            _play_on(
                profile,
                *both(_N("No action is recorded for this seat on this street; nothing to return.")),
                oot_cites,
            )
        )
        return out
    index, _ = recorded
    after = [(i, a) for i, a in street if i > index]
    words = [_word(a["type"]) for _, a in after]
    late = bool(after) and is_substantial_action(profile, words)
    held_idx = [i for i, _ in after]
    ret = {"type": "return_action", "index": index, "held": held_idx}
    late_cites = _cites(profile, "skipped_player_late", "substantial_action")
    returned = _N(
        "The action recorded for seat %(seat)s did not happen; that seat acts now. The %(count)s action(s) recorded after it were out of turn: they are held and stay binding unless the action changes%(rules)s."
    )
    ret_sugg = Suggestion(
        "return_action",
        *both(_N("Back to seat %(seat)s: it was skipped"), seat=seat),
        # the German names no rules in the text (the citations list them)
        translate(
            returned, "en", seat=seat, count=len(held_idx), rules=f" ({_label(profile, 'out_of_turn_changed_by')})"
        ),
        translate(returned, "de", seat=seat, count=len(held_idx), rules=""),
        (ret,),
        oot_cites,
    )
    if late and profile.skipped_player_late == "floor_dead_or_passive":
        out.append(
            Suggestion(
                "passive_only",
                *both(_N("Seat %(seat)s may still act, but only call, check or fold"), seat=seat),
                *both(
                    _N(
                        "Substantial action has taken place since the skipped player's turn: the floor lets the player act passively; the out-of-turn actions stand."
                    )
                ),
                (ret,),
                _merge(late_cites, oot_cites),
                None,
                ("may_not_raise",),
            )
        )
        dead_en, dead_de = both(
            _N(
                "Substantial action has taken place since the skipped player's turn and nobody spoke up: the floor may declare the hand dead."
            )
        )
        fold_en, fold_de = both(_N("The recorded fold stands as a dead hand."))
        if _rec_is_not_fold(betting, index):
            out.append(
                Suggestion(
                    "kill",
                    *both(_N("Seat %(seat)s's hand is dead"), seat=seat),
                    dead_en,
                    dead_de,
                    ({"type": "void", "index": index}, {"type": "kill", "seat": seat}),
                    late_cites,
                )
            )
        else:
            out.append(
                _play_on(
                    profile,
                    dead_en + " " + fold_en,
                    dead_de + " " + fold_de,
                    late_cites,
                )
            )
    elif late and profile.skipped_player_late == "oot_binding_floor_decides":
        out.append(
            Suggestion(
                "passive_only",
                *both(_N("Out-of-turn actions stand; seat %(seat)s acts now"), seat=seat),
                *both(
                    _N(
                        "Substantial action has taken place to the skipped player's left: the out-of-turn actions are binding; the floor decides how the skipped hand is treated."
                    )
                ),
                (ret,),
                late_cites,
                None,
                ("may_not_raise",),
            )
        )
        out.append(ret_sugg)
    elif late and profile.skipped_player_late == "must_object_immediately":
        out.append(
            _play_on(
                profile,
                *both(_N("No objection at once: the right to act is lost; the hand stands as recorded.")),
                late_cites,
            )
        )
        out.append(ret_sugg)
    else:
        out.append(ret_sugg)
    if not any(s.key == "play_on" for s in out):
        out.append(_play_on(profile))
    if after:
        out.append(_first_penalty(profile, after[0][1]["seat"], _book(profile, "oot_penalty")))
    return out


def _rec_is_not_fold(betting, index: int) -> bool:
    """Whether the standing action at event ``index`` is anything but a fold
    (a dead hand whose recorded action was a call, say, needs that action voided
    first; a recorded fold already is the dead hand: nothing to correct)."""
    for i, a in betting:
        if i == index:
            return a.get("type") != "fold"
    return False


def _suggest_misdeal(profile: HouseRules, call: dict, betting, procedure: str = "misdeal") -> list[Suggestion]:
    words = _preflop_words(betting)
    street = _street(call, betting)
    cites = _cites(
        profile, "misdeal_until", "substantial_action", "misdeal_after_flop", extra=_book(profile, "misdeal_replay")
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
            _play_on(profile),
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
                _cites(profile, "misdeal_too_late", "substantial_action", "misdeal_after_flop"),
                procedure=procedure,
            ),
            _play_on(profile),
        ]
    return [
        _play_on(
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
    by = call.get("exposed_by") or ("dealer" if not _preflop_words(betting) else "player")
    seat = call.get("seat")
    if by == "dealer":
        cites = _cites(profile, "exposed_card_on_deal")
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
                        _merge(s.citations, cites),
                        procedure="exposed_card",
                    )
                    for s in out
                ]
            outcome = _exposed_outcome(profile)
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
            out.append(_play_on(profile))
        return out
    pc = tuple(_book(profile, "player_exposes"))
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
    out.append(_play_on(profile, *both(_N("The hand stays live.")), pc))
    if isinstance(seat, int):
        out.append(_first_penalty(profile, seat, list(pc)))
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
                _titled(_N("Time is up: %(action)s"), expiry.action["type"])
                if expiry.action
                else both(_N("Time is up: floor decides"))
            ),
            policy.explanation_en + " " + expiry.explanation_en,
            policy.explanation_de + " " + expiry.explanation_de,
            (),
            _merge(policy.citations, expiry.citations),
            expiry.action,
        ),
        _play_on(profile, *both(_N("The player acted in time."))),
    ]


def _is_seat(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def missing_facts(call: dict) -> tuple[str, ...]:
    """The facts a floor call lacks before any ruling can be suggested (the floor supplies them on the
    call page; :func:`suggest_rulings` would refuse the call): ``("seat",)`` for an ``out_of_turn`` call
    with neither the skipped player's ``seat`` nor a ``held_action`` (000 Aktionen 2, 002 #8, 004 #53),
    a ``chip_action`` call whose chips belong to no seat (004 #43-45), a ``time`` call with no seat and
    nobody to act (004 #29); else ``()``.  ``call``: the input of :func:`suggest_rulings`."""
    if not isinstance(call, dict):
        return ()
    reason, seat = call.get("reason"), call.get("seat")
    if _is_seat(seat):
        return ()
    if reason == "out_of_turn" and call.get("held_action") is None:
        return ("seat",)
    data = call.get("interpretation")
    if reason == "chip_action" and isinstance(data, dict) and not _is_seat(data.get("seat")):
        return ("seat",)
    snap = call.get("snapshot")
    if reason == "time" and not (isinstance(snap, dict) and _is_seat(snap.get("to_act_seat"))):
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
#: Topics of the rulebooks (``common._BOOK_RULES``) a call of each reason may apply, after the parameters.
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
            found = _cites(profile, name)
        except KeyError:
            continue
        out.extend(c for c in found if c not in out)
    for topic in (*REASON_TOPICS.get(reason, ()), "floor_discretion"):
        out.extend(c for c in _book(profile, topic) if c not in out)
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
    betting = _betting_events(call.get("events"))
    if reason == "out_of_turn":
        return _suggest_out_of_turn(profile, call, betting)
    if reason == "chip_action":
        return _suggest_chip_action(profile, call, betting)
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
                _cites(profile, "premature_board_card", "four_card_flop"),
                procedure=proc.key,
            ),
            _play_on(profile),
        ]
    if reason == "time":
        return _suggest_time(profile, call)
    if reason == "dispute":
        return [
            _play_on(
                profile,
                *both(_N("The floor decides in the interest of fairness; objections come before the pot is awarded.")),
                _book(profile, "disputes"),
            )
        ]
    return [_play_on(profile)]
