"""Seven Card Stud, fixed limit: the hand state machine.

Immutable states, actions as plain dicts, like :class:`~poker.hand.state.HandState`
(positions index ``StudSpec.seats`` in deal order; actions name players by
table seat; chip amounts are ints, "to" amounts are a player's total bet on
the street). The dealer enters the cards street by street; a card not
entered is ``"??"`` and the dealer then names who brings in or acts first.

The hand: every player antes; third street two down cards and one up card
(the door card); the lowest up card brings in (suits clubs < diamonds <
hearts < spades) or completes to the small bet; fourth street one up card,
small bet (with an open pair the big bet may be chosen, 000 Aktionen 3);
fifth and sixth street one up card, seventh street one down card, big bet;
from fourth street the best hand showing acts first. When the stub cannot
give every player a seventh card, one community card is turned face up in
the middle. Showdown: best five of the seven cards (pokerkit's
``StandardHighHand``, :func:`~poker.hand.evaluation.hand_strength`), the
odd chip of a split pot to the highest card by suit (000 Allgemein 8).

What both engines share (the fields of a hand, the dispatch of ``apply``, the turn, the end of
a betting round with the uncalled bet returned, mucks, awards and dead hands, the common
queries and the JSON of pots and awards) is :class:`~poker.hand.core.CoreState`'s; this module
and its parts (:mod:`.stud_base`, :mod:`.stud_showdown`) hold only what stud does its own way:
the deal street by street, the bring-in and completion, fixed-limit sizes, the showdown of
seven cards with high/low parts (the games as data: :data:`.stud_spec.STUD_GAMES`).

Betting follows the queue model of :mod:`.betting` and pokerkit's
``FixedLimitSevenCardStud`` (the differential test compares both):
completion and raise sizes, the cap (000 Aktionen 3: three raises, none when
only two players are left), a short all-in that does not reopen the betting
for players who already acted (000 Aktionen 5).

Actions (``StudState.apply``):

- ``{"type": "deal", "cards": {seat: "..."}, "community": "..", "opener": seat}``:
  the next street; third street three cards per seat (down, down, up),
  fourth to sixth one up card, seventh one down card (or ``community``
  when :attr:`StudState.community_due`); a seat left out gets unknown cards;
  ``opener`` names who brings in / acts first when an up card is unknown;
- ``{"type": "bring_in", "seat": S}``; ``{"type": "complete"|"bet"|"raise", "seat": S, "to": N}``;
- ``{"type": "fold"|"check"|"call"|"all_in", "seat": S}``;
- ``{"type": "show", "seat": S, "cards": "..."}`` (all seven cards, down
  and up in the order dealt), ``{"type": "muck", "seat": S}``,
  ``{"type": "award", "pot": i, "winners": [S, ...], "odd_chip": S}``;
- ``{"type": "kill", "seat": S, "reason": "..."}``: the floor declares a
  hand dead, e.g. a player who picks up his up cards in turn (004 #66).
"""

from __future__ import annotations

from .cards import UNKNOWN, parse_cards
from .core import with_flag
from .errors import EngineError
from .spec import HandSpec
from .state import HandState
from .stud_base import StudLegal, split_stud
from .stud_showdown import StudShowdown
from .stud_spec import (
    STUD_STREETS,
    StudSpec,
    best_showing_position,
    bring_in_position,
    community_card_needed,
    has_open_pair,
)

__all__ = ["StudState", "StudLegal", "split_stud", "start_hand"]


