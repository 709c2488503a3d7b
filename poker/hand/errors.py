"""Engine errors: every refused action raises :class:`EngineError`."""

from __future__ import annotations

__all__ = ["EngineError", "ERROR_CODES"]

#: Machine codes raised by the engine, with the situation each one names.
ERROR_CODES: dict[str, str] = {
    "bad_action": "the action is not a well-formed action (dict or record) or not one the game takes",
    "bad_spec": "the hand specification is inconsistent",
    "not_your_turn": "another player is to act",
    "hand_over": "the hand is complete",
    "no_such_seat": "no player dealt in at this table seat",
    "folded": "the player has folded",
    "cannot_check": "the player faces a bet and cannot check",
    "nothing_to_call": "there is nothing to call",
    "below_minimum_bet": "the bet is smaller than the minimum bet",
    "below_minimum_raise": "the raise is smaller than the minimum raise",
    "above_stack": "the amount is more than the player's stack",
    "betting_closed": "a short all-in did not reopen the betting for this player",
    "nobody_to_raise": "every opponent is all-in, a raise is pointless",
    "not_betting_round": "no betting action is pending",
    "bad_cards": "the cards cannot be parsed or are the wrong number",
    "duplicate_card": "a card is already on the board or in another hand",
    "bad_award": "the pot index or the winners are not valid",
    "sole_contender": "the last contender for a pot cannot muck",
    "wrong_phase": "the action is not allowed in the current phase",
    "above_limit": "the bet is more than the pot limit or the fixed limit allows",
    "raise_cap": "the betting round is capped: no more raises (split limit)",
    "bad_chip_unit": "the amount is not divisible by the chip unit (000 Allgemein 8)",
    "bad_straddle": "the straddle is not allowed here or has the wrong amount",
    "run_twice_not_offered": "run it twice is not offered at this table or in this hand",
    "run_twice_action_possible": "run it twice needs a hand where no more action is possible",
    "run_twice_not_agreed": "not every player in the pot agreed to run it twice",
    "run_twice_pot_too_small": "the pot is below the minimum for running it twice",
    "run_twice_floor_absent": "with more than two players the floor must be present",
}


class EngineError(Exception):
    """An action or specification the engine refuses.

    Attributes:
        code: short machine code, one of :data:`ERROR_CODES`
            (e.g. ``"below_minimum_raise"``).
        message: English explanation for the dealer.

    The state the action was applied to is never modified (states are
    immutable), so the caller can simply keep using it.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_dict(self) -> dict:
        """Return ``{"code": str, "message": str}`` for JSON clients."""
        return {"code": self.code, "message": self.message}
