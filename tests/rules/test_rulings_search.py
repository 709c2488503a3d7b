"""Searching rulings (rules.citations.search_rulings and /rules/rulings/) on the demo room
(``manage.py load_demo``): by citation ("004 #35", "#35", "tda-2024:53"), by a word of the cited
rules or the decision ("misdeal", "Overchip"), by table, player and date; under 100 ms a search."""

from __future__ import annotations

import os
import time
from datetime import date, timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from rules import citations as rules_citations
from rules import services as floor
from rules.models import Ruling
from tables.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(rulebooks, floorman):
    """The demo room with four rulings on record (and 300 filler rulings, a busy month of the floor)."""
    call_command("load_demo", stdout=StringIO())
    t1, t2, t3 = (Table.objects.get(name=f"Table {n}") for n in (1, 2, 3))

    def rule(table, decision, labels, seat=None, corrections=None):
        return floor.make_ruling(
            table.id,
            decision=decision,
            citations=rules_citations.parse_citations(labels),
            corrections=corrections or [],
            actor=floorman,
        )

    rulings = {
        "misdeal": rule(t1, "Two cards exposed on the deal: the hand is dealt again.", ["004 #35"]),
        "chip": rule(t2, "Hugo's single 100 chip without a word is a call.", ["000 Aktionen 4"]),
        "oot": rule(t3, "Lena's out-of-turn check binds.", ["tda-2024:53"]),
        "penalty": rule(
            t2,
            "Warning for Jonas (soft play).",
            ["000 Strafen 2"],
            corrections=[{"type": "penalty", "seat": 8, "kind": "warning"}],
        ),
    }
    Ruling.objects.bulk_create(
        Ruling(
            table=t1,
            decision=f"Filler ruling {i}",
            citations=[{"rulebook": "munotpoker", "section": "#1", "label": "004 #1"}],
        )
        for i in range(300)
    )
    return rulings


def found(**kwargs):
    return {r.pk for r in rules_citations.search_rulings(**kwargs)}


def test_a_citation_finds_the_rulings_that_cite_it(demo):
    assert found(text="004 #35") == {demo["misdeal"].pk}
    assert found(text="#35") == {demo["misdeal"].pk}
    assert found(text="tda-2024:53") == {demo["oot"].pk}
    assert found(text="TDA 2024 Rule 53") == {demo["oot"].pk}
    assert found(text="000 Aktionen 4") == {demo["chip"].pk}


def test_a_word_finds_rulings_by_their_rules_or_their_decision(demo):
    assert demo["misdeal"].pk in found(text="misdeal")
    assert demo["chip"].pk not in found(text="misdeal")
    assert found(text="Overchip") == {demo["chip"].pk}
    assert found(text="soft play") == {demo["penalty"].pk}


def test_filters_by_table_player_and_date(demo):
    t2 = Table.objects.get(name="Table 2")
    assert found(table=t2.id) == {demo["chip"].pk, demo["penalty"].pk}
    assert found(player="jon") == {demo["penalty"].pk}
    today = date.today()
    assert len(found(start=today, end=today)) == 304
    assert found(end=today - timedelta(days=1)) == set()


def _median(func, runs=10) -> float:
    func()  # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return sorted(times)[runs // 2]


def test_the_rulings_page_finds_them_in_under_100_ms(client, demo, floorman):
    """Median of 10 test-client requests per search under 100 ms; on a machine busier than one runnable
    process per core the limit grows with the load average (the time measured is the CPU share)."""
    client.force_login(floorman)
    limit = 0.1 * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    pages, searches = {}, {}
    for q in ("004 #35", "#35", "misdeal", "Overchip", "tda-2024:53"):
        pages[q] = _median(lambda q=q: client.get("/rules/rulings/", {"q": q}))
        searches[q] = _median(lambda q=q: list(rules_citations.search_rulings(q)))
    html = client.get("/rules/rulings/", {"q": "Overchip"}).content.decode()
    assert "single 100 chip" in html and "Filler ruling" not in html
    print("\npage median ms:", {q: round(t * 1000, 1) for q, t in pages.items()})
    print("search median ms:", {q: round(t * 1000, 1) for q, t in searches.items()})
    print("load average:", os.getloadavg(), "limit ms:", round(limit * 1000))
    assert max(pages.values()) < limit, pages


def test_the_ruling_page_reads_as_words(client, demo, floorman):
    client.force_login(floorman)
    html = client.get(f"/rules/rulings/{demo['oot'].pk}/").content.decode()
    assert "TDA 2024 Rule 53" in html and "/rules/tda-2024/tda-2024-rule-53/" in html
    assert "Action out of turn is binding if the action to that player does not change" in html
    html = client.get(f"/rules/rulings/{demo['penalty'].pk}/").content.decode()
    assert "Penalty for Jonas (8): warning" in html
    assert "{&#x27;" not in html and "{'type'" not in html
