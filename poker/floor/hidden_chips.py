"""Hidden chips at an all-in: a ruling the floor applies between the all-in player and the opponent
who called him (standard library only).

The rule is the house profile's ``hidden_chips_at_all_in``:

- ``"paid_on_declared_only"`` -- 002 #15: "Ein erklärtes All-in verpflichtet den Spieler, seinen
  gesamten Stack in den Pot zu legen, einschließlich aller verdeckten Chips. Jedoch darf der
  All-in-Spieler nicht von verdeckten Chips profitieren." #16: A all-in with 21,000 (two 1,000
  chips hidden), B calls with 100,000: A wins -> he gets only 21,000; A loses -> B gets the whole
  stack, 23,000. #17: A all-in with 50,000 (a 10,000 chip hidden), B calls with 55,000: A wins ->
  only 50,000; A loses -> B gets all his 55,000 "und verdoppelt".
- ``"floor_decides_forfeited"`` -- 004 #62: the floor decides whether the chip counts (with #49);
  if it does not, the all-in player "a) diesen Chip nicht ausbezahlt bekommen wenn er gewinnt und
  b) nicht mit dem Chip als regulär verbleibendem Stack weiterspielen wenn er verliert. Der
  Spieler ist ausgeschieden und der Floorman kann den vergessenen Chip nach Ermessen dem
  Gewinner der Hand zusprechen." Read here: a winning all-in player is paid only on his declared
  bet and keeps his own chip; a losing one loses his declared bet, is out, and the hidden chips
  are the floor's to give to the winner (``floor_may_award``) or take out of play.
- ``None`` -- the rulebook has no such rule: :func:`hidden_chips_ruling` refuses
  (``ProcedureError("not_regulated")``) and the floor decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.houserules import HouseRules
from poker.i18n import _N, both

from .common import ProcedureError, citation_dicts, profile_citations

__all__ = ["HiddenChipsRuling", "hidden_chips_ruling"]


@dataclass(frozen=True)
class HiddenChipsRuling:
    """The chips between the all-in player and his opponent after the hand (all ints, chips).

    Fields: ``declared`` (the all-in as declared and seen), ``hidden`` (the hidden chips),
    ``opponent_stack`` (the caller's stack before the all-in), ``all_in_player_wins``,
    ``won`` (chips that change hands between the two: to the all-in player when he wins,
    to the opponent when he loses), ``all_in_player_after`` and ``opponent_after`` (their
    chips after the ruling, ``floor_may_award`` not included), ``floor_may_award`` (hidden
    chips the floor may give to the winner at its discretion, else they leave play),
    ``all_in_player_out``, ``explanation_en``/``_de``, ``citations``.
    """

    declared: int
    hidden: int
    opponent_stack: int
    all_in_player_wins: bool
    won: int
    all_in_player_after: int
    opponent_after: int
    floor_may_award: int
    all_in_player_out: bool
    explanation_en: str
    explanation_de: str
    citations: tuple

    def to_dict(self) -> dict:
        """JSON shape: the fields, ``citations`` as ``[{"rulebook", "section", "label"}]``."""
        return {
            "declared": self.declared,
            "hidden": self.hidden,
            "opponent_stack": self.opponent_stack,
            "all_in_player_wins": self.all_in_player_wins,
            "won": self.won,
            "all_in_player_after": self.all_in_player_after,
            "opponent_after": self.opponent_after,
            "floor_may_award": self.floor_may_award,
            "all_in_player_out": self.all_in_player_out,
            "explanation_en": self.explanation_en,
            "explanation_de": self.explanation_de,
            "citations": citation_dicts(self.citations),
        }


def _chips(name: str, value: object, positive: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < (1 if positive else 0):
        raise ProcedureError(
            "bad_call", f"{name} must be {'a positive' if positive else 'a non-negative'} int, not {value!r}"
        )
    return value


def hidden_chips_ruling(
    profile: HouseRules,
    *,
    declared: int,
    hidden: int,
    opponent_stack: int,
    all_in_player_wins: bool,
    floor_counts_hidden: bool = False,
) -> HiddenChipsRuling:
    """The ruling on chips hidden at an all-in, heads-up between the all-in player and the caller.

    Args: ``declared`` (> 0), ``hidden`` (>= 0) and ``opponent_stack`` (> 0) in chips;
    ``all_in_player_wins``: the showdown's result; ``floor_counts_hidden`` (004 #62 only: the
    floor decided, with #49, that the chips count as part of the all-in -- then it is an
    ordinary all-in for ``declared + hidden``).

    002 #15-#17: a winning all-in player wins ``min(declared, opponent_stack)``; a losing one
    loses ``min(declared + hidden, opponent_stack)``. 004 #62 (chips not counted): a winning
    all-in player wins ``min(declared, opponent_stack)``; a losing one loses his declared bet
    (what the opponent covers), is out, and the hidden chips are ``floor_may_award``.

    Raises ProcedureError("not_regulated") when the profile has no hidden-chips rule,
    ProcedureError("bad_call") for bad amounts.
    """
    rule = profile.hidden_chips_at_all_in
    if rule is None:
        raise ProcedureError(
            "not_regulated", f"the house rules {profile.slug!r} have no rule on hidden chips: the floor decides"
        )
    declared = _chips("declared", declared, positive=True)
    hidden = _chips("hidden", hidden)
    opponent_stack = _chips("opponent_stack", opponent_stack, positive=True)
    if not isinstance(all_in_player_wins, bool) or not isinstance(floor_counts_hidden, bool):
        raise ProcedureError("bad_call", "all_in_player_wins and floor_counts_hidden must be true or false")
    total = declared + hidden
    award = 0
    if rule == "floor_decides_forfeited" and floor_counts_hidden:
        won = min(total, opponent_stack)
        text = _N("The floor counts the hidden chips: an ordinary all-in for all the player's chips.")
    elif all_in_player_wins:
        won = min(declared, opponent_stack)
        text = _N("The all-in player may not profit from hidden chips: the payout covers only the declared all-in.")
    elif rule == "paid_on_declared_only":
        won = min(total, opponent_stack)
        text = _N(
            "The all-in included the hidden chips: the opponent wins all of them that the opponent's stack covers."
        )
    else:
        won = min(declared, opponent_stack)
        award = hidden
        text = _N("The hidden chips do not play on: the all-in player is out; the floor may give them to the winner.")
    if all_in_player_wins:
        mine, theirs = total + won, opponent_stack - won
    else:
        mine, theirs = total - won - award, opponent_stack + won
    return HiddenChipsRuling(
        declared,
        hidden,
        opponent_stack,
        all_in_player_wins,
        won,
        mine,
        theirs,
        award,
        mine == 0,
        *both(text),
        profile_citations(profile, "hidden_chips_at_all_in"),
    )
