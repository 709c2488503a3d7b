"""Another step holding a table's row: what the lock-timeout and group-commit tests wait behind."""

import threading

import psycopg
from django.db import connection

from tables.models import Table
from tests.conftest import database_url


class RowHolder:
    """Another connection (a tournament step, a correction taking its time, a deal of another process)
    holding the table's row lock from its construction until :meth:`release`."""

    def __init__(self, table_id: int, hold_at_most: float = 6.0) -> None:
        self.conn = psycopg.connect(database_url(connection.settings_dict))
        self.conn.execute(f"SELECT id FROM {Table._meta.db_table} WHERE id = %s FOR UPDATE", [table_id])
        self.lock = threading.Lock()
        # without a lock timeout the service would wait for ever: let go after a while, so the test fails
        self.timer = threading.Timer(hold_at_most, self.release)
        self.timer.start()

    def release(self) -> None:
        self.timer.cancel()
        with self.lock:
            if not self.conn.closed:
                self.conn.commit()
                self.conn.close()
