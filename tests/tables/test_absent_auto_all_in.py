"""003 "Ausserordentliche und ordentliche Handlungen der Spieler" on a live table: an absent player
put all-in by his blind ("Auto All-In") is not folded and plays for the main pot; under the other
profiles (000 Allgemein 6) the absent player's hand is dead."""

import pytest

from tables import services
from tables.models import Hand, HandEvent, Seat, Table

pytestmark = pytest.mark.django_db


def _start(dealer, profile: str) -> Table:
    """Seats 1, 3, 5; the first button is seat 1, so seat 3 posts the small blind (1) and the
    absent seat 5 the big blind (2) -- all of his 2 chips."""
    table = services.create_table("Absent", small_blind=1, big_blind=2, dealer=dealer)
    Table.objects.filter(pk=table.id).update(rules_profile=profile)
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 2)]:
        services.seat_player(table.id, seat, name, stack)
    Seat.objects.filter(table_id=table.id, number=5).update(absent=True)
    services.start_hand(table.id)
    return Table.objects.select_related("current_hand").get(pk=table.id)


def _kills(table: Table) -> list[dict]:
    hand = Hand.objects.get(pk=table.current_hand_id)
    return [e.payload for e in HandEvent.objects.filter(hand=hand, kind="action") if e.payload.get("type") == "kill"]


def test_003_absent_player_all_in_by_his_blind_is_not_folded_and_plays_for_the_main_pot(dealer):
    table = _start(dealer, "nlhe")
    assert _kills(table) == []
    clara = next(p for p in table.current_hand.snapshot["players"] if p["seat"] == 5)
    assert not clara["folded"] and clara["stack"] == 0 and clara["bet"] == 2


def test_000_allgemein_6_absent_player_hand_is_dead_even_when_all_in(dealer):
    table = _start(dealer, "casino-cash")
    [kill] = _kills(table)
    assert kill["seat"] == 5 and [c["label"] for c in kill["citations"]] == ["000 Allgemein 6"]
    clara = next(p for p in table.current_hand.snapshot["players"] if p["seat"] == 5)
    assert clara["folded"] and clara["bet"] == 2
