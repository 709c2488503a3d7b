"""``manage.py load_rulebooks``: load rules/rulebooks/*.json into the database.

The five house rulebooks carry the German original (``text_de``) and summaries; ``tda-2024.json``
carries short English and German summaries of the TDA rules the app cites (no original text).

Idempotent: rulebooks are matched by slug and rules by (rulebook, number),
updated in place, and the full-text search vectors are rebuilt. Rules that
are no longer in the files are reported, not deleted (rulings may cite them).
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from rules.models import Rule, Rulebook, number_slug

DATA_DIR = Path(__file__).resolve().parents[2] / "rulebooks"
ORDER = ["casino-cash", "wynental", "betting-rules", "nlhe", "munotpoker", "tda-2024"]


def load_rulebooks(data_dir: Path = DATA_DIR) -> dict:
    """Load every ``<slug>.json`` in ``data_dir``; return counts
    ``{"rulebooks", "created", "updated", "unchanged", "stale"}``.

    Raises CommandError when a file is malformed or two rules share a slug.
    """
    counts = {"rulebooks": 0, "created": 0, "updated": 0, "unchanged": 0, "stale": 0}
    files = sorted(data_dir.glob("*.json"))
    if not files:
        raise CommandError(f"no rulebook files in {data_dir}")
    with transaction.atomic():
        for path in files:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                slug = data["slug"]
                book_fields = {
                    "title": data["title"],
                    "source_file": data.get("source_file", ""),
                    "scope": data["scope"],
                    "preamble_de": data.get("preamble_de", ""),
                    "position": ORDER.index(slug) if slug in ORDER else len(ORDER),
                }
                rules = data["rules"]
            except (ValueError, KeyError) as exc:
                raise CommandError(f"{path.name}: malformed rulebook file ({exc})") from exc
            book, _ = Rulebook.objects.update_or_create(slug=slug, defaults=book_fields)
            counts["rulebooks"] += 1
            existing = {r.number: r for r in book.rules.all()}
            slugs = set()
            for position, item in enumerate(rules):
                fields = {
                    "slug": number_slug(item["number"]),
                    "chapter": item.get("chapter", ""),
                    "title": item["title"],
                    "title_de": item.get("title_de", ""),
                    "text_de": item.get("text_de", ""),
                    "summary_en": item.get("summary_en", ""),
                    "summary_de": item.get("summary_de", ""),
                    "position": position,
                }
                if fields["slug"] in slugs:
                    raise CommandError(f"{path.name}: two rules share the slug {fields['slug']!r}")
                slugs.add(fields["slug"])
                rule = existing.pop(item["number"], None)
                if rule is None:
                    Rule.objects.create(rulebook=book, number=item["number"], **fields)
                    counts["created"] += 1
                elif any(getattr(rule, k) != v for k, v in fields.items()):
                    for k, v in fields.items():
                        setattr(rule, k, v)
                    rule.save()
                    counts["updated"] += 1
                else:
                    counts["unchanged"] += 1
            counts["stale"] += len(existing)
        Rule.objects.update(search_vector=Rule.search_vector_expression())
    return counts


class Command(BaseCommand):
    help = "Load the house rulebooks (rules/rulebooks/*.json) into the database; safe to run repeatedly."

    def add_arguments(self, parser):
        parser.add_argument("--dir", default=str(DATA_DIR), help="folder with <slug>.json files")

    def handle(self, *args, **options):
        counts = load_rulebooks(Path(options["dir"]))
        self.stdout.write(
            "rulebooks: {rulebooks}, rules created: {created}, updated: {updated}, unchanged: {unchanged}".format(
                **counts
            )
        )
        if counts["stale"]:
            self.stderr.write(f"{counts['stale']} rule(s) in the database are no longer in the files (kept).")