class StudState(StudShowdown):
    """One moment of a Seven Card Stud hand. Immutable: :meth:`apply`
    returns a new state. Create with :meth:`StudState.start`."""

    __slots__ = ()

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("Use StudState.start(spec) to create a hand.")

    # ---------------------------------------------------------------- start
    @classmethod
    def start(cls, spec: StudSpec) -> StudState:
        """Start a hand: every player antes (capped by the stack; dead money
        in the main pot); the hand waits for the third-street deal.

        Raises:
            EngineError("bad_spec") if ``spec`` is not a StudSpec.
        """
        if not isinstance(spec, StudSpec):
            raise EngineError("bad_spec", "StudState.start needs a StudSpec.")
        n = len(spec.seats)
        antes = tuple(min(spec.ante, s.stack) for s in spec.seats)
        contrib = antes
        s = cls._new_hand(spec, tuple(seat.stack - a for seat, a in zip(spec.seats, antes)), (0,) * n, contrib, antes)
        s._street = -1
        s._phase = "deal"
        s._down = ((),) * n
        s._up = ((),) * n
        s._community = ()
        s._cards_out = 0
        s._bring_in_due = False
        s._completion = False
        s._short_allins = ()
        s._open_pair = False
        s._opener = None
        return s

    # ----------------------------------------------------------------- deal
    @property
    def community_due(self) -> bool:
        """True when the next deal is seventh street and the stub cannot
        give every player in the hand a card: one community card face up in
        the middle instead."""
        if self._phase != "deal" or self._street != 3:
            return False
        return community_card_needed(self._cards_out, self._folded.count(False))[0]

    @property
    def next_street(self) -> str | None:
        """Name of the street the dealer deals next, or None."""
        return STUD_STREETS[self._street + 1] if self._phase == "deal" else None

    def _do_deal(self, action: dict) -> StudState:
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        if self._phase != "deal":
            raise EngineError("wrong_phase", f"No street is due now (phase {self._phase}).")
        spec = self.spec
        street = self._street + 1
        n = len(spec.seats)
        raw = action.get("cards") or {}
        if not isinstance(raw, dict):
            raise EngineError("bad_cards", "cards must map seat numbers to card strings.")
        per_pos: dict[int, tuple[str, ...]] = {}
        for seat, text in raw.items():
            pos = spec.position_of(int(seat) if isinstance(seat, str) and seat.isdigit() else seat)
            if self._folded[pos]:
                raise EngineError("folded", f"Seat {spec.seat_of(pos)} has folded and gets no cards.")
            per_pos[pos] = parse_cards(text or "")
        community = self.community_due
        burn = True
        if street == 4:
            community, burn = community_card_needed(self._cards_out, self._folded.count(False))
        live = [p for p in range(n) if not self._folded[p]]
        down = list(self._down)
        up = list(self._up)
        new_community = self._community
        count = 3 if street == 0 else 1
        dealt = 0
        if community:
            if per_pos:
                raise EngineError("bad_cards", "Seventh street is one community card: give 'community', not cards.")
            cards = parse_cards(action.get("community") or "") or (UNKNOWN,)
            if len(cards) != 1:
                raise EngineError("bad_cards", "The community card is one card.")
            new_community = cards
            dealt = 1
        else:
            if action.get("community"):
                raise EngineError("bad_cards", "No community card now: every player gets his own card.")
            for p in live:
                cards = per_pos.get(p) or (UNKNOWN,) * count
                if len(cards) != count:
                    raise EngineError(
                        "bad_cards", f"Seat {spec.seat_of(p)}: {count} card(s) on {STUD_STREETS[street]} street."
                    )
                if street == 0:
                    down[p], up[p] = cards[:2], cards[2:]
                elif street == 4:
                    down[p] = down[p] + cards
                else:
                    up[p] = up[p] + cards
            dealt = len(live) * count
        known = [c for p in range(n) for c in down[p] + up[p] if c != UNKNOWN] + [
            c for c in new_community if c != UNKNOWN
        ]
        if len(known) != len(set(known)):
            raise EngineError("duplicate_card", "A card is dealt twice.")
        # who brings in (third street) or acts first (later streets)
        if street == 0:
            computed = bring_in_position([up[p][0] if not self._folded[p] else None for p in range(n)], spec.stud_game)
        else:
            computed = best_showing_position([None if self._folded[p] else up[p] for p in range(n)], spec.stud_game)
        named = action.get("opener")
        opener = computed
        if named is not None:
            pos = spec.position_of(named)
            if self._folded[pos]:
                raise EngineError("folded", f"Seat {named} has folded.")
            if computed is not None and pos != computed:
                raise EngineError(
                    "bad_action",
                    f"The cards showing name seat {spec.seat_of(computed)} "
                    + ("to bring in." if street == 0 else "to act first."),
                )
            opener = pos
        if opener is None:
            raise EngineError(
                "bad_cards",
                "An up card is unknown: name the seat that "
                + ("brings in (opener)." if street == 0 else "acts first (opener)."),
            )
        new = self._copy()
        new._street = street
        new._down = tuple(down)
        new._up = tuple(up)
        new._community = new_community
        new._cards_out = self._cards_out + dealt + (1 if street and burn else 0)
        new._begin_round(opener)
        return new

    def _begin_round(self, opener: int) -> None:
        """Queue the players to act from ``opener`` (mutates a fresh state)."""
        n = len(self._stacks)
        stacks, bets, folded = self._stacks, self._bets, self._folded
        totals = sorted(b + s for b, s, f in zip(bets, stacks, folded) if not f)
        second = totals[-2] if len(totals) > 1 else 0
        self._actors = tuple(
            i
            for i in ((opener + k) % n for k in range(n))
            if not folded[i] and stacks[i] and min(stacks[i], second - bets[i]) > 0
        )
        self._opener = opener
        self._acted = frozenset()
        self._raise_inc = 0
        self._raises = 0
        self._bring_in_due = self._street == 0
        self._completion = self._street == 0
        self._short_allins = ()
        self._open_pair = (
            self._street == 1
            and self.spec.open_pair_big_bet
            and self.spec.stud_game.open_pair
            and has_open_pair([None if folded[p] else self._up[p] for p in range(n)])
        )
        self._aggressor = None
        self._street_acted = False
        self._uncapped = self._lift_cap()
        self._phase = "betting"
        actors = self._actors
        if not actors or folded.count(False) <= 1 or (len(actors) == 1 and bets[actors[0]] >= max(bets)):
            self._end_round()

    # -------------------------------------------------------------- betting
    def _no_bring_in(self) -> None:
        if self._bring_in_due:
            raise EngineError(
                "bad_action",
                f"The lowest up card brings in {self.spec.bring_in} or completes to {self.spec.small_bet}.",
            )

    def _call_amount(self, pos: int) -> int:
        return min(self._stacks[pos], max(self._bets) - self._bets[pos])

    def _raise_block(self, pos: int) -> tuple[str, str] | None:
        """Why ``pos`` may not complete, bet or raise now (code, message), or None."""
        stacks, bets = self._stacks, self._bets
        top = max(bets)
        if not self._bring_in_due and self._call_amount(pos) < self._raise_inc:
            return ("betting_closed", "A short all-in cannot be raised (000 Aktionen 5).")
        cap = self.spec.raise_cap
        if cap is not None and not self._uncapped and self._raises >= cap:
            return ("raise_cap", f"The round is capped: a bet and {cap - 1} raises (000 Aktionen 3); call or fold.")
        if self._short_allins and sum(self._short_allins) < self._raise_inc and pos in self._acted:
            return (
                "betting_closed",
                "A short all-in did not reopen the betting: this player already acted (000 Aktionen 5).",
            )
        if stacks[pos] <= top - bets[pos]:
            return ("above_stack", "The stack only covers a call; the player can call all-in or fold.")
        if not any(i != pos and not self._folded[i] and stacks[i] + bets[i] > top for i in range(len(bets))):
            return ("nobody_to_raise", "Every opponent is all-in; the player can only call or fold.")
        return None

    def _raise_bounds(self, pos: int) -> tuple[int, int]:
        """``(low, high)``: the fixed completion/bet/raise "to" amount and,
        with an open pair on fourth street, the big one (000 Aktionen 3);
        both capped by the player's chips."""
        spec = self.spec
        top = max(self._bets)
        all_in = self._stacks[pos] + self._bets[pos]
        step = spec.bet_size(self._street)
        low = max(self._raise_inc, step) + (0 if self._completion else top)
        high = low
        if self._open_pair:
            assert spec.big_bet is not None
            high = top + max(self._raise_inc, spec.big_bet)
        return min(low, all_in), min(high, all_in)

    def _pass(self, pos: int, amount: int) -> StudState:
        new = self._copy()
        if amount:
            stacks, bets = list(self._stacks), list(self._bets)
            stacks[pos] -= amount
            bets[pos] += amount
            new._stacks, new._bets = tuple(stacks), tuple(bets)
        new._acted = self._acted | {pos}
        new._actors = self._actors[1:]
        new._street_acted = True
        if not new._actors or new._folded.count(False) <= 1:
            new._end_round()
        return new

    def _do_fold(self, action: dict) -> StudState:
        pos = self._turn(action)
        self._no_bring_in()
        new = self._copy()
        new._folded = with_flag(self._folded, pos)
        new._on_fold()
        return new._pass(pos, 0)

    def _do_check(self, action: dict) -> StudState:
        pos = self._turn(action)
        self._no_bring_in()
        if self._call_amount(pos):
            raise EngineError("cannot_check", "The player faces a bet and cannot check.")
        return self._pass(pos, 0)

    def _do_call(self, action: dict) -> StudState:
        pos = self._turn(action)
        self._no_bring_in()
        amount = self._call_amount(pos)
        if not amount:
            raise EngineError("nothing_to_call", "There is nothing to call; the player can check.")
        return self._pass(pos, amount)

    def _do_bring_in(self, action: dict) -> StudState:
        pos = self._turn(action)
        if not self._bring_in_due:
            raise EngineError("bad_action", "No bring-in is due now.")
        new = self._pass(pos, min(self._stacks[pos], self.spec.bring_in))
        new._bring_in_due = False
        return new

    def _do_raise(self, action: dict) -> StudState:
        pos = self._turn(action)
        return self._raise_to(pos, self._chips_to(action))

    def _do_all_in(self, action: dict) -> StudState:
        pos = self._turn(action)
        stack, bet = self._stacks[pos], self._bets[pos]
        if stack + bet <= max(self._bets) and not self._bring_in_due:
            return self._pass(pos, stack)
        return self._raise_to(pos, stack + bet)

    def _raise_to(self, pos: int, to: int) -> StudState:
        block = self._raise_block(pos)
        if block is not None:
            raise EngineError(*block)
        low, high = self._raise_bounds(pos)
        if to not in (low, high):
            word = "completion" if self._completion else "bet" if not max(self._bets) else "raise"
            sizes = f"{low}" if low == high else f"{low} or {high}"
            message = f"Fixed limit: the {word} is to {sizes} (000 Einsätze 2, Aktionen 3)."
            if to > high:
                raise EngineError(
                    "above_limit" if to <= self._stacks[pos] + self._bets[pos] else "above_stack", message
                )
            raise EngineError("below_minimum_raise" if max(self._bets) else "below_minimum_bet", message)
        top = max(self._bets)
        new = self._copy()
        stacks, bets = list(self._stacks), list(self._bets)
        stacks[pos] -= to - bets[pos]
        bets[pos] = to
        new._stacks, new._bets = tuple(stacks), tuple(bets)
        n = len(bets)
        new._actors = tuple(i for i in ((pos + k) % n for k in range(1, n)) if not self._folded[i] and stacks[i])
        increment = to - top
        new._acted = frozenset((pos,)) if increment >= self._raise_inc else self._acted | {pos}
        new._raise_inc = max(self._raise_inc, increment)
        new._raises = self._raises + 1
        shorts = () if stacks[pos] else self._short_allins + (increment,)
        new._short_allins = () if sum(shorts) >= new._raise_inc else shorts
        new._bring_in_due = False
        new._completion = False
        new._aggressor = pos
        new._street_acted = True
        return new

    def legal(self) -> StudLegal:
        """Options of the player to act.

        Raises:
            EngineError("hand_over") when complete, ("not_betting_round")
            when no betting action is pending.
        """
        if self._phase != "betting":
            if self._phase == "complete":
                raise EngineError("hand_over", "The hand is over.")
            raise EngineError("not_betting_round", f"No betting action is pending (phase {self._phase}).")
        pos = self._actors[0]
        due = self._bring_in_due
        call = None if due else self._call_amount(pos)
        block = self._raise_block(pos)
        low = high = None
        if block is None:
            low, high = self._raise_bounds(pos)
        return StudLegal(
            self.spec.seat_of(pos),
            pos,
            not due,
            call == 0,
            call,
            min(self._stacks[pos], self.spec.bring_in) if due else None,
            low,
            high,
            block is None,
            None if block is None else block[0],
        )

    # ------------------------------------------------------- end of a round    # -------------------------------------------------------------- queries
    @property
    def street(self) -> str:
        """``"third"`` ... ``"seventh"`` (in phase "deal": the street just
        finished, ``"ante"`` before third street), ``"showdown"`` or
        ``"complete"``."""
        if self._phase in ("showdown", "complete"):
            return self._phase
        return STUD_STREETS[self._street] if self._street >= 0 else "ante"

    @property
    def street_index(self) -> int:
        """0 = third street ... 4 = seventh (-1 before the deal)."""
        return self._street

    @property
    def opener(self) -> int | None:
        """Position that brought in (third street) or acted first on the
        current street."""
        return self._opener

    @property
    def open_pair(self) -> bool:
        """True on a fourth-street round opened with a pair showing (000
        Aktionen 3: the small or the big bet)."""
        return self._open_pair

    @property
    def up_cards(self) -> tuple[tuple[str, ...], ...]:
        """Per position the up cards (door card first)."""
        return self._up

    @property
    def down_cards(self) -> tuple[tuple[str, ...], ...]:
        """Per position the down cards (two, then the seventh-street card)."""
        return self._down

    @property
    def community(self) -> tuple[str, ...]:
        """The community card of seventh street when the stub ran out, else ()."""
        return self._community

    @property
    def showdown_order(self) -> tuple[int, ...]:
        """Positions in the order they show once the betting is over: the
        last bettor or raiser of the last round with action, else the player
        who acted first on seventh street; then clockwise."""
        if self._phase not in ("showdown", "complete") or self._folded.count(False) <= 1:
            return ()
        n = len(self._folded)
        start = self._sd_aggr if self._sd_aggr is not None else (self._opener or 0)
        return tuple(i for i in ((start + k) % n for k in range(n)) if not self._folded[i])

    def to_dict(self) -> dict:
        """JSON-serialisable snapshot for clients: ``game`` ("stud"),
        ``street``, ``phase``, ``next_street``, ``community_due``,
        ``to_act``/``to_act_seat``, ``legal``, ``opener_seat``, ``open_pair``,
        ``community``, ``players`` (position, seat, player, stack, bet,
        folded, all_in, up_cards, down_cards, shown, mucked), ``pots``,
        ``total_pot``, ``showdown_order_seats``, ``awards``, ``final_stacks``,
        ``actions``."""
        spec = self.spec
        done = self._phase == "complete"
        return {
            "game": "stud",
            "street": self.street,
            "phase": self._phase,
            "next_street": self.next_street,
            "community_due": self.community_due,
            "to_act": self.to_act,
            "to_act_seat": self.to_act_seat,
            "legal": self.legal().to_dict() if self._phase == "betting" else None,
            "opener_seat": None if self._opener is None else spec.seat_of(self._opener),
            "open_pair": self._open_pair,
            "community": list(self._community),
            "players": [
                {
                    **self._seat_json(i),
                    "all_in": not done and not self._stacks[i] and not self._folded[i],
                    "up_cards": list(self._up[i]),
                    "down_cards": list(self._down[i]),
                    "shown": self._shown[i],
                    "mucked": self._mucked[i],
                }
                for i in range(len(spec.seats))
            ],
            "pots": self._pots_json(),
            "total_pot": self.total_pot,
            "showdown_order_seats": [spec.seat_of(i) for i in self.showdown_order],
            "awards": self._awards_json(),
            "final_stacks": None if self._final is None else list(self._final),
            "actions": len(self._history),
        }

    def __repr__(self) -> str:
        return f"<StudState {self.street}/{self._phase} to_act={self.to_act_seat} stacks={self._stacks}>"


