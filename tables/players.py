"""The one player record (issue 28): who may play, duplicates, merge and erase.

Every app that puts a player somewhere (the room's waitlist, a seat, a tournament registration) asks
:func:`check_may_play` first; a barred or self-excluded player is refused with ``ServiceError('barred')``
whose message names the standing and the staff-only reason (the services answer staff only: a player's own
screens never show it).  A merge moves all the duplicate's history to the player kept; an erase blanks the
personal data and keeps the hands under an anonymous name.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import Hand, Player, name_key
from tables.writepath import ServiceError


def check_may_play(player: Player) -> None:
    """Raise ``ServiceError('barred', message, standing=..., reason=...)`` when ``player`` is barred or
    self-excluded (``Player.standing``); nothing for a player who may play.  A merged player is judged by the
    player he was merged into.  ``message`` reads "Anna Müller is barred: <reason>" -- staff only (the floor's,
    the desk's and the dashboard's answers; never a player's own page)."""
    record = player
    seen = set()
    while record.merged_into_id is not None and record.pk not in seen:
        seen.add(record.pk)
        record = Player.objects.get(pk=record.merged_into_id)
    if record.standing == Player.Standing.OK:
        return
    standing = record.get_standing_display()
    reason = record.standing_reason or _("no reason recorded")
    raise ServiceError(
        "barred",
        _("%(player)s is %(standing)s: %(reason)s") % {"player": player.name, "standing": standing, "reason": reason},
        standing=record.standing,
        reason=record.standing_reason,
    )


def find_players(query: str, *, limit: int = 10) -> list[Player]:
    """Players for a search box or an autocomplete: by card number (exact), by player ID (``"#12"``), or by a
    name or nickname word beginning with ``query`` apart from case, spaces and accents.  Merged and erased
    players are left out.  At most ``limit``, ordered by name."""
    query = (query or "").strip()
    if not query:
        return []
    live = Player.objects.filter(merged_into__isnull=True, erased_at__isnull=True)
    found: list[Player] = list(live.filter(card_number=query)[:limit])
    digits = query[1:] if query.startswith("#") else query
    if digits.isascii() and digits.isdigit() and len(digits) < 10:
        found += [p for p in live.filter(pk=int(digits)) if p not in found]
    key = name_key(query)
    if key and len(found) < limit:
        rest = (
            live.filter(Q(name_key__startswith=key) | Q(name_key__contains=" " + key) | Q(nickname__istartswith=query))
            .exclude(pk__in=[p.pk for p in found])
            .order_by("name_key", "id")[: limit - len(found)]
        )
        found += list(rest)
    return found[:limit]


def duplicate_groups() -> list[list[Player]]:
    """Players whose names are one apart from case, spacing and accents (the same ``name_key``), oldest
    first in each group: the merge suggestions.  Merged and erased players are left out."""
    groups: dict[str, list[Player]] = defaultdict(list)
    keys = (
        Player.objects.filter(merged_into__isnull=True, erased_at__isnull=True)
        .values("name_key")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .values_list("name_key", flat=True)
    )
    for player in Player.objects.filter(
        name_key__in=list(keys), merged_into__isnull=True, erased_at__isnull=True
    ).order_by("id"):
        groups[player.name_key].append(player)
    return [groups[k] for k in sorted(groups)]


def _relations() -> list[tuple[Any, str]]:
    """``(model, field name)`` of every foreign key to ``Player`` (all apps), but the merge pointer."""
    return [
        (rel.related_model, rel.field.name)
        for rel in Player._meta.related_objects
        if rel.one_to_many and rel.field.name != "merged_into"
    ]


@transaction.atomic
def merge_players(keep_id: int, duplicate_id: int) -> dict[str, int]:
    """Merge player ``duplicate_id`` into ``keep_id``: every row of every app that names the duplicate
    (seats, waitlist entries, tournament entries, floor calls, rulings, penalties, the room's log...) names
    the kept player, the hands he was dealt in (``Hand.metadata['player_ids']``) too; the duplicate stays as a
    pointer (``merged_into``), so a link to him still finds the record.  Card number, nickname, phone and
    e-mail the kept player lacks are taken over; a barred standing is kept.  Returns the rows moved per model
    (``{"queueentry": 2, ...}``).  Errors: ``not_found``, ``invalid`` (the same player, or one already
    merged), ``merge_conflict`` (both in one place at once, e.g. on one waitlist)."""
    if keep_id == duplicate_id:
        raise ServiceError("invalid", _("a player cannot be merged into himself"))
    players = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep_id, duplicate_id])}
    if len(players) != 2:
        raise ServiceError("not_found", _("no such player"))
    keep, dup = players[keep_id], players[duplicate_id]
    if keep.merged_into_id or dup.merged_into_id:
        raise ServiceError("invalid", _("a merged player cannot be merged again"))
    moved: dict[str, int] = {}
    for model, field in _relations():
        try:
            with transaction.atomic():
                count = model._default_manager.filter(**{field: dup}).update(**{field: keep})
        except IntegrityError:
            raise ServiceError(
                "merge_conflict",
                _("%(a)s and %(b)s are in one place at once (%(what)s): end one of the two first")
                % {"a": keep.name, "b": dup.name, "what": model._meta.verbose_name},
            ) from None
        if count:
            moved[model._meta.model_name] = moved.get(model._meta.model_name, 0) + count
    hands = 0
    for hand in _hands_of(dup.pk):
        ids = hand.metadata.get("player_ids", {})
        hand.metadata["player_ids"] = {seat: keep.pk if pid == dup.pk else pid for seat, pid in ids.items()}
        hand.save(update_fields=["metadata"])
        hands += 1
    if hands:
        moved["hand"] = hands
    for field in ("card_number", "nickname", "phone", "email", "country"):
        if not getattr(keep, field) and getattr(dup, field):
            setattr(keep, field, getattr(dup, field))
    if keep.standing == Player.Standing.OK and dup.standing != Player.Standing.OK:
        keep.standing, keep.standing_reason = dup.standing, dup.standing_reason
    keep.save()
    dup.merged_into = keep
    dup.card_number = ""
    dup.save(update_fields=["merged_into", "card_number"])
    return moved


