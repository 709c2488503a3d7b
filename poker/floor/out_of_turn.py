"""Out-of-turn actions: what a held action becomes when the turn reaches its player
(000 Aktionen 2, 001 6.19, 002 #8, 003 "Ausserordentliche und ordentliche Handlungen der
Spieler", 004 #53, TDA 53). Standard library only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from poker.houserules import Citation, HouseRules
from poker.i18n import _N, both

from .common import BETTING, ProcedureError, action_word, citation_dicts, profile_citations

__all__ = ["OutOfTurnResult", "OutOfTurnVerdict", "check_action", "out_of_turn_verdict", "resolve_out_of_turn"]


def _say(en: list[str], de: list[str], msgid: str, **params: Any) -> None:
    """Append the sentence ``msgid`` (its ``%(name)s`` filled from ``params``) to ``en`` and ``de``."""
    text_en, text_de = both(msgid, **params)
    en.append(text_en)
    de.append(text_de)


@dataclass(frozen=True)
class OutOfTurnResult:
    """What a held out-of-turn action becomes.

    ``status``: ``"binding"`` (apply ``action`` when the player's turn comes) or
    ``"released"`` (``action`` is None: chips back, the player acts again, within
    ``restrictions``). ``restrictions``: ``"may_not_raise"`` (no bet or raise
    later, 002 #8; a check facing a bet, 004 #55). ``changed_by``: the
    intervening actions that changed the action.
    """

    status: str
    action: dict | None
    restrictions: tuple = ()
    changed_by: tuple = ()
    explanation_en: str = ""
    explanation_de: str = ""
    citations: tuple = ()

    def to_dict(self) -> dict:
        """JSON shape: the fields, citations as dicts."""
        return {
            "status": self.status,
            "action": dict(self.action) if self.action else None,
            "restrictions": list(self.restrictions),
            "changed_by": list(self.changed_by),
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "citations": citation_dicts(self.citations),
        }


# --------------------------------------------------------------------------- out of turn
def check_action(action: Any, what: str = "held_action") -> dict:
    """``action`` checked as an engine betting action with a seat (a copy); raises
    ProcedureError("bad_action") naming ``what`` otherwise."""
    if not isinstance(action, dict) or action.get("type") not in BETTING:
        raise ProcedureError("bad_action", f"{what} must be an engine betting action ({', '.join(BETTING)})")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProcedureError("bad_action", f"{what} needs an integer 'seat'")
    if action["type"] in ("bet", "raise"):
        to = action.get("to")
        if not isinstance(to, int) or isinstance(to, bool) or to <= 0:
            raise ProcedureError("bad_action", f"{what}: a {action['type']} needs a positive integer 'to'")
    return action


def _legal(situation: dict | None) -> dict:
    if situation is None:
        return {}
    if not isinstance(situation, dict):
        raise ProcedureError("bad_call", "situation must be a snapshot or its 'legal' dict")
    legal = situation.get("legal") if "players" in situation or "legal" in situation else situation
    return legal if isinstance(legal, dict) else {}


def _intervening_words(profile: HouseRules, intervening: list) -> tuple[list[str], list[str]]:
    """(all words, the words that change the action under ``profile``)."""
    if not isinstance(intervening, (list, tuple)):
        raise ProcedureError("bad_call", "intervening_actions must be a list of actions or words")
    words, changed = [], []
    changers = profile.out_of_turn_changed_by
    for item in intervening:
        if isinstance(item, dict):
            word = action_word(str(item.get("type", "")))
            as_ = item.get("as")
        else:
            word, as_ = action_word(str(item).strip().lower()), None
        if word not in ("fold", "check", "call", "bet", "raise", "all-in"):
            raise ProcedureError("bad_action", f"unknown intervening action {item!r}")
        words.append(word)
        if word == "all-in":
            # an all-in counts as what it amounts to; without that, as a raise (it
            # puts more chips in than the player faced)
            effective = as_ if as_ in ("call", "bet", "raise") else "raise"
            if effective in changers or (effective == "bet" and "raise" in changers):
                changed.append(word)
        elif word in changers:
            changed.append(word)
    return words, changed


class OutOfTurnVerdict(NamedTuple):
    """Whether an out-of-turn action binds: ``binding`` (False when an intervening action
    in ``profile.out_of_turn_changed_by`` changed the action; a fold always binds),
    ``changed`` (those intervening action words), ``may_not_raise`` (002 #8: a check or
    call out of turn may never become a bet or raise, binding or not)."""

    binding: bool
    changed: tuple[str, ...]
    may_not_raise: bool


def out_of_turn_verdict(profile: HouseRules, kind: str, intervening_actions: list) -> OutOfTurnVerdict:
    """The one reading of an out-of-turn ``kind`` (``"fold"``, ``"check"``, ``"call"``,
    ``"bet"``, ``"raise"``, ``"all_in"``/``"all-in"``) followed by ``intervening_actions``
    (engine action dicts or words), used by :func:`resolve_out_of_turn` (the tablet) and
    the chip-action interpreter (``manage.py interpret``).

    Bet/raise in between frees the player (000 Aktionen 2, 001 6.19, 004 #53, TDA 53), a
    call too under 002 #8; and under 002 #8 ("Ein Spieler, der checkt, ohne am Zug zu sein,
    darf dann weder setzen noch erhöhen, wenn er am Zug ist") a check or call out of turn
    forbids a later bet or raise even when the action changed.
    Raises ProcedureError("bad_call" | "bad_action") for malformed intervening actions.
    """
    _, changed = _intervening_words(profile, intervening_actions)
    word = action_word(kind)
    binding = word == "fold" or not changed
    may_not_raise = bool(profile.out_of_turn_check_restricts and word in ("check", "call"))
    return OutOfTurnVerdict(binding, tuple(changed), may_not_raise)


def resolve_out_of_turn(
    profile: HouseRules, held_action: dict, intervening_actions: list, situation: dict | None = None
) -> OutOfTurnResult:
    """Resolve an out-of-turn action when the action reaches its player.

    Args:
        profile: the table's :class:`HouseRules`.
        held_action: the engine action the player took out of turn, e.g.
            ``{"type": "call", "seat": 5}``, ``{"type": "raise", "seat": 5, "to": 600}``.
        intervening_actions: what the players between the player in turn and
            him did since, in order: engine action dicts (an ``all_in`` may
            carry ``"as": "call"|"bet"|"raise"``) or words (``"check"``).
        situation: optional, the hand snapshot (``HandState.to_dict()``) or its
            ``legal`` dict when the action reaches him; used to make the
            binding action concrete (a call with nothing to call is a check,
            a bet/raise to his whole stack is an all-in, a check facing a bet).

    Returns:
        :class:`OutOfTurnResult`. A fold out of turn is always binding. Any other
        action is binding unless an intervening action is in
        ``profile.out_of_turn_changed_by`` (bet/raise: 000 Aktionen 2, 001 6.19,
        003, 004 #53, TDA 53; also call: 002 #8); then it is released and its
        chips go back. Under 002 #8 (``out_of_turn_check_restricts``) a check or
        call out of turn may never become a bet or raise.

    Raises:
        ProcedureError("bad_action" | "bad_call") for malformed input.
    """
    held = check_action(held_action)
    legal = _legal(situation)
    kind, seat = held["type"], held["seat"]
    verdict = out_of_turn_verdict(profile, kind, intervening_actions)
    changed = list(verdict.changed)
    restrictions: list[str] = ["may_not_raise"] if verdict.may_not_raise else []
    en: list[str] = []
    de: list[str] = []
    params = ["out_of_turn_changed_by"] + (["out_of_turn_check_restricts"] if verdict.may_not_raise else [])
    extra: list[Citation] = []

    if kind == "fold":
        _say(en, de, _N("A fold out of turn is binding; the cards are not returned."))
        return OutOfTurnResult(
            "binding",
            {"type": "fold", "seat": seat},
            (),
            tuple(changed),
            " ".join(en),
            " ".join(de),
            profile_citations(profile, *params),
        )

    if changed:
        names = ", ".join(changed)
        if restrictions:
            _say(
                en,
                de,
                _N(
                    "The action changed after the out-of-turn %(kind)s (%(names)s): it is not binding, "
                    "its chips go back and the player acts again but may not bet or raise."
                ),
                kind=kind,
                names=names,
            )
        else:
            _say(
                en,
                de,
                _N(
                    "The action changed after the out-of-turn %(kind)s (%(names)s): it is not binding, its chips go back and the player acts again with all options."
                ),
                kind=kind,
                names=names,
            )
        if restrictions:
            _say(en, de, _N("A player who checked or called out of turn may never turn it into a bet or raise."))
        return OutOfTurnResult(
            "released",
            None,
            tuple(restrictions),
            tuple(changed),
            " ".join(en),
            " ".join(de),
            profile_citations(profile, *params),
        )

    if "call" in profile.out_of_turn_changed_by:
        _say(en, de, _N("No bet, call or raise came in between: the out-of-turn action is binding."))
    else:
        _say(
            en,
            de,
            _N(
                "The action has not changed (check, call and fold do not change it): the out-of-turn action is binding."
            ),
        )
    if profile.rulebook == "nlhe":
        _say(en, de, _N("Chips bet out of turn are taken back until it is the player's turn (003)."))

    call_amount = legal.get("call_amount")
    action: dict = {"type": kind, "seat": seat}
    if kind in ("bet", "raise"):
        action["to"] = held["to"]
        max_to = legal.get("max_raise_to")
        if isinstance(max_to, int) and held["to"] >= max_to:
            action = {"type": "all_in", "seat": seat}
            _say(en, de, _N("The amount is the whole stack: all-in."))
    elif kind == "call" and call_amount == 0:
        action = {"type": "check", "seat": seat}
        params.append("call_without_bet_is")
        _say(en, de, _N("There is nothing to call: the call stands as a check."))
    elif kind == "check" and isinstance(call_amount, int) and call_amount > 0:
        params.append("check_facing_bet_allows")
        if "may_not_raise" not in restrictions:
            restrictions.append("may_not_raise")
        _say(en, de, _N("A check facing a bet: the player may only call or fold."))
        return OutOfTurnResult(
            "released",
            None,
            tuple(restrictions),
            (),
            " ".join(en),
            " ".join(de),
            profile_citations(profile, *params, extra=extra),
        )
    return OutOfTurnResult(
        "binding",
        action,
        tuple(restrictions),
        (),
        " ".join(en),
        " ".join(de),
        profile_citations(profile, *params, extra=extra),
    )
