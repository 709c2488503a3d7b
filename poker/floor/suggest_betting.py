"""Suggested rulings on betting: a chip action that is unclear and an action out of turn
(000 Aktionen 2-5, 001 6.31, 002 #3-#14, 004 #40-#53, TDA 40-53), with the helpers every
suggestion shares (the "play on" ruling, the titles that name an action). Standard library only;
see :func:`poker.floor.suggestions.suggest_rulings`."""

from __future__ import annotations

from poker.houserules import HouseRules, is_substantial_action
from poker.i18n import _N, _NC, both, translate

from .common import (
    ProcedureError,
    Suggestion,
    action_word,
    book_citations,
    citation_label,
    last_action_of,
    merge_citations,
    profile_citations,
    street_actions,
)
from .out_of_turn import check_action, resolve_out_of_turn
from .penalties import first_penalty

__all__ = [
    "is_seat",
    "play_on",
    "standing_action_is_not_fold",
    "suggest_chip_action",
    "suggest_out_of_turn",
    "titled",
]


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


def titled(msgid: str, action_type: str, **params: object) -> tuple[str, str]:
    """``(English, German)`` title ``msgid`` with its ``%(action)s`` named in each language."""
    en, de = _action_both(action_type)
    return translate(msgid, "en", None, action=en, **params), translate(msgid, "de", None, action=de, **params)


def play_on(profile: HouseRules, en: str = "", de: str = "", cites=None) -> Suggestion:
    """The "play on" suggestion; ``en``/``de``: its explanation (default: the hand stands)."""
    default_en, default_de = both(_N("The hand stands as recorded."))
    return Suggestion(
        "play_on",
        *both(_N("No correction, play on")),
        en or default_en,
        de or default_de,
        (),
        tuple(cites) if cites is not None else tuple(book_citations(profile, "floor_discretion")),
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


def suggest_chip_action(profile: HouseRules, call: dict, betting) -> list[Suggestion]:
    """Suggestions for an unclear chip action (``call["observation"]`` read by
    :func:`poker.floor.interpret.interpret`); ``betting``: :func:`.common.betting_events`."""
    from poker.floor.interpret import InterpretError, interpret, parse  # local: interpret imports profiles

    data = call.get("interpretation")
    if not isinstance(data, dict):
        return [play_on(profile)]
    seat = call.get("seat")
    if not is_seat(seat):
        seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_call", "a chip_action call needs the 'seat' concerned")
    try:
        ruling = interpret(profile, *parse(data))
    except InterpretError as exc:
        raise ProcedureError("bad_call", f"interpretation: {exc}") from None
    action = _engine_action(ruling, seat)
    cites = tuple(ruling.citations)
    recorded = last_action_of(seat, street_actions(betting))
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
        out.append(play_on(profile))
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
                *titled(_N("The action stands as %(action)s"), action["type"]),
                ruling.explanation_en,
                ruling.explanation_de,
                ({"type": "replace", "index": index, "action": action},),
                cites,
                None,
                tuple(ruling.restrictions),
            )
        )
    if out[0].corrections:
        out.append(play_on(profile))
    return out


def suggest_out_of_turn(profile: HouseRules, call: dict, betting) -> list[Suggestion]:
    """Suggestions for an action out of turn by ``call["seat"]`` (004 #53, TDA 53): the action
    binding or returned, and the penalty; ``betting``: :func:`.common.betting_events`."""
    seat = call.get("seat")
    held = call.get("held_action")
    out: list[Suggestion] = []
    oot_cites = profile_citations(
        profile,
        "out_of_turn_changed_by",
        *(("out_of_turn_check_restricts",) if profile.out_of_turn_check_restricts else ()),
    )
    if held is not None:
        # The out-of-turn action was seen but not recorded: it is held for its turn.
        held = check_action(held)
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
        out.append(play_on(profile))
        out.append(first_penalty(profile, held["seat"], book_citations(profile, "oot_penalty")))
        return out
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_call", "an out_of_turn call needs 'seat' (the skipped player) or 'held_action'")
    street = street_actions(betting)
    recorded = last_action_of(seat, street)
    if recorded is None:
        out.append(
            play_on(
                profile,
                *both(_N("No action is recorded for this seat on this street; nothing to return.")),
                oot_cites,
            )
        )
        return out
    index, _ = recorded
    after = [(i, a) for i, a in street if i > index]
    words = [action_word(a["type"]) for _, a in after]
    late = bool(after) and is_substantial_action(profile, words)
    held_idx = [i for i, _ in after]
    ret = {"type": "return_action", "index": index, "held": held_idx}
    late_cites = profile_citations(profile, "skipped_player_late", "substantial_action")
    returned = _N(
        "The action recorded for seat %(seat)s did not happen; that seat acts now. The %(count)s action(s) recorded after it were out of turn: they are held and stay binding unless the action changes%(rules)s."
    )
    ret_sugg = Suggestion(
        "return_action",
        *both(_N("Back to seat %(seat)s: it was skipped"), seat=seat),
        # the German names no rules in the text (the citations list them)
        translate(
            returned,
            "en",
            seat=seat,
            count=len(held_idx),
            rules=f" ({citation_label(profile, 'out_of_turn_changed_by')})",
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
                merge_citations(late_cites, oot_cites),
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
        if standing_action_is_not_fold(betting, index):
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
                play_on(
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
            play_on(
                profile,
                *both(_N("No objection at once: the right to act is lost; the hand stands as recorded.")),
                late_cites,
            )
        )
        out.append(ret_sugg)
    else:
        out.append(ret_sugg)
    if not any(s.key == "play_on" for s in out):
        out.append(play_on(profile))
    if after:
        out.append(first_penalty(profile, after[0][1]["seat"], book_citations(profile, "oot_penalty")))
    return out


def standing_action_is_not_fold(betting, index: int) -> bool:
    """Whether the standing action at event ``index`` is anything but a fold
    (a dead hand whose recorded action was a call, say, needs that action voided
    first; a recorded fold already is the dead hand: nothing to correct)."""
    for i, a in betting:
        if i == index:
            return a.get("type") != "fold"
    return False


def is_seat(value) -> bool:
    """``value`` is a seat number (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)
