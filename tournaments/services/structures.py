"""The structure editor's services: check a structure, store it, templates
(built-in and saved by the director with the tournament's settings), copy
from another tournament, JSON import and export.

A structure is the JSON of ``Tournament.structure``::

    {"periods": [{"kind": "level", "small_blind", "big_blind", "ante", "ante_kind", "minutes"}
                 | {"kind": "break", "minutes", "color_up": [25]}],
     "chips": [25, 100, 500, 1000, 5000],     # denominations in play at the start (optional)
     "late_registration_until": <period index or null>,
     "re_entry_until", "rebuy_until", "add_on_until": <period index or null>}

Chips are ints, minutes ints.  :func:`check_structure` returns every problem
found (none: the structure is good); :func:`set_structure` refuses a bad one
with ``ServiceError('invalid', ..., errors=[...])`` and changes nothing.
Rules checked: blinds never go down; an ante is ``ante`` or ``big_blind_ante``
with a positive amount (004 #81: a big blind ante equals the small or the big
blind, under MunotPoker); after a color-up (chip race at the break, 001 Chip
Race, 004 #24) the smallest chip left in play divides every later blind and
ante; the windows name a period of the structure.
"""

from __future__ import annotations

import copy
import time
from typing import Any

from django.utils.translation import gettext as _

from poker import tournament as eng
from tables.writepath import ServiceError
from tournaments.models import StructureTemplate, Tournament
from tournaments.services.reading import RULEBOOKS, clock_of, parse_structure
from tournaments.services.writes import record_event, tournament_step

__all__ = [
    "ANTE_KINDS",
    "EXPORT_FORMAT",
    "SAVED_PREFIX",
    "SETTINGS",
    "TEMPLATES",
    "WINDOWS",
    "blind_template",
    "check_structure",
    "copy_structure",
    "export_structure",
    "import_structure",
    "normalise",
    "resolve_template",
    "save_template",
    "set_structure",
    "settings_of",
    "template",
    "template_choices",
]

WINDOWS = ("late_registration_until", "re_entry_until", "rebuy_until", "add_on_until")
"""The period indices that close a window (the window is open to the end of that period)."""

ANTE_KINDS = ("none", "ante", "big_blind_ante")
EXPORT_FORMAT = "pokerfloor.structure"


def _level(sb: int, bb: int, minutes: int, bba: bool = True) -> dict[str, Any]:
    if bba and sb >= 200:
        return {"kind": "level", "small_blind": sb, "big_blind": bb, "ante": bb, "ante_kind": "big_blind_ante"} | {
            "minutes": minutes
        }
    return {"kind": "level", "small_blind": sb, "big_blind": bb, "ante": 0, "ante_kind": "none", "minutes": minutes}


def blind_template(
    blinds: list[tuple[int, int]], minutes: int, break_after: int, break_minutes: int, late: int
) -> dict:
    """Levels of ``minutes`` with a break after every ``break_after`` levels;
    at a break the smallest chip races off (001 Chip Race, 004 #24) once no
    later blind or ante needs it (the next chip divides them all)."""
    chips = [25, 100, 500, 1000, 5000, 25000]
    periods: list[dict[str, Any]] = []
    in_play = list(chips)
    for i, (sb, bb) in enumerate(blinds, start=1):
        periods.append(_level(sb, bb, minutes))
        if i % break_after == 0 and i < len(blinds):
            later = [a for pair in blinds[i:] for a in pair]
            color_up = [in_play[0]] if all(a % in_play[1] == 0 for a in later) else []
            in_play = in_play[len(color_up) :]
            periods.append({"kind": "break", "minutes": break_minutes, "color_up": color_up})
    return {
        "periods": periods,
        "chips": chips,
        "late_registration_until": late,
        "re_entry_until": late,
        "rebuy_until": None,
        "add_on_until": None,
    }


_BLINDS = [
    (25, 50),
    (50, 100),
    (75, 150),
    (100, 200),
    (150, 300),
    (200, 400),
    (300, 600),
    (400, 800),
    (500, 1000),
    (600, 1200),
    (800, 1600),
    (1000, 2000),
    (1500, 3000),
    (2000, 4000),
    (2500, 5000),
    (3000, 6000),
    (4000, 8000),
    (5000, 10000),
]

