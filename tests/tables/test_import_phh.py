"""``manage.py import_phh`` (issue 27): hand histories into the archive in bulk, outside the live floor;
checked exactly as ``replay_phh`` checks them; ``--dry-run``, ``--jobs``, no duplicates, refused files
named in the summary; ``/floor/archive/`` searched, paged, opened and exported as ``.phhs`` that imports
back to the same results."""

import io
import json
import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from tables.models import ArchivedHand, ArchivedHandPlayer, Hand, Table

pytestmark = pytest.mark.django_db

PHH = Path(settings.SHARED_DIR) / "phh"
WSOP_2023 = PHH / "wsop-2023-43-day5-NT"
PLURIBUS = PHH / "pluribus"
ONLINE = Path(__file__).resolve().parents[1] / "fixtures" / "phh" / "online_cents.phhs"


def run(command, *args):
    """``(exit code, hand lines, summary)`` of ``import_phh --json`` (or ``replay_phh --json``: no summary)."""
    out = io.StringIO()
    code = 0
    try:
        call_command(command, *map(str, args), "--json", stdout=out)
    except SystemExit as exit_:
        code = exit_.code
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    summary = next((line for line in lines if line.get("summary")), None)
    return code, [line for line in lines if not line.get("summary")], summary


def _key(result):
    return (os.path.abspath(result["file"]), result["hand"])


def test_the_import_matches_every_hand_replay_phh_matches_on_the_shared_hands():
    _code, old, _ = run("replay_phh", PHH)
    replayed_tables = Table.objects.count()
    code, new, summary = run("import_phh", PHH, "--jobs", "2")
    assert len(old) == len(new) == 200
    old_by, new_by = {_key(r): r for r in old}, {_key(r): r for r in new}
    assert old_by.keys() == new_by.keys()
    for key, result in old_by.items():
        assert new_by[key]["ok"] == result["ok"], key
        assert new_by[key]["actual"] == result["actual"], key
        assert new_by[key]["expected"] == result["expected"], key
    assert summary["matched"] == sum(r["ok"] for r in old) == 198
    assert summary["archived"] == 198 and summary["refused"] == 2
    # the WSOP 2019 ante trimming quirk; the 2009 hand records no result to check
    assert summary["refused_by_reason"] == {"not_your_turn": 1, "nothing_recorded": 1}
    assert code == 1
    # the archive holds each matched hand with the recorded result, and no live table was made for it
    assert ArchivedHand.objects.count() == 198
    assert Table.objects.count() == replayed_tables
    for key, result in old_by.items():
        if result["ok"]:
            archived = ArchivedHand.objects.get(source_file=str(key[0]), number=1)
            assert archived.finishing_stacks == result["actual"]
            assert [p["finish"] for p in archived.players] == result["actual"]


def test_a_dry_run_checks_everything_and_writes_nothing():
    code, lines, summary = run("import_phh", WSOP_2023, ONLINE, "--dry-run")
    assert code == 1  # the online file's hands 4 and 5 do not check
    assert summary["dry_run"] is True and summary["read"] == 16
    assert summary["matched"] == summary["would_archive"] == 14
    assert summary["archived"] == 0
    assert not ArchivedHand.objects.exists() and not ArchivedHandPlayer.objects.exists()
    assert not Table.objects.exists() and not Hand.objects.exists()


def test_importing_the_same_files_again_duplicates_nothing():
    _code, _lines, first = run("import_phh", WSOP_2023, ONLINE)
    assert first["archived"] == 14
    players = ArchivedHandPlayer.objects.count()
    _code, _lines, again = run("import_phh", WSOP_2023, ONLINE)
    assert again["matched"] == 14 and again["archived"] == 0 and again["already"] == 14
    assert ArchivedHand.objects.count() == 14 and ArchivedHandPlayer.objects.count() == players
    # the same file given by another path is the same file
    _code, _lines, relative = run("import_phh", WSOP_2023 / "1.phh", "--dry-run")
    assert relative["already"] == 1 and relative["would_archive"] == 0


def test_a_malformed_file_is_refused_with_its_reason_and_nothing_of_it_is_written(tmp_path):
    broken = tmp_path / "broken.phh"
    broken.write_text("variant = 'NT'\nantes = [0, 0\nstarting_stacks = ")
    text = (WSOP_2023 / "1.phh").read_text()
    wrong = tmp_path / "wrong.phh"
    wrong.write_text(re.sub(r"^finishing_stacks = .*$", "finishing_stacks = [1, 2, 3, 4, 5]", text, flags=re.M))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_phh", str(tmp_path), str(WSOP_2023 / "2.phh"), stdout=out)
    assert exit_.value.code == 1
    printed = out.getvalue()
    assert f"REFUSED {broken}" in printed and f"REFUSED {wrong}" in printed
    assert "3 hands read: 1 matched, 1 archived, 0 already archived, 2 refused" in printed
    assert "refused 1: bad_spec" in printed and "refused 1: mismatch" in printed
    assert list(ArchivedHand.objects.values_list("source_file", flat=True)) == [os.path.abspath(WSOP_2023 / "2.phh")]


