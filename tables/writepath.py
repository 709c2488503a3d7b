"""The one write path of tables, room and tournaments.

Every mutation locks its row (one writer per table, room or tournament),
answers a repeated ``client_id`` with its first outcome, checks the
client's ``expected_seq``, appends to its log, bumps ``seq`` and broadcasts
after the commit (never before).  Refusals raise :class:`ServiceError` with
a machine code (docs/protocol.md) and leave the database untouched.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refused request: ``code`` is one of docs/protocol.md's error codes."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        """JSON form sent to clients: ``{"code", "message", ...extra}``."""
        return {"code": self.code, "message": self.message, **self.extra}
