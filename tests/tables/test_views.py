"""Pages of the tables app: who may open the dealer tablet, the floor
dashboard, the hand history, a hand's event log and its PHH download.

Every permission is tested both ways with the standing users: the table's
dealer, another dealer, a floorman, an outsider and anonymous.
"""

import pytest
from django.urls import reverse

from tables import services
from tables.models import Hand

pytestmark = pytest.mark.django_db


def _login(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def played_hand(table):
    """A completed hand at ``table``: everyone folds to the big blind."""
    services.start_hand(table.id)
    hand = Hand.objects.get(table=table, status="live")
    while True:
        hand.refresh_from_db()
        state = hand.snapshot
        if state["phase"] == "complete":
            return hand
        services.apply_action(table.id, {"type": "fold", "seat": state["to_act_seat"]})


# ---------------------------------------------------------------- dealer tablet


def test_it_shows_the_tablet_to_the_tables_dealer(client, table, dealer):
    response = _login(client, dealer).get(reverse("dealer", args=[table.id]))
    assert response.status_code == 200
    body = response.content.decode()
    assert f'data-ws-path="/ws/tables/{table.id}/dealer/"' in body
    assert "js/dealer.js" in body
    assert 'src="/jsi18n/"' in body  # translated strings for the script (JavaScriptCatalog)


def test_it_refuses_the_tablet_to_a_dealer_of_another_table(client, table, other_dealer):
    response = _login(client, other_dealer).get(reverse("dealer", args=[table.id]))
    assert response.status_code == 403


def test_it_refuses_the_tablet_to_an_outsider(client, table, outsider):
    response = _login(client, outsider).get(reverse("dealer", args=[table.id]))
    assert response.status_code == 403


def test_it_shows_any_tablet_to_the_floor(client, table, floorman):
    response = _login(client, floorman).get(reverse("dealer", args=[table.id]))
    assert response.status_code == 200


def test_it_404s_the_tablet_of_an_unknown_table(client, floorman):
    response = _login(client, floorman).get(reverse("dealer", args=[999999]))
    assert response.status_code == 404


# ---------------------------------------------------------------- floor dashboard


def test_it_shows_every_table_on_the_floor(client, table, floorman):
    other = services.create_table("Table 9", small_blind=5, big_blind=10)
    response = _login(client, floorman).get(reverse("floor"))
    assert response.status_code == 200
    body = response.content.decode()
    assert f'data-table-id="{table.id}"' in body
    assert f'data-table-id="{other.id}"' in body
    assert 'data-ws-path="/ws/floor/"' in body


def test_it_refuses_the_floor_to_a_dealer(client, table, dealer):
    assert _login(client, dealer).get(reverse("floor")).status_code == 403


def test_it_refuses_the_floor_to_an_outsider(client, outsider):
    assert _login(client, outsider).get(reverse("floor")).status_code == 403


# ---------------------------------------------------------------- anonymous


@pytest.mark.parametrize("name", ["dealer", "hand_history"])
def test_it_sends_anonymous_to_login_for_table_pages(client, table, name):
    url = reverse(name, args=[table.id])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


@pytest.mark.parametrize("name", ["hand_detail", "hand_phh"])
def test_it_sends_anonymous_to_login_for_hand_pages(client, played_hand, name):
    url = reverse(name, args=[played_hand.id])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_sends_anonymous_to_login_for_the_floor(client):
    response = client.get(reverse("floor"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# ---------------------------------------------------------------- home


def test_it_sends_a_dealer_home_to_their_table(client, table, dealer):
    response = _login(client, dealer).get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == reverse("dealer", args=[table.id])


def test_it_tells_a_dealer_without_a_table_so(client, table, other_dealer):
    response = _login(client, other_dealer).get(reverse("home"))
    assert response.status_code == 200
    assert "No table assigned" in response.content.decode()


def test_it_sends_the_floor_home_to_the_dashboard(client, floorman):
    response = _login(client, floorman).get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == reverse("floor")


# ---------------------------------------------------------------- history, hand, PHH


def test_it_lists_the_hands_of_a_table_with_phh_links(client, played_hand, floorman):
    response = _login(client, floorman).get(reverse("hand_history", args=[played_hand.table_id]))
    assert response.status_code == 200
    body = response.content.decode()
    assert reverse("hand_phh", args=[played_hand.id]) in body
    assert reverse("hand_detail", args=[played_hand.id]) in body
    assert f"#{played_hand.number}" in body


def test_it_refuses_the_history_to_a_dealer(client, played_hand, dealer):
    response = _login(client, dealer).get(reverse("hand_history", args=[played_hand.table_id]))
    assert response.status_code == 403


def test_it_shows_the_event_log_of_a_hand(client, played_hand, floorman):
    response = _login(client, floorman).get(reverse("hand_detail", args=[played_hand.id]))
    assert response.status_code == 200
    body = response.content.decode()
    events = services.hand_events(played_hand)
    assert body.count('class="ev ev-') == len(events)
    assert "ev-fold" in body and "ev-start" in body


def test_it_refuses_the_event_log_to_a_dealer(client, played_hand, dealer):
    response = _login(client, dealer).get(reverse("hand_detail", args=[played_hand.id]))
    assert response.status_code == 403


def test_it_downloads_a_hand_as_phh(client, played_hand, floorman):
    response = _login(client, floorman).get(reverse("hand_phh", args=[played_hand.id]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert response["Content-Disposition"].endswith('.phh"')
    text = response.content.decode()
    assert "actions" in text and "starting_stacks" in text


def test_it_refuses_the_phh_download_to_a_dealer(client, played_hand, dealer):
    response = _login(client, dealer).get(reverse("hand_phh", args=[played_hand.id]))
    assert response.status_code == 403


# ---------------------------------------------------------------- language


def test_it_renders_the_pages_in_german_on_request(client, table, floorman):
    client.cookies["django_language"] = "de"
    response = _login(client, floorman).get(reverse("floor"))
    assert response.status_code == 200
    assert '<html lang="de">' in response.content.decode()
