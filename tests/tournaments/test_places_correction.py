"""The director corrects the bust order: the places and prizes follow and
the correction is in the audit trail (issue 23, "bust-out order correctable
by the director")."""

import pytest
from django.urls import reverse

from tables.services import ServiceError
from tests.tournaments.test_places import full_house, seated
from tournaments.models import Finish, TournamentEvent
from tournaments.services import desk, places

pytestmark = pytest.mark.django_db


def place(entry):
    f = Finish.objects.get(entry=entry)
    return (f.place, f.place_worst)


def test_the_director_swaps_two_busts_and_then_makes_them_share(client, floorman, django_capture_on_commit_callbacks):
    t = full_house(late=0)
    a, b = seated(t)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(a.id, None)])
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(b.id, None)])
    assert (place(a), place(b)) == ((27, 27), (26, 26))
    client.force_login(floorman)
    url = reverse("tournaments:payouts", args=[t.id])
    # b went out first, in fact: the director puts his bust earlier
    response = client.post(url, {"op": "bust_order", "entry": b.id, "move": "earlier", "note": "tablet 2 was late"})
    assert response.status_code == 302
    assert (place(a), place(b)) == ((26, 26), (27, 27))
    ev = TournamentEvent.objects.filter(tournament=t, kind="bust_order").latest("seq")
    assert ev.actor == floorman and ev.payload["note"] == "tablet 2 was late"
    assert {c["player"]: (c["before"], c["after"]) for c in ev.payload["changes"]} == {
        a.player.name: ("27", "26"),
        b.player.name: ("26", "27"),
    }
    # then: both went out in the same hand, with equal stacks -- they share 26-27
    places.correct_bust_order(t.id, b.id, "with_later", actor=floorman)
    assert place(a) == place(b) == (26, 27)
    page = client.get(url).content.decode()
    assert "26–27" in page


def test_a_correction_that_cannot_be_made_changes_nothing(django_capture_on_commit_callbacks):
    t = full_house(late=0)
    a = seated(t)[0]
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(a.id, None)])
    seq = type(t).objects.get(pk=t.pk).seq
    for entry, move in ((a.id, "earlier"), (a.id, "later"), (seated(t)[0].id, "later"), (a.id, "sideways")):
        with pytest.raises(ServiceError) as exc:
            places.correct_bust_order(t.id, entry, move)
        assert exc.value.code == "invalid"
    assert type(t).objects.get(pk=t.pk).seq == seq and place(a) == (27, 27)
