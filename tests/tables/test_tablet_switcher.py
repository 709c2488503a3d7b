"""The dealer's way to his tables (issue 24, finding 13): the demo prints the table a dealer's
login opens, and a dealer with several open tables switches between them on the tablet."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tables import services
from tables.models import Table

pytestmark = pytest.mark.django_db


def test_the_demo_dealer_opens_the_table_printed_for_him(client):
    from django.contrib.auth.models import User

    out = StringIO()
    call_command("load_demo", stdout=out)
    printed = re.search(r"^  dealer   dealer   / dealer-demo  \(tablet of ([^);]+)", out.getvalue(), re.M)
    assert printed, out.getvalue()
    client.force_login(User.objects.get(username="dealer"))
    response = client.get(reverse("home"))
    assert response.status_code == 302
    opened = Table.objects.get(pk=int(re.search(r"/tables/(\d+)/dealer/", response["Location"])[1]))
    assert opened.name == printed[1]


def test_a_dealer_with_several_tables_switches_between_them(client, dealer, other_dealer):
    first = services.create_table("Table A", small_blind=1, big_blind=2, dealer=dealer)
    second = services.create_table("Table B", small_blind=2, big_blind=5, dealer=dealer)
    theirs = services.create_table("Table C", small_blind=1, big_blind=2, dealer=other_dealer)
    client.force_login(dealer)
    body = client.get(reverse("dealer", args=[first.id])).content.decode()
    switcher = re.search(r'<nav class="table-switch".*?</nav>', body, re.S)
    assert switcher, "no table switcher on the tablet"
    links = re.findall(r'href="/tables/(\d+)/dealer/"[^>]*>([^<]+)<', switcher[0])
    assert [(int(i), name.strip()) for i, name in links] == [(first.id, "Table A"), (second.id, "Table B")]
    assert 'aria-current="page"' in switcher[0]
    assert str(theirs.id) not in switcher[0]


def test_a_dealer_with_one_table_has_no_switcher(client, dealer):
    table = services.create_table("Table A", small_blind=1, big_blind=2, dealer=dealer)
    client.force_login(dealer)
    body = client.get(reverse("dealer", args=[table.id])).content.decode()
    assert "table-switch" not in body


def test_the_tablet_takes_the_rooms_double_tap_guard(client, dealer, settings):
    """The double-tap guard (``TABLET_DOUBLE_TAP_MS``): the tablet drops betting taps this long after the
    player to act changed, and reads it from its page (static/js/dealer/state.js)."""
    table = services.create_table("Table A", small_blind=1, big_blind=2, dealer=dealer)
    client.force_login(dealer)
    body = client.get(reverse("dealer", args=[table.id])).content.decode()
    assert 'data-double-tap-ms="400"' in body  # a room's default
    settings.TABLET_DOUBLE_TAP_MS = 250
    body = client.get(reverse("dealer", args=[table.id])).content.decode()
    assert 'data-double-tap-ms="250"' in body