TEMPLATES: dict[str, dict] = {
    "turbo": blind_template(_BLINDS[1:], 12, 6, 10, 7),
    "standard": blind_template(_BLINDS, 20, 4, 10, 9),
    "deep": blind_template(_BLINDS, 40, 3, 15, 11),
}
"""Ready structures by name (chips 25 .. 25,000, big blind antes from 200/400)."""


def template(name: str) -> dict:
    """A copy of template ``name`` (``turbo``, ``standard``, ``deep``).
    Errors: ``invalid`` for another name."""
    if name not in TEMPLATES:
        raise ServiceError("invalid", _("no structure template %(name)s") % {"name": name})
    return copy.deepcopy(TEMPLATES[name])


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_structure(data: Any, rulebook: str = "munotpoker") -> list[str]:
    """Every problem of structure ``data`` (see the module), each one sentence
    naming the period (1-based, as the editor numbers its rows); ``[]`` when
    it is good.  ``rulebook`` -- ``wynental`` (001) or ``munotpoker`` (004)."""
    if not isinstance(data, dict) or not isinstance(data.get("periods"), list) or not data["periods"]:
        return [_("A structure needs a list of periods.")]
    errors: list[str] = []
    periods = data["periods"]
    if len(periods) > 200:
        errors.append(_("At most 200 periods."))
    chips = data.get("chips") or []
    if not isinstance(chips, list) or any(_int(c) is None or c <= 0 for c in chips):
        errors.append(_("Chips are positive whole numbers."))
        chips = []
    in_play = sorted(set(chips))
    prev_sb = prev_bb = 0
    munot = rulebook == "munotpoker"
    for i, p in enumerate(periods, start=1):
        if not isinstance(p, dict) or p.get("kind", "level") not in ("level", "break"):
            errors.append(_("Period %(n)s: neither a level nor a break.") % {"n": i})
            continue
        minutes = _int(p.get("minutes"))
        if minutes is None or not 1 <= minutes <= 600:
            errors.append(_("Period %(n)s: minutes must be a whole number from 1 to 600.") % {"n": i})
        if p.get("kind", "level") == "break":
            if i == 1:
                errors.append(_("Period 1: a structure starts with a level, not a break."))
            color_up = p.get("color_up") or []
            if not isinstance(color_up, list) or any(_int(c) is None or c <= 0 for c in color_up):
                errors.append(_("Period %(n)s: the chips to color up are positive whole numbers.") % {"n": i})
                continue
            for c in color_up:
                if in_play and c not in in_play:
                    errors.append(
                        _("Period %(n)s: the %(chip)s chip to color up is not in play.") % {"n": i, "chip": c}
                    )
            in_play = [c for c in in_play if c not in color_up]
            if chips and not in_play:
                errors.append(_("Period %(n)s: the color-up leaves no chip in play.") % {"n": i})
            continue
        sb, bb, ante = _int(p.get("small_blind")), _int(p.get("big_blind")), _int(p.get("ante", 0))
        kind = p.get("ante_kind") or ("ante" if ante else "none")
        if sb is None or bb is None or ante is None:
            errors.append(_("Period %(n)s: blinds and ante are whole numbers of chips.") % {"n": i})
            continue
        if sb <= 0 or bb <= 0 or sb > bb:
            errors.append(_("Period %(n)s: the small blind is positive and not above the big blind.") % {"n": i})
        if sb < prev_sb or bb < prev_bb:
            errors.append(
                _("Period %(n)s: blinds %(sb)s/%(bb)s are lower than the level before (%(psb)s/%(pbb)s).")
                % {"n": i, "sb": sb, "bb": bb, "psb": prev_sb, "pbb": prev_bb}
            )
        prev_sb, prev_bb = max(prev_sb, sb), max(prev_bb, bb)
        if kind not in ANTE_KINDS:
            errors.append(_("Period %(n)s: the ante is none, ante or big blind ante.") % {"n": i})
        elif (kind == "none") != (ante == 0) or ante < 0:
            errors.append(_("Period %(n)s: an ante needs its kind and a positive amount.") % {"n": i})
        elif munot and kind != "none" and (kind != "big_blind_ante" or ante not in (sb, bb)):
            errors.append(
                _("Period %(n)s: under 004 #81 the ante is a big blind ante equal to the small or the big blind.")
                % {"n": i}
            )
        if in_play:
            smallest = in_play[0]
            for label, amount in ((_("small blind"), sb), (_("big blind"), bb), (_("ante"), ante)):
                if amount and amount % smallest:
                    errors.append(
                        _(
                            "Period %(n)s: the %(what)s %(amount)s is no multiple of the smallest chip in play (%(chip)s)."
                        )
                        % {"n": i, "what": label, "amount": amount, "chip": smallest}
                    )
    for key in WINDOWS:
        value = data.get(key)
        if value is not None and (_int(value) is None or not 0 <= value < len(periods)):
            errors.append(_("%(window)s: no such period.") % {"window": _window_label(key)})
    return errors


