"""The archive imports the stud games too (issue 27 finding 6): Seven Card Stud, razz and stud
eight-or-better hands played in pokerkit are archived with their recorded stacks, searchable by player,
and their .phhs export imports back to the same results."""

from __future__ import annotations

import os
import random
import warnings

import pytest
from django.urls import reverse

from tables.models import ArchivedHand
from tests.poker.hand.test_phh_stud import pokerkit_hand
from tests.tables.test_import_phh import run

pytestmark = pytest.mark.django_db


def test_stud_razz_and_stud8_hands_are_archived_and_export_back(client, floorman, tmp_path):
    warnings.simplefilter("ignore", UserWarning)  # pokerkit's advice on cards and folds
    rng = random.Random(27)
    finals = {}
    for variant, name in (("F7S", "stud"), ("FR", "razz"), ("F7S/8", "stud8")):
        for i in range(3):
            record, final = pokerkit_hand(rng, variant)
            record.players = [f"{name.title()} Player {k + 1}" for k in range(len(final))]
            path = tmp_path / f"{name}{i}.phh"
            path.write_text(record.dumps())
            finals[os.path.abspath(path)] = list(final)
    code, lines, summary = run("import_phh", tmp_path)
    assert code == 0, [line["error"] for line in lines if not line["ok"]]
    assert summary["archived"] == 9
    archived = {h.source_file: h for h in ArchivedHand.objects.all()}
    assert {f: h.finishing_stacks for f, h in archived.items()} == finals
    assert sorted({h.variant for h in archived.values()}) == ["F7S", "F7S/8", "FR"]

    client.force_login(floorman)
    page = client.get(reverse("archive"), {"player": "razz player"})
    assert page.status_code == 200 and page.content.decode().count("Razz Player 1") >= 3
    razz = next(h for h in archived.values() if h.variant == "FR")
    shown = client.get(reverse("archived_hand", args=[razz.id]))
    assert shown.status_code == 200 and "Razz Player 1" in shown.content.decode()
    phh = client.get(reverse("archived_hand_phh", args=[razz.id])).content.decode()
    assert "variant = 'FR'" in phh
    export = tmp_path / "again" / "razz.phhs"
    export.parent.mkdir()
    export.write_bytes(b"".join(client.get(reverse("archive_export"), {"player": "razz"}).streaming_content))
    code, lines, summary = run("import_phh", export)
    assert code == 0 and summary["archived"] == 3
    for line in lines:
        assert line["ok"] and line["actual"] == line["expected"]
