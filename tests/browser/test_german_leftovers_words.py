"""German without leftovers, below the browser (issue 24): the interpreter says "Call in Höhe von
100" (not "Call über 100"), the TDA's worded citations show as "TDA 2024 Regel N" on German pages
(the stored label stays "TDA 2024 Rule N"), the floor types a citation the way the German page
shows it, and a German ruling page shows the German decision only."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from poker.floor.interpret import interpret_json


def _oversized_call(profile: str) -> dict:
    return interpret_json(
        profile,
        {
            "situation": dict(
                street="flop", small_blind=500, big_blind=1000, to_call=2000, last_raise=2000, pot=5000, stack=100_000
            ),
            "observed": {"chips": {"5000": 1}},
        },
    )


@pytest.mark.parametrize("profile", ["munotpoker", "wynental", "casino-cash"])
def test_the_interpreter_says_call_in_proper_german(profile):
    r = _oversized_call(profile)
    assert r["action"] == "call"
    text = r["explanation"]["de"]
    assert "Call über" not in text
    assert "ein Call in Höhe von 2.000" in text


def _render(source: str, **context) -> str:
    return Template("{% load rules_text %}" + source).render(Context(context))


def test_a_tda_citation_is_worded_in_german_on_german_pages():
    c = {"rulebook": "tda-2024", "section": "TDA 2024 Rule 49", "label": "TDA 2024 Rule 49"}
    with translation.override("de"):
        assert _render("{{ c|cite_label }}", c=c) == "TDA 2024 Regel 49"
        assert _render("{{ c|cite_label }}", c={"rulebook": "munotpoker", "section": "#44", "label": "004 #44"}) == (
            "004 #44"
        )
    with translation.override("en"):
        assert _render("{{ c|cite_label }}", c=c) == "TDA 2024 Rule 49"
    assert c["label"] == "TDA 2024 Rule 49"  # the stored label stays


def test_the_citations_partial_shows_german_labels():
    c = {"rulebook": "tda-2024", "section": "TDA 2024 Rule 1", "label": "TDA 2024 Rule 1", "url": "/x/"}
    with translation.override("de"):
        html = Template("{% include 'rules/_citations.html' %}").render(Context({"citations": [c]}))
    assert "TDA 2024 Regel 1" in html and "Rule" not in html


@pytest.mark.django_db
def test_the_floor_types_a_tda_citation_as_the_german_page_shows_it():
    from rules.citations import parse_citation

    assert parse_citation("TDA 2024 Regel 53", check_rule=False)["label"] == "TDA 2024 Rule 53"
    assert parse_citation("tda 53", check_rule=False)["label"] == "TDA 2024 Rule 53"
    with translation.override("de"):
        from django.utils.translation import gettext

        hint = gettext("Other citation (e.g. 004 #35, TDA 2024 Rule 53)")
    assert hint == "Andere Regel (z. B. 004 #35, TDA 2024 Regel 53)"