def _window_label(key: str) -> str:
    return {
        "late_registration_until": _("Late registration"),
        "re_entry_until": _("Re-entry"),
        "rebuy_until": _("Rebuys"),
        "add_on_until": _("Add-on"),
    }[key]


def normalise(data: dict) -> dict:
    """The stored form of a checked structure: known keys only, every level
    with ``ante`` and ``ante_kind``, every break with ``color_up``."""
    periods = []
    for p in data["periods"]:
        if p.get("kind", "level") == "break":
            periods.append({"kind": "break", "minutes": p["minutes"], "color_up": list(p.get("color_up") or [])})
        else:
            ante = p.get("ante", 0)
            periods.append(
                {
                    "kind": "level",
                    "small_blind": p["small_blind"],
                    "big_blind": p["big_blind"],
                    "ante": ante,
                    "ante_kind": p.get("ante_kind") or ("ante" if ante else "none"),
                    "minutes": p["minutes"],
                }
            )
    out: dict[str, Any] = {"periods": periods, "chips": sorted(set(data.get("chips") or []))}
    for key in WINDOWS:
        out[key] = data.get(key)
    return out


def _refuse_if_bad(data: Any, rulebook: str) -> None:
    errors = check_structure(data, rulebook)
    if not errors:
        try:
            eng.validate_structure(parse_structure(data), eng.rules_for(RULEBOOKS[rulebook]))
        except ValueError as exc:
            errors = [str(exc)]
    if errors:
        raise ServiceError("invalid", " ".join(errors), errors=errors)


def set_structure(tournament_id: int, data: Any, *, actor=None) -> Tournament:
    """Store structure ``data`` (checked by :func:`check_structure`) on the
    tournament, one write step.  Once the clock has started, the periods
    already played stay as they were (the clock's elapsed time keeps its
    meaning).  Errors: ``invalid`` (``errors``: every problem), ``not_found``;
    nothing changes."""
    with tournament_step(tournament_id, with_tables=False) as step:
        t = step.row
        _refuse_if_bad(data, t.rulebook)
        new = normalise(data)
        if t.clock_started_at is not None:
            current = clock_of(t).state(time.time()).period_index
            old = normalise(t.structure)["periods"][:current]
            if new["periods"][:current] != old:
                message = _("The clock is running: periods 1 to %(n)s have been played and cannot change.") % {
                    "n": current
                }
                raise ServiceError("invalid", message, errors=[message])
        t.structure = new
        record_event(step, "structure", {"structure": new}, actor, ("structure",))
    return t


def copy_structure(tournament_id: int, from_tournament_id: int, *, actor=None) -> Tournament:
    """Give the tournament the structure of an earlier one.  Errors:
    ``not_found``, ``invalid`` (as :func:`set_structure`)."""
    source = Tournament.objects.filter(pk=from_tournament_id).values_list("structure", flat=True).first()
    if source is None:
        raise ServiceError("not_found", _("no tournament %(tournament_id)s") % {"tournament_id": from_tournament_id})
    return set_structure(tournament_id, source, actor=actor)


def export_structure(t: Tournament) -> dict:
    """The JSON file of a structure: ``{"format": "pokerfloor.structure",
    "version": 1, "name", "rulebook", "structure"}``."""
    return {
        "format": EXPORT_FORMAT,
        "version": 1,
        "name": t.name,
        "rulebook": t.rulebook,
        "structure": normalise(t.structure),
    }


def import_structure(tournament_id: int, document: Any, *, actor=None) -> Tournament:
    """Store the structure of an exported file (:func:`export_structure`) or
    of a bare structure.  Errors: ``invalid`` (another format, or as
    :func:`set_structure`); nothing changes."""
    if isinstance(document, dict) and "format" in document:
        if document.get("format") != EXPORT_FORMAT or document.get("version") != 1:
            message = _("Not a pokerfloor structure file (format %(format)s).") % {"format": EXPORT_FORMAT}
            raise ServiceError("invalid", message, errors=[message])
        document = document.get("structure")
    return set_structure(tournament_id, document, actor=actor)


