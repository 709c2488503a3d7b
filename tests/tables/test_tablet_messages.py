"""The dealer tablet's message table (tables/tablet_messages.py): every message the socket accepts has its
row, and what the socket parses is exactly what the table (and the protocol document) lists."""

from __future__ import annotations

from typing import get_args

import pytest
from pydantic import ValidationError

from tables import schemas
from tables.tablet_messages import TABLET_MESSAGES, DealerMessage


def test_every_message_type_the_tablet_may_send_has_its_handler():
    accepted = set()
    for name in (
        "action",
        "start_hand",
        "out_of_turn",
        "call_time",
        "time_expired",
        "floor_call",
        "interpret",
        "run_it_twice",
        "undo",
        "undo_options",
        "procedure",
    ):
        row = TABLET_MESSAGES[name]
        assert get_args(row.schema.model_fields["type"].annotation) == (name,)
        accepted.add(name)
    assert set(TABLET_MESSAGES) == accepted


def test_the_socket_parses_the_tables_messages_and_the_snapshot_request_only():
    parsed = DealerMessage.validate_python({"type": "call_time", "seat": 3})
    assert isinstance(parsed, TABLET_MESSAGES["call_time"].schema) and parsed.seat == 3
    assert isinstance(DealerMessage.validate_python({"type": "snapshot"}), schemas.SnapshotRequest)
    for name in ("watch", "nope", "award"):  # the floor's request, nothing, an engine action outside "action"
        with pytest.raises(ValidationError):
            DealerMessage.validate_python({"type": name})
