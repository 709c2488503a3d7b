"""PHH for the stud games: Seven Card Stud (``variant = "F7S"``), razz
(``"FR"``) and stud eight-or-better (``"F7S/8"``): reading, replaying,
writing. The games differ in data only (:data:`.stud_spec.STUD_GAMES`).

Spec: github.com/uoftcprg/phh-std, as pokerkit 0.7.7 reads and writes it
(``FixedLimitSevenCardStud``). Fields: ``antes`` (per position; stud antes
are equal), ``bring_in``, ``small_bet``, ``big_bet``, ``starting_stacks``,
``actions``. Positions ``p1``.. are the deal order, the first player left of
the dealer first: exactly :class:`~.stud_spec.StudSpec`'s ``seats`` order.

Action translation (PHH -> :class:`~.state.HandState` action):

=========================== ==========================================
``d dh p3 AsKs7h``          third street: two down cards, the door card
                            (``????7h``: the down cards unknown)
``d dh p3 Qc``              fourth to seventh street: that player's card;
                            the cards of one street, for all players, are
                            one engine ``deal`` (``{"cards": {seat: ..}}``)
``d db 9d``                 seventh street's community card (stub short)
``p3 pb``                   ``bring_in``
``p3 cbr 20``               ``complete`` (third street, only the bring-in
                            in), ``bet`` (no bet yet) or ``raise``
``p3 cc`` / ``p3 f``        ``check``/``call`` / ``fold``
``p3 sm QhQdJcQcJdTd9d``    show all seven cards in the order dealt;
                            ``p3 sm -`` the cards entered; ``p3 sm`` muck
=========================== ==========================================

When an up card is unknown the engine cannot tell who brings in or acts
first: the player of the next recorded action is named as the opener (the
engine refuses him if the cards showing name another).

Rules: a hand this module exported carries them (``_rules``, ``_odd_chip``);
another hand is read with the given rules (``Rules.pokerkit()`` also means
pokerkit's odd chip: the first winner in deal order) or our defaults (000
Aktionen 3: no cap heads-up; 000 Allgemein 8: the odd chip to the highest
card by suit).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pokerkit import HandHistory

from .cards import UNKNOWN, parse_cards
from .errors import EngineError
from .phh_amounts import (
    all_in_words,
    apply_awards_from_winnings,
    chips,
    parse_amount,
    seat_of_label,
    showdown_action,
    values,
)
from .phh_fields import PhhPlayers, hand_fields, read_chip_unit
from .phh_result import ReplayResult, finishing_mismatch, plain
from .records import (
    ActionRecord,
    AllIn,
    Bet,
    BringIn,
    Call,
    Check,
    Complete,
    Deal,
    Fold,
    Kill,
    Muck,
    Raise,
    SeatAction,
    Show,
    Wager,
    parse_action,
)
from .rules import Rules
from .seats import SeatSpec
from .state import HandState
from .stud_spec import StudSpec

__all__ = ["STUD_VARIANTS", "StudPhhHand", "export_stud_phh", "replay_stud", "stud_hand_from_history"]

#: PHH variant code -> the game our stud engine plays.
STUD_VARIANTS = {"F7S": "stud", "FR": "razz", "F7S/8": "stud8"}
_DEAL = re.compile(r"^d dh p(\d+) (\S+)$")


@dataclass(frozen=True, kw_only=True)
class StudPhhHand(PhhPlayers):
    """A parsed stud PHH hand (``variant``: ``F7S``, ``FR`` or ``F7S/8``). Amounts in chips (``chip_unit`` of
    the file is one chip), positions in deal order.

    Fields: ``antes`` (per position), ``bring_in``, ``small_bet``,
    ``big_bet``, ``starting_stacks``, ``actions`` (PHH strings),
    ``ante_trimming_status``, ``finishing_stacks``/``winnings`` (the
    recorded result or None), ``players``, ``seats`` (table seats per
    position or None), ``extra`` (other fields), ``source``, ``variant``,
    ``chip_unit``, ``index`` (the hand's table name in a ``.phhs``)."""

    bring_in: int
    small_bet: int
    big_bet: int
    variant: str = "F7S"

    def spec(self, rules: Rules | None = None) -> StudSpec:
        """The engine's :class:`StudSpec`. ``rules``: see the module docstring.

        Raises:
            EngineError("bad_spec") when the antes differ between players (a
            stud ante is the same for all) or the data is inconsistent."""
        names, seats = self.names_and_seats()
        n = len(names)
        if len(set(self.antes)) > 1:
            raise EngineError("bad_spec", f"Stud antes are the same for every player, got {list(self.antes)}.")
        extra = self.extra
        if rules is None:
            rules = Rules.from_dict({k: (None if v == "none" else v) for k, v in extra.get("_rules", {}).items()})
        odd_chip = extra.get("_odd_chip") or ("position" if rules == Rules.pokerkit() else "high_card")
        return StudSpec(
            seats=tuple(SeatSpec(seats[i], names[i], self.starting_stacks[i]) for i in range(n)),
            ante=self.antes[0] if self.antes else 0,
            bring_in=self.bring_in,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            rules=rules,
            dealer_seat=int(extra["_dealer_seat"]) if "_dealer_seat" in extra else None,
            odd_chip=str(odd_chip),
            variant=STUD_VARIANTS[self.variant],
        )


def stud_hand_from_history(
    history: HandHistory, source: str | None = None, chip_unit: Decimal | None = None
) -> StudPhhHand:
    """Our :class:`StudPhhHand` of a pokerkit ``HandHistory`` of variant
    ``F7S``; ``chip_unit`` as in :func:`.phh.hand_from_history`.

    Raises:
        EngineError("bad_spec") for another variant, a missing ``bring_in``,
        ``small_bet`` or ``big_bet``, or malformed amounts."""
    if history.variant not in STUD_VARIANTS:
        raise EngineError("bad_spec", f"Not a stud variant: {history.variant!r}.")
    for name in ("bring_in", "small_bet", "big_bet"):
        if getattr(history, name) is None:
            raise EngineError("bad_spec", f"PHH field {name!r} is missing.")
    actions = tuple(str(a) for a in history.actions)
    unit = read_chip_unit(history, actions, [history.bring_in, history.small_bet, history.big_bet], chip_unit)
    fields = hand_fields(history, actions, unit, source)
    extra: dict[str, Any] = {}
    for name in HandHistory.optional_field_names:
        value = getattr(history, name, None)
        if value is not None and name not in ("finishing_stacks", "winnings", "players", "seats"):
            extra[name] = value
    extra |= history.user_defined_fields
    return StudPhhHand(
        antes=values(history.antes, len(fields["starting_stacks"]), "antes", unit),
        bring_in=chips(history.bring_in, "bring_in", unit),
        small_bet=chips(history.small_bet, "small_bet", unit),
        big_bet=chips(history.big_bet, "big_bet", unit),
        extra=extra,
        **fields,
    )


def _betting(state: HandState, text: str, seats: tuple[int, ...]) -> ActionRecord | None:
    """The engine action of one PHH betting or showdown action (None: a show whose cards are
    not all recorded, which the replay leaves out)."""
    words = text.split("#", 1)[0].split()
    match words:
        case [player, "pb"]:
            return BringIn(seat_of_label(player, seats, text))
        case [player, "f"]:
            return Fold(seat_of_label(player, seats, text))
        case [player, "cc"]:
            seat = seat_of_label(player, seats, text)
            legal = state.legal()
            return Call(seat) if legal.call_amount else Check(seat)
        case [player, "cbr", amount]:
            seat = seat_of_label(player, seats, text)
            to = chips(parse_amount(amount, text), "cbr")
            top = max(state.bets)
            spec = state.spec
            assert isinstance(spec, StudSpec)  # a stud hand's
            kind: type[Wager]
            if state.street_index == 0 and top < spec.small_bet:
                kind = Complete  # only the bring-in (or nothing) is in: completed to the small bet
            else:
                kind = Raise if top else Bet
            return kind(seat, to)
        case [player, "sm", *shown] if len(shown) <= 1:
            action = showdown_action(player, shown[0] if shown else None, seats, text)
            if isinstance(action, Show) and action.cards is not None and "?" in action.cards:
                return None
            return action
    raise EngineError("bad_action", f"Cannot translate PHH action {text!r} for stud.")


def _deal(
    state: HandState, cards: dict[int, str], community: str, opener: int | None, hidden: frozenset[int] = frozenset()
) -> HandState:
    """Apply one street's deal; name ``opener`` only when the cards showing
    cannot tell (an unknown up card). The down cards of the ``hidden`` seats
    (players who muck at the showdown) are entered as unknown: their hand
    is not in the showdown, whatever it holds."""
    cards = dict(cards)
    for seat in hidden & cards.keys():
        if state.next_street == "third":
            cards[seat] = UNKNOWN * 2 + "".join(parse_cards(cards[seat])[2:])
        elif state.next_street == "seventh":
            cards[seat] = UNKNOWN
    action = Deal(community=community) if community else Deal(tuple(cards.items()))
    try:
        return state.apply(action)
    except EngineError as exc:
        if exc.code != "bad_cards" or "opener" not in exc.message:
            raise
        if opener is None:  # no betting follows (all in): who acts first does not matter
            opener = next(iter(cards), None) or next(
                s.seat for i, s in enumerate(state.spec.seats) if not state.folded[i]
            )
        return state.apply(Deal(action.cards, action.community, opener))


def _show(state: HandState, action: ActionRecord) -> HandState:
    """Apply ``action``; a show of fewer cards than the player holds (shown
    at an all-in before the last street) shows those first cards and keeps
    the later ones as entered."""
    if isinstance(action, Show) and action.cards:
        held = state.cards_of(state.spec.position_of(action.seat))
        shown = parse_cards(action.cards)
        if len(shown) < len(held):
            merged = shown + held[len(shown) :]
            if UNKNOWN in merged:
                return state  # the later cards are unknown: nothing shown can settle the pot
            action = Show(action.seat, "".join(merged))
    return state.apply(action)


def replay_stud(hand: StudPhhHand, rules: Rules | None = None) -> ReplayResult:
    """Replay a stud PHH hand through :class:`~.state.HandState`, like
    :func:`.phh.replay` (same :class:`ReplayResult`; never raises for bad
    data). Pots whose contenders' cards are unknown are awarded as the
    recorded ``winnings`` say."""
    try:
        state = HandState.start(hand.spec(rules))
    except EngineError as exc:
        return ReplayResult(False, None, None, f"{exc.code}: {exc.message}", exc.code, None)
    expected, seats = hand.finishing_stacks, hand.seat_numbers()
    actions = [a for a in hand.actions if a.split("#", 1)[0].strip()]
    pending: dict[int, str] = {}
    community = ""
    shows: list[ActionRecord] = []
    # a player who mucks gives up the pot whatever he holds: the recorder knew his cards, the showdown did not
    hidden = frozenset(
        seat_of_label(words[0], seats, text)
        for text in actions
        if len(words := text.split("#", 1)[0].split()) == 2 and words[1] == "sm"
    )
    index = -1
    try:
        for text in actions:
            index += 1
            body = text.split("#", 1)[0].strip()
            deal = _DEAL.match(body)
            if state.is_complete and (deal or body.startswith("d db ")):
                continue  # dealt on after the hand was won (one hand left): nothing to play
            if deal:
                seat = seat_of_label(f"p{deal.group(1)}", seats, text)
                if seat in pending:  # a street after a street with no betting (all in): deal the first
                    state, pending = _deal(state, pending, "", None, hidden), {}
                pending[seat] = deal.group(2)
                continue
            if body.startswith("d db "):
                community = body[5:].strip()
                continue
            if pending or community:
                opener = seat_of_label(body.split()[0], seats, text) if not body.startswith("d ") else None
                state = _deal(state, pending, community, opener, hidden)
                pending, community = {}, ""
            action = _betting(state, body, seats)
            if action is None:
                continue  # a show whose cards are not all recorded: nothing to show
            if isinstance(action, Muck) and state.phase not in ("showdown", "complete"):
                # mucked at an all-in before the last street: that hand is dead (pokerkit kills it)
                state = state.apply(Kill(action.seat, "mucked (PHH)"))
            elif isinstance(action, Show) and state.phase not in ("showdown", "complete"):
                shows.append(action)  # shown at an all-in before the last street: the showdown takes it
            else:
                state = _show(state, action)
        if pending or community:
            state = _deal(state, pending, community, None, hidden)
        for action in shows:
            if state.phase == "showdown":
                state = _show(state, action)
    except EngineError as exc:
        return ReplayResult(
            False,
            expected,
            state.final_stacks,
            f"{exc.code}: {exc.message} at action {index} {actions[index]!r}",
            exc.code,
            state,
        )
    unchecked: list[str] = []
    if state.phase == "showdown" and hand.winnings is not None:
        try:
            state, unchecked = apply_awards_from_winnings(state, hand.winnings)
        except EngineError as exc:
            return ReplayResult(False, expected, None, f"{exc.code}: {exc.message} (awards)", exc.code, None)
    actual = state.final_stacks
    if actual is None:
        return ReplayResult(
            False, expected, None, f"incomplete: the hand stops in phase {state.phase!r}", "incomplete", None
        )
    checked: list[str] = []
    mismatch = finishing_mismatch(expected, actual, state, (), checked, unchecked)
    if mismatch is not None:
        return mismatch
    if not checked:
        unchecked.append("no finishing_stacks recorded: the result is not checked")
    return ReplayResult(True, expected, actual, None, None, state, (), tuple(checked), tuple(unchecked))


#: The PHH word of each stud action of a seat alone.
_SEAT_WORDS: dict[type, str] = {BringIn: "pb", Fold: "f", Check: "cc", Call: "cc", Muck: "sm"}


def export_stud_phh(spec: StudSpec, history: Iterable[ActionRecord | dict], **metadata: Any) -> str:
    """A stud hand as PHH TOML text (``variant`` ``F7S``, ``FR`` or ``F7S/8``), as pokerkit's
    ``HandHistory.dumps`` writes it; :func:`replay_stud` of it gives the same
    hand. ``history``: the engine actions (``HandState.history``, or their dicts: a hand's
    stored events), replayed to translate them; ``metadata`` as in :func:`.phh.export_phh`.
    A dead hand (``kill``) is written as a muck; a dealer's award has no PHH
    action: a hand with one is written without ``finishing_stacks``.

    Raises:
        EngineError if the history does not replay."""
    state = HandState.start(spec)
    label = {s.seat: f"p{i + 1}" for i, s in enumerate(spec.seats)}
    lines: list[str] = []
    complete = True
    for given_action in history:
        action = parse_action(given_action)
        if isinstance(action, Deal):
            if action.community or (state.community_due and not action.cards):
                lines.append(f"d db {''.join(parse_cards(action.community or '')) or UNKNOWN}")
            else:
                count = 3 if state.next_street == "third" else 1
                given = dict(action.cards or ())
                for i, seat in enumerate(s.seat for s in spec.seats):
                    if state.folded[i]:
                        continue
                    cards = parse_cards(given.get(seat) or "") or (UNKNOWN,) * count
                    lines.append(f"d dh {label[seat]} {''.join(cards)}")
        elif isinstance(action, Wager):
            lines.append(f"{label[action.seat]} cbr {action.to}")
        elif isinstance(action, AllIn):
            lines.append(f"{label[action.seat]} {all_in_words(state, spec.position_of(action.seat))}")
        elif isinstance(action, SeatAction) and type(action) in _SEAT_WORDS:
            lines.append(f"{label[action.seat]} {_SEAT_WORDS[type(action)]}")
        elif isinstance(action, Show):
            shown = action.cards
            lines.append(f"{label[action.seat]} sm {''.join(parse_cards(shown)) if shown else '-'}")
        elif isinstance(
            action, Kill
        ):  # a dead hand gives up the pot like a muck (read back as a kill before the showdown)
            lines.append(f"{label[action.seat]} sm # dead hand")
        else:  # a dealer's award: no PHH action
            complete = False
        state = state.apply(action)
    if state.is_complete and complete:
        for pos in state.showdown_order:
            cards = state.cards_of(pos)
            if not state.shown[pos] and not state.mucked[pos] and cards and UNKNOWN not in cards:
                lines.append(f"p{pos + 1} sm {''.join(cards)}")
    fields: dict[str, Any] = {
        "variant": spec.stud_game.phh,
        "ante_trimming_status": False,
        "antes": [spec.ante] * len(spec.seats),
        "bring_in": spec.bring_in,
        "small_bet": spec.small_bet,
        "big_bet": spec.big_bet,
        "starting_stacks": [s.stack for s in spec.seats],
        "actions": lines,
        "players": [s.player for s in spec.seats],
        "seats": [s.seat for s in spec.seats],
    }
    if state.final_stacks is not None and complete:
        fields["finishing_stacks"] = list(state.final_stacks)
    default = Rules().to_dict()
    user: dict[str, Any] = {"_odd_chip": spec.odd_chip}
    changed = {k: ("none" if v is None else v) for k, v in spec.rules.to_dict().items() if v != default[k]}
    if changed:
        user["_rules"] = changed
    if spec.dealer_seat is not None:
        user["_dealer_seat"] = spec.dealer_seat
    for key, value in metadata.items():
        if value is None:
            continue
        if key in HandHistory.optional_field_names:
            fields[key] = plain(value)
        else:
            user[key if key.startswith("_") else f"_{key}"] = plain(value)
    return HandHistory(**plain(fields), user_defined_fields=plain(user)).dumps() + "\n"
