"""The stud games' deal: a street of down and up cards, the bring-in, who acts first.

Part of :class:`~poker.hand.state.HandState` (a mixin), for the games whose variant
(``spec.game_variant``, :mod:`.variants`) has antes and a bring-in: Seven Card Stud, razz,
stud eight-or-better. The dealer enters the cards street by street (the ``deal`` action); a card
not entered is ``"??"`` and the dealer then names who brings in or acts first. A player's cards
are his ``hole_cards`` in the order dealt (down, down, up; up; up; up; down: which are up is
the variant's ``up_indexes()``); the community card dealt when the stub cannot give every player
a seventh card is the ``board``.

The deal: every player antes (:meth:`HandState.start`); third street two down cards and one up
card (the door card); the lowest up card brings in (suits clubs < diamonds < hearts < spades;
razz: the highest, ace low) or completes to the small bet; fourth street one up card, small bet
(with an open pair the big bet may be chosen, 000 Aktionen 3); fifth and sixth street one up
card, seventh street one down card, big bet; from fourth street the best hand showing acts first
(razz: the lowest). When the stub cannot give every player a seventh card, one community card is
turned face up in the middle (:func:`.stud_spec.community_card_needed`).

Betting (:mod:`.betting`), the end of a round and the showdown (:mod:`.showdown`,
:mod:`.stud_showdown`) are the one state's.
"""

from __future__ import annotations

from typing import NamedTuple, Self

from .cards import UNKNOWN, parse_cards
from .errors import EngineError
from .fields import HandFields
from .records import Deal, SeatAction
from .stud_spec import (
    STUD_STREETS,
    best_showing_position,
    bring_in_position,
    community_card_needed,
    has_open_pair,
)

__all__ = ["StudDealing"]


class _Street(NamedTuple):
    """What a checked ``deal`` changes (:meth:`StudDealing._check_deal`)."""

    street: int
    hole: tuple[tuple[str, ...] | None, ...]
    board: tuple[str, ...]
    cards_out: int
    opener: int
    open_pair: bool