SETTINGS = (
    "rulebook",
    "starting_stack",
    "buy_in",
    "fee",
    "max_seats",
    "re_entries_allowed",
    "rebuys_allowed",
    "add_ons_allowed",
    "rebuy_max_stack",
    "guarantee",
    "rebuy_cost",
    "rebuy_chips",
    "add_on_cost",
    "add_on_chips",
    "double_rebuy",
)
"""The tournament settings a saved template keeps beside the structure (the create form's fields)."""

SAVED_PREFIX = "saved:"
"""Key prefix of a saved template on the create form (``saved:<id>``); built-ins go by name."""


def settings_of(t: Tournament) -> dict[str, Any]:
    """The settings of ``t`` a template keeps (:data:`SETTINGS`: ints, ``None`` or bool as stored)."""
    return {key: getattr(t, key) for key in SETTINGS}


def save_template(tournament_id: int, name: str, data: Any = None, *, actor=None) -> StructureTemplate:
    """Save the tournament's structure and settings (:data:`SETTINGS`) as template ``name`` for the
    create form; ``data`` -- the structure as edited (checked as by :func:`set_structure`, not stored
    on the tournament), ``None`` for the stored one.  A template of the same name is replaced.
    Audited as event ``template_saved`` (``{"template", "name", "settings"}``) of the tournament.
    Errors: ``invalid`` (no name, longer than 100 characters, a bad structure: ``errors``),
    ``not_found``; nothing changes."""
    name = " ".join(str(name or "").split())
    if not name or len(name) > 100:
        raise ServiceError("invalid", _("A template needs a name of 1 to 100 characters."))
    with tournament_step(tournament_id, with_tables=False) as step:
        t = step.row
        if data is None:
            data = t.structure
        _refuse_if_bad(data, t.rulebook)
        values = settings_of(t)
        saved, _created = StructureTemplate.objects.update_or_create(
            name=name, defaults={"structure": normalise(data), "values": values, "source": t, "actor": actor}
        )
        record_event(step, "template_saved", {"template": saved.id, "name": name, "settings": values}, actor)
    return saved


def template_choices() -> list[dict[str, Any]]:
    """The create form's template picker: the built-in structures (``{"key": "turbo", "label",
    "builtin": true, "settings": {}}``) then the saved ones (``"key": "saved:<id>"``, their
    ``settings``), each with ``"levels"`` (count) and ``"minutes"`` of the first level."""
    out: list[dict[str, Any]] = []
    labels = {"turbo": _("Turbo"), "standard": _("Standard"), "deep": _("Deep stack")}
    for key, data in TEMPLATES.items():
        out.append({"key": key, "label": labels.get(key, key), "builtin": True, "settings": {}, **_summary(data)})
    for saved in StructureTemplate.objects.all()[:200]:
        out.append(
            {
                "key": f"{SAVED_PREFIX}{saved.id}",
                "label": saved.name,
                "builtin": False,
                "settings": {k: v for k, v in (saved.values or {}).items() if k in SETTINGS},
                **_summary(saved.structure),
            }
        )
    return out


def _summary(data: dict) -> dict[str, int]:
    levels = [p for p in data.get("periods", []) if p.get("kind", "level") == "level"]
    return {"levels": len(levels), "minutes": levels[0]["minutes"] if levels else 0}


def resolve_template(key: str) -> tuple[dict, dict[str, Any]]:
    """The structure (a copy) and settings of template ``key``: a built-in name (settings ``{}``) or
    ``saved:<id>``.  Errors: ``invalid`` for an unknown key."""
    if key.startswith(SAVED_PREFIX):
        ident = key[len(SAVED_PREFIX) :]
        saved = StructureTemplate.objects.filter(pk=int(ident)).first() if ident.isascii() and ident.isdigit() else None
        if saved is None:
            raise ServiceError("invalid", _("no structure template %(name)s") % {"name": key})
        return copy.deepcopy(saved.structure), {k: v for k, v in (saved.values or {}).items() if k in SETTINGS}
    return template(key), {}
