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


@pytest.fixture
def busy_threads(settings):
    """Every service thread held until the test lets them go (what the event loop writes still goes)."""
    import threading

    from pokerfloor.runtime import threads

    release = threading.Event()
    held = [threads.SERVICE_THREADS.submit(release.wait, 30) for _ in range(settings.SERVICE_THREADS)]
    yield
    release.set()
    for future in held:
        future.result(timeout=30)
