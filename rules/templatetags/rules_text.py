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
