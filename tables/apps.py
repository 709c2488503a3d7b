import importlib.util

from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """While the cash floor still lives in ``tables.room``, register its
        hooks (the next hand's spec, a seat that opened); the ``room`` app
        registers them itself once it holds that code."""
        if importlib.util.find_spec("tables.room") is None:
            return
        from tables import hooks, room

        hooks.register_spec_adjuster(room.adjust_spec)
        hooks.register_seat_opened(room.seat_opened)
