"""The chip race on the database: 001 Chip Race can knock a player out --
his bust is recorded, placed and paid exactly like a bust in a hand (001
Ende des Turniers) -- while under 004 #24 nobody busts by the race ("er
erhält automatisch den kleinsten noch im Spiel befindlichen Chip")."""

import pytest

from tables import services as table_services
from tables.models import Seat
from tests.tournaments.test_services import make, occupied, tables_of
from tournaments import services
from tournaments.models import ChipRaceRecord, Entry, Finish, Instruction, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db

STACKS = (25, 50, 10_050, 9_950, 10_000)  # two short stacks of odd chips only


def set_stacks(tt):
    names = {}
    for (number, name), stack in zip(sorted(occupied(tt).items()), STACKS):
        seat = Seat.objects.get(table_id=tt.table_id, number=number)
        table_services.set_seat(tt.table_id, number, player_id=seat.player_id, stack=stack)
        names[stack] = name
    return names


def test_001_chip_race_knocks_out_both_short_stacks_placed_by_their_stacks(django_capture_on_commit_callbacks):
    t = make("wynental", players=5)
    tt = tables_of(t)[0]
    names = set_stacks(tt)
    cards = {names[25]: ["2d"], names[50]: ["3d"], names[10_050]: ["Ac"], names[9_950]: ["Kc"]}
    with django_capture_on_commit_callbacks(execute=True):
        record = services.chip_race(t.id, tt.number, 25, 100, cards=cards)
    assert record.rule == "001 Chip Race"
    lines = {ln["player"]: ln for ln in record.result["lines"]}
    assert lines[names[25]]["eliminated"] and lines[names[50]]["eliminated"]
    # placed like two busts in one hand: the bigger stack before the race finishes better
    finishes = {f.entry.player.name: f for f in Finish.objects.filter(tournament=t).select_related("entry__player")}
    assert (finishes[names[50]].place, finishes[names[25]].place) == (4, 5)
    assert finishes[names[50]].rule == "001 Ende des Turniers" and finishes[names[50]].hand is None
    assert finishes[names[50]].stack_at_start == 50
    payouts = services.payout_table_of(Tournament.objects.get(pk=t.pk))
    assert [finishes[names[s]].prize for s in (50, 25)] == [payouts.prize(4), payouts.prize(5)]
    assert set(Entry.objects.filter(tournament=t, status="busted").values_list("player__name", flat=True)) == {
        names[25],
        names[50],
    }
    # their seats are cleared, the winner got all odd chips rounded up (001 Chip Race)
    assert names[25] not in occupied(tt).values() and names[50] not in occupied(tt).values()
    assert Seat.objects.get(table_id=tt.table_id, player__name=names[10_050]).stack == 10_000 + 200
    text = Instruction.objects.get(tournament=t, kind="chip_race").text_en
    assert f"{names[25]} is out" in text and "(001 Chip Race)" in text
    snap = services.snapshot(Tournament.objects.get(pk=t.pk))
    assert snap["players_left"] == 3 and [f["place"] for f in snap["finishes"]] == [4, 5]


def test_001_a_chip_race_that_leaves_one_player_ends_the_tournament():
    t = make("wynental", players=2)
    tt = tables_of(t)[0]
    (s1, n1), (s2, n2) = sorted(occupied(tt).items())
    for number, stack in ((s1, 25), (s2, 19_950)):
        seat = Seat.objects.get(table_id=tt.table_id, number=number)
        table_services.set_seat(tt.table_id, number, player_id=seat.player_id, stack=stack)
    services.chip_race(t.id, tt.number, 25, 100, cards={n1: ["2d"], n2: ["Ac"]})
    t.refresh_from_db()
    assert t.status == "finished"
    assert list(TournamentEvent.objects.filter(tournament=t).order_by("seq").values_list("kind", flat=True))[-2:] == [
        "chip_race",
        "finished",
    ]
    assert dict(Finish.objects.filter(tournament=t).values_list("entry__player__name", "place")) == {n1: 2, n2: 1}


def test_004_24_nobody_busts_by_the_race_he_keeps_one_chip_of_the_new_denomination():
    t = make("munotpoker", players=5)
    tt = tables_of(t)[0]
    names = set_stacks(tt)
    record = services.chip_race(t.id, tt.number, 25, 100)  # the app deals one card per odd chip
    assert record.rule == "004 #24"
    lines = {ln["player"]: ln for ln in record.result["lines"]}
    for short in (names[25], names[50]):
        assert not lines[short]["eliminated"] and lines[short]["new_stack"] == 100
        assert Seat.objects.get(table_id=tt.table_id, player__name=short).stack == 100
    assert not Finish.objects.filter(tournament=t).exists()
    assert Entry.objects.filter(tournament=t, status="seated").count() == 5
    assert ChipRaceRecord.objects.filter(tournament=t).count() == 1
