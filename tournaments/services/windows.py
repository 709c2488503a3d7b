"""The structure's windows for new chips: re-entry, rebuy and add-on.

A structure (``Tournament.structure``, see :mod:`.structures`) may name the
last period of each window: ``re_entry_until``, ``rebuy_until``,
``add_on_until`` (a period index; the window is open to the end of that
period).  A key that is absent follows the late-registration window
(``late_registration_until``); a key set to ``null`` means the window is
closed (the structure editor's "closed").

Rules: 004 #72 re-entry "während der Re-Entry und Late-Registration Phase";
004 #74 surrender only in re-entry tournaments (so within the re-entry
window); 004 #27 rebuys in a rebuy tournament; 001 Re-buy/Add-on "Wenn nicht
ausdrücklich im Turnierreglement vorgesehen sind keine Re-buy und Add-on
erlaubt" -- the structure is that Turnierreglement.
"""

from __future__ import annotations

import time

from django.utils.translation import gettext as _

from tables.writepath import ServiceError
from tournaments.models import Tournament
from tournaments.services.reading import clock_of

#: The structure key of each entry operation's window.
WINDOW_OF = {
    "re_enter": "re_entry_until",
    "surrender": "re_entry_until",
    "rebuy": "rebuy_until",
    "add_on": "add_on_until",
}


def _rule(t: Tournament, op: str) -> str:
    if t.rulebook == "wynental":
        return "001 Re-buy/Add-on"
    return {"re_enter": "004 #72", "surrender": "004 #74"}.get(op, "004 #27")


def window_open(t: Tournament, op: str, now: float | None = None) -> bool:
    """Whether the window of ``op`` (a key of :data:`WINDOW_OF`) is open at
    ``now`` (seconds, default the current time) by the tournament's clock."""
    state = clock_of(t).state(time.time() if now is None else now)
    key = WINDOW_OF[op]
    if key not in (t.structure or {}):
        return state.late_registration_open
    until = t.structure[key]
    if until is None:
        return False
    i = state.period_index
    return i < until or (i == until and not state.finished and state.seconds_left > 0)


def has_own_window(t: Tournament, op: str) -> bool:
    """Whether the structure names a window of its own for ``op`` (else it follows late registration)."""
    return WINDOW_OF[op] in (t.structure or {})


def window_refusal(t: Tournament, op: str, now: float | None = None) -> ServiceError | None:
    """A ``closed`` error naming the window and its rule when ``op`` is
    outside its window, else ``None``.  The error says the period the
    window ended with (periods counted from 1, as the structure editor
    shows them)."""
    if window_open(t, op, now):
        return None
    key = WINDOW_OF[op]
    what = {
        "re_entry_until": _("The re-entry period"),
        "rebuy_until": _("The rebuy period"),
        "add_on_until": _("The add-on period"),
    }[key]
    until = (t.structure or {}).get(key, (t.structure or {}).get("late_registration_until"))
    if until is None:
        return ServiceError(
            "closed",
            _("%(what)s is closed in this structure (%(rule)s)") % {"what": what, "rule": _rule(t, op)},
        )
    return ServiceError(
        "closed",
        _("%(what)s ended with period %(n)s of the structure (%(rule)s)")
        % {"what": what, "n": until + 1, "rule": _rule(t, op)},
    )
