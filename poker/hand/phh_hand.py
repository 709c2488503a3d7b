"""A PHH hand of a flop game (No-Limit and Fixed-Limit Hold'em, Pot-Limit Omaha) read:
:class:`PhhHand`, :func:`load_phh`, :func:`load_phh_file`, :func:`hand_from_history` (a stud hand
goes to :mod:`.phh_stud`). See :mod:`.phh` for the format."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from pokerkit import HandHistory

from . import phh_toml
from .errors import EngineError
from .phh_amounts import chips, values
from .phh_fields import PhhPlayers, hand_fields, read_chip_unit
from .phh_records import forced_bets
from .phh_stud import STUD_VARIANTS, StudPhhHand, stud_hand_from_history
from .rules import Rules
from .seats import seat_specs
from .spec import HandSpec

__all__ = [
    "GAME_CODES",
    "VARIANTS",
    "PhhHand",
    "PhhLoadError",
    "hand_from_history",
    "load_phh",
    "load_phh_file",
    "spec_from_phh",
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
#: HandHistory attributes that are settings of pokerkit, not PHH fields.
_NOT_FIELDS = frozenset({"user_defined_fields", "automations", "divmod", "rake", "parse_value"})
#: HandHistory fields that go into ``PhhHand.extra`` when set.
_EXTRA_FIELDS = tuple(f.name for f in dataclasses.fields(HandHistory) if f.name not in _CORE | _NOT_FIELDS)
#: PHH variant code -> HandSpec.game, and back.
VARIANTS = {"NT": "nlhe", "PO": "plo", "FT": "limit_holdem"}
GAME_CODES = {game: code for code, game in VARIANTS.items()}


#: ``Rules()``, built once (Rules is frozen): a spec per replayed hand needs it.
_DEFAULT_RULES = Rules()
#: The user fields of our export that :meth:`PhhHand.spec` reads.
_SPEC_USER_FIELDS = frozenset(
    {
        "_rules",
        "_button_seat",
        "_bomb_pot",
        "_flip",
        "_boards",
        "_run_it_twice_min_pot",
        "_stakes",
        "_straddles",
        "_posts",
    }
)


def _rules_from_phh(data: dict) -> Rules:
    return Rules.from_dict({k: (None if v == "none" else v) for k, v in data.items()})


@dataclass(frozen=True, kw_only=True)
class PhhHand(PhhPlayers):
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

    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    variant: str = "NT"
    big_bet: int | None = None

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
        names, seats = self.names_and_seats()
        extra = self.extra
        if (
            _SPEC_USER_FIELDS.isdisjoint(extra)
            and self.big_bet is None
            and min(self.blinds_or_straddles, default=0) >= 0
        ):
            # no field of our export, no post: nothing special, checked and built in one pass
            plain = HandSpec.from_plain_phh(
                seats,
                names,
                self.starting_stacks,
                self.blinds_or_straddles,
                self.antes,
                self.min_bet,
                self.ante_trimming_status,
                _DEFAULT_RULES if rules is None else rules,
                VARIANTS[self.variant],
            )
            if plain is not None:
                return plain
        blinds, antes, posts = forced_bets(
            self.blinds_or_straddles,
            self.antes,
            self.min_bet,
            seats,
            self.ante_trimming_status,
            extra.get("_posts") or (),
        )
        return HandSpec.from_fields(  # every field given
            seats=seat_specs(seats, names, self.starting_stacks),  # lengths checked equal
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
            straddles=tuple(map(tuple, extra["_straddles"])) if "_straddles" in extra else (),
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
    unit = read_chip_unit(history, actions, [min_bet, history.big_bet], chip_unit)
    fields = hand_fields(history, actions, unit, source)
    n = len(fields["starting_stacks"])
    extra = {name: value for name in _EXTRA_FIELDS if (value := getattr(history, name)) is not None}
    extra |= history.user_defined_fields
    return PhhHand(
        antes=values(history.antes, n, "antes", unit),
        blinds_or_straddles=values(0 if blinds is None else blinds, n, "blinds_or_straddles", unit),
        min_bet=chips(min_bet, "min_bet", unit),
        extra=extra,
        big_bet=chips(history.big_bet, "big_bet", unit) if variant == "FT" else None,
        **fields,
    )


def spec_from_phh(hand: PhhHand) -> HandSpec:
    """Spec of a PHH hand with the rules and button stored by
    :func:`export_phh` (same as ``hand.spec()``)."""
    return hand.spec()
