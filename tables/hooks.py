"""The hooks through which the apps above ``tables`` shape its hands and its tablet.

``tables`` is the ground floor: it imports none of ``rules``, ``room``,
``tournaments`` or ``pokerfloor``.  Those apps register functions here in
their ``AppConfig.ready()``; ``tables`` calls whatever is registered.
Registering the same function twice registers it once.  A hand hook may
come with a probe (:mod:`tables.probes`): a condition read in the statement
that locks the table, so that the hook is skipped at tables where it has
nothing to do.

Hand hooks (called by ``tables.services.start_hand`` and the write path,
inside the writing transaction, with the table row locked):

``register_spec_provider(fn)``
    ``fn(table, seats) -> HandSpec | None``.  A table run by its own rules
    (a tournament table: dead button, blinds from the clock) gets its whole
    next hand from ``fn`` (``button_seat`` set); ``None`` lets the next
    provider or the cash-game default decide.  ``seats`` are the table's
    ``Seat`` rows ordered by number, players selected.  Such hands take no
    special format.  ``fn`` may raise ``ServiceError``.
``register_spec_adjuster(fn)``
    ``fn(table, seats, spec) -> HandSpec``.  Applied in registration order
    to the cash-game default spec (``tables.services.build_spec``), e.g.
    the room's game variant, chip unit and big blinds owed after a seat
    change (000 Einsätze 4).
``register_before_deal(fn)``
    ``fn(table) -> None``, before the seats of the next hand are read, e.g.
    a disqualified player's chips leave play and his seat opens (000
    Strafen 4, 001 6.37, 004 #71).
``register_dead_hands(fn)``
    ``fn(table, seats, state) -> list[dict]``: ``kill`` actions
    (``{"type": "kill", "seat", "reason", "citations", ...}``) for seats
    dealt in whose hand is dead from the start, e.g. a player sitting out a
    penalty (004 #71, 001 6.37).  ``tables`` adds the absent players' kills
    itself (000 Allgemein 6, 001 6.14, 004 #30) for seats no hook killed.
``register_hand_completed(fn)``
    ``fn(*, table, hand, start_stacks, final_stacks, actor) -> None`` once a hand
    reached its end (pots awarded, final stacks written to the seats):
    ``table`` the locked ``Table``, ``hand`` the ``Hand`` (status
    ``complete``), the stacks as ``{seat number: chips}``, ``actor`` the
    login that entered the action completing it (a ``User``, or None).  It runs inside
    the writing transaction: raising aborts it, so ``fn`` adds rows of its
    own only.
``register_seat_opened(fn)``
    ``fn(table_id, seat_number) -> None`` after the commit that emptied a
    seat (the room's waitlist calls its next player, 000 Allgemein 15).
    A ``ServiceError`` it raises is ignored.

Tablet hooks (called by ``tables.consumers`` and ``tables.tablet_views``):

``register_open_calls(fn)``
    ``fn(table_id | None) -> list[dict]``: the floor calls still open (of
    one table, or all), each ``{"id", "table_id", ...}`` (docs/protocol.md
    ``floor_call``).  Several providers' lists are joined.  A provider with a
    connect probe (``tables.probes.register_connect``) is asked at a tablet's
    connect only where its probe says a call may be open.
``register_pending_moves(fn)``
    ``fn() -> list[dict]``: players on their way between tables (a
    tournament's balancing or breaking move not yet confirmed by both
    tablets, 004 #33), each ``{"id", "player", "from": {"table",
    "table_id", "seat"}, "to": {...}, "status" ("pending": not made yet,
    "moving": seated at the new table), "confirmed" (sides), "text_en",
    "text_de", "rule", "event" (its name), "confirm_url" (POST
    ``{"op": "confirm_move", "instruction": id}`` there confirms for the
    floor)}``.  Several providers' lists are joined; the floor dashboard
    shows them.
``register_floor_call(fn)``
    ``fn(table_id, reason, *, seat, note, details, actor) -> int``: the
    dealer calls the floor; returns the call's id.  One handler.
``register_interpreter(fn)``
    ``fn(table_id, observed) -> dict``: the tablet's "chips" entry read by
    the table's house rules.  One handler.
``register_citation_url(fn)``
    ``fn(citation) -> str | None``: the permalink of a cited rule.  One
    handler.
``register_table_stakes(fn)``
    ``fn(table) -> dict | None``: the stakes of a table whose game does not
    read the table's stakes fields as blinds, for the tablet's header and
    between-hands panel: ``{"game": "stud", "ante", "bring_in",
    "small_bet", "big_bet"}`` (chips) for Seven Card Stud; ``None`` for a
    game of blinds.  One handler.

A one-handler hook with nothing registered answers ``None`` from
:func:`handler`; callers refuse the request then.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from tables import probes
from tables.writepath import ServiceError

#: Hook name -> registered functions, in registration order.
_HOOKS: dict[str, list[Callable[..., Any]]] = {
    "spec_provider": [],
    "spec_adjuster": [],
    "before_deal": [],
    "dead_hands": [],
    "hand_completed": [],
    "seat_opened": [],
    "open_calls": [],
    "pending_moves": [],
    "floor_call": [],
    "interpreter": [],
    "citation_url": [],
    "table_stakes": [],
}
#: Hooks with one handler: a new registration replaces the old one.
_SINGLE = frozenset({"floor_call", "interpreter", "citation_url", "table_stakes"})


def register(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Register ``fn`` under hook ``name`` (a key of the module docstring's
    list); returns ``fn`` so it can decorate.  Raises ``KeyError`` for an
    unknown hook name."""
    hooks = _HOOKS[name]
    if name in _SINGLE:
        hooks[:] = [fn]
    elif fn not in hooks:
        hooks.append(fn)
    return fn


