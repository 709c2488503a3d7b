"""``manage.py import_phh PATH... [--dry-run] [--jobs N] [--rules SLUG] [--chip-unit 0.01] [--batch 500] [--json]``

Imports PHH hand histories (``.phh`` one hand, ``.phhs`` several; folders are searched recursively) into
the hand archive (:class:`tables.models.ArchivedHand`, ``/floor/archive/``), outside the live floor: no
table, seat or hand event is made (issue 27; ``manage.py replay_phh`` replays through the dealer
services instead).

Each hand is replayed by the engine as a dealer would enter it and its recorded result checked exactly as
``replay_phh`` checks it (:mod:`tables.phh_import`, the same code): only a hand whose every action applies
and whose ``finishing_stacks`` / ``winnings`` match is archived; any other hand is refused, with its reason
in the summary.  A file that cannot be read is refused as a whole (nothing of it is written).  Checked
hands are written in batches (``--batch``, default 500), each batch in one transaction with PostgreSQL's
``COPY`` (``bulk_create`` on another database; :func:`tables.phh_import.write_archive`); a hand already
archived (same file by its absolute path, same number in the file) is skipped, never duplicated.

``--dry-run`` checks everything and writes nothing.  ``--jobs N`` reads and replays the files in N worker
processes (default 1: in this process).  A progress bar (tqdm, on standard error) shows on a terminal, or
with ``--progress``.  Rules, chip unit: as ``replay_phh``.

Output: refused hands one line each (``--json``: one JSON object per hand, the ``replay_phh --json`` shape
plus ``"archived"``: ``"new"``, ``"already"`` or null), then the summary: hands read, matched, archived,
already archived, refused by reason (``mismatch``, ``incomplete``, ``bad_spec``, ``not_your_turn`` ...),
hands per second.  Exit code 0 only if no hand was refused.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from tables.phh_import import existing_records, find_phh_files, reason_of, replay_file, rules_for, write_archive


class Command(BaseCommand):
    help = "Import PHH hand histories into the hand archive (checked by the engine, written in bulk)."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="PHH files (.phh, .phhs) or folders (searched recursively)")
        parser.add_argument("--dry-run", action="store_true", help="check every hand, write nothing")
        parser.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)")
        parser.add_argument(
            "--rules",
            metavar="SLUG",
            help="pokerkit or a house-rule profile slug (default: the file's _rules, else pokerkit)",
        )
        parser.add_argument(
            "--chip-unit",
            metavar="AMOUNT",
            help="the amount that is one chip, e.g. 0.01 (default: each hand's own decimal places)",
        )
        parser.add_argument("--batch", type=int, default=500, metavar="N", help="hands per transaction")
        parser.add_argument("--json", action="store_true", help="one JSON object per hand, then the summary")
        parser.add_argument("--progress", action="store_true", help="show the progress bar off a terminal too")

    def handle(self, *args, **options):
        files = find_phh_files(options["paths"])
        rules_for(options["rules"])  # an unknown name stops here, before any work
        chip_unit = options["chip_unit"]
        if chip_unit is not None:
            try:
                unit = Decimal(chip_unit)
            except InvalidOperation:
                raise CommandError(f"--chip-unit: {chip_unit!r} is not an amount") from None
            if not unit.is_finite() or unit <= 0:
                raise CommandError(f"--chip-unit: {chip_unit!r} must be a positive amount")
        if options["jobs"] < 1 or options["batch"] < 1:
            raise CommandError("--jobs and --batch take a positive number")
        started = time.perf_counter()
        counts: Counter[str] = Counter()
        refused: Counter[str] = Counter()
        pending: list[dict[str, Any]] = []
        pending_results: list[dict[str, Any]] = []
        bar = tqdm(
            total=len(files),
            unit="file",
            file=sys.stderr,
            disable=not (options["progress"] or sys.stderr.isatty()),
            desc="import_phh",
        )

        def flush() -> None:
            if options["dry_run"]:
                have = existing_records({(r["source_file"], r["number"]) for r in pending})
                written = sum((r["source_file"], r["number"]) not in have for r in pending)
                already = {(r["source_file"], r["number"]) for r in pending} & have
            else:
                written, _skipped = write_archive(pending)
                already = None
            counts["archived"] += written
            counts["already"] += len(pending) - written
            for result, row in zip(pending_results, pending):
                key = (row["source_file"], row["number"])
                result["archived"] = "already" if already is not None and key in already else "new"
                if options["json"]:
                    self.stdout.write(json.dumps(result))
            pending.clear()
            pending_results.clear()

        try:
            for file_results in self._replayed(files, options):
                bar.update(1)
                for result, row in file_results:
                    counts["read"] += 1
                    if row is None:
                        refused[reason_of(result["error"])] += 1
                        result["archived"] = None
                        self.report(result, options["json"])
                        continue
                    counts["matched"] += 1
                    pending.append(row)
                    pending_results.append(result)
                if len(pending) >= options["batch"]:
                    flush()
            flush()
        finally:
            bar.close()
        elapsed = time.perf_counter() - started
        self.summary(counts, refused, elapsed, options)
        if refused:
            sys.exit(1)

    def _replayed(self, files, options):
        """Each file's ``[(result, row or None), ...]`` in file order, from worker processes with ``--jobs``."""
        args = (options["rules"], options["chip_unit"])
        if options["jobs"] == 1 or len(files) < 2:
            for path in files:
                yield replay_file(str(path), *args)
            return
        # workers touch no database (fork: they inherit Django set up; replay_file reads files only)
        with ProcessPoolExecutor(max_workers=options["jobs"]) as pool:
            chunk = max(1, min(64, len(files) // (options["jobs"] * 8)))
            yield from pool.map(
                replay_file,
                [str(p) for p in files],
                [args[0]] * len(files),
                [args[1]] * len(files),
                chunksize=chunk,
            )

    def report(self, result: dict[str, Any], as_json: bool) -> None:
        """One refused hand's line."""
        if as_json:
            self.stdout.write(json.dumps(result))
            return
        where = result["file"] + (f" [{result['hand']}]" if result["hand"] else "")
        self.stdout.write(f"REFUSED {where}  {result['error']}")

    def summary(self, counts: Counter, refused: Counter, elapsed: float, options: dict) -> None:
        """The closing lines: what was read, matched, archived, and refused by reason."""
        rate = counts["read"] / elapsed if elapsed > 0 else 0.0
        data = {
            "summary": True,
            "dry_run": options["dry_run"],
            "read": counts["read"],
            "matched": counts["matched"],
            "archived": 0 if options["dry_run"] else counts["archived"],
            "would_archive": counts["archived"] if options["dry_run"] else None,
            "already": counts["already"],
            "refused": sum(refused.values()),
            "refused_by_reason": dict(sorted(refused.items())),
            "seconds": round(elapsed, 3),
            "hands_per_second": round(rate, 1),
        }
        if options["json"]:
            self.stdout.write(json.dumps(data))
            return
        verb = "would archive" if options["dry_run"] else "archived"
        self.stdout.write(
            f"{data['read']} hands read: {data['matched']} matched, {counts['archived']} {verb}, "
            f"{data['already']} already archived, {data['refused']} refused"
            f"{' (dry run: nothing written)' if options['dry_run'] else ''}"
        )
        for reason, n in sorted(refused.items(), key=lambda item: (-item[1], item[0])):
            self.stdout.write(f"  refused {n}: {reason}")
        self.stdout.write(f"{data['seconds']} s, {data['hands_per_second']} hands/s")
