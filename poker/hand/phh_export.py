"""A hand of a flop game written as PHH TOML text (:func:`export_phh`): the engine's actions
replayed and translated, the formats PHH cannot express as user fields. See :mod:`.phh`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pokerkit import HandHistory

from .cards import UNKNOWN, parse_cards
from .phh_amounts import all_in_words
from .phh_hand import GAME_CODES
from .phh_result import plain
from .records import (
    ActionRecord,
    AllIn,
    AwardPot,
    Board,
    Call,
    Check,
    Fold,
    Hole,
    Muck,
    RunItTwice,
    Show,
    Wager,
    parse_action,
)
from .rules import Rules
from .spec import HandSpec
from .state import HandState

__all__ = ["export_phh"]

#: Metadata fields of the PHH standard (``HandHistory`` writes them as
#: fields; any other metadata goes into its ``user_defined_fields``).
_STANDARD_METADATA = frozenset(HandHistory.optional_field_names)


def _rules_to_phh(rules: Rules) -> dict:
    """Rules fields that differ from the defaults (None written as "none":
    TOML has no null)."""
    default = Rules().to_dict()
    return {k: ("none" if v is None else v) for k, v in rules.to_dict().items() if v != default[k]}


# ---------------------------------------------------------------- export
def export_phh(spec: HandSpec, history: Iterable[ActionRecord | dict], **metadata: Any) -> str:
    """Write a hand as PHH TOML text.

    Args:
        spec: the :class:`HandSpec`.
        history: the engine actions (``HandState.history``, or their dicts:
            a hand's stored events); they are replayed to translate them
            (e.g. ``all_in`` -> ``cc``/``cbr``).
        **metadata: extra PHH fields (``event``, ``hand``, ``year``, or user
            fields); None values are skipped. Fields of the PHH standard are
            written as such, any other key as a user-defined field, its name
            prefixed with ``_`` when it lacks one (``source`` -> ``_source``).

    Returns:
        The TOML text, written by pokerkit's ``HandHistory.dumps``. ``load_phh`` of it gives back the same hand: same
        spec (rules in the ``_rules`` user field, button in ``_button_seat``)
        and actions that replay to the same state. ``finishing_stacks`` is
        written when the hand is complete. Dealer awards use the
        ``# award <pot> p<k> ...`` comment extension.

    Raises:
        EngineError if the history does not replay.
    """
    state = HandState.start(spec)
    label = {s.seat: f"p{i + 1}" for i, s in enumerate(spec.seats)}
    actions: list[str] = []
    for given in history:
        action = parse_action(given)
        if isinstance(action, Hole):
            cards = parse_cards(action.cards or UNKNOWN * spec.hole_count)
            actions.append(f"d dh {label[action.seat]} {''.join(cards)}")
        elif isinstance(action, Board):
            count = state.board_cards_due
            cards = parse_cards(action.cards or "") or (UNKNOWN,) * count
            if state.next_board == 2:
                actions.append(f"# board 2 {''.join(cards)}")
            else:
                actions.append(f"d db {''.join(cards)}")
        elif isinstance(action, RunItTwice):
            pots = range(len(state.pots)) if action.pots is None else action.pots
            agreed = " ".join(label[s] for s in action.agreed)
            floor = " floor" if action.floor else ""
            actions.append(f"# run_it_twice pots {' '.join(map(str, pots))} agreed {agreed}{floor}")
        elif isinstance(action, Fold):
            actions.append(f"{label[action.seat]} f")
        elif isinstance(action, Check | Call):
            actions.append(f"{label[action.seat]} cc")
        elif isinstance(action, Wager):
            actions.append(f"{label[action.seat]} cbr {action.to}")
        elif isinstance(action, AllIn):
            actions.append(f"{label[action.seat]} {all_in_words(state, spec.position_of(action.seat))}")
        elif isinstance(action, Show):
            shown = action.cards
            actions.append(f"{label[action.seat]} sm {''.join(parse_cards(shown)) if shown else '-'}")
        elif isinstance(action, Muck):
            actions.append(f"{label[action.seat]} sm")
        elif isinstance(action, AwardPot):
            second = action.winners2
            tail = "" if second is None else " / " + " ".join(label[s] for s in second)
            actions.append("# award {} {}{}".format(action.pot, " ".join(label[s] for s in action.winners), tail))
        state = state.apply(action)
    # PHH readers (pokerkit) need the showdown written out: the engine
    # settles known hands by itself, so add "sm" for every hand that reached
    # the showdown with known cards and was neither shown nor mucked.
    if state.is_complete:
        for pos in state.showdown_order:
            hole = state.hole_cards[pos]
            if not state.shown[pos] and not state.mucked[pos] and hole is not None and UNKNOWN not in hole:
                actions.append(f"p{pos + 1} sm {''.join(hole)}")
    fields: dict[str, Any] = {
        "variant": GAME_CODES[spec.game],
        "ante_trimming_status": spec.ante_trimming,
        "antes": list(spec.antes),
        "blinds_or_straddles": list(spec.blinds_or_straddles),
    }
    if spec.game == "limit_holdem":
        fields["small_bet"] = spec.min_bet
        fields["big_bet"] = spec.big_bet
    else:
        fields["min_bet"] = spec.min_bet
    fields |= {
        "starting_stacks": list(spec.starting_stacks),
        "actions": actions,
        "players": [s.player for s in spec.seats],
        "seats": [s.seat for s in spec.seats],
    }
    if state.final_stacks is not None:
        fields["finishing_stacks"] = list(state.final_stacks)
    user: dict[str, Any] = {}
    if spec.rules != Rules():
        user["_rules"] = _rules_to_phh(spec.rules)
    if spec.button_seat is not None:
        user["_button_seat"] = spec.button_seat
    for name in ("bomb_pot", "flip"):
        if getattr(spec, name):
            user[f"_{name}"] = getattr(spec, name)
    if spec.boards != 1:
        user["_boards"] = spec.boards
    if spec.run_it_twice_min_pot is not None:
        user["_run_it_twice_min_pot"] = spec.run_it_twice_min_pot
    if spec.stakes is not None:
        user["_stakes"] = list(spec.stakes)
    if spec.straddles:
        user["_straddles"] = [list(s) for s in spec.straddles]
    if spec.posts:
        # 000 Einsätze 4: live posts [[seat, chips], ...] (not PHH blinds:
        # they do not move the action like a straddle would).
        user["_posts"] = [list(p) for p in spec.posts]
    for key, value in metadata.items():
        if value is None:
            continue
        if key in _STANDARD_METADATA:
            fields[key] = plain(value)
        else:
            # PHH: user-defined fields start with an underscore (pokerkit
            # warns about any other unknown field)
            user[key if key.startswith("_") else f"_{key}"] = plain(value)
    record = HandHistory(**plain(fields), user_defined_fields=plain(user))
    return record.dumps() + "\n"
