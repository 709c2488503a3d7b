"""The office app's configuration."""

from django.apps import AppConfig


class OfficeConfig(AppConfig):
    """Players, dealers and reports for the staff (issue 28)."""

    name = "office"
    default_auto_field = "django.db.models.BigAutoField"
