"""The live floor shows live tables only: imported hands (``manage.py replay_phh``, a table with
``imported`` set or a hand recorded from a PHH file) are listed on the archive page instead; the top bar
shows only the pages the user's roles may open."""

import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from tables import services
from tables.models import Table

pytestmark = pytest.mark.django_db

PHH = Path(settings.SHARED_DIR) / "phh"


def _floor_tiles(html: str) -> set[int]:
    """The tables the floor page lists (its room map's rows; the tiles are drawn from the socket's summaries)."""
    return {int(n) for n in re.findall(r'class="map-row" data-table-id="(\d+)"', html)}


def _archive_rows(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'<tr data-table-id="(\d+)"', html)}


def test_an_imported_table_is_on_the_archive_not_on_the_floor(client, table, floorman):
    replayed = services.create_table("PHH abc 0 hand", small_blind=1, big_blind=2)
    Table.objects.filter(pk=replayed.id).update(imported=True)
    client.force_login(floorman)
    floor = client.get(reverse("floor")).content.decode()
    assert _floor_tiles(floor) == {table.id}
    assert "PHH abc" not in floor
    assert reverse("archive") in floor  # the floor links to the archive
    archive = client.get(reverse("archive"))
    assert archive.status_code == 200
    assert _archive_rows(archive.content.decode()) == {replayed.id}


def test_a_table_whose_hands_came_from_a_phh_file_stays_off_the_floor(client, table, floorman):
    replayed = services.create_table("Replay", small_blind=1, big_blind=2)
    for seat, name in [(1, "A"), (2, "B")]:
        services.seat_player(replayed.id, seat, name, 100)
    services.start_hand(replayed.id, metadata={"source": "phh"})  # as replay_phh starts it, left live
    client.force_login(floorman)
    assert _floor_tiles(client.get(reverse("floor")).content.decode()) == {table.id}
    assert _archive_rows(client.get(reverse("archive")).content.decode()) == {replayed.id}


@pytest.mark.django_db(transaction=True)
def test_replayed_hands_never_reach_the_floor(client, table, floorman, tmp_path):
    good = PHH / "wsop-2023-43-day5-NT" / "1.phh"
    text = good.read_text()
    stacks = re.search(r"^finishing_stacks = .*$", text, re.M).group(0)
    wrong = tmp_path / "wrong.phh"  # plays through but ends at other stacks
    wrong.write_text(text.replace(stacks, "finishing_stacks = [1, 2, 3, 4, 5]"))
    with pytest.raises(SystemExit):  # exit 1: one file did not replay to its recorded stacks
        call_command("replay_phh", str(wrong), str(good), stdout=io.StringIO())
    replays = set(Table.objects.filter(name__startswith="PHH ").values_list("id", flat=True))
    assert replays  # the good hand's table stays, as an archive
    client.force_login(floorman)
    assert _floor_tiles(client.get(reverse("floor")).content.decode()) == {table.id}
    assert _archive_rows(client.get(reverse("archive")).content.decode()) == replays


def test_the_archive_is_for_the_floor_only(client, dealer):
    client.force_login(dealer)
    assert client.get(reverse("archive")).status_code == 403


def _nav(html: str) -> list[str]:
    nav = html[html.index("<nav>") : html.index("</nav>")]
    return re.findall(r'<a href="([^"]+)"', nav)


def test_a_dealer_sees_only_the_rulebooks_in_the_top_bar(client, table, dealer):
    client.force_login(dealer)
    links = _nav(client.get(reverse("dealer", args=[table.id])).content.decode())
    assert links == [reverse("rules:index")]
    assert client.get(reverse("rules:index")).status_code == 200


def test_the_floor_sees_every_page_in_the_top_bar(client, floorman):
    client.force_login(floorman)
    links = _nav(client.get(reverse("floor")).content.decode())
    assert links == [
        reverse("floor"),
        reverse("room_index"),
        reverse("tournaments:index"),
        reverse("office:players"),  # the player records, the dealer rotation and the reports (issue 28)
        reverse("office:rotation"),
        reverse("office:reports"),
        reverse("rules:index"),
    ]
    for link in links:
        assert client.get(link, follow=True).status_code == 200


def test_a_user_without_a_role_sees_no_page_links(client, outsider):
    client.force_login(outsider)
    assert _nav(client.get(reverse("home")).content.decode()) == []
