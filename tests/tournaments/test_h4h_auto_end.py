"""Hand-for-hand ends by itself when the bubble bursts (issue 23, 004 #77: the mode is played "an der
direkten Bubble"): once a round's busts leave only players in the money, the clock leaves hand-for-hand
and the system records ``hand_for_hand_ended`` citing 004 #77, caused by the event that completed the
round. One bust short of the money, hand-for-hand goes on."""

import pytest

from tests.tournaments.play import bust_hand
from tests.tournaments.test_desk_control import seated
from tests.tournaments.test_services import make, tables_of
from tournaments import services
from tournaments.models import Finish, TournamentEvent
from tournaments.services import desk

pytestmark = pytest.mark.django_db

PAYOUTS_18 = [300, 200, 150] + [90] * 15  # 18 places paid of 20 entries, pool 2,000


def _bubble(busts, django_capture_on_commit_callbacks):
    t = make(players=20)
    services.set_payouts(t.id, PAYOUTS_18)
    services.clock_action(t.id, "hand_for_hand")
    tt = tables_of(t)[0]
    out = [e for _s, e in sorted(seated(t, tt).items())[:busts]]
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(e.id, 4000 + i) for i, e in enumerate(out)])
    for other in [
        x for x in tables_of(t) if x.id != tt.id
    ]:  # the other tables play the round's hand: the round completes
        with django_capture_on_commit_callbacks(execute=True):
            bust_hand(other.table_id, folds_only=True)
    t.refresh_from_db()
    return t, out


def test_hand_for_hand_ends_by_itself_once_every_player_left_is_paid_004_77(django_capture_on_commit_callbacks):
    t, out = _bubble(2, django_capture_on_commit_callbacks)
    assert [(f.place, f.place_worst) for f in Finish.objects.filter(entry__in=out)] == [(19, 20)] * 2
    assert not t.hand_for_hand  # 18 left, 18 paid: the bubble burst
    ev = TournamentEvent.objects.get(tournament=t, kind="hand_for_hand_ended")
    assert ev.actor is None and ev.payload["by"] == "system" and ev.payload["rule"] == "004 #77"
    assert ev.payload["players_left"] == 18 and ev.payload["places_paid"] == 18
    assert "(004 #77)" in ev.payload["text_en"] and "Hand für Hand endet" in ev.payload["text_de"]
    assert ev.payload["cause"]["seq"] < ev.seq  # the event that completed the round
    assert not t.clock_paused_at  # the clock runs in real time again


def test_one_bust_short_of_the_money_hand_for_hand_goes_on(django_capture_on_commit_callbacks):
    t, _out = _bubble(1, django_capture_on_commit_callbacks)
    assert t.hand_for_hand  # 19 left, 18 paid: still the bubble
    assert not TournamentEvent.objects.filter(tournament=t, kind="hand_for_hand_ended").exists()
