"""The house rulebooks as data: a :class:`Rulebook` and its numbered :class:`Rule` s.

The rows are loaded from the JSON files in ``rules/rulebooks/`` by
``manage.py load_rulebooks`` (source: the German documents in
``../shared/seeds/``); nothing in the app edits them.
"""

from __future__ import annotations

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
    ]

    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=200)
    source_file = models.CharField(max_length=200, help_text=_("File name in shared/seeds."))
    scope = models.CharField(max_length=20, choices=SCOPES)
    preamble_de = models.TextField(blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "slug"]

    def __str__(self) -> str:
        return f"{self.title} ({self.source_file[:3]})"

    def get_absolute_url(self) -> str:
        return reverse("rules:rulebook", args=[self.slug])


class Rule(models.Model):
    """A numbered section of a rulebook: German original and our English summary."""

    rulebook = models.ForeignKey(Rulebook, on_delete=models.CASCADE, related_name="rules")
    number = models.CharField(max_length=100, help_text=_("Section number as the document gives it."))
    slug = models.SlugField(max_length=100)
    chapter = models.CharField(max_length=200, blank=True)
    title = models.CharField(max_length=200)
    text_de = models.TextField()
    summary_en = models.TextField(blank=True)
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
        return f"{self.rulebook.source_file[:3]} {self.number} {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("rules:rule", args=[self.rulebook.slug, self.slug])

    @staticmethod
    def search_vector_expression():
        """German text and title under the 'german' configuration, the English
        summary under 'english', the number and title also under 'simple' (so
        that English loan words such as "Oversized" or "String Raise" match
        unstemmed too)."""
        return (
            SearchVector("number", "title", config="simple", weight="A")
            + SearchVector("title", config="german", weight="A")
            + SearchVector("text_de", config="german", weight="B")
            + SearchVector("summary_en", config="english", weight="B")
            + SearchVector("text_de", "summary_en", config="simple", weight="C")
        )
