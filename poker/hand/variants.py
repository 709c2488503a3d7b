"""The games the engine deals, described as data: one :class:`Variant` value per game.

The one hand state machine (:class:`~poker.hand.state.HandState`) reads its game from the spec
(``spec.game_variant``, a :class:`Variant`) and does what the value says: which cards each
street deals (down, up, on the board), which streets are bet at the small or the big bet of a
fixed limit, who is forced to bet (blinds and straddles, or antes and a bring-in), who opens a
round (left of the largest blind / the first player left of the button, or the lowest door card
/ the best hand showing), the betting structure, and how the showdown divides a pot (high, ace-
to-five low, high-low eight or better). Like pokerkit's ``State``, which takes a variant as its
streets, forced bets and automations (``pokerkit.state.Street``), there is no second engine per
game.

Sources: 000 Einsätze 2 / Aktionen 3 (split, pot and no limit; the small bet on the first two
streets, the big bet after), 000 Allgemein 8 (Seven Card Stud), 004 #54 (pot limit). Razz and
stud eight-or-better follow pokerkit 0.7.7 (``FixedLimitRazz``,
``FixedLimitSevenCardStudHighLowSplitEightOrBetter``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .records import ActionType

__all__ = ["Street", "Variant", "VARIANTS", "FLOP_ACTIONS", "STUD_ACTIONS", "variant_of"]


@dataclass(frozen=True, slots=True)
class Street:
    """One street of a game.

    Fields:
        name: ``"preflop"``, ``"flop"`` ... or ``"third"`` ... ``"seventh"``.
        down: cards each player gets face down at the start of the street.
        up: cards each player gets face up.
        board: community cards dealt (the flop's three, or stud's community card when the stub
            runs out: 0 here, see :func:`.stud_spec.community_card_needed`).
        big_bet: fixed limit: the street is bet at the big bet (else the small bet).
    """

    name: str
    down: int
    up: int
    board: int
    big_bet: bool


#: The actions of the flop games (hole and board cards, run it twice, the floor's award): the
#: :class:`~.records.ActionType` members (strings: ``"fold" in FLOP_ACTIONS``).
FLOP_ACTIONS = frozenset(ActionType) - {ActionType.DEAL, ActionType.BRING_IN, ActionType.COMPLETE}
#: The actions of the stud games (a deal per street, the bring-in and the completion).
STUD_ACTIONS = frozenset(ActionType) - {
    ActionType.HOLE,
    ActionType.BOARD,
    ActionType.RUN_IT_TWICE,
    ActionType.FLOOR_AWARD,
}


@dataclass(frozen=True)
class Variant:
    """A game as data.

    Fields:
        name: the engine's name (``HandSpec.game``, or ``StudSpec.variant``).
        phh: the PHH variant code (``"NT"``, ``"PO"``, ``"FT"``, ``"F7S"``, ``"FR"``, ``"F7S/8"``).
        streets: the :class:`Street` values in order (index = the state's street number).
        structure: ``"no_limit"``, ``"pot_limit"`` or ``"fixed_limit"``.
        forced: ``"blinds"`` (blinds, straddles, antes; the first round opens left of the largest
            blind, later ones left of the button) or ``"bring_in"`` (antes; the lowest door card
            brings in or completes, from the second street the best hand showing acts first).
        showdown: ``"high"`` (the best five cards; Omaha two hole and three board cards: the
            evaluator reads :attr:`name`), ``"low"`` (ace-to-five, razz) or ``"hilo8"`` (high
            and an eight-or-better low, half each); the division of a stud pot reads
            :attr:`high` and :attr:`low`, which say the same.
        deal_phase: the state's phase while the dealer owes the next street: ``"board"`` (flop
            games: the ``board`` action) or ``"deal"`` (stud: the ``deal`` action).
        actions: the action types the game takes (:data:`FLOP_ACTIONS`, :data:`STUD_ACTIONS`).
        ace_low: the cards rank ace low for the bring-in and the hands showing (razz).
        low_brings_in: the lowest door card brings in (stud, stud8); False: the highest (razz).
        low_showing_acts: from the second street the lowest hand showing acts first (razz).
        high: the best high hand wins (all, or half with a low half).
        low: None, ``"any"`` (every hand has a low: razz) or ``"eight"`` (five cards eight or
            lower; none qualifies: the high hand takes all).
        open_pair: the fourth-street open pair may open at the big bet (000 Aktionen 3).
    """

    name: str
    phh: str
    streets: tuple[Street, ...]
    structure: str
    forced: str
    showdown: str
    deal_phase: str
    actions: frozenset[str]
    ace_low: bool = False
    low_brings_in: bool = True
    low_showing_acts: bool = False
    high: bool = True
    low: str | None = None
    open_pair: bool = False
    #: the names of :attr:`streets`, in order (derived)
    street_names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "street_names", tuple(s.name for s in self.streets))

    @property
    def bring_in(self) -> bool:
        """True for the games with antes and a bring-in (stud, razz, stud8)."""
        return self.forced == "bring_in"

    @property
    def hole_cards(self) -> int:
        """Cards each player holds at the end (down and up)."""
        return sum(s.down + s.up for s in self.streets)

    @property
    def last_street(self) -> int:
        """Index of the last street (the showdown follows its betting)."""
        return len(self.streets) - 1

    def up_indexes(self) -> tuple[int, ...]:
        """Indexes, in a player's cards in the order dealt, of the cards dealt face up."""
        out: list[int] = []
        k = 0
        for street in self.streets:
            k += street.down
            out.extend(range(k, k + street.up))
            k += street.up
        return tuple(out)


