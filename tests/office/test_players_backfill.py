"""Hours for hands dealt before the player record existed (issue 28): ``manage.py backfill_player_ids``
gives older hands their seats' player ids by the normalised name, names the ambiguous ones, and a second
run changes nothing."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from office.hours import player_sessions
from tables.models import Hand, Player
from tests.office.night import EVENING, play_hands_at, room_with_two_tables

pytestmark = pytest.mark.django_db


def run() -> str:
    out = StringIO()
    call_command("backfill_player_ids", stdout=out)
    return out.getvalue()


def test_older_hands_get_their_players_and_the_hours_show(floorman):
    _room, _game, t1, _t2 = room_with_two_tables(floorman, names1=("Anna Müller", "Ben", "Clara"))
    play_hands_at(t1, EVENING, 4, timedelta(minutes=5), timedelta(minutes=4))  # 20:00-20:19
    hands = list(Hand.objects.filter(table=t1).order_by("number"))
    # the hands as dealt before the player record: no ids; one seat spelled otherwise, one kept id
    anna, ben, clara = (Player.objects.get(name=n) for n in ("Anna Müller", "Ben", "Clara"))
    for hand in hands:
        hand.metadata = {}
        hand.save(update_fields=["metadata"])
    first = hands[0]
    by_seat = {row["seat"]: row for row in first.spec["seats"]}
    by_seat[1]["player"] = "ANNA  MULLER"  # Anna's seat: the same name apart from case, spaces and accents
    by_seat[2]["player"] = "Ghost"  # Ben's seat under a name nobody's record has
    first.metadata = {"player_ids": {"3": clara.pk}}  # an id already there is kept as it is
    first.save(update_fields=["spec", "metadata"])
    Player.objects.create(name="ben")  # a second live "Ben": ambiguous
    assert player_sessions(anna.pk) == []  # before: no hours for Anna

    report = run()

    assert "4 hands examined; matched 7 seats in 4 hands" in report
    assert f"'Ben': records #{ben.pk}, #" in report and "3 seats" in report
    assert "'Ghost': 1 seats" in report
    sessions = player_sessions(anna.pk)
    assert [(s.hands, s.seconds) for s in sessions] == [(4, 19 * 60)]  # 20:00 to 20:19
    first.refresh_from_db()
    assert first.metadata["player_ids"] == {"1": anna.pk, "3": clara.pk}
    assert Hand.objects.get(pk=hands[1].pk).metadata["player_ids"] == {"1": anna.pk, "3": clara.pk}

    again = run()  # idempotent
    assert "4 hands examined; matched 0 seats in 0 hands" in again
    first.refresh_from_db()
    assert first.metadata["player_ids"] == {"1": anna.pk, "3": clara.pk}
