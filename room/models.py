"""Models of the cash-game floor: rooms, games, waitlists, calls, must-move
tables, table changes, departures, blinds owed and lobby display links.

They were first written in the ``tables`` app and keep its database tables
(``Meta.db_table``: ``tables_room``, ``tables_game``...).  Written by the
room services (``room.services``) only; they point at ``tables.Table`` and
``tables.Player``, never the other way round.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.models import Player, Table
from tables.sequenced import SequencedRow


class Room(SequencedRow):
    """A card room: its lobby screen settings and its own ``seq``.

    ``seq`` is bumped by every floor change of the room (waitlists, calls,
    seating, buy-ins) and carried by every lobby broadcast.  ``call_seconds``
    is how long a called player has to take the seat (a server-side
    deadline); ``lobby_names`` shows full names or initials on the lobby
    screen; ``lobby_stacks`` lets the lobby show the stacks at the tables.
    """

    class Names(models.TextChoices):
        FULL = "full", _("full names")
        INITIALS = "initials", _("initials")

    slug = models.SlugField(unique=True)
    name = models.CharField(_("name"), max_length=80)
    call_seconds = models.PositiveIntegerField(_("call countdown (seconds)"), default=300)
    lobby_names = models.CharField(
        _("names on the lobby screen"), max_length=10, choices=Names.choices, default=Names.FULL
    )
    lobby_stacks = models.BooleanField(_("stacks on the lobby screen"), default=False)
    # The waitlist in the player's pocket (issue 29, room.services.remote): a game is "running" (listed on the
    # public page) while a table of it has a dealer and at least ``running_min_players`` players seated.
    running_min_players = models.PositiveSmallIntegerField(_("players seated for a running game"), default=2)
    remote_cap = models.PositiveIntegerField(_("remote entries at most"), default=30)
    arrival_seconds = models.PositiveIntegerField(_("arrival window after 'On my way' (seconds)"), default=900)
    more_time_seconds = models.PositiveIntegerField(_("'Need more time' adds (seconds)"), default=300)
    remote_no_show = models.CharField(
        _("a remote no-show"),
        max_length=10,
        choices=[("down", _("moves down the list")), ("off", _("leaves the list"))],
        default="down",
    )
    no_show_places = models.PositiveSmallIntegerField(_("places a no-show moves down"), default=3)

    class Meta:
        db_table = "tables_room"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Game(models.Model):
    """A cash game of a room: variant, blinds, buy-in range, chip unit.

    Chips are integers in the table's smallest unit.  ``chip_unit``: every
    amount must be divisible by it (000 Allgemein 8: the small blind, at
    2/5 the big blind).  Buy-ins lie between ``min_buy_in`` (and at least
    the big blind, 000 Einsätze 3) and ``max_buy_in`` (000 Einsätze 2).
    """

    class Variant(models.TextChoices):
        NLHE = "nlhe", _("No-Limit Hold'em")
        PLO = "plo", _("Pot-Limit Omaha")
        LIMIT_HOLDEM = "limit_holdem", _("Split-Limit Hold'em")
        STUD = "stud", _("Seven Card Stud")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="games")
    name = models.CharField(_("name"), max_length=80)
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices, default=Variant.NLHE)
    small_blind = models.PositiveIntegerField(_("small blind"))
    big_blind = models.PositiveIntegerField(_("big blind"))
    min_buy_in = models.PositiveIntegerField(_("minimum buy-in"))
    max_buy_in = models.PositiveIntegerField(_("maximum buy-in"))
    chip_unit = models.PositiveIntegerField(_("chip unit"))
    rules_profile = models.SlugField(_("house rules"), default="casino-cash")
    is_open = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tables_game"
        ordering = ["room", "big_blind", "name"]
        constraints = [models.UniqueConstraint(fields=["room", "name"], name="game_unique_name")]

    def __str__(self) -> str:
        return self.name


class GameTable(models.Model):
    """A table belonging to a game: the main table or a must-move table (000 Allgemein 15)."""

    class Kind(models.TextChoices):
        MAIN = "main", _("main table")
        MUST_MOVE = "must_move", _("must-move table")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="game_tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game_table")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.MAIN)

    class Meta:
        db_table = "tables_gametable"
        ordering = ["game", "kind", "table__name"]

    def __str__(self) -> str:
        return f"{self.game}: {self.table} ({self.kind})"


class QueueEntry(models.Model):
    """A player in a game's waitlist or must-move order.

    ``queue``: ``waitlist`` (walk-in / phone-in, waiting for a seat) or
    ``must_move`` (seated at a must-move table, waiting for the main table;
    ordered by their waitlist time, 000 Allgemein 15).  ``status``: waiting,
    called (an open ``Call``), done (seated / moved), removed.  Order is
    ``joined_at`` then id.  Every change is also in ``RoomLog``.
    """

    class Queue(models.TextChoices):
        WAITLIST = "waitlist", _("waitlist")
        MUST_MOVE = "must_move", _("must-move")

    class Source(models.TextChoices):
        WALK_IN = "walk_in", _("walk-in")
        PHONE_IN = "phone_in", _("phone-in")
        SEATED = "seated", _("seated")
        REMOTE = "remote", _("remote")  # joined from the player's phone (room.services.remote)

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        CALLED = "called", _("called")
        DONE = "done", _("done")
        REMOVED = "removed", _("removed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="queue")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="queue_entries")
    queue = models.CharField(max_length=10, choices=Queue.choices, default=Queue.WAITLIST)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.WALK_IN)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField()

    class Meta:
        db_table = "tables_queueentry"
        ordering = ["game", "queue", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "queue", "player"],
                condition=models.Q(status__in=["waiting", "called"]),
                name="queueentry_once_per_list",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.game} {self.queue}"


class Call(models.Model):
    """A player called to an open seat, with a server-side ``deadline``.

    ``declined`` lists the queue-entry ids that already said no for this
    seat opening; ``forced`` marks the must-move call after everyone
    declined (000 Allgemein 15: the first one must move).
    """

    class Status(models.TextChoices):
        OPEN = "open", _("calling")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        EXPIRED = "expired", _("no-show")
        CANCELLED = "cancelled", _("cancelled")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="calls")
    seat_number = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(QueueEntry, on_delete=models.PROTECT, related_name="calls")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    forced = models.BooleanField(default=False)
    declined = models.JSONField(default=list, blank=True)
    called_at = models.DateTimeField()
    deadline = models.DateTimeField()

    class Meta:
        db_table = "tables_call"
        ordering = ["called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat_number"], condition=models.Q(status="open"), name="call_one_open_per_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"call {self.entry.player} to {self.table} #{self.seat_number}"


class TableChange(models.Model):
    """A player's request to change tables; the floor approves or refuses (000 Allgemein 12)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="table_changes")
    from_table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    to_table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    requested_at = models.DateTimeField()

    class Meta:
        db_table = "tables_tablechange"
        ordering = ["requested_at", "id"]


