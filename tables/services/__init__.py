"""Every write to a table goes through a function of this package.

Each service is one step of the write path (:func:`tables.writepath.write_step`):
it locks the table row (one writer per table), checks the client's
``expected_seq``, applies the pure engine, appends a ``HandEvent``, bumps
``Table.seq`` and broadcasts the new table snapshot after the commit (never
before).  A message whose ``client_id`` was already applied is
acknowledged with the original ``seq`` and changes nothing.  Errors raise
``ServiceError`` with a machine code (see docs/protocol.md) and leave the
database untouched.

The modules, by job: :mod:`~tables.services.replay` (stored specs, the
replay cache, house rules), :mod:`~tables.services.snapshots` (what clients
see), :mod:`~tables.services.steps` (locking, appending, broadcasting),
:mod:`~tables.services.hands` (the deal and the dealer's actions),
:mod:`~tables.services.formats` (straddles, bomb pot, flip, double board,
run it twice), :mod:`~tables.services.floor` (out of turn, "time",
corrections), :mod:`~tables.services.seating` (tables and seats between
hands).  This module re-exports their public names (:data:`__all__`), so
``tables.services.X`` is the one name the apps use; a name with a leading
underscore stays inside its module.
"""

from tables.services.floor import (
    BETTING_TYPES,
    DEFAULT_TIME_SECONDS,
    EXPIRY_TOLERANCE_SECONDS,
    apply_corrections,
    call_time,
    expire_time,
    record_out_of_turn,
)
from tables.services.formats import (
    FORMAT_KINDS,
    apply_format,
    clean_format,
    run_it_twice,
    set_table_formats,
)
from tables.services.hands import (
    LATE_ACTIONS,
    apply_action,
    build_spec,
    start_hand,
)
from tables.services.replay import (
    hand_replay,
    hand_state,
    hand_state_and_index,
    rules_for_table,
    spec_from_dict,
    spec_to_dict,
    state_cache,
)
from tables.services.seating import (
    SeatChange,
    create_table,
    seat_player,
    set_seat,
    set_seats,
    set_seats_at,
    set_table_status,
    unseat_player,
    vacate_seats,
)
from tables.services.snapshots import (
    FLOOR_GROUP,
    STRADDLE_KINDS,
    format_view,
    hand_events,
    hand_view,
    next_button_seat,
    table_group,
    table_snapshot,
    table_snapshots,
    table_straddle_kinds,
)
from tables.services.steps import (
    Outcome,
    commit_table_change,
    live_hand,
    lock_table,
)
from tables.writepath import ServiceError, send_on_commit

__all__ = [
    "apply_action",
    "apply_corrections",
    "apply_format",
    "BETTING_TYPES",
    "build_spec",
    "call_time",
    "clean_format",
    "commit_table_change",
    "create_table",
    "DEFAULT_TIME_SECONDS",
    "expire_time",
    "EXPIRY_TOLERANCE_SECONDS",
    "FLOOR_GROUP",
    "FORMAT_KINDS",
    "format_view",
    "hand_events",
    "hand_replay",
    "hand_state",
    "hand_state_and_index",
    "hand_view",
    "LATE_ACTIONS",
    "live_hand",
    "lock_table",
    "next_button_seat",
    "Outcome",
    "record_out_of_turn",
    "rules_for_table",
    "run_it_twice",
    "seat_player",
    "SeatChange",
    "send_on_commit",
    "ServiceError",
    "set_seat",
    "set_seats",
    "set_seats_at",
    "set_table_formats",
    "set_table_status",
    "spec_from_dict",
    "spec_to_dict",
    "start_hand",
    "state_cache",
    "STRADDLE_KINDS",
    "table_group",
    "table_snapshot",
    "table_snapshots",
    "table_straddle_kinds",
    "unseat_player",
    "vacate_seats",
]
