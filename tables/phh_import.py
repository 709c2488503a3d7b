"""Reading, replaying and checking PHH hand histories, shared by ``manage.py replay_phh`` (a live table per
hand, through the dealer services) and ``manage.py import_phh`` (the archive, in bulk; issue 27).

The engine replays each hand as a dealer would enter it (:class:`Replica`); the recorded result
(``finishing_stacks``, else ``winnings``) is checked exactly (:func:`check_recorded`).  For the archive,
:func:`replay_file` does the whole check of one file without the database (so it runs in worker
processes) and returns each hand's result line with the row it would be archived as;
:func:`write_archive` writes a batch of such rows in one transaction.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import os
import re
import zoneinfo
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from django.db import connection, transaction

from poker.hand import EngineError, HandSpec, HandState, Rules, load_spec
from poker.hand.phh import (
    PhhHand,
    PhhLoadError,
    awards_from_winnings,
    collected,
    export_phh,
    load_phh_file,
    translate_action,
    winnings_mismatch,
)
from poker.hand.phh_stud import StudPhhHand, export_stud_phh, replay_stud
from poker.hand.records import ActionRecord
from poker.hand.stud_spec import StudSpec
from poker.houserules import get_profile


class ReplayError(Exception):
    """A recorded action that could not be applied as recorded."""


def find_phh_files(paths: list[str]) -> list[Path]:
    """Files given, and ``*.phh`` / ``*.phhs`` files found recursively in folders given, sorted."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in (".phh", ".phhs") and p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            raise CommandError(f"no such file or folder: {raw}")
    return found


def rules_for(name: str | None) -> Rules | None:
    """Engine rules of ``--rules``: ``pokerkit`` or a profile slug; None
    when not given. Raises CommandError for an unknown name."""
    if name is None:
        return None
    if name.strip().lower() == "pokerkit":
        return Rules.pokerkit()
    try:
        return Rules.from_house_rules(get_profile(name))
    except KeyError as exc:
        raise CommandError(f"--rules: {exc.args[0]}; or pokerkit") from None


def spec_for(hand: PhhHand, rules: Rules | None = None) -> HandSpec:
    """The engine spec of a flop game's PHH hand (positions in PHH order; the last seat is the button;
    a stud hand has its own path, :func:`poker.hand.phh_stud.replay_stud`). ``rules`` None: the file's
    ``_rules`` when it has them (a pokerfloor export), else pokerkit's reading."""
    if rules is None and "_rules" not in hand.extra:
        rules = Rules.pokerkit()
    spec = hand.spec(rules)
    return dataclasses.replace(spec, button_seat=spec.seats[-1].seat)


def rules_label(rules: Rules) -> str | dict:
    """``"pokerkit"`` for pokerkit's reading, else the rules as a dict (the result lines' ``rules``)."""
    return "pokerkit" if rules == Rules.pokerkit() else rules.to_dict()


