"""Cash tables, seats, players and event-sourced hands.

A hand is stored as its append-only ``HandEvent`` rows; the live state is the
replay of those events through the pure engine (``poker.hand``), with a
cached snapshot on ``Hand.snapshot`` for reads.  Rows of ``HandEvent`` are
never updated or deleted: corrections are new events.  Writes go through
``tables.services`` only.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.sequenced import SequencedRow


def name_key(name: str) -> str:
    """What two spellings of one name share: no case, no accents, single spaces
    (``"ANNA  MULLER"``, ``"anna müller"`` and ``"Anna Müller"`` are one key,
    ``"anna muller"``).  Stored on :class:`Player` as ``name_key``."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name or "") if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


class PlayerQuerySet(models.QuerySet):
    """Players' queries; ``bulk_create`` fills ``name_key`` as ``save`` does."""

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for player in objs:
            player.name_key = name_key(player.name)
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    """A person who plays in the room (name as the floor knows them).

    ``country`` -- ISO 3166-1 alpha-2 code (``"CH"``) or blank: the results
    export for player-ranking sites carries it.  ``name_key`` -- the name
    without case, accents and extra spaces (:func:`name_key`), kept by
    ``save`` and ``bulk_create`` (a queryset's ``update(name=...)`` does not:
    none is used); indexed, so that a name is found among all players in one
    lookup (issue 23: the registration desk's duplicate check and search)."""

    class Standing(models.TextChoices):
        OK = "ok", _("may play")
        BARRED = "barred", _("barred")
        SELF_EXCLUDED = "self_excluded", _("self-excluded")

    name = models.CharField(_("name"), max_length=100)
    name_key = models.TextField(db_index=True, default="", editable=False)
    country = models.CharField(_("country"), max_length=2, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # The player record (issue 28): as little personal data as the job needs.
    card_number = models.CharField(_("card number"), max_length=40, blank=True, default="", db_index=True)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True, default="")
    phone = models.CharField(_("phone"), max_length=40, blank=True, default="")
    email = models.EmailField(_("e-mail"), blank=True, default="")
    standing = models.CharField(_("standing"), max_length=16, choices=Standing.choices, default=Standing.OK)
    standing_reason = models.TextField(_("reason (staff only)"), blank=True, default="")
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="merged_from",
        verbose_name=_("merged into"),
    )
    erased_at = models.DateTimeField(_("erased"), null=True, blank=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        """Save, with ``name_key`` following ``name`` (also when ``update_fields`` names ``name``)."""
        self.name_key = name_key(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields and "name_key" not in fields:
            kwargs["update_fields"] = [*fields, "name_key"]
        super().save(*args, **kwargs)


class Table(SequencedRow):
    """A table of the room with its stakes and its event sequence number.

    ``straddle`` is a live straddle posted in every hand (part of the
    stakes); ``straddle_kinds`` the straddles the players may choose hand by
    hand and ``run_it_twice_min_pot`` the pot from which they may run it
    twice, both agreed at the table's opening (000 Aktionen 1, 8).

    ``seq`` is bumped by every mutation of the table (one writer per table,
    under ``select_for_update``) and carried by every broadcast, so clients
    can detect gaps.  Chip amounts are integers in the table's smallest chip
    unit.
    """

    #: Not a field: the ``client_id`` checked when this row was locked for a step, and where it was
    #: applied before (``(client_id, [table_id, seq] or None)``; ``tables.services.steps.lock_table``).
    client_id_seen: tuple[str, Any] | None = None

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    name = models.CharField(_("name"), max_length=60, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    max_seats = models.PositiveSmallIntegerField(default=9)
    small_blind = models.PositiveIntegerField(_("small blind"))
    big_blind = models.PositiveIntegerField(_("big blind"))
    ante = models.PositiveIntegerField(_("ante"), default=0)
    big_blind_ante = models.PositiveIntegerField(_("big blind ante"), default=0)
    straddle = models.PositiveIntegerField(_("live straddle"), default=0, help_text=_("0 = no straddle"))
    # Special formats agreed at the table's opening (tables.services.set_table_formats).
    straddle_kinds = models.CharField(
        _("straddles agreed"),
        max_length=40,
        blank=True,
        default="",
        help_text=_(
            "Straddle kinds the players may post, agreed with the floor at the table's opening, "
            "comma-separated: live, button, mississippi (000 Aktionen 1). Empty = none."
        ),
    )
    run_it_twice_min_pot = models.PositiveIntegerField(
        _("run it twice from"),
        null=True,
        blank=True,
        help_text=_(
            "Chips worth EUR 500 that must be in the pot before the players may run it twice "
            "(000 Aktionen 8 c). Empty = run it twice is not offered."
        ),
    )
    rules_profile = models.SlugField(_("house rules"), default="tda-2024")
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    current_hand = models.ForeignKey(
        "Hand",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the table's newest hand (live or just completed)",
    )
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="dealt_tables"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A table made to replay recorded hands (``manage.py replay_phh``): its hands are an archive, never on the live floor.
    imported = models.BooleanField(
        _("imported"), default=False, help_text=_("made to replay imported hand histories; never on the live floor")
    )
    # The part of the room the table stands in ("A", "Terrace", "High limit"): the floor's room map groups by it.
    section = models.CharField(
        _("section"), max_length=40, blank=True, default="", help_text=_("part of the room; the floor map groups by it")
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """A seat at a table; ``stack`` is the player's chips behind between hands."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats")
    stack = models.PositiveBigIntegerField(default=0)
    sitting_out = models.BooleanField(default=False)
    absent = models.BooleanField(
        default=False, help_text="away from the seat: dealt in, blinds taken, hand dead (000 Allgemein 6)"
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number")]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"

    @property
    def occupant(self) -> Player:
        """The player in this seat, for code that read occupied seats only (``player__isnull=False``).
        Errors: ``ValueError`` for an empty seat."""
        if self.player is None:
            raise ValueError(f"seat {self.number} of table {self.table_id} is empty")
        return self.player


class Hand(models.Model):
    """One hand at a table: its start spec and a cached snapshot of its replay."""

    class Status(models.TextChoices):
        LIVE = "live", _("live")
        COMPLETE = "complete", _("complete")
        MISDEAL = "misdeal", _("misdeal")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LIVE)
    spec = models.JSONField()
    snapshot = models.JSONField(default=dict)
    snapshot_seq = models.BigIntegerField(default=0)
    last_index = models.IntegerField(default=-1, help_text="index of the hand's last event")
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["table", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number"),
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(status="live"), name="hand_one_live_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"


class HandEvent(models.Model):
    """An append-only event of a hand.

    ``seq`` is the table's sequence number after this event (unique per
    table); ``index`` the position in the hand; ``payload`` the engine action
    (a JSON dict, see docs/protocol.md); ``client_id`` makes a retried client
    message apply once.
    """

    # No index of their own: the unique constraints below begin with the table and the hand and serve their
    # lookups.  Every dealer's action inserts a row here, and each index is written with it.
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events", db_index=False)
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.BigIntegerField()
    index = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    payload = models.JSONField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True)
    client_id = models.CharField(max_length=64, null=True, blank=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="handevent_unique_seq"),
            models.UniqueConstraint(fields=["hand", "index"], name="handevent_unique_index"),
            # a constraint, not ``unique=True``: that adds a second index for LIKE lookups, never made here
            models.UniqueConstraint(fields=["client_id"], name="handevent_unique_client_id"),
        ]

    def __str__(self) -> str:
        return f"{self.hand} #{self.index} {self.kind}"


class ArchivedHand(models.Model):
    """A hand imported from a hand-history file into the archive (``manage.py import_phh``, issue 27),
    outside the live floor: no table, seats or events of its own.

    ``source_file`` (the absolute path) and ``number`` (1-based position of the hand in the file; ``index`` its table name in
    a ``.phhs``) identify the record: importing it again adds nothing (unique together).  ``spec`` is the
    engine spec (``tables.services.spec_to_dict``) and ``actions`` the engine actions the replay applied,
    enough to replay the hand and to write it as PHH again (``poker.hand.phh.export_phh``).  Chips are
    whole chips of ``chip_unit`` (``"0.01"`` for a record in cents).  ``players``: per position
    ``{"name", "seat", "start", "finish", "won"}``; ``pot``: the chips collected from the pots (as online
    histories count them, ``poker.hand.phh_amounts.collected``).  ``played_at``: from the record's
    ``year``/``month``/``day``/``time`` when it has them.  ``rules``: ``"pokerkit"`` or the rules dict."""

    source_file = models.CharField(_("source file"), max_length=500)
    number = models.PositiveIntegerField(_("number in file"))
    index = models.CharField(max_length=40, blank=True, default="")
    variant = models.CharField(_("variant"), max_length=8)
    played_at = models.DateTimeField(_("played"), null=True, blank=True)
    table_name = models.CharField(_("table"), max_length=200, blank=True, default="")
    event = models.CharField(_("event"), max_length=300, blank=True, default="")
    players = models.JSONField(default=list)
    player_count = models.PositiveSmallIntegerField(default=0)
    finishing_stacks = models.JSONField(null=True, blank=True)
    winnings = models.JSONField(null=True, blank=True)
    spec = models.JSONField()
    actions = models.JSONField(default=list)
    metadata = models.JSONField(default=dict, blank=True)
    pot = models.BigIntegerField(_("pot"), default=0)
    chip_unit = models.CharField(max_length=20, default="1")
    rules = models.JSONField(default=dict)
    checked = models.JSONField(default=list)
    unchecked = models.JSONField(default=list)
    imported_at = models.DateTimeField(_("imported"), default=timezone.now)

    class Meta:
        ordering = ["-played_at", "source_file", "number"]
        constraints = [
            models.UniqueConstraint(fields=["source_file", "number"], name="archivedhand_unique_record"),
        ]
        indexes = [
            models.Index(fields=["played_at"], name="archivedhand_played"),
            models.Index(fields=["pot"], name="archivedhand_pot"),
            models.Index(fields=["table_name"], name="archivedhand_table"),
            models.Index(fields=["imported_at"], name="archivedhand_imported"),
        ]

    def __str__(self) -> str:
        return f"{self.source_file} #{self.number}"


class ArchivedHandPlayer(models.Model):
    """One player of an :class:`ArchivedHand`, for the archive's player search: ``name_key`` is the name
    without case, accents and extra spaces (:func:`name_key`), indexed.  Chips as in the hand."""

    hand = models.ForeignKey(ArchivedHand, on_delete=models.CASCADE, related_name="seats")
    name = models.CharField(max_length=100)
    name_key = models.CharField(max_length=100)
    seat = models.PositiveSmallIntegerField()
    starting_stack = models.BigIntegerField()
    finishing_stack = models.BigIntegerField(null=True)
    won = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["hand", "seat"]
        indexes = [
            # equality and "starts with" (LIKE 'anna%') both use it
            models.Index(fields=["name_key"], name="archivedplayer_name", opclasses=["varchar_pattern_ops"]),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.seat})"


class DealerShift(models.Model):
    """A dealer's shift on the roster (issue 28): ``dealer`` (a user of the ``dealer`` group) works from
    ``starts_at`` to ``ends_at``; the push schedule rotates the dealers whose shift is on."""

    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dealer_shifts")
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))

    class Meta:
        ordering = ["starts_at", "dealer_id"]

    def __str__(self) -> str:
        return f"{self.dealer} {self.starts_at:%Y-%m-%d %H:%M}-{self.ends_at:%H:%M}"


class PushSchedule(models.Model):
    """The dealer push schedule of the room: every ``minutes`` minutes the dealers move one table on and
    one goes on a break (``poker.staff.rotation``); ``tables`` the table ids in push order."""

    minutes = models.PositiveSmallIntegerField(_("push every (minutes)"), default=30)
    tables = models.JSONField(default=list, blank=True)
    last_push_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push every {self.minutes} min"


class DealerDown(models.Model):
    """One dealer's down at a table: from ``started_at`` (the takeover on the tablet) to ``ended_at``
    (the next dealer's takeover; None while dealing).  The hands dealt in a down are the table's hands
    started in it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="downs")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="downs")
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table"], condition=models.Q(ended_at=None), name="down_one_open_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.dealer} at {self.table}"


class DealerChange(models.Model):
    """A dealer change at a table, pushed by the floor and taken over on the tablet by the incoming dealer
    under their own login, with the deck record 001 6.24 asks for ("Kartendecks werden bei jedem
    Dealerwechsel getauscht oder neu ausgezählt"): ``deck`` swapped or recounted, ``taken_at`` when."""

    class Deck(models.TextChoices):
        SWAPPED = "swapped", _("decks swapped")
        RECOUNTED = "recounted", _("decks recounted")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="dealer_changes")
    outgoing = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    incoming = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    pushed_at = models.DateTimeField(default=timezone.now)
    pushed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    deck = models.CharField(max_length=10, choices=Deck.choices, blank=True, default="")
    citation = models.CharField(max_length=20, default="001 6.24")

    class Meta:
        ordering = ["pushed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(taken_at=None), name="dealerchange_one_pending_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.outgoing} -> {self.incoming}"
