"""The dealer push by the clock (issue 28): once the floor has pushed, the floor worker pushes again when the
schedule's minutes are up, without anyone pressing a button, recorded as the system's push.  The clock is
given (``now``) or moved (the last push set back), never slept on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from pokerfloor import worker
from tables import dealers
from tables.models import DealerChange, DealerShift, PushSchedule
from tests.office.night import room_with_two_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def rotation(floorman, roles):
    """Two tables dealt by d1 and d2, d3 on a break; the floor's first push at ``start`` taken over
    (d3 at table 1, d1 at table 2, d2 resting); the schedule pushes every 30 minutes."""
    now = timezone.now()
    crew = []
    for name in ("d1", "d2", "d3"):
        user = User.objects.create_user(name, password="pw-" + name)
        user.groups.add(roles["dealer"])
        DealerShift.objects.create(dealer=user, starts_at=now - timedelta(hours=2), ends_at=now + timedelta(hours=7))
        crew.append(user)
    _room, _game, t1, t2 = room_with_two_tables(floorman)
    start = now - timedelta(minutes=90)
    dealers.start_down(t1.id, crew[0], now=start)
    dealers.start_down(t2.id, crew[1], now=start)
    dealers.push(actor=floorman, now=start)
    dealers.take_over(t1.id, crew[2], "swapped", now=start + timedelta(minutes=1))
    dealers.take_over(t2.id, crew[0], "recounted", now=start + timedelta(minutes=1))
    PushSchedule.objects.update(minutes=30)
    return start, t1, t2, crew


def test_the_push_happens_when_its_minutes_are_up_and_not_before(rotation):
    start, t1, t2, (d1, d2, d3) = rotation
    assert dealers.next_push_at() == start + timedelta(minutes=30)
    assert dealers.push_if_due(now=start + timedelta(minutes=29, seconds=59)) == []
    assert DealerChange.objects.filter(taken_at=None).count() == 0
    made = dealers.push_if_due(now=start + timedelta(minutes=30))
    assert [(c.table_id, c.outgoing.username, c.incoming.username, c.pushed_by) for c in made] == [
        (t1.id, "d3", "d2", None),
        (t2.id, "d1", "d3", None),
    ]
    assert {c.pushed_at for c in made} == {start + timedelta(minutes=30)}
    # once: the push waits for its takeovers, a second look pushes nothing
    assert dealers.push_if_due(now=start + timedelta(minutes=31)) == []
    assert DealerChange.objects.filter(taken_at=None).count() == 2


def test_the_floor_worker_pushes_by_itself_and_the_board_names_the_system(rotation, client, floorman):
    start, t1, t2, (d1, d2, d3) = rotation
    PushSchedule.objects.update(last_push_at=timezone.now() - timedelta(minutes=5))  # the clock: 5 of 30 min
    wait = worker.seconds_to_next_deadline()
    assert wait is not None and 24 * 60 < wait <= 25 * 60  # the worker wakes for the push
    worker.tick()
    assert not DealerChange.objects.filter(taken_at=None).exists()
    PushSchedule.objects.update(last_push_at=timezone.now() - timedelta(minutes=31))  # 31 minutes on
    worker.tick()
    pending = list(DealerChange.objects.filter(taken_at=None).order_by("table_id"))
    assert [(c.table_id, c.incoming.username, c.pushed_by_id) for c in pending] == [
        (t1.id, "d2", None),
        (t2.id, "d3", None),
    ]
    assert worker.seconds_to_next_deadline() is None or worker.seconds_to_next_deadline() > 0  # no busy loop
    dealers.take_over(t1.id, d2, "swapped")
    client.force_login(floorman)
    page = client.get("/office/rotation/").content.decode()
    assert "pushed by system (by the clock)" in page
