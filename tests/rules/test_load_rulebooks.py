"""manage.py load_rulebooks: idempotent, updates in place by (rulebook, number)."""

import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from rules.models import Rule, Rulebook

DATA = Path(__file__).resolve().parents[2] / "rules" / "rulebooks"


@pytest.mark.django_db
def test_it_loads_all_rules():
    out = StringIO()
    call_command("load_rulebooks", stdout=out)
    assert Rulebook.objects.count() == 6  # the five house rulebooks and the TDA summaries
    assert Rule.objects.count() == 33 + 46 + 17 + 29 + 83 + 28
    assert "rules created: 236" in out.getvalue()
    rule = Rule.objects.get(rulebook__slug="munotpoker", number="#44")
    assert rule.slug == "44"
    assert Rule.objects.get(rulebook__slug="casino-cash", number="Einsätze 2").slug == "einsaetze-2"
    assert Rule.objects.get(rulebook__slug="wynental", number="6.13").get_absolute_url() == "/rules/wynental/6-13/"


@pytest.mark.django_db
def test_it_is_idempotent_and_updates_in_place(tmp_path):
    call_command("load_rulebooks", stdout=StringIO())
    ids = dict(Rule.objects.values_list("number", "id").filter(rulebook__slug="betting-rules"))
    for p in DATA.glob("*.json"):
        shutil.copy(p, tmp_path / p.name)
    path = tmp_path / "betting-rules.json"
    data = json.loads(path.read_text())
    data["rules"][3]["summary_en"] = "Changed summary for #4."
    path.write_text(json.dumps(data, ensure_ascii=False))
    out = StringIO()
    call_command("load_rulebooks", "--dir", str(tmp_path), stdout=out)
    assert "created: 0, updated: 1, unchanged: 235" in out.getvalue()
    rule = Rule.objects.get(rulebook__slug="betting-rules", number="#4")
    assert rule.summary_en == "Changed summary for #4."
    assert rule.id == ids["#4"]
    assert Rule.objects.count() == 236
