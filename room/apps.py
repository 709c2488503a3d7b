from django.apps import AppConfig


class RoomConfig(AppConfig):
    """The cash floor: games, waitlists, calls, must-move, table changes, lobby screens."""

    name = "room"
    default_auto_field = "django.db.models.BigAutoField"
