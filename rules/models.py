"""The house rulebooks as data: a :class:`Rulebook` and its numbered :class:`Rule` s.

The rows are loaded from the JSON files in ``rules/rulebooks/`` by
``manage.py load_rulebooks`` (source: the German documents in
``../shared/seeds/``); nothing in the app edits them.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _


def number_slug(number: str) -> str:
    """URL slug of a rule number as the document gives it.

    ``"Aktionen 4"`` -> ``"aktionen-4"``, ``"6.13"`` -> ``"6-13"``, ``"#44"`` ->
    ``"44"``, ``"Pot Teilung / Odd-Chips"`` -> ``"pot-teilung-odd-chips"``
    (umlauts are transliterated: ``"Einsätze 2"`` -> ``"einsaetze-2"``).
    """
    text = number.replace("#", "").replace(".", "-")
    for de, ascii_ in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue"), ("ß", "ss")):
        text = text.replace(de, ascii_)
    return slugify(text)


class Rulebook(models.Model):
    """One house rulebook (one seed document)."""

    SCOPES = [
        ("cash", _("Cash games")),
        ("tournament", _("Tournaments")),
        ("betting", _("Betting, any game")),
        ("nlhe", _("No-limit hold'em and dealer procedures")),
        ("standard", _("Poker standard (TDA), summaries")),
    ]

    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=200)
    source_file = models.CharField(
        max_length=200, blank=True, help_text=_("File name in shared/seeds (empty for the TDA summaries).")
    )
    scope = models.CharField(max_length=20, choices=SCOPES)
    preamble_de = models.TextField(blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "slug"]

    def __str__(self) -> str:
        return f"{self.title} ({self.source_file[:3]})"

    def get_absolute_url(self) -> str:
        return reverse("rules:rulebook", args=[self.slug])

    @property
    def prefix(self) -> str:
        """The label's first word of this rulebook's citations (``"004"``); ``""`` for the TDA
        summaries, whose rule numbers carry the whole label (``"TDA 2024 Rule 44"``)."""
        return self.source_file[:3] if self.source_file else ""


class Rule(models.Model):
    """A numbered section of a rulebook: German original and our English and German summaries.

    The TDA standard is shipped as summaries only (``text_de`` empty, ``summary_en`` and
    ``summary_de`` written for pokerfloor)."""

    rulebook = models.ForeignKey(Rulebook, on_delete=models.CASCADE, related_name="rules")
    number = models.CharField(max_length=100, help_text=_("Section number as the document gives it."))
    slug = models.SlugField(max_length=100)
    chapter = models.CharField(max_length=200, blank=True)
    title = models.CharField(max_length=200)
    title_de = models.CharField(
        max_length=200, blank=True, help_text=_("German title when the title is not German (the TDA summaries).")
    )
    text_de = models.TextField(blank=True)
    summary_en = models.TextField(blank=True)
    summary_de = models.TextField(blank=True)
    position = models.PositiveIntegerField(default=0)
    search_vector = SearchVectorField(null=True, editable=False)

    class Meta:
        ordering = ["rulebook__position", "position"]
        constraints = [
            models.UniqueConstraint(fields=["rulebook", "number"], name="rule_unique_number"),
            models.UniqueConstraint(fields=["rulebook", "slug"], name="rule_unique_slug"),
        ]
        indexes = [GinIndex(fields=["search_vector"], name="rule_search_gin")]

    def __str__(self) -> str:
        return f"{self.label} {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("rules:rule", args=[self.rulebook.slug, self.slug])

    @property
    def label(self) -> str:
        """The rule's written label: ``"004 #44"``, ``"TDA 2024 Rule 44"``."""
        prefix = self.rulebook.prefix
        return f"{prefix} {self.number}" if prefix else self.number

    def title_in(self, language: str | None) -> str:
        """The title in ``language``: ``title_de`` on German pages when there is one, else ``title``
        (the house rulebooks' titles are German, the TDA summaries' English)."""
        if (language or "").startswith("de") and self.title_de:
            return self.title_de
        return self.title

    def summary(self, language: str | None) -> str:
        """The summary in ``language`` (``"de..."``: the German summary, else the English one); in German
        without a German summary, the German original's beginning (cut at 300 characters)."""
        if (language or "").startswith("de"):
            if self.summary_de:
                return self.summary_de
            text = " ".join(self.text_de.split())
            return text if len(text) <= 300 else text[:299].rsplit(" ", 1)[0] + " …"
        return self.summary_en

    @staticmethod
    def search_vector_expression():
        """German text and title under the 'german' configuration, the English
        summary under 'english', the number and title also under 'simple' (so
        that English loan words such as "Oversized" or "String Raise" match
        unstemmed too)."""
        return (
            SearchVector("number", "title", config="simple", weight="A")
            + SearchVector("title", "title_de", config="german", weight="A")
            + SearchVector("text_de", config="german", weight="B")
            + SearchVector("summary_en", config="english", weight="B")
            + SearchVector("summary_de", config="german", weight="B")
            + SearchVector("text_de", "summary_en", "summary_de", config="simple", weight="C")
        )


