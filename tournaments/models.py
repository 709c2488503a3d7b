"""Models of the tournaments app.

A tournament's structure (levels, breaks, color-ups, late registration) is
JSON on :class:`Tournament` and is turned into the pure
``poker.tournament.Structure`` by :mod:`tournaments.services`.  The clock
is stored as timestamps (seconds since the epoch, floats) on the tournament
row, never as a countdown.  Tables are ``tables.Table`` rows linked through
:class:`TournamentTable`; who sits where is the table's ``tables.Seat``.

History is append-only: :class:`TournamentEvent` (every mutation with its
actor), :class:`Finish` (a bust is never rewritten; a correction is a new
event), :class:`Instruction` (a move is undone by a new, reverse
instruction), :class:`ChipRaceRecord`.  Chips and money are ints.
Writes go through ``tournaments.services`` only.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.sequenced import SequencedRow


def _public_token() -> str:
    return secrets.token_urlsafe(12)


@dataclass(slots=True)
class StepMemo:
    """What one write step on a tournament already counted, so that later parts of the same step need not
    ask the database again (set by ``tournaments.services.busts.record_busts``); each value is taken once:
    ``seated_after_busts`` (entries still seated), ``waitlisted`` (anybody on the waitlist), ``places_fresh``
    (the step's busts are placed)."""

    seated_after_busts: int | None = None
    waitlisted: bool | None = None
    places_fresh: bool = False

    def take_seated_after_busts(self) -> int | None:
        """The count, once (None when unknown)."""
        value, self.seated_after_busts = self.seated_after_busts, None
        return value

    def take_waitlisted(self) -> bool | None:
        """Whether anybody waits, once (None when unknown)."""
        value, self.waitlisted = self.waitlisted, None
        return value

    def take_places_fresh(self) -> bool:
        """Whether the places are fresh, once."""
        value, self.places_fresh = self.places_fresh, False
        return value


class Tournament(SequencedRow):
    """A tournament run by one rulebook (``wynental`` = 001, ``munotpoker`` = 004).

    ``structure`` -- ``{"periods": [{"kind": "level", "small_blind", "big_blind",
    "ante", "ante_kind", "minutes"} | {"kind": "break", "minutes", "color_up": [25]}],
    "late_registration_until": <period index or null>}``.
    ``payouts`` -- prize amounts by place (ints), editable; empty = house default.
    ``buy_in`` -- the part of a buy-in (entry, re-entry, rebuy, add-on) that goes to the prize pool;
    ``fee`` -- the rake paid on top of it, kept apart; ``payout_unit`` -- prizes are multiples of it.
    ``deal`` -- the deal recorded at the final table (``tournaments.services.payouts.record_deal``), or empty.
    ``public_token`` -- the unguessable part of the lobby screen's link.
    ``guarantee`` -- the least prize pool (currency units): the pool paid is max(collected, guarantee),
    the difference is the house's overlay.  ``rebuy_cost`` / ``add_on_cost`` -- what one rebuy / add-on
    puts into the pool, ``rebuy_chips`` / ``add_on_chips`` -- the chips it gives (``None``: the buy-in /
    the starting stack); ``double_rebuy`` -- a double rebuy (two at once, counted as two) is allowed.
    ``rebuy_max_stack`` -- the event's condition for a rebuy (001 Re-buy/Add-on: as the Turnierreglement
    provides; 004 #27): only while the player's stack is at or below this many chips (0: only when he
    has lost them all); ``None`` = at or below the starting stack, never on more than a full stack.
    """

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    #: Not a field: what the current write step already counted (:class:`StepMemo`), on this instance only.
    step_memo: StepMemo | None = None

    name = models.CharField(_("name"), max_length=100)
    rulebook = models.CharField(
        _("rulebook"), max_length=20, choices=[("wynental", "Wynental (001)"), ("munotpoker", "MunotPoker (004)")]
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    structure = models.JSONField()
    max_seats = models.PositiveSmallIntegerField(default=9)
    capacity = models.PositiveIntegerField(_("seats in the tournament"), default=0, help_text=_("0 = no limit"))
    starting_stack = models.PositiveIntegerField(_("starting stack"))
    buy_in = models.PositiveIntegerField(_("buy-in"), default=0)
    re_entries_allowed = models.PositiveSmallIntegerField(default=0)
    rebuys_allowed = models.PositiveSmallIntegerField(default=0)
    add_ons_allowed = models.PositiveSmallIntegerField(default=0)
    rebuy_max_stack = models.PositiveBigIntegerField(
        _("rebuy only at or below (chips)"),
        null=True,
        blank=True,
        help_text=_("a rebuy only while the stack is at or below this; empty = the starting stack"),
    )
    seconds_per_hand = models.PositiveIntegerField(default=120, help_text=_("hand-for-hand clock step"))
    payouts = models.JSONField(default=list, blank=True)
    fee = models.PositiveIntegerField(
        _("fee per buy-in"), default=0, help_text=_("rake paid on top of each buy-in, kept apart from the prize pool")
    )
    payout_unit = models.PositiveIntegerField(_("payout unit"), default=1, help_text=_("prizes are multiples of this"))
    deal = models.JSONField(default=dict, blank=True)
    guarantee = models.PositiveIntegerField(
        _("guarantee"), default=0, help_text=_("the least prize pool paid, in the buy-in's unit (0 = none)")
    )
    rebuy_cost = models.PositiveIntegerField(
        _("rebuy cost"), null=True, blank=True, help_text=_("to the prize pool per rebuy; empty = the buy-in")
    )
    rebuy_chips = models.PositiveIntegerField(
        _("rebuy chips"), null=True, blank=True, help_text=_("chips per rebuy; empty = the starting stack")
    )
    add_on_cost = models.PositiveIntegerField(
        _("add-on cost"), null=True, blank=True, help_text=_("to the prize pool per add-on; empty = the buy-in")
    )
    add_on_chips = models.PositiveIntegerField(
        _("add-on chips"), null=True, blank=True, help_text=_("chips per add-on; empty = the starting stack")
    )
    double_rebuy = models.BooleanField(
        _("double rebuys"), default=False, help_text=_("a player may rebuy twice at once (counts as two rebuys)")
    )
    public_token = models.CharField(max_length=32, unique=True, default=_public_token)
    seed = models.BigIntegerField(default=0, help_text="random seed of seat draws (0 = system randomness)")
    # clock, as stored by poker.tournament.Clock.stored_fields()
    clock_started_at = models.FloatField(null=True, blank=True)
    clock_paused_at = models.FloatField(null=True, blank=True)
    clock_paused_total = models.FloatField(default=0.0)
    clock_offset = models.FloatField(default=0.0)
    hand_for_hand = models.BooleanField(default=False)
    hands_played_h4h = models.PositiveIntegerField(default=0)
    show_chip_leaders = models.BooleanField(default=False, help_text="the TV shows the chip leaders")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """One registration (a re-entry is a new entry, 004 #72 / #27).

    ``status``: reserved -> registered (checked in) -> seated -> busted;
    waitlisted; surrendered (004 #74); cancelled (a registration taken back at the desk, the buy-in
    refunded: not an entry, not in the prize pool, no place).  ``priority`` entries (an
    immediate re-entry, 004 #72) come before the waitlist.

    ``rebuy_pending`` -- the player lost his last chip in hand ``rebuy_hand``
    of a rebuy tournament and may rebuy at once (004 #27): he stays seated
    with 0 chips; his bust is recorded (placed by ``rebuy_stack``, his stack
    at the start of that hand) if the table's next hand starts without his
    rebuy or the director records "No rebuy".
    """

    class Status(models.TextChoices):
        RESERVED = "reserved", _("reserved")
        WAITLISTED = "waitlisted", _("waitlisted")
        REGISTERED = "registered", _("registered")
        SEATED = "seated", _("seated")
        BUSTED = "busted", _("busted")
        SURRENDERED = "surrendered", _("surrendered")
        EXPIRED = "expired", _("expired")
        CANCELLED = "cancelled", _("cancelled")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("tables.Player", on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField(help_text="1 for the first entry of the player, 2 for a re-entry ...")
    status = models.CharField(max_length=20, choices=Status.choices)
    priority = models.BooleanField(default=False)
    rebuys = models.PositiveSmallIntegerField(default=0)
    add_ons = models.PositiveSmallIntegerField(default=0)
    wait_hands = models.PositiveSmallIntegerField(default=0, help_text="hands to sit out until the button (001)")
    late = models.BooleanField(default=False)
    rebuy_pending = models.BooleanField(default=False)
    rebuy_stack = models.PositiveBigIntegerField(default=0, help_text="stack at the start of the bust hand")
    rebuy_hand = models.ForeignKey("tables.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        indexes = [
            # a player's entry in one tournament: every bust and delta joins seats to their seated entries
            # so, without filtering all of the tournament's entries for each seat (bench/RESULTS.md, issue 23)
            models.Index(fields=["player", "tournament"], name="entry_player_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.player} #{self.number}"


class TournamentTable(models.Model):
    """A ``tables.Table`` playing in a tournament.

    ``number`` -- table number in the tournament; ``positions`` -- button,
    blinds of the last hand started (``{"button", "small_blind", "big_blind",
    "dead_button", "dead_small_blind", "heads_up"}``) or empty;
    ``first_button`` -- the drawn first button; ``h4h_hands`` -- hands
    completed in hand-for-hand; ``broken`` when closed by breaking.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField("tables.Table", on_delete=models.PROTECT, related_name="tournament_table")
    number = models.PositiveSmallIntegerField()
    positions = models.JSONField(default=dict, blank=True)
    first_button = models.PositiveSmallIntegerField(null=True, blank=True)
    h4h_hands = models.PositiveIntegerField(default=0)
    broken = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tourney_table_number")]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.number}"


class Finish(models.Model):
    """A bust (or the win) and its place.

    ``bust_order`` -- the fact: the order the players went out in (1 first;
    players out in one hand, one hand-for-hand round or one desk entry share
    it); the director may correct it (an audited ``bust_order`` event).
    ``place`` / ``place_worst`` -- the places the player's group covers
    (equal unless shared, 004 #79); ``prize`` in currency units; ``rule`` the
    citation applied, e.g. ``"004 #79"``: all three are derived from the bust
    order, the paid entries, the payout table and the deal by
    ``tournaments.services.places.refresh_places`` (never written elsewhere).
    ``place`` is null while a hand-for-hand round is still being played at
    other tables.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="finishes")
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="finish")
    hand = models.ForeignKey("tables.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    stack_at_start = models.PositiveBigIntegerField(default=0)
    players_before = models.PositiveIntegerField(default=0)
    h4h_round = models.IntegerField(null=True, blank=True)
    bust_order = models.PositiveIntegerField(
        default=0, help_text="bust order: 1 for the first players out; players out together share it"
    )
    place = models.PositiveIntegerField(null=True, blank=True)
    place_worst = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveIntegerField(default=0)
    rule = models.CharField(max_length=60, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "place", "id"]


class Instruction(models.Model):
    """An instruction to the dealers, as pushed to the tablets.

    ``kind``: move, break_table, chip_race, color_up, level, hand_for_hand.
    A move names ``player`` and from/to table and seat; ``undoes`` links the
    reverse move made by an undo; ``status`` pending -> done, or cancelled.
    ``rule`` -- citation applied (e.g. ``"004 #11"``).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="instructions")
    kind = models.CharField(max_length=20)
    status = models.CharField(max_length=20, default="done")
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    from_table = models.PositiveSmallIntegerField(null=True, blank=True)
    from_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    to_table = models.PositiveSmallIntegerField(null=True, blank=True)
    to_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    stack = models.PositiveBigIntegerField(default=0)
    text_en = models.CharField(max_length=300)
    text_de = models.CharField(max_length=300)
    rule = models.CharField(max_length=60, blank=True)
    undoes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]

    def seat_move(self) -> SeatMove:
        """This move's entry and seats, typed: a ``move`` instruction has all of them (the other kinds have
        none).  Errors: ``ValueError`` for an instruction that is not a move with both seats."""
        entry, ft, fs, tt, ts = self.entry, self.from_table, self.from_seat, self.to_table, self.to_seat
        if self.kind != "move" or entry is None or ft is None or fs is None or tt is None or ts is None:
            raise ValueError(f"instruction {self.pk} is not a move with both seats")
        return SeatMove(entry, entry.player_id, ft, fs, tt, ts)


@dataclass(frozen=True, slots=True)
class SeatMove:
    """A move instruction's entry and seats (:meth:`Instruction.seat_move`): table numbers of the
    tournament (``TournamentTable.number``, 0 for the waitlist) and seat numbers (1-based)."""

    entry: Entry
    player_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int


class ChipRaceRecord(models.Model):
    """The recorded result of a color-up at one table (``result``: JSON of
    ``poker.tournament.ChipRaceResult``; ``cards_from`` "dealer" or "app")."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chip_races")
    table_number = models.PositiveSmallIntegerField()
    removed_denomination = models.PositiveIntegerField()
    new_denomination = models.PositiveIntegerField()
    cards_from = models.CharField(max_length=10)
    result = models.JSONField()
    rule = models.CharField(max_length=60)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True)


class TournamentEvent(models.Model):
    """Append-only audit trail: every mutation of a tournament (``kind``,
    JSON ``payload``, ``actor``, ``seq`` = the tournament's seq after it)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    seq = models.BigIntegerField()
    kind = models.CharField(max_length=30)
    payload = models.JSONField(default=dict)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seq"]
        constraints = [models.UniqueConstraint(fields=["tournament", "seq"], name="tourney_event_seq")]


class ChipCount(models.Model):
    """One table's chip count as the director entered it (append-only).

    ``moment``: ``level_end``, ``break`` or ``final_table``;
    ``level_number`` -- the level on the clock then (null on a break);
    ``counts`` -- ``{"<seat>": chips}`` (ints); ``total`` -- their sum.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chip_counts")
    table_number = models.PositiveSmallIntegerField()
    moment = models.CharField(max_length=20)
    level_number = models.PositiveIntegerField(null=True, blank=True)
    counts = models.JSONField()
    total = models.PositiveBigIntegerField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]


class StructureTemplate(models.Model):
    """A structure and the settings of a tournament saved by the director under a ``name``, offered on
    the create form beside the built-in structures (``tournaments.services.structures.TEMPLATES``).

    ``structure`` -- as ``Tournament.structure``; ``values`` -- the settings ``{"rulebook", "starting_stack",
    "buy_in", "fee", "max_seats", "re_entries_allowed", "rebuys_allowed", "add_ons_allowed",
    "rebuy_max_stack", "guarantee", "rebuy_cost", "rebuy_chips", "add_on_cost", "add_on_chips",
    "double_rebuy"}`` (ints, ``None`` or bool as on the tournament); ``source`` -- the tournament it
    was saved from.  Saving under an existing name replaces that template.
    """

    name = models.CharField(_("name"), max_length=100, unique=True)
    structure = models.JSONField()
    values = models.JSONField(default=dict)
    source = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
