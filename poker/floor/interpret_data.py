"""The chip-action interpreter's data: the betting :class:`Situation`, what the dealer saw
(:class:`Observation`), the :class:`Ruling`, the accepted words, and :func:`parse`, which
reads them from the JSON of ``docs/interpret.md`` (standard library only).
:mod:`poker.floor.interpret` re-exports every name."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, overload

STREETS = ("preflop", "flop", "turn", "river")
#: Betting structures in the engine's words (``HandSpec.structure``, :mod:`poker.hand.limits`).
LIMITS = ("no_limit", "pot_limit", "fixed_limit")
#: Other spellings accepted in the input: "split_limit" is the rulebooks' (and docs/interpret.md's) word.
LIMIT_ALIASES = {"split_limit": "fixed_limit"}
#: Actions of a :class:`Ruling` (the JSON output keeps "all-in"; the engine's word is "all_in").
ACTIONS = ("fold", "check", "call", "bet", "raise", "all-in", "none")

#: Declared words (English and German, lower case) -> canonical word (the engine's words: "all_in").
WORDS = {
    "fold": "fold",
    "pass": "fold",
    "passe": "fold",
    "passen": "fold",
    "muck": "fold",
    "check": "check",
    "schiebe": "check",
    "schieben": "check",
    "tap": "check",
    "klopfen": "check",
    "call": "call",
    "mitgehen": "call",
    "gehe mit": "call",
    "mit": "call",
    "bet": "bet",
    "setze": "bet",
    "setzen": "bet",
    "ich setze": "bet",
    "raise": "raise",
    "erhöhe": "raise",
    "erhöhen": "raise",
    "re-raise": "raise",
    "reraise": "raise",
    "all-in": "all_in",
    "all in": "all_in",
    "allin": "all_in",
    "all-in!": "all_in",
    "all_in": "all_in",
    "pot": "pot",
    "raise pot": "pot",
    "bet pot": "pot",
}


class InterpretError(ValueError):
    """Malformed input: ``code`` is a machine word, the message says what is wrong."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Situation:
    """The betting situation when the player acts.

    Fields (chips as ints):
        street: "preflop" | "flop" | "turn" | "river".
        small_blind, big_blind: the blinds of the level.
        to_call: chips the player must add to call (0 when nothing to call).
        last_raise: size of the last full bet or raise increment this round
            (preflop with no raise: the big blind). 0 when nobody bet yet.
        in_front: chips the player already has in front this round (e.g. his blind).
        stack: chips behind, not counting ``in_front``.
        pot: all chips wagered so far, this round's bets in front included.
        only_blinds: preflop and nobody has bet or raised yet (only blinds in).
        limit: "no_limit" (default) | "pot_limit" | "fixed_limit" (split
            limit; "split_limit" is accepted and stored as "fixed_limit").
        big_bet: split limit: the big bet of the turn and river (None: twice
            the big blind; 000 Einsätze 2).
        heads_up: only two players are in the hand.
        raises: full raises already made this round (split-limit cap).
        facing_opening_bet: the bet to call is the round's opening bet (the
            big blind preflop when nobody raised); default: derived.
        in_turn: False when the player acted out of turn.
        intervening_actions: for out-of-turn actions, what players between
            the player to act and the out-of-turn player did since (words).
        unaware_of_raise, acted_after: 002 #10 (short call because a raise
            was missed; whether somebody acted after him).
    """

    street: str
    small_blind: int
    big_blind: int
    to_call: int = 0
    last_raise: int = 0
    in_front: int = 0
    stack: int = 0
    pot: int = 0
    only_blinds: bool = False
    limit: str = "no_limit"
    heads_up: bool = False
    raises: int | None = None
    facing_opening_bet: bool | None = None
    in_turn: bool = True
    intervening_actions: tuple = ()
    unaware_of_raise: bool = False
    acted_after: bool = False
    big_bet: int | None = None

    def __post_init__(self):
        if self.limit in LIMIT_ALIASES:
            object.__setattr__(self, "limit", LIMIT_ALIASES[self.limit])

    @property
    def current_bet(self) -> int:
        """The total the player must match: ``in_front + to_call``."""
        return self.in_front + self.to_call


