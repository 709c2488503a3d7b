"""A bust at the desk accounts for the loser's chips (issue 23, finding 12).

The director names who won them -- a player at the same table, credited at
once, so the chips in play still add up -- or, naming nobody, the table is
marked for a recount until it is counted."""

import pytest

from tables.models import Seat
from tables.services import ServiceError
from tests.tournaments.test_services import make, occupied, tables_of
from tournaments.models import Entry, TournamentEvent
from tournaments.services import chipcounts, desk

pytestmark = pytest.mark.django_db


def at_table(t, tt):
    names = set(occupied(tt).values())
    return list(Entry.objects.filter(tournament=t, status="seated", player__name__in=names).order_by("id"))


def stack(entry):
    return Seat.objects.get(player_id=entry.player_id, table__tournament_table__tournament=entry.tournament).stack


def test_the_winner_named_at_a_desk_bust_gets_the_chips_and_the_check_stays_green():
    t = make(players=12)
    tt = tables_of(t)[0]
    loser, winner = at_table(t, tt)[:2]
    assert chipcounts.chip_stats(t)["mismatch"] is False
    out = desk.desk_bust(t.id, [(loser.id, None)], won_by=winner.id)
    assert stack(winner) == 20_000
    stats = chipcounts.chip_stats(t)
    assert stats["mismatch"] is False and stats["difference"] == 0 and stats["recount"] == []
    assert out["won_by"]["chips"] == 10_000 and "won 10000 chips" in out["text_en"]
    ev = TournamentEvent.objects.get(tournament=t, seq=out["seq"])
    assert ev.kind == "desk_bust" and ev.payload["won_by"]["entry"] == winner.id
    # undone: the loser sits down again with his chips, the winner gives them back
    desk.desk_undo(t.id, out["seq"])
    assert stack(winner) == 10_000 and stack(Entry.objects.get(pk=loser.pk)) == 10_000
    assert chipcounts.chip_stats(t)["mismatch"] is False


def test_no_winner_named_marks_the_table_for_a_recount_until_it_is_counted():
    t = make(players=12)
    tt = tables_of(t)[0]
    loser = at_table(t, tt)[0]
    out = desk.desk_bust(t.id, [(loser.id, None)])
    assert out["recount"] == [tt.number] and "recount table" in out["text_en"]
    stats = chipcounts.chip_stats(t)
    assert stats["recount"] == [tt.number]
    assert next(row for row in stats["tables"] if row["number"] == tt.number)["recount"] is True
    seats = {s: 10_000 for s in occupied(tt)}
    seats[min(seats)] += 10_000  # the count finds the chips where they went
    chipcounts.record_chip_counts(t.id, tt.number, seats)
    stats = chipcounts.chip_stats(t)
    assert stats["recount"] == [] and stats["mismatch"] is False


def test_the_winner_must_sit_at_the_table_of_the_bust_and_nothing_changes_otherwise():
    t = make(players=12)
    first, second = tables_of(t)[:2]
    loser = at_table(t, first)[0]
    elsewhere = at_table(t, second)[0]
    seq = type(t).objects.get(pk=t.pk).seq
    with pytest.raises(ServiceError) as exc:
        desk.desk_bust(t.id, [(loser.id, None)], won_by=elsewhere.id)
    assert exc.value.code == "invalid" and "table of the bust" in exc.value.message
    with pytest.raises(ServiceError):
        desk.desk_bust(t.id, [(loser.id, None)], won_by=loser.id)
    assert Entry.objects.get(pk=loser.pk).status == "seated" and type(t).objects.get(pk=t.pk).seq == seq
