from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The ground floor: tables, seats, hands and their events.  Apps above it
    shape hands and serve the tablet through ``tables.hooks``."""

    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"
