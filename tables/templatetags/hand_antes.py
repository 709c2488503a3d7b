"""``{% load hand_antes %}{{ hand.spec|hand_antes }}``: the antes of a hand's spec as the hand page's header
shows them -- an ante every player posts, or a big blind ante (posted by the big blind only, 004 #81)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def hand_antes(spec: dict) -> list[dict]:
    """``[{"kind": "ante" | "big_blind_ante", "amount": int}]`` read from the spec's per-position ``antes``
    (PHH order) and ``blinds_or_straddles``: an amount every position posts is an ``ante``; what the big
    blind's position posts beyond it (the position of the largest blind) a ``big_blind_ante``.  Empty
    without antes (or for a spec without those lists, e.g. stud, whose header shows its own ante)."""
    antes = [int(a) for a in (spec or {}).get("antes") or []]
    blinds = [int(b) for b in (spec or {}).get("blinds_or_straddles") or []]
    if not any(antes) or len(blinds) != len(antes):
        return []
    each = min(antes)
    out = [{"kind": "ante", "amount": each}] if each else []
    big = blinds.index(max(blinds)) if any(blinds) else 1 % len(antes)
    extra = antes[big] - each
    if extra and all(a == each for i, a in enumerate(antes) if i != big):
        out.append({"kind": "big_blind_ante", "amount": extra})
    elif extra:  # any other pattern: the largest ante as it was posted
        out = [{"kind": "ante", "amount": max(antes)}]
    return out
