"""Template filters of the rules pages: a rule's summary and label in the page's language."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

register = template.Library()


@register.filter
def summary(rule) -> str:
    """``{{ rule|summary }}``: the German summary on German pages (the original's beginning when there
    is none yet), else the English one (:meth:`rules.models.Rule.summary`)."""
    return rule.summary(get_language())


@register.filter
def rule_title(rule) -> str:
    """``{{ rule|rule_title }}``: the title in the page's language (:meth:`rules.models.Rule.title_in`)."""
    return rule.title_in(get_language())


@register.filter
def cite_label(citation) -> str:
    """``{{ c|cite_label }}``: a citation dict's label in the page's language (the TDA's worded
    sections: "TDA 2024 Regel 49" on German pages, :meth:`poker.rulebooks.Citation.label_in`); the
    stored label is unchanged."""
    from poker.rulebooks import TDA, Citation

    if not isinstance(citation, dict):
        return str(citation)
    if citation.get("rulebook") == TDA and citation.get("section"):
        return Citation(TDA, str(citation["section"])).label_in(get_language() or "en")
    return str(citation.get("label", ""))