class Replica:
    """The dealer's own view of the hand, used to read a PHH line as the
    dealer would enter it (``cc`` is a check or a call depending on the
    situation).  Raises ReplayError when a line does not fit the hand."""

    def __init__(self, spec: HandSpec) -> None:
        self.state = HandState.start(spec)
        self.before: HandState | None = None
        self.unchecked: list[str] = []

    def apply(self, action: ActionRecord, line: str) -> None:
        try:
            new = self.state.apply(action)
        except EngineError as exc:
            raise ReplayError(f"{line!r}: {exc.code}: {exc.message}") from None
        if not self.state.is_complete:
            # the state before the action that ended the hand (shows after an
            # uncontested win leave it): collected() reads the matched bet there
            self.before = self.state
        self.state = new

    def translate(self, line: str) -> ActionRecord | None:
        try:
            action = translate_action(self.state, line)
        except EngineError as exc:
            raise ReplayError(f"{line!r}: {exc.code}: {exc.message}") from None
        if action is not None:
            self.apply(action, line)
        return action

    def steps(self, hand: PhhHand) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(line, action)`` of each recorded action (its dict, as the tablet sends it), applied
        here as it is yielded; then, when the showdown waits for awards (hole cards
        unknown) and the hand records ``winnings``, the awards they say."""
        for line in hand.actions:
            action = self.translate(line)
            if action is not None:
                yield line, action.to_dict()
        if hand.winnings is not None:
            for award in awards_from_winnings(self.state, hand.winnings):
                line = f"award pot {award.pot} from the recorded winnings"
                self.unchecked.append(
                    f"who won pot {award.pot}: hole cards unknown, awarded as the recorded winnings say"
                )
                self.apply(award, line)
                yield line, award.to_dict()
            if self.state.phase == "showdown" and not any(hand.winnings):
                raise ReplayError(
                    "incomplete: hole cards unknown at the showdown and the recorded winnings are all zero, "
                    "so the record does not say who won"
                )


def check_recorded(result: dict[str, Any], hand: PhhHand, replica: Replica) -> None:
    """Fill ``ok``/``error``/``checked``/``unchecked`` of a replayed hand's result line by comparing
    ``result["actual"]`` (final stacks, chips per position) and the engine's collected winnings with the
    recorded ``finishing_stacks`` and ``winnings``.  ``ok`` only if every recorded figure matched and the
    record has at least one of them."""
    checked, unchecked = result["checked"], result["unchecked"]
    unchecked.extend(replica.unchecked)
    errors = []
    if hand.finishing_stacks is not None:
        checked.append("finishing_stacks")
        if result["actual"] != result["expected"]:
            errors.append("mismatch: final stacks differ from finishing_stacks")
    if hand.winnings is not None:
        checked.append("winnings")
        won = list(collected(replica.state, replica.before))
        if won != list(hand.winnings):
            errors.append(winnings_mismatch(hand.winnings, won))
    if not checked:
        errors.append("the file records neither finishing_stacks nor winnings: nothing to check the result against")
    result["error"] = "; ".join(errors) or None
    result["ok"] = not errors


def new_result(path: Path | str) -> dict[str, Any]:
    """An empty result line of one hand (the shape ``replay_phh --json`` prints)."""
    return {
        "file": str(path),
        "hand": None,
        "ok": False,
        "expected": None,
        "actual": None,
        "error": None,
        "rules": None,
        "chip_unit": None,
        "checked": [],
        "unchecked": [],
    }


def load_error_result(result: dict[str, Any], error: EngineError, rules: Rules | None) -> dict[str, Any]:
    """Fill the result line of a hand refused while loading (named as far as the file names it)."""
    result["error"] = f"{error.code}: {error.message}"
    result["hand"] = error.index if isinstance(error, PhhLoadError) else None
    if rules is not None:
        result["rules"] = rules_label(rules)
    return result


def load_hands(path: Path, chip_unit: Decimal | None) -> list[PhhHand | StudPhhHand | EngineError]:
    """The hands of one file (:func:`poker.hand.phh.load_phh_file`); an unreadable file is one error."""
    try:
        return list(load_phh_file(path, chip_unit))
    except (OSError, UnicodeDecodeError) as exc:
        return [EngineError("bad_spec", f"cannot read the file: {exc}")]


# ---------------------------------------------------------------- the archive (import_phh)

_REASON = re.compile(r"^[a-z]+(?:_[a-z]+)*$")


def reason_of(error: str | None) -> str:
    """The reason a hand was refused, for the import's summary: the error code of ``"<code>: ..."``
    (``"'p1 cc': not_your_turn: ..."`` -> ``"not_your_turn"``), ``"mismatch"``, ``"incomplete"``,
    ``"nothing_recorded"`` (neither finishing stacks nor winnings) or ``"other"``."""
    text = error or ""
    if text.startswith("'") or text.startswith('"'):
        # a replayed line in quotes, then its engine error
        text = text[text.find(text[0], 1) + 1 :].lstrip(": ")
    if text.startswith("the file records neither"):
        return "nothing_recorded"
    head = text.split(":", 1)[0].strip()
    return head if _REASON.match(head) else "other"


def _jsonable(value: Any) -> Any:
    """``value`` as JSON data: tuples as lists, dates, times and decimals as their text."""
    return json.loads(json.dumps(value, default=lambda v: v.isoformat() if hasattr(v, "isoformat") else str(v)))


def played_at(extra: dict[str, Any]) -> dt.datetime | None:
    """When the hand was played, from the record's ``year``, ``month``, ``day`` (and ``time``,
    ``time_zone``; UTC when it names none); None when the record lacks the date."""
    try:
        date = dt.date(int(extra["year"]), int(extra.get("month", 1)), int(extra.get("day", 1)))
    except (KeyError, TypeError, ValueError):
        return None
    time = extra.get("time")
    if isinstance(time, str):
        try:
            time = dt.time.fromisoformat(time)
        except ValueError:
            time = None
    if not isinstance(time, dt.time):
        time = dt.time(0, 0)
    try:
        zone: dt.tzinfo = zoneinfo.ZoneInfo(str(extra["time_zone"])) if extra.get("time_zone") else dt.UTC
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        zone = dt.UTC
    return dt.datetime.combine(date, time.replace(tzinfo=None), tzinfo=zone)


#: Record fields the export writes again from the spec (not kept in ``metadata``).
_SPEC_FIELDS = frozenset(
    {"_rules", "_button_seat", "_bomb_pot", "_flip", "_boards", "_run_it_twice_min_pot", "_stakes", "_straddles"}
)


def archive_row(
    hand: PhhHand, number: int, spec: HandSpec, replica: Replica, result: dict, source: str
) -> dict[str, Any]:
    """The :class:`tables.models.ArchivedHand` fields of a checked hand (plain data: it crosses processes);
    ``source``: the file's absolute path."""
    state = replica.state
    won = list(collected(state, replica.before))
    return _row(hand, number, spec, state.history, list(state.final_stacks or ()), won, result, source)


