"""Citations and rulings as the floor reads them: a cited rule's permalink,
citations typed by the floor, the search over rulings and the readable view of
one ruling.
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _t

from poker.houserules import TDA, Citation
from poker.rulebooks import HOUSE
from rules import handwords
from rules.corrections import events_by_index, seat_names
from rules.models import Rulebook, Ruling, number_slug
from tables.services import ServiceError


def citation_url(citation: dict[str, Any]) -> str | None:
    """The permalink of a cited rule (``/rules/<rulebook>/<rule>/``; the TDA rules are shipped as
    summaries: ``/rules/tda-2024/tda-2024-rule-44/``), or None for the house settings (no rulebook)."""
    if not citation.get("rulebook") or citation.get("rulebook") == HOUSE or not citation.get("section"):
        return None
    return f"/rules/{citation['rulebook']}/{number_slug(str(citation['section']))}/"


#: "TDA 2024 Regel 53", "TDA 2024 Rule 53", "TDA Regel 53", "tda 53" (any case).
_TDA_TYPED = re.compile(r"^tda(?:\s+2024)?(?:\s+(?:rule|regel))?\s+#?(\d+)$", re.IGNORECASE)


def parse_citation(text: str, *, check_rule: bool = True) -> dict[str, str]:
    """A citation typed by the floor, as ``{"rulebook", "section", "label"}``.

    Accepted: the written label (``"004 #35"``, ``"000 Aktionen 4"``, ``"TDA 2024 Rule 1"``, as a German
    page shows it ``"TDA 2024 Regel 1"``, or short ``"TDA 1"``) or
    ``rulebook:section`` with the rulebook's slug, prefix or seed name (``"munotpoker:#53"``,
    ``"004:53"``, ``"tda-2024:1"`` -> ``TDA 2024 Rule 1``).  A bare number is a 004 rule number
    (``#53``) for munotpoker and a rule number for TDA.  Raises ``ServiceError('invalid')`` for an
    unknown rulebook or an empty section, and (``check_rule``, one query) when the rulebook is loaded
    but has no such rule."""
    from poker.rulebooks import rulebook as find_rulebook

    line = (text or "").strip()
    if not line:
        raise ServiceError("invalid", _t("Write a citation, e.g. 004 #35."))
    # the TDA as a German page words it ("TDA 2024 Regel 53") or short ("TDA 53")
    tda = _TDA_TYPED.match(line)
    if tda:
        line = f"{TDA}:{tda.group(1)}"
    try:
        if ":" in line:
            book_name, _sep, section = line.partition(":")
            slug = find_rulebook(book_name).slug
            section = section.strip()
        else:
            citation = Citation.parse(line)
            slug, section = citation.rulebook, citation.section
    except (KeyError, ValueError):
        raise ServiceError(
            "invalid", _t("%(text)s is not a rule citation (write e.g. 004 #35 or tda-2024:35).") % {"text": line}
        ) from None
    if slug == TDA:
        digits = section.split()[-1] if section.split() else ""
        if digits.isdigit():
            section = f"TDA 2024 Rule {int(digits)}"
    elif slug == "munotpoker" and section.isdigit():
        section = f"#{int(section)}"
    if not section:
        raise ServiceError("invalid", _t("%(text)s names no section.") % {"text": line})
    if check_rule and not _rule_exists(slug, section):
        raise ServiceError("invalid", _t("There is no rule %(label)s.") % {"label": Citation(slug, section).label})
    return Citation(slug, section).to_dict()


def _rule_exists(slug: str, section: str) -> bool:
    """True when the rulebook ``slug`` has the rule ``section``, or is not loaded at all (then nothing
    can be checked)."""
    rows = list(
        Rulebook.objects.filter(slug=slug)
        .values_list("rules__slug", flat=True)
        .filter(rules__slug=number_slug(section))
    )
    return bool(rows) or not Rulebook.objects.filter(slug=slug).exists()


def parse_citations(lines: list[str]) -> list[dict[str, str]]:
    """:func:`parse_citation` of each non-empty line or comma-separated item, duplicates dropped."""
    out: list[dict[str, str]] = []
    for line in lines:
        for part in str(line).replace("\n", ",").split(","):
            if part.strip():
                c = parse_citation(part)
                if c not in out:
                    out.append(c)
    return out


# --------------------------------------------------------------------------- searching rulings

#: Floor jargon the rulebooks do not use, searched as the rulebooks' words (German floors say
#: "Overchip" for the oversized chip of 000 Aktionen 4, 001 6.20, 004 #44, TDA 44).
SEARCH_SYNONYMS = {
    "overchip": "oversized",
    "over-chip": "oversized",
    "overchips": "oversized",
    "missdeal": "misdeal",
    "fehlgabe": "misdeal",
}


def search_rulings(
    text: str = "",
    *,
    table: int | None = None,
    player: str = "",
    start=None,
    end=None,
):
    """Rulings matching the filters, newest first (a queryset).

    ``text`` finds a ruling by what it cites or says: a citation (``"004 #35"``, ``"tda-2024:35"``,
    ``"#35"``: every rulebook's rule 35), a word of a cited rule (``"misdeal"``, ``"Overchip"``:
    the rulebook full-text search, :func:`rules.views.search_rules`) or a part of the decision
    (English or German).  ``table``: table id; ``player``: part of a player's name; ``start`` /
    ``end``: dates (inclusive)."""
    from rules.views import search_rules

    qs = Ruling.objects.all()
    text = (text or "").strip()
    if text:
        match = Q(decision__icontains=text) | Q(decision_de__icontains=text)
        cited = None
        try:
            cited = parse_citation(text, check_rule=False)
        except ServiceError:
            cited = None
        if cited is not None:
            match |= Q(citations__contains=[{"rulebook": cited["rulebook"], "section": cited["section"]}])
        number = text if text.startswith("#") else None
        if number and number[1:].isdigit():
            match |= Q(citations__contains=[{"section": number}])
            match |= Q(citations__contains=[{"section": f"TDA 2024 Rule {int(number[1:])}"}])
        if cited is None:
            words = SEARCH_SYNONYMS.get(text.lower(), text)
            rule_ids = list(search_rules(words).values_list("pk", flat=True)[:200])
            if rule_ids:
                match |= Q(pk__in=Ruling.rules.through.objects.filter(rule_id__in=rule_ids).values("ruling_id"))
        qs = qs.filter(match)
    if table is not None:
        qs = qs.filter(table_id=table)
    if player:
        qs = qs.filter(pk__in=Ruling.players.through.objects.filter(player__name__icontains=player).values("ruling_id"))
    if start:
        qs = qs.filter(made_at__date__gte=start)
    if end:
        qs = qs.filter(made_at__date__lte=end)
    return qs.order_by("-made_at")


def ruling_view(ruling: Ruling) -> dict[str, Any]:
    """A ruling for its page: citations with their rules' summaries in the page's language, the
    corrections in words, the decision in the page's language."""
    german = (translation.get_language() or "en").startswith("de")
    hand = ruling.hand
    names = seat_names(hand) or {
        s.number: s.player.name for s in ruling.table.seats.select_related("player") if s.player is not None
    }
    by_index = events_by_index(hand)
    rules = {(r.rulebook.slug, r.number): r for r in ruling.rules.select_related("rulebook")}
    citations = []
    for c in ruling.citations:
        rule = rules.get((c.get("rulebook"), c.get("section")))
        citations.append(
            dict(
                c,
                url=citation_url(c),
                title=rule.title_in(translation.get_language()) if rule else "",
                summary=rule.summary(translation.get_language()) if rule else "",
            )
        )
    return {
        "decision": (ruling.decision_de if german and ruling.decision_de else ruling.decision),
        # a German page shows the German decision only (no English leftover, issue 24); an English
        # page keeps the German wording beside it
        "other_decision": "" if german else ruling.decision_de,
        "citations": citations,
        "corrections": [handwords.correction_text(c, names, by_index) for c in ruling.corrections],
    }
