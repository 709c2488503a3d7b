"""PHH (Poker Hand History, TOML) reading, replaying and writing.

Spec: github.com/uoftcprg/phh-std. Positions: ``p1`` is the small blind and
the last player is the button (heads-up: ``p1`` is the big blind), which is
exactly the engine's position order. Variants: No-Limit Texas Hold'em
(``variant = "NT"``), Pot-Limit Omaha (``"PO"``, ``min_bet``) and
Fixed-Limit Texas Hold'em (``"FT"``, ``small_bet`` and ``big_bet`` instead of
``min_bet``), as pokerkit 0.7.7 reads them; the stud games (``"F7S"``, ``"FR"``, ``"F7S/8"``) in
:mod:`.phh_stud`. A ``.phhs`` file holds several
hands as TOML tables ``[1]``, ``[2]`` ... (pokerkit's
``HandHistory.loads_all`` / ``dumps_all``): :func:`load_phh_file`.

Amounts with decimals (online hands: ``0.50``, ``200.30``) are read exactly
(pokerkit parses them as ``Decimal``) and mapped to whole chips with a chip
unit: the smallest power of ten that makes every amount of the hand whole
(``0.01``: 0.50 -> 50 chips), or a unit given by the caller; never floats.
``PhhHand.chip_unit`` keeps the unit. A hand that records ``winnings``
(chips each player collected from the pots) instead of ``finishing_stacks``
is checked against those (:class:`ReplayResult` ``checked``/``unchecked``).
A negative ``blinds_or_straddles`` value is a post (pokerkit's "post bet"):
live up to the big blind, dead above it (:func:`.phh_records.forced_bets`).

Special formats PHH cannot express are written as user fields
(``_bomb_pot``, ``_flip``, ``_boards``, ``_run_it_twice_min_pot``,
``_stakes``, ``_straddles``, ``_posts``, ``_rules``, ``_button_seat``) and
as comment actions other readers skip: ``# board 2 <cards>`` (board-2
cards of a double board or a second run-out), ``# run_it_twice pots 0 1
agreed p1 p2 [floor]`` and ``# award <pot> p1 [/ p2]`` (``/`` separates the
board-2 winners).

Action translation (PHH -> engine action record, :mod:`.records`; S3: p3's table seat):

=================== ==========================================
``d dh p3 AsKs``    ``Hole(S3, "AsKs")`` (``????`` unknown)
``d db Jc3d5c``     ``Board("Jc3d5c")``
``p3 f``            ``Fold(S3)``
``p3 cc``           ``Check(S3)`` when nothing is to be called, else ``Call(S3)``
``p3 cbr 600``      ``Bet(S3, 600)`` (no bet yet on the street) or ``Raise(S3, 600)``
``p3 sm AsKs``      ``Show(S3, "AsKs")``; ``p3 sm -`` shows the entered cards (``Show(S3)``)
``p3 sm ????``      nothing: p3 neither shows nor mucks (``Ah??``: a show when the
                    entered cards complete it), :func:`.phh_records.show_unknown`
``p3 sm``           ``Muck(S3)``
``# award 0 p1 p3`` pokerfloor extension (a PHH comment, a no-op for
                    other readers): pot 0 awarded by the dealer to p1 and p3
                    (``AwardPot(0, (S1, S3))``)
``# board 2 Jc3d5c`` pokerfloor extension: ``Board("Jc3d5c", 2)``
``# run_it_twice``  pokerfloor extension: ``RunItTwice(agreed, pots, floor)``
=================== ==========================================

The TOML is read as pokerkit's ``HandHistory.loads`` reads it (plain files by
the faster :mod:`.phh_toml`, the same table) and written by
``HandHistory.dumps`` (our user fields travel in its ``user_defined_fields``);
this module translates between PHH and the engine.
"""

from __future__ import annotations

from .phh_amounts import awards_from_winnings, collected
from .phh_export import export_phh
from .phh_hand import (
    GAME_CODES,
    VARIANTS,
    PhhHand,
    PhhLoadError,
    hand_from_history,
    load_phh,
    load_phh_file,
    spec_from_phh,
)
from .phh_records import winnings_mismatch
from .phh_replay import replay, translate_action
from .phh_result import ReplayResult
from .phh_stud import export_stud_phh

__all__ = [
    "GAME_CODES",
    "VARIANTS",
    "PhhHand",
    "PhhLoadError",
    "ReplayResult",
    "awards_from_winnings",
    "collected",
    "export_phh",
    "export_stud_phh",
    "hand_from_history",
    "load_phh",
    "load_phh_file",
    "replay",
    "spec_from_phh",
    "translate_action",
    "winnings_mismatch",
]