def _row(
    hand: PhhHand | StudPhhHand,
    number: int,
    spec: HandSpec | StudSpec,
    history: Any,
    final: list[int],
    won: list[int],
    result: dict,
    source: str,
) -> dict[str, Any]:
    """The archive row of a checked hand of any game (:func:`archive_row`, :func:`check_stud_hand`)."""
    players = [
        {"name": s.player, "seat": s.seat, "start": s.stack, "finish": final[i] if final else None, "won": won[i]}
        for i, s in enumerate(spec.seats)
    ]
    extra = hand.extra
    return {
        "source_file": source,
        "number": number,
        "index": hand.index or "",
        "variant": hand.variant,
        "played_at": played_at(extra),
        "table_name": str(extra.get("table", ""))[:200],
        "event": str(extra.get("event", ""))[:300],
        "players": players,
        "player_count": len(players),
        "finishing_stacks": final,
        "winnings": won,
        "spec": spec.to_dict(),
        "actions": [a.to_dict() for a in history],
        "metadata": _jsonable({k: v for k, v in extra.items() if k not in _SPEC_FIELDS}),
        "pot": sum(won),
        "chip_unit": str(hand.chip_unit),
        "rules": result["rules"],
        "checked": list(result["checked"]),
        "unchecked": list(result["unchecked"]),
    }


