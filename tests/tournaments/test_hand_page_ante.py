"""The hand page shows the hand's ante and its kind (issue 23): a tournament hand at a level with a big
blind ante (004 #81) says "Big blind ante 400" in its header beside the blinds, in English and German."""

import pytest
from django.urls import reverse

from tables import services as table_services
from tables.models import Hand
from tests.tournaments.test_services import make, tables_of
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang,words", [("en", "Big blind ante 400"), ("de", "Big-Blind-Ante 400")])
def test_the_hand_page_shows_the_big_blind_ante(client, floorman, lang, words):
    t = make(players=20)
    services.clock_action(t.id, "jump", level=2)  # 200/400, big blind ante 400
    table_id = tables_of(t)[0].table_id
    table_services.start_hand(table_id)
    hand = Hand.objects.get(table_id=table_id)
    client.force_login(floorman)
    html = client.get(reverse("hand_detail", args=[hand.id]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert "200/400" in html
    assert f'<dd class="hand-ante">{words}</dd>' in html


def test_a_hand_without_ante_shows_none(client, floorman):
    t = make(players=20)
    table_id = tables_of(t)[0].table_id
    table_services.start_hand(table_id)
    client.force_login(floorman)
    html = client.get(reverse("hand_detail", args=[Hand.objects.get(table_id=table_id).id])).content.decode()
    assert "hand-ante" not in html