@dataclass(frozen=True)
class Observation:
    """What the dealer saw.

    Fields:
        chips: denomination -> count of the chips pushed forward (ints).
        declared: the word said (see :data:`WORDS`), or None when silent.
        declared_before_chips: the word came before the chips touched the table.
        declared_amount: an amount said with the word, or None.
        amount_kind: "to" (total, the default reading) or "by" (increment).
        motions: forward motions used to put the chips out (1 = one motion).
        first_motion: chips in the first motion, when there were several.
    """

    chips: dict = field(default_factory=dict)
    declared: str | None = None
    declared_before_chips: bool = True
    declared_amount: int | None = None
    amount_kind: str = "to"
    motions: int = 1
    first_motion: int | None = None

    @property
    def placed(self) -> int:
        """Total value of the chips pushed forward."""
        return sum(d * n for d, n in self.chips.items())

    @property
    def chip_count(self) -> int:
        """Number of chips pushed forward."""
        return sum(self.chips.values())


@dataclass
class Ruling:
    """The outcome. ``action`` is one of :data:`ACTIONS` ("none": nothing stands,
    the chips go back and the player acts again).

    ``amount``: the player's total in front this round once the ruling is
    carried out; ``complete_to``: the total he must bring his bet up to (None
    if nothing is owed); ``to_add``: chips he must still add; ``change``: chips
    handed back; ``all_in`` / ``all_in_as`` ("call" | "bet" | "raise" |
    "incomplete_raise"); ``full_raise`` and ``reopens_betting`` for raises;
    ``options``: what the player may choose instead; ``restrictions``: what he
    may not do later; ``floor``: the floor must decide; ``citations``: rules applied.
    """

    action: str
    amount: int
    profile: str
    complete_to: int | None = None
    to_add: int = 0
    change: int = 0
    all_in: bool = False
    all_in_as: str | None = None
    full_raise: bool | None = None
    reopens_betting: bool | None = None
    min_raise_to: int | None = None
    binding: bool = True
    floor: bool = False
    options: list = field(default_factory=list)
    restrictions: list = field(default_factory=list)
    explanation_de: str = ""
    explanation_en: str = ""
    citations: list = field(default_factory=list)

    def to_dict(self) -> dict:
        """JSON shape documented in docs/interpret.md."""
        return {
            "action": self.action,
            "amount": self.amount,
            "complete_to": self.complete_to,
            "to_add": self.to_add,
            "change": self.change,
            "all_in": self.all_in,
            "all_in_as": self.all_in_as,
            "full_raise": self.full_raise,
            "reopens_betting": self.reopens_betting,
            "min_raise_to": self.min_raise_to,
            "binding": self.binding,
            "floor": self.floor,
            "options": list(self.options),
            "restrictions": list(self.restrictions),
            "explanation": {"de": self.explanation_de, "en": self.explanation_en},
            "citations": [c.to_dict() for c in self.citations],
            "profile": self.profile,
        }


# --------------------------------------------------------------------------- helpers


# --------------------------------------------------------------------------- JSON
@overload
def _int(d: dict, key: str, default: int, required: bool = False) -> int: ...
@overload
def _int(d: dict, key: str, default: None = None, *, required: Literal[True]) -> int: ...
@overload
def _int(d: dict, key: str, default: None = None, required: bool = False) -> int | None: ...
def _int(d: dict, key: str, default: int | None = None, required: bool = False) -> int | None:
    if key not in d or d[key] is None:
        if required:
            raise InterpretError("missing_field", f"{key} is required")
        return default
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise InterpretError("bad_field", f"{key} must be an integer (chips), got {v!r}")
    return v


def _bool(d: dict, key: str, default=False) -> bool:
    v = d.get(key, default)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise InterpretError("bad_field", f"{key} must be true or false, got {v!r}")
    return v


