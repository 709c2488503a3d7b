"""Seven Card Stud: the hand specification and the card rules of the deal.

Standard library only (cards as strings, see :mod:`.cards`). Used by
:mod:`.stud` (the state machine).

Sources:

- 000 Allgemein 8 (casino cash-game rulebook): "Bei Seven Card Stud geht die
  Spitze an jenen Spielteilnehmer, der die höchste Karte (inkl.
  Farbenpriorität) in seinem Blatt hat" (:func:`high_card_key`); a pot is
  split only down to the ante ("bzw. des Ante").
- 000 Einsätze 2 / Aktionen 3: split (fixed) limit, three raises per round,
  no cap when only two players are left; with an open pair on fourth street
  the round may be opened at the upper limit (:func:`has_open_pair`).
- Bring-in by the lowest up card, suits ranked clubs, diamonds, hearts,
  spades (:func:`bring_in_position`); from fourth street the best hand
  showing acts first, a tie goes to the player dealt first
  (:func:`best_showing_position`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from .cards import RANKS, SUITS, UNKNOWN
from .checks import is_int
from .errors import EngineError
from .rules import Rules
from .seats import SeatIndex, SeatSpec
from .spec import HandSpec
from .variants import VARIANTS, Variant

__all__ = [
    "StudSpec",
    "StudGame",
    "STUD_GAMES",
    "STUD_STREETS",
    "ODD_CHIP_RULES",
    "card_key",
    "high_card_key",
    "bring_in_position",
    "best_showing_position",
    "showing_rank",
    "has_open_pair",
    "community_card_needed",
    "DECK_SIZE",
    "load_spec",
]


#: A stud game as data: the :class:`~.variants.Variant` of its name (``ace_low``,
#: ``low_brings_in``, ``low_showing_acts``, ``high``, ``low``, ``open_pair``; the house
#: rulebooks (000) describe Seven Card Stud only, razz and stud eight-or-better follow pokerkit).
StudGame = Variant


#: The stud games by ``StudSpec.variant``.
STUD_GAMES = {name: VARIANTS[name] for name in ("stud", "razz", "stud8")}

#: The streets of a stud hand, in order (index = the state's street number).
STUD_STREETS = STUD_GAMES["stud"].street_names
#: How the odd chip of a split pot is given: ``"high_card"`` (000 Allgemein 8:
#: the winner with the highest card, suits counting) or ``"position"`` (the
#: first winner in deal order, as pokerkit does; for the differential tests).
ODD_CHIP_RULES = ("high_card", "position")
DECK_SIZE = 52
MAX_PLAYERS = 8


def card_key(card: str, ace_low: bool = False) -> tuple[int, int]:
    """Order of single cards: rank (2 lowest, ace highest; ``ace_low``: ace
    lowest), then suit (clubs < diamonds < hearts < spades). ``card`` must
    be known."""
    rank = RANKS.index(card[0])
    return (-1 if ace_low and card[0] == "A" else rank), SUITS.index(card[1])


def high_card_key(cards: Sequence[str]) -> tuple[int, int]:
    """The highest known card of ``cards`` by :func:`card_key` ((-1, -1)
    when none is known): the odd chip of a split pot goes to the winner
    whose hand ("Blatt") holds the highest card, suits counting (000
    Allgemein 8). Read as all of the player's own seven cards, down and up;
    a community card is every winner's and does not decide."""
    known = [c for c in cards if c != UNKNOWN]
    return max((card_key(c) for c in known), default=(-1, -1))


def bring_in_position(door_cards: Sequence[str | None], game: StudGame | None = None) -> int | None:
    """Position that brings in on third street: the lowest up card, suits
    ranked clubs < diamonds < hearts < spades (ace high).

    Args:
        door_cards: per position the up card, None for a player not in
            the hand.
        game: razz (:data:`STUD_GAMES`): the highest up card, ace low,
            brings in, a tie to the higher suit.

    Returns:
        The position, or None when an up card of a player in the hand is
        unknown (the dealer names the bring-in then).
    """
    live = [(p, c) for p, c in enumerate(door_cards) if c is not None]
    if any(c == UNKNOWN for _, c in live):
        return None
    if game is not None and not game.low_brings_in:  # razz: the highest card, ace low, spades highest
        return max(live, key=lambda pc: card_key(pc[1], ace_low=True))[0]
    return min(live, key=lambda pc: card_key(pc[1]))[0]