def _imported(*paths):
    code, lines, summary = run("import_phh", *paths)
    return summary


def test_the_phhs_export_of_a_set_imports_back_to_the_same_results(client, floorman, tmp_path):
    _imported(WSOP_2023, ONLINE, PLURIBUS / "115_62.phh")
    client.force_login(floorman)
    # a day's hands: the WSOP final table of 22 June 2023
    response = client.get(reverse("archive_export"), {"date_from": "2023-06-22", "date_to": "2023-06-22"})
    assert response.status_code == 200
    assert (
        response["Content-Disposition"].startswith('attachment; filename="archive-')
        and ".phhs" in response["Content-Disposition"]
    )
    day = tmp_path / "day.phhs"
    day.write_bytes(b"".join(response.streaming_content))
    # a player's hands: the online file's "hero", amounts in cents, hole cards unknown
    hero = tmp_path / "hero.phhs"
    hero.write_bytes(b"".join(client.get(reverse("archive_export"), {"player": "HERO"}).streaming_content))
    # the export names each hand's file and number in it (_source, _number)
    originals = {(Path(h.source_file).name, h.number): h for h in ArchivedHand.objects.all()}
    code, lines, summary = run("import_phh", day, hero)
    assert code == 0 and summary["refused"] == 0
    assert summary["archived"] == 11 + 3
    copies = ArchivedHand.objects.filter(source_file__in=[os.path.abspath(day), os.path.abspath(hero)])
    assert copies.count() == 14
    for copy in copies:
        original = originals[(copy.metadata["_source"], copy.metadata["_number"])]
        assert copy.finishing_stacks == original.finishing_stacks
        assert copy.winnings == original.winnings and copy.pot == original.pot
        assert copy.played_at == original.played_at


def test_the_archive_page_searches_by_player_and_pages(client, floorman):
    _imported(PLURIBUS, WSOP_2023)
    client.force_login(floorman)
    page = client.get(reverse("archive")).content.decode()
    assert "198 hands" in page
    assert len(re.findall(r'<tr data-hand-id="\d+"', page)) == 50
    assert "Page 1 of 4" in page
    # a player, spelled with other case and accents
    brian = client.get(reverse("archive"), {"player": "brián RAST"}).content.decode()
    rows = {int(n) for n in re.findall(r'<tr data-hand-id="(\d+)"', brian)}
    assert rows == set(ArchivedHandPlayer.objects.filter(name="Brian Rast").values_list("hand_id", flat=True))
    assert len(rows) == 11 and "Page 1 of" not in brian
    # the beginning of a word of the name finds him too
    rast = client.get(reverse("archive"), {"player": "Ras"}).content.decode()
    assert {int(n) for n in re.findall(r'<tr data-hand-id="(\d+)"', rast)} == rows
    # Pluribus plays in every Pluribus hand: four pages, the last with 37, the search kept in the links
    last = client.get(reverse("archive"), {"player": "pluribus", "page": 4}).content.decode()
    assert len(re.findall(r'<tr data-hand-id="\d+"', last)) == 187 - 150
    assert "Page 4 of 4" in last and 'href="?player=pluribus&amp;page=3"' in last
    # the export link carries the search
    assert reverse("archive_export") + "?player=pluribus" in last
    # pot size and table name
    big = client.get(reverse("archive"), {"pot_min": 1_000_000}).content.decode()
    assert {int(n) for n in re.findall(r'<tr data-hand-id="(\d+)"', big)} == set(
        ArchivedHand.objects.filter(pot__gte=1_000_000).values_list("id", flat=True)
    )
    big_pots = ArchivedHand.objects.filter(pot__gte=1_000_000)
    assert big_pots.count() == 5 and all("wsop-2023" in h.source_file for h in big_pots)
    small = client.get(reverse("archive"), {"pot_max": 150, "player": "pluribus"}).content.decode()
    assert {int(n) for n in re.findall(r'<tr data-hand-id="(\d+)"', small)} == set(
        ArchivedHand.objects.filter(pot__lte=150).values_list("id", flat=True)
    )
    wsop = client.get(reverse("archive"), {"table": "world series"}).content.decode()
    assert "11 hands" in wsop


def test_an_archived_hand_opens_in_words_and_downloads_as_phh(client, floorman):
    _imported(WSOP_2023 / "1.phh")
    hand = ArchivedHand.objects.get()
    client.force_login(floorman)
    page = client.get(reverse("archived_hand", args=[hand.id])).content.decode()
    assert "Talal Shakerchi (4) raises to 170000" in page or "Talal Shakerchi (4) bets 170000" in page
    assert "Brian Rast (5) folds" in page
    phh = client.get(reverse("archived_hand_phh", args=[hand.id]))
    assert phh.status_code == 200 and b"finishing_stacks = [7340000, 3775000, 5110000, 8935000, 4545000]" in phh.content
    german = client.get(reverse("archived_hand", args=[hand.id]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Brian Rast (5) passt" in german or "Brian Rast (5) foldet" in german


def test_the_archive_is_for_the_floor_only(client, dealer):
    client.force_login(dealer)
    assert client.get(reverse("archive")).status_code == 403
    assert client.get(reverse("archive_export")).status_code == 403
