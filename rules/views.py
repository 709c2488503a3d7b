"""Pages for browsing and searching the house rulebooks (and the TDA summaries).

Access: read-only for logged-in users in the ``dealer``, ``floor`` or ``manager`` group, or staff
(a dealer reads the rules his tablet cites); the floor pages (calls, rulings) take
:func:`floor_required` instead. Anyone else logged in gets 403, anonymous users are sent to the
login page.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.core.exceptions import PermissionDenied
from django.db.models import F, Q
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language

from rules.models import Rule, Rulebook

FLOOR_GROUPS = ("floor", "manager")
READER_GROUPS = ("dealer", *FLOOR_GROUPS)


def is_floor_staff(user) -> bool:
    """Staff, superusers and members of the floor/manager groups: the floor pages (calls, rulings)."""
    if not user.is_authenticated:
        return False
    return user.is_staff or user.is_superuser or user.groups.filter(name__in=FLOOR_GROUPS).exists()


def can_read_rules(user) -> bool:
    """The floor staff (:func:`is_floor_staff`) and dealers may read the rulebooks (read-only)."""
    if not user.is_authenticated:
        return False
    return user.is_staff or user.is_superuser or user.groups.filter(name__in=READER_GROUPS).exists()


def _role_required(check):
    def decorator(view):
        @login_required
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


floor_required = _role_required(is_floor_staff)
"""Login required, then :func:`is_floor_staff` or 403 (floor calls, rulings, player histories)."""

reader_required = _role_required(can_read_rules)
"""Login required, then :func:`can_read_rules` or 403 (the rulebook pages, read-only)."""


#: Longest search text taken from a query parameter (longer input is cut).
MAX_QUERY_CHARS = 200


def query_text(request, name: str) -> str:
    """The query parameter ``name`` as search text PostgreSQL can take: NUL characters and lone surrogates
    become spaces, the rest is stripped and cut to :data:`MAX_QUERY_CHARS`.  Missing: ``""``."""
    value = request.GET.get(name, "")
    value = "".join(" " if ch == "\x00" or "\ud800" <= ch <= "\udfff" else ch for ch in value)
    return value.strip()[:MAX_QUERY_CHARS].strip()


def search_rules(text: str):
    """Rules matching ``text``, best first.

    Full-text search over the stored ``search_vector`` with the German, the
    English and the 'simple' configuration (OR-ed), plus an exact match on
    the rule number ("6.13", "#44", "Aktionen 4"). Returns a queryset with a
    ``rank`` annotation; empty for blank input.
    """
    text = (text or "").strip()
    if not text:
        return Rule.objects.none()
    query = (
        SearchQuery(text, config="german", search_type="websearch")
        | SearchQuery(text, config="english", search_type="websearch")
        | SearchQuery(text, config="simple", search_type="websearch")
    )
    number = text if text.startswith("#") or not text.isdigit() else f"#{text}"
    return (
        Rule.objects.select_related("rulebook")
        .filter(Q(search_vector=query) | Q(number__iexact=text) | Q(number__iexact=number))
        .annotate(rank=SearchRank(F("search_vector"), query))
        .order_by("-rank", "rulebook__position", "position")
    )


@reader_required
def index(request):
    """All rulebooks, and search results for ``?q=``."""
    q = query_text(request, "q")
    results = list(search_rules(q)[:100]) if q else []
    return render(
        request,
        "rules/index.html",
        {
            "rulebooks": Rulebook.objects.all(),
            "q": q,
            "results": results,
        },
    )


@reader_required
def rulebook(request, slug):
    """One rulebook with all its rules."""
    book = get_object_or_404(Rulebook, slug=slug)
    return render(request, "rules/rulebook.html", {"rulebook": book, "rules": book.rules.all()})


@reader_required
def rule(request, slug, rule_slug):
    """Permalink of one rule: German original (none for the TDA summaries) and the summary in the
    page's language (:meth:`rules.models.Rule.summary`)."""
    item = get_object_or_404(Rule.objects.select_related("rulebook"), rulebook__slug=slug, slug=rule_slug)
    siblings = list(item.rulebook.rules.values_list("slug", "number"))
    index_ = [s for s, _ in siblings].index(item.slug)
    return render(
        request,
        "rules/rule.html",
        {
            "rule": item,
            "rulebook": item.rulebook,
            "summary": item.summary(get_language()),
            "previous": siblings[index_ - 1] if index_ > 0 else None,
            "next": siblings[index_ + 1] if index_ + 1 < len(siblings) else None,
        },
    )
