from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The ground floor: tables, seats, hands and their events.  Apps above it
    shape hands and serve the tablet through ``tables.hooks``."""

    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Open sockets lose their rights with the change that takes them away (``tables.revocation``)."""
        from tables import revocation

        revocation.connect_signals()