def showing_rank(up_cards: Sequence[str], ace_low: bool = False) -> tuple:
    """Strength of the cards showing (fourth street on): four of a kind,
    three of a kind, two pair, one pair, high card; then the ranks of the
    groups and the kickers, high to low. Straights and flushes do not count,
    nor suits (a tie is broken by position, see :func:`best_showing_position`).
    ``ace_low``: an ace ranks below the deuce (razz)."""
    counts = Counter(-1 if ace_low and c[0] == "A" else RANKS.index(c[0]) for c in up_cards)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = sorted(counts.values(), reverse=True) + [0]
    if shape[0] >= 2:
        category = {4: 5, 3: 4}.get(shape[0], 3 if shape[1] == 2 else 2)
    else:
        category = 1
    return (category, tuple(r for r, _ in groups))


def best_showing_position(up_cards: Sequence[Sequence[str] | None], game: StudGame | None = None) -> int | None:
    """Position that acts first from fourth street: the best hand showing
    (:func:`showing_rank`), a tie to the player dealt first (the lowest
    position).

    Args:
        up_cards: per position the up cards, None for a player out of the
            hand.

        game: razz (:data:`STUD_GAMES`): the LOWEST hand showing, ace low
            (pairs are high), acts first.

    Returns:
        The position, or None when an up card of a player in the hand is
        unknown (the dealer names who acts first then).
    """
    live = [(p, cards) for p, cards in enumerate(up_cards) if cards is not None]
    if any(UNKNOWN in cards for _, cards in live):
        return None
    low = game is not None and game.low_showing_acts
    ranks = [(p, showing_rank(cards, ace_low=low)) for p, cards in live]
    best = (min if low else max)(r for _, r in ranks)
    return next(p for p, r in ranks if r == best)


def has_open_pair(up_cards: Sequence[Sequence[str] | None]) -> bool:
    """True when a player in the hand shows a pair among his up cards (the
    fourth-street rule of 000 Aktionen 3: the round may be opened at the
    upper limit)."""
    for cards in up_cards:
        if cards is None:
            continue
        ranks = [c[0] for c in cards if c != UNKNOWN]
        if len(ranks) != len(set(ranks)):
            return True
    return False


def community_card_needed(cards_out: int, players: int) -> tuple[bool, bool]:
    """Whether seventh street is a community card, and whether a card is
    burnt before it.

    Args:
        cards_out: cards dealt so far, burnt cards included.
        players: players still in the hand.

    Returns:
        ``(community, burn)``: when the stub holds fewer cards than players
        in the hand, the dealer turns one card face up in the middle that
        every player uses as his seventh card, burning one before when at
        least two are left; when it holds exactly one card per player, each
        player gets his card without a burn; else a burn and a card each
        (pokerkit 0.7.7 decides the community card the same way).
    """
    left = DECK_SIZE - cards_out
    if left < players:
        return True, left >= 2
    return False, left > players


