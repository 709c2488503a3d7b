"""Every write to a tournament goes through a function of this package.

Each service is one write step (``tables.writepath.write_step``, one
transaction; see :mod:`.writes`).  Lock order, everywhere: first the
tournament's ``tables.Table`` rows (ascending id; the table services lock
them ``FOR NO KEY UPDATE``), then the ``Tournament`` row (``FOR UPDATE``).
A dealer's hand holds its table and then, in the hand-completed hook, the
tournament, which is the same order.  Every mutation appends a
:class:`~tournaments.models.TournamentEvent`, bumps ``Tournament.seq`` and
broadcasts the tournament snapshot at that seq to the group
``tournament.<id>`` after the commit.  Instructions to dealers
go to the table groups (``tables.services.table_group``) on commit too.

Errors raise ``tables.writepath.ServiceError(code, message)`` and change
nothing.  The procedures come from ``poker.tournament`` and name the rule
they applied (001 = Wynental, 004 = MunotPoker).

Modules, by job (each imports only those above it):

* :mod:`.reading` -- rulebook profile, structure, clock, payout table,
  which entry operations are allowed, the floor as engine values.
* :mod:`.snapshot` -- the director's and the lobby screen's snapshots.
* :mod:`.places` -- finishing places and prizes derived from the bust order
  (the one source of desk, TV, results and slips), the director's
  correction of the bust order; :mod:`.writes` refreshes them (it imports
  :mod:`.places`, which reaches back into :mod:`.writes` only inside a call).
* :mod:`.writes` -- locks, events and broadcasts (who: a person, or the
  system and the event that caused it), instructions, seat changes.
* :mod:`.moves` -- breaking/balancing plans, making and undoing moves.
* :mod:`.waitlist` -- late entries and the waitlist (004 #8, #72, #73).
* :mod:`.busts` -- busts, rebuys after a bust, finishes and the winner.
* :mod:`.hands` -- the next hand's spec and the completed hand.
* :mod:`.registration` -- create, register, check in, re-enter, surrender,
  rebuy, start.
* :mod:`.clock`, :mod:`.absent`, :mod:`.chiprace`, :mod:`.payouts` -- the
  director's clock, absent players, the chip race, the payout table.

The public names are importable from ``tournaments.services`` itself.
"""

from tables.writepath import ServiceError
from tournaments.services.absent import absent_state, set_absent
from tournaments.services.busts import decline_rebuy
from tournaments.services.chiprace import chip_race
from tournaments.services.clock import clock_action
from tournaments.services.hands import build_hand_spec, on_hand_completed, spec_provider
from tournaments.services.moves import execute_moves, rebalance, undo_move
from tournaments.services.payouts import set_payouts
from tournaments.services.reading import (
    ENTRY_OPS,
    RULEBOOKS,
    clock_of,
    engine_rules,
    entry_refusal,
    parse_structure,
    payout_table_of,
    tournament_group,
)
from tournaments.services.registration import (
    cancel_entry,
    check_in,
    create_tournament,
    re_enter,
    rebuy,
    register,
    rename_entry,
    start,
    surrender,
)
from tournaments.services.snapshot import PUBLIC_KEYS, public_snapshot, snapshot
from tournaments.services.waitlist import fill_waitlist, seat_waitlist

__all__ = [
    "ENTRY_OPS",
    "PUBLIC_KEYS",
    "RULEBOOKS",
    "ServiceError",
    "absent_state",
    "build_hand_spec",
    "cancel_entry",
    "check_in",
    "chip_race",
    "clock_action",
    "clock_of",
    "create_tournament",
    "decline_rebuy",
    "engine_rules",
    "entry_refusal",
    "execute_moves",
    "fill_waitlist",
    "on_hand_completed",
    "parse_structure",
    "payout_table_of",
    "public_snapshot",
    "re_enter",
    "rebalance",
    "rebuy",
    "register",
    "rename_entry",
    "seat_waitlist",
    "set_absent",
    "set_payouts",
    "snapshot",
    "spec_provider",
    "start",
    "surrender",
    "tournament_group",
    "undo_move",
]