def unregister(name: str, fn: Callable[..., Any]) -> None:
    """Remove ``fn`` from hook ``name`` (nothing happens if it is not there)."""
    with contextlib.suppress(ValueError):
        _HOOKS[name].remove(fn)


def registered(name: str) -> list[Callable[..., Any]]:
    """The functions registered under hook ``name``, in order (a copy)."""
    return list(_HOOKS[name])


def handler(name: str) -> Callable[..., Any] | None:
    """The one handler of a one-handler hook, or None."""
    hooks = _HOOKS[name]
    return hooks[-1] if hooks else None


@contextlib.contextmanager
def replaced(name: str, *fns: Callable[..., Any]) -> Iterator[None]:
    """For tests: hook ``name`` holds exactly ``fns`` inside the block."""
    saved = list(_HOOKS[name])
    _HOOKS[name][:] = list(fns)
    try:
        yield
    finally:
        _HOOKS[name][:] = saved


def register_spec_provider(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table, seats) -> HandSpec | None``: see the module docstring."""
    return register("spec_provider", fn)


def register_spec_adjuster(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table, seats, spec) -> HandSpec``: see the module docstring."""
    return register("spec_adjuster", fn)


def register_before_deal(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table) -> None``: see the module docstring."""
    return register("before_deal", fn)


def register_dead_hands(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table, seats, state) -> list[kill action dict]``: see the module docstring."""
    return register("dead_hands", fn)


def register_hand_completed(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(*, table, hand, start_stacks, final_stacks, actor) -> None``: see the module docstring."""
    return register("hand_completed", fn)


def register_seat_opened(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table_id, seat_number) -> None`` after the commit: see the module docstring."""
    return register("seat_opened", fn)


def register_open_calls(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table_id | None) -> list[dict]``: see the module docstring."""
    return register("open_calls", fn)


def register_pending_moves(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn() -> list[dict]``: see the module docstring."""
    return register("pending_moves", fn)


def register_floor_call(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table_id, reason, *, seat, note, details, actor) -> call id``: see the module docstring."""
    return register("floor_call", fn)


def register_interpreter(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table_id, observed) -> dict``: see the module docstring."""
    return register("interpreter", fn)


def register_citation_url(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(citation dict) -> str | None``: see the module docstring."""
    return register("citation_url", fn)


def register_table_stakes(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(table) -> dict | None``: see the module docstring."""
    return register("table_stakes", fn)


# ---------------------------------------------------------------------------
# Callers' side


def next_hand_spec(table: Any, seats: list[Any]) -> Any:
    """The first spec a provider returns for the next hand, or None."""
    for provider in _HOOKS["spec_provider"]:
        if not probes.needed(table, provider):
            continue
        spec = provider(table, seats)
        if spec is not None:
            return spec
    return None


def adjust_spec(table: Any, seats: list[Any], spec: Any) -> Any:
    """``spec`` passed through every spec adjuster in order."""
    for adjuster in _HOOKS["spec_adjuster"]:
        if probes.needed(table, adjuster):
            spec = adjuster(table, seats, spec)
    return spec


def before_deal(table: Any) -> None:
    """Run every before-deal hook on the locked table."""
    for fn in _HOOKS["before_deal"]:
        if probes.needed(table, fn):
            fn(table)


def dead_hands(table: Any, seats: list[Any], state: Any) -> list[dict[str, Any]]:
    """The kill actions of every dead-hands hook, in order."""
    return [kill for fn in _HOOKS["dead_hands"] if probes.needed(table, fn) for kill in fn(table, seats, state)]


def hand_completed(
    *, table: Any, hand: Any, start_stacks: dict[int, int], final_stacks: dict[int, int], actor: Any = None
) -> None:
    """Tell every hand-completed hook (inside the writing transaction)."""
    for fn in _HOOKS["hand_completed"]:
        if not probes.needed(table, fn):
            continue
        fn(table=table, hand=hand, start_stacks=start_stacks, final_stacks=final_stacks, actor=actor)


def seat_opened(table_id: int, seat_number: int) -> None:
    """Tell every seat-opened hook (after the commit); a hook's refusal
    (``ServiceError``: nobody to call, the room is closed) is ignored."""
    for fn in _HOOKS["seat_opened"]:
        with contextlib.suppress(ServiceError):
            fn(table_id, seat_number)


def open_calls(table_id: int | None = None) -> list[dict[str, Any]]:
    """Open floor calls of one table (or all), from every provider."""
    return [call for fn in _HOOKS["open_calls"] for call in fn(table_id)]


def citation_url(citation: dict[str, Any]) -> str | None:
    """A cited rule's permalink, or None (also when no handler is registered)."""
    fn = handler("citation_url")
    return fn(citation) if fn is not None else None


def pending_moves() -> list[dict[str, Any]]:
    """Players changing tables, from every provider (see the module docstring)."""
    return [move for fn in _HOOKS["pending_moves"] for move in fn()]


def table_stakes(table: Any) -> dict[str, Any] | None:
    """The stakes of ``table`` when its game reads them other than as blinds (stud), else None
    (also when no handler is registered)."""
    fn = handler("table_stakes")
    return fn(table) if fn is not None else None
