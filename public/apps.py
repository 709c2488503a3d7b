"""The public room pages (issue 29): the room on a phone without login, remote waitlist joins, feeds."""

from django.apps import AppConfig


class PublicConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "public"
    verbose_name = "Public room pages"
