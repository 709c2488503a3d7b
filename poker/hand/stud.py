"""Seven Card Stud, razz and stud eight-or-better: the names the stud games' callers import.

There is no stud engine of its own: :class:`~poker.hand.state.HandState` plays every game, the
game a value (``StudSpec.game_variant``, :mod:`.variants`). ``StudState`` is that class; what a
game with a bring-in does its own way is in :mod:`.stud_deal` (the deal street by street, who
brings in and acts first) and :mod:`.stud_showdown` (the division of a pot, the odd chip to the
highest card by suit, 000 Allgemein 8); its betting (the bring-in, the completion, fixed limits,
the open pair of 000 Aktionen 3, the cap lifted heads-up) is :mod:`.betting`'s, checked against
pokerkit's ``FixedLimitSevenCardStud`` by the differential test.
"""

from __future__ import annotations

from .betting import StudLegal
from .state import AnySpec, AnyState, StudState, start_hand
from .stud_showdown import split_stud

__all__ = ["StudState", "StudLegal", "split_stud", "start_hand", "AnySpec", "AnyState"]