def check_hand(
    hand: PhhHand | StudPhhHand | EngineError, path: Path, number: int, rules: Rules | None, source: str | None = None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Replay one hand with the engine alone and check its recorded result.

    Returns ``(result line, archive row or None)``: the row (:func:`archive_row`) only when the hand is
    ``ok``.  Never raises for bad data."""
    result = new_result(path)
    if isinstance(hand, EngineError):
        return load_error_result(result, hand, rules), None
    result["hand"] = hand.index
    result["chip_unit"] = str(hand.chip_unit)
    result["expected"] = list(hand.finishing_stacks) if hand.finishing_stacks is not None else None
    if isinstance(hand, StudPhhHand):
        return check_stud_hand(hand, number, rules, result, source or os.path.abspath(path))
    try:
        spec = spec_for(hand, rules)
        result["rules"] = rules_label(spec.rules)
        replica = Replica(spec)
        for _step in replica.steps(hand):
            pass
        if not replica.state.is_complete or replica.state.final_stacks is None:
            raise ReplayError(
                f"incomplete: hand not complete after the last recorded action (phase {replica.state.phase})"
            )
        result["actual"] = list(replica.state.final_stacks)
        check_recorded(result, hand, replica)
        if result["ok"]:
            return result, archive_row(hand, number, spec, replica, result, source or os.path.abspath(path))
    except EngineError as exc:
        result["error"] = f"{exc.code}: {exc.message}"
    except (ReplayError, ValueError, KeyError, TypeError, OSError) as exc:
        result["error"] = str(exc)
    return result, None


def check_stud_hand(
    hand: StudPhhHand, number: int, rules: Rules | None, result: dict[str, Any], source: str
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """:func:`check_hand` of a stud hand (``F7S``, ``FR``, ``F7S/8``): the engine's stud replay
    (:func:`poker.hand.phh_stud.replay_stud`, pokerkit's reading unless the file carries our rules), its
    recorded ``finishing_stacks`` checked; the archive row keeps the stud spec and actions."""
    if rules is None and "_rules" not in hand.extra:
        rules = Rules.pokerkit()
    try:
        spec = hand.spec(rules)
    except EngineError as exc:
        result["error"] = f"{exc.code}: {exc.message}"
        return result, None
    result["rules"] = rules_label(spec.rules)
    replayed = replay_stud(hand, rules)
    result["actual"] = list(replayed.actual) if replayed.actual is not None else None
    result["checked"].extend(replayed.checked)
    result["unchecked"].extend(replayed.unchecked)
    result["ok"], result["error"] = replayed.ok, replayed.error
    state = replayed.state
    if not replayed.ok or state is None or state.final_stacks is None:
        return result, None
    won = [0] * len(spec.seats)
    for award in state.awards:
        won[award.position] += award.amount
    return result, _row(hand, number, spec, state.history, list(state.final_stacks), won, result, source)


def replay_file(
    path: str, rules_name: str | None = None, chip_unit: str | None = None
) -> list[tuple[dict, dict | None]]:
    """Check every hand of one file (:func:`check_hand`, numbered 1.. in file order). Plain arguments and
    results, no database: runs in a worker process of ``import_phh --jobs``."""
    rules = rules_for(rules_name)
    unit = Decimal(chip_unit) if chip_unit is not None else None
    file = Path(path)
    source = os.path.abspath(file)  # the file's name in the archive (no symlink lookups: cheaper than resolve)
    return [check_hand(hand, file, n, rules, source) for n, hand in enumerate(load_hands(file, unit), start=1)]


def existing_records(keys: set[tuple[str, int]]) -> set[tuple[str, int]]:
    """Those ``(source_file, number)`` of ``keys`` already in the archive (one query per 500 files)."""
    from tables.models import ArchivedHand

    files = sorted({f for f, _n in keys})
    found: set[tuple[str, int]] = set()
    for start in range(0, len(files), 500):
        rows = ArchivedHand.objects.filter(source_file__in=files[start : start + 500]).values_list(
            "source_file", "number"
        )
        found.update((f, n) for f, n in rows if (f, n) in keys)
    return found


#: ArchivedHand fields stored as JSON (``json.dumps`` for COPY; None stays SQL NULL).
_JSON_FIELDS = frozenset(
    {"players", "finishing_stacks", "winnings", "spec", "actions", "metadata", "rules", "checked", "unchecked"}
)


def write_archive(rows: list[dict[str, Any]]) -> tuple[int, int]:
    """Write checked hands (:func:`archive_row`) to the archive in one transaction: on PostgreSQL with
    ``COPY`` (ids drawn from the table's sequence first, so that the players' rows can name their hand),
    elsewhere with ``bulk_create``.

    A hand already archived (same ``source_file`` and ``number``) is skipped.
    Returns ``(written, skipped)``."""
    if not rows:
        return 0, 0
    with transaction.atomic():
        have = existing_records({(r["source_file"], r["number"]) for r in rows})
        fresh, seen = [], set()
        for row in rows:
            key = (row["source_file"], row["number"])
            if key in have or key in seen:
                continue
            seen.add(key)
            fresh.append(row)
        now = dt.datetime.now(dt.UTC)
        if connection.vendor == "postgresql":
            _copy_archive(fresh, now)
        else:
            _bulk_create_archive(fresh, now)
    return len(fresh), len(rows) - len(fresh)


@functools.lru_cache(maxsize=4096)
def _name_key(name: str) -> str:
    from tables.models import name_key

    return name_key(name)[:100]


def _player_values(p: dict[str, Any]) -> tuple:
    return (p["name"][:100], _name_key(p["name"]), p["seat"], p["start"], p["finish"], p["won"])


_PLAYER_FIELDS = ("name", "name_key", "seat", "starting_stack", "finishing_stack", "won")


def _copy_archive(rows: list[dict[str, Any]], now: dt.datetime) -> None:
    from tables.models import ArchivedHand, ArchivedHandPlayer

    if not rows:
        return
    hand_table, player_table = ArchivedHand._meta.db_table, ArchivedHandPlayer._meta.db_table
    fields = [f for f in ArchivedHand._meta.concrete_fields if not f.primary_key]
    names = [f.attname for f in fields]
    dumps = json.dumps
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [hand_table, len(rows)]
        )
        ids = [i for (i,) in cursor.fetchall()]
        raw = cursor.cursor  # psycopg's own cursor: COPY
        columns = ", ".join(f'"{f.column}"' for f in fields)
        with raw.copy(f'COPY "{hand_table}" ("id", {columns}) FROM STDIN') as copy:
            for hand_id, row in zip(ids, rows):
                row = {**row, "imported_at": now}
                copy.write_row(
                    (
                        hand_id,
                        *((None if row[n] is None else dumps(row[n])) if n in _JSON_FIELDS else row[n] for n in names),
                    )
                )
        column_of = {f.name: f.column for f in ArchivedHandPlayer._meta.concrete_fields}
        columns = ", ".join(f'"{column_of[n]}"' for n in _PLAYER_FIELDS)
        with raw.copy(f'COPY "{player_table}" ("hand_id", {columns}) FROM STDIN') as copy:
            for hand_id, row in zip(ids, rows):
                for p in row["players"]:
                    copy.write_row((hand_id, *_player_values(p)))


def _bulk_create_archive(rows: list[dict[str, Any]], now: dt.datetime) -> None:
    from tables.models import ArchivedHand, ArchivedHandPlayer

    hands = ArchivedHand.objects.bulk_create([ArchivedHand(imported_at=now, **row) for row in rows], batch_size=1000)
    ArchivedHandPlayer.objects.bulk_create(
        [
            ArchivedHandPlayer(hand_id=hand.pk, **dict(zip(_PLAYER_FIELDS, _player_values(p))))
            for hand in hands
            for p in hand.players
        ],
        batch_size=2000,
    )


def archived_phh(hand: Any) -> str:
    """One :class:`tables.models.ArchivedHand` as PHH text (:func:`poker.hand.phh.export_phh` of its spec and
    actions, with the record's metadata and ``_source``/``_number``); amounts in chips of its
    ``chip_unit`` (written as ``_chip_unit`` when not 1)."""
    metadata = {k: v for k, v in (hand.metadata or {}).items() if k not in _SPEC_FIELDS and v is not None}
    metadata.pop("_chip_unit", None)
    if hand.chip_unit not in ("1", ""):
        metadata["_chip_unit"] = hand.chip_unit
    metadata.setdefault("_source", Path(hand.source_file).name)
    metadata.setdefault("_number", hand.number)
    spec = load_spec(hand.spec)
    if isinstance(spec, StudSpec):  # F7S, FR, F7S/8
        return export_stud_phh(spec, hand.actions, **metadata)
    return export_phh(spec, hand.actions, **metadata)


def iter_phhs(hands: Any) -> Iterator[str]:
    """Several archived hands as ``.phhs`` text, hand by hand (TOML tables ``[1]``, ``[2]`` ... separated by
    a blank line, as pokerkit's ``HandHistory.dumps_all`` writes them): for a streamed download."""
    for i, hand in enumerate(hands, start=1):
        yield f"{'' if i == 1 else chr(10) * 2}[{i}]\n{archived_phh(hand)}"


def archived_phhs(hands: Any) -> str:
    """Several archived hands as one ``.phhs`` text (:func:`iter_phhs` joined)."""
    return "".join(iter_phhs(hands))
