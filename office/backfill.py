"""Hours for hands dealt before the player record existed (issue 28): the hands' ``metadata['player_ids']``
back-filled from their seat names.

A hand dealt since the player record knows who sat where by id (``tables.services.hands`` writes
``player_ids`` at the deal); an older hand has only the names in its spec.  :func:`backfill_player_ids`
matches each seat's name to the live player records (not merged, not erased) by the normalised name
(``tables.models.name_key``: case, spacing and accents apart) and writes the id where exactly one record
matches.  A name two live records share is ambiguous (merge the duplicates first, ``/office/players/``)
and left out, as is a name no record has.  Seats that already have an id are never touched, so a second
run changes nothing.  Hands of imported tables (PHH files of other rooms) are left out.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction

from tables.models import Hand, Player, name_key

BATCH = 500


@dataclass
class Backfill:
    """What a run did: ``hands`` examined, ``updated`` (hands given ids), ``seats`` (seat ids written),
    ``ambiguous`` (name as written -> the ids of the live records sharing its key, and ``ambiguous_seats``
    how many seats it sat in), ``unmatched`` (name -> seats, no live record)."""

    hands: int = 0
    updated: int = 0
    seats: int = 0
    ambiguous: dict[str, list[int]] = field(default_factory=dict)
    ambiguous_seats: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    unmatched: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def backfill_player_ids(*, dry_run: bool = False) -> Backfill:
    """Fill ``Hand.metadata['player_ids']`` (``{"<seat>": player id}``) for the seats of every hand of a live
    (not imported) table that lack one, from the seat's name in ``Hand.spec['seats']`` (see the module).
    ``dry_run``: count only, write nothing.  Returns the :class:`Backfill` report.  Idempotent."""
    by_key: dict[str, list[int]] = defaultdict(list)
    for pk, key in (
        Player.objects.filter(merged_into__isnull=True, erased_at__isnull=True)
        .order_by("id")
        .values_list("id", "name_key")
    ):
        by_key[key].append(pk)
    report = Backfill()
    batch: list[Hand] = []
    hands = Hand.objects.filter(table__imported=False).only("id", "spec", "metadata").order_by("id")
    for hand in hands.iterator(chunk_size=BATCH):
        report.hands += 1
        metadata = hand.metadata if isinstance(hand.metadata, dict) else {}
        ids = dict(metadata.get("player_ids") or {})
        added = 0
        for row in (hand.spec or {}).get("seats", []):
            seat, name = str(row.get("seat", "")), row.get("player") or ""
            if not seat or not name or seat in ids:
                continue
            found = by_key.get(name_key(name), [])
            if len(found) == 1:
                ids[seat] = found[0]
                added += 1
            elif found:
                report.ambiguous[name] = found
                report.ambiguous_seats[name] += 1
            else:
                report.unmatched[name] += 1
        if added:
            report.updated += 1
            report.seats += added
            hand.metadata = {**metadata, "player_ids": ids}
            batch.append(hand)
        if len(batch) >= BATCH:
            _write(batch, dry_run)
            batch = []
    _write(batch, dry_run)
    return report


def _write(batch: list[Hand], dry_run: bool) -> None:
    if batch and not dry_run:
        with transaction.atomic():
            Hand.objects.bulk_update(batch, ["metadata"])
