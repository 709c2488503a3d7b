"""Chip race and color-up.

Pure Python.  Chips and values are ints (chip units of the tournament).

Wynental, 001 "Chip Race" (heading "Chiprace"): "Fehlt eine Einheit für die nächsthöhere Einheit
wird aufgerundet. Fehlen mehr als eine Einheit ... werden die Chips
ausgespielt. Das Chiprace beginnt immer bei Platz 1 und folgt dem
Uhrzeigersinn. Jeder Spieler mit mindestens einem überzähligen Chip erhält
eine Karte. Derjenige Spieler mit der höchsten Karte gewinnt alle Chips. Die
Chips werden in jedem Fall auf die nächsthöhere Einheit aufgerundet. Haben
zwei Spieler eine gleich hohe Karte, entscheidet folgende Reihenfolge der
Farben (höchste zuerst): Kreuz, Pik, Herz, Karo."  So: one card per player
(not per chip), clubs > spades > hearts > diamonds, the single highest card
takes *all* odd chips, whose total is rounded up to whole new chips.  001
does not protect a player whose whole stack is odd chips: losing the race
eliminates him (``eliminated``).

MunotPoker, 004 #24: "Der Color Up beginnt immer beim Spieler auf Platz 1.
Es kann maximal ein Chip gewonnen werden und ein Spieler kann durch den
Chiprace nicht ausscheiden. Er erhält automatisch den kleinsten noch im
Spiel befindlichen Chip".  004 gives no card procedure; it follows TDA 2019,
whose recommended procedure is used: one card per odd chip, dealt from
seat 1 clockwise; suits spades > hearts > diamonds > clubs; the number of new
chips is the total odd value divided by the new chip, rounded up when the
remainder is half a chip or more; the highest cards win one chip each.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .rules import Citation, PlayerId, TournamentRules

RANKS = "23456789TJQKA"
SUITS = "cdhs"


class Card(NamedTuple):
    """A playing card: ``rank`` 2..14 (ace 14), ``suit`` one of ``c d h s``."""

    rank: int
    suit: str

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit


def parse_card(text: str | Card) -> Card:
    """Parse ``"As"``, ``"Td"``, ``"10h"`` (case-insensitive rank) into a :class:`Card`.

    Raises ``ValueError`` for anything else.
    """
    if isinstance(text, Card):
        return text
    t = text.strip()
    rank_text, suit = t[:-1].upper(), t[-1:].lower()
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return Card(RANKS.index(rank_text) + 2, suit)


def full_deck() -> list[Card]:
    """The 52 cards, deuces first."""
    return [Card(r, s) for r in range(2, 15) for s in SUITS]


def card_key(card: Card, suit_order: str) -> tuple[int, int]:
    """Sort key: rank first, then suit by ``suit_order`` (highest suit first)."""
    return card.rank, len(suit_order) - suit_order.index(card.suit)


@dataclass(frozen=True, slots=True)
class ChipRaceEntry:
    """A player at the table when a denomination is colored up.

    ``stack`` -- total chip value; ``removed_chips`` -- how many chips of
    the denomination being removed he holds (their value is part of
    ``stack``).
    """

    player: PlayerId
    seat: int
    stack: int
    removed_chips: int


@dataclass(frozen=True, slots=True)
class ChipRaceLine:
    """What one player got.

    * ``exchanged`` -- value changed one-for-one into new chips.
    * ``odd_value`` -- value of the odd chips (less than one new chip).
    * ``rounded_up`` -- 001: one unit was missing, rounded up to a new chip.
    * ``cards`` -- cards dealt to him in the race (empty if he did not race).
    * ``chips_won`` -- new chips won in the race.
    * ``protected`` -- 004: he lost his last chips and got the smallest chip.
    * ``new_stack`` -- his stack after the color-up; ``eliminated`` when 0.
    """

    player: PlayerId
    seat: int
    stack: int
    exchanged: int
    odd_value: int
    rounded_up: bool
    cards: tuple[Card, ...]
    chips_won: int
    protected: bool
    new_stack: int
    eliminated: bool


@dataclass(frozen=True)
class ChipRaceResult:
    """Outcome of one color-up at one table.

    ``lines`` in seat order; ``total_odd_value`` raced; ``chips_awarded``
    new chips handed out by the race; ``chip_value_change`` total value
    added (positive, rounding up) or removed (negative) by the color-up.
    """

    removed_denomination: int
    new_denomination: int
    lines: tuple[ChipRaceLine, ...]
    total_odd_value: int
    chips_awarded: int
    chip_value_change: int
    rule: Citation

    def line(self, player: PlayerId) -> ChipRaceLine:
        """The line of ``player``; raises ``KeyError`` if absent."""
        for ln in self.lines:
            if ln.player == player:
                return ln
        raise KeyError(player)


def chip_race(
    entries: Sequence[ChipRaceEntry],
    removed_denomination: int,
    new_denomination: int,
    rules: TournamentRules,
    cards: Mapping[PlayerId, Sequence[Card | str]] | None = None,
    rng: random.Random | None = None,
) -> ChipRaceResult:
    """Color up ``removed_denomination`` chips into ``new_denomination`` chips at one table.

    * ``entries`` -- every player at the table (any order; the race runs
      from seat 1 clockwise).
    * ``cards`` -- the cards the dealer dealt, per player (one card under
      001, one per odd chip under 004); when omitted, cards are dealt from a
      deck shuffled by ``rng``.
    * ``rules.chip_race`` selects 001 or 004 (see module docstring).

    Returns a :class:`ChipRaceResult` naming the rule.  Raises
    ``ValueError`` when ``new_denomination`` is not a multiple of
    ``removed_denomination``, a stack is not positive, a player's removed
    chips exceed his stack, a
    racer's cards are missing or the wrong number, a card is dealt twice, or
    neither ``cards`` nor ``rng`` is given when cards are needed.
    """
    d, big = removed_denomination, new_denomination
    if d <= 0 or big <= d or big % d:
        raise ValueError("the new denomination must be a larger multiple of the removed one")
    rule = rules.cite("chip_race")
    ordered = sorted(entries, key=lambda e: e.seat)
    for e in ordered:
        if e.stack <= 0:
            raise ValueError(f"{e.player!r} has no chips: he is not in the race")
        if e.removed_chips < 0 or e.removed_chips * d > e.stack:
            raise ValueError(f"{e.player!r}: {e.removed_chips} chips of {d} exceed the stack {e.stack}")
    per_chip = rules.chip_race_card_per_odd_chip
    state: list[tuple[ChipRaceEntry, int, int, bool]] = []  # (entry, chips exchanged, odd chips, rounded up)
    racers = []
    for e in ordered:
        value = e.removed_chips * d
        odd = value % big
        rounded = bool(rules.chip_race_round_up_one_missing and odd and odd == big - d)
        state.append((e, value - odd, odd, rounded))
        if odd and not rounded:
            racers.append((e, odd // d if per_chip else 1))

    dealt: dict[PlayerId, tuple[Card, ...]] = {}
    if racers:
        if cards is not None:
            for e, n in racers:
                given = tuple(parse_card(c) for c in cards.get(e.player, ()))
                if len(given) != n:
                    raise ValueError(f"{e.player!r} needs {n} card(s), got {len(given)}")
                dealt[e.player] = given
            every = [c for cs in dealt.values() for c in cs]
            if len(set(every)) != len(every):
                raise ValueError("a card was dealt twice")
        else:
            if rng is None:
                raise ValueError("give the dealt cards or an rng")
            need = sum(n for _, n in racers)
            if need > 52:
                raise ValueError("more than 52 cards needed")
            deck = full_deck()
            rng.shuffle(deck)
            pos = 0
            for e, n in racers:  # seat 1 clockwise
                dealt[e.player] = tuple(deck[pos : pos + n])
                pos += n

    order = rules.chip_race_suit_order
    total_odd = sum(odd for _, _, odd, rounded in state if not rounded)
    won: dict[PlayerId, int] = {}
    if racers:
        ranked = sorted(racers, key=lambda r: max(card_key(c, order) for c in dealt[r[0].player]), reverse=True)
        if rules.chip_race_max_chips_per_player is None:
            # 001: the highest card wins all odd chips, rounded up to whole new chips.
            won[ranked[0][0].player] = -(-total_odd // big)
        else:
            chips, rest = divmod(total_odd, big)
            if 2 * rest >= big:
                chips += 1
            limit = rules.chip_race_max_chips_per_player
            for e, _ in ranked:
                if chips <= 0:
                    break
                give = min(limit, chips)
                won[e.player] = give
                chips -= give
    lines = []
    change = 0
    for e, exchanged, odd, rounded in state:
        chips_won = won.get(e.player, 0)
        new = e.stack - odd + (big if rounded else 0) + chips_won * big
        protected = False
        if new == 0 and rules.chip_race_nobody_busts:
            new, protected = big, True
        change += new - e.stack
        lines.append(
            ChipRaceLine(
                e.player,
                e.seat,
                e.stack,
                exchanged,
                odd,
                rounded,
                dealt.get(e.player, ()),
                chips_won,
                protected,
                new,
                new == 0,
            )
        )
    return ChipRaceResult(d, big, tuple(lines), total_odd, sum(won.values()), change, rule)


@dataclass(frozen=True, slots=True)
class FoundChips:
    """004 #24: chips found after the race are exchanged, never rounded up."""

    exchanged: int
    removed: int
    rule: Citation


def exchange_found_chips(value: int, new_denomination: int, rules: TournamentRules) -> FoundChips:
    """Exchange the ``value`` of colored-up chips that turn up after the race.

    004 #24: "werden diese nicht aufgerundet, sondern getauscht. Liegt der
    Gesamtwert unter dem nächsten Nennwert (Bsp. 3x 25er Chip ergibt nicht
    1x 100) so werden diese ersatzlos aus dem Spiel entfernt."  Whole new
    chips are exchanged; the rest is removed.  Raises
    ``UnsupportedByRulebook`` for 001 (no such rule) and ``ValueError`` for
    negative values.
    """
    rule = rules.cite("found_chips")
    if value < 0 or new_denomination <= 0:
        raise ValueError("negative value")
    exchanged = value // new_denomination * new_denomination
    return FoundChips(exchanged, value - exchanged, rule)