def _chips(raw) -> dict:
    if raw is None:
        return {}
    out: dict[int, int] = {}
    items: list[tuple[Any, Any]] | None = list(raw.items()) if isinstance(raw, dict) else None
    if items is None and isinstance(raw, list):
        items = []
        for entry in raw:
            if isinstance(entry, dict):
                items.append((entry.get("value"), entry.get("count", 1)))
            else:
                items.append((entry, 1))
    if items is None:
        raise InterpretError("bad_field", 'chips must be an object {"denomination": count} or a list')
    for denom, count in items:
        try:
            if isinstance(denom, (bool, float)):  # 1.5, inf, nan: no chip carries them
                raise ValueError(denom)
            d = int(denom)
        except (TypeError, ValueError, OverflowError):
            raise InterpretError("bad_field", f"chip denomination {denom!r} is not an integer") from None
        if str(d) != str(denom).strip() and not isinstance(denom, int):
            raise InterpretError("bad_field", f"chip denomination {denom!r} is not an integer")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0 or d <= 0:
            raise InterpretError("bad_field", f"chips: {denom!r} -> {count!r} is not a positive denomination and count")
        if count:
            out[d] = out.get(d, 0) + count
    return out


def parse(data: dict) -> tuple[Situation, Observation]:
    """Build (Situation, Observation) from the JSON input shape; raises InterpretError."""
    if not isinstance(data, dict):
        raise InterpretError("bad_input", "input must be a JSON object with 'situation' and 'observed'")
    sit, obs = data.get("situation"), data.get("observed", data.get("observation"))
    if not isinstance(sit, dict) or not isinstance(obs, dict):
        raise InterpretError("bad_input", "input needs objects 'situation' and 'observed'")
    street = sit.get("street", "preflop")
    blinds = sit.get("blinds")
    sb, bb = _int(sit, "small_blind"), _int(sit, "big_blind")
    if isinstance(blinds, list) and len(blinds) == 2 and sb is None and bb is None:
        sb, bb = _int({"sb": blinds[0]}, "sb"), _int({"bb": blinds[1]}, "bb")
    if bb is None:
        raise InterpretError("missing_field", "situation.big_blind (or blinds: [sb, bb]) is required")
    sb = bb // 2 if sb is None else sb
    to_call = _int(sit, "to_call", 0)
    in_front = _int(sit, "in_front", 0)
    current_bet = _int(sit, "current_bet")
    if current_bet is not None and "to_call" not in sit:
        to_call = max(0, current_bet - in_front)
    only_blinds_default = street == "preflop" and in_front + to_call <= bb
    last_raise_default = bb if street == "preflop" else in_front + to_call
    intervening = sit.get("intervening_actions", [])
    if not isinstance(intervening, list):
        raise InterpretError("bad_field", "intervening_actions must be a list of action words")
    situation = Situation(
        street=street,
        small_blind=sb,
        big_blind=bb,
        to_call=to_call,
        last_raise=_int(sit, "last_raise", last_raise_default),
        in_front=in_front,
        stack=_int(sit, "stack", required=True),
        pot=_int(sit, "pot", 0),
        only_blinds=_bool(sit, "only_blinds", only_blinds_default),
        limit=sit.get("limit", "no_limit"),
        heads_up=_bool(sit, "heads_up"),
        raises=_int(sit, "raises"),
        facing_opening_bet=sit.get("facing_opening_bet") if isinstance(sit.get("facing_opening_bet"), bool) else None,
        in_turn=_bool(sit, "in_turn", True),
        intervening_actions=tuple(str(a).lower() for a in intervening),
        unaware_of_raise=_bool(sit, "unaware_of_raise"),
        acted_after=_bool(sit, "acted_after"),
        big_bet=_int(sit, "big_bet"),
    )
    declared = obs.get("declared")
    if declared is not None and not isinstance(declared, str):
        raise InterpretError("bad_field", "declared must be a word or null")
    observation = Observation(
        chips=_chips(obs.get("chips")),
        declared=declared or None,
        declared_before_chips=_bool(obs, "declared_before_chips", True),
        declared_amount=_int(obs, "declared_amount"),
        amount_kind=obs.get("amount_kind", "to") or "to",
        motions=_int(obs, "motions", 1),
        first_motion=_int(obs, "first_motion"),
    )
    return situation, observation