class FloorCall(models.Model):
    """A dealer's call for the floor, with the hand's context when it was made.

    ``context`` is frozen at the moment of the call: ``{"table": snapshot
    of the table (tables.services.table_snapshot), "events": the hand's
    events}`` so the floorman sees what the dealer saw even if play went on.
    """

    class Reason(models.TextChoices):
        OUT_OF_TURN = "out_of_turn", _("Action out of turn")
        CHIP_ACTION = "chip_action", _("Chips / bet amount")
        MISDEAL = "misdeal", _("Misdeal")
        EXPOSED_CARD = "exposed_card", _("Exposed card")
        PREMATURE_BOARD = "premature_board", _("Premature or irregular board")
        TIME = "time", _("Time / clock")
        DISPUTE = "dispute", _("Dispute")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ANSWERED = "answered", _("floor on the way")
        RULED = "ruled", _("ruled")
        CANCELLED = "cancelled", _("cancelled")

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="floor_calls")
    hand = models.ForeignKey("tables.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="floor_calls")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=500, blank=True)
    details = models.JSONField(
        default=dict, blank=True, help_text="reason-specific input, e.g. the chips seen for the interpreter"
    )
    context = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    raised_at = models.DateTimeField(auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-raised_at"]
        indexes = [models.Index(fields=["status", "raised_at"], name="floorcall_status")]

    def __str__(self) -> str:
        return f"floor call {self.pk} at {self.table_id}: {self.reason}"

    def get_absolute_url(self) -> str:
        return reverse("rules:floor_call", args=[self.pk])


class Ruling(models.Model):
    """A floor decision: what the floorman decided, the rules he cited and
    the corrections applied to the hand (as ``correction`` events on it).

    ``citations``: ``[{"rulebook", "section", "label"}]`` (also linked to
    :class:`Rule` rows in ``rules`` for search); ``corrections``: the
    correction dicts of ``poker.hand.corrections``; ``event_indices``: the hand
    events they became.
    """

    #: Not a field: the citations with their links and local labels, set by the floor pages
    #: (``rules.floor_views``) for their templates.
    cites: list[dict]

    floor_call = models.ForeignKey(FloorCall, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="rulings")
    hand = models.ForeignKey("tables.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="rulings")
    players = models.ManyToManyField("tables.Player", blank=True, related_name="rulings")
    suggestion_key = models.CharField(max_length=80, blank=True)
    decision = models.TextField()
    decision_de = models.TextField(blank=True)
    citations = models.JSONField(default=list)
    rules = models.ManyToManyField(Rule, blank=True, related_name="rulings")
    corrections = models.JSONField(default=list)
    event_indices = models.JSONField(default=list)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-made_at"]
        indexes = [
            models.Index(fields=["-made_at"], name="ruling_made_at"),
            GinIndex(fields=["citations"], name="ruling_citations_gin", opclasses=["jsonb_path_ops"]),
        ]

    def __str__(self) -> str:
        return f"ruling {self.pk}: {self.decision[:40]}"

    def get_absolute_url(self) -> str:
        return reverse("rules:ruling", args=[self.pk])


class Penalty(models.Model):
    """A penalty given by a ruling (000 Strafen 1–4, 001 6.37, 004 #71).

    ``hands_total``: hands the player sits out (0 for a warning, None for a
    disqualification); ``hands_served`` counts the hands dealt to his seat
    and killed since.  ``chips_removed``: chips taken out of play on a
    disqualification.
    """

    class Kind(models.TextChoices):
        WARNING = "warning", _("warning")
        SIT_OUT_HANDS = "sit_out_hands", _("sit out hands")
        SIT_OUT_ORBITS = "sit_out_orbits", _("sit out orbits")
        DISQUALIFICATION = "disqualification", _("disqualification")

    player = models.ForeignKey("tables.Player", on_delete=models.PROTECT, related_name="penalties")
    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="penalties")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    count = models.PositiveSmallIntegerField(default=0)
    hands_total = models.PositiveIntegerField(null=True, blank=True)
    hands_served = models.PositiveIntegerField(default=0)
    chips_removed = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.player}"

    @property
    def active(self) -> bool:
        """True while the player still sits out (or is disqualified)."""
        if self.kind == self.Kind.DISQUALIFICATION:
            return True
        return self.hands_total is not None and self.hands_served < self.hands_total
