"""The office pages (issue 28), staff only: a player's page shows the hours from the hands across two
tables, the rotation board pushes with one tap, the reports page draws its charts and exports CSV."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from tables.models import DealerChange, DealerShift, Player
from tests.office.night import EVENING, play_hands_at, room_with_two_tables

pytestmark = pytest.mark.django_db


def test_office_pages_are_staff_only(client, dealer, outsider):
    for user in (dealer, outsider):
        client.force_login(user)
        for url in ("/office/players/", "/office/rotation/", "/office/reports/", "/office/reports.csv"):
            assert client.get(url).status_code == 403


def test_the_player_page_shows_hours_dealt_in_across_two_tables(client, floorman):
    _room, _game, t1, t2 = room_with_two_tables(floorman, names1=("Anna", "Ben"), names2=("Clara", "Dora"))
    anna = Player.objects.get(name="Anna")
    play_hands_at(t1, EVENING, 4, timedelta(minutes=5), timedelta(minutes=3))  # 20:00-20:18
    # Anna moves to Main 2 (Clara's seat is free after Clara leaves): her hands there from 21:00
    from room import services as r

    r.leave_seat(t2.id, 1, actor=floorman)
    r.leave_seat(t1.id, 1, actor=floorman)
    from tables import services

    services.seat_player(t2.id, 1, anna, 0)
    r.buy_in(t2.id, 1, 100)
    play_hands_at(t2, EVENING + timedelta(hours=1), 3, timedelta(minutes=10), timedelta(minutes=6))  # 21:00-21:26
    client.force_login(floorman)
    page = client.get(f"/office/players/{anna.pk}/").content.decode()
    assert "Main 1" in page and "Main 2" in page
    # 18 minutes at Main 1 + 26 at Main 2 = 44 minutes = 0.73 h
    assert 'data-field="total-hours">0.73<' in page
    assert 'data-field="total-hands">7<' in page


def test_the_rotation_board_pushes_with_one_tap(client, floorman, roles):
    from django.utils import timezone

    _room, _game, t1, t2 = room_with_two_tables(floorman)
    from tables import dealers

    crew = []
    for name in ("d1", "d2", "d3"):
        user = User.objects.create_user(name, password="x")
        user.groups.add(roles["dealer"])
        now = timezone.now()
        DealerShift.objects.create(dealer=user, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(hours=6))
        crew.append(user)
    dealers.start_down(t1.id, crew[0])
    dealers.start_down(t2.id, crew[1])
    client.force_login(floorman)
    board = client.get("/office/rotation/").content.decode()
    assert 'data-resting="d3"' in board
    response = client.post("/office/rotation/", {"push": "1"})
    assert response.status_code == 302
    assert DealerChange.objects.filter(taken_at=None).count() == 2
    board = client.get("/office/rotation/").content.decode()
    assert "taking over on the tablet" in board


def test_reports_page_draws_svg_charts_and_exports_csv(client, floorman):
    _room, _game, t1, _t2 = room_with_two_tables(floorman)
    hands = play_hands_at(t1, EVENING, 3, timedelta(minutes=4), timedelta(minutes=2))
    assert len(hands) == 3
    client.force_login(floorman)
    day = EVENING.date().isoformat()
    page = client.get(f"/office/reports/?from={day}&to={day}").content.decode()
    assert page.count("<svg") >= 2 and "<script" not in page.split("<svg", 1)[1].split("</svg>", 1)[0]
    rows = list(csv.reader(io.StringIO(client.get(f"/office/reports.csv?from={day}&to={day}").content.decode())))
    table_row = next(r for r in rows if r[0] == "table" and r[1] == "Main 1")
    # 3 hands from 20:00 to 20:10 (10 minutes): 0.17 h, 18 hands per hour, 3 players per hand
    assert table_row[2:] == ["NLHE 1/2", "0.17", "3", "18.0", "3.0"]
