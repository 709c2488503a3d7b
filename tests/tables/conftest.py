import pytest


@pytest.fixture
def table(db, dealer):
    """Table 1 at 1/2 with four players (seats 1, 3, 5, 7), dealt by ``dealer``."""
    from tables import services

    table = services.create_table("Table 1", small_blind=1, big_blind=2, dealer=dealer)
    for seat, name, stack in [(1, "Anna", 200), (3, "Ben", 300), (5, "Clara", 150), (7, "David", 400)]:
        services.seat_player(table.id, seat, name, stack)
    table.refresh_from_db()
    return table