StudState._HANDLERS = {
    "deal": StudState._do_deal,
    "bring_in": StudState._do_bring_in,
    "fold": StudState._do_fold,
    "check": StudState._do_check,
    "call": StudState._do_call,
    "complete": StudState._do_raise,
    "bet": StudState._do_raise,
    "raise": StudState._do_raise,
    "all_in": StudState._do_all_in,
    "show": StudState._do_show,
    "muck": StudState._do_muck,
    "award": StudState._do_award,
    "kill": StudState._do_kill,
}


AnySpec = HandSpec | StudSpec
"""The spec of a hand of any game the engine deals (a flop game's or a stud game's)."""
AnyState = HandState | StudState
"""The state of a hand of any game: both take action dicts through ``apply`` and report ``phase``,
``stacks``, ``awards``, ``final_stacks``, ``history`` and ``to_dict()``."""


def start_hand(spec: AnySpec) -> AnyState:
    """Start a hand of any game: :meth:`StudState.start` for a
    :class:`StudSpec`, else :meth:`HandState.start`. Both states take
    action dicts through ``apply`` and report ``phase``, ``stacks``,
    ``awards``, ``final_stacks`` and ``to_dict()``.

    Raises:
        EngineError("bad_spec") for anything else.
    """
    if isinstance(spec, StudSpec):
        return StudState.start(spec)
    return HandState.start(spec)
