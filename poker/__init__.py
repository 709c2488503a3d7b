"""The pure poker core: no Django, Channels or app import (tests/poker/test_purity.py).

- ``poker.rulebooks``: citations and the rulebook slugs and labels;
- ``poker.houserules``: the house-rule profiles, every parameter cited;
- ``poker.hand``: the hand engine (cards, pots, evaluation, spec, formats,
  replay, PHH translation, floor corrections);
- ``poker.floor``: the chip-action interpreter and the floor procedures;
- ``poker.tournament``: seating, balancing, breaking, buttons, chip race,
  clock and payouts.
"""
