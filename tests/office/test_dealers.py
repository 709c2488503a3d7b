"""The dealer push (issue 28): the floor pushes with one tap, each table waits for its incoming dealer, who
takes over on the tablet under their own login and records the deck change or recount (001 6.24)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tables import dealers
from tables.models import DealerChange, DealerDown, DealerShift
from tables.writepath import ServiceError
from tests.office.night import room_with_two_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def crew(roles):
    """Dealers d1, d2, d3 on shift now (tonight's roster)."""
    now = timezone.now()
    users = []
    for name in ("d1", "d2", "d3"):
        user = User.objects.create_user(name, password="pw-" + name)
        user.groups.add(roles["dealer"])
        DealerShift.objects.create(dealer=user, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(hours=7))
        users.append(user)
    return users


def test_a_push_waits_for_each_incoming_dealer_who_records_the_decks(floorman, crew):
    d1, d2, d3 = crew
    _room, _game, t1, t2 = room_with_two_tables(floorman)
    dealers.start_down(t1.id, d1)
    dealers.start_down(t2.id, d2)
    state = dealers.rotation_state()
    assert [(m.dealer.username, m.source, m.target) for m in state.plan] == [
        ("d3", None, t1.id),
        ("d1", t1.id, t2.id),
        ("d2", t2.id, None),
    ]
    made = dealers.push(actor=floorman)
    assert [(c.table_id, c.outgoing.username, c.incoming.username) for c in made] == [
        (t1.id, "d1", "d3"),
        (t2.id, "d2", "d1"),
    ]
    with pytest.raises(ServiceError) as twice:
        dealers.push(actor=floorman)
    assert twice.value.code == "push_pending"
    assert dealers.is_incoming(d3, t1.id) and not dealers.is_incoming(d2, t1.id)
    with pytest.raises(ServiceError) as other:
        dealers.take_over(t1.id, d2, "swapped")
    assert other.value.code == "forbidden"
    with pytest.raises(ServiceError):
        dealers.take_over(t1.id, d3, "shuffled")
    dealers.take_over(t1.id, d3, "swapped")
    dealers.take_over(t2.id, d1, "recounted")
    t1.refresh_from_db()
    t2.refresh_from_db()
    assert (t1.dealer, t2.dealer) == (d3, d1)
    assert list(DealerChange.objects.order_by("table_id").values_list("deck", "citation")) == [
        ("swapped", "001 6.24"),
        ("recounted", "001 6.24"),
    ]
    assert set(DealerDown.objects.filter(ended_at=None).values_list("dealer__username", "table_id")) == {
        ("d3", t1.id),
        ("d1", t2.id),
    }
    assert list(dealers.rotation_state().resting) == [d2]
