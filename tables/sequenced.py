"""The rows the write path locks and counts (``tables.writepath.WriteStep``): a room, a table, a tournament.

Each carries ``seq``, the number of its last log entry: every change appends entries and raises it by one
per entry, and a client that saw seq N asks for what came after N (docs/protocol.md "Sequence numbers").
"""

from __future__ import annotations

from django.db import models


class SequencedRow(models.Model):
    """An abstract model with the write path's ``seq`` (a big integer, 0 before the first entry)."""

    seq = models.BigIntegerField(default=0)

    class Meta:
        abstract = True
