"""Probes (tables.probes): a hook whose probe says it has nothing to do at a table is skipped at the
deal, one that may have something to do still runs, and a table loaded without the lock statement
runs every hook."""

import pytest

from tables import hooks, probes, services
from tables.models import Hand, Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hook_runs_only_at_the_tables_its_probe_names(table, dealer):
    other = services.create_table("Table 2", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name in [(1, "Eva"), (2, "Fritz")]:
        services.seat_player(other.id, seat, name, 100)
    seen = []

    def note_the_deal(t):
        seen.append(t.id)

    probes.register(note_the_deal, f"t.id = {int(table.id)}")
    try:
        with hooks.replaced("before_deal", note_the_deal):
            services.start_hand(table.id)
            services.start_hand(other.id)
    finally:
        probes.unregister(note_the_deal)
    assert seen == [table.id]
    assert Hand.objects.filter(table_id=other.id).exists()  # the other table was dealt all the same


def test_a_table_loaded_without_the_lock_statement_runs_every_hook(table):
    def hook(t):
        return None

    probes.register(hook, "FALSE")
    try:
        assert probes.needed(Table.objects.get(pk=table.id), hook)
        locked = services.lock_table(table.id)
        assert not probes.needed(locked, hook)
        assert probes.needed(locked, lambda t: None)  # a hook without a probe
    finally:
        probes.unregister(hook)
