"""The write path (tables.writepath): lock, repeated client_id, expected seq, seq written, publish after commit."""

import pytest
from django.db import transaction

from tables import writepath
from tables.models import Table
from tables.writepath import ServiceError, write_step

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_step_bumps_seq_writes_it_and_publishes_after_the_commit(table, monkeypatch):
    sent = []
    monkeypatch.setattr(writepath, "get_channel_layer", lambda: None)
    published = []

    def publish(row):
        published.append(row.seq)
        transaction.on_commit(lambda: sent.append(row.seq))

    with write_step(Table, table.id, expected_seq=table.seq) as step:
        first, second = step.bump(), step.bump()
        step.publish(publish, step.row)
        assert published == []  # the publisher runs at the end of the step
    assert (first, second) == (table.seq + 1, table.seq + 2)
    assert published == sent == [second]
    assert Table.objects.get(pk=table.id).seq == second


def test_a_step_refuses_a_stale_seq_and_an_unknown_row(table):
    with pytest.raises(ServiceError) as err:
        with write_step(Table, table.id, expected_seq=table.seq + 5):
            pass
    assert err.value.code == "stale" and err.value.extra == {"seq": table.seq}
    with pytest.raises(ServiceError) as err:
        with write_step(Table, 999999):
            pass
    assert err.value.code == "not_found"


def test_a_repeated_client_id_skips_the_seq_check_and_changes_nothing(table):
    with write_step(Table, table.id, expected_seq=-1, client_id="c1", find_duplicate=lambda row, cid: 41) as step:
        assert step.duplicate_seq == 41
    assert Table.objects.get(pk=table.id).seq == table.seq


def test_an_error_in_the_step_writes_and_publishes_nothing(table):
    published = []
    with pytest.raises(RuntimeError):
        with write_step(Table, table.id) as step:
            step.bump()
            step.row.name = "renamed"
            step.save("name")
            step.publish(published.append, 1)
            raise RuntimeError("refused")
    fresh = Table.objects.get(pk=table.id)
    assert published == [] and fresh.seq == table.seq and fresh.name == table.name


def test_saved_fields_go_out_with_the_seq(table):
    with write_step(Table, table.id) as step:
        step.row.name = "Table 9"
        step.save("name")
        step.bump()
    fresh = Table.objects.get(pk=table.id)
    assert fresh.name == "Table 9" and fresh.seq == table.seq + 1
