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
hands).  This module re-exports their names (private ones too, for the
apps and tests that use them), so ``tables.services.X`` keeps working.
"""

from tables.services.floor import (  # noqa: F401
    BETTING_TYPES,
    DEFAULT_TIME_SECONDS,
    EXPIRY_TOLERANCE_SECONDS,
    _check_restriction,
    _info_after_action,
    _resolve_held,
    apply_corrections,
    call_time,
    expire_time,
    record_out_of_turn,
)
from tables.services.formats import (  # noqa: F401
    _FORMAT_KEYS,
    FORMAT_KINDS,
    _cite_000,
    _is_int,
    apply_format,
    clean_format,
    run_it_twice,
    set_table_formats,
)
from tables.services.hands import (  # noqa: F401
    LATE_ACTIONS,
    _check_spec_matches_seats,
    _dead_hands,
    apply_action,
    build_spec,
    start_hand,
)
from tables.services.replay import (  # noqa: F401
    _CACHE_SIZE,
    _cache_lock,
    _hand_replay,
    _hand_state_and_index,
    _no_info,
    _profile,
    _remember,
    _state_cache,
    hand_state,
    rules_for_table,
    spec_from_dict,
    spec_to_dict,
)
from tables.services.seating import (  # noqa: F401
    SeatChange,
    _call_next_for_seat,
    create_table,
    seat_player,
    set_seat,
    set_seats,
    set_seats_at,
    set_table_status,
    unseat_player,
    vacate_seats,
)
from tables.services.snapshots import (  # noqa: F401
    FLOOR_GROUP,
    STRADDLE_KINDS,
    _board_results,
    _dealt_in,
    _event_dict,
    _is_dealt_in,
    _next_button,
    _seat_cache,
    _seats,
    format_view,
    hand_events,
    hand_view,
    next_button_seat,
    table_group,
    table_snapshot,
    table_snapshots,
    table_straddle_kinds,
)
from tables.services.steps import (  # noqa: F401
    _HAND_FIELDS,
    _TABLE_FIELDS,
    Outcome,
    _append,
    _broadcast_on_commit,
    _commit_table_change,
    _duplicate_seq,
    _live,
    _live_hand,
    _lock_table,
    _repeated,
    _settle,
    _step,
    _table_changed,
    commit_table_change,
    live_hand,
    lock_table,
)
from tables.writepath import ServiceError, send_on_commit  # noqa: F401  (re-exported)