@dataclass(frozen=True)
class StudSpec(SeatIndex):
    """Everything fixed before the first card of a Seven Card Stud hand.

    Fields:
        seats: players dealt in, 2 to 8, in DEAL order: index 0 is the
            first player left of the dealer (a tie of the hands showing goes
            to the lower index).
        ante: chips every player antes (>= 0; a short stack antes all it
            has). Antes are dead money in the main pot.
        bring_in: the bring-in in chips (> 0, less than ``small_bet``).
        small_bet: the lower limit, third and fourth street (> 0).
        big_bet: the upper limit, fifth to seventh street (default twice the
            small bet; at least the small bet).
        rules: the house rules (:class:`Rules`): ``limit_raise_cap`` (raises
            after the completion or bet, 000 Aktionen 3),
            ``limit_cap_lifted_heads_up``, ``odd_chip_unit`` ("small_blind":
            pots split only down to the ante, 000 Allgemein 8).
        dealer_seat: table seat of the dealer position (informational).
        odd_chip: one of :data:`ODD_CHIP_RULES` (default ``"high_card"``,
            000 Allgemein 8).
        variant: the game, a key of :data:`STUD_GAMES`: ``"stud"`` (Seven
            Card Stud, default), ``"razz"``, ``"stud8"`` (eight or better).
        open_pair_big_bet: True (000 Aktionen 3): with an open pair on
            fourth street a bet or raise may be the small or the big bet
            until a big one is made.

    Raises:
        EngineError("bad_spec") for fewer than 2 or more than 8 players,
        repeated seats, non-positive stacks, or limits out of order.
    """

    seats: tuple[SeatSpec, ...]
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int | None = None
    rules: Rules = field(default_factory=Rules)
    dealer_seat: int | None = None
    odd_chip: str = "high_card"
    open_pair_big_bet: bool = True
    variant: str = "stud"

    #: the game has antes and a bring-in; the index of its last street (seventh)
    _stud: ClassVar[bool] = STUD_GAMES["stud"].bring_in
    _last_street: ClassVar[int] = STUD_GAMES["stud"].last_street

    if TYPE_CHECKING:
        # Derived in __post_init__; not dataclass fields at run time (the names HandSpec derives).
        game_variant: Variant = field(init=False)
        _structure: str = field(init=False)
        _posts: tuple[tuple[int, int], ...] = field(init=False)
        _pl_credit_on: bool = field(init=False)
        _bet_unit: int = field(init=False)
        _betting_from: int = field(init=False)
        _hole_count: int = field(init=False)
        _pk_reopen: bool = field(init=False)
        _caller_may_reraise: bool = field(init=False)
        _min_raise_plain: bool = field(init=False)  # always False: a fixed limit game
        _seat_pos: dict[int, int] = field(init=False)  # table seat -> position

    def __post_init__(self) -> None:
        seats = tuple(self.seats)
        if not 2 <= len(seats) <= MAX_PLAYERS:
            raise EngineError("bad_spec", f"Seven Card Stud deals 2 to {MAX_PLAYERS} players, not {len(seats)}.")
        for s in seats:
            if not isinstance(s, SeatSpec) or not is_int(s.seat) or not is_int(s.stack) or s.stack <= 0:
                raise EngineError("bad_spec", f"Each seat must be a SeatSpec with a positive stack, got {s!r}.")
        if len({s.seat for s in seats}) != len(seats):
            raise EngineError("bad_spec", "A table seat number appears twice.")
        big = 2 * self.small_bet if self.big_bet is None and is_int(self.small_bet) else self.big_bet
        values = {"ante": self.ante, "bring_in": self.bring_in, "small_bet": self.small_bet, "big_bet": big}
        for name, value in values.items():
            if not is_int(value) or value < 0:
                raise EngineError("bad_spec", f"{name} must be a non-negative int, got {value!r}.")
        assert big is not None
        if not 0 < self.bring_in < self.small_bet <= big:
            raise EngineError(
                "bad_spec",
                f"Limits must be 0 < bring-in < small bet <= big bet, got {self.bring_in}/{self.small_bet}/{big}.",
            )
        if not isinstance(self.rules, Rules):
            raise EngineError("bad_spec", "rules must be a Rules instance.")
        if self.variant not in STUD_GAMES:
            raise EngineError("bad_spec", f"variant must be one of {', '.join(STUD_GAMES)}, got {self.variant!r}.")
        if self.odd_chip not in ODD_CHIP_RULES:
            raise EngineError("bad_spec", f"odd_chip must be one of {', '.join(ODD_CHIP_RULES)}.")
        # what the one hand state reads of any spec (:class:`HandSpec` derives the same names)
        self.__dict__.update(
            seats=seats,
            big_bet=big,
            game_variant=STUD_GAMES[self.variant],
            _structure="fixed_limit",
            _posts=(),
            _pl_credit_on=False,
            _bet_unit=1,
            _betting_from=0,
            _hole_count=STUD_GAMES[self.variant].hole_cards,
            _pk_reopen=True,  # pokerkit's FixedLimitSevenCardStud (000 Aktionen 5)
            _caller_may_reraise=True,
            _min_raise_plain=False,
            _seat_pos={s.seat: i for i, s in enumerate(seats)},
        )

    @property
    def game(self) -> str:
        """Always ``"stud"`` (the family; :attr:`variant` names the game)."""
        return "stud"

    @property
    def structure(self) -> str:
        """Always ``"fixed_limit"`` (the stud games are played at a fixed limit, 000 Einsätze 2)."""
        return "fixed_limit"

    @property
    def stud_game(self) -> Variant:
        """The :class:`~.variants.Variant` of :attr:`variant` (also :attr:`game_variant`)."""
        return self.game_variant

    @property
    def split_unit(self) -> int:
        """Chips a split pot is divided down to: the ante with the house
        rule ``odd_chip_unit == "small_blind"`` (000 Allgemein 8 "bzw. des
        Ante"), else 1."""
        return (self.ante or 1) if self.rules.odd_chip_unit == "small_blind" else 1

    @property
    def raise_cap(self) -> int | None:
        """Completions, bets and raises allowed per round (the bet plus
        ``rules.limit_raise_cap`` raises), None = no cap."""
        cap = self.rules.limit_raise_cap
        return None if cap is None else cap + 1

    def bet_size(self, street: int) -> int:
        """The fixed bet of street ``street`` (0 = third ... 4 = seventh):
        the small bet on third and fourth street, the big bet after (the
        game's streets: ``Street.big_bet``)."""
        assert self.big_bet is not None
        return self.big_bet if self.game_variant.streets[street].big_bet else self.small_bet

    def to_dict(self) -> dict:
        """JSON-serialisable form (``game`` is ``"stud"``)."""
        return {
            "game": "stud",
            "seats": [{"seat": s.seat, "player": s.player, "stack": s.stack} for s in self.seats],
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "rules": self.rules.to_dict(),
            "dealer_seat": self.dealer_seat,
            "odd_chip": self.odd_chip,
            "open_pair_big_bet": self.open_pair_big_bet,
        } | ({"variant": self.variant} if self.variant != "stud" else {})

    @classmethod
    def standard(
        cls,
        seats: Sequence[SeatSpec],
        dealer: int,
        ante: int,
        bring_in: int,
        small_bet: int,
        big_bet: int | None = None,
        rules: Rules | None = None,
    ) -> StudSpec:
        """Build a spec from table seats in clockwise order.

        Args:
            seats: the players dealt in, in clockwise TABLE order (any start;
                seat numbers increase clockwise).
            dealer: table seat number of the dealer position (the button; it
                may be an empty seat): the deal starts with the first player
                after it, who also acts first on a tie of the hands showing.
            ante, bring_in, small_bet, big_bet, rules: see :class:`StudSpec`.
            Stakes of a table mapped to stud: ``ante`` the table's ante,
            ``bring_in`` its small blind, ``small_bet`` its big blind.

        Returns:
            StudSpec in deal order.

        Raises:
            EngineError("bad_spec") as :class:`StudSpec`.
        """
        ordered = sorted(seats, key=lambda s: (s.seat <= dealer, s.seat))
        return cls(
            seats=tuple(ordered),
            ante=ante,
            bring_in=bring_in,
            small_bet=small_bet,
            big_bet=big_bet,
            rules=rules if rules is not None else Rules(),
            dealer_seat=dealer,
        )

    @classmethod
    def from_dict(cls, data: dict) -> StudSpec:
        """Inverse of :meth:`to_dict`."""
        return cls(
            seats=tuple(SeatSpec(int(s["seat"]), str(s["player"]), int(s["stack"])) for s in data["seats"]),
            ante=int(data["ante"]),
            bring_in=int(data["bring_in"]),
            small_bet=int(data["small_bet"]),
            big_bet=data.get("big_bet"),
            rules=Rules.from_dict(data.get("rules", {})),
            dealer_seat=data.get("dealer_seat"),
            odd_chip=data.get("odd_chip", "high_card"),
            open_pair_big_bet=bool(data.get("open_pair_big_bet", True)),
            variant=str(data.get("variant", "stud")),
        )


def load_spec(data: dict) -> HandSpec | StudSpec:
    """A stored spec (``HandSpec.to_dict`` or ``StudSpec.to_dict``) loaded
    as the right type: ``game == "stud"`` gives a :class:`StudSpec`.

    Raises:
        EngineError("bad_spec") (and KeyError/TypeError/ValueError on
        malformed data, as the two ``from_dict``).
    """
    if data.get("game") == "stud":
        return StudSpec.from_dict(data)
    return HandSpec.from_dict(data)
