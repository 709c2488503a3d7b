"""What every PHH hand shares, whatever the game: the players and seats by position, the chip
unit read from the amounts written, and the fields read the same way for the flop games
(:class:`.phh_hand.PhhHand`) and the stud games (:class:`.phh_stud.StudPhhHand`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pokerkit import HandHistory

from .errors import EngineError
from .phh_amounts import cbr_amounts, chips, places, scale_action

__all__ = ["PhhPlayers", "hand_fields", "read_chip_unit"]

#: The PHH player labels ``p1`` ... ``p99``: the default names by position.
_LABELS = tuple(f"p{k}" for k in range(1, 100))


@dataclass(frozen=True, kw_only=True)
class PhhPlayers:
    """The fields every parsed PHH hand has (amounts in chips: ``chip_unit`` of the file is one
    chip; positions in PHH order): ``antes`` and ``starting_stacks`` (per position),
    ``actions`` (the PHH strings, comments included), ``ante_trimming_status``,
    ``finishing_stacks``/``winnings`` (the recorded result per position, or None), ``players``
    and ``seats`` (per position, or None for the defaults ``p1``.. and 1..n), ``extra`` (every
    other field: event, year, user ``_fields`` ...), ``source`` (the file), ``variant`` (the PHH
    code), ``chip_unit`` and ``index`` (the hand's table name in a ``.phhs`` file, else None).
    Keyword-only: each game's hand adds its bet sizes."""

    antes: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    ante_trimming_status: bool = False
    finishing_stacks: tuple[int, ...] | None = None
    players: tuple[str, ...] | None = None
    seats: tuple[int, ...] | None = None
    extra: dict = field(default_factory=dict)
    source: str | None = None
    variant: str = ""
    winnings: tuple[int, ...] | None = None
    chip_unit: Decimal = Decimal(1)
    index: str | None = None

    @property
    def player_count(self) -> int:
        """Number of players dealt in."""
        return len(self.starting_stacks)

    def seat_numbers(self) -> tuple[int, ...]:
        """Table seat per position: the PHH ``seats`` field or 1..n."""
        return self.seats if self.seats is not None else tuple(range(1, len(self.starting_stacks) + 1))

    def names_and_seats(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """``(names, seats)`` per position (names ``p1``.. when the file has none).

        Raises EngineError("bad_spec") when they do not match ``starting_stacks``."""
        n = len(self.starting_stacks)  # (player_count)
        names = self.players
        seats = self.seat_numbers()
        if names is None:  # (the labels are strings already)
            names = _LABELS[:n] if n <= len(_LABELS) else tuple(f"p{i + 1}" for i in range(n))
        else:
            names = tuple(map(str, names))
        if len(names) != n or len(seats) != n:
            raise EngineError("bad_spec", "players/seats do not match starting_stacks.")
        return names, seats


def read_chip_unit(
    history: HandHistory, actions: tuple[str, ...], amounts: list[Any], chip_unit: Decimal | None
) -> Decimal:
    """The amount that is one chip: ``chip_unit`` when given (positive, else EngineError
    "bad_spec"), else ``10 ** -d`` where ``d`` is the largest number of decimal places written in
    ``amounts`` (the game's bet sizes), the ``cbr`` amounts of ``actions``, the antes, blinds,
    stacks and winnings of ``history`` (``0.50`` has 2; 1 for a hand of whole amounts)."""
    if chip_unit is not None:
        if chip_unit <= 0:
            raise EngineError("bad_spec", f"The chip unit must be positive, got {chip_unit}.")
        return chip_unit
    written: list[Any] = [*amounts, *cbr_amounts(actions)]
    for many in (
        history.antes,
        getattr(history, "blinds_or_straddles", None),
        history.starting_stacks,
        history.finishing_stacks,
        history.winnings,
    ):
        if isinstance(many, (list, tuple)):
            written.extend(many)
        elif many is not None:
            written.append(many)
    return Decimal(1).scaleb(-max(map(places, written), default=0))


def hand_fields(history: HandHistory, actions: tuple[str, ...], unit: Decimal, source: str | None) -> dict[str, Any]:
    """The fields every PHH hand reads alike, in chips of ``unit``: ``starting_stacks``,
    ``actions`` (``cbr`` amounts scaled), ``ante_trimming_status``, ``finishing_stacks``,
    ``winnings``, ``players``, ``seats``, ``source``, ``variant`` and ``chip_unit``.

    Raises EngineError("bad_spec") for an amount that is not a multiple of ``unit``."""
    finishing, winnings = history.finishing_stacks, history.winnings
    return {
        "starting_stacks": tuple(chips(v, "starting_stacks", unit) for v in history.starting_stacks),
        "actions": tuple(scale_action(a, unit) for a in actions) if unit != 1 else actions,
        "ante_trimming_status": bool(history.ante_trimming_status),
        "finishing_stacks": None if finishing is None else tuple(chips(v, "finishing_stacks", unit) for v in finishing),
        "winnings": None if winnings is None else tuple(chips(v, "winnings", unit) for v in winnings),
        "players": None if history.players is None else tuple(str(p) for p in history.players),
        "seats": None if history.seats is None else tuple(int(s) for s in history.seats),
        "source": source,
        "variant": history.variant,
        "chip_unit": unit,
    }