def _flop_streets(hole: int) -> tuple[Street, ...]:
    return (
        Street("preflop", hole, 0, 0, False),
        Street("flop", 0, 0, 3, False),
        Street("turn", 0, 0, 1, True),
        Street("river", 0, 0, 1, True),
    )


_STUD_STREETS = (
    Street("third", 2, 1, 0, False),
    Street("fourth", 0, 1, 0, False),
    Street("fifth", 0, 1, 0, True),
    Street("sixth", 0, 1, 0, True),
    Street("seventh", 1, 0, 0, True),
)


def _flop(name: str, phh: str, hole: int, structure: str) -> Variant:
    return Variant(name, phh, _flop_streets(hole), structure, "blinds", "high", "board", FLOP_ACTIONS)


#: Every game by its engine name: the flop games (``HandSpec.game``) and the stud games
#: (``StudSpec.variant``).
VARIANTS: dict[str, Variant] = {
    "nlhe": _flop("nlhe", "NT", 2, "no_limit"),
    "plo": _flop("plo", "PO", 4, "pot_limit"),
    "limit_holdem": _flop("limit_holdem", "FT", 2, "fixed_limit"),
    "stud": Variant(
        "stud", "F7S", _STUD_STREETS, "fixed_limit", "bring_in", "high", "deal", STUD_ACTIONS, open_pair=True
    ),
    "razz": Variant(
        "razz",
        "FR",
        _STUD_STREETS,
        "fixed_limit",
        "bring_in",
        "low",
        "deal",
        STUD_ACTIONS,
        ace_low=True,
        low_brings_in=False,
        low_showing_acts=True,
        high=False,
        low="any",
    ),
    "stud8": Variant(
        "stud8",
        "F7S/8",
        _STUD_STREETS,
        "fixed_limit",
        "bring_in",
        "hilo8",
        "deal",
        STUD_ACTIONS,
        low="eight",
        open_pair=True,
    ),
}


def variant_of(name: str) -> Variant:
    """The :class:`Variant` named ``name`` (a key of :data:`VARIANTS`). Raises KeyError."""
    return VARIANTS[name]
