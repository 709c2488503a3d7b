"""Hand specification: who is dealt in, forced bets, house rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar

from .checks import is_int
from .errors import EngineError
from .limits import bet_unit_for
from .rules import Rules
from .seats import SeatIndex, SeatSpec, per_position, plain_seats, seat_specs
from .straddles import plan_straddles
from .variants import VARIANTS, Variant

__all__ = ["HandSpec", "GAMES", "HOLE_CARDS"]

#: Flop games the engine plays (:data:`.variants.VARIANTS`): No-Limit Hold'em, Pot-Limit Omaha,
#: split (fixed) limit Hold'em (000 Einsätze 2: "Split Limit / Pot Limit / No Limit").
GAMES = ("nlhe", "plo", "limit_holdem")
#: Hole cards per player by game.
HOLE_CARDS = {game: VARIANTS[game].hole_cards for game in GAMES}
#: Betting structure by game.
STRUCTURE = {game: VARIANTS[game].structure for game in GAMES}


_STACK = attrgetter("stack")
_INTS = {int}


@dataclass(frozen=True)
class HandSpec(SeatIndex):
    """Everything fixed before the first card: players, forced bets, rules.

    Fields:
        seats: players dealt in, in POSITION order like pokerkit/PHH: index 0
            is the small blind (first seat left of the button) ... the last
            index is the button. Heads-up follows pokerkit: position 0 posts
            the big blind and position 1 is the button, who posts the small
            blind and acts first preflop.
        blinds_or_straddles: chips per position as in PHH
            ``blinds_or_straddles`` (e.g. ``(50, 100, 0, 0)``, or
            ``(50, 100, 200, 0)`` with a live straddle by under the gun).
            Heads-up, like pokerkit, entries 0 and 1 are swapped when posted
            (so ``(50, 100)`` still means small blind 50, big blind 100).
        antes: chips per position as in PHH ``antes`` (big blind ante:
            ``(0, 120000, 0, 0, 0)``); heads-up swapped like the blinds.
        min_bet: the minimum bet in chips, normally the big blind.
        ante_trimming: PHH ``ante_trimming_status`` as pokerkit implements
            it: the antes are collected like a betting round, so the part of
            the largest ante above the second largest is returned. When
            False the antes are dead money in the main pot.
        rules: the house-rule profile (:class:`Rules`).
        button_seat: table seat number of the button (informational; may be
            an empty seat).
        game: ``"nlhe"`` (default), ``"plo"`` (Pot-Limit Omaha: four hole
            cards, bets up to the pot, 004 #54; showdown with exactly two
            hole and three board cards) or ``"limit_holdem"`` (split limit,
            000 Einsätze 2 / Aktionen 3: ``min_bet`` is the small bet,
            preflop and flop; ``big_bet`` turn and river).
        big_bet: split limit only: the big bet in chips (default
            ``2 * min_bet``); must be None in the other games.
        bomb_pot: chips every player posts before the deal (000 Allgemein
            14 "Bomb Pot"): no preflop betting, the hand starts on the flop.
            Blinds and antes must be zero. 0 = not a bomb pot.
        flip: chips every player posts (000 Allgemein 14 "Flip"): the whole
            board is dealt without any betting round, then the showdown.
            Blinds and antes must be zero. 0 = not a flip.
        boards: 1, or 2 for a double board (000 Allgemein 14 "Double Board":
            two boards, every pot split equally between them).
        run_it_twice_min_pot: chips that must be in the pot before the
            players may run it twice (000 Aktionen 8 c: "mindestens € 500,-
            im Pot", converted to the table's chips); None = run it twice is
            not offered.
        stakes: ``(small_blind, big_blind)`` of the table in chips, used for
            the chip units (000 Allgemein 8) when the blinds are not posted
            (bomb pot, flip); default: the posted blinds.
        straddles: the straddles applied, ``((kind, seat, amount), ...)``
            with kind ``"live"``, ``"button"`` or ``"mississippi"`` (000
            Aktionen 1); informational, the amounts are in
            ``blinds_or_straddles``.
        posts: live posts ``((seat_number, chips), ...)``: the big blind a
            player owes after a seat change two or more occupied seats away
            from the button (000 Einsätze 4: "muss er das Big Blind
            bringen"). A post is taken from the stack at the start like a
            blind (after the ante; capped by the stack, so a short stack is
            all-in) but it is NOT a straddle: it does not move the preflop
            action (under the gun still acts first), it does not raise the
            amount to call (at most one big blind), and when the action
            comes back to the poster unraised he may check (his post is his
            call, like the big blind's option). The chips are in the pot,
            so in pot limit they count for the pot-size maximum (000
            Einsätze 4: "zählt das nachgebrachte Blind zum Pot"). Empty by
            default.

    An int is accepted for ``blinds_or_straddles``/``antes`` (same for every
    position) and shorter sequences are padded with zeros, as in PHH.

    Raises:
        EngineError("bad_spec") when fewer than 2 players, seat numbers
        repeat, a stack is not a positive int, or amounts are negative;
        for a post that is not ``(seat, chips)`` with chips > 0 and at most
        the big blind, by a seat dealt in that posts no blind or straddle,
        a seat posting twice, or a post in a bomb pot or flip.
    """

    seats: tuple[SeatSpec, ...]
    blinds_or_straddles: tuple[int, ...]
    antes: tuple[int, ...]
    min_bet: int
    ante_trimming: bool = False
    rules: Rules = field(default_factory=Rules)
    button_seat: int | None = None
    game: str = "nlhe"
    big_bet: int | None = None
    bomb_pot: int = 0
    flip: int = 0
    boards: int = 1
    run_it_twice_min_pot: int | None = None
    stakes: tuple | None = None
    straddles: tuple = ()
    posts: tuple = ()

    #: the game has antes and a bring-in (a StudSpec's); the index of its last street
    _stud: ClassVar[bool] = VARIANTS["nlhe"].bring_in
    _last_street: ClassVar[int] = VARIANTS["nlhe"].last_street

    if TYPE_CHECKING:
        # Derived in __post_init__ (object.__setattr__); not dataclass fields at run time.
        _seat_pos: dict[int, int] = field(init=False)  # table seat -> position
        _posts: tuple[tuple[int, int], ...] = field(init=False)  # ((position, chips), ...)
        _bet_unit: int = field(init=False)
        _split_unit: int = field(init=False)
        _hole_count: int = field(init=False)
        _betting_from: int = field(init=False)  # first street with a betting round
        _structure: str = field(init=False)
        _pl_credit_on: bool = field(init=False)
        game_variant: Variant = field(init=False)  # the game as data (:mod:`.variants`)
        _pk_reopen: bool = field(init=False)  # a short all-in reopens as pokerkit 0.7.7 reads it
        _caller_may_reraise: bool = field(init=False)
        # no or pot limit under Rules.min_raise "last_full_raise": the minimum raise-to is the
        # largest bet plus the larger of the last full raise and min_bet (BettingRound._min_to_raw)
        _min_raise_plain: bool = field(init=False)

    @classmethod
    def from_fields(cls, **fields) -> HandSpec:
        """``cls(**fields)`` for a caller that gives EVERY field by name (the PHH replay builds a
        spec per hand): the same spec and the same checks (:meth:`__post_init__`), the fields set
        with one update of the instance dict instead of the frozen ``__init__``'s
        ``object.__setattr__`` per field. Raises EngineError("bad_spec") as the constructor."""
        spec = object.__new__(cls)
        spec.__dict__.update(fields)
        spec.__post_init__()
        return spec

    @classmethod
    def from_plain_phh(
        cls,
        seat_numbers: tuple[int, ...],
        players: tuple[str, ...],
        stacks: tuple[int, ...],
        blinds: tuple[int, ...],
        antes: tuple[int, ...],
        min_bet: int,
        ante_trimming: bool,
        rules: Rules,
        game: str,
    ) -> HandSpec | None:
        """``cls(seats=tuple(map(SeatSpec, seat_numbers, players, stacks)), blinds_or_straddles=blinds,
        antes=antes, min_bet=min_bet, ante_trimming=ante_trimming, rules=rules, game=game)``, every
        other field its default, made and checked in one pass (the PHH replay builds a spec per hand)
        when it is plain: no or pot limit, ``seat_numbers``, ``players`` and ``stacks`` of one length,
        every seat and chip count an int of the sign it must have, the seats distinct, ``blinds``
        and ``antes`` one int per seat. Else None, and nothing is checked: the caller builds the
        spec the ordinary way, whose checks say what is wrong."""
        n = len(seat_numbers)
        if (
            n < 2
            or len(players) != n
            or len(stacks) != n
            or type(min_bet) is not int
            or min_bet <= 0
            or type(rules) is not Rules
            or (game != "nlhe" and game != "plo")
        ):
            return None
        if type(blinds) is not tuple or type(antes) is not tuple or len(blinds) != n or len(antes) != n:
            return None
        forced = blinds + antes  # (one test of both: every value an int, none negative)
        if set(map(type, forced)) != _INTS or min(forced) < 0:
            return None
        seats = seat_specs(seat_numbers, players, stacks)
        if not plain_seats(seats):  # (before the seats are hashed below: each an int)
            return None
        seat_pos = {seat: position for position, seat in enumerate(seat_numbers)}
        if len(seat_pos) != n:
            return None
        spec = object.__new__(cls)
        fields = spec.__dict__
        fields.update(
            seats=seats,
            blinds_or_straddles=blinds,
            antes=antes,
            min_bet=min_bet,
            ante_trimming=bool(ante_trimming),
            rules=rules,
            button_seat=None,
            game=game,
            big_bet=None,
            bomb_pot=0,
            flip=0,
            boards=1,
            run_it_twice_min_pot=None,
            stakes=None,
            straddles=(),
            posts=(),
            _seat_pos=seat_pos,
            _posts=(),
        )
        fields.update(cls._derived(game, rules, blinds[0], blinds[1], max(antes), 0))
        return spec

    def __post_init__(self) -> None:
        seats = tuple(self.seats)
        n = len(seats)
        if n < 2:
            raise EngineError("bad_spec", "At least two players must be dealt in.")
        for s in () if plain_seats(seats) else seats:
            if type(s) is not SeatSpec and not isinstance(s, SeatSpec):
                raise EngineError("bad_spec", f"Seats must be SeatSpec objects, got {s!r}.")
            seat, stack = s.seat, s.stack
            if type(seat) is not int and not is_int(seat):
                raise EngineError("bad_spec", f"Seat number must be an int, got {seat!r}.")
            if (type(stack) is not int and not is_int(stack)) or stack <= 0:
                raise EngineError("bad_spec", f"Seat {seat}: stack must be a positive int, got {stack!r}.")
        seat_pos = {s.seat: i for i, s in enumerate(seats)}
        if len(seat_pos) != n:
            raise EngineError("bad_spec", "A table seat number appears twice.")
        if not is_int(self.min_bet) or self.min_bet <= 0:
            raise EngineError("bad_spec", f"min_bet must be a positive int, got {self.min_bet!r}.")
        if not isinstance(self.rules, Rules):
            raise EngineError("bad_spec", "rules must be a Rules instance.")
        # one update of the instance dict instead of an object.__setattr__ per field (frozen, no slots)
        self.__dict__.update(
            seats=seats,
            blinds_or_straddles=per_position(self.blinds_or_straddles, n, "blinds_or_straddles"),
            antes=per_position(self.antes, n, "antes"),
            ante_trimming=bool(self.ante_trimming),
            _seat_pos=seat_pos,
        )
        self._check_variant()
        self._check_posts()

    def _check_posts(self) -> None:
        """Validate ``posts`` (000 Einsätze 4), store them as
        ``((seat, chips), ...)`` in position order and index them:
        ``_posts`` = ``((position, chips), ...)``."""
        if not self.posts:
            self.__dict__.update(posts=(), _posts=())
            return
        by_pos = {}
        try:
            raw = tuple(tuple(p) for p in self.posts)
        except TypeError:
            raise EngineError("bad_spec", f"posts must be (seat, chips) pairs, got {self.posts!r}.") from None
        if self.bomb_pot or self.flip:
            raise EngineError("bad_spec", "No blinds are posted in a bomb pot or a flip (000 Allgemein 14).")
        big_blind = self.blinds_or_straddles[1] or self.min_bet
        for post in raw:
            if len(post) != 2 or not all(is_int(v) for v in post):
                raise EngineError("bad_spec", f"A post must be (seat, chips) as ints, got {post!r}.")
            seat, amount = post
            pos = self._seat_pos.get(seat)
            if pos is None:
                raise EngineError("bad_spec", f"Post by seat {seat}: nobody is dealt in at that seat.")
            if amount <= 0 or amount > big_blind:
                raise EngineError(
                    "bad_spec",
                    f"Post by seat {seat}: {amount} chips; a post is more than 0 and at most the big blind "
                    f"{big_blind} (000 Einsätze 4).",
                )
            if pos < 2 or self.blinds_or_straddles[pos]:
                raise EngineError(
                    "bad_spec",
                    f"Seat {seat} posts a blind or straddle in this hand and cannot post the big blind too.",
                )
            if pos in by_pos:
                raise EngineError("bad_spec", f"Seat {seat} posts twice.")
            by_pos[pos] = amount
        ordered = tuple(sorted(by_pos.items()))
        object.__setattr__(self, "posts", tuple((self.seats[pos].seat, amount) for pos, amount in ordered))
        object.__setattr__(self, "_posts", ordered)

    def _check_variant(self) -> None:
        """Validate the game and special-format fields and derive the chip
        units (000 Allgemein 8) and the first street with betting."""
        if self.game not in GAMES:
            raise EngineError("bad_spec", f"game must be one of {', '.join(GAMES)}, not {self.game!r}.")
        if self.game == "limit_holdem":
            big = 2 * self.min_bet if self.big_bet is None else self.big_bet
            if not is_int(big) or big < self.min_bet:
                raise EngineError("bad_spec", f"big_bet must be an int of at least the small bet, got {big!r}.")
            object.__setattr__(self, "big_bet", big)
        elif self.big_bet is not None:
            raise EngineError("bad_spec", "big_bet is only for split-limit games.")
        bomb_pot, flip = self.bomb_pot, self.flip
        if bomb_pot or flip or type(bomb_pot) is not int or type(flip) is not int:
            for name in ("bomb_pot", "flip"):
                value = getattr(self, name)
                if not is_int(value) or value < 0:
                    raise EngineError("bad_spec", f"{name} must be a non-negative int, got {value!r}.")
            if bomb_pot and flip:
                raise EngineError("bad_spec", "A hand is either a bomb pot or a flip, not both.")
            if (bomb_pot or flip) and (any(self.blinds_or_straddles) or any(self.antes)):
                raise EngineError(
                    "bad_spec", "Bomb pots and flips have no blinds, straddles or antes (000 Allgemein 14)."
                )
        if self.boards not in (1, 2):
            raise EngineError("bad_spec", f"boards must be 1 or 2, got {self.boards!r}.")
        if self.run_it_twice_min_pot is not None and (
            not is_int(self.run_it_twice_min_pot) or self.run_it_twice_min_pot < 0
        ):
            raise EngineError("bad_spec", "run_it_twice_min_pot must be None or a non-negative int.")
        stakes = self.stakes
        if stakes is not None:
            stakes = tuple(stakes)
            if len(stakes) != 2 or not all(is_int(v) and v >= 0 for v in stakes):
                raise EngineError("bad_spec", f"stakes must be (small_blind, big_blind) chips, got {self.stakes!r}.")
            object.__setattr__(self, "stakes", stakes)
        if self.straddles != ():  # (an empty tuple stays as it is)
            object.__setattr__(self, "straddles", tuple(tuple(s) for s in self.straddles))
        sb, bb = stakes if stakes is not None else self.blinds_or_straddles[:2]
        betting_from = 4 if self.flip else 1 if self.bomb_pot else 0
        self.__dict__.update(self._derived(self.game, self.rules, sb, bb, max(self.antes), betting_from))

    @staticmethod
    def _derived(game: str, rules: Rules, sb: int, bb: int, top_ante: int, betting_from: int) -> dict:
        """The values a spec derives from its game, rules and stakes (small and big blind, the
        largest ante) and its first street with betting: the chip units (000 Allgemein 8), the
        structure, the game as data and the readings of the rules the engine asks per action."""
        base = sb or top_ante or 1
        bet_unit = (
            1
            if rules.bet_unit is None
            else bet_unit_for(rules.bet_unit, sb, bb, rules.bet_unit_big_blind_stakes, top_ante or 1)
        )
        structure = STRUCTURE[game]
        return {
            "_bet_unit": bet_unit,
            "_split_unit": base if rules.odd_chip_unit == "small_blind" else 1,
            "_hole_count": HOLE_CARDS[game],
            "_betting_from": betting_from,
            "_structure": structure,
            "_pl_credit_on": structure == "pot_limit" and rules.pot_limit_preflop_all_in == "counted_full",
            "game_variant": VARIANTS[game],
            "_pk_reopen": rules.short_all_in_reopens == "pokerkit",
            "_caller_may_reraise": rules.short_all_in_caller_may_reraise,
            "_min_raise_plain": structure != "fixed_limit" and rules.min_raise == "last_full_raise",
        }

    # ------------------------------------------------------------------ helpers
    @property
    def player_count(self) -> int:
        """Number of players dealt in."""
        return len(self.seats)

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Stacks at hand start, per position (chips)."""
        return tuple(map(_STACK, self.seats))

    @property
    def hole_count(self) -> int:
        """Hole cards per player (2, or 4 in Omaha)."""
        return self._hole_count

    @property
    def structure(self) -> str:
        """``"no_limit"``, ``"pot_limit"`` or ``"fixed_limit"``."""
        return self._structure

    @property
    def bet_unit(self) -> int:
        """Chip unit every bet or raise-to must be divisible by (000
        Allgemein 8; 1 when ``rules.bet_unit`` is None)."""
        return self._bet_unit

    @property
    def split_unit(self) -> int:
        """Chips a split pot is divided down to (000 Allgemein 8; 1 by
        default)."""
        return self._split_unit

    @property
    def forced_pot(self) -> int:
        """Chips each player posts in a bomb pot or flip (0 otherwise)."""
        return self.bomb_pot or self.flip

    def bet_size(self, street: int) -> int:
        """Split limit: the fixed bet of street 0-3 (small bet preflop and
        flop, big bet turn and river, as the game's streets say: ``Street.big_bet``;
        000 Einsätze 2, Aktionen 3)."""
        big = self.game_variant.streets[street].big_bet
        return self.big_bet if big and self.big_bet is not None else self.min_bet

    def posted_ante(self, position: int) -> int:
        """Ante the player at ``position`` actually posts (chips): the
        specified ante (heads-up: swapped like pokerkit), capped by the stack."""
        n = len(self.seats)
        ante = self.antes[1 - position] if n == 2 else self.antes[position]
        return min(ante, self.seats[position].stack)

    def nominal_blind(self, position: int) -> int:
        """Blind or straddle owed by ``position`` before stack capping
        (heads-up: swapped like pokerkit)."""
        n = len(self.seats)
        return self.blinds_or_straddles[1 - position] if n == 2 else self.blinds_or_straddles[position]

    def posted_blind(self, position: int) -> int:
        """Blind or straddle actually posted: capped by what is left after the
        ante (the ante is posted first, as in pokerkit and TDA big blind ante
        practice)."""
        return min(self.nominal_blind(position), self.seats[position].stack - self.posted_ante(position))

    def posted_post(self, position: int) -> int:
        """Live post (000 Einsätze 4) the player at ``position`` actually
        posts (chips): the specified post capped by what is left after the
        ante; 0 when the position posts none."""
        for pos, amount in self._posts:
            if pos == position:
                return min(amount, self.seats[position].stack - self.posted_ante(position))
        return 0

    def to_dict(self) -> dict:
        """JSON-serialisable form (seats as dicts, rules as a dict).
        ``posts`` (``[[seat, chips], ...]``) is written only when there are
        posts, so specs without posts keep their earlier form."""
        data = {
            "seats": [{"seat": s.seat, "player": s.player, "stack": s.stack} for s in self.seats],
            "blinds_or_straddles": list(self.blinds_or_straddles),
            "antes": list(self.antes),
            "min_bet": self.min_bet,
            "ante_trimming": self.ante_trimming,
            "rules": self.rules.to_dict(),
            "button_seat": self.button_seat,
            "game": self.game,
            "big_bet": self.big_bet,
            "bomb_pot": self.bomb_pot,
            "flip": self.flip,
            "boards": self.boards,
            "run_it_twice_min_pot": self.run_it_twice_min_pot,
            "stakes": None if self.stakes is None else list(self.stakes),
            "straddles": [list(s) for s in self.straddles],
        }
        if self.posts:
            data["posts"] = [list(p) for p in self.posts]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> HandSpec:
        """Inverse of :meth:`to_dict` (dicts without ``posts`` load with no
        posts)."""
        return cls(
            seats=tuple(SeatSpec(int(s["seat"]), str(s["player"]), int(s["stack"])) for s in data["seats"]),
            blinds_or_straddles=tuple(data["blinds_or_straddles"]),
            antes=tuple(data["antes"]),
            min_bet=int(data["min_bet"]),
            ante_trimming=bool(data.get("ante_trimming", False)),
            rules=Rules.from_dict(data.get("rules", {})),
            button_seat=data.get("button_seat"),
            game=data.get("game", "nlhe"),
            big_bet=data.get("big_bet"),
            bomb_pot=int(data.get("bomb_pot", 0)),
            flip=int(data.get("flip", 0)),
            boards=int(data.get("boards", 1)),
            run_it_twice_min_pot=data.get("run_it_twice_min_pot"),
            stakes=None if data.get("stakes") is None else tuple(data["stakes"]),
            straddles=tuple(tuple(s) for s in data.get("straddles", ())),
            posts=data.get("posts") or (),
        )

    # ------------------------------------------------------------ constructor
    @classmethod
    def standard(
        cls,
        seats: Sequence[SeatSpec],
        button: int,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        big_blind_ante: int = 0,
        straddle: int = 0,
        rules: Rules | None = None,
        min_bet: int | None = None,
        ante_trimming: bool = False,
        *,
        game: str = "nlhe",
        big_bet: int | None = None,
        straddles: Sequence = (),
        bomb_pot: int = 0,
        flip: int = 0,
        boards: int = 1,
        run_it_twice_min_pot: int | None = None,
    ) -> HandSpec:
        """Build a spec from table seats in clockwise order.

        Args:
            seats: the players dealt in, in clockwise TABLE order (any start).
            button: table seat number of the button; it may be an empty
                seat (dead button): then the first player clockwise after it
                is found by seat number, which must increase clockwise.
            small_blind, big_blind: blind amounts (chips).
            ante: ante posted by every player (chips).
            big_blind_ante: ante posted by the big blind only (TDA big blind
                ante); it is posted before the blind.
            straddle: live straddle posted by under the gun (the player left
                of the big blind), typically 2 x the big blind; not allowed
                heads-up.
            rules: house rules (default :class:`Rules`).
            min_bet: minimum bet, default the big blind.
            ante_trimming: see :class:`HandSpec`.
            game, big_bet, boards, run_it_twice_min_pot: see :class:`HandSpec`.
            straddles: :class:`~poker.hand.straddles.Straddle` requests
                (live by under the gun and re-straddles, button,
                Mississippi; 000 Aktionen 1), resolved by
                :func:`~poker.hand.straddles.plan_straddles`: a live
                straddle takes precedence, the others are dropped. Not
                together with ``straddle``.
            bomb_pot, flip: chips every player posts instead of blinds and
                antes (000 Allgemein 14); the stakes are kept for the chip
                units.

        Returns:
            HandSpec in position order: first occupied seat clockwise after
            the button = small blind ... button last. Heads-up the button
            posts the small blind and acts first preflop (position 1).

        Raises:
            EngineError("bad_spec") for fewer than 2 seats, a straddle
            heads-up, or invalid amounts.
        """
        seats = list(seats)
        n = len(seats)
        if n < 2:
            raise EngineError("bad_spec", "At least two players must be dealt in.")
        numbers = [s.seat for s in seats]
        if button in numbers:
            start = (numbers.index(button) + 1) % n
        else:
            start = min(range(n), key=lambda i: (numbers[i] - button) % 1000)
        ordered = seats[start:] + seats[:start]
        blinds = [0] * n
        antes = [ante] * n
        blinds[0], blinds[1] = small_blind, big_blind
        # In PHH/pokerkit convention index 1 is always "the big blind's" entry
        # (heads-up the entries are swapped when posted).
        antes[1] += big_blind_ante
        if straddle:
            if n < 3:
                raise EngineError("bad_spec", "A straddle needs at least three players.")
            blinds[2] = straddle
        applied = ()
        if straddles:
            if straddle:
                raise EngineError("bad_spec", "Give either straddle or straddles, not both.")
            plan = plan_straddles([s.seat for s in ordered], big_blind, straddles, rules or Rules())
            for position, amount in plan.amounts.items():
                blinds[position] = amount
            applied = plan.applied
        stakes = None
        if bomb_pot or flip:
            if straddle or straddles:
                raise EngineError("bad_straddle", "No straddles in a bomb pot or a flip (000 Allgemein 14).")
            blinds = [0] * n
            antes = [0] * n
            stakes = (small_blind, big_blind)
        return cls(
            seats=tuple(ordered),
            blinds_or_straddles=tuple(blinds),
            antes=tuple(antes),
            min_bet=big_blind if min_bet is None else min_bet,
            ante_trimming=ante_trimming,
            rules=rules if rules is not None else Rules(),
            button_seat=button,
            game=game,
            big_bet=big_bet,
            bomb_pot=bomb_pot,
            flip=flip,
            boards=boards,
            run_it_twice_min_pot=run_it_twice_min_pot,
            stakes=stakes,
            straddles=applied,
        )
