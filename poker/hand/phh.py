"""PHH (Poker Hand History, TOML) reading, replaying and writing.

Spec: github.com/uoftcprg/phh-std. Positions: ``p1`` is the small blind and
the last player is the button (heads-up: ``p1`` is the big blind), which is
exactly the engine's position order. Variants: No-Limit Texas Hold'em
(``variant = "NT"``), Pot-Limit Omaha (``"PO"``, ``min_bet``) and
Fixed-Limit Texas Hold'em (``"FT"``, ``small_bet`` and ``big_bet`` instead of
``min_bet``), as pokerkit 0.7.7 reads them; the stud games (``"F7S"``, ``"FR"``, ``"F7S/8"``) in
:mod:`.phh_stud`. A ``.phhs`` file holds several
hands as TOML tables ``[1]``, ``[2]`` ... (pokerkit's
``HandHistory.loads_all`` / ``dumps_all``): :func:`load_phh_file`.

Amounts with decimals (online hands: ``0.50``, ``200.30``) are read exactly
(pokerkit parses them as ``Decimal``) and mapped to whole chips with a chip
unit: the smallest power of ten that makes every amount of the hand whole
(``0.01``: 0.50 -> 50 chips), or a unit given by the caller; never floats.
``PhhHand.chip_unit`` keeps the unit. A hand that records ``winnings``
(chips each player collected from the pots) instead of ``finishing_stacks``
is checked against those (:class:`ReplayResult` ``checked``/``unchecked``).
A negative ``blinds_or_straddles`` value is a post (pokerkit's "post bet"):
live up to the big blind, dead above it (:func:`.phh_records.forced_bets`).

Special formats PHH cannot express are written as user fields
(``_bomb_pot``, ``_flip``, ``_boards``, ``_run_it_twice_min_pot``,
``_stakes``, ``_straddles``, ``_posts``, ``_rules``, ``_button_seat``) and
as comment actions other readers skip: ``# board 2 <cards>`` (board-2
cards of a double board or a second run-out), ``# run_it_twice pots 0 1
agreed p1 p2 [floor]`` and ``# award <pot> p1 [/ p2]`` (``/`` separates the
board-2 winners).

Action translation (PHH -> engine action dict):

=================== ==========================================
``d dh p3 AsKs``    ``{"type": "hole", "seat": S3, "cards": "AsKs"}`` (``????`` unknown)
``d db Jc3d5c``     ``{"type": "board", "cards": "Jc3d5c"}``
``p3 f``            ``{"type": "fold", "seat": S3}``
``p3 cc``           ``check`` when nothing is to be called, else ``call``
``p3 cbr 600``      ``bet`` (no bet yet on the street) or ``raise``, ``"to": 600``
``p3 sm AsKs``      ``{"type": "show", ...}``; ``p3 sm -`` shows the entered cards
``p3 sm ????``      nothing: p3 neither shows nor mucks (``Ah??``: a show when the
                    entered cards complete it), :func:`.phh_records.show_unknown`
``p3 sm``           ``{"type": "muck", ...}``
``# award 0 p1 p3`` pokerfloor extension (a PHH comment, a no-op for
                    other readers): pot 0 awarded by the dealer to p1 and p3
``# board 2 Jc3d5c`` pokerfloor extension: ``{"type": "board", "board": 2, ...}``
``# run_it_twice``  pokerfloor extension: ``{"type": "run_it_twice", ...}``
=================== ==========================================

The TOML is read as pokerkit's ``HandHistory.loads`` reads it (plain files by
the faster :mod:`.phh_toml`, the same table) and written by
``HandHistory.dumps`` (our user fields travel in its ``user_defined_fields``);
this module translates between PHH and the engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from pokerkit import HandHistory

from . import phh_toml
from .cards import UNKNOWN, parse_cards
from .errors import EngineError
from .phh_amounts import (
    awards_from_winnings,
    cbr_amounts,
    chips,
    collected,
    parse_amount,
    places,
    scale_action,
    seat_of_label,
    values,
)
from .phh_records import forced_bets, show_unknown, winnings_mismatch
from .phh_result import ReplayResult, plain
from .phh_stud import STUD_VARIANTS, StudPhhHand, export_stud_phh, replay_stud, stud_hand_from_history
from .rules import Rules
from .spec import HandSpec, SeatSpec
from .state import HandState

__all__ = [
    "PhhHand",
    "PhhLoadError",
    "ReplayResult",
    "awards_from_winnings",
    "collected",
    "export_phh",
    "export_stud_phh",
    "load_phh",
    "load_phh_file",
    "replay",
    "translate_action",
    "winnings_mismatch",
]

_CORE = {
    "variant",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "starting_stacks",
    "actions",
    "ante_trimming_status",
    "finishing_stacks",
    "players",
    "seats",
    "small_bet",
    "big_bet",
    "winnings",
}
#: Metadata fields of the PHH standard (``HandHistory`` writes them as
#: fields; any other metadata goes into its ``user_defined_fields``).
_STANDARD_METADATA = frozenset(HandHistory.optional_field_names)
#: HandHistory attributes that are settings of pokerkit, not PHH fields.
_NOT_FIELDS = frozenset({"user_defined_fields", "automations", "divmod", "rake", "parse_value"})
#: HandHistory fields that go into ``PhhHand.extra`` when set.
_EXTRA_FIELDS = tuple(f.name for f in dataclasses.fields(HandHistory) if f.name not in _CORE | _NOT_FIELDS)
#: PHH variant code -> HandSpec.game, and back.
VARIANTS = {"NT": "nlhe", "PO": "plo", "FT": "limit_holdem"}
GAME_CODES = {game: code for code, game in VARIANTS.items()}


#: ``Rules()``, built once (Rules is frozen): a spec per replayed hand needs it.
_DEFAULT_RULES = Rules()


def _rules_to_phh(rules: Rules) -> dict:
    """Rules fields that differ from the defaults (None written as "none":
    TOML has no null)."""
    default = Rules().to_dict()
    return {k: ("none" if v is None else v) for k, v in rules.to_dict().items() if v != default[k]}


def _rules_from_phh(data: dict) -> Rules:
    return Rules.from_dict({k: (None if v == "none" else v) for k, v in data.items()})


@dataclass(frozen=True)
class PhhHand:
    """A parsed PHH hand (No-Limit Hold'em, Pot-Limit Omaha, Fixed-Limit Hold'em).

    Fields:
        antes, blinds_or_straddles: per position (PHH order), chips (a
            negative blind is a post, see :meth:`spec`).
        min_bet: minimum bet (chips).
        starting_stacks: per position (chips).
        actions: the PHH action strings, comments included.
        ante_trimming_status: PHH flag (default False).
        finishing_stacks: recorded result per position, or None.
        players: player names per position, or None.
        seats: table seat numbers per position, or None.
        extra: every other field (event, year, hand, user ``_fields`` ...).
        source: file path when loaded from a file, else None.
        variant: PHH variant code, ``"NT"``, ``"PO"`` or ``"FT"``.
        big_bet: ``"FT"`` only: the big bet (``min_bet`` holds the small bet).
        winnings: recorded chips each position collected from the pots, or
            None (PHH ``winnings``).
        chip_unit: the file's amount that is one chip (``Decimal("0.01")``
            for cent amounts; 1 for whole-chip files). Every amount above,
            the ``cbr`` amounts in ``actions`` included, is in chips.
        index: the hand's table name in a ``.phhs`` file (``"1"``), else None.
    """

    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    ante_trimming_status: bool = False
    finishing_stacks: tuple[int, ...] | None = None
    players: tuple[str, ...] | None = None
    seats: tuple[int, ...] | None = None
    extra: dict = field(default_factory=dict)
    source: str | None = None
    variant: str = "NT"
    big_bet: int | None = None
    winnings: tuple[int, ...] | None = None
    chip_unit: Decimal = Decimal(1)
    index: str | None = None

    @property
    def player_count(self) -> int:
        """Number of players in the hand."""
        return len(self.starting_stacks)

    def seat_numbers(self) -> tuple[int, ...]:
        """Table seat per position: the PHH ``seats`` field or 1..n."""
        return self.seats if self.seats is not None else tuple(range(1, self.player_count + 1))

    def spec(self, rules: Rules | None = None) -> HandSpec:
        """Build the engine :class:`HandSpec` (positions = PHH order).

        ``rules`` defaults to the ``_rules`` user field written by
        :func:`export_phh`, else :class:`Rules`; the button seat comes from
        the ``_button_seat`` user field and the live posts (000 Einsätze 4)
        from ``_posts`` when present; negative blinds are posts
        (:func:`.phh_records.forced_bets`).

        Raises:
            EngineError("bad_spec") on inconsistent data.
        """
        n = self.player_count
        names = self.players if self.players is not None else tuple(f"p{i + 1}" for i in range(n))
        seats = self.seat_numbers()
        if len(names) != n or len(seats) != n:
            raise EngineError("bad_spec", "players/seats do not match starting_stacks.")
        extra = self.extra
        blinds, antes, posts = forced_bets(
            self.blinds_or_straddles,
            self.antes,
            self.min_bet,
            seats,
            self.ante_trimming_status,
            extra.get("_posts") or (),
        )
        return HandSpec(
            seats=tuple(SeatSpec(seats[i], str(names[i]), self.starting_stacks[i]) for i in range(n)),
            blinds_or_straddles=blinds,
            antes=antes,
            min_bet=self.min_bet,
            ante_trimming=self.ante_trimming_status,
            rules=rules
            if rules is not None
            else (_rules_from_phh(extra["_rules"]) if "_rules" in extra else _DEFAULT_RULES),
            button_seat=int(extra["_button_seat"]) if "_button_seat" in extra else None,
            game=VARIANTS[self.variant],
            big_bet=self.big_bet,
            bomb_pot=int(extra.get("_bomb_pot", 0)),
            flip=int(extra.get("_flip", 0)),
            boards=int(extra.get("_boards", 1)),
            run_it_twice_min_pot=extra.get("_run_it_twice_min_pot"),
            stakes=tuple(extra["_stakes"]) if "_stakes" in extra else None,
            straddles=tuple(tuple(s) for s in extra.get("_straddles", ())),
            posts=posts,
        )


class PhhLoadError(EngineError):
    """A hand of a PHH file that could not be read (:func:`load_phh_file`).

    Attributes (besides ``code`` and ``message``):
        index: the hand's table name in a ``.phhs`` file (``"2"``), or None
            (a ``.phh`` file, or a ``.phhs`` file that is not TOML at all).
    """

    def __init__(self, code: str, message: str, index: str | None = None) -> None:
        super().__init__(code, message)
        self.index = index


def load_phh(path_or_text: str | Path, chip_unit: Decimal | None = None) -> PhhHand | StudPhhHand:
    """Parse a PHH hand as pokerkit's ``HandHistory.loads`` does (:mod:`.phh_toml` reads the TOML).

    Args:
        path_or_text: a path (``Path`` or an existing file name) or the TOML
            text itself.
        chip_unit: the amount that is one chip (default: the hand's own,
            see :func:`hand_from_history`).

    Returns:
        :class:`PhhHand`.

    Raises:
        EngineError("bad_spec") when the text is not valid TOML, the variant
        is not ``NT``, ``PO`` or ``FT``, or a field the PHH standard requires
        (``variant``, ``antes``, ``starting_stacks``, ``actions``, the bet
        sizes) is missing or malformed.
    """
    source = None
    if isinstance(path_or_text, Path) or (
        isinstance(path_or_text, str) and "\n" not in path_or_text and path_or_text.endswith(".phh")
    ):
        source = str(path_or_text)
        text = Path(path_or_text).read_text(encoding="utf-8")
    else:
        text = path_or_text
    [(_, history)] = phh_toml.histories(text, several=False)
    if isinstance(history, EngineError):
        raise history
    return hand_from_history(history, source, chip_unit)


def load_phh_file(path: str | Path, chip_unit: Decimal | None = None) -> list[PhhHand | StudPhhHand | PhhLoadError]:
    """Every hand of a ``.phh`` file (one hand) or a ``.phhs`` file (several,
    TOML tables ``[1]``, ``[2]`` ..., pokerkit's ``HandHistory.load_all``).

    Returns:
        One item per hand in file order: the :class:`PhhHand` (``index`` =
        its table name in a ``.phhs``) or the :class:`PhhLoadError`
        ("bad_spec", ``index`` naming the hand too) saying why that hand
        cannot be read; an unreadable file gives one error.
        Never raises for bad data (an unreadable path raises OSError).
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    several = path.suffix == ".phhs"
    hands: list[PhhHand | StudPhhHand | PhhLoadError] = []
    for key, history in phh_toml.histories(text, several):
        if isinstance(history, EngineError):
            message = f"[{key}] {history.message}" if key is not None else history.message
            hands.append(PhhLoadError(history.code, message, key))
            continue
        try:
            hands.append(dataclasses.replace(hand_from_history(history, str(path), chip_unit), index=key))
        except EngineError as exc:
            hands.append(PhhLoadError(exc.code, f"[{key}] {exc.message}" if key else exc.message, key))
    return hands


def hand_from_history(
    history: HandHistory, source: str | None = None, chip_unit: Decimal | None = None
) -> PhhHand | StudPhhHand:
    """Our :class:`PhhHand` of a pokerkit ``HandHistory`` (a
    :class:`.phh_stud.StudPhhHand` for ``F7S``, ``FR``, ``F7S/8``).

    ``chip_unit``: the amount that is one chip; None takes the hand's own:
    ``10 ** -d`` where ``d`` is the largest number of decimal places written
    in any amount (stacks, forced bets, ``cbr`` amounts, winnings; ``0.50``
    has 2), 1 for a hand of whole amounts.

    Raises:
        EngineError("bad_spec") for a variant other than ``NT``, ``PO``,
        ``FT``, ``F7S``, ``FR``, ``F7S/8``, or missing or malformed amounts (one that is not a multiple
        of ``chip_unit``).
    """
    variant = history.variant
    if variant in STUD_VARIANTS:
        return stud_hand_from_history(history, source, chip_unit)
    if variant not in VARIANTS:
        raise EngineError(
            "bad_spec",
            f"Supported variants are {', '.join([*VARIANTS, *STUD_VARIANTS])} (NLHE, PLO, limit Hold'em, "
            f"stud, razz, stud eight-or-better), got {variant!r}.",
        )
    min_bet = history.small_bet if variant == "FT" else history.min_bet
    if min_bet is None:
        raise EngineError("bad_spec", f"PHH field {'small_bet' if variant == 'FT' else 'min_bet'!r} is missing.")
    if variant == "FT" and history.big_bet is None:
        raise EngineError("bad_spec", "PHH field 'big_bet' is missing.")
    blinds = history.blinds_or_straddles
    actions = tuple(str(a) for a in history.actions)
    if chip_unit is None:
        amounts: list[Any] = [min_bet, history.big_bet, *cbr_amounts(actions)]
        for many in (history.antes, blinds, history.starting_stacks, history.finishing_stacks, history.winnings):
            if isinstance(many, (list, tuple)):
                amounts.extend(many)
            elif many is not None:
                amounts.append(many)
        chip_unit = Decimal(1).scaleb(-max(map(places, amounts), default=0))
    elif chip_unit <= 0:
        raise EngineError("bad_spec", f"The chip unit must be positive, got {chip_unit}.")
    unit = chip_unit
    stacks = tuple(chips(v, "starting_stacks", unit) for v in history.starting_stacks)
    n = len(stacks)
    finishing = history.finishing_stacks
    winnings = history.winnings
    extra = {name: value for name in _EXTRA_FIELDS if (value := getattr(history, name)) is not None}
    extra |= history.user_defined_fields
    return PhhHand(
        antes=values(history.antes, n, "antes", unit),
        blinds_or_straddles=values(0 if blinds is None else blinds, n, "blinds_or_straddles", unit),
        min_bet=chips(min_bet, "min_bet", unit),
        starting_stacks=stacks,
        actions=tuple(scale_action(a, unit) for a in actions) if unit != 1 else actions,
        ante_trimming_status=bool(history.ante_trimming_status),
        finishing_stacks=None if finishing is None else tuple(chips(v, "finishing_stacks", unit) for v in finishing),
        players=None if history.players is None else tuple(str(p) for p in history.players),
        seats=None if history.seats is None else tuple(int(s) for s in history.seats),
        extra=extra,
        source=source,
        variant=variant,
        big_bet=chips(history.big_bet, "big_bet", unit) if variant == "FT" else None,
        winnings=None if winnings is None else tuple(chips(v, "winnings", unit) for v in winnings),
        chip_unit=unit,
    )


def translate_action(state: HandState, text: str, seats: tuple[int, ...] | None = None) -> dict | None:
    """Translate one PHH action string into an engine action dict.

    Args:
        state: the state the action applies to ('cc' and 'cbr' depend on it).
        text: e.g. ``"p3 cbr 600"``; a trailing ``# comment`` is ignored.
        seats: table seat per position (default ``state.spec``'s seats).

    Returns:
        The action dict, or None for a pure comment / no-op.

    Raises:
        EngineError("bad_action") for actions this engine cannot express
        (draws, bring-ins, unknown words, bad player labels).
    """
    body, _, comment = text.partition("#")
    words = body.split()
    spec = state.spec
    if seats is None:
        seats = tuple(s.seat for s in spec.seats)
    if not words:
        extension = comment.split()
        if extension[:1] == ["award"] and len(extension) >= 3:
            labels = extension[2:]
            action: dict[str, Any] = {"type": "award", "pot": int(extension[1])}
            if "/" in labels:
                cut = labels.index("/")
                action["winners2"] = [seat_of_label(w, seats, text) for w in labels[cut + 1 :]]
                labels = labels[:cut]
            action["winners"] = [seat_of_label(w, seats, text) for w in labels]
            return action
        if extension[:2] == ["board", "2"] and len(extension) == 3:
            cards = extension[2]
            return {"type": "board", "board": 2, "cards": "" if set(cards) <= {"?"} else cards}
        if extension[:1] == ["run_it_twice"]:
            action = {"type": "run_it_twice", "pots": [], "agreed": [], "floor": "floor" in extension}
            target = None
            for word in extension[1:]:
                if word in ("pots", "agreed"):
                    target = word
                elif word != "floor" and target == "pots":
                    action["pots"].append(int(word))
                elif word != "floor" and target == "agreed":
                    action["agreed"].append(seat_of_label(word, seats, text))
            return action
        return None
    match words:
        case ["d", "dh", player, cards]:
            return {"type": "hole", "seat": seat_of_label(player, seats, text), "cards": cards}
        case ["d", "db", cards]:
            return {"type": "board", "cards": "" if set(cards) <= {"?"} else cards}
        case [player, "f"]:
            return {"type": "fold", "seat": seat_of_label(player, seats, text)}
        case [player, "cc"]:
            s = seat_of_label(player, seats, text)
            pos = spec.position_of(s)
            due = state.phase == "betting" and state.bets[pos] < max(state.bets)
            return {"type": "call" if due else "check", "seat": s}
        case [player, "cbr", amount]:
            value = parse_amount(amount, text)
            kind = "raise" if state.phase == "betting" and max(state.bets) else "bet"
            try:
                to = chips(value, "cbr")
            except EngineError as exc:
                raise EngineError("bad_action", f"{exc.message} ({text!r})") from None
            return {"type": kind, "seat": seat_of_label(player, seats, text), "to": to}
        case [player, "sm"]:
            return {"type": "muck", "seat": seat_of_label(player, seats, text)}
        case [player, "sm", "-"]:
            return {"type": "show", "seat": seat_of_label(player, seats, text)}
        case [player, "sm", cards]:
            seat = seat_of_label(player, seats, text)
            if "?" not in cards:
                return {"type": "show", "seat": seat, "cards": cards}
            return show_unknown(state, seat, cards)
    raise EngineError("bad_action", f"Cannot translate PHH action {text!r} for {spec.game}.")


def _repair(state: HandState, action: dict, seats: tuple[int, ...]) -> tuple[HandState, list[str]]:
    """Insert checks/folds for players skipped before ``action`` (pokerkit's
    HandHistory repair), returning the new state and the inserted actions."""
    inserted = []
    target = action.get("seat")
    while (
        state.phase == "betting"
        and action["type"] in ("fold", "check", "call", "bet", "raise", "all_in")
        and state.to_act_seat != target
    ):
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
        state = HandState.start(spec)
    except EngineError as exc:
        return ReplayResult(False, None, None, f"{exc.code}: {exc.message}", exc.code, None)
    expected = hand.finishing_stacks
    seats = hand.seat_numbers()
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
    unchecked: list[str] = []
    if state.phase == "showdown" and hand.winnings is not None:
        # hole cards unknown: award the open pots as the recorded winnings say
        try:
            for action in awards_from_winnings(state, hand.winnings):
                state = state.apply(action)
                unchecked.append(
                    f"who won pot {action['pot']}: hole cards unknown, awarded as the recorded winnings say"
                )
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
    checked = []
    if expected is not None:
        checked.append("finishing_stacks")
        if tuple(expected) != actual:
            return ReplayResult(
                False,
                expected,
                actual,
                f"mismatch: finishing_stacks {list(expected)} but the replay gives {list(actual)}",
                "mismatch",
                state,
                tuple(repairs),
                tuple(checked),
                tuple(unchecked),
            )
    if hand.winnings is not None:
        checked.append("winnings")
        won = collected(state, before)
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
    return ReplayResult(True, expected, actual, None, None, state, (), tuple(checked), tuple(unchecked))


# ---------------------------------------------------------------- export
def export_phh(spec: HandSpec, history: Iterable[dict], **metadata: Any) -> str:
    """Write a hand as PHH TOML text.

    Args:
        spec: the :class:`HandSpec`.
        history: the engine actions (``HandState.history``); they are
            replayed to translate them (e.g. ``all_in`` -> ``cc``/``cbr``).
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
    for action in history:
        kind = action.get("type")
        if kind == "hole":
            cards = parse_cards(action.get("cards") or UNKNOWN * spec.hole_count)
            actions.append(f"d dh {label[action['seat']]} {''.join(cards)}")
        elif kind == "board":
            count = state.board_cards_due
            cards = parse_cards(action.get("cards") or "") or (UNKNOWN,) * count
            if state.next_board == 2:
                actions.append(f"# board 2 {''.join(cards)}")
            else:
                actions.append(f"d db {''.join(cards)}")
        elif kind == "run_it_twice":
            pots = action.get("pots")
            if pots is None:
                pots = range(len(state.pots))
            agreed = " ".join(label[s] for s in action.get("agreed", ()))
            floor = " floor" if action.get("floor") else ""
            actions.append(f"# run_it_twice pots {' '.join(map(str, pots))} agreed {agreed}{floor}")
        elif kind == "fold":
            actions.append(f"{label[action['seat']]} f")
        elif kind in ("check", "call"):
            actions.append(f"{label[action['seat']]} cc")
        elif kind in ("bet", "raise"):
            actions.append(f"{label[action['seat']]} cbr {action['to']}")
        elif kind == "all_in":
            pos = spec.position_of(action["seat"])
            total = state.stacks[pos] + state.bets[pos]
            if total <= max(state.bets):
                actions.append(f"{label[action['seat']]} cc")
            else:
                actions.append(f"{label[action['seat']]} cbr {total}")
        elif kind == "show":
            shown = action.get("cards")
            actions.append(f"{label[action['seat']]} sm {''.join(parse_cards(shown)) if shown else '-'}")
        elif kind == "muck":
            actions.append(f"{label[action['seat']]} sm")
        elif kind == "award":
            second = action.get("winners2")
            tail = "" if second is None else " / " + " ".join(label[s] for s in second)
            actions.append("# award {} {}{}".format(action["pot"], " ".join(label[s] for s in action["winners"]), tail))
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


def spec_from_phh(hand: PhhHand) -> HandSpec:
    """Spec of a PHH hand with the rules and button stored by
    :func:`export_phh` (same as ``hand.spec()``)."""
    return hand.spec()
