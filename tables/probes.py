"""Probes: what the apps' deal and hand-end hooks need to know, read in
the statement that locks the table.

A hook of :mod:`tables.hooks` (the next hand's spec of a tournament table,
a cash game's spec adjustments, a penalty's dead hand...) has nothing to do
at most tables, yet finding that out costs it a query per deal.  An app
registers with the hook a *probe*: a boolean SQL expression over the locked
table row, aliased ``t`` (for example ``EXISTS (SELECT 1 FROM
tournaments_tournamenttable tt WHERE tt.table_id = t.id)``).
:func:`tables.services.steps.lock_table` evaluates every probe in its one
statement and keeps the answers on the table object; the hook dispatchers
of :mod:`tables.hooks` then skip a hook whose probe said False.  A table
loaded any other way has no answers, and every hook runs, as before.

A probe must be true whenever its hook could do anything at that table;
it may be true when the hook turns out to have nothing to do.

A tablet hook (``open_calls``) may have a probe too (:func:`register_connect`), read in the one
statement of a dealer tablet's connect (:func:`any_of_sql`, :mod:`tables.tablet_open`) and never at a
lock: a table without an open floor call costs its tablet no read of the floor calls.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

_lock = threading.Lock()

#: Hook function -> (probe name, SQL expression over the locked table ``t``).
_PROBES: dict[Callable[..., Any], tuple[str, str]] = {}

#: Tablet hook function -> SQL expression over the table row ``t`` (:func:`register_connect`).
_CONNECT_PROBES: dict[Callable[..., Any], str] = {}

#: :func:`select_sql`'s answer, built once per change of :data:`_PROBES` (it is read at every lock).
_select: tuple[str, list[str]] | None = None

#: :func:`none_sql`'s answers by ``(functions, table)``, dropped at every change of :data:`_PROBES` (a hand's
#: end and a deal of the fast path ask at every hand).
_none: dict[tuple[tuple[Callable[..., Any], ...], str], str | None] = {}


def register(fn: Callable[..., Any], sql: str) -> Callable[..., Any]:
    """Skip ``fn`` (a function registered with a hook of :mod:`tables.hooks`)
    at a deal or hand end where ``sql`` (a boolean SQL expression over the
    locked table row ``t``, without parameters) is false.  Returns ``fn``."""
    global _select
    with _lock:
        _PROBES[fn] = (f"probe_{len(_PROBES)}", sql)
        _select = None
        _none.clear()
    return fn


def register_connect(fn: Callable[..., Any], sql: str) -> Callable[..., Any]:
    """Skip ``fn`` (a tablet hook's function) at a tablet's connect where ``sql`` (a boolean SQL
    expression over the table row ``t``, without parameters) is false.  Returns ``fn``."""
    with _lock:
        _CONNECT_PROBES[fn] = sql
    return fn


def unregister(fn: Callable[..., Any]) -> None:
    """Forget ``fn``'s probes (the hook then always runs)."""
    global _select
    with _lock:
        _PROBES.pop(fn, None)
        _CONNECT_PROBES.pop(fn, None)
        _select = None
        _none.clear()


def select_sql() -> tuple[str, list[str]]:
    """The select-list fragment of every probe (``", (<sql>) AS probe_0, ..."``)
    and the probe names in that order, for the statement that locks ``t``."""
    global _select
    with _lock:
        if _select is None:
            probes = list(_PROBES.values())
            _select = ("".join(f", ({sql})" for _, sql in probes), [name for name, _ in probes])
        return _select


def any_of_sql(fns: list[Callable[..., Any]]) -> str:
    """A boolean SQL expression over a table row ``t``: may any of ``fns`` (tablet hooks' functions)
    have something to do there?  ``TRUE`` when one of them has no :func:`register_connect` probe,
    ``FALSE`` when ``fns`` is empty."""
    with _lock:
        sqls = [_CONNECT_PROBES[fn] for fn in fns if fn in _CONNECT_PROBES]
    if len(sqls) < len(fns):
        return "TRUE"
    return " OR ".join(f"({sql})" for sql in sqls) or "FALSE"


def none_sql(fns: list[Callable[..., Any]], table: str) -> str | None:
    """A boolean SQL condition: none of ``fns`` (hand hooks' functions) has anything to do at the
    row of ``table`` (the tables' table as the statement names it, unaliased, e.g.
    ``"tables_table"``) that a statement updates: every probe false, each read over that row aliased
    ``t``.  For a statement that writes a hand's end without the locked step
    (``tables.services.fastpath``): where it is false the statement writes nothing, and the step,
    which runs the hooks, writes the end instead.  ``"TRUE"`` when ``fns`` is empty; None when one of
    them has no probe (it must always run: no such statement then).

    Shape: ``NOT EXISTS (SELECT 1 FROM <table> t WHERE t.id = <table>.id AND ((p0) OR (p1)))``."""
    key = (tuple(fns), table)
    with _lock:
        if key not in _none:
            sqls = [_PROBES[fn][1] for fn in fns if fn in _PROBES]
            either = " OR ".join(f"({sql})" for sql in sqls)
            _none[key] = (
                None
                if len(sqls) < len(fns)
                else f"NOT EXISTS (SELECT 1 FROM {table} t WHERE t.id = {table}.id AND ({either}))"
                if sqls
                else "TRUE"
            )
        return _none[key]


def keep(table: Any, names: list[str], values: list[Any] | tuple[Any, ...]) -> None:
    """Keep the probes' answers (``values``, in the order of ``names``) on ``table``."""
    table._probes = dict(zip(names, values, strict=True))


def needed(table: Any, fn: Callable[..., Any]) -> bool:
    """False only when ``fn`` has a probe and ``table`` was locked with its answer False."""
    answers = getattr(table, "_probes", None)
    if answers is None:
        return True
    probe = _PROBES.get(fn)
    if probe is None:
        return True
    answer = answers.get(probe[0])
    return answer is None or bool(answer)