class Departure(models.Model):
    """A player left a game with ``stack`` chips (000 Einsätze 1: coming back the
    same day they must bring at least that much if it was above the minimum)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="departures")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="departures")
    table = models.ForeignKey(Table, null=True, on_delete=models.SET_NULL, related_name="+")
    stack = models.PositiveBigIntegerField()
    at = models.DateTimeField()

    class Meta:
        db_table = "tables_departure"
        ordering = ["-at"]


class BlindDue(models.Model):
    """A big blind owed after a seat change two or more occupied seats away
    from the button (000 Einsätze 4); due in the table's next hand only."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="blinds_due")
    seat_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount = models.PositiveIntegerField()
    at = models.DateTimeField()

    class Meta:
        db_table = "tables_blinddue"


class LeaveAfterHand(models.Model):
    """The floor marked a player to leave after the hand running at his table
    (000 Einsätze 1: players leave between hands).  When that hand ends the
    player leaves with the stake he then has (``room.services.leave_seat``)
    and the mark goes; a mark whose seat holds another player is dropped."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    seat_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "seat_number"], name="leave_after_hand_unique_seat")]


class RoomLog(models.Model):
    """Append-only log of every floor step of a room (never updated or
    deleted): ``kind`` (e.g. ``waitlist_add``, ``call``, ``accept``,
    ``decline``, ``no_show``, ``seat``, ``buy_in``, ``leave``), ``payload``
    (JSON), ``actor`` and ``at``; ``seq`` is the room's seq after the step."""

    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="log")
    seq = models.BigIntegerField()
    kind = models.CharField(max_length=30)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    payload = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tables_roomlog"
        ordering = ["room", "seq", "id"]


class LobbyDisplay(models.Model):
    """An unguessable display link for a room's lobby screen (no login):
    made by a manager, ``revoked`` to switch a screen off."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="displays")
    token = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=80, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked = models.BooleanField(default=False)

    class Meta:
        db_table = "tables_lobbydisplay"


class RemoteSession(models.Model):
    """A player's phone: joined remotely with a ``nickname`` (shown publicly instead of the name) and a
    contact (``contact_kind`` ``email`` or ``sms``) confirmed by a one-time code (``code_hash``: salted
    hash, never the code; ``attempts`` wrong codes so far).  ``token`` is the unguessable key of the phone
    page and socket; ``arrival_token`` the key of the QR the desk scans.  ``games`` the game ids asked for
    (listed when the code is confirmed, ``verified_at``).  ``player`` is made for the nickname then."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="remote_sessions")
    token = models.CharField(max_length=64, unique=True)
    arrival_token = models.CharField(max_length=64, unique=True)
    nickname = models.CharField(max_length=40)
    contact_kind = models.CharField(max_length=5, choices=[("email", "e-mail"), ("sms", "SMS")])
    contact = models.CharField(max_length=254)
    code_hash = models.CharField(max_length=128)
    code_expires_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    games = models.JSONField(default=list)
    verified_at = models.DateTimeField(null=True, blank=True)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)


class RemoteEntry(models.Model):
    """A waitlist entry made from a phone: its session, and the player's answers to the call
    (``on_my_way_at``: the arrival window runs from then; ``more_time_used``: "Need more time" once)."""

    entry = models.OneToOneField(QueueEntry, on_delete=models.CASCADE, related_name="remote")
    session = models.ForeignKey(RemoteSession, on_delete=models.CASCADE, related_name="entries")
    on_my_way_at = models.DateTimeField(null=True, blank=True)
    more_time_used = models.BooleanField(default=False)
    no_shows = models.PositiveSmallIntegerField(default=0)


class PushSubscription(models.Model):
    """A phone's Web Push subscription (the browser's ``endpoint`` and keys ``p256dh`` and ``auth``): the call
    reaches a closed page (``room.services.push``)."""

    session = models.ForeignKey(RemoteSession, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=500)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "endpoint"], name="push_once_per_endpoint")]