def _hands_of(player_id: int):
    """The hands player ``player_id`` was dealt in (``Hand.metadata['player_ids']`` holds his id)."""
    return Hand.objects.extra(  # a constant SQL fragment, the id a parameter
        where=[
            "EXISTS (SELECT 1 FROM jsonb_each(tables_hand.metadata->'player_ids') e WHERE e.value = to_jsonb(%s::int))"
        ],
        params=[player_id],
    )


@transaction.atomic
def erase_player(player_id: int) -> Player:
    """Erase a player's personal data (a request under data protection law): name, nickname, card number,
    phone and e-mail go; the name becomes "Player #<id>" -- in his hands' specs and snapshots too -- and the
    hands, sessions, entries and rulings stay with that anonymous record (the room's figures do not change).
    A barred standing stays (without its reason's text).  Errors: ``not_found``."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise ServiceError("not_found", _("no such player"))
    old = player.name
    anonymous = f"Player #{player.pk}"
    for hand in _hands_of(player.pk):
        seats = {seat for seat, pid in hand.metadata.get("player_ids", {}).items() if pid == player.pk}
        for row in hand.spec.get("seats", []):
            if str(row.get("seat")) in seats and row.get("player") == old:
                row["player"] = anonymous
        for row in (hand.snapshot or {}).get("players", []) if isinstance(hand.snapshot, dict) else []:
            if isinstance(row, dict) and str(row.get("seat")) in seats and row.get("player") == old:
                row["player"] = anonymous
        hand.save(update_fields=["spec", "snapshot"])
    player.name = anonymous
    player.nickname = player.card_number = player.phone = player.email = ""
    if player.standing_reason:
        player.standing_reason = ""
    player.erased_at = timezone.now()
    player.save()
    return player