class StudDealing(HandFields):
    """The ``deal`` and ``bring_in`` actions and the queries of a stud game's cards."""

    __slots__ = ()

    @property
    def community_due(self) -> bool:
        """True when the next deal is seventh street and the stub cannot
        give every player in the hand a card: one community card face up in
        the middle instead."""
        if self._phase != "deal" or self._street != 3:
            return False
        return community_card_needed(self._cards_out, self._folded.count(False))[0]

    def _up_of(self, cards: tuple[str, ...]) -> tuple[str, ...]:
        """The cards of ``cards`` (one player's, in the order dealt) that are face up."""
        return tuple(cards[i] for i in self.spec.game_variant.up_indexes() if i < len(cards))

    def _check_deal(self, action: Deal) -> _Street:
        """The check of :class:`~.records.Deal` (``{"type": "deal", "cards": {seat: "..."},
        "community": "..", "opener": seat}``): the next street; a seat left out gets unknown
        cards; ``opener`` names who brings in or acts first when an up card is unknown (it must
        agree with the cards that are known). Returns what the street changes; builds no state.

        Raises EngineError ``hand_over``, ``wrong_phase``, ``bad_cards``, ``folded``,
        ``no_such_seat``, ``duplicate_card``, ``bad_action`` (an opener the cards contradict)."""
        if self._phase == "complete":
            raise EngineError("hand_over", "The hand is over.")
        if self._phase != "deal":
            raise EngineError("wrong_phase", f"No street is due now (phase {self._phase}).")
        spec = self.spec
        variant = spec.game_variant
        street = self._street + 1
        n = len(spec.seats)
        per_pos: dict[int, tuple[str, ...]] = {}
        for seat, text in action.cards or ():
            pos = spec.position_of(seat)
            if self._folded[pos]:
                raise EngineError("folded", f"Seat {spec.seat_of(pos)} has folded and gets no cards.")
            per_pos[pos] = parse_cards(text or "")
        community, burn = False, True
        if street == variant.last_street:
            community, burn = community_card_needed(self._cards_out, self._folded.count(False))
        live = [p for p in range(n) if not self._folded[p]]
        hole = list(self._hole)
        board = self._board
        count = variant.streets[street].down + variant.streets[street].up
        if community:
            if per_pos:
                raise EngineError("bad_cards", "Seventh street is one community card: give 'community', not cards.")
            board = parse_cards(action.community or "") or (UNKNOWN,)
            if len(board) != 1:
                raise EngineError("bad_cards", "The community card is one card.")
            dealt = 1
        else:
            if action.community:
                raise EngineError("bad_cards", "No community card now: every player gets his own card.")
            for p in live:
                cards = per_pos.get(p) or (UNKNOWN,) * count
                if len(cards) != count:
                    raise EngineError(
                        "bad_cards", f"Seat {spec.seat_of(p)}: {count} card(s) on {STUD_STREETS[street]} street."
                    )
                hole[p] = (hole[p] or ()) + cards
            dealt = len(live) * count
        known = [c for cards in hole for c in cards or () if c != UNKNOWN] + [c for c in board if c != UNKNOWN]
        if len(known) != len(set(known)):
            raise EngineError("duplicate_card", "A card is dealt twice.")
        up = [None if self._folded[p] else self._up_of(hole[p] or ()) for p in range(n)]
        opener = self._opener_of(street, up, action.opener)
        return _Street(
            street,
            tuple(hole),
            board,
            self._cards_out + dealt + (1 if street and burn else 0),
            opener,
            street == 1
            and spec.open_pair_big_bet  # type: ignore[union-attr]  # a StudSpec
            and variant.open_pair
            and has_open_pair(up),
        )

    def _do_deal(self, action: Deal) -> Self:
        """The next street (checked by :meth:`_check_deal`); its first round of betting."""
        dealt = self._check_deal(action)
        new = self._copy()
        new._street = dealt.street
        new._hole = dealt.hole
        new._board = dealt.board
        new._cards_out = dealt.cards_out
        new._opener = dealt.opener
        new._open_pair = dealt.open_pair
        new._begin_round(dealt.opener, 0)
        return new

    def _opener_of(self, street: int, up: list, named: int | None) -> int:
        """Who brings in (third street) or acts first (later streets): the cards showing say
        (``up``: per position the up cards, None for a player out), or the dealer names the seat
        (``named``) when an up card is unknown. Raises EngineError ``folded``, ``bad_action``,
        ``bad_cards``."""
        spec = self.spec
        game = spec.game_variant
        if street == 0:
            computed = bring_in_position([None if cards is None else cards[0] for cards in up], game)
        else:
            computed = best_showing_position(up, game)
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
        return opener

    def _check_bring_in(self, action: SeatAction) -> int:
        pos = self._turn(action)
        if not self._bring_in_due():
            raise EngineError("bad_action", "No bring-in is due now.")
        return pos

    def _do_bring_in(self, action: SeatAction) -> Self:
        """:class:`~.records.BringIn` (``{"type": "bring_in", "seat": S}``): the player to act on third street brings in
        (capped by his stack). Raises EngineError as the turn, ``bad_action`` when not due."""
        pos = self._check_bring_in(action)
        new = self._copy()
        amount = min(self._stacks[pos], self.spec.bring_in)  # type: ignore[union-attr]  # a StudSpec
        self._after_passive(new, pos, amount)
        return new

    # -------------------------------------------------------------- queries
    @property
    def street_index(self) -> int:
        """0 = the first street (preflop, third street) ... (-1 before a stud game's deal)."""
        return self._street

    @property
    def opener(self) -> int | None:
        """A stud game: the position that brought in (third street) or acted first on the
        current street; None in the flop games."""
        return self._opener

    @property
    def open_pair(self) -> bool:
        """True on a fourth-street round opened with a pair showing (000
        Aktionen 3: the small or the big bet)."""
        return self._open_pair

    @property
    def up_cards(self) -> tuple[tuple[str, ...], ...]:
        """Per position the up cards (door card first); () in the flop games."""
        return tuple(self._up_of(cards or ()) for cards in self._hole)

    @property
    def down_cards(self) -> tuple[tuple[str, ...], ...]:
        """Per position the down cards (a stud game: two, then the seventh-street card)."""
        up = set(self.spec.game_variant.up_indexes())
        return tuple(tuple(c for i, c in enumerate(cards or ()) if i not in up) for cards in self._hole)

    @property
    def community(self) -> tuple[str, ...]:
        """A stud game's community card of seventh street when the stub ran out, else ()."""
        return self._board

    def _stud_dict(self) -> dict:
        """:meth:`HandState.to_dict` of a stud game: ``game`` ("stud"),
        ``street``, ``phase``, ``next_street``, ``community_due``,
        ``to_act``/``to_act_seat``, ``legal``, ``opener_seat``, ``open_pair``,
        ``community``, ``players`` (position, seat, player, stack, bet,
        folded, all_in, up_cards, down_cards, shown, mucked), ``pots``,
        ``total_pot``, ``showdown_order_seats``, ``awards``, ``final_stacks``,
        ``actions``."""
        spec = self.spec
        done = self._phase == "complete"
        up, down = self.up_cards, self.down_cards
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
            "community": list(self._board),
            "players": [
                {
                    **self._seat_json(i),
                    "all_in": not done and not self._stacks[i] and not self._folded[i],
                    "up_cards": list(up[i]),
                    "down_cards": list(down[i]),
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
