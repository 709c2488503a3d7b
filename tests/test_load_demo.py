"""``manage.py load_demo`` loads the demo room, tournament and cash floor, and loading it twice changes nothing."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def _load() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_load_demo_prints_the_accounts_and_links_and_is_idempotent():
    from room.models import Room
    from tables.models import Table
    from tournaments.models import Entry, Tournament

    first = _load()
    assert first.startswith("Demo room loaded. Log in at /login/ with:\n")
    for line in (
        "  dealer   dealer   / dealer-demo  (tablet of Table 1; also NL 1/2 Main)",
        "  dealer   dealer2  / dealer2-demo  (tablet of Table 2)",
        "  floor    floor    / floor-demo",
        "  manager  manager  / manager-demo",
    ):
        assert line + "\n" in first
    assert re.search(r"^  tournament director: /tournaments/\d+/   lobby: /tournaments/lobby/\S+/$", first, re.M)
    assert re.search(r"^  room dashboard: /room/casino/   lobby screen \(no login\): /lobby/\S+/$", first, re.M)
    counts = (Table.objects.count(), Tournament.objects.count(), Entry.objects.count(), Room.objects.count())
    assert counts[1:] == (1, 12, 1)
    second = _load()
    assert second.splitlines()[-2:] == first.splitlines()[-2:]  # the same tournament and lobby display link
    assert (Table.objects.count(), Tournament.objects.count(), Entry.objects.count(), Room.objects.count()) == counts
